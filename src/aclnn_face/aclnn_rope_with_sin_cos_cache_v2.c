/* aclnnRopeWithSinCosCacheV2 (SPEC §5). cacheMode is checked first, before the null checks
 * (SPEC §5.5 row 0); it only matters for mrope. */
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"

#include "aclnn_face/rope_common.h"

static const struct rk_exec_ops rk_ops = RK_ROPE_EXEC_OPS("aclnnRopeWithSinCosCacheV2");

aclnnStatus aclnnRopeWithSinCosCacheV2GetWorkspaceSize(
    const aclTensor *positions, const aclTensor *queryIn, const aclTensor *keyIn,
    const aclTensor *cosSinCache, const aclIntArray *mropeSection, int64_t headSize,
    bool isNeoxStyle, int64_t cacheMode, aclTensor *queryOut, aclTensor *keyOut,
    uint64_t *workspaceSize, aclOpExecutor **executor) {
    return rk_aclnn_rope_prepare(&rk_ops, positions, queryIn, keyIn, cosSinCache, mropeSection,
                                 headSize, isNeoxStyle, cacheMode, queryOut, keyOut, workspaceSize,
                                 executor);
}

aclnnStatus aclnnRopeWithSinCosCacheV2(void *workspace, uint64_t workspaceSize,
                                       aclOpExecutor *executor, aclrtStream stream) {
    return rk_executor_launch(workspace, workspaceSize, executor, stream, &rk_ops);
}
