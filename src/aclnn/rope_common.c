#include "aclnn/rope_common.h"

#include <stdio.h>

#include "core/error.h"
#include "runtime/acl_objects.h"

aclnnStatus rk_aclnn_rope_code(int rule) {
    switch ((enum rk_rope_rule)rule) {
    case RK_ROPE_RULE_NULL:
    case RK_ROPE_RULE_DATA_NULL:
        return ACLNN_ERR_PARAM_NULLPTR;
    case RK_ROPE_RULE_CACHE_MODE:
    case RK_ROPE_RULE_LAYOUT:
    case RK_ROPE_RULE_POS_DTYPE:
    case RK_ROPE_RULE_DTYPE:
    case RK_ROPE_RULE_RANK:
    case RK_ROPE_RULE_EMPTY:
    case RK_ROPE_RULE_TOKENS:
    case RK_ROPE_RULE_OUT_SHAPE:
    case RK_ROPE_RULE_SECTIONS:
    case RK_ROPE_RULE_SECTION_VALUES:
    case RK_ROPE_RULE_HEAD_SIZE:
        return ACLNN_ERR_PARAM_INVALID; /* op_api checks */
    case RK_ROPE_RULE_NO_MEMORY:
        return ACLNN_ERR_INNER;
    default:
        return ACLNN_ERR_INNER_TILING_ERROR; /* tiling checks and ropekit's own */
    }
}

aclError rk_aclnn_rope_fault(ropekit_status status, int rule) {
    if (rule == RK_ROPE_RULE_POS_RANGE)
        return ACL_ERROR_RT_AICORE_EXCEPTION; /* how a device-side fault surfaces */
    return status == ROPEKIT_NO_MEMORY ? ACL_ERROR_BAD_ALLOC : ACL_ERROR_RT_FAILURE;
}

aclnnStatus rk_aclnn_rope_prepare(const struct rk_exec_ops *ops, const aclTensor *positions,
                                  const aclTensor *queryIn, const aclTensor *keyIn,
                                  const aclTensor *cosSinCache, const aclIntArray *mropeSection,
                                  int64_t headSize, bool isNeoxStyle, int64_t cacheMode,
                                  aclTensor *queryOut, aclTensor *keyOut, uint64_t *workspaceSize,
                                  aclOpExecutor **executor) {
    const char *api = ops->phase1_name;
    /* V2 checks cacheMode before anything else (SPEC §5.5 row 0). */
    if (cacheMode != 0 && cacheMode != 1) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: cacheMode = %lld: must be 0 or 1", api,
                     (long long)cacheMode);
        return ACLNN_ERR_PARAM_INVALID;
    }
    const char *missing = !positions       ? "positions"
                          : !queryIn       ? "queryIn"
                          : !keyIn         ? "keyIn"
                          : !cosSinCache   ? "cosSinCache"
                          : !queryOut      ? "queryOut"
                          : !keyOut        ? "keyOut"
                          : !workspaceSize ? "workspaceSize"
                          : !executor      ? "executor"
                                           : NULL;
    if (missing) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: %s = NULL: required", api, missing);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    ropekit_tensor pos = rk_acl_tensor_view(positions), qi = rk_acl_tensor_view(queryIn),
                   ki = rk_acl_tensor_view(keyIn), cache = rk_acl_tensor_view(cosSinCache),
                   qo = rk_acl_tensor_view(queryOut), ko = rk_acl_tensor_view(keyOut);
    struct rk_rope_problem prob = {
        .positions = &pos,
        .query_in = &qi,
        .key_in = &ki,
        .cache = &cache,
        .query_out = &qo,
        .key_out = &ko,
        .head_size = headSize,
        .style = isNeoxStyle ? RK_ROPE_NEOX : RK_ROPE_GPTJ,
        .sections = mropeSection ? mropeSection->values : NULL,
        .num_sections = mropeSection ? mropeSection->size : 0,
        .cache_mode = cacheMode,
    };
    struct rk_rope_policy pol = {.api = api, .aclnn = true, .check_data = true};
    struct rk_rope_plan plan;
    enum rk_rope_rule rule;
    if (rk_rope_plan_make(&prob, &pol, &plan, &rule) != ROPEKIT_OK)
        return rk_aclnn_rope_code((int)rule);
    if (rk_rope_check_data(&plan, api, pos.data, qi.data, ki.data, cache.data, qo.data, ko.data,
                           &rule) != ROPEKIT_OK)
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

ropekit_status rk_aclnn_rope_check(const aclOpExecutor *e, const char *api, int *rule) {
    enum rk_rope_rule r;
    ropekit_status st = rk_rope_check_data(&e->plan.rope, api, e->addr[0], e->addr[1], e->addr[2],
                                           e->addr[3], e->addr[4], e->addr[5], &r);
    *rule = (int)r;
    return st;
}

ropekit_status rk_aclnn_rope_run(const aclOpExecutor *e, const char *api, int *rule) {
    enum rk_rope_rule r;
    ropekit_status st = rk_rope_run(&e->plan.rope, api, e->addr[0], e->addr[1], e->addr[2],
                                    e->addr[3], e->addr[4], e->addr[5], &r);
    *rule = (int)r;
    return st;
}
