// Checks that a CANN prototype header, compiled beside ropekit's GE headers, registers the
// operator it declares with the inputs, outputs and attributes it declares (the script
// cann_graph_examples.sh reads them from the header's REG_OP and passes them here):
//
//   proto_ir <type> in:<a,b,...> out:<y,...> attr:<name=Kind,...>
//
// Built with -include <CANN's *_proto.h>; the program includes ropekit's headers the way
// CANN's GE IR examples do (array_ops.h, nn_other.h) so a clash between them shows here.
// Exit 0 when everything matches, 1 with a line per difference otherwise.
#include <cstdio>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "array_ops.h"
#include "ge_api.h"
#include "nn_other.h"
#include "operator_factory.h"
#include "ops_proto_posembedding.h"

namespace {

std::vector<std::string> List(const char *arg, const char *prefix) {
    std::vector<std::string> out;
    size_t n = std::strlen(prefix);
    if (std::strncmp(arg, prefix, n) != 0)
        return out;
    std::stringstream items(arg + n);
    std::string item;
    while (std::getline(items, item, ','))
        if (!item.empty())
            out.push_back(item);
    return out;
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: %s <type> in:<names> out:<names> attr:<name=Kind,...>\n",
                     argv[0]);
        return 2;
    }
    const char *type = argv[1];
    std::vector<std::string> ins = List(argv[2], "in:"), outs = List(argv[3], "out:");
    std::vector<std::string> attrs = List(argv[4], "attr:");
    int bad = 0;
    if (!ge::OperatorFactory::IsExistOp(type)) {
        std::printf("%s: not registered\n", type);
        return 1;
    }
    ge::Operator op = ge::OperatorFactory::CreateOperator("node", type);
    if (op.GetInputsSize() != ins.size()) {
        std::printf("%s: %zu inputs, the header declares %zu\n", type, op.GetInputsSize(),
                    ins.size());
        bad++;
    }
    for (const std::string &name : ins) {
        ge::TensorDesc desc;
        if (op.TryGetInputDesc(name.c_str(), desc) != ge::GRAPH_SUCCESS) {
            std::printf("%s: no input %s\n", type, name.c_str());
            bad++;
        }
    }
    if (op.GetOutputsSize() != outs.size()) {
        std::printf("%s: %zu outputs, the header declares %zu\n", type, op.GetOutputsSize(),
                    outs.size());
        bad++;
    }
    for (const std::string &name : outs)
        if (op.UpdateOutputDesc(name.c_str(), ge::TensorDesc()) != ge::GRAPH_SUCCESS) {
            std::printf("%s: no output %s\n", type, name.c_str());
            bad++;
        }
    std::map<ge::AscendString, ge::AscendString> got;
    op.GetAllIrAttrNamesAndTypes(got);
    std::map<std::string, std::string> want;
    for (const std::string &a : attrs)
        want[a.substr(0, a.find('='))] = a.substr(a.find('=') + 1);
    for (const auto &kv : want) {
        auto it = got.find(ge::AscendString(kv.first.c_str()));
        if (it == got.end() || kv.second != it->second.GetString()) {
            std::printf("%s: attribute %s is %s, the header declares %s\n", type, kv.first.c_str(),
                        it == got.end() ? "missing" : it->second.GetString(), kv.second.c_str());
            bad++;
        }
    }
    if (got.size() != want.size()) {
        std::printf("%s: %zu attributes, the header declares %zu\n", type, got.size(), want.size());
        bad++;
    }
    return bad ? 1 : 0;
}
