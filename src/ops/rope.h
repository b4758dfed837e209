/* RopeWithSinCosCache: validate -> plan -> run. One validator serves both faces; the
 * aclnn policy switches on CANN's restrictions (SPEC §5.5) and every failure names the
 * rule it broke, so the aclnn layer can map it to CANN's code. */
#ifndef ROPEKIT_OPS_ROPE_H_
#define ROPEKIT_OPS_ROPE_H_

#include <stdbool.h>
#include <stdint.h>

#include "kernels/rope_kernel.h"
#include "core/tensor_view.h"
#include "ops/rope_rules.h"
#include "ropekit/ropekit.h"

/* Validation rules (the table in rope_rules.h), in the order of SPEC §5.5. */
#define RK_ROPE_RULE_ENUM_(rule, status, code, fault, meaning) RK_ROPE_RULE_##rule,
enum rk_rope_rule { RK_ROPE_RULE_NONE = 0, RK_ROPE_RULES(RK_ROPE_RULE_ENUM_) RK_ROPE_RULE_COUNT };
#undef RK_ROPE_RULE_ENUM_

/* The native status of a failure of `rule`. */
ropekit_status rk_rope_rule_status(enum rk_rope_rule rule);

struct rk_rope_policy {
    const char *api;
    bool aclnn;      /* CANN's restrictions: 2-D, non-empty, whitelist, alignment */
    bool check_data; /* data pointers known now: check them and overlaps */
};

struct rk_rope_problem {
    const ropekit_tensor *positions;
    const ropekit_tensor *query_in, *key_in, *cache, *query_out, *key_out;
    const ropekit_tensor *offsets; /* native only; NULL: none */
    int64_t head_size;
    int style; /* enum rk_rope_style */
    const int64_t *sections;
    uint64_t num_sections; /* sections != NULL: number of values */
    int64_t cache_mode;
    const char *missing_arg; /* a NULL non-tensor argument the face requires (aclnn's
                                workspaceSize, executor), reported after the tensors */
};

struct rk_rope_side {
    bool present;
    bool same_layout; /* output layout == input layout */
    bool split;       /* [..., H, headSize] (else [..., H*headSize]) */
    bool stream;      /* out of place, outputs beyond the caches: write them past the caches */
    int64_t heads;    /* 0 when absent (the plan starts zeroed) */
    int64_t in_tok, in_head, in_col;    /* bytes */
    int64_t out_tok, out_head, out_col; /* bytes */
    int64_t in_run, out_run;            /* bytes between runs of tokens (see seq) */
};

/* The tensors: CANN's six in its argument order (struct rk_rope_data's, the aclnn
 * executor's slots), then the native face's offsets. */
enum {
    RK_ROPE_POS,
    RK_ROPE_Q_IN,
    RK_ROPE_K_IN,
    RK_ROPE_CACHE,
    RK_ROPE_Q_OUT,
    RK_ROPE_K_OUT,
    RK_ROPE_OFF,
    RK_ROPE_TENSORS
};

/* A token's place: positions' shape without the section row, [T] or [B, S]. */
#define RK_ROPE_MAX_TOKEN_DIMS 2

struct rk_rope_plan {
    /* What every task reads first, together: a plan made for one call is read by helper
     * threads straight after the caller wrote it, each cache line a transfer. */
    rk_rope_fn kernel;
    int64_t tokens, tokens_per_task, half, head_size;
    /* The worker walks the tokens as `runs` runs of `seq`: [B, S] is B runs of S unless
     * every tensor's batch stride is S times its sequence stride, then (as [T]) one run
     * of B * S. */
    int64_t seq, runs;
    int64_t pos_row, pos_col, pos_run;     /* bytes */
    bool offsets;                          /* a cache row is positions + offsets */
    int64_t off_col, off_run;              /* bytes */
    int64_t cache_row, cache_col, cs_size; /* bytes */
    ropekit_dtype cs_dtype;
    bool mrope;
    bool prefetch; /* operands large enough to stream from memory */
    int cache_mode;
    int nsec;
    struct rk_rope_side q, k;
    int64_t sections[ROPEKIT_ROPE_MAX_SECTIONS];
    /* Cache mode 3 (openPangu-VL), unless a no-op: the position row of each of the h
     * coefficients, owned by the plan (rk_rope_plan_release). NULL otherwise, always on
     * the aclnn face, which refuses that mode. */
    uint8_t *coeff_rows;
    /* The rest: checks, scheduling and descriptions. */
    bool noop;
    int style;
    ropekit_dtype x_dtype;
    int64_t rot_dim, max_pos;
    int tok_dims;                              /* 1: [T], 2: [B, S] */
    int64_t tok_shape[RK_ROPE_MAX_TOKEN_DIMS]; /* for messages and descriptions */
    int64_t tasks;
    int threads;
    ropekit_isa isa;
    const char *kernel_name; /* the kernel set, e.g. "avx512+bf16" */
    struct rk_view_geom geom[RK_ROPE_TENSORS];
};

ropekit_status rk_rope_plan_make(const struct rk_rope_problem *problem,
                                 const struct rk_rope_policy *policy, struct rk_rope_plan *plan,
                                 enum rk_rope_rule *rule);

/* The data one call binds to a plan, in the order of enum RK_ROPE_POS... One struct, so
 * the faces hand the pointers on in one register from the entry point to the worker. */
struct rk_rope_data {
    const int64_t *positions;
    const void *q_in, *k_in, *cache;
    void *q_out, *k_out;
    const int64_t *offsets; /* ignored by a plan made without offsets */
};

/* Data bound after the plan was made: pointers present, no overlaps (SPEC §5.5 row 16).
 * Phase 1 and a plan made with check_data have checked their data already. */
ropekit_status rk_rope_check_data(const struct rk_rope_plan *plan, const char *api,
                                  const struct rk_rope_data *data, enum rk_rope_rule *rule);

/* Checks data, then every position (nothing is written when one is out of range), then
 * runs. */
ropekit_status rk_rope_execute(const struct rk_rope_plan *plan, const char *api,
                               const struct rk_rope_data *data, enum rk_rope_rule *rule);

/* rk_rope_execute without the data checks, for data rk_rope_check_data has accepted;
 * the positions are still checked (their values are only known now). */
ropekit_status rk_rope_run(const struct rk_rope_plan *plan, const char *api,
                           const struct rk_rope_data *data, enum rk_rope_rule *rule);

/* Frees what a plan owns beyond itself (then it may be dropped). */
void rk_rope_plan_release(struct rk_rope_plan *plan);

size_t rk_rope_describe(const struct rk_rope_plan *plan, char *buf, size_t len);

#endif /* ROPEKIT_OPS_ROPE_H_ */
