/* Between check.c and plan.c of the apply-rotary operator. */
#ifndef ROPEKIT_OPS_APPLY_ROTARY_CHECK_H_
#define ROPEKIT_OPS_APPLY_ROTARY_CHECK_H_

#include "ops/apply_rotary/apply_rotary.h"

#define RK_AR_FAIL(rule_id, ...) RK_OP_FAIL(&rk_op_apply_rotary, rule_id, __VA_ARGS__)

/* State shared by the steps. */
struct rk_ar_ctx {
    const struct rk_ar_problem *p;
    const struct rk_ar_policy *pol;
    const ropekit_tensor *t[RK_AR_TENSORS]; /* query, key, cos, sin */
    const char *name[RK_AR_TENSORS];
    struct rk_view_geom *geom; /* RK_AR_TENSORS entries, written by the overlap step */
};

/* Checks every rule in order; the views' geometry is written into c->geom. */
ropekit_status rk_ar_validate(const struct rk_ar_ctx *c, int *rule);

/* OVERLAP across tensors: query and key share no byte with each other, cos or sin. */
ropekit_status rk_ar_check_overlap(const char *api, const char *const name[RK_AR_TENSORS],
                                   const struct rk_view_geom geom[RK_AR_TENSORS],
                                   const void *const data[RK_AR_TENSORS], int *rule);

#endif /* ROPEKIT_OPS_APPLY_ROTARY_CHECK_H_ */
