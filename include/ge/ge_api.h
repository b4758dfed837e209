/* GE API (ropekit): initialisation, sessions and messages.
 *
 *   GEInitialize(options)            once per process (again: no effect); options
 *                                    "ge.exec.deviceId" (must be 0) and others, which
 *                                    are accepted and reported as warnings
 *   Session s(options);              any number, from any thread
 *   s.AddGraph(id, graph)            validates the graph and takes a snapshot of it
 *   s.RunGraph(id, inputs, outputs)  runs it on the CPU; outputs are new host tensors
 *   s.RemoveGraph(id)
 *   GEFinalize()                     ends every session (their calls then fail)
 *
 * Every call returns a Status; on failure GEGetErrorMsgV2() tells what was wrong (node,
 * input or attribute, value and rule). Calls on one Session may come from several threads
 * at once. */
#ifndef ROPEKIT_GE_GE_API_H_
#define ROPEKIT_GE_GE_API_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge/ge_api_error_codes.h"
#include "ge/ge_api_types.h"
#include "graph/ascend_string.h"
#include "graph/graph.h"
#include "graph/tensor.h"

namespace ge {

GE_FUNC_VISIBILITY Status GEInitialize(const std::map<std::string, std::string> &options);
GE_FUNC_VISIBILITY Status GEInitialize(const std::map<AscendString, AscendString> &options);
GE_FUNC_VISIBILITY Status GEFinalize();

/* The messages of this thread's failures since the last call, and clears them; "" when
 * there were none. */
GE_FUNC_VISIBILITY std::string GEGetErrorMsg();
GE_FUNC_VISIBILITY AscendString GEGetErrorMsgV2();
/* The same for warnings (options that have no effect, for example). */
GE_FUNC_VISIBILITY std::string GEGetWarningMsg();
GE_FUNC_VISIBILITY AscendString GEGetWarningMsgV2();

class GE_FUNC_VISIBILITY Session {
  public:
    /* Options are accepted and not used. Without GEInitialize the session is not usable:
     * its calls return ACL_ERROR_GE_EXEC_NOT_INIT. */
    explicit Session(const std::map<std::string, std::string> &options);
    explicit Session(const std::map<AscendString, AscendString> &options);
    ~Session();
    Session(const Session &) = delete;
    Session &operator=(const Session &) = delete;

    /* Validates the graph and stores a snapshot of it under graph_id (later changes to
     * the graph's operators do not affect it). An id already in use fails. */
    Status AddGraph(uint32_t graph_id, const Graph &graph);
    Status AddGraph(uint32_t graph_id, const Graph &graph,
                    const std::map<std::string, std::string> &options);
    Status AddGraph(uint32_t graph_id, const Graph &graph,
                    const std::map<AscendString, AscendString> &options);
    Status AddGraphWithCopy(uint32_t graph_id, const Graph &graph);
    Status AddGraphWithCopy(uint32_t graph_id, const Graph &graph,
                            const std::map<AscendString, AscendString> &options);
    Status RemoveGraph(uint32_t graph_id);

    /* Runs the graph: inputs[i] feeds the Data node with index i; outputs is replaced by
     * the graph's outputs, new tensors that own their data. The inputs are never
     * modified, also when an in-place operator reads them. */
    Status RunGraph(uint32_t graph_id, const std::vector<Tensor> &inputs,
                    std::vector<Tensor> &outputs);

    /* Always false: a snapshot never needs rebuilding. */
    bool IsGraphNeedRebuild(uint32_t graph_id);
    uint64_t GetSessionId() const;

  private:
    uint64_t sessionId_ = 0;
};

} // namespace ge

#endif /* ROPEKIT_GE_GE_API_H_ */
