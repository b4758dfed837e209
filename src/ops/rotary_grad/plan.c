/* Rotary gradient: plan (dx as partial-rotary rows run backward out of place, dcos/dsin as
 * sums per cos/sin row) and run, both in one split of tasks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/parallel.h"
#include "ops/check_count.h"
#include "ops/rotary_grad/rotary_grad.h"

ropekit_status rk_rg_make(const void *problem, const void *policy, void *plan, int *rule) {
    const struct rk_rg_problem *p = problem;
    const struct rk_rg_policy *pol = policy;
    struct rk_rg_plan *pl = memset(plan, 0, sizeof(struct rk_rg_plan));
    struct rk_pr_checked chk = {.geom = pl->dx.geom};
    ropekit_status st = rk_rg_validate(p, pol, &chk, rule);
    if (st != ROPEKIT_OK)
        return st;
    const struct rk_pr_problem pp = {.api = p->api,
                                     .x = p->dy,
                                     .cos = p->cos,
                                     .sin = p->sin,
                                     .out = p->dx,
                                     .with_out = true,
                                     .mode = p->mode,
                                     .direction = ROPEKIT_BACKWARD};
    st = rk_pr_plan_checked(&pl->dx, &pp, "dy", &chk, rule);
    if (st != ROPEKIT_OK)
        return st;
    if (p->x && rk_tensor_numel(p->cos) > 0) { /* an empty cos: no dcos/dsin to write */
        rk_csg_plan_make(&pl->cs, p, chk.start, chk.len);
        pl->cs.geom_x = rk_view_geom_of(p->x);
        pl->cs.geom_dcos = rk_view_geom_of(p->dcos);
        pl->cs.geom_dsin = rk_view_geom_of(p->dsin);
    }
    pl->tasks = (pl->dx.noop ? 0 : pl->dx.tasks) + pl->cs.tasks;
    pl->threads = pl->dx.noop ? 1 : pl->dx.threads;
    if (pl->cs.threads > pl->threads)
        pl->threads = pl->cs.threads;
    return ROPEKIT_OK;
}

/* dy, cos, sin, dx in the partial-rotary plan's slots. */
static struct rk_op_data rk_rg_dx_data(const struct rk_op_data *data) {
    return (struct rk_op_data){
        {data->ptr[RK_RG_DY], data->ptr[RK_RG_COS], data->ptr[RK_RG_SIN], data->ptr[RK_RG_DX]}};
}

ropekit_status rk_rg_check_data(const void *plan, const char *api, const struct rk_op_data *data,
                                int *rule) {
    const struct rk_rg_plan *pl = plan;
    const struct rk_op_data dx = rk_rg_dx_data(data);
    ropekit_status st = rk_pr_check_data(&pl->dx, api, &dx, rule);
    if (st != ROPEKIT_OK || !pl->cs.active)
        return st;
    const struct rk_csg_plan *cs = &pl->cs;
    RK_COUNT_CHECK(RK_OP_ROTARY_GRAD, RK_RG_RULE_DATA_NULL);
    const bool x_read = cs->reduced > 0 && cs->groups > 0;
    const bool written = cs->groups > 0;
    if ((x_read && !data->ptr[RK_RG_X]) || (written && !data->ptr[RK_RG_DCOS]) ||
        (written && !data->ptr[RK_RG_DSIN]))
        RK_RG_FAIL(RK_RG_RULE_DATA_NULL, "%s: %s data = NULL: required", api,
                   x_read && !data->ptr[RK_RG_X] ? "x"
                   : !data->ptr[RK_RG_DCOS]      ? "dcos"
                                                 : "dsin");
    RK_COUNT_CHECK(RK_OP_ROTARY_GRAD, RK_RG_RULE_CS_GRAD_OVERLAP);
    const struct rk_view_geom geom[RK_RG_TENSORS] = {pl->dx.geom[0], pl->dx.geom[1], pl->dx.geom[2],
                                                     cs->geom_x,     pl->dx.geom[3], cs->geom_dcos,
                                                     cs->geom_dsin};
    const void *const ptrs[RK_RG_TENSORS] = {data->ptr[0], data->ptr[1], data->ptr[2], data->ptr[3],
                                             data->ptr[4], data->ptr[5], data->ptr[6]};
    return rk_rg_check_cs_overlap(api, geom, ptrs, rule);
}

struct rk_rg_run {
    const struct rk_rg_plan *plan;
    struct rk_pr_run dx;
    const char *x, *dy;
    char *dcos, *dsin;
    double *scratch; /* cs.tasks * rk_csg_scratch_bytes */
};

static void rk_rg_dx_task(void *ctx, int64_t task) {
    const struct rk_rg_run *run = ctx;
    rk_pr_run_task(&run->plan->dx, &run->dx, task);
}

static void rk_rg_cs_task(void *ctx, int64_t task) {
    const struct rk_rg_run *run = ctx;
    const struct rk_csg_plan *cs = &run->plan->cs;
    const int64_t per = rk_csg_scratch_bytes(cs) / (int64_t)sizeof(double);
    rk_csg_run_task(cs, run->x, run->dy, run->dcos, run->dsin, run->scratch + task * per, task);
}

ropekit_status rk_rg_run(const void *plan, const char *api, const struct rk_op_data *data,
                         int *rule) {
    const struct rk_rg_plan *pl = plan;
    *rule = RK_RG_RULE_NONE;
    if (pl->tasks == 0)
        return ROPEKIT_OK;
    struct rk_rg_run run = {
        .plan = pl,
        .dx = {&pl->dx, data->ptr[RK_RG_DY], data->ptr[RK_RG_DX], data->ptr[RK_RG_COS],
               data->ptr[RK_RG_SIN], NULL},
        .x = data->ptr[RK_RG_X],
        .dy = data->ptr[RK_RG_DY],
        .dcos = data->ptr[RK_RG_DCOS],
        .dsin = data->ptr[RK_RG_DSIN],
    };
    const int64_t dx_scratch = pl->dx.noop ? 0 : pl->dx.tasks * pl->dx.scratch_bytes;
    if (pl->dx.scratch_bytes > RK_PR_STACK_SCRATCH && dx_scratch > 0) {
        run.dx.heap_scratch = malloc((size_t)dx_scratch);
        if (!run.dx.heap_scratch)
            RK_RG_FAIL(RK_RG_RULE_NO_MEMORY, "%s: scratch of %lld bytes: out of memory", api,
                       (long long)dx_scratch);
    }
    if (pl->cs.tasks > 0) {
        const int64_t bytes = pl->cs.tasks * rk_csg_scratch_bytes(&pl->cs);
        run.scratch = malloc(bytes > 0 ? (size_t)bytes : 1);
        if (!run.scratch) {
            free(run.dx.heap_scratch);
            RK_RG_FAIL(RK_RG_RULE_NO_MEMORY, "%s: scratch of %lld bytes: out of memory", api,
                       (long long)bytes);
        }
    }
    /* the sums read dy and x before dx is written: dx may be dy (in place) or x */
    if (pl->cs.tasks > 0)
        rk_parallel_for(pl->cs.tasks, pl->cs.threads, rk_rg_cs_task, &run);
    if (!pl->dx.noop)
        rk_parallel_for(pl->dx.tasks, pl->dx.threads, rk_rg_dx_task, &run);
    free(run.dx.heap_scratch);
    free(run.scratch);
    return ROPEKIT_OK;
}

size_t rk_rg_describe(const void *plan, char *buf, size_t len) {
    const struct rk_rg_plan *pl = plan;
    const struct rk_pr_plan *dx = &pl->dx;
    char xb[96], cb[96];
    rk_shape_format(&dx->x_shape, xb, sizeof xb);
    rk_shape_format(&dx->cs_shape, cb, sizeof cb);
    int n =
        snprintf(buf, len,
                 "rotary_grad mode=%s dy=%s%s cos/sin=%s%s dx: %s%s dcos/dsin: %s (%lld rows, %lld "
                 "summed each) tasks=%lld threads=%d",
                 ropekit_rotary_mode_name((ropekit_rotary_mode)dx->mode),
                 ropekit_dtype_name(dx->x_dtype), xb, ropekit_dtype_name(dx->cs_dtype), cb,
                 dx->noop ? "none" : "kernel=", dx->noop ? "" : dx->kernel_name,
                 pl->cs.active ? "float64 sums" : "not asked", (long long)pl->cs.groups,
                 (long long)pl->cs.reduced, (long long)pl->tasks, pl->threads);
    return n < 0 ? 0 : (size_t)n;
}

void rk_rg_release(void *plan) {
    (void)plan; /* a rotary-gradient plan owns nothing */
}

/* ---- The descriptor ---- */

#define RK_RG_RULE_ROW_(rule, status, meaning)                                                     \
    RK_RULE_ROW(RK_RG_RULE_##rule, #rule, status, meaning),
static const struct rk_rule rk_rg_rules[RK_RG_RULE_COUNT] = {RK_RULE_NONE_ROW,
                                                             RK_RG_RULES(RK_RG_RULE_ROW_)};
RK_OP_DEFINE(rotary_grad, ROTARY_GRAD, struct rk_rg_plan, RK_RG_TENSORS, rk_rg_rules, rk_rg);
