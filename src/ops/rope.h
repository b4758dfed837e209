/* RopeWithSinCosCache: validate -> plan -> run. One validator serves both faces; the
 * aclnn policy switches on CANN's restrictions (SPEC §5.5) and every failure names the
 * rule it broke, so the aclnn layer can map it to CANN's code. */
#ifndef ROPEKIT_OPS_ROPE_H_
#define ROPEKIT_OPS_ROPE_H_

#include <stdbool.h>
#include <stdint.h>

#include "kernels/rope_kernel.h"
#include "core/tensor_view.h"
#include "ropekit/ropekit.h"

/* Validation rules in the order of SPEC §5.5. */
enum rk_rope_rule {
    RK_ROPE_RULE_NONE = 0,
    RK_ROPE_RULE_CACHE_MODE,     /* cache mode not 0/1 (V2 checks it before nulls) */
    RK_ROPE_RULE_NULL,           /* a required tensor is NULL */
    RK_ROPE_RULE_LAYOUT,         /* bad rank, negative dim, size overflow */
    RK_ROPE_RULE_DATA_NULL,      /* a non-empty tensor has no data */
    RK_ROPE_RULE_POS_DTYPE,      /* positions not int64 */
    RK_ROPE_RULE_DTYPE,          /* query/key/cache/output dtypes */
    RK_ROPE_RULE_RANK,           /* query/key/cache ranks */
    RK_ROPE_RULE_EMPTY,          /* an input is empty (aclnn) */
    RK_ROPE_RULE_TOKENS,         /* key tokens != query tokens */
    RK_ROPE_RULE_OUT_SHAPE,      /* output shape != input shape */
    RK_ROPE_RULE_SECTIONS,       /* section count or a negative section */
    RK_ROPE_RULE_SECTION_VALUES, /* 2 * sum != rotary_dim, or not whitelisted (aclnn) */
    RK_ROPE_RULE_HEAD_SIZE,      /* head size < 1 */
    RK_ROPE_RULE_MODE_SECTIONS,  /* cache mode 1 needs exactly 3 sections */
    RK_ROPE_RULE_HEADS,          /* hidden size not a multiple of head size */
    RK_ROPE_RULE_ALIGN,          /* head size / rotary dim alignment (aclnn) */
    RK_ROPE_RULE_ROT_DIM,        /* rotary dim odd, zero, or above head size */
    RK_ROPE_RULE_POS_SHAPE,      /* positions shape != [T] / [m, T] */
    RK_ROPE_RULE_OVERLAP,        /* an output overlaps itself or another tensor */
    RK_ROPE_RULE_POS_RANGE,      /* a position outside [0, max_positions) (execution) */
    RK_ROPE_RULE_NO_MEMORY
};

struct rk_rope_policy {
    const char *api;
    bool aclnn;      /* CANN's restrictions: 2-D, non-empty, whitelist, alignment */
    bool check_data; /* data pointers known now: check them and overlaps */
};

struct rk_rope_problem {
    const ropekit_tensor *positions;
    const ropekit_tensor *query_in, *key_in, *cache, *query_out, *key_out;
    int64_t head_size;
    int style; /* enum rk_rope_style */
    const int64_t *sections;
    uint64_t num_sections; /* sections != NULL: number of values */
    int64_t cache_mode;
};

/* Where one tensor's bytes lie, for overlap checks with real addresses. */
struct rk_view_geom {
    int64_t span_lo, span_hi; /* bytes relative to data */
    bool rows_dense;          /* each of `rows` rows is `row_bytes` contiguous bytes */
    int64_t rows, row_stride, row_bytes;
};

struct rk_rope_side {
    bool present;
    bool same_layout; /* output layout == input layout */
    bool stream;      /* out of place, outputs beyond the caches: write them past the caches */
    int64_t heads;
    int64_t in_tok, in_head, in_col;    /* bytes */
    int64_t out_tok, out_head, out_col; /* bytes */
};

/* The tensors in the order of rk_rope_check_data's arguments. */
enum { RK_ROPE_POS, RK_ROPE_Q_IN, RK_ROPE_K_IN, RK_ROPE_CACHE, RK_ROPE_Q_OUT, RK_ROPE_K_OUT };

struct rk_rope_plan {
    /* What every task reads first, together: a plan made for one call is read by helper
     * threads straight after the caller wrote it, each cache line a transfer. */
    rk_rope_fn kernel;
    int64_t tokens, tokens_per_task, half, head_size;
    int64_t pos_row, pos_col;     /* bytes */
    int64_t cache_row, cache_col; /* bytes */
    ropekit_dtype cs_dtype;
    bool mrope;
    bool prefetch; /* operands large enough to stream from memory */
    int cache_mode;
    int nsec;
    struct rk_rope_side q, k;
    int64_t sections[ROPEKIT_ROPE_MAX_SECTIONS];
    /* The rest: checks, scheduling and descriptions. */
    bool noop;
    int style;
    ropekit_dtype x_dtype;
    int64_t rot_dim, max_pos;
    int64_t tasks;
    int threads;
    ropekit_isa isa;
    const char *kernel_name; /* the kernel set, e.g. "avx512+bf16" */
    struct rk_view_geom geom[6];
    struct rk_shape q_shape, k_shape, cache_shape;
};

ropekit_status rk_rope_plan_make(const struct rk_rope_problem *problem,
                                 const struct rk_rope_policy *policy, struct rk_rope_plan *plan,
                                 enum rk_rope_rule *rule);

/* Data pointers, overlaps (SPEC §5.5 row 16). */
ropekit_status rk_rope_check_data(const struct rk_rope_plan *plan, const char *api,
                                  const int64_t *positions, const void *q_in, const void *k_in,
                                  const void *cache, const void *q_out, const void *k_out,
                                  enum rk_rope_rule *rule);

/* Checks data, then every position (nothing is written when one is out of range), then
 * runs. */
ropekit_status rk_rope_execute(const struct rk_rope_plan *plan, const char *api,
                               const int64_t *positions, const void *q_in, const void *k_in,
                               const void *cache, void *q_out, void *k_out,
                               enum rk_rope_rule *rule);

/* rk_rope_execute without the data checks, for data rk_rope_check_data has accepted;
 * the positions are still checked (their values are only known now). */
ropekit_status rk_rope_run(const struct rk_rope_plan *plan, const char *api,
                           const int64_t *positions, const void *q_in, const void *k_in,
                           const void *cache, void *q_out, void *k_out, enum rk_rope_rule *rule);

size_t rk_rope_describe(const struct rk_rope_plan *plan, char *buf, size_t len);

#endif /* ROPEKIT_OPS_ROPE_H_ */
