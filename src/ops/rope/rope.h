/* RopeWithSinCosCache: validate -> plan -> run, behind the descriptor rk_op_rope. A face
 * states what it restricts in a policy (ranks, token dims, sections, cache modes,
 * alignment, dtypes); every failure names the rule it broke (rules.h, SPEC §5.5). */
#ifndef ROPEKIT_OPS_ROPE_ROPE_H_
#define ROPEKIT_OPS_ROPE_ROPE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "kernels/rope_kernel.h"
#include "ops/op.h"
#include "ops/rope/rules.h"
#include "ropekit/ropekit.h"

#define RK_ROPE_RULE_ENUM_(rule, status, meaning) RK_ROPE_RULE_##rule,
enum rk_rope_rule { RK_ROPE_RULE_NONE = 0, RK_ROPE_RULES(RK_ROPE_RULE_ENUM_) RK_ROPE_RULE_COUNT };
#undef RK_ROPE_RULE_ENUM_

/* A list of sections a policy takes: count, then up to four values (0 past count). */
struct rk_rope_sections {
    int count;
    int64_t s[4];
};

struct rk_rope_policy {
    int64_t last_cache_mode; /* cache modes 0 .. last (ropekit_rope_cache_mode) */
    bool pairs_optional;     /* the query pair or the key pair may be absent */
    bool empty_allowed;      /* false: no input may be empty (rule EMPTY) */
    int max_token_dims;      /* 1: [T]; 2: [T] or [B, S], from positions' rank */
    bool split_heads;        /* query/key may also be [token dims, H, headSize] */
    bool cache_dtype_free;   /* the cache may be another float type than query/key */
    bool float64;            /* float64 query/key with a float64 cache */
    unsigned section_counts; /* bit n: n sections allowed; 0: 0 .. ROPEKIT_ROPE_MAX_SECTIONS */
    /* The only sections taken (NULL: any summing to rotaryDim / 2), and what the message
     * of refused ones says before and after the list. */
    const struct rk_rope_sections *section_lists;
    size_t section_list_count;
    const char *section_lists_lead, *section_lists_tail;
    /* headSize and rotaryDim must be multiples of these (0: no rule), and why. */
    int64_t align_f32, align_16bit;
    const char *align_note;
};

struct rk_rope_problem {
    const char *api; /* the entry point, for messages */
    const ropekit_tensor *positions;
    const ropekit_tensor *query_in, *key_in, *cache, *query_out, *key_out;
    const ropekit_tensor *offsets; /* native only; NULL: none */
    int64_t head_size;
    int style; /* enum rk_rope_style */
    const int64_t *sections;
    uint64_t num_sections; /* sections != NULL: number of values */
    int64_t cache_mode;
    const char *missing_arg; /* a NULL non-tensor argument the face requires, reported after
                                the tensors */
    bool check_data;         /* the tensors' data pointers are the call's: check them and the
                                overlaps now */
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

/* The tensor slots of struct rk_op_data: the operator's six in their IR order, then the
 * offsets. */
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
     * every face that does not take that mode. */
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

/* The descriptor's functions (op.h), on a struct rk_rope_problem, struct rk_rope_policy
 * and struct rk_rope_plan. make validates once and plans; check_data checks data bound
 * after the plan was made (slots RK_ROPE_POS ...: pointers present, no overlaps, SPEC §5.5
 * row 16); run runs on accepted data, checking the positions (their values are only known
 * now) before anything is written; release frees what a plan owns beyond itself. */
RK_OP_FUNCTIONS(rk_rope);

/* rk_rope_check_data, then rk_rope_run, in one call. */
ropekit_status rk_rope_execute(const void *plan, const char *api, const struct rk_op_data *data,
                               int *rule);

/* ---- Between the operator's files ---- */

#define RK_ROPE_FAIL(rule_id, ...) RK_OP_FAIL(&rk_op_rope, rule_id, __VA_ARGS__)

/* What validation derives. */
struct rk_rope_checked {
    bool noop;
    bool mrope;
    int nsec;     /* position rows: 1 for rope */
    int tok_dims; /* 1: [T], 2: [B, S] */
    int64_t tokens;
    int64_t q_heads, k_heads;
    int64_t rot_dim, max_pos;
    bool present[RK_ROPE_TENSORS]; /* in the order of enum RK_ROPE_POS... */
    struct rk_view_geom *geom;     /* RK_ROPE_TENSORS zeroed entries (the plan's) that receive
                                      the views' geometry */
    bool same_layout[2];           /* queryOut, keyOut: the layout of their input */
};

ropekit_status rk_rope_validate(const struct rk_rope_problem *problem,
                                const struct rk_rope_policy *policy, struct rk_rope_checked *out,
                                int *rule);

/* Cache mode 3: fills rows[0, h) with openPangu-VL's greedy sequence for nsec (2 or 3)
 * sections summing to h (ropekit_rope_cache_mode). */
void rk_mrope_pangu_rows(const int64_t *sections, int nsec, int64_t h, uint8_t *rows);

/* The plan's per-coefficient rows for the cache modes that need them (coeff_rows). */
ropekit_status rk_rope_plan_coeff_rows(struct rk_rope_plan *plan, const char *api, int *rule);

#endif /* ROPEKIT_OPS_ROPE_ROPE_H_ */
