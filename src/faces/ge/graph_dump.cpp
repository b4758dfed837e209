/* aclgrphDumpGraph: a readable text description of a graph as it was built (before any
 * validation, so that a graph AddGraph rejects can be inspected too). */
#include "ge/ge_ir_build.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/stat.h>

#include "graph_impl.h"
#include "graph_program.h"
#include "messages.h"
#include "types_table.h"

namespace ropekit_ge {
namespace {

std::string DescText(const ge::TensorDesc &d) {
    return Format("%s %s", DescToString(d).c_str(), ge::GetFormatName(d.GetFormat()));
}

std::string LinkText(const InputLink &l) {
    if (!l.src)
        return "not connected";
    switch (l.by) {
    case InputLink::By::Name:
        return Format("\"%s\" output %s", l.src->name.c_str(), l.src_name.c_str());
    case InputLink::By::Index:
        return Format("\"%s\" output #%u", l.src->name.c_str(), static_cast<unsigned>(l.src_index));
    case InputLink::By::OnlyOutput:
        break;
    }
    return Format("\"%s\" (its only output)", l.src->name.c_str());
}

void DumpNode(std::ostream &os, const ge::OperatorImpl &op) {
    os << "node \"" << op.name << "\" type " << op.type << "\n";
    for (size_t i = 0; i < op.inputs.size(); ++i) {
        os << "  input  " << op.inputs[i].name << (op.inputs[i].optional ? " (optional)" : "")
           << " <- " << LinkText(op.links[i]);
        if (op.input_desc_set[i])
            os << "  desc " << DescText(op.input_descs[i]);
        os << "\n";
    }
    for (size_t o = 0; o < op.outputs.size(); ++o) {
        os << "  output " << op.outputs[o].name;
        if (op.output_desc_set[o])
            os << "  desc " << DescText(op.output_descs[o]);
        os << "\n";
    }
    std::map<std::string, std::string> attrs;
    for (const IrAttr &a : op.ir_attrs)
        attrs[a.name] = a.default_value.kind == AttrKind::None
                            ? Format("(required %s, not set)", AttrKindName(a.kind))
                            : AttrToString(a.default_value) + " (default)";
    for (const auto &a : op.attrs)
        attrs[a.first] = AttrToString(a.second);
    for (const auto &a : attrs)
        os << "  attr   " << a.first << " = " << a.second << "\n";
    for (const auto &c : op.control_inputs)
        os << "  after  \"" << c->name << "\"\n";
    for (const std::string &e : op.build_errors)
        os << "  error  " << e << "\n";
}

std::string DumpText(const ge::GraphImpl &g) {
    std::ostringstream os;
    std::vector<std::shared_ptr<ge::OperatorImpl>> nodes = CollectNodes(g);
    os << "graph \"" << g.name << "\": " << nodes.size() << " operators\n";
    for (const auto &n : nodes)
        DumpNode(os, *n);
    os << "outputs:";
    if (g.outputs.empty())
        os << " (none set)";
    for (const OutputSpec &s : g.outputs) {
        std::string name = s.op ? s.op->name : "(empty operator)";
        if (s.by == OutputSpec::By::All)
            os << " \"" << name << "\" (all)";
        else if (s.by == OutputSpec::By::Name)
            os << " \"" << name << "\":" << s.name;
        else
            for (size_t i : s.indices)
                os << " \"" << name << "\"#" << i;
    }
    os << "\n";
    return os.str();
}

bool IsDirectory(const std::string &path) {
    struct stat st;
    return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

} // namespace
} // namespace ropekit_ge

namespace ge {

graphStatus aclgrphDumpGraph(const Graph &graph, const char_t *file, const size_t len) {
    try {
        if (!file || len == 0 || len != std::strlen(file))
            return ropekit_ge::Fail(GRAPH_PARAM_INVALID,
                                    "aclgrphDumpGraph: file must be a non-empty path of len "
                                    "characters");
        const std::shared_ptr<GraphImpl> &g = GraphAdapter::Impl(graph);
        if (!g)
            return ropekit_ge::Fail(GRAPH_PARAM_INVALID, "aclgrphDumpGraph: the graph is empty");
        std::string path(file, len);
        size_t slash = path.rfind('/');
        std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
        if (!ropekit_ge::IsDirectory(dir))
            return ropekit_ge::Fail(GRAPH_PARAM_INVALID,
                                    ropekit_ge::Format("aclgrphDumpGraph: directory \"%s\" does "
                                                       "not exist",
                                                       dir.c_str()));
        if (slash == path.size() - 1)
            path += (g->name.empty() ? std::string("graph") : g->name) + ".txt";
        std::ofstream out(path.c_str(), std::ios::out | std::ios::trunc);
        out << ropekit_ge::DumpText(*g);
        out.close();
        if (!out)
            return ropekit_ge::Fail(
                GRAPH_PARAM_INVALID,
                ropekit_ge::Format("aclgrphDumpGraph: cannot write \"%s\"", path.c_str()));
        return GRAPH_SUCCESS;
    } catch (...) {
        return ropekit_ge::FailFromException("aclgrphDumpGraph");
    }
}

graphStatus aclgrphGetIRVersion(int32_t *major_version, int32_t *minor_version,
                                int32_t *patch_version) {
    if (!major_version || !minor_version || !patch_version)
        return ropekit_ge::Fail(GRAPH_PARAM_INVALID, "aclgrphGetIRVersion: a pointer is NULL");
    *major_version = IR_MAJOR_VERSION;
    *minor_version = IR_MINOR_VERSION;
    *patch_version = IR_PATCH_VERSION;
    return GRAPH_SUCCESS;
}

} // namespace ge
