#include "aclnn/partial_rotary_common.h"

#include "core/error.h"
#include "runtime/acl_objects.h"

/* IR: inputs x (0), cos (1), sin (2); output x (0), the same memory as input 0. */
static const struct rk_exec_io rk_pr_io = {
    .input_slot = {0, 1, 2, -1, -1, -1},
    .output_slot = {0, -1, -1, -1, -1, -1},
};

aclnnStatus rk_aclnn_pr_prepare(const struct rk_aclnn_pr_args *a, const struct rk_pr_policy *pol,
                                int direction, enum rk_exec_op op,
                                aclnnStatus (*code_of)(enum rk_pr_rule)) {
    const char *missing = !a->x                ? pol->x_name
                          : !a->cos            ? "cos"
                          : !a->sin            ? "sin"
                          : !a->workspace_size ? "workspaceSize"
                          : !a->executor       ? "executor"
                                               : NULL;
    if (missing) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: %s = NULL: required", pol->api, missing);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    ropekit_tensor x = rk_acl_tensor_view(a->x);
    ropekit_tensor c = rk_acl_tensor_view(a->cos);
    ropekit_tensor s = rk_acl_tensor_view(a->sin);
    struct rk_pr_problem prob = {
        .x = &x,
        .cos = &c,
        .sin = &s,
        .mode = a->mode,
        .direction = direction,
        .slice = a->slice ? a->slice->values : NULL,
        .slice_len = a->slice ? a->slice->size : 0,
    };
    struct rk_pr_plan plan;
    enum rk_pr_rule rule;
    if (rk_pr_plan_make(&prob, pol, &plan, &rule) != ROPEKIT_OK) return code_of(rule);
    aclOpExecutor *e = rk_executor_new(op, &rk_pr_io, code_of);
    if (!e) return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    e->plan.pr = plan;
    e->addr[0] = x.data;
    e->addr[1] = c.data;
    e->addr[2] = s.data;
    *a->workspace_size = 0;
    *a->executor = e;
    return ACLNN_SUCCESS;
}
