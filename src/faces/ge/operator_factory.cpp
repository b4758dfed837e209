#include "graph/operator_factory.h"

#include <map>
#include <mutex>

#include "messages.h"
#include "operator_factory_internal.h"

namespace ropekit_ge {
namespace {

/* Registrations run in static constructors of the library and of client programs. */
struct Registry {
    std::mutex lock;
    std::map<std::string, ge::OpCreatorV2> creators;
};

Registry &TheRegistry() {
    static Registry *registry = new Registry; /* never destroyed: used until exit */
    return *registry;
}

bool FindCreator(const std::string &type, ge::OpCreatorV2 *creator) {
    Registry &r = TheRegistry();
    std::lock_guard<std::mutex> hold(r.lock);
    auto it = r.creators.find(type);
    if (it == r.creators.end())
        return false;
    *creator = it->second;
    return true;
}

} // namespace

bool CreateRegisteredOperator(const std::string &type, const ge::AscendString &name,
                              ge::Operator *out) {
    ge::OpCreatorV2 creator;
    if (!FindCreator(type, &creator))
        return false;
    *out = creator(name);
    return true;
}

} // namespace ropekit_ge

namespace ge {

Operator OperatorFactory::CreateOperator(const char_t *operator_name, const char_t *operator_type) {
    try {
        Operator op;
        if (!operator_type ||
            !ropekit_ge::CreateRegisteredOperator(operator_type, AscendString(operator_name), &op))
            (void)ropekit_ge::Fail(GRAPH_FAILED,
                                   ropekit_ge::Format("OperatorFactory::CreateOperator: type "
                                                      "\"%s\" is not registered",
                                                      operator_type ? operator_type : "(null)"));
        return op;
    } catch (...) {
        (void)ropekit_ge::FailFromException("OperatorFactory::CreateOperator");
        return Operator();
    }
}

graphStatus OperatorFactory::GetOpsTypeList(std::vector<AscendString> &all_ops) {
    try {
        ropekit_ge::Registry &r = ropekit_ge::TheRegistry();
        std::lock_guard<std::mutex> hold(r.lock);
        all_ops.clear();
        for (const auto &entry : r.creators)
            all_ops.emplace_back(entry.first.c_str());
        return GRAPH_SUCCESS;
    } catch (...) {
        return ropekit_ge::FailFromException("OperatorFactory::GetOpsTypeList");
    }
}

bool OperatorFactory::IsExistOp(const char_t *operator_type) {
    OpCreatorV2 creator;
    return operator_type && ropekit_ge::FindCreator(operator_type, &creator);
}

OperatorCreatorRegister::OperatorCreatorRegister(const char_t *operator_type,
                                                 const OpCreatorV2 &op_creator) {
    if (!operator_type || !op_creator)
        return;
    ropekit_ge::Registry &r = ropekit_ge::TheRegistry();
    std::lock_guard<std::mutex> hold(r.lock);
    r.creators.insert(std::make_pair(std::string(operator_type), op_creator));
}

} // namespace ge
