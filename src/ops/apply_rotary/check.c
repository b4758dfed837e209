/* Validation of an apply-rotary problem, in the operator's one order (SPEC §14.4). Steps
 * a policy does not use (a layout's dims without a layout, D without a required value)
 * are not counted. Nothing here touches tensor contents. */
#include <stdio.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "kernels/dispatch.h"
#include "ops/apply_rotary/apply_rotary.h"
#include "ops/apply_rotary/check.h"
#include "ops/check_count.h"

#define RK_COUNT(rule) RK_COUNT_CHECK(RK_OP_APPLY_ROTARY, RK_AR_RULE_##rule)

/* The position of N in a 4-D tensor of a layout, and the names of its dims. */
static int rk_layout_n(int64_t layout) {
    return layout == RK_AR_BNSD ? 1 : 2;
}
static const char *rk_layout_name(int64_t layout) {
    return layout == RK_AR_BSND ? "BSND" : layout == RK_AR_SBND ? "SBND" : "BNSD";
}
static char rk_layout_dim(int64_t layout, int dim) {
    return rk_layout_name(layout)[dim];
}

static const char *rk_layout_list(unsigned mask, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (int l = 1; l <= RK_AR_LAYOUT_LAST && used < len; l++)
        if ((mask >> l) & 1u)
            used += (size_t)snprintf(buf + used, len - used, "%s%d (%s)", used ? ", " : "", l,
                                     rk_layout_name(l));
    return buf;
}

static bool rk_x_dtype_ok(unsigned mask, int k) {
    for (int c = 0; c < RK_KDT_COUNT; c++)
        if (k >= 0 && (mask & RK_PR_PAIR(k, c)))
            return true;
    return false;
}

static bool rk_cs_dtype_ok(unsigned mask, int c) {
    for (int x = 0; x < RK_KDT_COUNT; x++)
        if (c >= 0 && (mask & RK_PR_PAIR(x, c)))
            return true;
    return false;
}

static const char *rk_float_names(unsigned mask) {
    return rk_x_dtype_ok(mask, RK_KDT_F64) ? "float32, float16, bfloat16 or float64"
                                           : "float32, float16 or bfloat16";
}

/* Rows NULL, LAYOUT, DATA_NULL. */
static ropekit_status rk_step_null(const struct rk_ar_ctx *c, int *rule) {
    const char *api = c->p->api;
    RK_COUNT(NULL);
    for (int i = 0; i < RK_AR_TENSORS; i++)
        if (!c->t[i])
            RK_AR_FAIL(RK_AR_RULE_NULL, "%s: %s = NULL: required", api, c->name[i]);
    if (c->p->missing_arg)
        RK_AR_FAIL(RK_AR_RULE_NULL, "%s: %s = NULL: required", api, c->p->missing_arg);
    RK_COUNT(LAYOUT);
    for (int i = 0; i < RK_AR_TENSORS; i++) {
        ropekit_status st = rk_tensor_check_layout(c->t[i], api, c->name[i]);
        if (st != ROPEKIT_OK) {
            *rule = RK_AR_RULE_LAYOUT;
            return st;
        }
    }
    if (c->p->check_data) {
        RK_COUNT(DATA_NULL);
        for (int i = 0; i < RK_AR_TENSORS; i++)
            if (c->t[i]->data == NULL && rk_tensor_numel(c->t[i]) > 0)
                RK_AR_FAIL(RK_AR_RULE_DATA_NULL,
                           "%s: %s data = NULL: a tensor with %lld elements needs data", api,
                           c->name[i], (long long)rk_tensor_numel(c->t[i]));
    }
    return ROPEKIT_OK;
}

/* Rows Q_DTYPE, DTYPE. */
static ropekit_status rk_step_dtype(const struct rk_ar_ctx *c, int *rule) {
    const char *api = c->p->api;
    const unsigned mask = c->pol->pair_mask;
    const ropekit_dtype qd = c->t[RK_AR_Q]->dtype;
    const int qk = rk_kdtype_of(qd), kk = rk_kdtype_of(c->t[RK_AR_K]->dtype);
    const int ck = rk_kdtype_of(c->t[RK_AR_COS]->dtype);
    RK_COUNT(Q_DTYPE);
    if (!rk_x_dtype_ok(mask, qk))
        RK_AR_FAIL(RK_AR_RULE_Q_DTYPE, "%s: %s dtype = %d: must be %s", api, c->name[RK_AR_Q],
                   (int)qd, rk_float_names(mask));
    RK_COUNT(DTYPE);
    if (c->pol->same_dtype) {
        for (int i = RK_AR_K; i < RK_AR_TENSORS; i++)
            if (c->t[i]->dtype != qd)
                RK_AR_FAIL(RK_AR_RULE_DTYPE, "%s: %s dtype = %d: must equal %s dtype %s", api,
                           c->name[i], (int)c->t[i]->dtype, c->name[RK_AR_Q],
                           ropekit_dtype_name(qd));
        return ROPEKIT_OK;
    }
    if (!rk_x_dtype_ok(mask, kk))
        RK_AR_FAIL(RK_AR_RULE_DTYPE, "%s: %s dtype = %d: must be %s", api, c->name[RK_AR_K],
                   (int)c->t[RK_AR_K]->dtype, rk_float_names(mask));
    if (!rk_cs_dtype_ok(mask, ck))
        RK_AR_FAIL(RK_AR_RULE_DTYPE, "%s: cos dtype = %d: must be %s", api,
                   (int)c->t[RK_AR_COS]->dtype, rk_float_names(mask));
    if (c->t[RK_AR_SIN]->dtype != c->t[RK_AR_COS]->dtype)
        RK_AR_FAIL(RK_AR_RULE_DTYPE, "%s: sin dtype = %d: must equal cos dtype %s", api,
                   (int)c->t[RK_AR_SIN]->dtype, ropekit_dtype_name(c->t[RK_AR_COS]->dtype));
    for (int i = RK_AR_Q; i <= RK_AR_K; i++) {
        int xk = i == RK_AR_Q ? qk : kk;
        if (!(mask & RK_PR_PAIR(xk, ck)))
            RK_AR_FAIL(RK_AR_RULE_DTYPE,
                       "%s: (%s, cos) dtypes = (%s, %s): float64 goes with float64 only", api,
                       c->name[i], ropekit_dtype_name(c->t[i]->dtype),
                       ropekit_dtype_name(c->t[RK_AR_COS]->dtype));
    }
    return ROPEKIT_OK;
}

/* Rows RANK, CS_SHAPE. */
static ropekit_status rk_step_shapes(const struct rk_ar_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_tensor *q = c->t[RK_AR_Q], *k = c->t[RK_AR_K];
    const ropekit_tensor *cs = c->t[RK_AR_COS], *sn = c->t[RK_AR_SIN];
    char b1[96], b2[96];
    RK_COUNT(RANK);
    if (c->pol->rank > 0) {
        for (int i = 0; i < RK_AR_TENSORS; i++)
            if (c->t[i]->ndim != c->pol->rank)
                RK_AR_FAIL(RK_AR_RULE_RANK, "%s: %s shape = %s: must be %d-D", api, c->name[i],
                           rk_shape_str(c->t[i], b1, sizeof b1), (int)c->pol->rank);
    } else {
        for (int i = RK_AR_Q; i <= RK_AR_K; i++)
            if (c->t[i]->ndim < 1)
                RK_AR_FAIL(RK_AR_RULE_RANK, "%s: %s rank = 0: needs at least one dimension", api,
                           c->name[i]);
        int32_t most = q->ndim < k->ndim ? q->ndim : k->ndim;
        if (cs->ndim < 1 || cs->ndim > most)
            RK_AR_FAIL(RK_AR_RULE_RANK,
                       "%s: cos rank = %d: must be in [1, %d] (the ranks of %s and %s)", api,
                       (int)cs->ndim, (int)most, c->name[RK_AR_Q], c->name[RK_AR_K]);
    }
    RK_COUNT(CS_SHAPE);
    bool same = cs->ndim == sn->ndim;
    for (int32_t i = 0; same && i < cs->ndim; i++)
        same = cs->shape[i] == sn->shape[i];
    if (!same)
        RK_AR_FAIL(RK_AR_RULE_CS_SHAPE, "%s: sin shape = %s: must equal cos shape %s", api,
                   rk_shape_str(sn, b1, sizeof b1), rk_shape_str(cs, b2, sizeof b2));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_empty(const struct rk_ar_ctx *c, int *rule) {
    char b[96];
    if (!c->pol->refuse_empty)
        return ROPEKIT_OK;
    RK_COUNT(EMPTY);
    for (int i = 0; i < RK_AR_TENSORS; i++)
        if (rk_tensor_numel(c->t[i]) == 0)
            RK_AR_FAIL(RK_AR_RULE_EMPTY, "%s: %s shape = %s: must not be empty", c->p->api,
                       c->name[i], rk_shape_str(c->t[i], b, sizeof b));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_layout(const struct rk_ar_ctx *c, int *rule) {
    const int64_t layout = c->p->layout;
    char b[96];
    if (!c->pol->layout_mask)
        return ROPEKIT_OK;
    RK_COUNT(LAYOUT_VALUE);
    if (layout < 1 || layout > RK_AR_LAYOUT_LAST || !((c->pol->layout_mask >> layout) & 1u))
        RK_AR_FAIL(RK_AR_RULE_LAYOUT_VALUE, "%s: layout = %lld: must be %s", c->p->api,
                   (long long)layout, rk_layout_list(c->pol->layout_mask, b, sizeof b));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_mode(const struct rk_ar_ctx *c, int *rule) {
    const int64_t mode = c->p->mode;
    const struct rk_ar_policy *pol = c->pol;
    char buf[96];
    RK_COUNT(MODE);
    if (mode >= 0 && mode < RK_ROT_MODE_COUNT && ((pol->mode_mask >> mode) & 1u))
        return ROPEKIT_OK;
    const char *rule_text = pol->mode_rule ? pol->mode_rule : "";
    if (!pol->mode_rule)
        rule_text = rk_pr_mode_list(pol->mode_mask, buf, sizeof buf);
    if (c->p->mode_text)
        RK_AR_FAIL(RK_AR_RULE_MODE, "%s: %s = \"%s\": must be %s", c->p->api, pol->mode_name,
                   c->p->mode_text, rule_text);
    RK_AR_FAIL(RK_AR_RULE_MODE, "%s: %s = %lld: must be %s", c->p->api, pol->mode_name,
               (long long)mode, rule_text);
}

/* Rows QK_SHAPE and CS_DIMS: with a layout, query and key agree but in N and cos agrees
 * with query but in N; without, cos's last dim is query's and key's D. */
static ropekit_status rk_step_dims(const struct rk_ar_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_tensor *q = c->t[RK_AR_Q], *k = c->t[RK_AR_K], *cs = c->t[RK_AR_COS];
    char b1[96], b2[96];
    if (c->pol->layout_mask) {
        const int n = rk_layout_n(c->p->layout);
        RK_COUNT(QK_SHAPE);
        for (int d = 0; d < 4; d++)
            if (d != n && k->shape[d] != q->shape[d])
                RK_AR_FAIL(RK_AR_RULE_QK_SHAPE,
                           "%s: %s shape = %s: dim %d (%c of %s) is %lld, must equal %s's %lld "
                           "(%s shape %s)",
                           api, c->name[RK_AR_K], rk_shape_str(k, b1, sizeof b1), d,
                           rk_layout_dim(c->p->layout, d), rk_layout_name(c->p->layout),
                           (long long)k->shape[d], c->name[RK_AR_Q], (long long)q->shape[d],
                           c->name[RK_AR_Q], rk_shape_str(q, b2, sizeof b2));
        RK_COUNT(CS_DIMS);
        for (int d = 0; d < 4; d++)
            if (d != n && cs->shape[d] != q->shape[d])
                RK_AR_FAIL(RK_AR_RULE_CS_DIMS,
                           "%s: cos shape = %s: dim %d (%c of %s) is %lld, must equal %s's %lld "
                           "(%s shape %s)",
                           api, rk_shape_str(cs, b1, sizeof b1), d, rk_layout_dim(c->p->layout, d),
                           rk_layout_name(c->p->layout), (long long)cs->shape[d], c->name[RK_AR_Q],
                           (long long)q->shape[d], c->name[RK_AR_Q],
                           rk_shape_str(q, b2, sizeof b2));
        return ROPEKIT_OK;
    }
    RK_COUNT(CS_DIMS);
    const int64_t cd = cs->shape[cs->ndim - 1];
    for (int i = RK_AR_Q; i <= RK_AR_K; i++) {
        const int64_t d = c->t[i]->shape[c->t[i]->ndim - 1];
        if (d != cd)
            RK_AR_FAIL(RK_AR_RULE_CS_DIMS,
                       "%s: %s last dim D = %lld: must equal cos last dim %lld (cos shape %s)", api,
                       c->name[i], (long long)d, (long long)cd, rk_shape_str(cs, b1, sizeof b1));
    }
    return ROPEKIT_OK;
}

static ropekit_status rk_step_d(const struct rk_ar_ctx *c, int *rule) {
    const ropekit_tensor *q = c->t[RK_AR_Q];
    const int64_t d = q->shape[q->ndim - 1];
    if (c->pol->d_value) {
        RK_COUNT(D_VALUE);
        if (d != c->pol->d_value)
            RK_AR_FAIL(RK_AR_RULE_D_VALUE, "%s: %s last dim D = %lld: must be %lld", c->p->api,
                       c->name[RK_AR_Q], (long long)d, (long long)c->pol->d_value);
    }
    RK_COUNT(D_MULTIPLE);
    const int64_t multiple = c->p->mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2;
    if (d % multiple != 0)
        RK_AR_FAIL(RK_AR_RULE_D_MULTIPLE,
                   "%s: %s last dim D = %lld: must be a multiple of %lld in %s mode", c->p->api,
                   c->name[RK_AR_Q], (long long)d, (long long)multiple,
                   ropekit_rotary_mode_name((ropekit_rotary_mode)c->p->mode));
    return ROPEKIT_OK;
}

/* Rows CS_N (with a layout) and BROADCAST (every policy: with a layout the rows before
 * have made it hold). */
static ropekit_status rk_step_broadcast(const struct rk_ar_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_tensor *cs = c->t[RK_AR_COS];
    char b1[96], b2[96];
    if (c->pol->layout_mask) {
        const int n = rk_layout_n(c->p->layout);
        RK_COUNT(CS_N);
        if (cs->shape[n] != 1)
            RK_AR_FAIL(RK_AR_RULE_CS_N, "%s: cos shape = %s: dim %d (N of %s) is %lld, must be 1",
                       api, rk_shape_str(cs, b1, sizeof b1), n, rk_layout_name(c->p->layout),
                       (long long)cs->shape[n]);
    }
    RK_COUNT(BROADCAST);
    for (int i = RK_AR_Q; i <= RK_AR_K; i++) {
        const ropekit_tensor *x = c->t[i];
        const int32_t off = x->ndim - cs->ndim;
        for (int32_t d = 0; d + 1 < cs->ndim; d++) {
            int64_t cd = cs->shape[d], xd = x->shape[d + off];
            if (cd != 1 && cd != xd)
                RK_AR_FAIL(
                    RK_AR_RULE_BROADCAST,
                    "%s: cos shape = %s: dim %d is %lld, must be 1 or %s's %lld (%s shape %s)", api,
                    rk_shape_str(cs, b1, sizeof b1), (int)d, (long long)cd, c->name[i],
                    (long long)xd, c->name[i], rk_shape_str(x, b2, sizeof b2));
        }
    }
    return ROPEKIT_OK;
}

ropekit_status rk_ar_check_overlap(const char *api, const char *const name[RK_AR_TENSORS],
                                   const struct rk_view_geom geom[RK_AR_TENSORS],
                                   const void *const data[RK_AR_TENSORS], int *rule) {
    for (int i = RK_AR_Q; i <= RK_AR_K; i++)
        for (int j = i + 1; j < RK_AR_TENSORS; j++)
            if (rk_views_overlap(&geom[i], data[i], &geom[j], data[j]))
                RK_AR_FAIL(RK_AR_RULE_OVERLAP,
                           "%s: %s memory overlaps %s: a rotated tensor must not share memory "
                           "with the other or with the coefficients",
                           api, name[i], name[j]);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_overlap(const struct rk_ar_ctx *c, int *rule) {
    RK_COUNT(OVERLAP);
    for (int i = RK_AR_Q; i <= RK_AR_K; i++)
        if (rk_tensor_self_overlaps(c->t[i]))
            RK_AR_FAIL(RK_AR_RULE_OVERLAP,
                       "%s: %s strides: two elements share one address; an in-place output must "
                       "not overlap itself",
                       c->p->api, c->name[i]);
    for (int i = 0; i < RK_AR_TENSORS; i++)
        c->geom[i] = rk_view_geom_of(c->t[i]);
    if (!c->p->check_data)
        return ROPEKIT_OK;
    const void *const data[RK_AR_TENSORS] = {c->t[0]->data, c->t[1]->data, c->t[2]->data,
                                             c->t[3]->data};
    return rk_ar_check_overlap(c->p->api, c->name, c->geom, data, rule);
}

ropekit_status rk_ar_validate(const struct rk_ar_ctx *c, int *rule) {
    typedef ropekit_status (*step_fn)(const struct rk_ar_ctx *, int *);
    static const step_fn steps[] = {
        rk_step_null, rk_step_dtype, rk_step_shapes, rk_step_empty,     rk_step_layout,
        rk_step_mode, rk_step_dims,  rk_step_d,      rk_step_broadcast, rk_step_overlap};
    *rule = RK_AR_RULE_NONE;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        ropekit_status st = steps[i](c, rule);
        if (st != ROPEKIT_OK)
            return st;
    }
    return ROPEKIT_OK;
}
