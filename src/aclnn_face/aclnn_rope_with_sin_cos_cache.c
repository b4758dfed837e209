/* aclnnRopeWithSinCosCache (SPEC §5). V1 is V2 with cacheMode 0 (SPEC §5.1). */
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"

#include "aclnn_face/rope_common.h"

static const struct rk_exec_ops rk_ops = RK_ROPE_EXEC_OPS("aclnnRopeWithSinCosCache");

aclnnStatus
aclnnRopeWithSinCosCacheGetWorkspaceSize(const aclTensor *positions, const aclTensor *queryIn,
                                         const aclTensor *keyIn, const aclTensor *cosSinCache,
                                         const aclIntArray *mropeSection, int64_t headSize,
                                         bool isNeoxStyle, aclTensor *queryOut, aclTensor *keyOut,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
    return rk_aclnn_rope_prepare(&rk_ops, positions, queryIn, keyIn, cosSinCache, mropeSection,
                                 headSize, isNeoxStyle, 0, queryOut, keyOut, workspaceSize,
                                 executor);
}

aclnnStatus aclnnRopeWithSinCosCache(void *workspace, uint64_t workspaceSize,
                                     aclOpExecutor *executor, aclrtStream stream) {
    return rk_executor_launch(workspace, workspaceSize, executor, stream, &rk_ops);
}
