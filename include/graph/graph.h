/* GE graph API (ropekit): Graph, a set of connected operators with inputs and outputs.
 *
 * A Graph is a handle: copies refer to the same graph. Its nodes are the operators given
 * to AddOp, SetInputs, SetOutputs and SetTargets and every operator they read from,
 * directly or through other nodes. Session::AddGraph takes a snapshot of them. */
#ifndef ROPEKIT_GRAPH_GRAPH_H_
#define ROPEKIT_GRAPH_GRAPH_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "graph/operator.h"

namespace ge {

class GraphImpl;

class GE_FUNC_VISIBILITY Graph {
  public:
    /* A graph without a name; the first mutating call creates it. */
    Graph() = default;
    explicit Graph(const char_t *name);
    explicit Graph(const std::string &name);

    /* The Data nodes the graph reads (RunGraph's inputs are matched to Data nodes by their
     * `index` attribute). */
    Graph &SetInputs(const std::vector<Operator> &inputs);
    /* The graph's outputs, in order: every output of each operator; the given output
     * numbers of each operator; or the output of each operator with the given name. */
    Graph &SetOutputs(const std::vector<Operator> &outputs);
    Graph &SetOutputs(const std::vector<std::pair<Operator, std::vector<size_t>>> &output_indexs);
    Graph &SetOutputs(const std::vector<std::pair<Operator, std::string>> &outputs);
    Graph &SetOutputs(const std::vector<std::pair<Operator, AscendString>> &outputs);
    /* Operators to run although no output depends on them. */
    Graph &SetTargets(const std::vector<Operator> &targets);

    /* False for a default-constructed graph that nothing was added to. */
    bool IsValid() const;
    graphStatus AddOp(const Operator &op);
    graphStatus FindOpByName(const char_t *name, Operator &op) const;
    graphStatus FindOpByName(const std::string &name, Operator &op) const;
    graphStatus FindOpByType(const char_t *type, std::vector<Operator> &ops) const;
    graphStatus FindOpByType(const std::string &type, std::vector<Operator> &ops) const;
    graphStatus GetAllOpName(std::vector<AscendString> &names) const;
    graphStatus GetAllOpName(std::vector<std::string> &op_name) const;
    const std::string &GetName() const;
    graphStatus GetName(AscendString &name) const;

  private:
    std::shared_ptr<GraphImpl> impl_;
    friend class GraphAdapter;
};

} // namespace ge

#endif /* ROPEKIT_GRAPH_GRAPH_H_ */
