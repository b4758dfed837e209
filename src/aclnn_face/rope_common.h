/* What aclnnRopeWithSinCosCache and its V2 share: phase 1 and the executor callbacks. */
#ifndef ROPEKIT_ACLNN_FACE_ROPE_COMMON_H_
#define ROPEKIT_ACLNN_FACE_ROPE_COMMON_H_

#include "aclnn_face/executor.h"

/* Phase 1 of V1 and V2 (SPEC §5.5 rows 0-16); V1 passes cacheMode 0. */
aclnnStatus rk_aclnn_rope_prepare(const struct rk_exec_ops *ops, const aclTensor *positions,
                                  const aclTensor *queryIn, const aclTensor *keyIn,
                                  const aclTensor *cosSinCache, const aclIntArray *mropeSection,
                                  int64_t headSize, bool isNeoxStyle, int64_t cacheMode,
                                  aclTensor *queryOut, aclTensor *keyOut, uint64_t *workspaceSize,
                                  aclOpExecutor **executor);

ropekit_status rk_aclnn_rope_check(const aclOpExecutor *e, const char *api, int *rule);
ropekit_status rk_aclnn_rope_run(const aclOpExecutor *e, const char *api, int *rule);
aclnnStatus rk_aclnn_rope_code(int rule);
aclError rk_aclnn_rope_fault(ropekit_status status, int rule);

/* The executor callbacks of an entry point named `api_name`. IR: inputs positions (0),
 * queryIn (1), keyIn (2), cosSinCache (3); outputs queryOut (0), keyOut (1). */
#define RK_ROPE_EXEC_OPS(api_name)                                                                 \
    {                                                                                              \
        .name = api_name, .phase1_name = api_name "GetWorkspaceSize",                              \
        .input_slot = {0, 1, 2, 3, -1, -1}, .output_slot = {4, 5, -1, -1, -1, -1},                 \
        .check = rk_aclnn_rope_check, .run = rk_aclnn_rope_run, .code_of = rk_aclnn_rope_code,     \
        .fault_of = rk_aclnn_rope_fault,                                                           \
    }

#endif /* ROPEKIT_ACLNN_FACE_ROPE_COMMON_H_ */
