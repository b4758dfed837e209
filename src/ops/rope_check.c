/* Validation of a RopeWithSinCosCache problem, in the order of SPEC §5.5. Nothing here
 * reads tensor contents (positions are checked when the work runs). */
#include <stdio.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "kernels/dispatch.h"
#include "ops/rope_internal.h"

#define RK_FAIL(rule_id, status, ...)                                                              \
    do {                                                                                           \
        *rule = (rule_id);                                                                         \
        return rk_error_set((status), __VA_ARGS__);                                                \
    } while (0)

#define RK_INVALID ROPEKIT_INVALID_ARGUMENT

/* CANN's mrope section whitelist (one shared list for V1 and V2, SPEC §5.5 row 9). */
static const int64_t rk_whitelist[][5] = {
    {3, 16, 24, 24}, {3, 8, 12, 12}, {3, 24, 20, 20}, {3, 11, 11, 10}, {4, 16, 16, 16, 16},
};

static bool rk_whitelisted(const int64_t *sec, uint64_t n) {
    for (size_t w = 0; w < sizeof rk_whitelist / sizeof rk_whitelist[0]; w++) {
        if ((uint64_t)rk_whitelist[w][0] != n)
            continue;
        bool same = true;
        for (uint64_t i = 0; i < n; i++)
            same = same && rk_whitelist[w][i + 1] == sec[i];
        if (same)
            return true;
    }
    return false;
}

static const char *rk_sections_str(const int64_t *sec, uint64_t n, char *buf, size_t len) {
    size_t used = (size_t)snprintf(buf, len, "[");
    for (uint64_t i = 0; i < n && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, i ? ",%lld" : "%lld", (long long)sec[i]);
    if (used < len)
        snprintf(buf + used, len - used, "]");
    return buf;
}

static bool rk_same_shape(const ropekit_tensor *a, const ropekit_tensor *b) {
    if (a->ndim != b->ndim)
        return false;
    for (int32_t i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i])
            return false;
    return true;
}

ropekit_status rk_rope_validate(const struct rk_rope_problem *p, const struct rk_rope_policy *pol,
                                struct rk_rope_checked *out, enum rk_rope_rule *rule) {
    const char *api = pol->api;
    char b1[96], b2[96];
    *rule = RK_ROPE_RULE_NONE;

    if (p->cache_mode != 0 && p->cache_mode != 1)
        RK_FAIL(RK_ROPE_RULE_CACHE_MODE, RK_INVALID, "%s: cacheMode = %lld: must be 0 or 1", api,
                (long long)p->cache_mode);

    const ropekit_tensor *pos = p->positions, *qi = p->query_in, *ki = p->key_in, *cache = p->cache,
                         *qo = p->query_out, *ko = p->key_out;
    const ropekit_tensor *all[6] = {pos, qi, ki, cache, qo, ko};
    static const char *names[6] = {"positions",   "queryIn",  "keyIn",
                                   "cosSinCache", "queryOut", "keyOut"};
    for (int i = 0; i < 6; i++) {
        bool optional = !pol->aclnn && i != 0 && i != 3;
        if (!all[i] && !optional)
            RK_FAIL(RK_ROPE_RULE_NULL, ROPEKIT_NULL_POINTER, "%s: %s = NULL: required", api,
                    names[i]);
    }
    if (!!qi != !!qo || !!ki != !!ko)
        RK_FAIL(RK_ROPE_RULE_NULL, ROPEKIT_NULL_POINTER,
                "%s: %s = NULL: an input and its output come together", api,
                !qi   ? "queryIn"
                : !qo ? "queryOut"
                : !ki ? "keyIn"
                      : "keyOut");
    if (!qi && !ki)
        RK_FAIL(RK_ROPE_RULE_NULL, ROPEKIT_NULL_POINTER,
                "%s: queryIn = keyIn = NULL: nothing to rotate", api);
    for (int i = 0; i < 6; i++) {
        if (!all[i])
            continue;
        ropekit_status st = rk_tensor_check_layout(all[i], api, names[i]);
        if (st != ROPEKIT_OK) {
            *rule = RK_ROPE_RULE_LAYOUT;
            return st;
        }
    }
    if (pol->check_data)
        for (int i = 0; i < 6; i++)
            if (all[i] && !all[i]->data && rk_tensor_numel(all[i]) > 0)
                RK_FAIL(RK_ROPE_RULE_DATA_NULL, ROPEKIT_NULL_POINTER,
                        "%s: %s data = NULL: a tensor with %lld elements needs data", api, names[i],
                        (long long)rk_tensor_numel(all[i]));

    if (pos->dtype != ROPEKIT_I64)
        RK_FAIL(RK_ROPE_RULE_POS_DTYPE, RK_INVALID, "%s: positions dtype = %d: must be int64", api,
                (int)pos->dtype);
    const ropekit_tensor *x = qi ? qi : ki; /* defines the element type */
    const char *xname = qi ? "queryIn" : "keyIn";
    if (rk_kdtype_of(x->dtype) < 0)
        RK_FAIL(RK_ROPE_RULE_DTYPE, RK_INVALID,
                "%s: %s dtype = %d: must be float32, float16 or bfloat16", api, xname,
                (int)x->dtype);
    for (int i = 1; i < 6; i++) {
        if (!all[i] || all[i] == x)
            continue;
        bool cache_free = i == 3 && !pol->aclnn; /* native: any float cache dtype */
        if (cache_free ? rk_kdtype_of(all[i]->dtype) < 0 : all[i]->dtype != x->dtype)
            RK_FAIL(RK_ROPE_RULE_DTYPE, RK_INVALID, "%s: %s dtype = %d: must %s", api, names[i],
                    (int)all[i]->dtype,
                    cache_free ? "be float32, float16 or bfloat16" : "equal queryIn's dtype");
    }

    const int max_rank = pol->aclnn ? 2 : 3;
    for (int i = 1; i <= 3; i++) {
        if (!all[i])
            continue;
        int lo = 2, hi = i == 3 ? 2 : max_rank;
        if (all[i]->ndim < lo || all[i]->ndim > hi)
            RK_FAIL(RK_ROPE_RULE_RANK, RK_INVALID, "%s: %s shape = %s: must be %s", api, names[i],
                    rk_shape_str(all[i], b1, sizeof b1),
                    hi == 2 ? "2-D" : "2-D [T, H*headSize] or 3-D [T, H, headSize]");
    }
    if (pol->aclnn) {
        static const int nonempty[4] = {1, 2, 3, 0};
        for (int n = 0; n < 4; n++)
            if (rk_tensor_numel(all[nonempty[n]]) == 0)
                RK_FAIL(RK_ROPE_RULE_EMPTY, RK_INVALID, "%s: %s shape = %s: must not be empty", api,
                        names[nonempty[n]], rk_shape_str(all[nonempty[n]], b1, sizeof b1));
    }
    const int64_t tokens = x->shape[0];
    if (qi && ki && ki->shape[0] != tokens)
        RK_FAIL(RK_ROPE_RULE_TOKENS, RK_INVALID,
                "%s: keyIn shape[0] = %lld: must equal queryIn's numTokens %lld", api,
                (long long)ki->shape[0], (long long)tokens);
    if ((qi && !rk_same_shape(qo, qi)) || (ki && !rk_same_shape(ko, ki))) {
        bool q_bad = qi && !rk_same_shape(qo, qi);
        RK_FAIL(RK_ROPE_RULE_OUT_SHAPE, RK_INVALID, "%s: %s shape = %s: must equal %s shape %s",
                api, q_bad ? "queryOut" : "keyOut", rk_shape_str(q_bad ? qo : ko, b1, sizeof b1),
                q_bad ? "queryIn" : "keyIn", rk_shape_str(q_bad ? qi : ki, b2, sizeof b2));
    }

    const int64_t *sec = p->sections;
    uint64_t nsec = sec ? p->num_sections : 0;
    if (sec && pol->aclnn && nsec != 3 && nsec != 4)
        RK_FAIL(RK_ROPE_RULE_SECTIONS, RK_INVALID, "%s: mropeSection size = %llu: must be 3 or 4",
                api, (unsigned long long)nsec);
    if (nsec > ROPEKIT_ROPE_MAX_SECTIONS)
        RK_FAIL(RK_ROPE_RULE_SECTIONS, RK_INVALID, "%s: sections count = %llu: at most %d", api,
                (unsigned long long)nsec, ROPEKIT_ROPE_MAX_SECTIONS);
    int64_t sum = 0;
    for (uint64_t i = 0; i < nsec; i++) {
        if (sec[i] < 0)
            RK_FAIL(RK_ROPE_RULE_SECTIONS, RK_INVALID,
                    "%s: mropeSection[%llu] = %lld: must be >= 0", api, (unsigned long long)i,
                    (long long)sec[i]);
        if (!rk_add_i64(sum, sec[i], &sum))
            RK_FAIL(RK_ROPE_RULE_SECTIONS, RK_INVALID, "%s: mropeSection sum overflows", api);
    }
    const bool mrope = nsec > 0 && sec[0] > 0;
    const int64_t rot_dim = cache->shape[1];
    if (mrope) {
        if (rot_dim % 2 != 0 || sum != rot_dim / 2) /* 2 * sum would overflow for a huge sum */
            RK_FAIL(RK_ROPE_RULE_SECTION_VALUES, RK_INVALID,
                    "%s: mropeSection = %s: 2 * sum (sum = %lld) must equal rotaryDim %lld", api,
                    rk_sections_str(sec, nsec, b1, sizeof b1), (long long)sum, (long long)rot_dim);
        if (pol->aclnn && !rk_whitelisted(sec, nsec))
            RK_FAIL(RK_ROPE_RULE_SECTION_VALUES, RK_INVALID,
                    "%s: mropeSection = %s: CANN supports [16,24,24], [8,12,12], [24,20,20], "
                    "[11,11,10] and [16,16,16,16]; ropekit_rope accepts any sections",
                    api, rk_sections_str(sec, nsec, b1, sizeof b1));
    }
    if (p->head_size < 1)
        RK_FAIL(RK_ROPE_RULE_HEAD_SIZE, RK_INVALID, "%s: headSize = %lld: must be >= 1", api,
                (long long)p->head_size);
    if (mrope && p->cache_mode != 0 && nsec != 3)
        RK_FAIL(RK_ROPE_RULE_MODE_SECTIONS, RK_INVALID,
                "%s: cacheMode = %lld with %llu sections: interleaved mrope needs 3 sections", api,
                (long long)p->cache_mode, (unsigned long long)nsec);

    const int64_t hs = p->head_size;
    for (int i = 1; i <= 2; i++) {
        const ropekit_tensor *t = all[i];
        if (!t)
            continue;
        if (t->ndim == 2 && t->shape[1] % hs != 0)
            RK_FAIL(RK_ROPE_RULE_HEADS, RK_INVALID,
                    "%s: %s shape[1] = %lld: must be a multiple of headSize %lld", api, names[i],
                    (long long)t->shape[1], (long long)hs);
        if (t->ndim == 3 && t->shape[2] != hs)
            RK_FAIL(RK_ROPE_RULE_HEADS, RK_INVALID,
                    "%s: %s shape[2] = %lld: must equal headSize %lld", api, names[i],
                    (long long)t->shape[2], (long long)hs);
    }
    if (pol->aclnn) {
        int64_t align = x->dtype == ROPEKIT_F32 ? 16 : 32;
        if (hs % align != 0 || rot_dim % align != 0)
            RK_FAIL(RK_ROPE_RULE_ALIGN, RK_INVALID,
                    "%s: %s = %lld: must be a multiple of %lld for %s (CANN's tiling alignment)",
                    api, hs % align ? "headSize" : "rotaryDim",
                    (long long)(hs % align ? hs : rot_dim), (long long)align,
                    ropekit_dtype_name(x->dtype));
    }
    if (rot_dim > hs || rot_dim < 2 || rot_dim % 2 != 0)
        RK_FAIL(RK_ROPE_RULE_ROT_DIM, RK_INVALID,
                "%s: rotaryDim (cosSinCache shape[1]) = %lld: must be even, >= 2 and <= headSize "
                "%lld",
                api, (long long)rot_dim, (long long)hs);

    const int rows = mrope ? (int)nsec : 1;
    bool pos_ok = mrope ? pos->ndim == 2 && pos->shape[0] == rows && pos->shape[1] == tokens
                        : pos->ndim == 1 && pos->shape[0] == tokens;
    if (!pos_ok) {
        if (mrope)
            RK_FAIL(RK_ROPE_RULE_POS_SHAPE, RK_INVALID,
                    "%s: positions shape = %s: must be [%d, %lld] for mrope with %d sections", api,
                    rk_shape_str(pos, b1, sizeof b1), rows, (long long)tokens, rows);
        RK_FAIL(RK_ROPE_RULE_POS_SHAPE, RK_INVALID,
                "%s: positions shape = %s: must be [numTokens] = [%lld] for rope", api,
                rk_shape_str(pos, b1, sizeof b1), (long long)tokens);
    }

    for (int i = 4; i < 6; i++)
        if (all[i] && rk_tensor_self_overlaps(all[i]))
            RK_FAIL(RK_ROPE_RULE_OVERLAP, RK_INVALID,
                    "%s: %s strides: two elements share one address; an output must not overlap "
                    "itself",
                    api, names[i]);

    out->mrope = mrope;
    out->nsec = rows;
    out->tokens = tokens;
    out->q_heads = qi ? (qi->ndim == 2 ? qi->shape[1] / hs : qi->shape[1]) : 0;
    out->k_heads = ki ? (ki->ndim == 2 ? ki->shape[1] / hs : ki->shape[1]) : 0;
    out->rot_dim = rot_dim;
    out->max_pos = cache->shape[0];
    out->noop = tokens == 0 || (out->q_heads == 0 && out->k_heads == 0);
    return ROPEKIT_OK;
}
