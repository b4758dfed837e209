/* Inside a ge::Graph: the operators it was given and how its outputs were named. */
#ifndef ROPEKIT_GE_GRAPH_IMPL_H_
#define ROPEKIT_GE_GRAPH_IMPL_H_

#include <memory>
#include <string>
#include <vector>

#include "graph/graph.h"
#include "operator_impl.h"

namespace ropekit_ge {

/* One entry of SetOutputs: every output of `op`, the given numbers, or one output by
 * name. */
struct OutputSpec {
    std::shared_ptr<ge::OperatorImpl> op;
    enum class By { All, Indices, Name } by = By::All;
    std::vector<size_t> indices;
    std::string name;
};

/* The graph's nodes: every operator given to the graph and all it reads from, in the
 * order they were first met (given operators first, then upstream, depth first). */
std::vector<std::shared_ptr<ge::OperatorImpl>> CollectNodes(const ge::GraphImpl &graph);

} // namespace ropekit_ge

namespace ge {

class GraphImpl {
  public:
    std::string name;
    std::vector<std::shared_ptr<OperatorImpl>> added;
    std::vector<std::shared_ptr<OperatorImpl>> inputs;
    std::vector<std::shared_ptr<OperatorImpl>> targets;
    std::vector<ropekit_ge::OutputSpec> outputs;
    bool outputs_set = false;
};

class GraphAdapter {
  public:
    static const std::shared_ptr<GraphImpl> &Impl(const Graph &g) { return g.impl_; }
};

} // namespace ge

#endif /* ROPEKIT_GE_GRAPH_IMPL_H_ */
