/* GE API (ropekit): graph dumps and the IR version. */
#ifndef ROPEKIT_GE_GE_IR_BUILD_H_
#define ROPEKIT_GE_GE_IR_BUILD_H_

#include <cstddef>
#include <cstdint>

#include "graph/error_codes.h"
#include "graph/graph.h"

namespace ge {

const int32_t IR_MAJOR_VERSION = 1;
const int32_t IR_MINOR_VERSION = 0;
const int32_t IR_PATCH_VERSION = 0;

/* Writes a readable description of the graph (nodes, connections, attributes, tensor
 * descriptions, outputs) to the file `file` (len characters). When `file` ends with '/',
 * the file is <that directory>/<graph name>.txt (graph.txt for a graph without a name).
 * GRAPH_PARAM_INVALID for a NULL or empty path, a len that is not strlen(file), a directory
 * that does not exist or a file that cannot be written. */
GE_FUNC_VISIBILITY graphStatus aclgrphDumpGraph(const Graph &graph, const char_t *file,
                                                const size_t len);
GE_FUNC_VISIBILITY graphStatus aclgrphGetIRVersion(int32_t *major_version, int32_t *minor_version,
                                                   int32_t *patch_version);

} // namespace ge

#endif /* ROPEKIT_GE_GE_IR_BUILD_H_ */
