/* Validation of a partial-rotary problem. Each check is a small step; the policy lists
 * them in the order its face reports failures (the operator's own, SPEC §3.4, or another
 * such as SPEC §4.3's), so the first broken rule (and its message) is the one that face
 * reports. Nothing here touches tensor contents. */
#include <stdio.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "kernels/dispatch.h"
#include "ops/check_count.h"
#include "ops/partial_rotary/partial_rotary.h"

/* State shared by the steps. */
struct rk_pr_ctx {
    const struct rk_pr_problem *p;
    const struct rk_pr_policy *pol;
    const ropekit_tensor *t[4]; /* x, cos, sin, out (NULL: in place) */
    const char *name[4];
    int nt; /* 4 with an out argument, else 3 */
    int64_t d, start, end;
    struct rk_pr_checked *out;
};

#define RK_COUNT(rule) RK_COUNT_CHECK(RK_OP_PARTIAL_ROTARY, RK_PR_RULE_##rule)

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

/* The name of a dtype the policy takes; "?" for any other. */
static const char *rk_policy_dtype_name(unsigned mask, ropekit_dtype dtype) {
    int k = rk_kdtype_of(dtype);
    return k >= 0 && (rk_pair_mask_takes(mask, k, -1) || rk_pair_mask_takes(mask, -1, k))
               ? ropekit_dtype_name(dtype)
               : "?";
}

/* "float32, float16 or bfloat16": the x dtypes of the policy's pairs (x_side), else the
 * cos/sin ones. */
static const char *rk_float_names(unsigned mask, bool x_side, char *buf, size_t len) {
    static const char *const names[RK_KDT_COUNT] = {[RK_KDT_F32] = "float32",
                                                    [RK_KDT_F16] = "float16",
                                                    [RK_KDT_BF16] = "bfloat16",
                                                    [RK_KDT_F64] = "float64"};
    int left = 0;
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < RK_KDT_COUNT; k++)
        left += rk_pair_mask_takes(mask, x_side ? k : -1, x_side ? -1 : k);
    for (int k = 0; k < RK_KDT_COUNT && used < len; k++) {
        if (!rk_pair_mask_takes(mask, x_side ? k : -1, x_side ? -1 : k))
            continue;
        left--;
        used += (size_t)snprintf(buf + used, len - used, "%s%s", names[k],
                                 left > 1    ? ", "
                                 : left == 1 ? " or "
                                             : "");
    }
    return buf;
}

/* Row 1: descriptors present, layouts sane, data present when known. */
static ropekit_status rk_step_null(struct rk_pr_ctx *c, int *rule) {
    const char *api = c->p->api;
    RK_COUNT(NULL);
    for (int i = 0; i < c->nt; i++)
        if (!c->t[i])
            RK_PR_FAIL(RK_PR_RULE_NULL, "%s: %s = NULL: required", api, c->name[i]);
    if (c->p->missing_arg)
        RK_PR_FAIL(RK_PR_RULE_NULL, "%s: %s = NULL: required", api, c->p->missing_arg);
    RK_COUNT(LAYOUT);
    for (int i = 0; i < c->nt; i++) {
        ropekit_status st = rk_tensor_check_layout(c->t[i], api, c->name[i]);
        if (st != ROPEKIT_OK) {
            *rule = RK_PR_RULE_LAYOUT;
            return st;
        }
    }
    if (c->p->check_data)
        RK_COUNT(DATA_NULL);
    if (c->p->check_data)
        for (int i = 0; i < c->nt; i++)
            if (c->t[i]->data == NULL && rk_tensor_numel(c->t[i]) > 0)
                RK_PR_FAIL(RK_PR_RULE_DATA_NULL,
                           "%s: %s data = NULL: a tensor with %lld elements needs data", api,
                           c->name[i], (long long)rk_tensor_numel(c->t[i]));
    return ROPEKIT_OK;
}

/* Element types (SPEC §3.4 rows 2-4, §4.3 row 2). */
static ropekit_status rk_step_dtype(struct rk_pr_ctx *c, int *rule) {
    const char *api = c->p->api, *xn = c->name[0];
    const ropekit_tensor *x = c->t[0], *cs = c->t[1], *sn = c->t[2];
    const unsigned mask = c->pol->pair_mask;
    const int xk = rk_kdtype_of(x->dtype), ck = rk_kdtype_of(cs->dtype);
    char buf[128];
    RK_COUNT(X_DTYPE);
    RK_COUNT(CS_DTYPE);
    RK_COUNT(DTYPE_PAIR);
    RK_COUNT(OUT_DTYPE);
    const ropekit_tensor *out = c->t[3];
    /* An allowed pair passes all four rules: one test on every accepted call. The rules
     * below, in order, only name the first one broken. */
    if (xk >= 0 && ck >= 0 && (mask & RK_PR_PAIR(xk, ck)) && sn->dtype == cs->dtype &&
        (!out || out->dtype == x->dtype))
        return ROPEKIT_OK;
    if (xk < 0 || !rk_pair_mask_takes(mask, xk, -1))
        RK_PR_FAIL(RK_PR_RULE_X_DTYPE, "%s: %s dtype = %d: must be %s", api, xn, (int)x->dtype,
                   rk_float_names(mask, true, buf, sizeof buf));
    if (ck < 0 || !rk_pair_mask_takes(mask, -1, ck))
        RK_PR_FAIL(RK_PR_RULE_CS_DTYPE, "%s: cos dtype = %d: must be %s", api, (int)cs->dtype,
                   rk_float_names(mask, false, buf, sizeof buf));
    if (sn->dtype != cs->dtype)
        RK_PR_FAIL(RK_PR_RULE_CS_DTYPE, "%s: sin dtype = %s: must equal cos dtype %s", api,
                   rk_policy_dtype_name(mask, sn->dtype), ropekit_dtype_name(cs->dtype));
    if (!(mask & RK_PR_PAIR(xk, ck)))
        RK_PR_FAIL(RK_PR_RULE_DTYPE_PAIR, "%s: (%s, cos) dtypes = (%s, %s): %sallowed pairs are %s",
                   api, xn, ropekit_dtype_name(x->dtype), ropekit_dtype_name(cs->dtype),
                   xk == RK_KDT_F64 || ck == RK_KDT_F64 ? "float64 goes with float64 only; " : "",
                   rk_pair_list(mask, buf, sizeof buf));
    if (out && out->dtype != x->dtype)
        RK_PR_FAIL(RK_PR_RULE_OUT_DTYPE, "%s: %s dtype = %s: must equal %s dtype %s", api,
                   c->name[3], rk_policy_dtype_name(mask, out->dtype), xn,
                   ropekit_dtype_name(x->dtype));
    return ROPEKIT_OK;
}

/* Ranks and cos.shape == sin.shape. */
static ropekit_status rk_step_shapes(struct rk_pr_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_tensor *x = c->t[0], *cs = c->t[1], *sn = c->t[2];
    char b1[96], b2[96];
    RK_COUNT(RANK);
    RK_COUNT(CS_SHAPE);
    RK_COUNT(OUT_SHAPE);
    if (c->pol->rank > 0) {
        for (int i = 0; i < 3; i++)
            if (c->t[i]->ndim != c->pol->rank)
                RK_PR_FAIL(RK_PR_RULE_RANK, "%s: %s shape = %s: must be %d-D", api, c->name[i],
                           rk_shape_str(c->t[i], b1, sizeof b1), (int)c->pol->rank);
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
    const ropekit_tensor *out = c->t[3];
    same = !out || out->ndim == x->ndim;
    for (int32_t i = 0; out && same && i < x->ndim; i++)
        same = out->shape[i] == x->shape[i];
    if (!same)
        RK_PR_FAIL(RK_PR_RULE_OUT_SHAPE, "%s: %s shape = %s: must equal %s shape %s", api,
                   c->name[3], rk_shape_str(out, b1, sizeof b1), c->name[0],
                   rk_shape_str(x, b2, sizeof b2));
    return ROPEKIT_OK;
}

const char *rk_pr_mode_list(unsigned mask, char *buf, size_t len) {
    size_t used = 0;
    int left = 0;
    buf[0] = '\0';
    for (int m = 0; m < RK_ROT_MODE_COUNT; m++)
        left += (mask >> m) & 1u;
    for (int m = 0; m < RK_ROT_MODE_COUNT && used < len; m++) {
        if (!((mask >> m) & 1u))
            continue;
        left--;
        used += (size_t)snprintf(buf + used, len - used, "%d (%s)%s", m,
                                 ropekit_rotary_mode_name((ropekit_rotary_mode)m),
                                 left > 1    ? ", "
                                 : left == 1 ? " or "
                                             : "");
    }
    return buf;
}

static ropekit_status rk_step_mode(struct rk_pr_ctx *c, int *rule) {
    const int64_t mode = c->p->mode;
    const struct rk_pr_policy *pol = c->pol;
    char buf[96];
    RK_COUNT(MODE);
    if (mode >= 0 && mode < RK_ROT_MODE_COUNT && ((pol->mode_mask >> mode) & 1u))
        return ROPEKIT_OK;
    if (pol->mode_rule)
        RK_PR_FAIL(RK_PR_RULE_MODE, "%s: %s = %lld: %s", c->p->api, pol->mode_name, (long long)mode,
                   pol->mode_rule);
    RK_PR_FAIL(RK_PR_RULE_MODE, "%s: %s = %lld: must be %s", c->p->api, pol->mode_name,
               (long long)mode, rk_pr_mode_list(pol->mode_mask, buf, sizeof buf));
}

/* partialSlice: NULL or empty means [0, 0]; otherwise two values in range. */
static ropekit_status rk_step_slice(struct rk_pr_ctx *c, int *rule) {
    const struct rk_pr_problem *p = c->p;
    RK_COUNT(SLICE_SIZE);
    RK_COUNT(SLICE_RANGE);
    c->start = c->end = 0;
    if (p->whole_row)
        c->end = c->d;
    else if (p->slice && p->slice_len != 0) {
        if (p->slice_len != 2)
            RK_PR_FAIL(
                RK_PR_RULE_SLICE_SIZE,
                "%s: partialSlice size = %llu: must hold 2 values [start, end) (or be empty)",
                c->p->api, (unsigned long long)p->slice_len);
        c->start = p->slice[0];
        c->end = p->slice[1];
    }
    if (c->start < 0 || c->end < c->start || c->end > c->d)
        RK_PR_FAIL(RK_PR_RULE_SLICE_RANGE,
                   "%s: slice = [%lld, %lld): must satisfy 0 <= start <= end <= D = %lld",
                   c->p->api, (long long)c->start, (long long)c->end, (long long)c->d);
    return ROPEKIT_OK;
}

/* cos last dim <= D, for an order that checks it before the no-op exit (SPEC §4.3 row 6). */
static ropekit_status rk_step_cs_len_le_d(struct rk_pr_ctx *c, int *rule) {
    const ropekit_tensor *cs = c->t[1];
    int64_t cs_len = cs->shape[cs->ndim - 1];
    RK_COUNT(CS_LEN_EXCEEDS_D);
    if (cs_len > c->d)
        RK_PR_FAIL(RK_PR_RULE_CS_LEN_EXCEEDS_D, "%s: cos last dim = %lld: must not exceed D = %lld",
                   c->p->api, (long long)cs_len, (long long)c->d);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_max_d(struct rk_pr_ctx *c, int *rule) {
    RK_COUNT(MAX_D);
    if (c->pol->max_d > 0 && c->d > c->pol->max_d)
        RK_PR_FAIL(RK_PR_RULE_MAX_D, "%s: %s last dim D = %lld: must be <= %lld", c->p->api,
                   c->name[0], (long long)c->d, (long long)c->pol->max_d);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_d_value(struct rk_pr_ctx *c, int *rule) {
    RK_COUNT(D_VALUE);
    if (c->pol->only_d > 0 && c->d != c->pol->only_d)
        RK_PR_FAIL(RK_PR_RULE_D_VALUE, "%s: %s last dim D = %lld: must be %lld", c->p->api,
                   c->name[0], (long long)c->d, (long long)c->pol->only_d);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_d_even(struct rk_pr_ctx *c, int *rule) {
    RK_COUNT(D_EVEN);
    if (c->pol->require_d_even && c->d % 2 != 0)
        RK_PR_FAIL(RK_PR_RULE_D_EVEN, "%s: %s last dim D = %lld: must be even", c->p->api,
                   c->name[0], (long long)c->d);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_l_multiple(struct rk_pr_ctx *c, int *rule) {
    const int64_t len = c->end - c->start;
    const int64_t multiple = c->p->mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2;
    RK_COUNT(L_MULTIPLE);
    if (len % multiple != 0 && c->p->whole_row)
        RK_PR_FAIL(RK_PR_RULE_L_MULTIPLE,
                   "%s: %s last dim D = %lld: must be a multiple of %lld in %s mode", c->p->api,
                   c->name[0], (long long)len, (long long)multiple,
                   ropekit_rotary_mode_name((ropekit_rotary_mode)c->p->mode));
    if (len % multiple != 0)
        RK_PR_FAIL(RK_PR_RULE_L_MULTIPLE,
                   "%s: slice length end - start = %lld: must be a multiple of %lld in %s mode",
                   c->p->api, (long long)len, (long long)multiple,
                   ropekit_rotary_mode_name((ropekit_rotary_mode)c->p->mode));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_cs_len(struct rk_pr_ctx *c, int *rule) {
    const ropekit_tensor *cs = c->t[1];
    const int64_t cs_len = cs->shape[cs->ndim - 1], len = c->end - c->start;
    RK_COUNT(CS_LEN);
    if (cs_len != len && c->p->whole_row)
        RK_PR_FAIL(RK_PR_RULE_CS_LEN, "%s: cos last dim = %lld: must equal %s's last dim D = %lld",
                   c->p->api, (long long)cs_len, c->name[0], (long long)len);
    if (cs_len != len)
        RK_PR_FAIL(RK_PR_RULE_CS_LEN, "%s: cos last dim = %lld: must equal the slice length %lld",
                   c->p->api, (long long)cs_len, (long long)len);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_broadcast(struct rk_pr_ctx *c, int *rule) {
    const ropekit_tensor *x = c->t[0], *cs = c->t[1];
    const int32_t lead_x = x->ndim - 1, lead_c = cs->ndim - 1;
    char b1[96], b2[96];
    RK_COUNT(BROADCAST);
    for (int32_t k = 0; k < lead_c; k++) {
        int64_t cd = cs->shape[k], xd = x->shape[k + (lead_x - lead_c)];
        const int lead = lead_c == 3 && lead_x == 3 ? c->pol->cs_lead[k] : RK_PR_LEAD_1_OR_X;
        if (lead == RK_PR_LEAD_X && cd != xd)
            RK_PR_FAIL(RK_PR_RULE_BROADCAST,
                       "%s: cos shape = %s: dim %d is %lld, must be %s's %lld", c->p->api,
                       rk_shape_str(cs, b1, sizeof b1), (int)k, (long long)cd, c->name[0],
                       (long long)xd);
        if (lead == RK_PR_LEAD_1 && cd != 1)
            RK_PR_FAIL(RK_PR_RULE_BROADCAST, "%s: cos shape = %s: dim %d is %lld, must be 1",
                       c->p->api, rk_shape_str(cs, b1, sizeof b1), (int)k, (long long)cd);
        if (cd != 1 && cd != xd)
            RK_PR_FAIL(RK_PR_RULE_BROADCAST,
                       "%s: cos shape = %s: dim %d is %lld, must be 1 or %s's %lld (%s shape %s)",
                       c->p->api, rk_shape_str(cs, b1, sizeof b1), (int)k, (long long)cd,
                       c->name[0], (long long)xd, c->name[0], rk_shape_str(x, b2, sizeof b2));
    }
    /* rank 4 (the policy fixes it): (1, S, N) against x's (B, S, N), B, S, N all > 1 */
    if (c->pol->no_lone_dim0_broadcast && lead_c == 3 && lead_x == 3 && cs->shape[0] == 1 &&
        x->shape[0] != 1 && cs->shape[1] == x->shape[1] && cs->shape[1] != 1 &&
        cs->shape[2] == x->shape[2] && cs->shape[2] != 1)
        RK_PR_FAIL(RK_PR_RULE_BROADCAST,
                   "%s: cos shape = %s: broadcasts over dim 0 alone (%s shape %s); the layouts "
                   "taken are (1,1,1,D), (B,S,N,D), (B,1,N,D), (B,S,1,D), (1,1,N,D), (1,S,1,D) "
                   "and (B,1,1,D)",
                   c->p->api, rk_shape_str(cs, b1, sizeof b1), c->name[0],
                   rk_shape_str(x, b2, sizeof b2));
    return ROPEKIT_OK;
}

/* out is x: the same address and the same view (then the call is in place). */
static bool rk_out_is_x(const struct rk_pr_plan_views *v, const void *x, const void *out) {
    return out == x && v->same_view;
}

static ropekit_status rk_pr_check_overlap(const char *api, const char *x_name, const char *out_name,
                                          const struct rk_view_geom geom[4],
                                          const struct rk_pr_plan_views *v, const void *x,
                                          const void *cos, const void *sin, const void *out,
                                          int *rule) {
    /* the written view: out, or x in place */
    const bool apart = v->apart && !rk_out_is_x(v, x, out);
    const struct rk_view_geom *w = apart ? &geom[3] : &geom[0];
    const void *wd = apart ? out : x;
    const char *wn = apart ? out_name : x_name;
    if (apart && rk_views_overlap(w, wd, &geom[0], x))
        RK_PR_FAIL(RK_PR_RULE_OVERLAP,
                   "%s: %s memory overlaps %s: %s must be %s itself (in place) or share no "
                   "memory with it",
                   api, out_name, x_name, out_name, x_name);
    if (!v->rotate)
        return ROPEKIT_OK; /* cos and sin are not read */
    bool on_cos = rk_views_overlap(w, wd, &geom[1], cos);
    if (on_cos || rk_views_overlap(w, wd, &geom[2], sin))
        RK_PR_FAIL(RK_PR_RULE_OVERLAP,
                   "%s: %s memory overlaps %s: the rotated tensor must not share memory with its "
                   "coefficients",
                   api, wn, on_cos ? "cos" : "sin");
    return ROPEKIT_OK;
}

/* The views' geometry and relation, which plans keep for the data checks (the no-op exit
 * included: a face tells its plans apart by them, and an operator built on this one checks
 * its own outputs against x, cos and sin with them). */
static void rk_pr_note_views(struct rk_pr_ctx *c) {
    const ropekit_tensor *x = c->t[0], *out = c->t[3];
    for (int i = 0; i < 3; i++)
        c->out->geom[i] = c->t[i] ? rk_view_geom_of(c->t[i]) : (struct rk_view_geom){0};
    c->out->geom[3] = rk_view_geom_of(out ? out : x); /* out is written (in place it is x) */
    c->out->views.apart = out != NULL;
    c->out->views.rotate = !c->out->noop;
    c->out->views.same_view = !out;
    if (out) {
        bool same = true;
        for (int32_t i = 0; same && i < x->ndim; i++)
            same = x->shape[i] == 1 || x->strides[i] == out->strides[i];
        c->out->views.same_view = same;
    }
}

static ropekit_status rk_step_overlap(struct rk_pr_ctx *c, int *rule) {
    const ropekit_tensor *x = c->t[0], *cs = c->t[1], *sn = c->t[2], *out = c->t[3];
    const char *api = c->p->api, *xn = c->name[0];
    RK_COUNT(OVERLAP);
    const ropekit_tensor *w = out ? out : x;
    if (rk_tensor_self_overlaps(w))
        RK_PR_FAIL(RK_PR_RULE_OVERLAP,
                   "%s: %s strides: two elements share one address; an output must not "
                   "overlap itself",
                   api, out ? c->name[3] : xn);
    rk_pr_note_views(c);
    if (c->p->check_data)
        return rk_pr_check_overlap(api, xn, c->name[3], c->out->geom, &c->out->views, x->data,
                                   cs->data, sn->data, out ? out->data : NULL, rule);
    return ROPEKIT_OK;
}

/* Marks the no-op exit: an empty slice or an empty tensor (SPEC §3.2); a policy may refuse
 * an empty x instead. */
static ropekit_status rk_step_noop(struct rk_pr_ctx *c, int *rule) {
    char b1[96];
    if (c->pol->refuse_empty_x) {
        RK_COUNT(EMPTY_X);
        if (rk_tensor_numel(c->t[0]) == 0)
            RK_PR_FAIL(RK_PR_RULE_EMPTY_X, "%s: %s shape = %s: every dim must be > 0", c->p->api,
                       c->name[0], rk_shape_str(c->t[0], b1, sizeof b1));
    }
    c->out->noop =
        c->end == c->start || rk_tensor_numel(c->t[0]) == 0 ||
        (!c->pol->noop_x_only && (rk_tensor_numel(c->t[1]) == 0 || rk_tensor_numel(c->t[2]) == 0));
    return ROPEKIT_OK;
}

const enum rk_pr_step rk_pr_default_order[] = {
    RK_PR_STEP_NULL,       RK_PR_STEP_DTYPE,  RK_PR_STEP_SHAPES,    RK_PR_STEP_MODE,
    RK_PR_STEP_SLICE,      RK_PR_STEP_NOOP,   RK_PR_STEP_MAX_D,     RK_PR_STEP_D_EVEN,
    RK_PR_STEP_L_MULTIPLE, RK_PR_STEP_CS_LEN, RK_PR_STEP_BROADCAST, RK_PR_STEP_OVERLAP,
};
const size_t rk_pr_default_order_len = sizeof rk_pr_default_order / sizeof rk_pr_default_order[0];

typedef ropekit_status (*rk_pr_step_fn)(struct rk_pr_ctx *c, int *rule);
static const rk_pr_step_fn rk_pr_steps[RK_PR_STEP_COUNT] = {
    [RK_PR_STEP_NULL] = rk_step_null,
    [RK_PR_STEP_DTYPE] = rk_step_dtype,
    [RK_PR_STEP_SHAPES] = rk_step_shapes,
    [RK_PR_STEP_MODE] = rk_step_mode,
    [RK_PR_STEP_SLICE] = rk_step_slice,
    [RK_PR_STEP_CS_LEN_LE_D] = rk_step_cs_len_le_d,
    [RK_PR_STEP_NOOP] = rk_step_noop,
    [RK_PR_STEP_MAX_D] = rk_step_max_d,
    [RK_PR_STEP_D_VALUE] = rk_step_d_value,
    [RK_PR_STEP_D_EVEN] = rk_step_d_even,
    [RK_PR_STEP_L_MULTIPLE] = rk_step_l_multiple,
    [RK_PR_STEP_CS_LEN] = rk_step_cs_len,
    [RK_PR_STEP_BROADCAST] = rk_step_broadcast,
    [RK_PR_STEP_OVERLAP] = rk_step_overlap,
};

ropekit_status rk_pr_validate(const struct rk_pr_problem *p, const struct rk_pr_policy *pol,
                              struct rk_pr_checked *out, int *rule) {
    struct rk_pr_ctx c = {
        .p = p,
        .pol = pol,
        .t = {p->x, p->cos, p->sin, p->with_out ? p->out : NULL},
        .name = {pol->x_name, "cos", "sin", pol->out_name ? pol->out_name : "out"},
        .nt = p->with_out ? 4 : 3,
        /* x's last dim, once the NULL step found x sane (or a step range of a validation
         * split in parts, after an earlier part did) */
        .d = p->x && p->x->ndim >= 1 && p->x->ndim <= ROPEKIT_MAX_DIMS ? p->x->shape[p->x->ndim - 1]
                                                                       : 0,
        .out = out,
    };
    const enum rk_pr_step *steps = pol->order ? pol->order : rk_pr_default_order;
    const size_t n = pol->order ? pol->order_len : rk_pr_default_order_len;
    *rule = RK_PR_RULE_NONE;
    out->noop = false;
    for (size_t i = 0; i < n; i++) {
        ropekit_status st = rk_pr_steps[steps[i]](&c, rule);
        if (st != ROPEKIT_OK)
            return st;
        if (out->noop)
            break;
    }
    /* Out of place, nothing to rotate still copies a non-empty x to out: its overlaps are
     * checked as any call's. */
    out->copy = out->noop && c.t[3] && rk_tensor_numel(c.t[0]) > 0;
    if (out->copy) {
        ropekit_status st = rk_step_overlap(&c, rule);
        if (st != ROPEKIT_OK)
            return st;
    } else if (out->noop) {
        rk_pr_note_views(&c);
    }
    out->out_name = c.name[3];
    out->start = c.start;
    out->len = c.end - c.start;
    return ROPEKIT_OK;
}

ropekit_status rk_pr_check_data(const void *plan, const char *api, const struct rk_op_data *data,
                                int *rule) {
    const struct rk_pr_plan *pl = plan;
    const void *x = data->ptr[RK_PR_X], *cos = data->ptr[RK_PR_COS], *sin = data->ptr[RK_PR_SIN];
    const void *out = pl->views.apart ? data->ptr[RK_PR_OUT] : NULL;
    *rule = RK_PR_RULE_NONE;
    if (pl->noop)
        return ROPEKIT_OK;
    RK_COUNT_CHECK(RK_OP_PARTIAL_ROTARY, RK_PR_RULE_DATA_NULL);
    if (!x || (pl->views.rotate && (!cos || !sin)) || (pl->views.apart && !out))
        RK_PR_FAIL(RK_PR_RULE_DATA_NULL, "%s: %s data = NULL: required", api,
                   !x                        ? pl->x_name
                   : pl->views.apart && !out ? pl->out_name
                   : !cos                    ? "cos"
                                             : "sin");
    RK_COUNT_CHECK(RK_OP_PARTIAL_ROTARY, RK_PR_RULE_OVERLAP);
    return rk_pr_check_overlap(api, pl->x_name, pl->out_name, pl->geom, &pl->views, x, cos, sin,
                               out, rule);
}
