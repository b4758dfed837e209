// Every public header in one C++11 program, calling into each so that the link
// proves the declarations have C linkage.
#include "acl/acl.h"
#include "acl/acl_base.h"
#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"
#include "aclnn/aclnn_base.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "aclnnop/level2/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/level2/aclnn_inplace_partial_rotary_mul_grad.h"
#include "ropekit/ropekit.h"

#include <cstring>
#include <vector>

int main() {
    int failures = 0;
    uint64_t ws = 0;
    aclOpExecutor *executor = nullptr;
    failures +=
        aclnnInplacePartialRotaryMulGetWorkspaceSize(nullptr, nullptr, nullptr, 1, nullptr, &ws,
                                                     &executor) != ACLNN_ERR_PARAM_NULLPTR;
    failures +=
        aclnnInplacePartialRotaryMulGradGetWorkspaceSize(nullptr, nullptr, nullptr, 1, nullptr, &ws,
                                                         &executor) != ACLNN_ERR_PARAM_NULLPTR;
    failures +=
        aclnnInplacePartialRotaryMul(nullptr, 0, nullptr, nullptr) != ACLNN_ERR_PARAM_NULLPTR;
    failures +=
        aclnnInplacePartialRotaryMulGrad(nullptr, 0, nullptr, nullptr) != ACLNN_ERR_PARAM_NULLPTR;
    failures += std::strlen(aclGetRecentErrMsg()) == 0;
    std::vector<int64_t> shape = {2, 3};
    aclTensor *t = aclCreateTensor(shape.data(), shape.size(), aclDataType::ACL_BF16, nullptr, 0,
                                   aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), nullptr);
    failures += t == nullptr;
    failures += aclDestroyTensor(t) != ACLNN_SUCCESS;
    failures += aclDestroyAclOpExecutor(nullptr) != ACLNN_ERR_INNER_NULLPTR;
    uint32_t count = 0;
    failures += aclrtGetDeviceCount(&count) != ACL_SUCCESS || count != 1;
    failures += ropekit_version_number() != ROPEKIT_VERSION_NUMBER;
    failures += ropekit_dtype_size(ROPEKIT_BF16) != 2;
    printf("%s %s\n", ropekit_version_string(), failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
