/* Partial rotary multiply: plan (the CPU "tiling") and run. */
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
#include "ops/partial_rotary/partial_rotary.h"

/* Leading dims of x with their byte steps, and out's (y: x in place); cos/sin broadcast
 * right-aligned (step 0 where their dim is 1 or absent, or when c is NULL: not read).
 * Size-1 dims are dropped and dims that walk memory as one are merged, so the kernel sees
 * the longest possible row runs. */
static void rk_pr_collapse(struct rk_pr_plan *pl, const ropekit_tensor *x, const ropekit_tensor *y,
                           const ropekit_tensor *c, const ropekit_tensor *s) {
    const int64_t xs = (int64_t)ropekit_dtype_size(x->dtype);
    const int64_t cs = c ? (int64_t)ropekit_dtype_size(c->dtype) : 0;
    const int32_t lead_x = x->ndim - 1, lead_c = c ? c->ndim - 1 : 0;
    int n = 0;
    for (int32_t k = 0; k < lead_x; k++) {
        int64_t ext = x->shape[k];
        if (ext == 1)
            continue;
        int32_t kc = k - (lead_x - lead_c);
        bool has_c = c && kc >= 0 && c->shape[kc] != 1;
        int64_t xst = x->strides[k] * xs, yst = y->strides[k] * xs;
        int64_t cst = has_c ? c->strides[kc] * cs : 0;
        int64_t sst = has_c ? s->strides[kc] * cs : 0;
        int64_t xrun, yrun, crun, srun; /* a product that overflows cannot equal a valid step */
        if (n > 0 && rk_mul_i64(xst, ext, &xrun) && rk_mul_i64(yst, ext, &yrun) &&
            rk_mul_i64(cst, ext, &crun) && rk_mul_i64(sst, ext, &srun) &&
            pl->x_step[n - 1] == xrun && pl->y_step[n - 1] == yrun && pl->c_step[n - 1] == crun &&
            pl->s_step[n - 1] == srun) {
            pl->extent[n - 1] *= ext;
            pl->x_step[n - 1] = xst;
            pl->y_step[n - 1] = yst;
            pl->c_step[n - 1] = cst;
            pl->s_step[n - 1] = sst;
            continue;
        }
        pl->extent[n] = ext;
        pl->x_step[n] = xst;
        pl->y_step[n] = yst;
        pl->c_step[n] = cst;
        pl->s_step[n] = sst;
        n++;
    }
    if (n == 0) { /* a single row */
        pl->extent[0] = 1;
        pl->x_step[0] = pl->y_step[0] = pl->c_step[0] = pl->s_step[0] = 0;
        n = 1;
    }
    pl->nlead = n;
}

ropekit_status rk_pr_plan_checked(struct rk_pr_plan *pl, const struct rk_pr_problem *p,
                                  const char *x_name, const struct rk_pr_checked *chk, int *rule) {
    const ropekit_tensor *x = p->x, *c = p->cos, *s = p->sin;
    const ropekit_tensor *y = p->with_out ? p->out : x;
    pl->mode = (int)p->mode;
    pl->x_name = x_name;
    pl->out_name = chk->out_name ? chk->out_name : "out";
    pl->direction = p->direction;
    pl->x_dtype = x->dtype;
    pl->cs_dtype = c->dtype;
    pl->len = chk->len;
    pl->x_shape = rk_shape_of(x);
    pl->cs_shape = rk_shape_of(c);
    pl->noop = chk->noop && !chk->copy;
    pl->views = chk->views;
    if (pl->noop)
        return ROPEKIT_OK;

    const bool rotate = pl->views.rotate;
    const int64_t xs = (int64_t)ropekit_dtype_size(x->dtype);
    const int64_t cs = (int64_t)ropekit_dtype_size(c->dtype);
    pl->d = x->shape[x->ndim - 1];
    pl->start = rotate ? chk->start : 0;
    if (!rotate)
        pl->len = 0; /* the whole row is passed through */
    pl->x_col = x->strides[x->ndim - 1] * xs;
    pl->y_col = y->strides[y->ndim - 1] * xs;
    pl->c_col = rotate ? c->strides[c->ndim - 1] * cs : cs;
    pl->s_col = rotate ? s->strides[s->ndim - 1] * cs : cs;
    pl->x_offset = pl->start * pl->x_col;
    pl->y_offset = pl->start * pl->y_col;
    rk_pr_collapse(pl, x, y, rotate ? c : NULL, rotate ? s : NULL);
    pl->rows = 1;
    for (int i = 0; i < pl->nlead; i++)
        pl->rows *= pl->extent[i];

    if (rotate) {
        bool unit = pl->x_col == xs && pl->y_col == xs && pl->c_col == cs && pl->s_col == cs;
        struct rk_rot_kernel k =
            rk_rot_kernel_pick(pl->mode, pl->direction, x->dtype, c->dtype, unit);
        if (!k.fn) {
            *rule = RK_PR_RULE_MODE;
            return rk_error_set(ROPEKIT_INTERNAL, "%s: no kernel for mode %d", p->api, pl->mode);
        }
        pl->kernel = k.fn;
        pl->isa = k.set->isa;
        pl->kernel_name = k.set->name;
    } else {
        pl->isa = ROPEKIT_ISA_SCALAR;
        pl->kernel_name = "copy";
    }

    int64_t row_bytes, pass; /* only steers the split: saturate for rows beyond int64 */
    if (!rk_mul_i64(pl->len, 2 * (xs + cs), &row_bytes))
        row_bytes = INT64_MAX;
    if (pl->views.apart && rk_mul_i64(pl->d - pl->len, 2 * xs, &pass))
        row_bytes = row_bytes > INT64_MAX - pass ? INT64_MAX : row_bytes + pass;
    struct rk_split split = rk_split_work(pl->rows, row_bytes, RK_PR_MIN_TASK_BYTES);
    pl->tasks = split.tasks;
    pl->rows_per_task = split.items_per_task;
    pl->threads = split.threads;
    pl->prefetch = rk_prefetch_wanted(pl->geom[0].span_hi - pl->geom[0].span_lo);
    if (rotate && pl->mode == ROPEKIT_ROTARY_INTERLEAVE_HALF)
        pl->scratch_bytes = pl->len * (int64_t)RK_ROT_SCRATCH_ELEM(xs);
    pl->stream = rotate && pl->views.apart && pl->y_col == xs &&
                 pl->d * xs <= RK_PR_STREAM_SCRATCH &&
                 rk_stream_wanted(pl->geom[3].span_hi - pl->geom[3].span_lo);
    return ROPEKIT_OK;
}

ropekit_status rk_pr_make(const void *problem, const void *policy, void *plan, int *rule) {
    struct rk_pr_plan *pl = memset(plan, 0, sizeof(struct rk_pr_plan));
    struct rk_pr_checked chk = {.geom = pl->geom};
    ropekit_status st = rk_pr_validate(problem, policy, &chk, rule);
    return st != ROPEKIT_OK
               ? st
               : rk_pr_plan_checked(pl, problem, ((const struct rk_pr_policy *)policy)->x_name,
                                    &chk, rule);
}

/* Copies the `n` rows' elements outside [start, start + len) from x to y (element 0 of
 * their first rows), out of place. */
static void rk_pr_pass_through(const struct rk_pr_plan *pl, const char *x, char *y, int64_t n,
                               int64_t x_row, int64_t y_row) {
    const int64_t xs = (int64_t)ropekit_dtype_size(pl->x_dtype);
    const int64_t from[2] = {0, pl->start + pl->len}, to[2] = {pl->start, pl->d};
    const bool dense = pl->x_col == xs && pl->y_col == xs;
    for (int64_t r = 0; r < n; r++) {
        const char *xr = x + r * x_row;
        char *yr = y + r * y_row;
        for (int part = 0; part < 2; part++) {
            if (dense) {
                if (to[part] > from[part])
                    memcpy(yr + from[part] * xs, xr + from[part] * xs,
                           (size_t)((to[part] - from[part]) * xs));
                continue;
            }
            for (int64_t k = from[part]; k < to[part]; k++)
                memcpy(yr + k * pl->y_col, xr + k * pl->x_col, (size_t)xs);
        }
    }
}

/* One run of args->rows rows (args set up for out at y) through an L1 scratch: as many
 * whole out rows as it holds are computed there, the rotated slice and the pass-through,
 * and streamed out (stream_store.h). */
static void rk_pr_rows_streamed(const struct rk_pr_plan *pl, const struct rk_rot_rows *args,
                                const char *x, char *y, char *scratch) {
    const int64_t row_bytes = pl->d * pl->y_col, y_row = args->y_row;
    const int64_t per_pass = RK_PR_STREAM_SCRATCH / row_bytes;
    struct rk_rot_rows part = *args;
    part.y = scratch + pl->y_offset;
    part.y_row = row_bytes;
    part.y_cached = true;
    for (int64_t r0 = 0; r0 < args->rows; r0 += per_pass) {
        const int64_t n = args->rows - r0 < per_pass ? args->rows - r0 : per_pass;
        part.x = args->x + r0 * args->x_row;
        part.cos = args->cos + r0 * args->c_row;
        part.sin = args->sin + r0 * args->s_row;
        part.rows = n;
        pl->kernel(&part);
        if (pl->len < pl->d)
            rk_pr_pass_through(pl, x + r0 * args->x_row, scratch, n, args->x_row, row_bytes);
        if (y_row == row_bytes) {
            rk_stream_copy(y + r0 * y_row, scratch, (size_t)(n * row_bytes));
            continue;
        }
        for (int64_t i = 0; i < n; i++)
            rk_stream_copy(y + (r0 + i) * y_row, scratch + i * row_bytes, (size_t)row_bytes);
    }
}

void rk_pr_run_task(const struct rk_pr_plan *pl, const struct rk_pr_run *run, int64_t task) {
    /* interleave-half only; never initialised. 16, the stack's own alignment: more would
     * realign every task's frame, and the kernels need no more (unaligned SIMD loads). */
    _Alignas(16) char stack_scratch[RK_PR_STACK_SCRATCH];
    int64_t r = task * pl->rows_per_task;
    int64_t r_end = r + pl->rows_per_task < pl->rows ? r + pl->rows_per_task : pl->rows;
    const int inner = pl->nlead - 1;
    int64_t idx[RK_PR_MAX_LEAD];
    int64_t rem = r;
    for (int d = inner; d >= 0; d--) {
        idx[d] = rem % pl->extent[d];
        rem /= pl->extent[d];
    }
    struct rk_rot_rows args = {
        .len = pl->len,
        .x_row = pl->x_step[inner],
        .y_row = pl->y_step[inner],
        .c_row = pl->c_step[inner],
        .s_row = pl->s_step[inner],
        .x_col = pl->x_col,
        .y_col = pl->y_col,
        .c_col = pl->c_col,
        .s_col = pl->s_col,
        .scratch = run->heap_scratch ? run->heap_scratch + task * pl->scratch_bytes : stack_scratch,
        .prefetch = pl->prefetch,
    };
    const bool apart = run->y != run->x;        /* out is x: in place */
    const bool pass = apart && pl->len < pl->d; /* elements outside the slice to copy */
    const bool stream = apart && pl->stream;
    _Alignas(16) char stream_scratch[RK_PR_STREAM_SCRATCH]; /* streamed plans only */
    while (r < r_end) {
        int64_t xo = 0, yo = 0, co = 0, so = 0;
        for (int d = 0; d <= inner; d++) {
            xo += idx[d] * pl->x_step[d];
            yo += idx[d] * pl->y_step[d];
            co += idx[d] * pl->c_step[d];
            so += idx[d] * pl->s_step[d];
        }
        int64_t n = pl->extent[inner] - idx[inner];
        if (n > r_end - r)
            n = r_end - r;
        args.x = run->x + xo + pl->x_offset;
        args.y = run->y + yo + pl->y_offset;
        args.cos = pl->views.rotate ? run->cos + co : NULL; /* not read when copying */
        args.sin = pl->views.rotate ? run->sin + so : NULL;
        args.rows = n;
        if (stream) {
            rk_pr_rows_streamed(pl, &args, run->x + xo, run->y + yo, stream_scratch);
        } else {
            if (pl->views.rotate)
                pl->kernel(&args);
            if (pass)
                rk_pr_pass_through(pl, run->x + xo, run->y + yo, n, args.x_row, args.y_row);
        }
        r += n;
        idx[inner] += n;
        for (int d = inner; d > 0 && idx[d] == pl->extent[d]; d--) {
            idx[d] = 0;
            idx[d - 1]++;
        }
    }
    if (stream)
        rk_stream_fence(); /* before this task counts as done */
}

static void rk_pr_task(void *ctx, int64_t task) {
    const struct rk_pr_run *run = ctx;
    rk_pr_run_task(run->plan, run, task);
}

ropekit_status rk_pr_run(const void *plan, const char *api, const struct rk_op_data *data,
                         int *rule) {
    const struct rk_pr_plan *pl = plan;
    *rule = RK_PR_RULE_NONE;
    if (pl->noop)
        return ROPEKIT_OK;
    char *x = data->ptr[RK_PR_X];
    struct rk_pr_run run = {pl,
                            x,
                            pl->views.apart ? data->ptr[RK_PR_OUT] : x,
                            data->ptr[RK_PR_COS],
                            data->ptr[RK_PR_SIN],
                            NULL};
    if (pl->scratch_bytes > RK_PR_STACK_SCRATCH) {
        run.heap_scratch = malloc((size_t)(pl->tasks * pl->scratch_bytes));
        if (!run.heap_scratch)
            RK_PR_FAIL(RK_PR_RULE_NO_MEMORY, "%s: scratch of %lld bytes: out of memory", api,
                       (long long)(pl->tasks * pl->scratch_bytes));
    }
    rk_parallel_for(pl->tasks, pl->threads, rk_pr_task, &run);
    free(run.heap_scratch);
    return ROPEKIT_OK;
}

size_t rk_pr_describe(const void *plan, char *buf, size_t len) {
    const struct rk_pr_plan *pl = plan;
    char xb[96], cb[96];
    rk_shape_format(&pl->x_shape, xb, sizeof xb);
    rk_shape_format(&pl->cs_shape, cb, sizeof cb);
    int n;
    if (pl->noop)
        n = snprintf(buf, len, "partial_rotary %s mode=%s x=%s%s cos/sin=%s%s: no-op",
                     pl->direction ? "backward" : "forward",
                     ropekit_rotary_mode_name((ropekit_rotary_mode)pl->mode),
                     ropekit_dtype_name(pl->x_dtype), xb, ropekit_dtype_name(pl->cs_dtype), cb);
    else
        n = snprintf(buf, len,
                     "partial_rotary %s mode=%s x=%s%s cos/sin=%s%s len=%lld rows=%lld "
                     "kernel=%s%s%s tasks=%lld threads=%d%s%s",
                     pl->direction ? "backward" : "forward",
                     ropekit_rotary_mode_name((ropekit_rotary_mode)pl->mode),
                     ropekit_dtype_name(pl->x_dtype), xb, ropekit_dtype_name(pl->cs_dtype), cb,
                     (long long)pl->len, (long long)pl->rows, pl->kernel_name,
                     pl->x_col == (int64_t)ropekit_dtype_size(pl->x_dtype) ? "" : "(strided)",
                     pl->views.apart ? " out-of-place" : "", (long long)pl->tasks, pl->threads,
                     pl->prefetch ? " prefetch" : "", pl->stream ? " stream-out" : "");
    return n < 0 ? 0 : (size_t)n;
}

void rk_pr_release(void *plan) {
    (void)plan; /* a partial-rotary plan owns nothing */
}

/* ---- The descriptor ---- */

#define RK_PR_RULE_ROW_(rule, status, meaning)                                                     \
    RK_RULE_ROW(RK_PR_RULE_##rule, #rule, status, meaning),
static const struct rk_rule rk_pr_rules[RK_PR_RULE_COUNT] = {RK_RULE_NONE_ROW,
                                                             RK_PR_RULES(RK_PR_RULE_ROW_)};
RK_OP_DEFINE(partial_rotary, PARTIAL_ROTARY, struct rk_pr_plan, RK_PR_TENSORS, rk_pr_rules, rk_pr);
