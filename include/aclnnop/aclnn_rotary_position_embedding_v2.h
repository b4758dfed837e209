/* aclnnRotaryPositionEmbeddingV2: aclnnRotaryPositionEmbedding with an optional rotate
 * matrix. rotate NULL: the rotation of `mode` (0 half, 1 interleave, 2 quarter, 3
 * interleave-half) as aclnnRotaryPositionEmbedding; rotate a [D, D] matrix of x's dtype:
 * y = x*cos + (x @ rotate)*sin per row of x's last dim. Contract: SPEC section 15.4. */
#ifndef ROPEKIT_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_V2_H_
#define ROPEKIT_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_V2_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbeddingV2GetWorkspaceSize(
    const aclTensor *x, const aclTensor *cos, const aclTensor *sin, int64_t mode,
    const aclTensor *rotate, aclTensor *out, uint64_t *workspaceSize, aclOpExecutor **executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbeddingV2(void *workspace,
                                                               uint64_t workspaceSize,
                                                               aclOpExecutor *executor,
                                                               aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_V2_H_ */
