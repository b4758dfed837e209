/* Native face of the partial-rotary operator: every mode, dtype pair, rank and
 * broadcast (SPEC §8). */
#include <stdio.h>

#include "core/error.h"
#include "faces/native/plan.h"
#include "ops/partial_rotary/partial_rotary.h"

static const struct rk_pr_policy rk_native_policy = {
    .x_name = "x",
    .mode_name = "mode",
    .mode_mask = RK_PR_ALL_MODES,
    .pair_mask = RK_PR_F32_F16_BF16_PAIRS | RK_PR_F64_PAIR,
};

/* The problem of the native calls; the slice array is the caller's. */
static ropekit_status rk_native_problem(const char *api, const ropekit_tensor *x,
                                        const ropekit_tensor *cos, const ropekit_tensor *sin,
                                        ropekit_rotary_mode mode, const int64_t slice[2],
                                        ropekit_direction direction, struct rk_pr_problem *prob) {
    if ((int)direction != ROPEKIT_FORWARD && (int)direction != ROPEKIT_BACKWARD)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: direction = %d: must be 0 (forward) or 1 (backward)", api,
                            (int)direction);
    *prob = (struct rk_pr_problem){
        .api = api,
        .x = x,
        .cos = cos,
        .sin = sin,
        .mode = (int64_t)mode,
        .direction = (int)direction,
        .slice = slice,
        .slice_len = 2,
    };
    return ROPEKIT_OK;
}

ropekit_status ropekit_partial_rotary_plan_create(const ropekit_tensor *x,
                                                  const ropekit_tensor *cos,
                                                  const ropekit_tensor *sin,
                                                  ropekit_rotary_mode mode, int64_t start,
                                                  int64_t end, ropekit_direction direction,
                                                  ropekit_plan **plan) {
    static const char api[] = "ropekit_partial_rotary_plan_create";
    const int64_t slice[2] = {start, end};
    struct rk_pr_problem prob;
    ropekit_status st = rk_plan_out_ready(api, plan);
    if (st == ROPEKIT_OK)
        st = rk_native_problem(api, x, cos, sin, mode, slice, direction, &prob);
    if (st != ROPEKIT_OK)
        return st;
    int rule;
    return rk_plan_make(&rk_op_partial_rotary, api, &prob, &rk_native_policy, plan, &rule);
}

ropekit_status ropekit_partial_rotary_execute(const ropekit_plan *plan, void *x, const void *cos,
                                              const void *sin) {
    static const char api[] = "ropekit_partial_rotary_execute";
    const struct rk_pr_plan *pl = rk_plan_of(plan, &rk_op_partial_rotary);
    if (!pl)
        return rk_plan_error(plan, api, "a partial-rotary plan");
    const struct rk_op_data data = {{x, (void *)cos, (void *)sin}};
    int rule;
    ropekit_status st = rk_pr_check_data(pl, api, &data, &rule);
    return st != ROPEKIT_OK ? st : rk_pr_run(pl, api, &data, &rule);
}

ropekit_status ropekit_partial_rotary(const ropekit_tensor *x, const ropekit_tensor *cos,
                                      const ropekit_tensor *sin, ropekit_rotary_mode mode,
                                      int64_t start, int64_t end, ropekit_direction direction) {
    static const char api[] = "ropekit_partial_rotary";
    const int64_t slice[2] = {start, end};
    struct rk_pr_problem prob;
    ropekit_status st = rk_native_problem(api, x, cos, sin, mode, slice, direction, &prob);
    if (st != ROPEKIT_OK)
        return st;
    _Alignas(max_align_t) unsigned char plan[RK_OP_MAX_PLAN_SIZE];
    /* a tensor may be NULL here: make refuses it before the data is used */
    const struct rk_op_data data = {
        {x ? x->data : NULL, cos ? cos->data : NULL, sin ? sin->data : NULL}};
    return rk_op_once(&rk_op_partial_rotary, api, &prob, &rk_native_policy, plan, &data);
}
