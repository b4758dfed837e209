/* Partial rotary multiply (InplacePartialRotaryMul forward and gradient):
 * validate -> plan -> run. Both faces call this one validator; a policy switches
 * the aclnn face's extra restrictions on, and a failure names the rule it broke so
 * the aclnn layer can map it to CANN's code (SPEC §3.4, §4.3). */
#ifndef ROPEKIT_OPS_PARTIAL_ROTARY_H_
#define ROPEKIT_OPS_PARTIAL_ROTARY_H_

#include <stdbool.h>
#include <stdint.h>

#include "kernels/rot_kernel.h"
#include "core/tensor_view.h"
#include "ops/partial_rotary_rules.h"
#include "ropekit/ropekit.h"

/* Validation rules (the table in partial_rotary_rules.h). */
#define RK_PR_RULE_ENUM_(rule, status, forward_code, gradient_code, fault, meaning)                \
    RK_PR_RULE_##rule,
enum rk_pr_rule { RK_PR_RULE_NONE = 0, RK_PR_RULES(RK_PR_RULE_ENUM_) RK_PR_RULE_COUNT };
#undef RK_PR_RULE_ENUM_

/* The native status of a failure of `rule`. */
ropekit_status rk_pr_rule_status(enum rk_pr_rule rule);

struct rk_pr_policy {
    const char *api;       /* function name for messages */
    const char *x_name;    /* "x", "xRef", "dyRef" */
    const char *mode_name; /* "mode", "rotary_mode", "rotaryMode" */
    unsigned mode_mask;    /* bit m: ropekit_rotary_mode m allowed */
    unsigned pair_mask;    /* RK_PR_PAIR(x_kdtype, cs_kdtype): dtype pair allowed */
    int64_t max_d;         /* 0: unbounded */
    bool require_rank4;    /* x, cos, sin all 4-D (else: 1 <= rank(cos) <= rank(x)) */
    bool require_d_even;
    bool gradient_order; /* SPEC §4.3's check order (else §3.4's) */
    bool check_data;     /* data pointers are known now: check them and aliasing */
};

#define RK_PR_ALL_MODES 0xfu
/* The bit of the dtype pair (x, cos/sin), kernel table indices, in a pair mask. */
#define RK_PR_PAIR(x, c) (1u << ((x)*RK_KDT_COUNT + (c)))
#define RK_PR_PAIRS_WITH_(x)                                                                       \
    (RK_PR_PAIR(x, RK_KDT_F32) | RK_PR_PAIR(x, RK_KDT_F16) | RK_PR_PAIR(x, RK_KDT_BF16))
/* All nine pairs of f32, f16 and bf16 (SPEC §8; the gradient's aclnn face, §4.3). */
#define RK_PR_F32_F16_BF16_PAIRS                                                                   \
    (RK_PR_PAIRS_WITH_(RK_KDT_F32) | RK_PR_PAIRS_WITH_(RK_KDT_F16) | RK_PR_PAIRS_WITH_(RK_KDT_BF16))
/* float64 goes with float64 only (native face). */
#define RK_PR_F64_PAIR RK_PR_PAIR(RK_KDT_F64, RK_KDT_F64)

struct rk_pr_problem {
    const ropekit_tensor *x;
    const ropekit_tensor *cos;
    const ropekit_tensor *sin;
    int64_t mode;
    int direction;           /* ropekit_direction */
    const int64_t *slice;    /* NULL: not given (means [0, 0]) */
    uint64_t slice_len;      /* 0 also means [0, 0] */
    const char *missing_arg; /* a NULL non-tensor argument the face requires (aclnn's
                                workspaceSize, executor), reported after the tensors */
};

#define RK_PR_MAX_LEAD (ROPEKIT_MAX_DIMS - 1)

/* Everything execution needs, decided once. Plain data: copyable, no pointers it
 * does not own except the static kernel. */
struct rk_pr_plan {
    bool noop;
    int mode;
    int direction;
    ropekit_dtype x_dtype;
    ropekit_dtype cs_dtype;
    int64_t len;
    int64_t x_offset; /* bytes from x data to element `start` of row 0 */
    int nlead;        /* collapsed leading dims; the last one is the kernel's row run */
    int64_t extent[RK_PR_MAX_LEAD];
    int64_t x_step[RK_PR_MAX_LEAD], c_step[RK_PR_MAX_LEAD], s_step[RK_PR_MAX_LEAD]; /* bytes */
    int64_t x_col, c_col, s_col;                                                    /* bytes */
    int64_t rows;
    int64_t rows_per_task;
    int64_t scratch_bytes; /* a task's scratch: one row for interleave-half, else 0 */
    int64_t tasks;
    int threads;
    bool prefetch; /* x large enough to stream from memory */
    rk_rot_fn kernel;
    ropekit_isa isa;
    const char *kernel_name;     /* the kernel set, e.g. "avx512+bf16" */
    const char *x_name;          /* the policy's name of x, for messages */
    struct rk_view_geom geom[3]; /* x, cos, sin: for overlap checks of bound data */
    struct rk_shape x_shape, cs_shape;
};

ropekit_status rk_pr_plan_make(const struct rk_pr_problem *problem,
                               const struct rk_pr_policy *policy, struct rk_pr_plan *plan,
                               enum rk_pr_rule *rule);

/* The data checks execution makes (non-NULL data, x not overlapping cos/sin). */
ropekit_status rk_pr_check_data(const struct rk_pr_plan *plan, const char *api, const void *x,
                                const void *cos, const void *sin, enum rk_pr_rule *rule);

/* Checks data pointers and aliasing, then runs. `api` names the caller in messages.
 * On failure nothing is written. */
ropekit_status rk_pr_execute(const struct rk_pr_plan *plan, const char *api, void *x,
                             const void *cos, const void *sin, enum rk_pr_rule *rule);

/* rk_pr_execute without the data checks, for data rk_pr_check_data (or phase 1) has
 * already accepted. */
ropekit_status rk_pr_run(const struct rk_pr_plan *plan, const char *api, void *x, const void *cos,
                         const void *sin, enum rk_pr_rule *rule);

size_t rk_pr_describe(const struct rk_pr_plan *plan, char *buf, size_t len);

#endif /* ROPEKIT_OPS_PARTIAL_ROTARY_H_ */
