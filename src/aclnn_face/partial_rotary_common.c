#include "aclnn_face/partial_rotary_common.h"

#include "core/error.h"
#include "runtime/acl_objects.h"

aclnnStatus rk_aclnn_pr_prepare(const struct rk_aclnn_pr_args *a, const struct rk_pr_policy *pol,
                                int direction, const struct rk_exec_ops *ops) {
    ropekit_tensor x, c, s;
    struct rk_pr_problem prob = {
        .x = a->x ? (x = rk_acl_tensor_view(a->x), &x) : NULL,
        .cos = a->cos ? (c = rk_acl_tensor_view(a->cos), &c) : NULL,
        .sin = a->sin ? (s = rk_acl_tensor_view(a->sin), &s) : NULL,
        .mode = a->mode,
        .direction = direction,
        .slice = a->slice ? a->slice->values : NULL,
        .slice_len = a->slice ? a->slice->size : 0,
        .missing_arg = !a->workspace_size ? "workspaceSize"
                       : !a->executor     ? "executor"
                                          : NULL,
    };
    struct rk_pr_plan plan;
    enum rk_pr_rule rule;
    if (rk_pr_plan_make(&prob, pol, &plan, &rule) != ROPEKIT_OK)
        return ops->code_of((int)rule);
    aclOpExecutor *e = rk_executor_new(ops);
    if (!e)
        return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    e->plan.pr = plan;
    rk_executor_bind(e, 0, a->x);
    rk_executor_bind(e, 1, a->cos);
    rk_executor_bind(e, 2, a->sin);
    *a->workspace_size = 0;
    *a->executor = e;
    return ACLNN_SUCCESS;
}

ropekit_status rk_aclnn_pr_check(const aclOpExecutor *e, const char *api, int *rule) {
    enum rk_pr_rule r;
    ropekit_status st = rk_pr_check_data(&e->plan.pr, api, e->addr[0], e->addr[1], e->addr[2], &r);
    *rule = (int)r;
    return st;
}

ropekit_status rk_aclnn_pr_run(const aclOpExecutor *e, const char *api, int *rule) {
    enum rk_pr_rule r;
    ropekit_status st = rk_pr_run(&e->plan.pr, api, e->addr[0], e->addr[1], e->addr[2], &r);
    *rule = (int)r;
    return st;
}

#define RK_PR_FAULT_(rule, status, forward_code, gradient_code, fault, meaning)                    \
    [RK_PR_RULE_##rule] = ACL_ERROR_##fault,
static const aclError rk_pr_faults[RK_PR_RULE_COUNT] = {RK_PR_RULES(RK_PR_FAULT_)};

aclError rk_aclnn_pr_fault(ropekit_status status, int rule) {
    if (status == ROPEKIT_NO_MEMORY)
        rule = RK_PR_RULE_NO_MEMORY;
    return rule > RK_PR_RULE_NONE && rule < RK_PR_RULE_COUNT ? rk_pr_faults[rule]
                                                             : ACL_ERROR_RT_FAILURE;
}
