/* Validation of a partial-rotary problem. Each check is a small step; the forward
 * (SPEC §3.4) and the gradient (SPEC §4.3) run the steps in their own CANN orders, so
 * the first broken rule (and its message) is the one CANN would report. Nothing here
 * touches tensor contents. */
#include <stdio.h>

#include "core/tensor_view.h"
#include "kernels/dispatch.h"
#include "ops/check_count.h"
#include "ops/partial_rotary_internal.h"

#define RK_PR_STATUS_(rule, status, forward_code, gradient_code, fault, meaning)                   \
    [RK_PR_RULE_##rule] = ROPEKIT_##status,
static const ropekit_status rk_pr_statuses[RK_PR_RULE_COUNT] = {RK_PR_RULES(RK_PR_STATUS_)};

ropekit_status rk_pr_rule_status(enum rk_pr_rule rule) {
    return rule > RK_PR_RULE_NONE && rule < RK_PR_RULE_COUNT ? rk_pr_statuses[rule] : ROPEKIT_OK;
}

/* State shared by the steps. */
struct rk_pr_ctx {
    const struct rk_pr_problem *p;
    const struct rk_pr_policy *pol;
    const ropekit_tensor *t[3]; /* x, cos, sin */
    const char *name[3];
    int64_t d, start, end;
    struct rk_pr_checked *out;
};

#define RK_COUNT(rule) RK_COUNT_CHECK(RK_CHECKED_PARTIAL_ROTARY, RK_PR_RULE_##rule)

typedef ropekit_status (*rk_pr_step)(struct rk_pr_ctx *c, enum rk_pr_rule *rule);

static const char *rk_pair_list(unsigned mask, char *buf, size_t len) {
    size_t used = 0;
    buf[0] = '\0';
    for (int x = 0; x < RK_KDT_COUNT; x++)
        for (int c = 0; c < RK_KDT_COUNT; c++)
            if ((mask & RK_PR_PAIR(x, c)) && used < len)
                used += (size_t)snprintf(buf + used, len - used, "%s(%s,%s)", used ? " " : "",
                                         ropekit_dtype_name(rk_dtype_of_kdtype(x)),
                                         ropekit_dtype_name(rk_dtype_of_kdtype(c)));
    return buf;
}

/* Whether the policy has a pair with x dtype `x` (or with cos/sin dtype `c`, x < 0). */
static bool rk_pair_mask_takes(unsigned mask, int x, int c) {
    for (int k = 0; k < RK_KDT_COUNT; k++)
        if (mask & (x >= 0 ? RK_PR_PAIR(x, k) : RK_PR_PAIR(k, c)))
            return true;
    return false;
}

/* The name of a dtype the policy takes; "?" for any other (float64 on the aclnn faces). */
static const char *rk_policy_dtype_name(unsigned mask, ropekit_dtype dtype) {
    int k = rk_kdtype_of(dtype);
    return k >= 0 && (rk_pair_mask_takes(mask, k, -1) || rk_pair_mask_takes(mask, -1, k))
               ? ropekit_dtype_name(dtype)
               : "?";
}

static const char *rk_float_names(unsigned mask) {
    return rk_pair_mask_takes(mask, RK_KDT_F64, -1) ? "float32, float16, bfloat16 or float64"
                                                    : "float32, float16 or bfloat16";
}

/* Row 1: descriptors present, layouts sane, data present when known. */
static ropekit_status rk_step_null(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const char *api = c->pol->api;
    RK_COUNT(NULL);
    for (int i = 0; i < 3; i++)
        if (!c->t[i])
            RK_PR_FAIL(RK_PR_RULE_NULL, "%s: %s = NULL: required", api, c->name[i]);
    if (c->p->missing_arg)
        RK_PR_FAIL(RK_PR_RULE_NULL, "%s: %s = NULL: required", api, c->p->missing_arg);
    RK_COUNT(LAYOUT);
    for (int i = 0; i < 3; i++) {
        ropekit_status st = rk_tensor_check_layout(c->t[i], api, c->name[i]);
        if (st != ROPEKIT_OK) {
            *rule = RK_PR_RULE_LAYOUT;
            return st;
        }
    }
    if (c->pol->check_data)
        RK_COUNT(DATA_NULL);
    if (c->pol->check_data)
        for (int i = 0; i < 3; i++)
            if (c->t[i]->data == NULL && rk_tensor_numel(c->t[i]) > 0)
                RK_PR_FAIL(RK_PR_RULE_DATA_NULL,
                           "%s: %s data = NULL: a tensor with %lld elements needs data", api,
                           c->name[i], (long long)rk_tensor_numel(c->t[i]));
    c->d = c->t[0]->ndim >= 1 ? c->t[0]->shape[c->t[0]->ndim - 1] : 0;
    return ROPEKIT_OK;
}

/* Rows 2-4 (forward) / row 2 (gradient): element types. */
static ropekit_status rk_step_dtype(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const char *api = c->pol->api, *xn = c->name[0];
    const ropekit_tensor *x = c->t[0], *cs = c->t[1], *sn = c->t[2];
    const unsigned mask = c->pol->pair_mask;
    const int xk = rk_kdtype_of(x->dtype), ck = rk_kdtype_of(cs->dtype);
    char buf[128];
    RK_COUNT(X_DTYPE);
    RK_COUNT(CS_DTYPE);
    RK_COUNT(DTYPE_PAIR);
    /* An allowed pair passes all three rules: one test on every aclnn phase 1. The rules
     * below, in order, only name the first one broken. */
    if (xk >= 0 && ck >= 0 && (mask & RK_PR_PAIR(xk, ck)) && sn->dtype == cs->dtype)
        return ROPEKIT_OK;
    if (xk < 0 || !rk_pair_mask_takes(mask, xk, -1))
        RK_PR_FAIL(RK_PR_RULE_X_DTYPE, "%s: %s dtype = %d: must be %s", api, xn, (int)x->dtype,
                   rk_float_names(mask));
    if (ck < 0 || !rk_pair_mask_takes(mask, -1, ck))
        RK_PR_FAIL(RK_PR_RULE_CS_DTYPE, "%s: cos dtype = %d: must be %s", api, (int)cs->dtype,
                   rk_float_names(mask));
    if (sn->dtype != cs->dtype)
        RK_PR_FAIL(RK_PR_RULE_CS_DTYPE, "%s: sin dtype = %s: must equal cos dtype %s", api,
                   rk_policy_dtype_name(mask, sn->dtype), ropekit_dtype_name(cs->dtype));
    if (!(mask & RK_PR_PAIR(xk, ck)))
        RK_PR_FAIL(RK_PR_RULE_DTYPE_PAIR, "%s: (%s, cos) dtypes = (%s, %s): %sallowed pairs are %s",
                   api, xn, ropekit_dtype_name(x->dtype), ropekit_dtype_name(cs->dtype),
                   xk == RK_KDT_F64 || ck == RK_KDT_F64 ? "float64 goes with float64 only; " : "",
                   rk_pair_list(mask, buf, sizeof buf));
    return ROPEKIT_OK;
}

/* Ranks and cos.shape == sin.shape. */
static ropekit_status rk_step_shapes(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const char *api = c->pol->api;
    const ropekit_tensor *x = c->t[0], *cs = c->t[1], *sn = c->t[2];
    char b1[96], b2[96];
    RK_COUNT(RANK);
    RK_COUNT(CS_SHAPE);
    if (c->pol->require_rank4) {
        for (int i = 0; i < 3; i++)
            if (c->t[i]->ndim != 4)
                RK_PR_FAIL(RK_PR_RULE_RANK, "%s: %s shape = %s: must be 4-D", api, c->name[i],
                           rk_shape_str(c->t[i], b1, sizeof b1));
    } else {
        if (x->ndim < 1)
            RK_PR_FAIL(RK_PR_RULE_RANK, "%s: %s rank = 0: needs at least one dimension", api,
                       c->name[0]);
        if (cs->ndim < 1 || cs->ndim > x->ndim)
            RK_PR_FAIL(RK_PR_RULE_RANK, "%s: cos rank = %d: must be in [1, rank of %s = %d]", api,
                       (int)cs->ndim, c->name[0], (int)x->ndim);
    }
    bool same = cs->ndim == sn->ndim;
    for (int32_t i = 0; same && i < cs->ndim; i++)
        same = cs->shape[i] == sn->shape[i];
    if (!same)
        RK_PR_FAIL(RK_PR_RULE_CS_SHAPE, "%s: sin shape = %s: must equal cos shape %s", api,
                   rk_shape_str(sn, b1, sizeof b1), rk_shape_str(cs, b2, sizeof b2));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_mode(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const int64_t mode = c->p->mode;
    const struct rk_pr_policy *pol = c->pol;
    RK_COUNT(MODE);
    if (mode >= 0 && mode <= 3 && ((pol->mode_mask >> mode) & 1u))
        return ROPEKIT_OK;
    if (pol->mode_mask == (1u << ROPEKIT_ROTARY_INTERLEAVE))
        RK_PR_FAIL(RK_PR_RULE_MODE,
                   "%s: %s = %lld: only 1 (interleave) is supported by this CANN operator; "
                   "ropekit_partial_rotary accepts 0-3",
                   pol->api, pol->mode_name, (long long)mode);
    RK_PR_FAIL(
        RK_PR_RULE_MODE,
        "%s: %s = %lld: must be 0 (half), 1 (interleave), 2 (quarter) or 3 (interleave-half)",
        pol->api, pol->mode_name, (long long)mode);
}

/* partialSlice: NULL or empty means [0, 0]; otherwise two values in range. */
static ropekit_status rk_step_slice(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const struct rk_pr_problem *p = c->p;
    RK_COUNT(SLICE_SIZE);
    RK_COUNT(SLICE_RANGE);
    c->start = c->end = 0;
    if (p->slice && p->slice_len != 0) {
        if (p->slice_len != 2)
            RK_PR_FAIL(
                RK_PR_RULE_SLICE_SIZE,
                "%s: partialSlice size = %llu: must hold 2 values [start, end) (or be empty)",
                c->pol->api, (unsigned long long)p->slice_len);
        c->start = p->slice[0];
        c->end = p->slice[1];
    }
    if (c->start < 0 || c->end < c->start || c->end > c->d)
        RK_PR_FAIL(RK_PR_RULE_SLICE_RANGE,
                   "%s: slice = [%lld, %lld): must satisfy 0 <= start <= end <= D = %lld",
                   c->pol->api, (long long)c->start, (long long)c->end, (long long)c->d);
    return ROPEKIT_OK;
}

/* Gradient row 6: checked even when the call turns out to be a no-op. */
static ropekit_status rk_step_cs_len_le_d(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const ropekit_tensor *cs = c->t[1];
    int64_t cs_len = cs->shape[cs->ndim - 1];
    RK_COUNT(CS_LEN_EXCEEDS_D);
    if (cs_len > c->d)
        RK_PR_FAIL(RK_PR_RULE_CS_LEN_EXCEEDS_D, "%s: cos last dim = %lld: must not exceed D = %lld",
                   c->pol->api, (long long)cs_len, (long long)c->d);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_max_d(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    RK_COUNT(MAX_D);
    if (c->pol->max_d > 0 && c->d > c->pol->max_d)
        RK_PR_FAIL(RK_PR_RULE_MAX_D, "%s: %s last dim D = %lld: must be <= %lld", c->pol->api,
                   c->name[0], (long long)c->d, (long long)c->pol->max_d);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_d_even(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    RK_COUNT(D_EVEN);
    if (c->pol->require_d_even && c->d % 2 != 0)
        RK_PR_FAIL(RK_PR_RULE_D_EVEN, "%s: %s last dim D = %lld: must be even", c->pol->api,
                   c->name[0], (long long)c->d);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_l_multiple(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const int64_t len = c->end - c->start;
    const int64_t multiple = c->p->mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2;
    RK_COUNT(L_MULTIPLE);
    if (len % multiple != 0)
        RK_PR_FAIL(RK_PR_RULE_L_MULTIPLE,
                   "%s: slice length end - start = %lld: must be a multiple of %lld in %s mode",
                   c->pol->api, (long long)len, (long long)multiple,
                   ropekit_rotary_mode_name((ropekit_rotary_mode)c->p->mode));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_cs_len(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const ropekit_tensor *cs = c->t[1];
    const int64_t cs_len = cs->shape[cs->ndim - 1], len = c->end - c->start;
    RK_COUNT(CS_LEN);
    if (cs_len != len)
        RK_PR_FAIL(RK_PR_RULE_CS_LEN, "%s: cos last dim = %lld: must equal the slice length %lld",
                   c->pol->api, (long long)cs_len, (long long)len);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_broadcast(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const ropekit_tensor *x = c->t[0], *cs = c->t[1];
    const int32_t lead_x = x->ndim - 1, lead_c = cs->ndim - 1;
    char b1[96], b2[96];
    RK_COUNT(BROADCAST);
    for (int32_t k = 0; k < lead_c; k++) {
        int64_t cd = cs->shape[k], xd = x->shape[k + (lead_x - lead_c)];
        if (cd != 1 && cd != xd)
            RK_PR_FAIL(RK_PR_RULE_BROADCAST,
                       "%s: cos shape = %s: dim %d is %lld, must be 1 or %s's %lld (%s shape %s)",
                       c->pol->api, rk_shape_str(cs, b1, sizeof b1), (int)k, (long long)cd,
                       c->name[0], (long long)xd, c->name[0], rk_shape_str(x, b2, sizeof b2));
    }
    return ROPEKIT_OK;
}

static ropekit_status rk_pr_check_overlap(const char *api, const char *x_name,
                                          const struct rk_view_geom geom[3], const void *x,
                                          const void *cos, const void *sin, enum rk_pr_rule *rule) {
    bool on_cos = rk_views_overlap(&geom[0], x, &geom[1], cos);
    if (on_cos || rk_views_overlap(&geom[0], x, &geom[2], sin))
        RK_PR_FAIL(RK_PR_RULE_OVERLAP,
                   "%s: %s memory overlaps %s: the rotated tensor must not share memory with its "
                   "coefficients",
                   api, x_name, on_cos ? "cos" : "sin");
    return ROPEKIT_OK;
}

static ropekit_status rk_step_overlap(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    const ropekit_tensor *x = c->t[0], *cs = c->t[1], *sn = c->t[2];
    const char *api = c->pol->api, *xn = c->name[0];
    RK_COUNT(OVERLAP);
    if (rk_tensor_self_overlaps(x))
        RK_PR_FAIL(RK_PR_RULE_OVERLAP,
                   "%s: %s strides: two elements share one address; an in-place output must not "
                   "overlap itself",
                   api, xn);
    for (int i = 0; i < 3; i++)
        c->out->geom[i] = rk_view_geom_of(c->t[i]);
    if (c->pol->check_data)
        return rk_pr_check_overlap(api, xn, c->out->geom, x->data, cs->data, sn->data, rule);
    return ROPEKIT_OK;
}

/* Marks the no-op exit: an empty slice or an empty tensor (SPEC §3.2). */
static ropekit_status rk_step_noop(struct rk_pr_ctx *c, enum rk_pr_rule *rule) {
    (void)rule;
    c->out->noop = c->end == c->start || rk_tensor_numel(c->t[0]) == 0 ||
                   rk_tensor_numel(c->t[1]) == 0 || rk_tensor_numel(c->t[2]) == 0;
    return ROPEKIT_OK;
}

/* SPEC §3.4 (forward, also the native face's order) and §4.3 (gradient). */
static const rk_pr_step rk_forward_order[] = {
    rk_step_null,       rk_step_dtype,  rk_step_shapes,    rk_step_mode,
    rk_step_slice,      rk_step_noop,   rk_step_max_d,     rk_step_d_even,
    rk_step_l_multiple, rk_step_cs_len, rk_step_broadcast, rk_step_overlap,
};
static const rk_pr_step rk_gradient_order[] = {
    rk_step_null,        rk_step_dtype,     rk_step_mode,    rk_step_slice, rk_step_shapes,
    rk_step_cs_len_le_d, rk_step_noop,      rk_step_cs_len,  rk_step_max_d, rk_step_d_even,
    rk_step_l_multiple,  rk_step_broadcast, rk_step_overlap,
};

ropekit_status rk_pr_validate(const struct rk_pr_problem *p, const struct rk_pr_policy *pol,
                              struct rk_pr_checked *out, enum rk_pr_rule *rule) {
    struct rk_pr_ctx c = {
        .p = p,
        .pol = pol,
        .t = {p->x, p->cos, p->sin},
        .name = {pol->x_name, "cos", "sin"},
        .out = out,
    };
    const rk_pr_step *steps = pol->gradient_order ? rk_gradient_order : rk_forward_order;
    size_t n = pol->gradient_order ? sizeof rk_gradient_order / sizeof rk_gradient_order[0]
                                   : sizeof rk_forward_order / sizeof rk_forward_order[0];
    *rule = RK_PR_RULE_NONE;
    out->noop = false;
    for (size_t i = 0; i < n; i++) {
        ropekit_status st = steps[i](&c, rule);
        if (st != ROPEKIT_OK)
            return st;
        if (out->noop)
            break;
    }
    out->start = c.start;
    out->len = c.end - c.start;
    return ROPEKIT_OK;
}

ropekit_status rk_pr_check_data(const struct rk_pr_plan *pl, const char *api, const void *x,
                                const void *cos, const void *sin, enum rk_pr_rule *rule) {
    *rule = RK_PR_RULE_NONE;
    if (pl->noop)
        return ROPEKIT_OK;
    RK_COUNT_CHECK(RK_CHECKED_PARTIAL_ROTARY, RK_PR_RULE_DATA_NULL);
    if (!x || !cos || !sin)
        RK_PR_FAIL(RK_PR_RULE_DATA_NULL, "%s: %s data = NULL: required", api,
                   !x     ? pl->x_name
                   : !cos ? "cos"
                          : "sin");
    RK_COUNT_CHECK(RK_CHECKED_PARTIAL_ROTARY, RK_PR_RULE_OVERLAP);
    return rk_pr_check_overlap(api, pl->x_name, pl->geom, x, cos, sin, rule);
}
