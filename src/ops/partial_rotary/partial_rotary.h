/* Partial rotary multiply (InplacePartialRotaryMul forward and gradient): validate ->
 * plan -> run, behind the descriptor rk_op_partial_rotary. A face states what it
 * restricts in a policy (modes, dtype pairs, ranks, bounds, the check order); a failure
 * names the rule it broke (rules.h). */
#ifndef ROPEKIT_OPS_PARTIAL_ROTARY_PARTIAL_ROTARY_H_
#define ROPEKIT_OPS_PARTIAL_ROTARY_PARTIAL_ROTARY_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "kernels/rot_kernel.h"
#include "ops/op.h"
#include "ops/partial_rotary/rules.h"
#include "ropekit/ropekit.h"

#define RK_PR_RULE_ENUM_(rule, status, meaning) RK_PR_RULE_##rule,
enum rk_pr_rule { RK_PR_RULE_NONE = 0, RK_PR_RULES(RK_PR_RULE_ENUM_) RK_PR_RULE_COUNT };
#undef RK_PR_RULE_ENUM_

/* The tensor slots of struct rk_op_data: out is written out of place (NULL data, or x's,
 * in place). */
enum { RK_PR_X, RK_PR_COS, RK_PR_SIN, RK_PR_OUT, RK_PR_TENSORS };

/* The checks, each one or more rules; a policy lists them in the order it reports
 * failures (rk_pr_default_order: SPEC §3.4's). X(step) */
#define RK_PR_STEPS(X)                                                                             \
    X(NULL)   /* NULL, LAYOUT, DATA_NULL */                                                        \
    X(DTYPE)  /* X_DTYPE, CS_DTYPE, DTYPE_PAIR, OUT_DTYPE */                                       \
    X(SHAPES) /* RANK, CS_SHAPE, OUT_SHAPE */                                                      \
    X(MODE)                                                                                        \
    X(SLICE)       /* SLICE_SIZE, SLICE_RANGE */                                                   \
    X(CS_LEN_LE_D) /* CS_LEN_EXCEEDS_D */                                                          \
    X(NOOP)        /* the no-op exit: every later step is skipped (or EMPTY_X) */                  \
    X(MAX_D)                                                                                       \
    X(D_VALUE)                                                                                     \
    X(D_EVEN)                                                                                      \
    X(L_MULTIPLE)                                                                                  \
    X(CS_LEN)                                                                                      \
    X(BROADCAST)                                                                                   \
    X(OVERLAP)

#define RK_PR_STEP_ENUM_(step) RK_PR_STEP_##step,
enum rk_pr_step { RK_PR_STEPS(RK_PR_STEP_ENUM_) RK_PR_STEP_COUNT };
#undef RK_PR_STEP_ENUM_

/* The operator's own order: every step but CS_LEN_LE_D (CS_LEN covers it) and D_VALUE. */
extern const enum rk_pr_step rk_pr_default_order[];
extern const size_t rk_pr_default_order_len;

struct rk_pr_policy {
    const char *x_name;    /* "x", "xRef", "dyRef" */
    const char *out_name;  /* NULL: "out" */
    const char *mode_name; /* "mode", "rotary_mode", "rotaryMode" */
    unsigned mode_mask;    /* bit m: ropekit_rotary_mode m allowed */
    /* The rule a refused mode's message states; NULL: the modes of mode_mask by name. */
    const char *mode_rule;
    unsigned pair_mask; /* RK_PR_PAIR(x_kdtype, cs_kdtype): dtype pair allowed */
    int64_t max_d;      /* 0: unbounded */
    int32_t rank;       /* 0: x of rank >= 1, cos of rank 1 .. rank(x); else all three this rank */
    bool require_d_even;
    /* Only an empty x (or an empty slice) is the no-op exit; an empty cos/sin is checked
     * like any (a face whose empty x is exempt from the shape rules). */
    bool noop_x_only;
    /* Rank 4: cos/sin may not broadcast over dim 0 alone (1 where x's is not, dims 1 and 2
     * x's and not 1). */
    bool no_lone_dim0_broadcast;
    /* Rank 4: what each cos/sin leading dim may be (RK_PR_LEAD_*); all zero: 1 or x's. */
    unsigned char cs_lead[3];
    /* An empty x is refused (EMPTY_X, at the NOOP step) instead of being the no-op exit. */
    bool refuse_empty_x;
    int64_t only_d;               /* D_VALUE: the one D taken; 0: any (a step the order lists) */
    const enum rk_pr_step *order; /* NULL: rk_pr_default_order */
    size_t order_len;
};

/* What a rank-4 policy lets a cos/sin leading dim be (struct rk_pr_policy.cs_lead). */
enum { RK_PR_LEAD_1_OR_X = 0, RK_PR_LEAD_X, RK_PR_LEAD_1 };

#define RK_PR_ALL_MODES 0xfu
/* The bit of the dtype pair (x, cos/sin), kernel table indices, in a pair mask. */
#define RK_PR_PAIR(x, c) (1u << ((x)*RK_KDT_COUNT + (c)))
#define RK_PR_PAIRS_WITH_(x)                                                                       \
    (RK_PR_PAIR(x, RK_KDT_F32) | RK_PR_PAIR(x, RK_KDT_F16) | RK_PR_PAIR(x, RK_KDT_BF16))
/* All nine pairs of f32, f16 and bf16 (SPEC §8, §4.3). */
#define RK_PR_F32_F16_BF16_PAIRS                                                                   \
    (RK_PR_PAIRS_WITH_(RK_KDT_F32) | RK_PR_PAIRS_WITH_(RK_KDT_F16) | RK_PR_PAIRS_WITH_(RK_KDT_BF16))
/* float64 goes with float64 only (native face). */
#define RK_PR_F64_PAIR RK_PR_PAIR(RK_KDT_F64, RK_KDT_F64)

struct rk_pr_problem {
    const char *api; /* the entry point, for messages */
    const ropekit_tensor *x;
    const ropekit_tensor *cos;
    const ropekit_tensor *sin;
    const ropekit_tensor *out; /* out of place: x's shape and dtype (any strides); see with_out */
    bool with_out;             /* the call has an out argument: out = NULL is refused */
    int64_t mode;
    int direction;           /* ropekit_direction */
    const int64_t *slice;    /* NULL: not given (means [0, 0]) */
    uint64_t slice_len;      /* 0 also means [0, 0] */
    bool whole_row;          /* no slice argument: the slice is [0, D) */
    const char *missing_arg; /* a NULL non-tensor argument the face requires, reported after
                                the tensors */
    bool check_data;         /* the tensors' data pointers are the call's: check them and the
                                overlaps now */
};

#define RK_PR_MAX_LEAD (ROPEKIT_MAX_DIMS - 1)

/* Everything execution needs, decided once. Plain data: copyable, owns nothing. */
/* What the overlap checks of bound data need to know of the views. */
struct rk_pr_plan_views {
    bool apart;     /* made with an out view: the run writes out (x itself when out is x) */
    bool rotate;    /* false: out of place with nothing to rotate, x is copied to out */
    bool same_view; /* out's strides are x's where x's dims are not 1: out may be x */
};

struct rk_pr_plan {
    bool noop; /* nothing to write */
    struct rk_pr_plan_views views;
    int mode;
    int direction;
    ropekit_dtype x_dtype;
    ropekit_dtype cs_dtype;
    int64_t len;
    int64_t d, start; /* x's last dim and the slice start, for out's pass-through copy */
    int64_t x_offset; /* bytes from x data to element `start` of row 0 */
    int64_t y_offset; /* likewise for out (x's in place) */
    int nlead;        /* collapsed leading dims; the last one is the kernel's row run */
    int64_t extent[RK_PR_MAX_LEAD];
    int64_t x_step[RK_PR_MAX_LEAD], y_step[RK_PR_MAX_LEAD]; /* bytes; y: out (x in place) */
    int64_t c_step[RK_PR_MAX_LEAD], s_step[RK_PR_MAX_LEAD];
    int64_t x_col, y_col, c_col, s_col; /* bytes */
    int64_t rows;
    int64_t rows_per_task;
    int64_t scratch_bytes; /* a task's scratch: one row for interleave-half, else 0 */
    int64_t tasks;
    int threads;
    bool prefetch; /* x large enough to stream from memory */
    /* Out of place, dense out rows, out larger than the caches: rows are computed into an
     * L1 scratch and streamed out (kernels/stream_store.h). */
    bool stream;
    rk_rot_fn kernel;
    ropekit_isa isa;
    const char *kernel_name;     /* the kernel set, e.g. "avx512+bf16" */
    const char *x_name;          /* the policy's name of x, for messages */
    const char *out_name;        /* and of out */
    struct rk_view_geom geom[4]; /* x, cos, sin, out: for overlap checks of bound data */
    struct rk_shape x_shape, cs_shape;
};

/* The descriptor's functions (op.h), on a struct rk_pr_problem, struct rk_pr_policy and
 * struct rk_pr_plan: make validates once and plans; check_data checks data bound after the
 * plan was made (pointers present, x not overlapping cos/sin); run runs on accepted data. */
RK_OP_FUNCTIONS(rk_pr);

/* ---- Between check.c and plan.c ---- */

#define RK_PR_FAIL(rule_id, ...) RK_OP_FAIL(&rk_op_partial_rotary, rule_id, __VA_ARGS__)

/* What validation derives: the slice and whether the call is a no-op. */
struct rk_pr_checked {
    int64_t start;
    int64_t len;
    bool noop;
    bool copy; /* noop, but out of place with a non-empty x: x is copied to out */
    struct rk_pr_plan_views views;
    const char *out_name;      /* the policy's name of out (NULL: "out") */
    struct rk_view_geom *geom; /* 4 entries (the plan's): x, cos, sin, out (x's in place),
                                  written when not noop */
};

/* Plans a problem whose rules were checked (by rk_pr_validate, or by an operator that
 * rotates whole rows of x with this operator's rows, such as apply_rotary): chk gives the
 * slice, the no-op flag and the views' geometry, already in pl->geom. `x_name` names x in
 * messages. Fills every field of the plan (zeroed by the caller). */
ropekit_status rk_pr_plan_checked(struct rk_pr_plan *pl, const struct rk_pr_problem *p,
                                  const char *x_name, const struct rk_pr_checked *chk, int *rule);

/* "0 (half), 1 (interleave), 2 (quarter) or 3 (interleave-half)": the modes of a mask. */
const char *rk_pr_mode_list(unsigned mask, char *buf, size_t len);

/* Interleave-half rows whose scratch fits this many bytes use a stack scratch. */
#define RK_PR_STACK_SCRATCH 16384
/* Streamed rows (struct rk_pr_plan.stream) are computed this many bytes at a time. */
#define RK_PR_STREAM_SCRATCH 8192
/* A task moves at least this many bytes, so small calls stay on one thread. */
#define RK_PR_MIN_TASK_BYTES (64 * 1024)

/* The data of one run of a plan's tasks. */
struct rk_pr_run {
    const struct rk_pr_plan *plan;
    const char *x;
    char *y; /* out, or x in place */
    const char *cos;
    const char *sin;
    char *heap_scratch; /* tasks * scratch_bytes, for long interleave-half rows */
};

/* Runs task `task` (of pl->tasks, each pl->rows_per_task rows) of plan `pl` on `run`'s data;
 * an operator that runs several such plans in one thread split calls it per task. */
void rk_pr_run_task(const struct rk_pr_plan *pl, const struct rk_pr_run *run, int64_t task);

ropekit_status rk_pr_validate(const struct rk_pr_problem *problem,
                              const struct rk_pr_policy *policy, struct rk_pr_checked *out,
                              int *rule);

#endif /* ROPEKIT_OPS_PARTIAL_ROTARY_PARTIAL_ROTARY_H_ */
