/* Native face of the partial-rotary operator: every mode, dtype pair, rank and
 * broadcast (SPEC §8). */
#include <stdio.h>

#include "core/error.h"
#include "faces/native/plan.h"
#include "ops/partial_rotary/partial_rotary.h"

const struct rk_pr_policy rk_native_pr_policy = {
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
    /* the out-of-place calls add their out tensor to the problem */
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
    return rk_plan_make(&rk_op_partial_rotary, api, &prob, &rk_native_pr_policy, plan, &rule);
}

/* The plan of a partial-rotary call, in place (`apart` false) or out of place. */
static const struct rk_pr_plan *rk_native_plan_of(const ropekit_plan *plan, bool apart,
                                                  const char *api, ropekit_status *st) {
    const struct rk_pr_plan *pl = rk_plan_of(plan, &rk_op_partial_rotary);
    *st = ROPEKIT_OK;
    if (!pl)
        *st = rk_plan_error(plan, api,
                            apart ? "an out-of-place partial-rotary plan"
                                  : "an in-place partial-rotary plan");
    else if (pl->views.apart != apart)
        *st = rk_error_set(
            ROPEKIT_INVALID_ARGUMENT, "%s: plan = %p: was made by %s; it runs with %s", api,
            (const void *)plan,
            apart ? "ropekit_partial_rotary_plan_create" : "ropekit_partial_rotary_out_plan_create",
            apart ? "ropekit_partial_rotary_execute" : "ropekit_partial_rotary_out_execute");
    return *st == ROPEKIT_OK ? pl : NULL;
}

ropekit_status ropekit_partial_rotary_execute(const ropekit_plan *plan, void *x, const void *cos,
                                              const void *sin) {
    static const char api[] = "ropekit_partial_rotary_execute";
    ropekit_status st;
    const struct rk_pr_plan *pl = rk_native_plan_of(plan, false, api, &st);
    if (!pl)
        return st;
    const struct rk_op_data data = {{x, (void *)cos, (void *)sin}};
    int rule;
    st = rk_pr_check_data(pl, api, &data, &rule);
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
    return rk_op_once(&rk_op_partial_rotary, api, &prob, &rk_native_pr_policy, plan, &data);
}

/* ---- Out of place (RotaryPositionEmbedding's form): out = x rotated ---- */

ropekit_status
ropekit_partial_rotary_out_plan_create(const ropekit_tensor *x, const ropekit_tensor *cos,
                                       const ropekit_tensor *sin, const ropekit_tensor *out,
                                       ropekit_rotary_mode mode, int64_t start, int64_t end,
                                       ropekit_direction direction, ropekit_plan **plan) {
    static const char api[] = "ropekit_partial_rotary_out_plan_create";
    const int64_t slice[2] = {start, end};
    struct rk_pr_problem prob;
    ropekit_status st = rk_plan_out_ready(api, plan);
    if (st == ROPEKIT_OK)
        st = rk_native_problem(api, x, cos, sin, mode, slice, direction, &prob);
    if (st != ROPEKIT_OK)
        return st;
    prob.out = out;
    prob.with_out = true;
    int rule;
    return rk_plan_make(&rk_op_partial_rotary, api, &prob, &rk_native_pr_policy, plan, &rule);
}

ropekit_status ropekit_partial_rotary_out_execute(const ropekit_plan *plan, const void *x,
                                                  const void *cos, const void *sin, void *out) {
    static const char api[] = "ropekit_partial_rotary_out_execute";
    ropekit_status st;
    const struct rk_pr_plan *pl = rk_native_plan_of(plan, true, api, &st);
    if (!pl)
        return st;
    const struct rk_op_data data = {{(void *)x, (void *)cos, (void *)sin, out}};
    int rule;
    st = rk_pr_check_data(pl, api, &data, &rule);
    return st != ROPEKIT_OK ? st : rk_pr_run(pl, api, &data, &rule);
}

ropekit_status ropekit_partial_rotary_out(const ropekit_tensor *x, const ropekit_tensor *cos,
                                          const ropekit_tensor *sin, const ropekit_tensor *out,
                                          ropekit_rotary_mode mode, int64_t start, int64_t end,
                                          ropekit_direction direction) {
    static const char api[] = "ropekit_partial_rotary_out";
    const int64_t slice[2] = {start, end};
    struct rk_pr_problem prob;
    ropekit_status st = rk_native_problem(api, x, cos, sin, mode, slice, direction, &prob);
    if (st != ROPEKIT_OK)
        return st;
    prob.out = out;
    prob.with_out = true;
    _Alignas(max_align_t) unsigned char plan[RK_OP_MAX_PLAN_SIZE];
    const struct rk_op_data data = {{x ? x->data : NULL, cos ? cos->data : NULL,
                                     sin ? sin->data : NULL, out ? out->data : NULL}};
    return rk_op_once(&rk_op_partial_rotary, api, &prob, &rk_native_pr_policy, plan, &data);
}
