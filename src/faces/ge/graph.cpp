#include "graph/graph.h"

#include <set>

#include "graph_impl.h"
#include "messages.h"

namespace ropekit_ge {

std::vector<std::shared_ptr<ge::OperatorImpl>> CollectNodes(const ge::GraphImpl &graph) {
    std::vector<std::shared_ptr<ge::OperatorImpl>> order;
    std::set<const ge::OperatorImpl *> seen;
    std::vector<std::shared_ptr<ge::OperatorImpl>> stack;
    auto visit = [&](const std::shared_ptr<ge::OperatorImpl> &root) {
        stack.push_back(root);
        while (!stack.empty()) {
            std::shared_ptr<ge::OperatorImpl> op = stack.back();
            stack.pop_back();
            if (!op || !seen.insert(op.get()).second)
                continue;
            order.push_back(op);
            for (auto it = op->control_inputs.rbegin(); it != op->control_inputs.rend(); ++it)
                stack.push_back(*it);
            for (auto it = op->links.rbegin(); it != op->links.rend(); ++it)
                stack.push_back(it->src);
        }
    };
    for (const auto &op : graph.added)
        visit(op);
    for (const auto &op : graph.inputs)
        visit(op);
    for (const OutputSpec &out : graph.outputs)
        visit(out.op);
    for (const auto &op : graph.targets)
        visit(op);
    return order;
}

} // namespace ropekit_ge

namespace ge {

namespace {
std::shared_ptr<GraphImpl> &Ensure(std::shared_ptr<GraphImpl> &impl) {
    if (!impl)
        impl = std::make_shared<GraphImpl>();
    return impl;
}

/* `api` is the entry point's name, "Graph::SetInputs". */
void NoteEmpty(const char *api) {
    (void)ropekit_ge::Fail(GRAPH_FAILED, ropekit_ge::Format("%s: an operator is empty", api));
}

/* SetInputs and SetTargets: the graph's list `list` becomes the non-empty operators of `ops`;
 * each empty one is a failure of `api`. */
void SetOperators(std::shared_ptr<GraphImpl> &impl,
                  std::vector<std::shared_ptr<OperatorImpl>> GraphImpl::*list,
                  const std::vector<Operator> &ops, const char *api) {
    try {
        std::vector<std::shared_ptr<OperatorImpl>> &to = (*Ensure(impl)).*list;
        to.clear();
        for (const Operator &op : ops) {
            if (OperatorAdapter::Impl(op))
                to.push_back(OperatorAdapter::Impl(op));
            else
                NoteEmpty(api);
        }
    } catch (...) {
        (void)ropekit_ge::FailFromException(api);
    }
}
} // namespace

Graph::Graph(const char_t *name) : impl_(std::make_shared<GraphImpl>()) {
    impl_->name = name ? name : "";
}
Graph::Graph(const std::string &name) : Graph(name.c_str()) {}

Graph &Graph::SetInputs(const std::vector<Operator> &inputs) {
    SetOperators(impl_, &GraphImpl::inputs, inputs, "Graph::SetInputs");
    return *this;
}

namespace {
void SetOutputSpecs(std::shared_ptr<GraphImpl> &impl, std::vector<ropekit_ge::OutputSpec> specs) {
    try {
        std::shared_ptr<GraphImpl> &g = Ensure(impl);
        for (const ropekit_ge::OutputSpec &s : specs)
            if (!s.op)
                NoteEmpty("Graph::SetOutputs");
        g->outputs.swap(specs);
        g->outputs_set = true;
    } catch (...) {
        (void)ropekit_ge::FailFromException("Graph::SetOutputs");
    }
}

ropekit_ge::OutputSpec Spec(const Operator &op) {
    ropekit_ge::OutputSpec s;
    s.op = OperatorAdapter::Impl(op);
    return s;
}

/* SetOutputs of (operator, selection) pairs: each entry selects `by` the pair's second,
 * which goes into `field`. */
template <typename T>
void SetSelectedOutputs(std::shared_ptr<GraphImpl> &impl,
                        const std::vector<std::pair<Operator, T>> &outputs,
                        ropekit_ge::OutputSpec::By by, T ropekit_ge::OutputSpec::*field) {
    std::vector<ropekit_ge::OutputSpec> specs;
    for (const auto &o : outputs) {
        ropekit_ge::OutputSpec s = Spec(o.first);
        s.by = by;
        s.*field = o.second;
        specs.push_back(s);
    }
    SetOutputSpecs(impl, specs);
}
} // namespace

Graph &Graph::SetOutputs(const std::vector<Operator> &outputs) {
    std::vector<ropekit_ge::OutputSpec> specs;
    for (const Operator &op : outputs)
        specs.push_back(Spec(op));
    SetOutputSpecs(impl_, specs);
    return *this;
}

Graph &Graph::SetOutputs(const std::vector<std::pair<Operator, std::vector<size_t>>> &outputs) {
    SetSelectedOutputs(impl_, outputs, ropekit_ge::OutputSpec::By::Indices,
                       &ropekit_ge::OutputSpec::indices);
    return *this;
}

Graph &Graph::SetOutputs(const std::vector<std::pair<Operator, std::string>> &outputs) {
    SetSelectedOutputs(impl_, outputs, ropekit_ge::OutputSpec::By::Name,
                       &ropekit_ge::OutputSpec::name);
    return *this;
}

Graph &Graph::SetOutputs(const std::vector<std::pair<Operator, AscendString>> &outputs) {
    std::vector<std::pair<Operator, std::string>> named;
    for (const auto &o : outputs)
        named.emplace_back(o.first, o.second.GetString());
    return SetOutputs(named);
}

Graph &Graph::SetTargets(const std::vector<Operator> &targets) {
    SetOperators(impl_, &GraphImpl::targets, targets, "Graph::SetTargets");
    return *this;
}

bool Graph::IsValid() const {
    return impl_ != nullptr;
}

graphStatus Graph::AddOp(const Operator &op) {
    if (!OperatorAdapter::Impl(op))
        return ropekit_ge::Fail(GRAPH_FAILED, "Graph::AddOp: the operator is empty");
    try {
        Ensure(impl_)->added.push_back(OperatorAdapter::Impl(op));
        return GRAPH_SUCCESS;
    } catch (...) {
        return ropekit_ge::FailFromException("Graph::AddOp");
    }
}

graphStatus Graph::FindOpByName(const char_t *name, Operator &op) const {
    if (!impl_ || !name)
        return GRAPH_FAILED;
    try {
        for (const auto &node : ropekit_ge::CollectNodes(*impl_))
            if (node->name == name) {
                op = OperatorAdapter::Wrap(node);
                return GRAPH_SUCCESS;
            }
        return GRAPH_FAILED;
    } catch (...) {
        return ropekit_ge::FailFromException("Graph::FindOpByName");
    }
}
graphStatus Graph::FindOpByName(const std::string &name, Operator &op) const {
    return FindOpByName(name.c_str(), op);
}

graphStatus Graph::FindOpByType(const char_t *type, std::vector<Operator> &ops) const {
    if (!impl_ || !type)
        return GRAPH_FAILED;
    try {
        ops.clear();
        for (const auto &node : ropekit_ge::CollectNodes(*impl_))
            if (node->type == type)
                ops.push_back(OperatorAdapter::Wrap(node));
        return GRAPH_SUCCESS;
    } catch (...) {
        return ropekit_ge::FailFromException("Graph::FindOpByType");
    }
}
graphStatus Graph::FindOpByType(const std::string &type, std::vector<Operator> &ops) const {
    return FindOpByType(type.c_str(), ops);
}

graphStatus Graph::GetAllOpName(std::vector<AscendString> &names) const {
    if (!impl_)
        return GRAPH_FAILED;
    try {
        names.clear();
        for (const auto &node : ropekit_ge::CollectNodes(*impl_))
            names.emplace_back(node->name.c_str());
        return GRAPH_SUCCESS;
    } catch (...) {
        return ropekit_ge::FailFromException("Graph::GetAllOpName");
    }
}
graphStatus Graph::GetAllOpName(std::vector<std::string> &op_name) const {
    std::vector<AscendString> names;
    graphStatus st = GetAllOpName(names);
    op_name.clear();
    for (const AscendString &n : names)
        op_name.push_back(n.GetString());
    return st;
}

const std::string &Graph::GetName() const {
    static const std::string empty;
    return impl_ ? impl_->name : empty;
}
graphStatus Graph::GetName(AscendString &name) const {
    if (!impl_)
        return GRAPH_FAILED;
    name = AscendString(impl_->name.c_str());
    return GRAPH_SUCCESS;
}

} // namespace ge
