/* A graph as Session::AddGraph stores it: a validated snapshot of the nodes in an order
 * that runs every node after the nodes it reads, and the values that connect them. */
#ifndef ROPEKIT_GE_GRAPH_PROGRAM_H_
#define ROPEKIT_GE_GRAPH_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ge/ge_api_types.h"
#include "graph/graph.h"
#include "op_kernels.h"
#include "operator_impl.h"

namespace ropekit_ge {

/* ProgramNode::inputs of an optional kernel input the graph leaves unconnected. */
constexpr int kAbsentInput = -1;

struct ProgramNode {
    enum class Kind { Data, Const, Op } kind = Kind::Op;
    ge::OperatorImpl op; /* a copy without connections; tensor attributes are deep copies */
    const OpKernel *kernel = nullptr;
    std::vector<int> inputs;         /* value per kernel input, or kAbsentInput */
    std::vector<int> input_ports;    /* the node's input index per kernel input */
    std::vector<int> outputs;        /* value per node output */
    std::vector<int> kernel_outputs; /* the node's output index per kernel output */
    int64_t data_index = -1;
    ge::Tensor const_value;
    bool needed = false; /* a graph output or target depends on it */
    std::unique_ptr<PlanCache> plans;
};

struct ProgramValue {
    int node = -1;
    int output = -1;
    int uses = 0; /* reads by needed nodes */
    bool graph_output = false;
};

struct Program {
    uint32_t id = 0;
    std::string name;
    std::vector<ProgramNode> nodes; /* in execution order */
    std::vector<ProgramValue> values;
    std::vector<int> outputs;    /* the graph's outputs, in order */
    std::vector<int> data_nodes; /* node of Data index i */
    /* "graph 0 \"name\"" */
    std::string Describe() const;
};

/* Validates `graph` and snapshots it. On failure the message names the node, the input,
 * output or attribute, its value and the rule. */
ge::Status BuildProgram(const ge::Graph &graph, uint32_t graph_id,
                        std::shared_ptr<const Program> *out);

/* The declared description a Data node's feed must match; NULL when none was set. */
const ge::TensorDesc *DataDeclaredDesc(const ProgramNode &node);

/* Checks a value's actual description against a node input: the type its prototype
 * allows and the description declared on the input (update_input_desc_<x>), if any. */
ge::Status CheckInputDesc(const ProgramNode &node, size_t kernel_input, const ge::TensorDesc &desc,
                          std::string *detail);
/* Checks an output's description against the one declared for it, if any. */
ge::Status CheckOutputDesc(const ProgramNode &node, size_t node_output, const ge::TensorDesc &desc,
                           std::string *detail);
/* A declared description admits an actual one: same dtype; same rank and dims where the
 * declared dims are known (-1 any size, {-2} any rank). *why says what differs. */
bool DescAdmits(const ge::TensorDesc &declared, const ge::TensorDesc &actual, std::string *why,
                ge::Status *status);

/* "[1, 1, 1, 128] DT_FLOAT" */
std::string DescToString(const ge::TensorDesc &desc);

} // namespace ropekit_ge

#endif /* ROPEKIT_GE_GRAPH_PROGRAM_H_ */
