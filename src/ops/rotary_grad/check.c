/* Validation of a rotary-gradient problem: the partial-rotary steps for dy, cos, sin and
 * dx, and this operator's own for x, dcos and dsin, in the policy's order. */
#include <stdio.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "ops/check_count.h"
#include "ops/rotary_grad/rotary_grad.h"

_Static_assert((int)RK_RG_RULE_NO_MEMORY == (int)RK_PR_RULE_NO_MEMORY,
               "a partial-rotary rule keeps its id in the rotary-gradient table");

#define RK_COUNT(rule) RK_COUNT_CHECK(RK_OP_ROTARY_GRAD, RK_RG_RULE_##rule)

struct rk_rg_ctx {
    const struct rk_rg_problem *p;
    const struct rk_rg_policy *pol;
    struct rk_pr_problem pr;
    struct rk_pr_checked *chk;
    bool with_cs; /* dcos, dsin computed */
};

/* Runs steps [from, to) of the partial-rotary policy's order. */
static ropekit_status rk_rg_pr_steps(struct rk_rg_ctx *c, size_t from, size_t to, int *rule) {
    const struct rk_pr_policy *base = c->pol->pr;
    struct rk_pr_policy part = *base;
    part.x_name = "dy";
    part.out_name = "dx";
    const enum rk_pr_step *order = base->order ? base->order : rk_pr_default_order;
    const size_t n = base->order ? base->order_len : rk_pr_default_order_len;
    if (to > n)
        to = n;
    part.order = order + from;
    part.order_len = to > from ? to - from : 0;
    return rk_pr_validate(&c->pr, &part, c->chk, rule);
}

static const char *const rk_rg_names[RK_RG_TENSORS] = {"dy", "cos",  "sin", "x",
                                                       "dx", "dcos", "dsin"};

static ropekit_status rk_rg_step_null(struct rk_rg_ctx *c, int *rule) {
    const struct rk_rg_problem *p = c->p;
    const ropekit_tensor *t[3] = {p->x, p->dcos, p->dsin};
    static const char *const name[3] = {"x", "dcos", "dsin"};
    const bool required[3] = {false, c->pol->cs_grad_required || p->x != NULL,
                              c->pol->cs_grad_required || p->x != NULL};
    RK_COUNT(NULL);
    for (int i = 0; i < 3; i++)
        if (!t[i] && required[i])
            RK_RG_FAIL(RK_RG_RULE_NULL, "%s: %s = NULL: required%s", p->api, name[i],
                       c->pol->cs_grad_required ? "" : " when x is given");
    RK_COUNT(LAYOUT);
    for (int i = 0; i < 3; i++)
        if (t[i]) {
            ropekit_status st = rk_tensor_check_layout(t[i], p->api, name[i]);
            if (st != ROPEKIT_OK) {
                *rule = RK_RG_RULE_LAYOUT;
                return st;
            }
        }
    if (p->check_data) {
        RK_COUNT(DATA_NULL);
        for (int i = 0; i < 3; i++)
            if (t[i] && (i == 0 || c->with_cs) && !t[i]->data && rk_tensor_numel(t[i]) > 0)
                RK_RG_FAIL(RK_RG_RULE_DATA_NULL,
                           "%s: %s data = NULL: a tensor with %lld elements needs data", p->api,
                           name[i], (long long)rk_tensor_numel(t[i]));
    }
    return ROPEKIT_OK;
}

static ropekit_status rk_rg_step_dtype(struct rk_rg_ctx *c, int *rule) {
    const struct rk_rg_problem *p = c->p;
    RK_COUNT(FWD_X_DTYPE);
    if (p->x && p->x->dtype != p->dy->dtype)
        RK_RG_FAIL(RK_RG_RULE_FWD_X_DTYPE, "%s: x dtype = %d: must equal dy dtype %s", p->api,
                   (int)p->x->dtype, ropekit_dtype_name(p->dy->dtype));
    RK_COUNT(CS_GRAD_DTYPE);
    const ropekit_dtype want = c->pol->cs_grad_same_dtype ? p->dy->dtype : p->cos->dtype;
    const ropekit_tensor *g[2] = {p->dcos, p->dsin};
    for (int i = 0; i < 2; i++)
        if (g[i] && g[i]->dtype != want)
            RK_RG_FAIL(RK_RG_RULE_CS_GRAD_DTYPE, "%s: %s dtype = %d: must equal %s dtype %s",
                       p->api, rk_rg_names[5 + i], (int)g[i]->dtype,
                       c->pol->cs_grad_same_dtype ? "dy" : "cos", ropekit_dtype_name(want));
    return ROPEKIT_OK;
}

static bool rk_same_shape(const ropekit_tensor *a, const ropekit_tensor *b) {
    bool same = a->ndim == b->ndim;
    for (int32_t i = 0; same && i < a->ndim; i++)
        same = a->shape[i] == b->shape[i];
    return same;
}

static ropekit_status rk_rg_step_shapes(struct rk_rg_ctx *c, int *rule) {
    const struct rk_rg_problem *p = c->p;
    char b1[96], b2[96];
    RK_COUNT(FWD_X_SHAPE);
    if (p->x && !rk_same_shape(p->x, p->dy))
        RK_RG_FAIL(RK_RG_RULE_FWD_X_SHAPE, "%s: x shape = %s: must equal dy shape %s", p->api,
                   rk_shape_str(p->x, b1, sizeof b1), rk_shape_str(p->dy, b2, sizeof b2));
    if (!c->with_cs)
        return ROPEKIT_OK;
    RK_COUNT(CS_GRAD_SHAPE);
    const ropekit_tensor *g[2] = {p->dcos, p->dsin};
    for (int i = 0; i < 2; i++)
        if (!rk_same_shape(g[i], p->cos))
            RK_RG_FAIL(RK_RG_RULE_CS_GRAD_SHAPE, "%s: %s shape = %s: must equal cos shape %s",
                       p->api, rk_rg_names[5 + i], rk_shape_str(g[i], b1, sizeof b1),
                       rk_shape_str(p->cos, b2, sizeof b2));
    /* A no-op skipped the partial-rotary shape steps; zero dcos/dsin still need cos to
     * broadcast to dy (an empty cos has nothing to write). */
    const ropekit_tensor *dy = p->dy, *cs = p->cos;
    if (!c->chk->noop || rk_tensor_numel(cs) == 0)
        return ROPEKIT_OK;
    bool fits = cs->ndim <= dy->ndim && cs->shape[cs->ndim - 1] == c->chk->len;
    for (int32_t i = 0; fits && i < cs->ndim - 1; i++)
        fits = cs->shape[i] == 1 || cs->shape[i] == dy->shape[dy->ndim - cs->ndim + i];
    if (!fits)
        RK_RG_FAIL(RK_RG_RULE_BROADCAST, "%s: cos shape = %s: does not broadcast to dy shape %s",
                   p->api, rk_shape_str(cs, b1, sizeof b1), rk_shape_str(dy, b2, sizeof b2));
    return ROPEKIT_OK;
}

static ropekit_status rk_rg_step_overlap(struct rk_rg_ctx *c, int *rule) {
    const struct rk_rg_problem *p = c->p;
    if (!c->with_cs)
        return ROPEKIT_OK;
    RK_COUNT(CS_GRAD_OVERLAP);
    const ropekit_tensor *g[2] = {p->dcos, p->dsin};
    for (int i = 0; i < 2; i++)
        if (rk_tensor_self_overlaps(g[i]))
            RK_RG_FAIL(RK_RG_RULE_CS_GRAD_OVERLAP,
                       "%s: %s strides: two elements share one address; an output must not "
                       "overlap itself",
                       p->api, rk_rg_names[5 + i]);
    if (!p->check_data)
        return ROPEKIT_OK;
    const ropekit_tensor *all[RK_RG_TENSORS] = {p->dy, p->cos,  p->sin, p->x,
                                                p->dx, p->dcos, p->dsin};
    struct rk_view_geom geom[RK_RG_TENSORS];
    const void *data[RK_RG_TENSORS];
    for (int i = 0; i < RK_RG_TENSORS; i++) {
        geom[i] = all[i] ? rk_view_geom_of(all[i]) : (struct rk_view_geom){0};
        data[i] = all[i] ? all[i]->data : NULL;
    }
    return rk_rg_check_cs_overlap(p->api, geom, data, rule);
}

ropekit_status rk_rg_check_cs_overlap(const char *api,
                                      const struct rk_view_geom geom[RK_RG_TENSORS],
                                      const void *const data[RK_RG_TENSORS], int *rule) {
    for (int i = RK_RG_DCOS; i <= RK_RG_DSIN; i++)
        for (int j = 0; j < RK_RG_TENSORS; j++) {
            if (j == i || !data[j] || (j == RK_RG_DCOS && i == RK_RG_DSIN))
                continue;
            if (rk_views_overlap(&geom[i], data[i], &geom[j], data[j]))
                RK_RG_FAIL(RK_RG_RULE_CS_GRAD_OVERLAP,
                           "%s: %s memory overlaps %s: the cos/sin gradients share memory with "
                           "no other tensor",
                           api, rk_rg_names[i], rk_rg_names[j]);
        }
    return ROPEKIT_OK;
}

ropekit_status rk_rg_validate(const struct rk_rg_problem *p, const struct rk_rg_policy *pol,
                              struct rk_pr_checked *chk, int *rule) {
    struct rk_rg_ctx c = {
        .p = p,
        .pol = pol,
        .pr = {.api = p->api,
               .x = p->dy,
               .cos = p->cos,
               .sin = p->sin,
               .out = p->dx,
               .with_out = true,
               .mode = p->mode,
               .direction = ROPEKIT_BACKWARD,
               .slice = p->slice,
               .slice_len = p->slice ? 2 : 0,
               .whole_row = p->slice == NULL,
               .missing_arg = p->missing_arg,
               .check_data = p->check_data},
        .chk = chk,
        .with_cs = p->x != NULL,
    };
    *rule = RK_RG_RULE_NONE;
    for (size_t i = 0; i < pol->order_len; i++) {
        ropekit_status st = ROPEKIT_OK;
        switch (pol->order[i]) {
        case RK_RG_STEP_PR_NULL:
            st = rk_rg_pr_steps(&c, 0, 1, rule);
            break;
        case RK_RG_STEP_PR_DTYPE:
            st = rk_rg_pr_steps(&c, 1, 2, rule);
            break;
        case RK_RG_STEP_PR_REST:
            st = rk_rg_pr_steps(&c, 2, (size_t)-1, rule);
            break;
        case RK_RG_STEP_NULL:
            st = rk_rg_step_null(&c, rule);
            break;
        case RK_RG_STEP_DTYPE:
            st = rk_rg_step_dtype(&c, rule);
            break;
        case RK_RG_STEP_SHAPES:
            st = rk_rg_step_shapes(&c, rule);
            break;
        case RK_RG_STEP_OVERLAP:
            st = rk_rg_step_overlap(&c, rule);
            break;
        case RK_RG_STEP_COUNT:
            break;
        }
        if (st != ROPEKIT_OK)
            return st;
    }
    return ROPEKIT_OK;
}
