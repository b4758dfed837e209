/* aclnnRotaryPositionEmbedding: out = x rotated over its whole last dim, modes 0 (half),
 * 1 (interleave), 2 (quarter) and 3 (interleave-half); x, cos, sin and out 4-D of one
 * dtype. Contract: SPEC section 15. */
#ifndef ROPEKIT_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_
#define ROPEKIT_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbeddingGetWorkspaceSize(
    const aclTensor *x, const aclTensor *cos, const aclTensor *sin, int64_t mode, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnRotaryPositionEmbedding(void *workspace,
                                                             uint64_t workspaceSize,
                                                             aclOpExecutor *executor,
                                                             aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACLNNOP_ACLNN_ROTARY_POSITION_EMBEDDING_H_ */
