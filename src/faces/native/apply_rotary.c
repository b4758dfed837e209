/* Native face of the apply-rotary operator: every mode, dtype pair, rank, layout (as
 * shapes and strides) and broadcast (SPEC §14.5). */
#include "core/error.h"
#include "faces/native/plan.h"
#include "ops/apply_rotary/apply_rotary.h"

static const struct rk_ar_policy rk_native_policy = {
    .q_name = "query",
    .k_name = "key",
    .mode_name = "mode",
    .mode_mask = RK_PR_ALL_MODES,
    .pair_mask = RK_PR_F32_F16_BF16_PAIRS | RK_PR_F64_PAIR,
};

static ropekit_status rk_native_problem(const char *api, const ropekit_tensor *q,
                                        const ropekit_tensor *k, const ropekit_tensor *cos,
                                        const ropekit_tensor *sin, ropekit_rotary_mode mode,
                                        ropekit_direction direction, struct rk_ar_problem *prob) {
    if ((int)direction != ROPEKIT_FORWARD && (int)direction != ROPEKIT_BACKWARD)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: direction = %d: must be 0 (forward) or 1 (backward)", api,
                            (int)direction);
    *prob = (struct rk_ar_problem){
        .api = api,
        .q = q,
        .k = k,
        .cos = cos,
        .sin = sin,
        .mode = (int64_t)mode,
        .direction = (int)direction,
    };
    return ROPEKIT_OK;
}

ropekit_status ropekit_apply_rotary_plan_create(const ropekit_tensor *query,
                                                const ropekit_tensor *key,
                                                const ropekit_tensor *cos,
                                                const ropekit_tensor *sin, ropekit_rotary_mode mode,
                                                ropekit_direction direction, ropekit_plan **plan) {
    static const char api[] = "ropekit_apply_rotary_plan_create";
    struct rk_ar_problem prob;
    ropekit_status st = rk_plan_out_ready(api, plan);
    if (st == ROPEKIT_OK)
        st = rk_native_problem(api, query, key, cos, sin, mode, direction, &prob);
    if (st != ROPEKIT_OK)
        return st;
    int rule;
    return rk_plan_make(&rk_op_apply_rotary, api, &prob, &rk_native_policy, plan, &rule);
}

ropekit_status ropekit_apply_rotary_execute(const ropekit_plan *plan, void *query, void *key,
                                            const void *cos, const void *sin) {
    static const char api[] = "ropekit_apply_rotary_execute";
    const struct rk_ar_plan *pl = rk_plan_of(plan, &rk_op_apply_rotary);
    if (!pl)
        return rk_plan_error(plan, api, "an apply-rotary plan");
    const struct rk_op_data data = {{query, key, (void *)cos, (void *)sin}};
    int rule;
    ropekit_status st = rk_ar_check_data(pl, api, &data, &rule);
    return st != ROPEKIT_OK ? st : rk_ar_run(pl, api, &data, &rule);
}

ropekit_status ropekit_apply_rotary(const ropekit_tensor *query, const ropekit_tensor *key,
                                    const ropekit_tensor *cos, const ropekit_tensor *sin,
                                    ropekit_rotary_mode mode, ropekit_direction direction) {
    static const char api[] = "ropekit_apply_rotary";
    struct rk_ar_problem prob;
    ropekit_status st = rk_native_problem(api, query, key, cos, sin, mode, direction, &prob);
    if (st != ROPEKIT_OK)
        return st;
    _Alignas(max_align_t) unsigned char plan[RK_OP_MAX_PLAN_SIZE];
    /* a tensor may be NULL here: make refuses it before the data is used */
    const struct rk_op_data data = {{query ? query->data : NULL, key ? key->data : NULL,
                                     cos ? cos->data : NULL, sin ? sin->data : NULL}};
    return rk_op_once(&rk_op_apply_rotary, api, &prob, &rk_native_policy, plan, &data);
}
