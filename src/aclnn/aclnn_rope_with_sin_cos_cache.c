/* aclnnRopeWithSinCosCache (SPEC §5). V1 is V2 with cacheMode 0 (SPEC §5.1). */
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"

#include "aclnn/rope_common.h"

static const struct rk_exec_ops rk_ops = {
    .name = "aclnnRopeWithSinCosCache",
    .input_slot = RK_ROPE_INPUT_SLOTS,
    .output_slot = RK_ROPE_OUTPUT_SLOTS,
    .check = rk_aclnn_rope_check,
    .run = rk_aclnn_rope_run,
    .code_of = rk_aclnn_rope_code,
    .is_small = rk_aclnn_rope_is_small,
    .fault_of = rk_aclnn_rope_fault,
};

aclnnStatus
aclnnRopeWithSinCosCacheGetWorkspaceSize(const aclTensor *positions, const aclTensor *queryIn,
                                         const aclTensor *keyIn, const aclTensor *cosSinCache,
                                         const aclIntArray *mropeSection, int64_t headSize,
                                         bool isNeoxStyle, aclTensor *queryOut, aclTensor *keyOut,
                                         uint64_t *workspaceSize, aclOpExecutor **executor) {
    struct rk_aclnn_rope_args args = {
        .api = "aclnnRopeWithSinCosCacheGetWorkspaceSize",
        .positions = positions,
        .query_in = queryIn,
        .key_in = keyIn,
        .cache = cosSinCache,
        .sections = mropeSection,
        .head_size = headSize,
        .neox = isNeoxStyle,
        .cache_mode = 0,
        .query_out = queryOut,
        .key_out = keyOut,
        .workspace_size = workspaceSize,
        .executor = executor,
    };
    return rk_aclnn_rope_prepare(&args, &rk_ops);
}

aclnnStatus aclnnRopeWithSinCosCache(void *workspace, uint64_t workspaceSize,
                                     aclOpExecutor *executor, aclrtStream stream) {
    return rk_executor_launch(workspace, workspaceSize, executor, stream, &rk_ops);
}
