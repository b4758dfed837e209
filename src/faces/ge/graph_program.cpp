#include "graph_program.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

#include "ge/ge_error_codes.h"
#include "graph_impl.h"
#include "messages.h"
#include "tensor_impl.h"
#include "types_table.h"

namespace ropekit_ge {

std::string Program::Describe() const {
    return Format("graph %u \"%s\"", static_cast<unsigned>(id), name.c_str());
}

std::string DescToString(const ge::TensorDesc &desc) {
    std::string dims;
    for (int64_t d : desc.GetShape().GetDims())
        dims += (dims.empty() ? "" : ", ") + std::to_string(d);
    return Format("[%s] %s", dims.c_str(), DataTypeName(desc.GetDataType()).c_str());
}

bool DescAdmits(const ge::TensorDesc &declared, const ge::TensorDesc &actual, std::string *why,
                ge::Status *status) {
    if (declared.GetDataType() != actual.GetDataType()) {
        *why = Format("dtype %s, declared %s", DataTypeName(actual.GetDataType()).c_str(),
                      DataTypeName(declared.GetDataType()).c_str());
        *status = ACL_ERROR_GE_DATATYPE_INVALID;
        return false;
    }
    std::vector<int64_t> want = declared.GetShape().GetDims();
    std::vector<int64_t> have = actual.GetShape().GetDims();
    auto unknown_rank = [](const std::vector<int64_t> &d) {
        return d.size() == 1 && d[0] == ge::UNKNOWN_DIM_NUM;
    };
    if (unknown_rank(want) || unknown_rank(have))
        return true;
    bool ok = want.size() == have.size();
    for (size_t i = 0; ok && i < want.size(); ++i)
        ok = want[i] < 0 || have[i] < 0 || want[i] == have[i];
    if (!ok) {
        *why = Format("shape %s, declared %s", DescToString(actual).c_str(),
                      DescToString(declared).c_str());
        *status = ACL_ERROR_GE_SHAPE_INVALID;
    }
    return ok;
}

const ge::TensorDesc *DataDeclaredDesc(const ProgramNode &node) {
    const ge::OperatorImpl &op = node.op;
    if (!op.output_desc_set.empty() && op.output_desc_set[0])
        return &op.output_descs[0];
    if (!op.input_desc_set.empty() && op.input_desc_set[0])
        return &op.input_descs[0];
    return nullptr;
}

ge::Status CheckInputDesc(const ProgramNode &node, size_t kernel_input, const ge::TensorDesc &desc,
                          std::string *detail) {
    size_t port = static_cast<size_t>(node.input_ports[kernel_input]);
    const IrPort &ir = node.op.inputs[port];
    TypeList allowed = ParseTypeList(ir.type_text);
    if (!allowed.Allows(desc.GetDataType())) {
        *detail = Format("input %s has dtype %s; the prototype allows %s", ir.name.c_str(),
                         DataTypeName(desc.GetDataType()).c_str(), allowed.Describe().c_str());
        return ACL_ERROR_GE_DATATYPE_INVALID;
    }
    if (node.op.input_desc_set[port]) {
        std::string why;
        ge::Status st = ge::GRAPH_SUCCESS;
        if (!DescAdmits(node.op.input_descs[port], desc, &why, &st)) {
            *detail = Format("input %s receives %s (update_input_desc_%s)", ir.name.c_str(),
                             why.c_str(), ir.name.c_str());
            return st;
        }
    }
    return ge::GRAPH_SUCCESS;
}

ge::Status CheckOutputDesc(const ProgramNode &node, size_t node_output, const ge::TensorDesc &desc,
                           std::string *detail) {
    if (!node.op.output_desc_set[node_output])
        return ge::GRAPH_SUCCESS;
    const std::string &name = node.op.outputs[node_output].name;
    std::string why;
    ge::Status st = ge::GRAPH_SUCCESS;
    if (!DescAdmits(node.op.output_descs[node_output], desc, &why, &st)) {
        *detail = Format("output %s is %s (update_output_desc_%s)", name.c_str(), why.c_str(),
                         name.c_str());
        return st;
    }
    return ge::GRAPH_SUCCESS;
}

namespace {

using NodePtr = std::shared_ptr<ge::OperatorImpl>;

const char kData[] = "Data";
const char kConst[] = "Const";

/* Collects the work of BuildProgram and its one failure. */
class Builder {
  public:
    Builder(const ge::Graph &graph, uint32_t id) : graph_(graph) {
        program_ = std::make_shared<Program>();
        program_->id = id;
        program_->name = graph.GetName();
        where_ = "AddGraph(" + program_->Describe() + ")";
    }

    ge::Status Build(std::shared_ptr<const Program> *out) {
        const std::shared_ptr<ge::GraphImpl> &g = ge::GraphAdapter::Impl(graph_);
        if (!g)
            return Fail(ACL_ERROR_GE_PARAM_INVALID,
                        where_ + ": the graph is empty (default-constructed, nothing added)");
        nodes_ = CollectNodes(*g);
        if (nodes_.empty())
            return Fail(ACL_ERROR_GE_PARAM_INVALID, where_ + ": the graph has no operators");
        for (size_t i = 0; i < nodes_.size(); ++i)
            index_[nodes_[i].get()] = static_cast<int>(i);
        ge::Status st;
        if ((st = CheckNodes()) != ge::GRAPH_SUCCESS || (st = Order()) != ge::GRAPH_SUCCESS ||
            (st = MakeNodes()) != ge::GRAPH_SUCCESS || (st = Outputs(*g)) != ge::GRAPH_SUCCESS ||
            (st = DataIndices()) != ge::GRAPH_SUCCESS || (st = StaticDescs()) != ge::GRAPH_SUCCESS)
            return st;
        MarkNeeded(*g);
        *out = program_;
        return ge::GRAPH_SUCCESS;
    }

  private:
    ge::Status NodeFail(ge::Status status, const ge::OperatorImpl &op, const std::string &what) {
        return Fail(status, where_ + ": " + op.Describe() + ": " + what);
    }

    /* Which output of `link.src` an input reads, or -1 with *problem set. */
    static int ResolveLink(const InputLink &link, std::string *problem) {
        const ge::OperatorImpl &src = *link.src;
        size_t n = src.outputs.size();
        switch (link.by) {
        case InputLink::By::OnlyOutput:
            if (n == 1)
                return 0;
            *problem = n == 0 ? Format("reads %s, which has no outputs", src.Describe().c_str())
                              : Format("reads %s, which has %zu outputs (%s): name one "
                                       "(set_input_<x>(op, \"name\") or an output index)",
                                       src.Describe().c_str(), n, src.OutputNames().c_str());
            return -1;
        case InputLink::By::Name: {
            int o = src.OutputIndex(link.src_name);
            if (o < 0)
                *problem =
                    Format("reads output \"%s\" of %s, which has outputs %s", link.src_name.c_str(),
                           src.Describe().c_str(), src.OutputNames().c_str());
            return o;
        }
        case InputLink::By::Index:
            if (link.src_index < n)
                return static_cast<int>(link.src_index);
            *problem = Format("reads output %u of %s, which has %zu outputs (%s)",
                              static_cast<unsigned>(link.src_index), src.Describe().c_str(), n,
                              src.OutputNames().c_str());
            return -1;
        }
        return -1;
    }

    ge::Status CheckNodes() {
        std::map<std::string, const ge::OperatorImpl *> names;
        for (const NodePtr &n : nodes_) {
            const ge::OperatorImpl &op = *n;
            bool source = op.type == kData || op.type == kConst;
            const OpKernel *kernel = FindKernel(op.type);
            /* before the recorded build errors: SetInput on an unknown type records one */
            if (!source && !kernel)
                return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                Format("unknown operator type \"%s\": ropekit runs Data, Const, %s",
                                       op.type.c_str(), KernelTypeNames().c_str()));
            if (!op.build_errors.empty())
                return Fail(ACL_ERROR_GE_PARAM_INVALID, where_ + ": " + op.build_errors[0]);
            auto named = names.insert(std::make_pair(op.name, &op));
            if (!named.second)
                return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                named.first->second->Describe() +
                                    ", another operator of the graph has this name");
            std::string problem;
            if (!CheckNodeAttrs(op, &problem))
                return Fail(ACL_ERROR_GE_PARAM_INVALID, where_ + ": " + problem);
            if (source) {
                if (op.outputs.size() != 1)
                    return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                    Format("its prototype has outputs %s; %s has one output",
                                           op.OutputNames().c_str(), op.type.c_str()));
                const char *attr = op.type == kData ? "index" : "value";
                AttrKind kind = op.type == kData ? AttrKind::Int : AttrKind::Tensor;
                if (!AttrHasKind(op, attr, kind, true, &problem))
                    return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op, problem);
                for (const InputLink &l : op.links)
                    if (l.src)
                        return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                        "its input is connected; a graph source reads nothing");
                continue;
            }
            if (!kernel->CheckAttrs(op, &problem))
                return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op, problem);
            for (const std::string &port : kernel->Inputs())
                if (op.InputIndex(port) < 0)
                    return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                    Format("its prototype has no input %s (inputs: %s)",
                                           port.c_str(), op.InputNames().c_str()));
            for (const std::string &port : kernel->Outputs())
                if (op.OutputIndex(port) < 0)
                    return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                    Format("its prototype has no output %s (outputs: %s)",
                                           port.c_str(), op.OutputNames().c_str()));
            std::vector<std::string> known = kernel->Inputs();
            for (size_t i = 0; i < op.inputs.size(); ++i) {
                const IrPort &port = op.inputs[i];
                bool read = std::find(known.begin(), known.end(), port.name) != known.end();
                if (!read && (op.links[i].src || !port.optional))
                    return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                    Format("its prototype has input %s, which ropekit's %s does "
                                           "not read",
                                           port.name.c_str(), op.type.c_str()));
                if (read && !op.links[i].src && !port.optional)
                    return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                    Format("input %s is not connected", port.name.c_str()));
                if (read && op.links[i].src && ResolveLink(op.links[i], &problem) < 0)
                    return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                    Format("input %s %s", port.name.c_str(), problem.c_str()));
            }
        }
        return ge::GRAPH_SUCCESS;
    }

    /* Kahn's algorithm over data and control edges, in the order nodes were met. */
    ge::Status Order() {
        size_t n = nodes_.size();
        std::vector<std::vector<int>> readers(n);
        std::vector<int> pending(n, 0);
        for (size_t i = 0; i < n; ++i) {
            std::vector<NodePtr> deps;
            for (const InputLink &l : nodes_[i]->links)
                if (l.src)
                    deps.push_back(l.src);
            deps.insert(deps.end(), nodes_[i]->control_inputs.begin(),
                        nodes_[i]->control_inputs.end());
            for (const NodePtr &d : deps) {
                readers[static_cast<size_t>(index_[d.get()])].push_back(static_cast<int>(i));
                ++pending[i];
            }
        }
        std::deque<int> ready;
        for (size_t i = 0; i < n; ++i)
            if (pending[i] == 0)
                ready.push_back(static_cast<int>(i));
        while (!ready.empty()) {
            int i = ready.front();
            ready.pop_front();
            order_.push_back(i);
            for (int r : readers[static_cast<size_t>(i)])
                if (--pending[static_cast<size_t>(r)] == 0)
                    ready.push_back(r);
        }
        if (order_.size() == n)
            return ge::GRAPH_SUCCESS;
        std::string cycle;
        for (size_t i = 0; i < n; ++i)
            if (pending[i] > 0)
                cycle += (cycle.empty() ? "" : ", ") + ("\"" + nodes_[i]->name + "\"");
        return Fail(ACL_ERROR_GE_PARAM_INVALID,
                    where_ +
                        ": the graph has a cycle: these operators wait on each other: " + cycle);
    }

    static void DeepCopyTensors(AttrData &a) {
        if (a.kind == AttrKind::Tensor)
            a.t = a.t.Clone();
        for (ge::Tensor &t : a.list_tensor)
            t = t.Clone();
    }

    ge::Status MakeNodes() {
        std::vector<int> first_value(nodes_.size(), 0);
        int values = 0;
        for (int i : order_) {
            first_value[static_cast<size_t>(i)] = values;
            values += static_cast<int>(nodes_[static_cast<size_t>(i)]->outputs.size());
        }
        program_->values.resize(static_cast<size_t>(values));
        program_->nodes.resize(order_.size());
        for (size_t k = 0; k < order_.size(); ++k) {
            const ge::OperatorImpl &src = *nodes_[static_cast<size_t>(order_[k])];
            ProgramNode &node = program_->nodes[k];
            node.op = src;
            node.op.links.clear();
            node.op.control_inputs.clear();
            for (auto &a : node.op.attrs)
                DeepCopyTensors(a.second);
            for (IrAttr &a : node.op.ir_attrs)
                DeepCopyTensors(a.default_value);
            for (size_t o = 0; o < src.outputs.size(); ++o) {
                int v = first_value[static_cast<size_t>(order_[k])] + static_cast<int>(o);
                node.outputs.push_back(v);
                program_->values[static_cast<size_t>(v)].node = static_cast<int>(k);
                program_->values[static_cast<size_t>(v)].output = static_cast<int>(o);
            }
            if (src.type == kData) {
                node.kind = ProgramNode::Kind::Data;
                node.data_index = IntAttr(src, "index");
                continue;
            }
            if (src.type == kConst) {
                node.kind = ProgramNode::Kind::Const;
                node.const_value = node.op.Attr("value")->t;
                continue;
            }
            node.kind = ProgramNode::Kind::Op;
            node.kernel = FindKernel(src.type);
            node.plans.reset(new PlanCache);
            for (const std::string &port : node.kernel->Inputs()) {
                int p = src.InputIndex(port);
                std::string unused;
                const InputLink &link = src.links[static_cast<size_t>(p)];
                node.input_ports.push_back(p);
                if (!link.src) {
                    node.inputs.push_back(kAbsentInput);
                    continue;
                }
                int o = ResolveLink(link, &unused);
                node.inputs.push_back(first_value[static_cast<size_t>(index_[link.src.get()])] + o);
            }
            for (const std::string &port : node.kernel->Outputs())
                node.kernel_outputs.push_back(src.OutputIndex(port));
        }
        return ge::GRAPH_SUCCESS;
    }

    int ValueOf(const ge::OperatorImpl *op, size_t output) const {
        int node = index_.at(op);
        for (size_t k = 0; k < order_.size(); ++k)
            if (order_[k] == node)
                return program_->nodes[k].outputs[output];
        return -1;
    }

    ge::Status Outputs(const ge::GraphImpl &g) {
        if (!g.outputs_set || g.outputs.empty())
            return Fail(ACL_ERROR_GE_PARAM_INVALID,
                        where_ + ": the graph has no outputs: name them with Graph::SetOutputs");
        for (const OutputSpec &spec : g.outputs) {
            if (!spec.op)
                return Fail(ACL_ERROR_GE_PARAM_INVALID,
                            where_ + ": Graph::SetOutputs was given an empty operator");
            const ge::OperatorImpl &op = *spec.op;
            size_t n = op.outputs.size();
            std::vector<size_t> picked;
            if (spec.by == OutputSpec::By::All) {
                for (size_t o = 0; o < n; ++o)
                    picked.push_back(o);
            } else if (spec.by == OutputSpec::By::Indices) {
                picked = spec.indices;
            } else {
                int o = op.OutputIndex(spec.name);
                if (o < 0)
                    return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                    Format("graph output \"%s\": no such output (outputs: %s)",
                                           spec.name.c_str(), op.OutputNames().c_str()));
                picked.push_back(static_cast<size_t>(o));
            }
            if (picked.empty())
                return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                "named as a graph output, but it has no outputs");
            for (size_t o : picked) {
                if (o >= n)
                    return NodeFail(ACL_ERROR_GE_PARAM_INVALID, op,
                                    Format("graph output %zu: it has %zu outputs (%s)", o, n,
                                           op.OutputNames().c_str()));
                int v = ValueOf(&op, o);
                program_->outputs.push_back(v);
                program_->values[static_cast<size_t>(v)].graph_output = true;
            }
        }
        return ge::GRAPH_SUCCESS;
    }

    /* RunGraph's inputs[i] feeds the Data node with index i when the indices are exactly
     * 0 .. n-1, each once. Otherwise CANN's GE (GraphManager::ModifyDataIndex, at AddGraph)
     * renumbers every Data node 0 .. n-1 in its graph's node order, and so does ropekit:
     * see GeInputOrder. */
    ge::Status DataIndices() {
        std::vector<size_t> data;
        std::set<int64_t> indices;
        for (size_t k = 0; k < program_->nodes.size(); ++k)
            if (program_->nodes[k].kind == ProgramNode::Kind::Data) {
                data.push_back(k);
                indices.insert(program_->nodes[k].data_index);
            }
        if (data.empty())
            return ge::GRAPH_SUCCESS;
        int64_t n = static_cast<int64_t>(data.size());
        bool own =
            indices.size() == data.size() && *indices.begin() == 0 && *indices.rbegin() == n - 1;
        if (own) {
            program_->data_nodes.resize(data.size());
            for (size_t k : data)
                program_->data_nodes[static_cast<size_t>(program_->nodes[k].data_index)] =
                    static_cast<int>(k);
            return ge::GRAPH_SUCCESS;
        }
        std::string fed;
        for (size_t k : GeInputOrder()) {
            ProgramNode &node = program_->nodes[k];
            node.data_index = static_cast<int64_t>(program_->data_nodes.size());
            program_->data_nodes.push_back(static_cast<int>(k));
            fed += Format("%s%s", fed.empty() ? "" : ", ", node.op.name.c_str());
        }
        Warn(Format("%s: the %zu Data nodes' index attributes are not 0 to %zu, one each; as "
                    "CANN's GE does, RunGraph's inputs feed them in the graph's input order "
                    "(SetInputs): %s",
                    where_.c_str(), data.size(), data.size() - 1, fed.c_str()));
        return ge::GRAPH_SUCCESS;
    }

    /* The program's Data nodes in the order CANN's GE numbers them when their indices are
     * not 0 .. n-1: the order of its graph's nodes, which SetInputs builds by walking
     * breadth first from the operators it was given (metadef's GraphBuilderImpl): those
     * operators first, in SetInputs' order, then at each node its readers (by output
     * name, then in the order ropekit met them) and control readers, then what it reads
     * (by input name) and its control inputs. Data nodes that walk does not reach (ropekit
     * also runs graphs without SetInputs, which CANN cannot build) follow in the order
     * ropekit met them. */
    std::vector<size_t> GeInputOrder() const {
        const ge::GraphImpl &g = *ge::GraphAdapter::Impl(graph_);
        std::map<const ge::OperatorImpl *, std::map<std::string, std::vector<NodePtr>>> readers;
        std::map<const ge::OperatorImpl *, std::vector<NodePtr>> control_readers;
        for (const NodePtr &n : nodes_) {
            for (const InputLink &l : n->links) {
                std::string unused;
                int o = l.src ? ResolveLink(l, &unused) : -1;
                if (o >= 0)
                    readers[l.src.get()][l.src->outputs[static_cast<size_t>(o)].name].push_back(n);
            }
            for (const NodePtr &c : n->control_inputs)
                control_readers[c.get()].push_back(n);
        }
        std::vector<size_t> order;
        std::set<const ge::OperatorImpl *> seen;
        auto take = [&](const NodePtr &op) {
            if (!op || !seen.insert(op.get()).second)
                return false;
            const ProgramNode &node = program_->nodes[Position(op.get())];
            if (node.kind == ProgramNode::Kind::Data)
                order.push_back(Position(op.get()));
            return true;
        };
        std::deque<std::vector<NodePtr>> queue;
        queue.push_back(g.inputs);
        while (!queue.empty()) {
            std::vector<NodePtr> level = queue.front();
            queue.pop_front();
            for (const NodePtr &op : level) {
                if (!take(op))
                    continue;
                std::vector<NodePtr> forward, back;
                for (const auto &by_output : readers[op.get()])
                    forward.insert(forward.end(), by_output.second.begin(), by_output.second.end());
                const auto &ctl = control_readers[op.get()];
                forward.insert(forward.end(), ctl.begin(), ctl.end());
                std::map<std::string, NodePtr> by_input;
                for (size_t i = 0; i < op->links.size(); ++i)
                    if (op->links[i].src)
                        by_input[op->inputs[i].name] = op->links[i].src;
                for (const auto &e : by_input)
                    back.push_back(e.second);
                back.insert(back.end(), op->control_inputs.begin(), op->control_inputs.end());
                queue.push_back(forward);
                queue.push_back(back);
            }
        }
        for (const NodePtr &n : nodes_)
            take(n);
        return order;
    }

    /* The program node of a collected operator. */
    size_t Position(const ge::OperatorImpl *op) const {
        int node = index_.at(op);
        for (size_t k = 0; k < order_.size(); ++k)
            if (order_[k] == node)
                return k;
        return 0;
    }

    /* Descriptions known before any feed: declared on Data nodes, of constants, declared
     * or derived for outputs. Types and declared descriptions are checked where known. */
    ge::Status StaticDescs() {
        std::vector<std::unique_ptr<ge::TensorDesc>> known(program_->values.size());
        for (const ProgramNode &node : program_->nodes) {
            std::string detail;
            if (node.kind == ProgramNode::Kind::Data) {
                if (const ge::TensorDesc *d = DataDeclaredDesc(node))
                    known[static_cast<size_t>(node.outputs[0])].reset(new ge::TensorDesc(*d));
                continue;
            }
            if (node.kind == ProgramNode::Kind::Const) {
                known[static_cast<size_t>(node.outputs[0])].reset(
                    new ge::TensorDesc(node.const_value.GetTensorDesc()));
                continue;
            }
            for (size_t i = 0; i < node.inputs.size(); ++i) {
                if (node.inputs[i] == kAbsentInput)
                    continue;
                const ge::TensorDesc *d = known[static_cast<size_t>(node.inputs[i])].get();
                ge::Status st = d ? CheckInputDesc(node, i, *d, &detail) : ge::GRAPH_SUCCESS;
                if (st != ge::GRAPH_SUCCESS)
                    return NodeFail(st, node.op, detail);
            }
            for (size_t k = 0; k < node.kernel_outputs.size(); ++k) {
                size_t o = static_cast<size_t>(node.kernel_outputs[k]);
                const ge::TensorDesc *from =
                    known[static_cast<size_t>(node.inputs[node.kernel->OutputFrom(k)])].get();
                ge::Status st = from ? CheckOutputDesc(node, o, *from, &detail) : ge::GRAPH_SUCCESS;
                if (st != ge::GRAPH_SUCCESS)
                    return NodeFail(st, node.op, detail);
                const ge::TensorDesc *d = from;
                if (!d && node.op.output_desc_set[o])
                    d = &node.op.output_descs[o];
                if (d)
                    known[static_cast<size_t>(node.outputs[o])].reset(new ge::TensorDesc(*d));
            }
        }
        return ge::GRAPH_SUCCESS;
    }

    /* Nodes a graph output or target depends on run; the others are only validated. */
    void MarkNeeded(const ge::GraphImpl &g) {
        std::vector<bool> needed(program_->nodes.size(), false);
        std::vector<size_t> stack;
        for (int v : program_->outputs)
            stack.push_back(static_cast<size_t>(program_->values[static_cast<size_t>(v)].node));
        for (const NodePtr &t : g.targets)
            for (size_t k = 0; k < order_.size(); ++k)
                if (order_[k] == index_.at(t.get()))
                    stack.push_back(k);
        std::map<int, size_t> position;
        for (size_t k = 0; k < order_.size(); ++k)
            position[order_[k]] = k;
        while (!stack.empty()) {
            size_t k = stack.back();
            stack.pop_back();
            if (needed[k])
                continue;
            needed[k] = true;
            const ge::OperatorImpl &src = *nodes_[static_cast<size_t>(order_[k])];
            for (const InputLink &l : src.links)
                if (l.src)
                    stack.push_back(position[index_.at(l.src.get())]);
            for (const NodePtr &c : src.control_inputs)
                stack.push_back(position[index_.at(c.get())]);
        }
        for (size_t k = 0; k < program_->nodes.size(); ++k) {
            ProgramNode &node = program_->nodes[k];
            node.needed = needed[k];
            if (node.needed)
                for (int v : node.inputs)
                    if (v != kAbsentInput)
                        ++program_->values[static_cast<size_t>(v)].uses;
        }
    }

    const ge::Graph &graph_;
    std::string where_;
    std::shared_ptr<Program> program_;
    std::vector<NodePtr> nodes_;
    std::map<const ge::OperatorImpl *, int> index_;
    std::vector<int> order_; /* node indices in execution order */
};

} // namespace

ge::Status BuildProgram(const ge::Graph &graph, uint32_t graph_id,
                        std::shared_ptr<const Program> *out) {
    Builder builder(graph, graph_id);
    return builder.Build(out);
}

} // namespace ropekit_ge
