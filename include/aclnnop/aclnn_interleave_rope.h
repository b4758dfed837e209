/* aclnnInterleaveRope: out = x rotated over its whole last dim in interleave-half mode (the
 * even elements of each row, then the odd ones, rotated as halves); x [B, N, S, 64], cos and
 * sin [B, 1, S, 64] or [B, 1, 1, 64], out x's shape, all f16 or all bf16. Contract: SPEC
 * section 17. */
#ifndef ROPEKIT_ACLNNOP_ACLNN_INTERLEAVE_ROPE_H_
#define ROPEKIT_ACLNNOP_ACLNN_INTERLEAVE_ROPE_H_

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInterleaveRopeGetWorkspaceSize(
    const aclTensor *x, const aclTensor *cos, const aclTensor *sin, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInterleaveRope(void *workspace, uint64_t workspaceSize,
                                                    aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACLNNOP_ACLNN_INTERLEAVE_ROPE_H_ */
