/* Between check.c and plan.c of the rotary-matrix operator. */
#ifndef ROPEKIT_OPS_ROTARY_MATRIX_CHECK_H_
#define ROPEKIT_OPS_ROTARY_MATRIX_CHECK_H_

#include "ops/rotary_matrix/rotary_matrix.h"

#define RK_RM_FAIL(rule_id, ...) RK_OP_FAIL(&rk_op_rotary_matrix, rule_id, __VA_ARGS__)

struct rk_rm_ctx {
    const struct rk_rm_problem *p;
    const struct rk_rm_policy *pol;
    const ropekit_tensor *t[RK_RM_TENSORS]; /* x, cos, sin, rotate, out */
    struct rk_view_geom *geom;              /* RK_RM_TENSORS entries, written by the overlap step */
};

/* Checks every rule in order; an empty x ends the checks after the dtypes (*empty). */
ropekit_status rk_rm_validate(const struct rk_rm_ctx *c, bool *empty, int *rule);

/* OVERLAP across tensors for bound data. */
ropekit_status rk_rm_check_overlap(const char *api, const struct rk_view_geom geom[RK_RM_TENSORS],
                                   const void *const data[RK_RM_TENSORS], bool in_place, int *rule);

/* out is x's view (in place): the same data, shape and strides. */
bool rk_rm_same_view(const ropekit_tensor *x, const ropekit_tensor *out);

/* "x", "cos", "sin", "rotate", "out". */
const char *rk_rm_name(int slot);

#endif /* ROPEKIT_OPS_ROTARY_MATRIX_CHECK_H_ */
