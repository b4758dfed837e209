/* Apply rotary: plan (query's and key's rows as two partial-rotary plans over the whole
 * head, in one split of tasks) and run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "ops/apply_rotary/apply_rotary.h"
#include "ops/apply_rotary/check.h"
#include "ops/check_count.h"

/* One split over the rows of both tensors: tasks of equal rows, query's first. */
static void rk_ar_split(struct rk_ar_plan *pl) {
    int64_t rows[2], row_bytes = 0;
    for (int i = 0; i < 2; i++) {
        const struct rk_pr_plan *part = &pl->part[i];
        rows[i] = part->noop ? 0 : part->rows;
        int64_t b; /* only steers the split: saturate for rows beyond int64 */
        if (!rk_mul_i64(part->len,
                        2 * (int64_t)(ropekit_dtype_size(part->x_dtype) +
                                      ropekit_dtype_size(part->cs_dtype)),
                        &b))
            b = INT64_MAX;
        if (!part->noop && b > row_bytes)
            row_bytes = b;
    }
    struct rk_split split = rk_split_work(rows[0] + rows[1], row_bytes, RK_PR_MIN_TASK_BYTES);
    pl->tasks = 0;
    for (int i = 0; i < 2; i++) {
        struct rk_pr_plan *part = &pl->part[i];
        part->rows_per_task = split.items_per_task > 0 ? split.items_per_task : 1;
        part->tasks = (rows[i] + part->rows_per_task - 1) / part->rows_per_task;
        pl->tasks += part->tasks;
    }
    pl->threads = split.threads < 1 ? 1 : split.threads;
    if (pl->threads > pl->tasks && pl->tasks > 0)
        pl->threads = (int)pl->tasks;
}

ropekit_status rk_ar_make(const void *problem, const void *policy, void *plan, int *rule) {
    const struct rk_ar_problem *p = problem;
    const struct rk_ar_policy *pol = policy;
    struct rk_ar_plan *pl = memset(plan, 0, sizeof(struct rk_ar_plan));
    struct rk_view_geom geom[RK_AR_TENSORS];
    const struct rk_ar_ctx c = {
        .p = p,
        .pol = pol,
        .t = {p->q, p->k, p->cos, p->sin},
        .name = {pol->q_name, pol->k_name, "cos", "sin"},
        .geom = geom,
    };
    ropekit_status st = rk_ar_validate(&c, rule);
    if (st != ROPEKIT_OK)
        return st;
    pl->layout = pol->layout_mask ? p->layout : 0;
    for (int i = 0; i < 2; i++) {
        const ropekit_tensor *x = c.t[i];
        struct rk_pr_plan *part = &pl->part[i];
        const struct rk_pr_problem pp = {.api = p->api,
                                         .x = x,
                                         .cos = p->cos,
                                         .sin = p->sin,
                                         .mode = p->mode,
                                         .direction = p->direction};
        part->geom[0] = geom[i];
        part->geom[1] = geom[RK_AR_COS];
        part->geom[2] = geom[RK_AR_SIN];
        const struct rk_pr_checked chk = {
            .start = 0,
            .len = x->shape[x->ndim - 1],
            .noop = rk_tensor_numel(x) == 0 || rk_tensor_numel(p->cos) == 0,
            .views = {.rotate = true, .same_view = true}, /* in place */
            .geom = part->geom,
        };
        st = rk_pr_plan_checked(part, &pp, c.name[i], &chk, rule);
        if (st != ROPEKIT_OK) {
            *rule = RK_AR_RULE_MODE;
            return st;
        }
    }
    rk_ar_split(pl);
    return ROPEKIT_OK;
}

static void rk_ar_geoms(const struct rk_ar_plan *pl, struct rk_view_geom geom[RK_AR_TENSORS],
                        const char *name[RK_AR_TENSORS]) {
    geom[RK_AR_Q] = pl->part[0].geom[0];
    geom[RK_AR_K] = pl->part[1].geom[0];
    geom[RK_AR_COS] = pl->part[0].geom[1];
    geom[RK_AR_SIN] = pl->part[0].geom[2];
    name[RK_AR_Q] = pl->part[0].x_name;
    name[RK_AR_K] = pl->part[1].x_name;
    name[RK_AR_COS] = "cos";
    name[RK_AR_SIN] = "sin";
}

ropekit_status rk_ar_check_data(const void *plan, const char *api, const struct rk_op_data *data,
                                int *rule) {
    const struct rk_ar_plan *pl = plan;
    struct rk_view_geom geom[RK_AR_TENSORS];
    const char *name[RK_AR_TENSORS];
    *rule = RK_AR_RULE_NONE;
    if (pl->tasks == 0)
        return ROPEKIT_OK;
    rk_ar_geoms(pl, geom, name);
    RK_COUNT_CHECK(RK_OP_APPLY_ROTARY, RK_AR_RULE_DATA_NULL);
    for (int i = 0; i < RK_AR_TENSORS; i++) {
        bool needed = i >= RK_AR_COS || !pl->part[i].noop;
        if (needed && !data->ptr[i])
            RK_AR_FAIL(RK_AR_RULE_DATA_NULL, "%s: %s data = NULL: required", api, name[i]);
    }
    RK_COUNT_CHECK(RK_OP_APPLY_ROTARY, RK_AR_RULE_OVERLAP);
    const void *const ptrs[RK_AR_TENSORS] = {pl->part[0].noop ? NULL : data->ptr[RK_AR_Q],
                                             pl->part[1].noop ? NULL : data->ptr[RK_AR_K],
                                             data->ptr[RK_AR_COS], data->ptr[RK_AR_SIN]};
    return rk_ar_check_overlap(api, name, geom, ptrs, rule);
}

struct rk_ar_run {
    const struct rk_ar_plan *plan;
    struct rk_pr_run part[2];
};

static void rk_ar_task(void *ctx, int64_t task) {
    const struct rk_ar_run *run = ctx;
    const struct rk_ar_plan *pl = run->plan;
    if (task < pl->part[0].tasks)
        rk_pr_run_task(&pl->part[0], &run->part[0], task);
    else
        rk_pr_run_task(&pl->part[1], &run->part[1], task - pl->part[0].tasks);
}

ropekit_status rk_ar_run(const void *plan, const char *api, const struct rk_op_data *data,
                         int *rule) {
    const struct rk_ar_plan *pl = plan;
    *rule = RK_AR_RULE_NONE;
    if (pl->tasks == 0)
        return ROPEKIT_OK;
    struct rk_ar_run run = {pl, {{0}}};
    for (int i = 0; i < 2; i++) {
        const struct rk_pr_plan *part = &pl->part[i];
        run.part[i] = (struct rk_pr_run){
            part, data->ptr[i], data->ptr[i], data->ptr[RK_AR_COS], data->ptr[RK_AR_SIN], NULL};
        if (part->tasks > 0 && part->scratch_bytes > RK_PR_STACK_SCRATCH) {
            run.part[i].heap_scratch = malloc((size_t)(part->tasks * part->scratch_bytes));
            if (!run.part[i].heap_scratch) {
                free(run.part[0].heap_scratch);
                RK_AR_FAIL(RK_AR_RULE_NO_MEMORY, "%s: scratch of %lld bytes: out of memory", api,
                           (long long)(part->tasks * part->scratch_bytes));
            }
        }
    }
    rk_parallel_for(pl->tasks, pl->threads, rk_ar_task, &run);
    free(run.part[0].heap_scratch);
    free(run.part[1].heap_scratch);
    return ROPEKIT_OK;
}

size_t rk_ar_describe(const void *plan, char *buf, size_t len) {
    const struct rk_ar_plan *pl = plan;
    const struct rk_pr_plan *q = &pl->part[0], *k = &pl->part[1];
    char qb[96], kb[96], cb[96];
    rk_shape_format(&q->x_shape, qb, sizeof qb);
    rk_shape_format(&k->x_shape, kb, sizeof kb);
    rk_shape_format(&q->cs_shape, cb, sizeof cb);
    const struct rk_pr_plan *any = !q->noop ? q : k;
    int n = snprintf(buf, len,
                     "apply_rotary %s mode=%s%s%s query=%s%s key=%s%s cos/sin=%s%s rows=%lld+%lld "
                     "kernel=%s tasks=%lld threads=%d%s",
                     q->direction ? "backward" : "forward",
                     ropekit_rotary_mode_name((ropekit_rotary_mode)q->mode),
                     pl->layout ? " layout=" : "",
                     pl->layout == 1   ? "BSND"
                     : pl->layout == 2 ? "SBND"
                     : pl->layout == 3 ? "BNSD"
                                       : "",
                     ropekit_dtype_name(q->x_dtype), qb, ropekit_dtype_name(k->x_dtype), kb,
                     ropekit_dtype_name(q->cs_dtype), cb, (long long)(q->noop ? 0 : q->rows),
                     (long long)(k->noop ? 0 : k->rows),
                     pl->tasks && any->kernel_name ? any->kernel_name : "none",
                     (long long)pl->tasks, pl->threads, pl->tasks == 0 ? ": no-op" : "");
    return n < 0 ? 0 : (size_t)n;
}

void rk_ar_release(void *plan) {
    (void)plan; /* an apply-rotary plan owns nothing */
}

/* ---- The descriptor ---- */

#define RK_AR_RULE_ROW_(rule, status, meaning)                                                     \
    RK_RULE_ROW(RK_AR_RULE_##rule, #rule, status, meaning),
static const struct rk_rule rk_ar_rules[RK_AR_RULE_COUNT] = {RK_RULE_NONE_ROW,
                                                             RK_AR_RULES(RK_AR_RULE_ROW_)};
RK_OP_DEFINE(apply_rotary, APPLY_ROTARY, struct rk_ar_plan, RK_AR_TENSORS, rk_ar_rules, rk_ar);
