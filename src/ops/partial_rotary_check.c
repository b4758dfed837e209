/* Validation of a partial-rotary problem (SPEC §3.4 / §4.3 order). Nothing here
 * touches tensor contents. */
#include "ops/partial_rotary_internal.h"

#include <stdio.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "kernels/dispatch.h"

#define RK_FAIL(rule_id, status, ...)                                                              \
    do {                                                                                           \
        *rule = (rule_id);                                                                         \
        return rk_error_set((status), __VA_ARGS__);                                                \
    } while (0)

static bool rk_is_float_dtype(ropekit_dtype d) {
    return rk_kdtype_of(d) >= 0;
}

static const char *rk_pair_list(unsigned mask, char *buf, size_t len) {
    static const char *names[] = {"f32", "f16", "bf16"};
    size_t used = 0;
    buf[0] = '\0';
    for (int x = 0; x < 3; x++)
        for (int c = 0; c < 3; c++)
            if ((mask >> (x * 3 + c)) & 1u && used < len)
                used += (size_t)snprintf(buf + used, len - used, "%s(%s,%s)", used ? " " : "",
                                         names[x], names[c]);
    return buf;
}

ropekit_status rk_pr_validate(const struct rk_pr_problem *p, const struct rk_pr_policy *pol,
                              struct rk_pr_checked *out, enum rk_pr_rule *rule) {
    const char *api = pol->api, *xn = pol->x_name;
    char b1[96], b2[96];
    *rule = RK_PR_RULE_NONE;

    if (!p->x || !p->cos || !p->sin)
        RK_FAIL(RK_PR_RULE_NULL, ROPEKIT_NULL_POINTER, "%s: %s = NULL: tensor required", api,
                !p->x     ? xn
                : !p->cos ? "cos"
                          : "sin");
    const ropekit_tensor *x = p->x, *c = p->cos, *s = p->sin;
    const ropekit_tensor *all[3] = {x, c, s};
    const char *names[3] = {xn, "cos", "sin"};
    for (int i = 0; i < 3; i++) {
        ropekit_status st = rk_tensor_check_layout(all[i], api, names[i]);
        if (st != ROPEKIT_OK) {
            *rule = RK_PR_RULE_LAYOUT;
            return st;
        }
    }
    if (pol->check_data)
        for (int i = 0; i < 3; i++)
            if (all[i]->data == NULL && rk_tensor_numel(all[i]) > 0)
                RK_FAIL(RK_PR_RULE_DATA_NULL, ROPEKIT_NULL_POINTER,
                        "%s: %s data = NULL: a tensor with %lld elements needs data", api, names[i],
                        (long long)rk_tensor_numel(all[i]));

    if (!rk_is_float_dtype(x->dtype))
        RK_FAIL(RK_PR_RULE_X_DTYPE, ROPEKIT_INVALID_ARGUMENT,
                "%s: %s dtype = %d: must be float32, float16 or bfloat16", api, xn, (int)x->dtype);
    if (!rk_is_float_dtype(c->dtype))
        RK_FAIL(RK_PR_RULE_CS_DTYPE, ROPEKIT_INVALID_ARGUMENT,
                "%s: cos dtype = %d: must be float32, float16 or bfloat16", api, (int)c->dtype);
    if (s->dtype != c->dtype)
        RK_FAIL(RK_PR_RULE_CS_DTYPE, ROPEKIT_INVALID_ARGUMENT,
                "%s: sin dtype = %s: must equal cos dtype %s", api, ropekit_dtype_name(s->dtype),
                ropekit_dtype_name(c->dtype));
    int xk = rk_kdtype_of(x->dtype), ck = rk_kdtype_of(c->dtype);
    if (!((pol->pair_mask >> (xk * 3 + ck)) & 1u))
        RK_FAIL(RK_PR_RULE_DTYPE_PAIR, ROPEKIT_INVALID_ARGUMENT,
                "%s: (%s, cos) dtypes = (%s, %s): allowed pairs are %s", api, xn,
                ropekit_dtype_name(x->dtype), ropekit_dtype_name(c->dtype),
                rk_pair_list(pol->pair_mask, b1, sizeof b1));

    if (pol->require_rank4) {
        for (int i = 0; i < 3; i++)
            if (all[i]->ndim != 4)
                RK_FAIL(RK_PR_RULE_RANK, ROPEKIT_INVALID_ARGUMENT, "%s: %s shape = %s: must be 4-D",
                        api, names[i], rk_shape_str(all[i], b1, sizeof b1));
    } else {
        if (x->ndim < 1)
            RK_FAIL(RK_PR_RULE_RANK, ROPEKIT_INVALID_ARGUMENT,
                    "%s: %s rank = 0: needs at least one dimension", api, xn);
        if (c->ndim < 1 || c->ndim > x->ndim)
            RK_FAIL(RK_PR_RULE_RANK, ROPEKIT_INVALID_ARGUMENT,
                    "%s: cos rank = %d: must be in [1, rank of %s = %d]", api, (int)c->ndim, xn,
                    (int)x->ndim);
    }
    bool same = c->ndim == s->ndim;
    for (int32_t i = 0; same && i < c->ndim; i++)
        same = c->shape[i] == s->shape[i];
    if (!same)
        RK_FAIL(RK_PR_RULE_CS_SHAPE, ROPEKIT_INVALID_ARGUMENT,
                "%s: sin shape = %s: must equal cos shape %s", api, rk_shape_str(s, b1, sizeof b1),
                rk_shape_str(c, b2, sizeof b2));

    if (p->mode < 0 || p->mode > 3 || !((pol->mode_mask >> p->mode) & 1u)) {
        if (pol->mode_mask == (1u << ROPEKIT_ROTARY_INTERLEAVE))
            RK_FAIL(RK_PR_RULE_MODE, ROPEKIT_INVALID_ARGUMENT,
                    "%s: %s = %lld: only 1 (interleave) is supported by this CANN operator; "
                    "ropekit_partial_rotary accepts 0-3",
                    api, pol->mode_name, (long long)p->mode);
        RK_FAIL(RK_PR_RULE_MODE, ROPEKIT_INVALID_ARGUMENT,
                "%s: %s = %lld: must be 0 (half), 1 (interleave), 2 (quarter) or 3 "
                "(interleave-half)",
                api, pol->mode_name, (long long)p->mode);
    }

    int64_t start = 0, end = 0;
    if (p->slice && p->slice_len != 0) {
        if (p->slice_len != 2)
            RK_FAIL(RK_PR_RULE_SLICE_SIZE, ROPEKIT_INVALID_ARGUMENT,
                    "%s: partialSlice size = %llu: must hold 2 values [start, end) (or be empty)",
                    api, (unsigned long long)p->slice_len);
        start = p->slice[0];
        end = p->slice[1];
    }
    const int64_t d = x->shape[x->ndim - 1];
    if (start < 0 || end < start || end > d)
        RK_FAIL(RK_PR_RULE_SLICE_RANGE, ROPEKIT_INVALID_ARGUMENT,
                "%s: slice = [%lld, %lld): must satisfy 0 <= start <= end <= D = %lld", api,
                (long long)start, (long long)end, (long long)d);
    const int64_t cs_len = c->shape[c->ndim - 1];
    if (pol->cs_len_le_d_before_noop && cs_len > d)
        RK_FAIL(RK_PR_RULE_CS_LEN_EXCEEDS_D, ROPEKIT_INVALID_ARGUMENT,
                "%s: cos last dim = %lld: must not exceed D = %lld", api, (long long)cs_len,
                (long long)d);

    out->start = start;
    out->len = end - start;
    out->noop = out->len == 0 || rk_tensor_numel(x) == 0 || rk_tensor_numel(c) == 0 ||
                rk_tensor_numel(s) == 0;
    if (out->noop)
        return ROPEKIT_OK;

    const int64_t len = out->len;
    if (pol->max_d > 0 && d > pol->max_d)
        RK_FAIL(RK_PR_RULE_MAX_D, ROPEKIT_INVALID_ARGUMENT,
                "%s: %s last dim D = %lld: must be <= %lld", api, xn, (long long)d,
                (long long)pol->max_d);
    if (pol->require_d_even && d % 2 != 0)
        RK_FAIL(RK_PR_RULE_D_EVEN, ROPEKIT_INVALID_ARGUMENT,
                "%s: %s last dim D = %lld: must be even", api, xn, (long long)d);
    int64_t multiple = p->mode == ROPEKIT_ROTARY_QUARTER ? 4 : 2;
    if (len % multiple != 0)
        RK_FAIL(RK_PR_RULE_L_MULTIPLE, ROPEKIT_INVALID_ARGUMENT,
                "%s: slice length end - start = %lld: must be a multiple of %lld in %s mode", api,
                (long long)len, (long long)multiple, rk_rotary_mode_name((int)p->mode));
    if (cs_len != len)
        RK_FAIL(RK_PR_RULE_CS_LEN, ROPEKIT_INVALID_ARGUMENT,
                "%s: cos last dim = %lld: must equal the slice length %lld", api, (long long)cs_len,
                (long long)len);
    const int32_t lead_x = x->ndim - 1, lead_c = c->ndim - 1;
    for (int32_t k = 0; k < lead_c; k++) {
        int64_t cd = c->shape[k], xd = x->shape[k + (lead_x - lead_c)];
        if (cd != 1 && cd != xd)
            RK_FAIL(RK_PR_RULE_BROADCAST, ROPEKIT_INVALID_ARGUMENT,
                    "%s: cos shape = %s: dim %d is %lld, must be 1 or %s's %lld (%s shape %s)", api,
                    rk_shape_str(c, b1, sizeof b1), (int)k, (long long)cd, xn, (long long)xd, xn,
                    rk_shape_str(x, b2, sizeof b2));
    }
    if (rk_tensor_self_overlaps(x))
        RK_FAIL(RK_PR_RULE_OVERLAP, ROPEKIT_INVALID_ARGUMENT,
                "%s: %s strides: two elements share one address; an in-place output must not "
                "overlap itself",
                api, xn);
    if (pol->check_data && (rk_tensors_may_alias(x, x->data, c, c->data) ||
                            rk_tensors_may_alias(x, x->data, s, s->data)))
        RK_FAIL(RK_PR_RULE_OVERLAP, ROPEKIT_INVALID_ARGUMENT,
                "%s: %s memory overlaps %s: the rotated tensor must not share memory with its "
                "coefficients",
                api, xn, rk_tensors_may_alias(x, x->data, c, c->data) ? "cos" : "sin");
    return ROPEKIT_OK;
}
