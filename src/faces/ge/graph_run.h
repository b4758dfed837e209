/* Runs a stored graph on the CPU: feeds checked against the Data nodes, nodes in order,
 * each through its kernel, outputs returned as new tensors. */
#ifndef ROPEKIT_GE_GRAPH_RUN_H_
#define ROPEKIT_GE_GRAPH_RUN_H_

#include <vector>

#include "graph_program.h"

namespace ropekit_ge {

/* outputs is replaced only on success. The program is not modified (its plan caches
 * excepted, which are thread-safe): one program may run on several threads at once. */
ge::Status RunProgram(const Program &program, const std::vector<ge::Tensor> &inputs,
                      std::vector<ge::Tensor> &outputs);

} // namespace ropekit_ge

#endif /* ROPEKIT_GE_GRAPH_RUN_H_ */
