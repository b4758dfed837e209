/* aclnnApplyRotaryPosEmb: query and key rotated in place by one cos/sin (rotate-half),
 * layout 1 (BSND) only. Contract: SPEC section 14. */
#ifndef ROPEKIT_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_H_
#define ROPEKIT_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyRotaryPosEmbGetWorkspaceSize(
    aclTensor *queryRef, aclTensor *keyRef, const aclTensor *cos, const aclTensor *sin,
    int64_t layout, uint64_t *workspaceSize, aclOpExecutor **executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyRotaryPosEmb(void *workspace, uint64_t workspaceSize,
                                                       aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_H_ */
