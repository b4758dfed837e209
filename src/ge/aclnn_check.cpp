#include "aclnn_check.h"

#include <cstring>

#include "acl/acl_base.h"
#include "ge/ge_error_codes.h"
#include "messages.h"

namespace ropekit_ge {

AclTensors::~AclTensors() {
    for (aclTensor *t : tensors_)
        aclDestroyTensor(t);
}

aclTensor *AclTensors::Add(const RunValue &v, std::string *detail) {
    std::vector<int64_t> dims = v.desc.GetShape().GetDims();
    std::vector<int64_t> strides(dims.size(), 1);
    for (size_t i = dims.size(); i-- > 1;)
        strides[i - 1] = strides[i] * (dims[i] > 0 ? dims[i] : 1);
    int64_t scalar = 1; /* a valid address for rank 0 */
    const int64_t *d = dims.empty() ? &scalar : dims.data();
    const int64_t *s = strides.empty() ? &scalar : strides.data();
    aclTensor *t = aclCreateTensor(d, dims.size(), static_cast<aclDataType>(v.desc.GetDataType()),
                                   s, 0, ACL_FORMAT_ND, d, dims.size(), v.data());
    if (!t) {
        *detail = Format("aclCreateTensor: %s", aclGetRecentErrMsg());
        return nullptr;
    }
    tensors_.push_back(t);
    return t;
}

AclIntArray::AclIntArray(const std::vector<int64_t> &values)
    : array_(aclCreateIntArray(values.empty() ? nullptr : values.data(), values.size())) {}

AclIntArray::~AclIntArray() {
    if (array_)
        aclDestroyIntArray(array_);
}

ge::Status AclnnVerdict(aclnnStatus status, aclOpExecutor *executor, const char *aclnn_api,
                        std::string *detail) {
    if (status == ACLNN_SUCCESS) {
        if (executor)
            aclDestroyAclOpExecutor(executor);
        return ge::GRAPH_SUCCESS;
    }
    std::string message = aclGetRecentErrMsg();
    /* The face's message starts with its own entry point; name the operator once. */
    std::string prefix = std::string(aclnn_api) + "GetWorkspaceSize: ";
    if (message.compare(0, prefix.size(), prefix) == 0)
        message.erase(0, prefix.size());
    *detail = Format("%s (as %s, code %d)", message.c_str(), aclnn_api, static_cast<int>(status));
    return status == ACLNN_ERR_INNER ? ACL_ERROR_GE_MEMORY_ALLOCATION : ACL_ERROR_GE_PARAM_INVALID;
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
