/* What aclnnRopeWithSinCosCache and its V2 share: phase 1 and the executor callbacks. */
#ifndef ROPEKIT_ACLNN_ROPE_COMMON_H_
#define ROPEKIT_ACLNN_ROPE_COMMON_H_

#include "aclnn/executor.h"

struct rk_aclnn_rope_args {
    const char *api;
    const aclTensor *positions, *query_in, *key_in, *cache;
    const aclIntArray *sections;
    int64_t head_size;
    bool neox;
    int64_t cache_mode;
    aclTensor *query_out, *key_out;
    uint64_t *workspace_size;
    aclOpExecutor **executor;
};

/* Phase 1 (SPEC §5.5 rows 0-16). */
aclnnStatus rk_aclnn_rope_prepare(const struct rk_aclnn_rope_args *args,
                                  const struct rk_exec_ops *ops);

ropekit_status rk_aclnn_rope_check(const aclOpExecutor *e, const char *api, int *rule);
ropekit_status rk_aclnn_rope_run(const aclOpExecutor *e, const char *api, int *rule);
aclnnStatus rk_aclnn_rope_code(int rule);
aclError rk_aclnn_rope_fault(ropekit_status status, int rule);
bool rk_aclnn_rope_is_small(const aclOpExecutor *e);

/* IR: inputs positions (0), queryIn (1), keyIn (2), cosSinCache (3); outputs queryOut (0),
 * keyOut (1). */
#define RK_ROPE_INPUT_SLOTS                                                                        \
    { 0, 1, 2, 3, -1, -1 }
#define RK_ROPE_OUTPUT_SLOTS                                                                       \
    { 4, 5, -1, -1, -1, -1 }

#endif /* ROPEKIT_ACLNN_ROPE_COMMON_H_ */
