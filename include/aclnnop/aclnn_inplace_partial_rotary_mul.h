/* aclnnInplacePartialRotaryMul: in-place rotary embedding of x[..., start:end).
 * Contract: SPEC section 3 (interleave mode only, as in CANN). */
#ifndef ROPEKIT_ACLNNOP_ACLNN_INPLACE_PARTIAL_ROTARY_MUL_H_
#define ROPEKIT_ACLNNOP_ACLNN_INPLACE_PARTIAL_ROTARY_MUL_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePartialRotaryMulGetWorkspaceSize(
    const aclTensor *xRef, const aclTensor *cos, const aclTensor *sin, int64_t rotary_mode,
    const aclIntArray *partialSlice, uint64_t *workspaceSize, aclOpExecutor **executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePartialRotaryMul(void *workspace,
                                                             uint64_t workspaceSize,
                                                             aclOpExecutor *executor,
                                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACLNNOP_ACLNN_INPLACE_PARTIAL_ROTARY_MUL_H_ */
