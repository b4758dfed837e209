/* aclnnInplacePartialRotaryMulGrad: dyRef enters as dL/dy and leaves as dL/dx.
 * Contract: SPEC section 4 (interleave mode only, as in CANN). */
#ifndef ROPEKIT_ACLNNOP_ACLNN_INPLACE_PARTIAL_ROTARY_MUL_GRAD_H_
#define ROPEKIT_ACLNNOP_ACLNN_INPLACE_PARTIAL_ROTARY_MUL_GRAD_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePartialRotaryMulGradGetWorkspaceSize(
    aclTensor *dyRef, const aclTensor *cos, const aclTensor *sin, int64_t rotaryMode,
    const aclIntArray *partialSlice, uint64_t *workspaceSize, aclOpExecutor **executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplacePartialRotaryMulGrad(void *workspace,
                                                                 uint64_t workspaceSize,
                                                                 aclOpExecutor *executor,
                                                                 aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACLNNOP_ACLNN_INPLACE_PARTIAL_ROTARY_MUL_GRAD_H_ */
