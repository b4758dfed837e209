/* RopeWithSinCosCache: plan (the CPU "tiling") and run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "core/tensor_view.h"
#include "kernels/dispatch.h"
#include "kernels/prefetch.h"
#include "kernels/stream_store.h"
#include "ops/check_count.h"
#include "ops/rope/rope.h"

/* Gathered mrope coefficients of up to this many bytes live on the task's stack. */
#define RK_ROPE_STACK_SCRATCH 16384
#define RK_ROPE_MIN_TASK_BYTES (64 * 1024)
/* Heads written past the caches are computed into this much L1 scratch first. */
#define RK_ROPE_STREAM_SCRATCH 16384

/* a + b and a * b for sizes that only steer heuristics (task split, prefetch, streaming):
 * INT64_MAX when two valid views together exceed int64. */
static int64_t rk_sat_add(int64_t a, int64_t b) {
    int64_t r;
    return rk_add_i64(a, b, &r) ? r : INT64_MAX;
}
static int64_t rk_sat_mul(int64_t a, int64_t b) {
    int64_t r;
    return rk_mul_i64(a, b, &r) ? r : INT64_MAX;
}

/* Bytes between neighbours along dim i. A dim of one element, or any dim of an empty
 * view, never moves the address and its stride is not checked (rk_tensor_check_layout),
 * so its step is 0 rather than a product that may overflow. */
static int64_t rk_step_bytes(const ropekit_tensor *t, int32_t i, int64_t item) {
    return t->shape[i] > 1 && rk_tensor_numel(t) > 0 ? t->strides[i] * item : 0;
}

/* The byte steps of a token's two dims: `run` along B (0 for [T]), `tok` along S or T. */
struct rk_tok_steps {
    int64_t run, tok;
};

static struct rk_tok_steps rk_tok_steps_of(const ropekit_tensor *t, int32_t first, int tok_dims,
                                           int64_t item) {
    struct rk_tok_steps st = {0, rk_step_bytes(t, first + tok_dims - 1, item)};
    if (tok_dims == 2)
        st.run = rk_step_bytes(t, first, item);
    return st;
}

static void rk_rope_side_make(struct rk_rope_side *side, const ropekit_tensor *in,
                              const ropekit_tensor *out, int64_t heads, int64_t hs, int tok_dims,
                              bool same_layout) {
    if (!in)
        return;
    const int64_t xs = (int64_t)ropekit_dtype_size(in->dtype);
    const struct rk_tok_steps is = rk_tok_steps_of(in, 0, tok_dims, xs);
    const struct rk_tok_steps os = rk_tok_steps_of(out, 0, tok_dims, xs);
    side->present = true;
    side->same_layout = same_layout;
    side->split = in->ndim == tok_dims + 2;
    side->heads = heads;
    side->in_tok = is.tok;
    side->out_tok = os.tok;
    side->in_run = is.run;
    side->out_run = os.run;
    side->in_col = rk_step_bytes(in, in->ndim - 1, xs);
    side->out_col = rk_step_bytes(out, out->ndim - 1, xs);
    /* [..., H*hs]: a second head lies hs columns on, within the checked span */
    side->in_head = side->split ? rk_step_bytes(in, tok_dims, xs)
                    : heads > 1 ? hs * side->in_col
                                : 0;
    side->out_head = side->split ? rk_step_bytes(out, tok_dims, xs)
                     : heads > 1 ? hs * side->out_col
                                 : 0;
}

/* Whether B runs of S tokens `run` bytes apart are one run of B * S tokens `tok` apart;
 * then *tok is that stride. */
static bool rk_runs_merge(int64_t b, int64_t s, int64_t run, int64_t *tok) {
    int64_t whole;
    if (b == 1)
        return true;
    if (s == 1) {
        *tok = run;
        return true;
    }
    return rk_mul_i64(s, *tok, &whole) && whole == run;
}

/* [B, S] plans as [T] when every tensor's runs merge (the hot path stays the one of
 * [T]); otherwise the worker walks B runs of S tokens. */
static void rk_rope_plan_runs(struct rk_rope_plan *pl) {
    const int64_t b = pl->tok_shape[0], s = pl->tok_shape[1];
    pl->seq = pl->tokens;
    if (pl->tok_dims == 1)
        return;
    int64_t tok[6] = {pl->q.in_tok,  pl->q.out_tok, pl->k.in_tok,
                      pl->k.out_tok, pl->pos_col,   pl->off_col};
    const int64_t run[6] = {pl->q.in_run,  pl->q.out_run, pl->k.in_run,
                            pl->k.out_run, pl->pos_run,   pl->off_run};
    bool merge = true;
    for (int i = 0; i < 6; i++)
        merge = rk_runs_merge(b, s, run[i], &tok[i]) && merge;
    if (!merge) {
        pl->seq = s;
        return;
    }
    pl->q.in_tok = tok[0];
    pl->q.out_tok = tok[1];
    pl->k.in_tok = tok[2];
    pl->k.out_tok = tok[3];
    pl->pos_col = tok[4];
    pl->off_col = tok[5];
    pl->q.in_run = pl->q.out_run = pl->k.in_run = pl->k.out_run = 0;
    pl->pos_run = pl->off_run = 0;
}

/* The plan of a validated problem (the views' geometry is in the plan already). */
static ropekit_status rk_rope_plan(struct rk_rope_plan *pl, const struct rk_rope_problem *p,
                                   const struct rk_rope_checked *chk, int *rule) {
    const ropekit_tensor *x = p->query_in ? p->query_in : p->key_in;
    const ropekit_tensor *cache = p->cache, *pos = p->positions;
    pl->noop = chk->noop;
    pl->mrope = chk->mrope;
    pl->style = p->style;
    pl->cache_mode = (int)p->cache_mode;
    pl->nsec = chk->nsec;
    for (int i = 0; chk->mrope && i < chk->nsec; i++)
        pl->sections[i] = p->sections[i];
    pl->x_dtype = x->dtype;
    pl->cs_dtype = cache->dtype;
    pl->tokens = chk->tokens;
    pl->head_size = p->head_size;
    pl->rot_dim = chk->rot_dim;
    pl->half = chk->rot_dim / 2;
    pl->max_pos = chk->max_pos;
    pl->tok_dims = chk->tok_dims;
    for (int d = 0; d < chk->tok_dims; d++)
        pl->tok_shape[d] = x->shape[d];
    rk_rope_side_make(&pl->q, p->query_in, p->query_out, chk->q_heads, p->head_size, chk->tok_dims,
                      chk->same_layout[0]);
    rk_rope_side_make(&pl->k, p->key_in, p->key_out, chk->k_heads, p->head_size, chk->tok_dims,
                      chk->same_layout[1]);
    const int32_t pos_lead = chk->mrope ? 1 : 0;
    const struct rk_tok_steps ps = rk_tok_steps_of(pos, pos_lead, chk->tok_dims, 8);
    pl->pos_col = ps.tok;
    pl->pos_run = ps.run;
    pl->pos_row = chk->mrope ? rk_step_bytes(pos, 0, 8) : 0;
    if (p->offsets) {
        const struct rk_tok_steps os = rk_tok_steps_of(p->offsets, 0, chk->tok_dims, 8);
        pl->offsets = true;
        pl->off_col = os.tok;
        pl->off_run = os.run;
    }
    rk_rope_plan_runs(pl);
    pl->runs = pl->seq ? pl->tokens / pl->seq : 0;
    const int64_t cs = (int64_t)ropekit_dtype_size(cache->dtype);
    pl->cache_row = rk_step_bytes(cache, 0, cs);
    pl->cache_col = rk_step_bytes(cache, 1, cs);
    pl->cs_size = cs;

    if (pl->noop)
        return ROPEKIT_OK;
    const int64_t xs = (int64_t)ropekit_dtype_size(x->dtype);
    bool unit =
        (!pl->q.present || pl->q.heads == 0 || (pl->q.in_col == xs && pl->q.out_col == xs)) &&
        (!pl->k.present || pl->k.heads == 0 || (pl->k.in_col == xs && pl->k.out_col == xs)) &&
        (pl->mrope || pl->cache_col == cs);
    struct rk_rope_kernel k = rk_rope_kernel_pick(pl->style, x->dtype, cache->dtype, unit);
    if (!k.fn) {
        *rule = RK_ROPE_RULE_DTYPE;
        return rk_error_set(ROPEKIT_INTERNAL, "%s: no rope kernel", p->api);
    }
    pl->kernel = k.fn;
    pl->isa = k.set->isa;
    pl->kernel_name = k.set->name;
    int64_t per_token = rk_sat_add(
        rk_sat_mul(rk_sat_mul(rk_sat_add(pl->q.heads, pl->k.heads), pl->head_size), xs * 2),
        pl->rot_dim * cs);
    struct rk_split split = rk_split_work(pl->tokens, per_token, RK_ROPE_MIN_TASK_BYTES);
    pl->tasks = split.tasks;
    pl->tokens_per_task = split.items_per_task;
    pl->threads = split.threads;
    const struct rk_view_geom *qg = &pl->geom[RK_ROPE_Q_IN], *kg = &pl->geom[RK_ROPE_K_IN];
    const int64_t footprint = rk_sat_add(qg->span_hi - qg->span_lo, kg->span_hi - kg->span_lo);
    pl->prefetch = rk_prefetch_wanted(footprint);
    const struct rk_view_geom *qo = &pl->geom[RK_ROPE_Q_OUT], *ko = &pl->geom[RK_ROPE_K_OUT];
    if (rk_stream_wanted(rk_sat_add(qo->span_hi - qo->span_lo, ko->span_hi - ko->span_lo))) {
        const bool fits = pl->head_size * xs <= RK_ROPE_STREAM_SCRATCH;
        pl->q.stream = pl->q.present && pl->q.out_col == xs && fits;
        pl->k.stream = pl->k.present && pl->k.out_col == xs && fits;
    }
    return rk_rope_plan_coeff_rows(pl, p->api, rule);
}

ropekit_status rk_rope_make(const void *problem, const void *policy, void *plan, int *rule) {
    struct rk_rope_plan *pl = memset(plan, 0, sizeof(struct rk_rope_plan));
    struct rk_rope_checked chk = {.geom = pl->geom};
    ropekit_status st = rk_rope_validate(problem, policy, &chk, rule);
    return st != ROPEKIT_OK ? st : rk_rope_plan(pl, problem, &chk, rule);
}

#if defined(__GNUC__)
#define RK_ROPE_INLINE static inline __attribute__((always_inline))
#define RK_ROPE_COLD __attribute__((cold, noinline))
#else
#define RK_ROPE_INLINE static inline
#define RK_ROPE_COLD
#endif

static int64_t rk_load_i64(const void *p) {
    int64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* t counts the tokens of one run (all of them when the plan has one run). */
static int64_t rk_position(const struct rk_rope_plan *pl, const int64_t *positions, int row,
                           int64_t t) {
    return rk_load_i64((const char *)positions + row * pl->pos_row + t * pl->pos_col);
}

/* The bound data as the worker reads it (struct rk_op_data's slots, typed). */
struct rk_rope_data {
    const int64_t *positions;
    const void *q_in, *k_in, *cache;
    void *q_out, *k_out;
    const int64_t *offsets; /* NULL unless the plan has offsets */
};

struct rk_rope_run {
    const struct rk_rope_plan *pl;
    struct rk_rope_data d;   /* offsets NULL unless the plan has offsets */
    bool stream_q, stream_k; /* the plan's choice, out of place only */
    char *heap_scratch;      /* tasks * 2h coefficients when the stack is too small */
};

static void rk_rope_heads(const struct rk_rope_plan *pl, const struct rk_rope_side *side,
                          const char *in, char *out, int64_t t, struct rk_rope_rows *args) {
    args->in = in + t * side->in_tok;
    args->out = out + t * side->out_tok;
    args->heads = side->heads;
    args->in_head = side->in_head;
    args->out_head = side->out_head;
    args->in_col = side->in_col;
    args->out_col = side->out_col;
    pl->kernel(args);
}

/* The same through an L1 scratch whose heads are then streamed out (stream_store.h). */
static void rk_rope_heads_streamed(const struct rk_rope_plan *pl, const struct rk_rope_side *side,
                                   const char *in, char *out, int64_t t,
                                   struct rk_rope_rows *args) {
    _Alignas(64) char scratch[RK_ROPE_STREAM_SCRATCH];
    const int64_t head_bytes = pl->head_size * side->out_col;
    const int64_t per_pass = RK_ROPE_STREAM_SCRATCH / head_bytes;
    args->in_head = side->in_head;
    args->in_col = side->in_col;
    args->out = scratch;
    args->out_head = head_bytes;
    args->out_col = side->out_col;
    for (int64_t h0 = 0; h0 < side->heads; h0 += per_pass) {
        const int64_t n = side->heads - h0 < per_pass ? side->heads - h0 : per_pass;
        args->in = in + t * side->in_tok + h0 * side->in_head;
        args->heads = n;
        pl->kernel(args);
        for (int64_t i = 0; i < n; i++)
            rk_stream_copy(out + t * side->out_tok + (h0 + i) * side->out_head,
                           scratch + i * head_bytes, (size_t)head_bytes);
    }
}

/* Copies n coefficients (cs bytes each, `col` bytes apart) to a packed array. Inlined:
 * mrope gathers two runs per section and token, and since the 8-byte case GCC would
 * call it. */
RK_ROPE_INLINE void rk_copy_coeffs(char *dst, const char *src, int64_t n, int64_t cs, int64_t col) {
    if (col == cs) {
        memcpy(dst, src, (size_t)(n * cs));
    } else if (cs == 4) {
        for (int64_t i = 0; i < n; i++)
            memcpy(dst + 4 * i, src + i * col, 4);
    } else if (cs == 2) {
        for (int64_t i = 0; i < n; i++)
            memcpy(dst + 2 * i, src + i * col, 2);
    } else {
        for (int64_t i = 0; i < n; i++)
            memcpy(dst + cs * i, src + i * col, (size_t)cs);
    }
}

/* The cache row of position row `row` of token t: positions (+ offsets), checked to lie
 * in [0, max_positions) before the work started. */
RK_ROPE_INLINE const char *rk_cache_row(const struct rk_rope_plan *pl,
                                        const struct rk_rope_run *run, int row, int64_t t,
                                        bool offsets) {
    int64_t p = rk_position(pl, run->d.positions, row, t);
    if (offsets)
        p += rk_load_i64((const char *)run->d.offsets + t * pl->off_col);
    return (const char *)run->d.cache + p * pl->cache_row;
}

/* Coefficient j of packed gc and gs from cache row `row`. */
RK_ROPE_INLINE void rk_gather_one(const struct rk_rope_plan *pl, const char *row, int64_t j,
                                  char *gc, char *gs) {
    const int64_t cs = (int64_t)ropekit_dtype_size(pl->cs_dtype), col = pl->cache_col;
    rk_copy_coeffs(gc + j * cs, row + j * col, 1, cs, col);
    rk_copy_coeffs(gs + j * cs, row + (pl->half + j) * col, 1, cs, col);
}

/* ERNIE-4.5-VL: [h w h w ... t t t], rows (t, h, w). */
RK_ROPE_INLINE void rk_gather_ernie(const struct rk_rope_plan *pl, const char *const rows[],
                                    char *gc, char *gs) {
    const int64_t cs = (int64_t)ropekit_dtype_size(pl->cs_dtype), h = pl->half;
    const int64_t col = pl->cache_col, hw = 2 * pl->sections[0];
    for (int64_t j = 0; j < hw; j++)
        rk_gather_one(pl, rows[1 + (j & 1)], j, gc, gs);
    rk_copy_coeffs(gc + hw * cs, rows[0] + hw * col, h - hw, cs, col);
    rk_copy_coeffs(gs + hw * cs, rows[0] + (h + hw) * col, h - hw, cs, col);
}

/* mrope: gathers token t's h cos and h sin coefficients from the cache rows its
 * positions select (SPEC §5.3) into packed gc and gs. */
RK_ROPE_INLINE void rk_rope_gather(const struct rk_rope_plan *pl, const struct rk_rope_run *run,
                                   int64_t t, char *gc, char *gs, bool offsets) {
    const int64_t cs = (int64_t)ropekit_dtype_size(pl->cs_dtype), h = pl->half;
    const int64_t col = pl->cache_col;
    const char *rows[ROPEKIT_ROPE_MAX_SECTIONS];
    for (int k = 0; k < pl->nsec; k++)
        rows[k] = rk_cache_row(pl, run, k, t, offsets);
    if (pl->cache_mode == ROPEKIT_MROPE_SECTIONED) { /* section k feeds [S_k, S_k+1) from row k */
        int64_t j = 0;
        for (int k = 0; k < pl->nsec; k++) {
            int64_t n = pl->sections[k];
            rk_copy_coeffs(gc + j * cs, rows[k] + j * col, n, cs, col);
            rk_copy_coeffs(gs + j * cs, rows[k] + (h + j) * col, n, cs, col);
            j += n;
        }
        return;
    }
    if (pl->cache_mode == ROPEKIT_MROPE_ERNIE_VL) {
        rk_gather_ernie(pl, rows, gc, gs);
        return;
    }
    if (pl->coeff_rows) {
        for (int64_t j = 0; j < h; j++)
            rk_gather_one(pl, rows[pl->coeff_rows[j]], j, gc, gs);
        return;
    }
    /* interleaved: j % 3 == 1 (j / 3 < s1) from row 1, j % 3 == 2 (j / 3 < s2) from row 2 */
    int64_t r = 0, blk = 0;
    for (int64_t j = 0; j < h; j++) {
        int k = (r == 1 && blk < pl->sections[1]) ? 1 : (r == 2 && blk < pl->sections[2]) ? 2 : 0;
        rk_copy_coeffs(gc + j * cs, rows[k] + j * col, 1, cs, col);
        rk_copy_coeffs(gs + j * cs, rows[k] + (h + j) * col, 1, cs, col);
        if (++r == 3) {
            r = 0;
            blk++;
        }
    }
}

/* Token t's heads on both sides, with its coefficients in args. */
RK_ROPE_INLINE void rk_rope_token(const struct rk_rope_run *run, int64_t t,
                                  struct rk_rope_rows *args) {
    const struct rk_rope_plan *pl = run->pl;
    if (run->stream_q)
        rk_rope_heads_streamed(pl, &pl->q, run->d.q_in, run->d.q_out, t, args);
    else if (pl->q.heads > 0) /* an absent or empty side may have no data */
        rk_rope_heads(pl, &pl->q, run->d.q_in, run->d.q_out, t, args);
    if (run->stream_k)
        rk_rope_heads_streamed(pl, &pl->k, run->d.k_in, run->d.k_out, t, args);
    else if (pl->k.heads > 0)
        rk_rope_heads(pl, &pl->k, run->d.k_in, run->d.k_out, t, args);
}

/* Tokens [t0, t1) of one run; `run` holds that run's tensors. mrope gathers into
 * `scratch`, 2h coefficients. One loop per kind: in a shared one the gather's values
 * pushed the token counter of rope's loop out of registers. */
RK_ROPE_INLINE void rk_rope_tokens(const struct rk_rope_run *run, int64_t t0, int64_t t1,
                                   char *scratch, bool offsets) {
    const struct rk_rope_plan *pl = run->pl;
    const int64_t h = pl->half;
    struct rk_rope_rows args = {.half = h, .head_size = pl->head_size, .prefetch = pl->prefetch};
    if (pl->mrope) {
        args.cos = scratch;
        args.sin = scratch + h * pl->cs_size;
        args.cs_col = pl->cs_size;
        for (int64_t t = t0; t < t1; t++) {
            rk_rope_gather(pl, run, t, scratch, scratch + h * pl->cs_size, offsets);
            rk_rope_token(run, t, &args);
        }
        return;
    }
    args.cs_col = pl->cache_col;
    for (int64_t t = t0; t < t1; t++) {
        const char *row = rk_cache_row(pl, run, 0, t, offsets);
        args.cos = row;
        args.sin = row + h * pl->cache_col;
        rk_rope_token(run, t, &args);
    }
}

static const char *rk_advance(const void *p, int64_t bytes) {
    return p ? (const char *)p + bytes : NULL;
}

/* `run` moved to run b of a plan of several runs. */
static struct rk_rope_run rk_rope_run_at(const struct rk_rope_run *run, int64_t b) {
    const struct rk_rope_plan *pl = run->pl;
    struct rk_rope_run at = *run;
    at.d.positions = (const int64_t *)rk_advance(run->d.positions, b * pl->pos_run);
    at.d.offsets = (const int64_t *)rk_advance(run->d.offsets, b * pl->off_run);
    at.d.q_in = rk_advance(run->d.q_in, b * pl->q.in_run);
    at.d.k_in = rk_advance(run->d.k_in, b * pl->k.in_run);
    at.d.q_out = (char *)rk_advance(run->d.q_out, b * pl->q.out_run);
    at.d.k_out = (char *)rk_advance(run->d.k_out, b * pl->k.out_run);
    return at;
}

/* One task's tokens. Each task function below has `offsets` as a constant, so neither
 * token loop tests it per token and a task costs one call from the parallel-for. */
RK_ROPE_INLINE void rk_rope_task_run(const struct rk_rope_run *run, int64_t task, bool offsets) {
    const struct rk_rope_plan *pl = run->pl;
    _Alignas(64) char stack_scratch[RK_ROPE_STACK_SCRATCH];
    char *scratch =
        run->heap_scratch ? run->heap_scratch + task * 2 * pl->half * pl->cs_size : stack_scratch;
    int64_t t0 = task * pl->tokens_per_task;
    int64_t t1 = t0 + pl->tokens_per_task < pl->tokens ? t0 + pl->tokens_per_task : pl->tokens;
    if (pl->seq == pl->tokens) {
        rk_rope_tokens(run, t0, t1, scratch, offsets);
    } else {
        for (int64_t t = t0; t < t1;) { /* the task's part of each run it touches */
            const int64_t b = t / pl->seq, s = t - b * pl->seq;
            const int64_t n = pl->seq - s < t1 - t ? pl->seq - s : t1 - t;
            const struct rk_rope_run at = rk_rope_run_at(run, b);
            rk_rope_tokens(&at, s, s + n, scratch, offsets);
            t += n;
        }
    }
    if (run->stream_q || run->stream_k)
        rk_stream_fence(); /* before this task counts as done */
}

static void rk_rope_task(void *ctx, int64_t task) {
    rk_rope_task_run(ctx, task, false);
}

static void rk_rope_task_offsets(void *ctx, int64_t task) {
    rk_rope_task_run(ctx, task, true);
}

/* "[r][t]" for [T] (the row even for rope, as SPEC §5.5 (E)'s message has it), "[b][s]" or
 * "[r][b][s]" for [B, S]; offsets: "[t]" or "[b][s]". Flat token t of the plan. */
static const char *rk_token_index(const struct rk_rope_plan *pl, int r, int64_t t, bool row,
                                  char *buf, size_t len) {
    const int64_t s = pl->tok_shape[pl->tok_dims - 1];
    int n = row && (pl->mrope || pl->tok_dims == 1) ? snprintf(buf, len, "[%d]", r) : 0;
    n = n < 0 ? 0 : n;
    if (pl->tok_dims == 1)
        snprintf(buf + n, len - (size_t)n, "[%lld]", (long long)t);
    else
        snprintf(buf + n, len - (size_t)n, "[%lld][%lld]", (long long)(t / s), (long long)(t % s));
    return buf;
}

RK_ROPE_COLD static ropekit_status rk_position_error(const struct rk_rope_plan *pl, const char *api,
                                                     int r, int64_t t, int64_t v, const int64_t *o,
                                                     int *rule) {
    char pi[64], oi[48];
    rk_token_index(pl, r, t, true, pi, sizeof pi);
    if (!o)
        RK_ROPE_FAIL(RK_ROPE_RULE_POS_RANGE,
                     "%s: positions%s = %lld: must be in [0, maxSeqLen = %lld)", api, pi,
                     (long long)v, (long long)pl->max_pos);
    int64_t sum;
    const bool overflows = !rk_add_i64(v, *o, &sum);
    RK_ROPE_FAIL(RK_ROPE_RULE_POS_RANGE,
                 "%s: positions%s + offsets%s = %lld + %lld%s: must be in [0, maxSeqLen = %lld)",
                 api, pi, rk_token_index(pl, r, t, false, oi, sizeof oi), (long long)v,
                 (long long)*o, overflows ? " (overflows int64)" : "", (long long)pl->max_pos);
}

/* SPEC §5.5 (E): every position (+ offset) is checked before anything is written. */
static ropekit_status rk_check_positions(const struct rk_rope_plan *pl, const char *api,
                                         const int64_t *positions, int *rule) {
    for (int r = 0; r < pl->nsec; r++) {
        const char *row = (const char *)positions + r * pl->pos_row;
        for (int64_t b = 0; b < pl->runs; b++, row += pl->pos_run)
            for (int64_t s = 0; s < pl->seq; s++) {
                const int64_t v = rk_load_i64(row + s * pl->pos_col);
                if (v < 0 || v >= pl->max_pos)
                    return rk_position_error(pl, api, r, b * pl->seq + s, v, NULL, rule);
            }
    }
    return ROPEKIT_OK;
}

static ropekit_status rk_check_positions_offsets(const struct rk_rope_plan *pl, const char *api,
                                                 const int64_t *positions, const int64_t *offsets,
                                                 int *rule) {
    for (int r = 0; r < pl->nsec; r++) {
        const char *row = (const char *)positions + r * pl->pos_row;
        const char *orow = (const char *)offsets;
        for (int64_t b = 0; b < pl->runs; b++, row += pl->pos_run, orow += pl->off_run)
            for (int64_t s = 0; s < pl->seq; s++) {
                const int64_t v = rk_load_i64(row + s * pl->pos_col);
                const int64_t o = rk_load_i64(orow + s * pl->off_col);
                int64_t p;
                if (!rk_add_i64(v, o, &p) || p < 0 || p >= pl->max_pos)
                    return rk_position_error(pl, api, r, b * pl->seq + s, v, &o, rule);
            }
    }
    return ROPEKIT_OK;
}

/* rk_rope_run's body, inlined into rk_rope_execute too: the native face's call costs
 * one call from check to work. */
RK_ROPE_INLINE ropekit_status rk_rope_launch(const struct rk_rope_plan *pl, const char *api,
                                             const struct rk_op_data *data, int *rule) {
    *rule = RK_ROPE_RULE_NONE;
    if (pl->noop)
        return ROPEKIT_OK;
    const struct rk_rope_data d = {data->ptr[RK_ROPE_POS],
                                   data->ptr[RK_ROPE_Q_IN],
                                   data->ptr[RK_ROPE_K_IN],
                                   data->ptr[RK_ROPE_CACHE],
                                   data->ptr[RK_ROPE_Q_OUT],
                                   data->ptr[RK_ROPE_K_OUT],
                                   pl->offsets ? data->ptr[RK_ROPE_OFF] : NULL};
    RK_COUNT_CHECK(RK_OP_ROPE, RK_ROPE_RULE_POS_RANGE);
    ropekit_status st = pl->offsets
                            ? rk_check_positions_offsets(pl, api, d.positions, d.offsets, rule)
                            : rk_check_positions(pl, api, d.positions, rule);
    if (st != ROPEKIT_OK)
        return st;
    struct rk_rope_run run = {pl, d, pl->q.stream && d.q_out != d.q_in,
                              pl->k.stream && d.k_out != d.k_in, NULL};
    const int64_t scratch = 2 * pl->half * pl->cs_size;
    if (pl->mrope && scratch > RK_ROPE_STACK_SCRATCH) {
        run.heap_scratch = malloc((size_t)(pl->tasks * scratch));
        if (!run.heap_scratch)
            RK_ROPE_FAIL(RK_ROPE_RULE_NO_MEMORY, "%s: scratch: out of memory", api);
    }
    rk_parallel_for(pl->tasks, pl->threads, pl->offsets ? rk_rope_task_offsets : rk_rope_task,
                    &run);
    free(run.heap_scratch);
    return ROPEKIT_OK;
}

ropekit_status rk_rope_run(const void *plan, const char *api, const struct rk_op_data *data,
                           int *rule) {
    return rk_rope_launch(plan, api, data, rule);
}

ropekit_status rk_rope_execute(const void *plan, const char *api, const struct rk_op_data *data,
                               int *rule) {
    const struct rk_rope_plan *pl = plan;
    ropekit_status st = rk_rope_check_data(pl, api, data, rule);
    return st != ROPEKIT_OK ? st : rk_rope_launch(pl, api, data, rule);
}

/* queryIn's or keyIn's shape, from the plan: the token dims, then the heads. */
static struct rk_shape rk_side_shape(const struct rk_rope_plan *pl,
                                     const struct rk_rope_side *side) {
    struct rk_shape sh = {.present = side->present};
    for (int d = 0; side->present && d < pl->tok_dims; d++)
        sh.dims[sh.ndim++] = pl->tok_shape[d];
    if (side->present && side->split) {
        sh.dims[sh.ndim++] = side->heads;
        sh.dims[sh.ndim++] = pl->head_size;
    } else if (side->present) {
        sh.dims[sh.ndim++] = side->heads * pl->head_size;
    }
    return sh;
}

size_t rk_rope_describe(const void *plan, char *buf, size_t len) {
    const struct rk_rope_plan *pl = plan;
    char sec[96] = "";
    size_t used = 0;
    for (int i = 0; pl->mrope && i < pl->nsec && used < sizeof sec; i++)
        used += (size_t)snprintf(sec + used, sizeof sec - used, i ? ",%lld" : " sections=[%lld",
                                 (long long)pl->sections[i]);
    if (pl->mrope && used < sizeof sec)
        snprintf(sec + used, sizeof sec - used, "] cache_mode=%d", pl->cache_mode);
    char tok[96] = "";
    if (pl->tok_dims == 2)
        snprintf(tok, sizeof tok, " token_dims=[%lld,%lld] runs=%lld", (long long)pl->tok_shape[0],
                 (long long)pl->tok_shape[1], (long long)pl->runs);
    const struct rk_shape qs = rk_side_shape(pl, &pl->q), ks = rk_side_shape(pl, &pl->k);
    const struct rk_shape cs = {.present = true, .ndim = 2, .dims = {pl->max_pos, pl->rot_dim}};
    char qb[64], kb[64], cb[64];
    int n = snprintf(buf, len,
                     "%s %s dtypes=%s/%s q=%s k=%s cache=%s head_size=%lld rotary_dim=%lld "
                     "tokens=%lld%s%s%s "
                     "kernel=%s tasks=%lld threads=%d%s%s%s",
                     pl->mrope ? "mrope" : "rope", pl->style == RK_ROPE_NEOX ? "neox" : "gptj",
                     ropekit_dtype_name(pl->x_dtype), ropekit_dtype_name(pl->cs_dtype),
                     rk_shape_format(&qs, qb, sizeof qb), rk_shape_format(&ks, kb, sizeof kb),
                     rk_shape_format(&cs, cb, sizeof cb), (long long)pl->head_size,
                     (long long)pl->rot_dim, (long long)pl->tokens, tok,
                     pl->offsets ? " offsets" : "", sec, pl->kernel_name ? pl->kernel_name : "-",
                     (long long)pl->tasks, pl->threads, pl->prefetch ? " prefetch" : "",
                     pl->q.stream || pl->k.stream ? " stream-out(out-of-place)" : "",
                     pl->noop ? " (no-op)" : "");
    return n < 0 ? 0 : (size_t)n;
}

/* ---- The descriptor ---- */

#define RK_ROPE_RULE_ROW_(rule, status, meaning)                                                   \
    RK_RULE_ROW(RK_ROPE_RULE_##rule, #rule, status, meaning),
static const struct rk_rule rk_rope_rules[RK_ROPE_RULE_COUNT] = {RK_RULE_NONE_ROW,
                                                                 RK_ROPE_RULES(RK_ROPE_RULE_ROW_)};
RK_OP_DEFINE(rope, ROPE, struct rk_rope_plan, RK_ROPE_TENSORS, rk_rope_rules, rk_rope);
