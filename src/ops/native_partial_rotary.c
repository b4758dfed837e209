/* Native face of the partial-rotary operator: every mode, dtype pair, rank and
 * broadcast (SPEC §8). */
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "ops/plan.h"

static struct rk_pr_policy rk_native_policy(const char *api) {
    struct rk_pr_policy pol = {
        .api = api,
        .x_name = "x",
        .mode_name = "mode",
        .mode_mask = RK_PR_ALL_MODES,
        .pair_mask = RK_PR_F32_F16_BF16_PAIRS | RK_PR_F64_PAIR,
    };
    return pol;
}

static ropekit_status rk_native_pr_plan(const char *api, const ropekit_tensor *x,
                                        const ropekit_tensor *cos, const ropekit_tensor *sin,
                                        ropekit_rotary_mode mode, int64_t start, int64_t end,
                                        ropekit_direction direction, struct rk_pr_plan *out) {
    if ((int)direction != ROPEKIT_FORWARD && (int)direction != ROPEKIT_BACKWARD)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: direction = %d: must be 0 (forward) or 1 (backward)", api,
                            (int)direction);
    int64_t slice[2] = {start, end};
    struct rk_pr_problem prob = {
        .x = x,
        .cos = cos,
        .sin = sin,
        .mode = (int64_t)mode,
        .direction = (int)direction,
        .slice = slice,
        .slice_len = 2,
    };
    struct rk_pr_policy pol = rk_native_policy(api);
    enum rk_pr_rule rule;
    return rk_pr_plan_make(&prob, &pol, out, &rule);
}

ropekit_status ropekit_partial_rotary_plan_create(const ropekit_tensor *x,
                                                  const ropekit_tensor *cos,
                                                  const ropekit_tensor *sin,
                                                  ropekit_rotary_mode mode, int64_t start,
                                                  int64_t end, ropekit_direction direction,
                                                  ropekit_plan **plan) {
    static const char api[] = "ropekit_partial_rotary_plan_create";
    if (!plan)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: plan = NULL: output pointer required", api);
    *plan = NULL;
    ropekit_plan *p = calloc(1, sizeof *p);
    if (!p)
        return rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
    p->kind = RK_PLAN_PARTIAL_ROTARY;
    ropekit_status st = rk_native_pr_plan(api, x, cos, sin, mode, start, end, direction, &p->u.pr);
    if (st != ROPEKIT_OK) {
        free(p);
        return st;
    }
    *plan = p;
    return ROPEKIT_OK;
}

ropekit_status ropekit_partial_rotary_execute(const ropekit_plan *plan, void *x, const void *cos,
                                              const void *sin) {
    static const char api[] = "ropekit_partial_rotary_execute";
    if (!plan)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: plan = NULL: required", api);
    if (plan->kind != RK_PLAN_PARTIAL_ROTARY)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: plan kind = %d: not a partial-rotary plan", api, (int)plan->kind);
    enum rk_pr_rule rule;
    return rk_pr_execute(&plan->u.pr, api, x, cos, sin, &rule);
}

ropekit_status ropekit_partial_rotary(const ropekit_tensor *x, const ropekit_tensor *cos,
                                      const ropekit_tensor *sin, ropekit_rotary_mode mode,
                                      int64_t start, int64_t end, ropekit_direction direction) {
    static const char api[] = "ropekit_partial_rotary";
    struct rk_pr_plan plan;
    ropekit_status st = rk_native_pr_plan(api, x, cos, sin, mode, start, end, direction, &plan);
    if (st != ROPEKIT_OK)
        return st;
    enum rk_pr_rule rule;
    return rk_pr_execute(&plan, api, x->data, cos->data, sin->data, &rule);
}

void ropekit_plan_destroy(ropekit_plan *plan) {
    if (plan && plan->kind == RK_PLAN_ROPE)
        rk_rope_plan_release(&plan->u.rope);
    free(plan);
}

size_t ropekit_plan_describe(const ropekit_plan *plan, char *buf, size_t len) {
    char dummy[1];
    if (!buf || len == 0) {
        buf = dummy;
        len = sizeof dummy;
    }
    if (!plan)
        return (size_t)snprintf(buf, len, "(null plan)");
    switch (plan->kind) {
    case RK_PLAN_PARTIAL_ROTARY:
        return rk_pr_describe(&plan->u.pr, buf, len);
    case RK_PLAN_ROPE:
        return rk_rope_describe(&plan->u.rope, buf, len);
    }
    return (size_t)snprintf(buf, len, "(unknown plan)");
}
