/* What the two InplacePartialRotaryMul entry points share: argument translation from
 * aclTensor/aclIntArray, phase 1, and the IR index map. */
#ifndef ROPEKIT_ACLNN_PARTIAL_ROTARY_COMMON_H_
#define ROPEKIT_ACLNN_PARTIAL_ROTARY_COMMON_H_

#include "aclnn/executor.h"

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
 * executor creation. Codes come from `code_of`. */
aclnnStatus rk_aclnn_pr_prepare(const struct rk_aclnn_pr_args *args,
                                const struct rk_pr_policy *policy, int direction,
                                enum rk_exec_op op, aclnnStatus (*code_of)(enum rk_pr_rule));

#endif /* ROPEKIT_ACLNN_PARTIAL_ROTARY_COMMON_H_ */
