/* Native plan handles (plan.h): creation, the operator check of execute, describe and
 * destroy, for every operator alike. */
#include "faces/native/plan.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"

ropekit_status rk_plan_out_ready(const char *api, ropekit_plan **plan) {
    if (!plan)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: plan = NULL: output pointer required", api);
    *plan = NULL;
    return ROPEKIT_OK;
}

ropekit_status rk_plan_make(const struct rk_op *op, const char *api, const void *problem,
                            const void *policy, ropekit_plan **plan, int *rule) {
    ropekit_plan *p = malloc(offsetof(ropekit_plan, plan) + op->plan_size);
    if (!p)
        return rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
    p->op = op;
    ropekit_status st = op->make(problem, policy, p->plan, rule);
    if (st != ROPEKIT_OK) {
        free(p);
        return st;
    }
    *plan = p;
    return ROPEKIT_OK;
}

ropekit_status rk_plan_error(const ropekit_plan *plan, const char *api, const char *what) {
    if (!plan)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: plan = NULL: required", api);
    return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: plan = a %s plan: not %s", api,
                        plan->op->name, what);
}

void ropekit_plan_destroy(ropekit_plan *plan) {
    if (plan)
        plan->op->release(plan->plan);
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
    return plan->op->describe(plan->plan, buf, len);
}
