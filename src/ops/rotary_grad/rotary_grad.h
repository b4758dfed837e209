/* Rotary gradient (RotaryPositionEmbeddingGrad): the backward of the out-of-place
 * partial rotary forward out = rotate(x; cos, sin). dx is dy rotated backward (the
 * partial-rotary rows, out of place); dcos and dsin, when asked for, are the sums over the
 * dims cos/sin broadcast of dy * x and dy * rotate(x) in the mode's pairing (SPEC §16),
 * each element summed in float64 in one fixed order: the same bits on every thread count
 * and instruction set. Behind the descriptor rk_op_rotary_grad. */
#ifndef ROPEKIT_OPS_ROTARY_GRAD_ROTARY_GRAD_H_
#define ROPEKIT_OPS_ROTARY_GRAD_ROTARY_GRAD_H_

#include <stdbool.h>
#include <stdint.h>

#include "core/tensor_view.h"
#include "ops/op.h"
#include "ops/partial_rotary/partial_rotary.h"
#include "ops/rotary_grad/rules.h"
#include "ropekit/ropekit.h"

#define RK_RG_RULE_ENUM_(rule, status, meaning) RK_RG_RULE_##rule,
enum rk_rg_rule { RK_RG_RULE_NONE = 0, RK_RG_RULES(RK_RG_RULE_ENUM_) RK_RG_RULE_COUNT };
#undef RK_RG_RULE_ENUM_

/* The tensor slots of struct rk_op_data. */
enum { RK_RG_DY, RK_RG_COS, RK_RG_SIN, RK_RG_X, RK_RG_DX, RK_RG_DCOS, RK_RG_DSIN, RK_RG_TENSORS };

/* The checks a policy orders: the partial-rotary steps of dy, cos, sin, dx (a range of
 * the partial-rotary policy's order), and this operator's own. */
enum rk_rg_step {
    RK_RG_STEP_PR_NULL,  /* the partial-rotary order's first step (NULL) */
    RK_RG_STEP_PR_DTYPE, /* its second (DTYPE) */
    RK_RG_STEP_PR_REST,  /* the rest of it */
    RK_RG_STEP_NULL,     /* x, dcos, dsin: NULL, LAYOUT, DATA_NULL */
    RK_RG_STEP_DTYPE,    /* FWD_X_DTYPE, CS_GRAD_DTYPE */
    RK_RG_STEP_SHAPES,   /* FWD_X_SHAPE, CS_GRAD_SHAPE */
    RK_RG_STEP_OVERLAP,  /* CS_GRAD_OVERLAP */
    RK_RG_STEP_COUNT
};

struct rk_rg_policy {
    const struct rk_pr_policy *pr; /* dy, cos, sin, dx: its order must start NULL, DTYPE */
    bool cs_grad_required;         /* dcos, dsin descriptors required even when not computed */
    bool cs_grad_same_dtype;       /* dcos, dsin of dy's dtype (else: of cos's) */
    const enum rk_rg_step *order;
    size_t order_len;
};

struct rk_rg_problem {
    const char *api;
    const ropekit_tensor *dy, *cos, *sin;
    const ropekit_tensor *x; /* the forward input; NULL: no dcos, dsin */
    const ropekit_tensor *dx;
    const ropekit_tensor *dcos, *dsin; /* computed when x is given */
    int64_t mode;
    const int64_t *slice; /* NULL: the whole row */
    const char *missing_arg;
    bool check_data;
};

/* The cos/sin gradient: per output row (a cos/sin row), the sum over the rows of dy and x
 * it broadcast to. Dims of x's leading shape are kept (cos has them) or reduced. */
struct rk_csg_plan {
    bool active; /* dcos, dsin computed (zeros when dy is empty) */
    int mode;
    ropekit_dtype x_dtype, cs_dtype;
    int64_t len, start;
    int64_t x_col, dy_col, c_col, s_col;
    int nkeep, nred;
    int64_t keep_ext[RK_PR_MAX_LEAD], keep_x[RK_PR_MAX_LEAD], keep_dy[RK_PR_MAX_LEAD];
    int64_t keep_c[RK_PR_MAX_LEAD], keep_s[RK_PR_MAX_LEAD];
    int64_t red_ext[RK_PR_MAX_LEAD], red_x[RK_PR_MAX_LEAD], red_dy[RK_PR_MAX_LEAD];
    int64_t groups, reduced; /* output rows; input rows per output row */
    int64_t groups_per_task, tasks;
    int threads;
    struct rk_view_geom geom_dcos, geom_dsin, geom_x;
};

struct rk_rg_plan {
    struct rk_pr_plan dx; /* dy -> dx, out of place (or in place when dx is dy) */
    struct rk_csg_plan cs;
    int64_t tasks; /* dx's and the sums' (run as two splits: the sums first) */
    int threads;   /* the larger split's */
};

/* The problem of a call from its tensors by slot (RK_RG_DY ... RK_RG_DSIN; x NULL: dx
 * only), slice NULL for the whole row. Data is not checked, no argument is missing. */
static inline struct rk_rg_problem rk_rg_problem_of(const char *api,
                                                    const ropekit_tensor *const t[RK_RG_TENSORS],
                                                    int64_t mode, const int64_t *slice) {
    return (struct rk_rg_problem){.api = api,
                                  .dy = t[RK_RG_DY],
                                  .cos = t[RK_RG_COS],
                                  .sin = t[RK_RG_SIN],
                                  .x = t[RK_RG_X],
                                  .dx = t[RK_RG_DX],
                                  .dcos = t[RK_RG_DCOS],
                                  .dsin = t[RK_RG_DSIN],
                                  .mode = mode,
                                  .slice = slice};
}

RK_OP_FUNCTIONS(rk_rg);

/* ---- Between the operator's files ---- */

#define RK_RG_FAIL(rule_id, ...) RK_OP_FAIL(&rk_op_rotary_grad, rule_id, __VA_ARGS__)

/* Validates (every step of the policy's order) and fills the dx plan's checked slice. */
ropekit_status rk_rg_validate(const struct rk_rg_problem *p, const struct rk_rg_policy *pol,
                              struct rk_pr_checked *chk, int *rule);

/* dcos and dsin (slots RK_RG_DCOS, RK_RG_DSIN) share no byte with any other bound tensor
 * (NULL data: not bound); the views' geometry by slot. */
ropekit_status rk_rg_check_cs_overlap(const char *api,
                                      const struct rk_view_geom geom[RK_RG_TENSORS],
                                      const void *const data[RK_RG_TENSORS], int *rule);

/* Plans the cos/sin gradient of a validated problem whose slice is [start, start + len). */
void rk_csg_plan_make(struct rk_csg_plan *cs, const struct rk_rg_problem *p, int64_t start,
                      int64_t len);

/* Scratch bytes a cos/sin task needs. */
int64_t rk_csg_scratch_bytes(const struct rk_csg_plan *cs);

/* Runs cos/sin task `task` on the data, with rk_csg_scratch_bytes of scratch. */
void rk_csg_run_task(const struct rk_csg_plan *cs, const char *x, const char *dy, char *dcos,
                     char *dsin, double *scratch, int64_t task);

#endif /* ROPEKIT_OPS_ROTARY_GRAD_ROTARY_GRAD_H_ */
