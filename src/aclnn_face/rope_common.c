#include "aclnn_face/rope_common.h"

#include <stdio.h>

#include "core/error.h"
#include "runtime/acl_objects.h"

#define RK_ROPE_CODE_(rule, status, code, fault, meaning) [RK_ROPE_RULE_##rule] = ACLNN_ERR_##code,
static const aclnnStatus rk_rope_codes[RK_ROPE_RULE_COUNT] = {RK_ROPE_RULES(RK_ROPE_CODE_)};
#define RK_ROPE_FAULT_(rule, status, code, fault, meaning)                                         \
    [RK_ROPE_RULE_##rule] = ACL_ERROR_##fault,
static const aclError rk_rope_faults[RK_ROPE_RULE_COUNT] = {RK_ROPE_RULES(RK_ROPE_FAULT_)};

aclnnStatus rk_aclnn_rope_code(int rule) {
    return rule > RK_ROPE_RULE_NONE && rule < RK_ROPE_RULE_COUNT ? rk_rope_codes[rule]
                                                                 : ACLNN_ERR_INNER;
}

aclError rk_aclnn_rope_fault(ropekit_status status, int rule) {
    if (status == ROPEKIT_NO_MEMORY)
        rule = RK_ROPE_RULE_NO_MEMORY;
    return rule > RK_ROPE_RULE_NONE && rule < RK_ROPE_RULE_COUNT ? rk_rope_faults[rule]
                                                                 : ACL_ERROR_RT_FAILURE;
}

/* The view of an aclTensor, or NULL for none. */
static const ropekit_tensor *rk_view_or_null(const aclTensor *t, ropekit_tensor *view) {
    if (!t)
        return NULL;
    *view = rk_acl_tensor_view(t);
    return view;
}

aclnnStatus rk_aclnn_rope_prepare(const struct rk_exec_ops *ops, const aclTensor *positions,
                                  const aclTensor *queryIn, const aclTensor *keyIn,
                                  const aclTensor *cosSinCache, const aclIntArray *mropeSection,
                                  int64_t headSize, bool isNeoxStyle, int64_t cacheMode,
                                  aclTensor *queryOut, aclTensor *keyOut, uint64_t *workspaceSize,
                                  aclOpExecutor **executor) {
    ropekit_tensor pos, qi, ki, cache, qo, ko;
    struct rk_rope_problem prob = {
        .positions = rk_view_or_null(positions, &pos),
        .query_in = rk_view_or_null(queryIn, &qi),
        .key_in = rk_view_or_null(keyIn, &ki),
        .cache = rk_view_or_null(cosSinCache, &cache),
        .query_out = rk_view_or_null(queryOut, &qo),
        .key_out = rk_view_or_null(keyOut, &ko),
        .offsets = NULL,
        .head_size = headSize,
        .style = isNeoxStyle ? RK_ROPE_NEOX : RK_ROPE_GPTJ,
        .sections = mropeSection ? mropeSection->values : NULL,
        .num_sections = mropeSection ? mropeSection->size : 0,
        .cache_mode = cacheMode,
        .missing_arg = !workspaceSize ? "workspaceSize"
                       : !executor    ? "executor"
                                      : NULL,
    };
    struct rk_rope_policy pol = {.api = ops->phase1_name, .aclnn = true, .check_data = true};
    struct rk_rope_plan plan;
    enum rk_rope_rule rule;
    if (rk_rope_plan_make(&prob, &pol, &plan, &rule) != ROPEKIT_OK)
        return rk_aclnn_rope_code((int)rule);
    aclOpExecutor *e = rk_executor_new(ops);
    if (!e)
        return ACLNN_ERR_INNER_CREATE_EXECUTOR;
    e->plan.rope = plan;
    const aclTensor *bound[RK_EXEC_MAX_ADDR] = {positions,   queryIn,  keyIn,
                                                cosSinCache, queryOut, keyOut};
    for (int i = 0; i < RK_EXEC_MAX_ADDR; i++)
        rk_executor_bind(e, i, bound[i]);
    *workspaceSize = 0;
    *executor = e;
    return ACLNN_SUCCESS;
}

/* The executor's slots hold CANN's six tensors in rk_rope_data's order. */
static struct rk_rope_data rk_aclnn_rope_data(const aclOpExecutor *e) {
    return (struct rk_rope_data){e->addr[0], e->addr[1], e->addr[2], e->addr[3],
                                 e->addr[4], e->addr[5], NULL};
}

ropekit_status rk_aclnn_rope_check(const aclOpExecutor *e, const char *api, int *rule) {
    enum rk_rope_rule r;
    const struct rk_rope_data data = rk_aclnn_rope_data(e);
    ropekit_status st = rk_rope_check_data(&e->plan.rope, api, &data, &r);
    *rule = (int)r;
    return st;
}

ropekit_status rk_aclnn_rope_run(const aclOpExecutor *e, const char *api, int *rule) {
    enum rk_rope_rule r;
    const struct rk_rope_data data = rk_aclnn_rope_data(e);
    ropekit_status st = rk_rope_run(&e->plan.rope, api, &data, &r);
    *rule = (int)r;
    return st;
}
