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
#include "ops/rope_internal.h"

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

static void rk_rope_side_make(struct rk_rope_side *side, const ropekit_tensor *in,
                              const ropekit_tensor *out, int64_t heads, int64_t hs,
                              bool same_layout) {
    if (!in)
        return;
    const int64_t xs = (int64_t)ropekit_dtype_size(in->dtype);
    side->present = true;
    side->same_layout = same_layout;
    side->heads = heads;
    side->in_tok = rk_step_bytes(in, 0, xs);
    side->out_tok = rk_step_bytes(out, 0, xs);
    side->in_col = rk_step_bytes(in, in->ndim - 1, xs);
    side->out_col = rk_step_bytes(out, out->ndim - 1, xs);
    /* [T, H*hs]: a second head lies hs columns on, within the checked span */
    side->in_head = in->ndim == 3 ? rk_step_bytes(in, 1, xs) : heads > 1 ? hs * side->in_col : 0;
    side->out_head = out->ndim == 3 ? rk_step_bytes(out, 1, xs)
                     : heads > 1    ? hs * side->out_col
                                    : 0;
}

ropekit_status rk_rope_plan_make(const struct rk_rope_problem *p, const struct rk_rope_policy *pol,
                                 struct rk_rope_plan *pl, enum rk_rope_rule *rule) {
    memset(pl, 0, sizeof *pl);
    struct rk_rope_checked chk = {.geom = pl->geom};
    ropekit_status st = rk_rope_validate(p, pol, &chk, rule);
    if (st != ROPEKIT_OK)
        return st;
    const ropekit_tensor *x = p->query_in ? p->query_in : p->key_in;
    const ropekit_tensor *cache = p->cache, *pos = p->positions;
    pl->noop = chk.noop;
    pl->mrope = chk.mrope;
    pl->style = p->style;
    pl->cache_mode = (int)p->cache_mode;
    pl->nsec = chk.nsec;
    for (int i = 0; chk.mrope && i < chk.nsec; i++)
        pl->sections[i] = p->sections[i];
    pl->x_dtype = x->dtype;
    pl->cs_dtype = cache->dtype;
    pl->tokens = chk.tokens;
    pl->head_size = p->head_size;
    pl->rot_dim = chk.rot_dim;
    pl->half = chk.rot_dim / 2;
    pl->max_pos = chk.max_pos;
    pl->q_shape = rk_shape_of(p->query_in);
    pl->k_shape = rk_shape_of(p->key_in);
    pl->cache_shape = rk_shape_of(cache);
    rk_rope_side_make(&pl->q, p->query_in, p->query_out, chk.q_heads, p->head_size,
                      chk.same_layout[0]);
    rk_rope_side_make(&pl->k, p->key_in, p->key_out, chk.k_heads, p->head_size, chk.same_layout[1]);
    pl->pos_col = rk_step_bytes(pos, pos->ndim - 1, 8);
    pl->pos_row = pos->ndim == 2 ? rk_step_bytes(pos, 0, 8) : 0;
    const int64_t cs = (int64_t)ropekit_dtype_size(cache->dtype);
    pl->cache_row = rk_step_bytes(cache, 0, cs);
    pl->cache_col = rk_step_bytes(cache, 1, cs);

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
        return rk_error_set(ROPEKIT_INTERNAL, "%s: no rope kernel", pol->api);
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
    return ROPEKIT_OK;
}

static int64_t rk_position(const struct rk_rope_plan *pl, const int64_t *positions, int row,
                           int64_t t) {
    int64_t v;
    memcpy(&v, (const char *)positions + row * pl->pos_row + t * pl->pos_col, sizeof v);
    return v;
}

struct rk_rope_run {
    const struct rk_rope_plan *pl;
    const int64_t *positions;
    const char *q_in, *k_in, *cache;
    char *q_out, *k_out;
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

/* Copies n coefficients (cs bytes each, `col` bytes apart) to a packed array. */
static void rk_copy_coeffs(char *dst, const char *src, int64_t n, int64_t cs, int64_t col) {
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

/* mrope: gathers token t's h cos and h sin coefficients from the cache rows its
 * positions select (SPEC §5.3) into packed gc and gs. */
static void rk_rope_gather(const struct rk_rope_plan *pl, const struct rk_rope_run *run, int64_t t,
                           char *gc, char *gs) {
    const int64_t cs = (int64_t)ropekit_dtype_size(pl->cs_dtype), h = pl->half;
    const int64_t col = pl->cache_col;
    const char *rows[ROPEKIT_ROPE_MAX_SECTIONS];
    for (int k = 0; k < pl->nsec; k++)
        rows[k] = run->cache + rk_position(pl, run->positions, k, t) * pl->cache_row;
    if (pl->cache_mode == 0) { /* section k feeds [S_k, S_k+1) from row k */
        int64_t j = 0;
        for (int k = 0; k < pl->nsec; k++) {
            int64_t n = pl->sections[k];
            rk_copy_coeffs(gc + j * cs, rows[k] + j * col, n, cs, col);
            rk_copy_coeffs(gs + j * cs, rows[k] + (h + j) * col, n, cs, col);
            j += n;
        }
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

static void rk_rope_task(void *ctx, int64_t task) {
    const struct rk_rope_run *run = ctx;
    const struct rk_rope_plan *pl = run->pl;
    const int64_t cs = (int64_t)ropekit_dtype_size(pl->cs_dtype), h = pl->half;
    _Alignas(64) char stack_scratch[RK_ROPE_STACK_SCRATCH];
    char *gc = run->heap_scratch ? run->heap_scratch + task * 2 * h * cs : stack_scratch;
    char *gs = gc + h * cs;
    int64_t t0 = task * pl->tokens_per_task;
    int64_t t1 = t0 + pl->tokens_per_task < pl->tokens ? t0 + pl->tokens_per_task : pl->tokens;
    struct rk_rope_rows args = {.half = h, .head_size = pl->head_size, .prefetch = pl->prefetch};
    for (int64_t t = t0; t < t1; t++) {
        if (pl->mrope) {
            rk_rope_gather(pl, run, t, gc, gs);
            args.cos = gc;
            args.sin = gs;
            args.cs_col = cs;
        } else {
            const char *row = run->cache + rk_position(pl, run->positions, 0, t) * pl->cache_row;
            args.cos = row;
            args.sin = row + h * pl->cache_col;
            args.cs_col = pl->cache_col;
        }
        if (run->stream_q)
            rk_rope_heads_streamed(pl, &pl->q, run->q_in, run->q_out, t, &args);
        else if (pl->q.present && pl->q.heads > 0) /* an empty side may have no data */
            rk_rope_heads(pl, &pl->q, run->q_in, run->q_out, t, &args);
        if (run->stream_k)
            rk_rope_heads_streamed(pl, &pl->k, run->k_in, run->k_out, t, &args);
        else if (pl->k.present && pl->k.heads > 0)
            rk_rope_heads(pl, &pl->k, run->k_in, run->k_out, t, &args);
    }
    if (run->stream_q || run->stream_k)
        rk_stream_fence(); /* before this task counts as done */
}

ropekit_status rk_rope_execute(const struct rk_rope_plan *pl, const char *api,
                               const int64_t *positions, const void *q_in, const void *k_in,
                               const void *cache, void *q_out, void *k_out,
                               enum rk_rope_rule *rule) {
    ropekit_status st =
        rk_rope_check_data(pl, api, positions, q_in, k_in, cache, q_out, k_out, rule);
    return st != ROPEKIT_OK
               ? st
               : rk_rope_run(pl, api, positions, q_in, k_in, cache, q_out, k_out, rule);
}

ropekit_status rk_rope_run(const struct rk_rope_plan *pl, const char *api, const int64_t *positions,
                           const void *q_in, const void *k_in, const void *cache, void *q_out,
                           void *k_out, enum rk_rope_rule *rule) {
    *rule = RK_ROPE_RULE_NONE;
    if (pl->noop)
        return ROPEKIT_OK;
    /* SPEC §5.5 (E): every position is checked before anything is written. */
    RK_COUNT_CHECK(RK_CHECKED_ROPE, RK_ROPE_RULE_POS_RANGE);
    for (int r = 0; r < pl->nsec; r++)
        for (int64_t t = 0; t < pl->tokens; t++) {
            int64_t v = rk_position(pl, positions, r, t);
            if (v < 0 || v >= pl->max_pos)
                RK_ROPE_FAIL(RK_ROPE_RULE_POS_RANGE,
                             "%s: positions[%d][%lld] = %lld: must be in [0, maxSeqLen = %lld)",
                             api, r, (long long)t, (long long)v, (long long)pl->max_pos);
        }
    struct rk_rope_run run = {pl,
                              positions,
                              q_in,
                              k_in,
                              cache,
                              q_out,
                              k_out,
                              pl->q.stream && q_out != q_in,
                              pl->k.stream && k_out != k_in,
                              NULL};
    const int64_t scratch = 2 * pl->half * (int64_t)ropekit_dtype_size(pl->cs_dtype);
    if (pl->mrope && scratch > RK_ROPE_STACK_SCRATCH) {
        run.heap_scratch = malloc((size_t)(pl->tasks * scratch));
        if (!run.heap_scratch)
            RK_ROPE_FAIL(RK_ROPE_RULE_NO_MEMORY, "%s: scratch: out of memory", api);
    }
    rk_parallel_for(pl->tasks, pl->threads, rk_rope_task, &run);
    free(run.heap_scratch);
    return ROPEKIT_OK;
}

size_t rk_rope_describe(const struct rk_rope_plan *pl, char *buf, size_t len) {
    char sec[96] = "";
    size_t used = 0;
    for (int i = 0; pl->mrope && i < pl->nsec && used < sizeof sec; i++)
        used += (size_t)snprintf(sec + used, sizeof sec - used, i ? ",%lld" : " sections=[%lld",
                                 (long long)pl->sections[i]);
    if (pl->mrope && used < sizeof sec)
        snprintf(sec + used, sizeof sec - used, "] cache_mode=%d", pl->cache_mode);
    char qb[64], kb[64], cb[64];
    int n = snprintf(
        buf, len,
        "rope %s %s dtypes=%s/%s q=%s k=%s cache=%s head_size=%lld rotary_dim=%lld tokens=%lld%s "
        "kernel=%s tasks=%lld threads=%d%s%s%s",
        pl->style == RK_ROPE_NEOX ? "neox" : "gptj", pl->mrope ? "mrope" : "rope",
        ropekit_dtype_name(pl->x_dtype), ropekit_dtype_name(pl->cs_dtype),
        rk_shape_format(&pl->q_shape, qb, sizeof qb), rk_shape_format(&pl->k_shape, kb, sizeof kb),
        rk_shape_format(&pl->cache_shape, cb, sizeof cb), (long long)pl->head_size,
        (long long)pl->rot_dim, (long long)pl->tokens, sec, pl->kernel_name ? pl->kernel_name : "-",
        (long long)pl->tasks, pl->threads, pl->prefetch ? " prefetch" : "",
        pl->q.stream || pl->k.stream ? " stream-out(out-of-place)" : "",
        pl->noop ? " (no-op)" : "");
    return n < 0 ? 0 : (size_t)n;
}
