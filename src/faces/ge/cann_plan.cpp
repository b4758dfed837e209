#include "cann_plan.h"

#include "ge/ge_error_codes.h"
#include "messages.h"

namespace ropekit_ge {

ge::Status CannVerdict(ropekit_status status, int32_t cann_code, ropekit_cann_op op,
                       std::string *detail) {
    if (status == ROPEKIT_OK)
        return ge::GRAPH_SUCCESS;
    std::string message = ropekit_last_error();
    /* The face's message starts with its own entry point; name the operator once. */
    const char *aclnn_api = ropekit_cann_op_name(op);
    std::string prefix = std::string(aclnn_api) + "GetWorkspaceSize: ";
    if (message.compare(0, prefix.size(), prefix) == 0)
        message.erase(0, prefix.size());
    *detail =
        Format("%s (as %s, code %d)", message.c_str(), aclnn_api, static_cast<int>(cann_code));
    return status == ROPEKIT_NO_MEMORY ? ACL_ERROR_GE_MEMORY_ALLOCATION
                                       : ACL_ERROR_GE_PARAM_INVALID;
}

ropekit_tensor NativeTensor(const RunValue &v) {
    std::vector<int64_t> dims = v.desc.GetShape().GetDims();
    return ropekit_tensor_make(v.data(), static_cast<ropekit_dtype>(v.desc.GetDataType()),
                               static_cast<int32_t>(dims.size()),
                               dims.empty() ? nullptr : dims.data(), nullptr);
}

std::shared_ptr<ropekit_plan> OwnPlan(ropekit_plan *plan) {
    return std::shared_ptr<ropekit_plan>(plan, [](ropekit_plan *p) { ropekit_plan_destroy(p); });
}

ge::Status NativeVerdict(ropekit_status status, const char *native_api, std::string *detail) {
    if (status == ROPEKIT_OK)
        return ge::GRAPH_SUCCESS;
    *detail = Format("%s: %s", native_api, ropekit_last_error());
    if (status == ROPEKIT_OUT_OF_RANGE || status == ROPEKIT_INVALID_ARGUMENT)
        return ACL_ERROR_GE_PARAM_INVALID;
    if (status == ROPEKIT_NO_MEMORY)
        return ACL_ERROR_GE_MEMORY_ALLOCATION;
    return ACL_ERROR_GE_INTERNAL_ERROR;
}

} // namespace ropekit_ge
