/* Rotary matrix (aclnnRotaryPositionEmbeddingV2 with a rotate matrix): per row v of x's
 * last dim D, y = v*cos + (v @ rotate)*sin, rotate a [D, D] matrix the caller builds (a
 * rotation mode's signed permutation, or several of them on the diagonal for a row split
 * into parts). validate -> plan -> run behind the descriptor rk_op_rotary_matrix. A face
 * states what it restricts in a policy; a failure names the rule it broke (rules.h).
 * Numerics (SPEC §15.5): v @ rotate sums the exact float64 products of each column in
 * row order and is rounded once to fp32 (float64 stays float64); then §1's products and
 * one add. */
#ifndef ROPEKIT_OPS_ROTARY_MATRIX_ROTARY_MATRIX_H_
#define ROPEKIT_OPS_ROTARY_MATRIX_ROTARY_MATRIX_H_

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor_view.h"
#include "ops/op.h"
#include "ops/rotary_matrix/rules.h"
#include "ropekit/ropekit.h"

#define RK_RM_RULE_ENUM_(rule, status, meaning) RK_RM_RULE_##rule,
enum rk_rm_rule { RK_RM_RULE_NONE = 0, RK_RM_RULES(RK_RM_RULE_ENUM_) RK_RM_RULE_COUNT };
#undef RK_RM_RULE_ENUM_

/* The tensor slots of struct rk_op_data. */
enum { RK_RM_X, RK_RM_COS, RK_RM_SIN, RK_RM_ROTATE, RK_RM_OUT, RK_RM_TENSORS };

struct rk_rm_policy {
    unsigned dtype_mask;   /* bit k: enum rk_kdtype k allowed for x (the others take x's) */
    int32_t rank;          /* 0: x of any rank >= 1 and cos, sin of its rank; else this */
    int64_t max_d;         /* 0: any D */
    bool require_d_even;   /* D even */
    unsigned mode_mask;    /* 0: the problem has no mode; else bit m: mode m allowed */
    bool interleave_bcast; /* mode 1 (interleave): cos broadcast over two of x's three
                              leading dims */
};

struct rk_rm_problem {
    const char *api; /* the entry point, for messages */
    const ropekit_tensor *x, *cos, *sin, *rotate, *out;
    int64_t mode;            /* only with a policy mode_mask */
    const char *missing_arg; /* a NULL non-tensor argument the face requires */
    bool check_data;         /* the tensors' data pointers are the call's: check them and
                                the overlaps now */
};

/* Everything execution needs, decided once. Plain data: copyable, owns nothing. */
struct rk_rm_plan {
    int kdt;                            /* enum rk_kdtype of every tensor */
    int32_t ndim;                       /* x's rank */
    int64_t d;                          /* the last dim */
    int64_t rows;                       /* x's element count / D; 0: nothing to do */
    int64_t lead[ROPEKIT_MAX_DIMS - 1]; /* x's leading dims */
    /* element strides per leading dim (cos/sin: 0 where they broadcast) and along D */
    int64_t x_st[ROPEKIT_MAX_DIMS], out_st[ROPEKIT_MAX_DIMS];
    int64_t cos_st[ROPEKIT_MAX_DIMS], sin_st[ROPEKIT_MAX_DIMS];
    int64_t rot_row, rot_col; /* rotate's element strides */
    bool same_geometry;       /* out has x's strides: with x's data, in place */
    int64_t rows_per_task, tasks;
    int threads;
    struct rk_view_geom geom[RK_RM_TENSORS];
    struct rk_shape x_shape, cs_shape;
};

RK_OP_FUNCTIONS(rk_rm);

/* Rows [first, first + count) of the plan on bound data, with `rotate64` the matrix
 * widened to float64 (D*D, row-major) and `scratch` 2*D doubles of the caller's task. */
void rk_rm_rows(const struct rk_rm_plan *pl, const struct rk_op_data *data, const double *rotate64,
                double *scratch, int64_t first, int64_t count);

#endif /* ROPEKIT_OPS_ROTARY_MATRIX_ROTARY_MATRIX_H_ */
