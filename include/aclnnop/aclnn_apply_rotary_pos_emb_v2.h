/* aclnnApplyRotaryPosEmbV2: aclnnApplyRotaryPosEmb with layouts 1 (BSND), 2 (SBND), 3
 * (BNSD) and rotaryMode "half", "interleave" or "quarter". Contract: SPEC section 14. */
#ifndef ROPEKIT_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_V2_H_
#define ROPEKIT_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyRotaryPosEmbV2GetWorkspaceSize(
    aclTensor *queryRef, aclTensor *keyRef, const aclTensor *cos, const aclTensor *sin,
    int64_t layout, char *rotaryMode, uint64_t *workspaceSize, aclOpExecutor **executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnApplyRotaryPosEmbV2(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor,
                                                         aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACLNNOP_ACLNN_APPLY_ROTARY_POS_EMB_V2_H_ */
