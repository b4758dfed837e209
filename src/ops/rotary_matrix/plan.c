/* Rotary matrix: plan (strides per leading dim, one split of rows) and run (the matrix
 * widened once, rows in parallel). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "kernels/dispatch.h"
#include "kernels/simd/elem.h"
#include "ops/check_count.h"
#include "ops/rotary_matrix/check.h"

/* The smallest task: a row costs D*D multiply-adds, so tasks are counted in work. */
#define RK_RM_MIN_TASK_WORK (256 * 1024)

static bool rk_same_strides(const ropekit_tensor *a, const ropekit_tensor *b) {
    for (int32_t i = 0; i < a->ndim; i++)
        if (a->shape[i] > 1 && a->strides[i] != b->strides[i])
            return false;
    return true;
}

ropekit_status rk_rm_make(const void *problem, const void *policy, void *plan, int *rule) {
    const struct rk_rm_problem *p = problem;
    struct rk_rm_plan *pl = memset(plan, 0, sizeof(struct rk_rm_plan));
    const struct rk_rm_ctx c = {
        .p = p,
        .pol = policy,
        .t = {p->x, p->cos, p->sin, p->rotate, p->out},
        .geom = pl->geom,
    };
    bool empty = false;
    ropekit_status st = rk_rm_validate(&c, &empty, rule);
    if (st != ROPEKIT_OK)
        return st;
    pl->x_shape = rk_shape_of(p->x);
    pl->cs_shape = rk_shape_of(p->cos);
    if (empty)
        return ROPEKIT_OK;
    const ropekit_tensor *x = p->x;
    pl->kdt = rk_kdtype_of(x->dtype);
    pl->ndim = x->ndim;
    pl->d = x->shape[x->ndim - 1];
    pl->rows = rk_tensor_numel(x) / pl->d;
    for (int32_t i = 0; i < x->ndim; i++) {
        if (i + 1 < x->ndim)
            pl->lead[i] = x->shape[i];
        pl->x_st[i] = x->strides[i];
        pl->out_st[i] = p->out->strides[i];
        pl->cos_st[i] = p->cos->shape[i] == 1 && i + 1 < x->ndim ? 0 : p->cos->strides[i];
        pl->sin_st[i] = p->sin->shape[i] == 1 && i + 1 < x->ndim ? 0 : p->sin->strides[i];
    }
    pl->rot_row = p->rotate->strides[0];
    pl->rot_col = p->rotate->strides[1];
    pl->same_geometry = rk_same_strides(x, p->out);
    int64_t work;
    if (!rk_mul_i64(pl->d, pl->d, &work))
        work = INT64_MAX;
    /* one task per thread, each with its own float64 row scratch */
    struct rk_split split = rk_split_work(pl->rows, work, RK_RM_MIN_TASK_WORK);
    pl->threads = split.threads < 1 ? 1 : split.threads;
    if (pl->threads > pl->rows)
        pl->threads = (int)pl->rows;
    pl->tasks = pl->threads;
    pl->rows_per_task = (pl->rows + pl->tasks - 1) / pl->tasks;
    pl->tasks = (pl->rows + pl->rows_per_task - 1) / pl->rows_per_task;
    return ROPEKIT_OK;
}

static bool rk_rm_in_place(const struct rk_rm_plan *pl, const struct rk_op_data *data) {
    return pl->same_geometry && data->ptr[RK_RM_X] == data->ptr[RK_RM_OUT];
}

ropekit_status rk_rm_check_data(const void *plan, const char *api, const struct rk_op_data *data,
                                int *rule) {
    const struct rk_rm_plan *pl = plan;
    *rule = RK_RM_RULE_NONE;
    if (pl->rows == 0)
        return ROPEKIT_OK;
    RK_COUNT_CHECK(RK_OP_ROTARY_MATRIX, RK_RM_RULE_DATA_NULL);
    for (int i = 0; i < RK_RM_TENSORS; i++)
        if (!data->ptr[i])
            RK_RM_FAIL(RK_RM_RULE_DATA_NULL, "%s: %s data = NULL: required", api, rk_rm_name(i));
    RK_COUNT_CHECK(RK_OP_ROTARY_MATRIX, RK_RM_RULE_OVERLAP);
    const void *ptrs[RK_RM_TENSORS];
    for (int i = 0; i < RK_RM_TENSORS; i++)
        ptrs[i] = data->ptr[i];
    return rk_rm_check_overlap(api, pl->geom, ptrs, rk_rm_in_place(pl, data), rule);
}

struct rk_rm_run {
    const struct rk_rm_plan *plan;
    const struct rk_op_data *data;
    const double *rotate64;
    double *scratch; /* 2 * D per task */
};

static void rk_rm_task(void *ctx, int64_t task) {
    const struct rk_rm_run *run = ctx;
    const struct rk_rm_plan *pl = run->plan;
    const int64_t first = task * pl->rows_per_task;
    const int64_t left = pl->rows - first;
    rk_rm_rows(pl, run->data, run->rotate64, run->scratch + task * 2 * pl->d, first,
               left < pl->rows_per_task ? left : pl->rows_per_task);
}

ropekit_status rk_rm_run(const void *plan, const char *api, const struct rk_op_data *data,
                         int *rule) {
    const struct rk_rm_plan *pl = plan;
    *rule = RK_RM_RULE_NONE;
    if (pl->rows == 0)
        return ROPEKIT_OK;
    const int64_t d = pl->d;
    /* the matrix and, per task, a row of x and of sums, all in float64 */
    const int64_t doubles = d * d + pl->tasks * 2 * d;
    double *rotate64 = malloc((size_t)doubles * sizeof(double));
    if (!rotate64)
        RK_RM_FAIL(RK_RM_RULE_NO_MEMORY,
                   "%s: the rotate matrix and row scratch in float64 (%lld bytes): out of memory",
                   api, (long long)(doubles * 8));
    const char *r = data->ptr[RK_RM_ROTATE];
    const int64_t es = RK_SIZE(pl->kdt);
    for (int64_t i = 0; i < d; i++)
        for (int64_t j = 0; j < d; j++) {
            const char *e = r + (i * pl->rot_row + j * pl->rot_col) * es;
            rotate64[i * d + j] =
                pl->kdt == RK_KDT_F64 ? rk_load_f64(e) : (double)rk_load_elem(e, pl->kdt);
        }
    struct rk_rm_run run = {pl, data, rotate64, rotate64 + d * d};
    rk_parallel_for(pl->tasks, pl->threads, rk_rm_task, &run);
    free(rotate64);
    return ROPEKIT_OK;
}

size_t rk_rm_describe(const void *plan, char *buf, size_t len) {
    const struct rk_rm_plan *pl = plan;
    char xb[96], cb[96];
    rk_shape_format(&pl->x_shape, xb, sizeof xb);
    rk_shape_format(&pl->cs_shape, cb, sizeof cb);
    int n = snprintf(buf, len,
                     "rotary_matrix x=%s cos/sin=%s rotate=[%lld,%lld] rows=%lld kernel=%s "
                     "tasks=%lld threads=%d%s",
                     xb, cb, (long long)pl->d, (long long)pl->d, (long long)pl->rows,
                     pl->rows ? "scalar" : "none", (long long)pl->tasks, pl->threads,
                     pl->rows == 0 ? ": no-op" : "");
    return n < 0 ? 0 : (size_t)n;
}

void rk_rm_release(void *plan) {
    (void)plan; /* a rotary-matrix plan owns nothing */
}

/* ---- The descriptor ---- */

#define RK_RM_RULE_ROW_(rule, status, meaning)                                                     \
    RK_RULE_ROW(RK_RM_RULE_##rule, #rule, status, meaning),
static const struct rk_rule rk_rm_rules[RK_RM_RULE_COUNT] = {RK_RULE_NONE_ROW,
                                                             RK_RM_RULES(RK_RM_RULE_ROW_)};
RK_OP_DEFINE(rotary_matrix, ROTARY_MATRIX, struct rk_rm_plan, RK_RM_TENSORS, rk_rm_rules, rk_rm);
