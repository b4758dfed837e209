/* What the two InplacePartialRotaryMul entry points share: argument translation from
 * aclTensor/aclIntArray, phase 1, and the IR index map. */
#ifndef ROPEKIT_ACLNN_FACE_PARTIAL_ROTARY_COMMON_H_
#define ROPEKIT_ACLNN_FACE_PARTIAL_ROTARY_COMMON_H_

#include "aclnn_face/executor.h"

struct rk_aclnn_pr_args {
    const aclTensor *x;
    const aclTensor *cos;
    const aclTensor *sin;
    int64_t mode;
    const aclIntArray *slice;
    uint64_t *workspace_size;
    aclOpExecutor **executor;
};

/* Phase 1 of both operators: null checks, the shared validator under `policy`,
 * executor creation. Codes come from ops->code_of. */
aclnnStatus rk_aclnn_pr_prepare(const struct rk_aclnn_pr_args *args,
                                const struct rk_pr_policy *policy, int direction,
                                const struct rk_exec_ops *ops);

/* Executor callbacks shared by the forward and the gradient. */
ropekit_status rk_aclnn_pr_check(const aclOpExecutor *e, const char *api, int *rule);
ropekit_status rk_aclnn_pr_run(const aclOpExecutor *e, const char *api, int *rule);
aclError rk_aclnn_pr_fault(ropekit_status status, int rule);

/* IR: inputs x (0), cos (1), sin (2); output x (0), the same memory as input 0. */
#define RK_PR_INPUT_SLOTS                                                                          \
    { 0, 1, 2, -1, -1, -1 }
#define RK_PR_OUTPUT_SLOTS                                                                         \
    { 0, -1, -1, -1, -1, -1 }

#endif /* ROPEKIT_ACLNN_FACE_PARTIAL_ROTARY_COMMON_H_ */
