/* Validation of a rotary-matrix problem, in the operator's one order (SPEC §15.4): the
 * descriptors, the dtypes, the exit of an empty x (which the shape rules do not bind),
 * then the mode and the shapes, the overlaps last. Nothing here touches tensor contents. */
#include <stdio.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "kernels/dispatch.h"
#include "ops/check_count.h"
#include "ops/partial_rotary/partial_rotary.h"
#include "ops/rotary_matrix/check.h"

#define RK_COUNT(rule) RK_COUNT_CHECK(RK_OP_ROTARY_MATRIX, RK_RM_RULE_##rule)

static const char *const rk_rm_names[RK_RM_TENSORS] = {"x", "cos", "sin", "rotate", "out"};

const char *rk_rm_name(int slot) {
    return rk_rm_names[slot];
}

static const char *rk_dtype_list(unsigned mask) {
    return (mask >> RK_KDT_F64) & 1u ? "float32, float16, bfloat16 or float64"
                                     : "float32, float16 or bfloat16";
}

/* Rows NULL, LAYOUT, DATA_NULL. */
static ropekit_status rk_step_null(const struct rk_rm_ctx *c, int *rule) {
    const char *api = c->p->api;
    RK_COUNT(NULL);
    for (int i = 0; i < RK_RM_TENSORS; i++)
        if (!c->t[i])
            RK_RM_FAIL(RK_RM_RULE_NULL, "%s: %s = NULL: required", api, rk_rm_names[i]);
    if (c->p->missing_arg)
        RK_RM_FAIL(RK_RM_RULE_NULL, "%s: %s = NULL: required", api, c->p->missing_arg);
    RK_COUNT(LAYOUT);
    for (int i = 0; i < RK_RM_TENSORS; i++) {
        ropekit_status st = rk_tensor_check_layout(c->t[i], api, rk_rm_names[i]);
        if (st != ROPEKIT_OK) {
            *rule = RK_RM_RULE_LAYOUT;
            return st;
        }
    }
    if (c->p->check_data) {
        RK_COUNT(DATA_NULL);
        for (int i = 0; i < RK_RM_TENSORS; i++)
            if (c->t[i]->data == NULL && rk_tensor_numel(c->t[i]) > 0)
                RK_RM_FAIL(RK_RM_RULE_DATA_NULL,
                           "%s: %s data = NULL: a tensor with %lld elements needs data", api,
                           rk_rm_names[i], (long long)rk_tensor_numel(c->t[i]));
    }
    return ROPEKIT_OK;
}

/* Rows X_DTYPE, DTYPE. */
static ropekit_status rk_step_dtype(const struct rk_rm_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_dtype xd = c->t[RK_RM_X]->dtype;
    const int xk = rk_kdtype_of(xd);
    RK_COUNT(X_DTYPE);
    if (xk < 0 || !((c->pol->dtype_mask >> xk) & 1u))
        RK_RM_FAIL(RK_RM_RULE_X_DTYPE, "%s: x dtype = %d: must be %s", api, (int)xd,
                   rk_dtype_list(c->pol->dtype_mask));
    RK_COUNT(DTYPE);
    for (int i = RK_RM_COS; i < RK_RM_TENSORS; i++)
        if (c->t[i]->dtype != xd)
            RK_RM_FAIL(RK_RM_RULE_DTYPE, "%s: %s dtype = %d: must equal x dtype %s", api,
                       rk_rm_names[i], (int)c->t[i]->dtype, ropekit_dtype_name(xd));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_mode(const struct rk_rm_ctx *c, int *rule) {
    const int64_t mode = c->p->mode;
    const unsigned mask = c->pol->mode_mask;
    char buf[96];
    if (!mask)
        return ROPEKIT_OK;
    RK_COUNT(MODE);
    if (mode >= 0 && mode < 32 && ((mask >> mode) & 1u))
        return ROPEKIT_OK;
    RK_RM_FAIL(RK_RM_RULE_MODE, "%s: mode = %lld: must be %s", c->p->api, (long long)mode,
               rk_pr_mode_list(mask, buf, sizeof buf));
}

static bool rk_same_shape(const ropekit_tensor *a, const ropekit_tensor *b) {
    bool same = a->ndim == b->ndim;
    for (int32_t i = 0; same && i < a->ndim; i++)
        same = a->shape[i] == b->shape[i];
    return same;
}

/* Rows RANK, OUT_SHAPE. */
static ropekit_status rk_step_ranks(const struct rk_rm_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_tensor *x = c->t[RK_RM_X], *r = c->t[RK_RM_ROTATE];
    char b1[96], b2[96];
    RK_COUNT(RANK);
    if (c->pol->rank > 0) {
        for (int i = 0; i < RK_RM_TENSORS; i++)
            if (i != RK_RM_ROTATE && c->t[i]->ndim != c->pol->rank)
                RK_RM_FAIL(RK_RM_RULE_RANK, "%s: %s shape = %s: must be %d-D", api, rk_rm_names[i],
                           rk_shape_str(c->t[i], b1, sizeof b1), (int)c->pol->rank);
    } else {
        if (x->ndim < 1)
            RK_RM_FAIL(RK_RM_RULE_RANK, "%s: x rank = 0: needs at least one dimension", api);
        for (int i = RK_RM_COS; i <= RK_RM_SIN; i++)
            if (c->t[i]->ndim != x->ndim)
                RK_RM_FAIL(RK_RM_RULE_RANK, "%s: %s rank = %d: must be x's rank %d", api,
                           rk_rm_names[i], (int)c->t[i]->ndim, (int)x->ndim);
    }
    if (r->ndim != 2)
        RK_RM_FAIL(RK_RM_RULE_RANK, "%s: rotate shape = %s: must be 2-D", api,
                   rk_shape_str(r, b1, sizeof b1));
    RK_COUNT(OUT_SHAPE);
    if (!rk_same_shape(c->t[RK_RM_OUT], x))
        RK_RM_FAIL(RK_RM_RULE_OUT_SHAPE, "%s: out shape = %s: must equal x shape %s", api,
                   rk_shape_str(c->t[RK_RM_OUT], b1, sizeof b1), rk_shape_str(x, b2, sizeof b2));
    return ROPEKIT_OK;
}

/* Rows MAX_D, D_EVEN, CS_SHAPE, ROTATE_SHAPE, CS_LEN. */
static ropekit_status rk_step_d(const struct rk_rm_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_tensor *x = c->t[RK_RM_X], *cs = c->t[RK_RM_COS], *r = c->t[RK_RM_ROTATE];
    const int64_t d = x->shape[x->ndim - 1];
    char b1[96], b2[96];
    if (c->pol->max_d > 0) {
        RK_COUNT(MAX_D);
        if (d > c->pol->max_d)
            RK_RM_FAIL(RK_RM_RULE_MAX_D, "%s: x last dim D = %lld: must be at most %lld", api,
                       (long long)d, (long long)c->pol->max_d);
    }
    if (c->pol->require_d_even) {
        RK_COUNT(D_EVEN);
        if (d % 2 != 0)
            RK_RM_FAIL(RK_RM_RULE_D_EVEN, "%s: x last dim D = %lld: must be even", api,
                       (long long)d);
    }
    RK_COUNT(CS_SHAPE);
    if (!rk_same_shape(c->t[RK_RM_SIN], cs))
        RK_RM_FAIL(RK_RM_RULE_CS_SHAPE, "%s: sin shape = %s: must equal cos shape %s", api,
                   rk_shape_str(c->t[RK_RM_SIN], b1, sizeof b1), rk_shape_str(cs, b2, sizeof b2));
    RK_COUNT(ROTATE_SHAPE);
    if (r->shape[0] != d || r->shape[1] != d)
        RK_RM_FAIL(RK_RM_RULE_ROTATE_SHAPE, "%s: rotate shape = %s: must be [D, D] = [%lld,%lld]",
                   api, rk_shape_str(r, b1, sizeof b1), (long long)d, (long long)d);
    RK_COUNT(CS_LEN);
    if (cs->shape[cs->ndim - 1] != d)
        RK_RM_FAIL(RK_RM_RULE_CS_LEN, "%s: cos last dim = %lld: must equal x last dim D = %lld",
                   api, (long long)cs->shape[cs->ndim - 1], (long long)d);
    return ROPEKIT_OK;
}

/* Row BROADCAST: each leading dim of cos 1 or x's; with the policy's interleave_bcast,
 * mode 1 takes cos that broadcasts over two of the three leading dims (x's dims of size
 * 1 count as either). */
static ropekit_status rk_step_broadcast(const struct rk_rm_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_tensor *x = c->t[RK_RM_X], *cs = c->t[RK_RM_COS];
    char b1[96], b2[96];
    RK_COUNT(BROADCAST);
    for (int32_t i = 0; i + 1 < x->ndim; i++)
        if (cs->shape[i] != 1 && cs->shape[i] != x->shape[i])
            RK_RM_FAIL(RK_RM_RULE_BROADCAST, "%s: cos shape = %s: dim %d must be 1 or x's %lld",
                       api, rk_shape_str(cs, b1, sizeof b1), (int)i, (long long)x->shape[i]);
    if (c->pol->interleave_bcast && c->p->mode == ROPEKIT_ROTARY_INTERLEAVE && x->ndim == 4) {
        int kept = 0;
        for (int32_t i = 0; i < 3; i++)
            kept += cs->shape[i] == x->shape[i] && x->shape[i] != 1;
        if (kept > 1)
            RK_RM_FAIL(RK_RM_RULE_BROADCAST,
                       "%s: cos shape = %s against x shape %s: in interleave mode cos must "
                       "broadcast over two of x's three leading dims ([1,1,S,D], [1,S,1,D] or "
                       "[S,1,1,D])",
                       api, rk_shape_str(cs, b1, sizeof b1), rk_shape_str(x, b2, sizeof b2));
    }
    return ROPEKIT_OK;
}

ropekit_status rk_rm_check_overlap(const char *api, const struct rk_view_geom geom[RK_RM_TENSORS],
                                   const void *const data[RK_RM_TENSORS], bool in_place,
                                   int *rule) {
    for (int i = 0; i < RK_RM_OUT; i++) {
        if (i == RK_RM_X && in_place)
            continue;
        if (rk_views_overlap(&geom[RK_RM_OUT], data[RK_RM_OUT], &geom[i], data[i]))
            RK_RM_FAIL(RK_RM_RULE_OVERLAP,
                       "%s: out memory overlaps %s: out must be x itself (in place) or share no "
                       "memory with the inputs",
                       api, rk_rm_names[i]);
    }
    return ROPEKIT_OK;
}

/* Row OVERLAP: out does not overlap itself; with data, out is x's view or disjoint from
 * it, and disjoint from cos, sin and rotate. */
static ropekit_status rk_step_overlap(const struct rk_rm_ctx *c, int *rule) {
    RK_COUNT(OVERLAP);
    if (rk_tensor_self_overlaps(c->t[RK_RM_OUT]))
        RK_RM_FAIL(RK_RM_RULE_OVERLAP,
                   "%s: out strides: two elements share one address; an output must not "
                   "overlap itself",
                   c->p->api);
    for (int i = 0; i < RK_RM_TENSORS; i++)
        c->geom[i] = rk_view_geom_of(c->t[i]);
    if (!c->p->check_data)
        return ROPEKIT_OK;
    const void *data[RK_RM_TENSORS];
    for (int i = 0; i < RK_RM_TENSORS; i++)
        data[i] = c->t[i]->data;
    return rk_rm_check_overlap(c->p->api, c->geom, data,
                               rk_rm_same_view(c->t[RK_RM_X], c->t[RK_RM_OUT]), rule);
}

bool rk_rm_same_view(const ropekit_tensor *x, const ropekit_tensor *out) {
    if (x->data != out->data || x->ndim != out->ndim)
        return false;
    for (int32_t i = 0; i < x->ndim; i++)
        if (x->shape[i] != out->shape[i] || (x->shape[i] > 1 && x->strides[i] != out->strides[i]))
            return false;
    return true;
}

ropekit_status rk_rm_validate(const struct rk_rm_ctx *c, bool *empty, int *rule) {
    typedef ropekit_status (*step_fn)(const struct rk_rm_ctx *, int *);
    static const step_fn head[] = {rk_step_null, rk_step_dtype};
    static const step_fn tail[] = {rk_step_mode, rk_step_ranks, rk_step_d, rk_step_broadcast,
                                   rk_step_overlap};
    *rule = RK_RM_RULE_NONE;
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++) {
        ropekit_status st = head[i](c, rule);
        if (st != ROPEKIT_OK)
            return st;
    }
    *empty = rk_tensor_numel(c->t[RK_RM_X]) == 0;
    if (*empty)
        return ROPEKIT_OK;
    for (size_t i = 0; i < sizeof tail / sizeof tail[0]; i++) {
        ropekit_status st = tail[i](c, rule);
        if (st != ROPEKIT_OK)
            return st;
    }
    return ROPEKIT_OK;
}
