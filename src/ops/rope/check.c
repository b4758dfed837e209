/* Validation of a RopeWithSinCosCache problem: one small step per row of SPEC §5.5, run
 * in that order, so the first broken rule (and its message) is the one the face reports.
 * What a face restricts comes from its policy. Nothing here reads tensor contents
 * (positions are checked when the work runs). */
#include <stdio.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "kernels/dispatch.h"
#include "ops/check_count.h"
#include "ops/rope/rope.h"

static bool rk_listed(const struct rk_rope_policy *pol, const int64_t *sec, uint64_t n) {
    for (size_t w = 0; w < pol->section_list_count; w++) {
        const struct rk_rope_sections *l = &pol->section_lists[w];
        bool same = (uint64_t)l->count == n;
        for (uint64_t i = 0; same && i < n; i++)
            same = l->s[i] == sec[i];
        if (same)
            return true;
    }
    return false;
}

/* "[16,24,24], [8,12,12], ... and [16,16,16,16]" */
static const char *rk_section_lists_str(const struct rk_rope_policy *pol, char *buf, size_t len) {
    const size_t n = pol->section_list_count;
    size_t used = 0;
    buf[0] = '\0';
    for (size_t w = 0; w < n && used < len; w++) {
        const struct rk_rope_sections *l = &pol->section_lists[w];
        used += (size_t)snprintf(buf + used, len - used, "%s[",
                                 w == 0      ? ""
                                 : w + 1 < n ? ", "
                                             : " and ");
        for (int i = 0; i < l->count && used < len; i++)
            used +=
                (size_t)snprintf(buf + used, len - used, i ? ",%lld" : "%lld", (long long)l->s[i]);
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "]");
    }
    return buf;
}

/* "3 or 4": the section counts of a mask. */
static const char *rk_counts_str(unsigned mask, char *buf, size_t len) {
    size_t used = 0;
    int left = 0;
    buf[0] = '\0';
    for (int n = 0; n < 32; n++)
        left += (mask >> n) & 1u;
    for (int n = 0; n < 32 && used < len; n++)
        if ((mask >> n) & 1u) {
            left--;
            used += (size_t)snprintf(buf + used, len - used, "%d%s", n,
                                     left > 1    ? ", "
                                     : left == 1 ? " or "
                                                 : "");
        }
    return buf;
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

#define RK_COUNT(rule) RK_COUNT_CHECK(RK_OP_ROPE, RK_ROPE_RULE_##rule)

static const char *const rk_names[RK_ROPE_TENSORS] = {
    "positions", "queryIn", "keyIn", "cosSinCache", "queryOut", "keyOut", "offsets"};

/* State shared by the steps. */
struct rk_rope_ctx {
    const struct rk_rope_problem *p;
    const struct rk_rope_policy *pol;
    const ropekit_tensor *t[RK_ROPE_TENSORS]; /* in the order of enum RK_ROPE_POS... */
    const ropekit_tensor *x; /* queryIn, or keyIn without a query: defines the dtype */
    const char *x_name;
    uint64_t nsec; /* sections given (0: none) */
    int64_t sum;   /* of the sections */
    struct rk_rope_checked *out;
};

/* Names of the cache modes (ropekit_rope_cache_mode), for messages. */
static const char *const rk_cache_mode_names[] = {"sectioned", "Qwen3-VL", "ERNIE-4.5-VL",
                                                  "openPangu-VL"};
#define RK_CACHE_MODES (int64_t)(sizeof rk_cache_mode_names / sizeof rk_cache_mode_names[0])

/* Row 0: checked before anything else (V2 does). */
static ropekit_status rk_step_cache_mode(struct rk_rope_ctx *c, int *rule) {
    const int64_t mode = c->p->cache_mode, last = c->pol->last_cache_mode;
    char buf[128];
    RK_COUNT(CACHE_MODE);
    if (mode >= ROPEKIT_MROPE_SECTIONED && mode <= last)
        return ROPEKIT_OK;
    size_t used = 0;
    for (int64_t m = 0; m <= last && m < RK_CACHE_MODES && used < sizeof buf; m++)
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%lld (%s)%s", (long long)m,
                                 rk_cache_mode_names[m],
                                 m + 2 <= last   ? ", "
                                 : m + 1 == last ? " or "
                                                 : "");
    RK_ROPE_FAIL(RK_ROPE_RULE_CACHE_MODE, "%s: cacheMode = %lld: must be %s", c->p->api,
                 (long long)mode, buf);
}

/* Row 1: the tensors (the native face may leave out a query or key pair; offsets are
 * optional), then the face's other required arguments. */
static ropekit_status rk_step_null(struct rk_rope_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_tensor *const *t = c->t;
    RK_COUNT(NULL);
    for (int i = 0; i < RK_ROPE_OFF; i++) {
        bool optional = c->pol->pairs_optional && i != RK_ROPE_POS && i != RK_ROPE_CACHE;
        if (!t[i] && !optional)
            RK_ROPE_FAIL(RK_ROPE_RULE_NULL, "%s: %s = NULL: required", api, rk_names[i]);
    }
    if (!!t[RK_ROPE_Q_IN] != !!t[RK_ROPE_Q_OUT] || !!t[RK_ROPE_K_IN] != !!t[RK_ROPE_K_OUT])
        RK_ROPE_FAIL(RK_ROPE_RULE_NULL, "%s: %s = NULL: an input and its output come together", api,
                     !t[RK_ROPE_Q_IN]    ? "queryIn"
                     : !t[RK_ROPE_Q_OUT] ? "queryOut"
                     : !t[RK_ROPE_K_IN]  ? "keyIn"
                                         : "keyOut");
    if (!t[RK_ROPE_Q_IN] && !t[RK_ROPE_K_IN])
        RK_ROPE_FAIL(RK_ROPE_RULE_NULL, "%s: queryIn = keyIn = NULL: nothing to rotate", api);
    if (c->p->missing_arg)
        RK_ROPE_FAIL(RK_ROPE_RULE_NULL, "%s: %s = NULL: required", api, c->p->missing_arg);
    c->x = t[RK_ROPE_Q_IN] ? t[RK_ROPE_Q_IN] : t[RK_ROPE_K_IN];
    c->x_name = t[RK_ROPE_Q_IN] ? "queryIn" : "keyIn";
    return ROPEKIT_OK;
}

static ropekit_status rk_step_layout(struct rk_rope_ctx *c, int *rule) {
    RK_COUNT(LAYOUT);
    for (int i = 0; i < RK_ROPE_TENSORS; i++) {
        if (!c->t[i])
            continue;
        ropekit_status st = rk_tensor_check_layout(c->t[i], c->p->api, rk_names[i]);
        if (st != ROPEKIT_OK) {
            *rule = RK_ROPE_RULE_LAYOUT;
            return st;
        }
    }
    return ROPEKIT_OK;
}

/* When the data pointers are known now (phase 1); otherwise execution checks them. */
static ropekit_status rk_step_data_null(struct rk_rope_ctx *c, int *rule) {
    if (!c->p->check_data)
        return ROPEKIT_OK;
    RK_COUNT(DATA_NULL);
    for (int i = 0; i < RK_ROPE_TENSORS; i++)
        if (c->t[i] && !c->t[i]->data && rk_tensor_numel(c->t[i]) > 0)
            RK_ROPE_FAIL(RK_ROPE_RULE_DATA_NULL,
                         "%s: %s data = NULL: a tensor with %lld elements needs data", c->p->api,
                         rk_names[i], (long long)rk_tensor_numel(c->t[i]));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_pos_dtype(struct rk_rope_ctx *c, int *rule) {
    RK_COUNT(POS_DTYPE);
    if (c->t[RK_ROPE_POS]->dtype != ROPEKIT_I64)
        RK_ROPE_FAIL(RK_ROPE_RULE_POS_DTYPE, "%s: positions dtype = %d: must be int64", c->p->api,
                     (int)c->t[RK_ROPE_POS]->dtype);
    return ROPEKIT_OK;
}

/* A float dtype the policy takes. */
static bool rk_rope_float_ok(const struct rk_rope_policy *pol, ropekit_dtype dtype) {
    return rk_kdtype_of(dtype) >= 0 && (dtype != ROPEKIT_F64 || pol->float64);
}

static const char *rk_rope_float_names(const struct rk_rope_policy *pol) {
    return pol->float64 ? "float32, float16, bfloat16 or float64" : "float32, float16 or bfloat16";
}

static ropekit_status rk_step_dtype(struct rk_rope_ctx *c, int *rule) {
    const char *api = c->p->api;
    const ropekit_tensor *x = c->x;
    RK_COUNT(DTYPE);
    if (!rk_rope_float_ok(c->pol, x->dtype))
        RK_ROPE_FAIL(RK_ROPE_RULE_DTYPE, "%s: %s dtype = %d: must be %s", api, c->x_name,
                     (int)x->dtype, rk_rope_float_names(c->pol));
    for (int i = 1; i < 6; i++) {
        const ropekit_tensor *t = c->t[i];
        if (!t || t == x)
            continue;
        bool cache_free = i == RK_ROPE_CACHE && c->pol->cache_dtype_free;
        if (cache_free ? !rk_rope_float_ok(c->pol, t->dtype) : t->dtype != x->dtype)
            RK_ROPE_FAIL(RK_ROPE_RULE_DTYPE, "%s: %s dtype = %d: must %s%s", api, rk_names[i],
                         (int)t->dtype, cache_free ? "be " : "equal queryIn's dtype",
                         cache_free ? rk_rope_float_names(c->pol) : "");
        if (cache_free && (t->dtype == ROPEKIT_F64) != (x->dtype == ROPEKIT_F64))
            RK_ROPE_FAIL(RK_ROPE_RULE_DTYPE,
                         "%s: %s dtype = %s: float64 goes with float64 only (%s dtype = %s)", api,
                         rk_names[i], ropekit_dtype_name(t->dtype), c->x_name,
                         ropekit_dtype_name(x->dtype));
    }
    return ROPEKIT_OK;
}

/* mrope as rk_step_sections finds it, known before the sections are checked. */
static bool rk_wants_mrope(const struct rk_rope_problem *p) {
    return p->sections && p->num_sections > 0 && p->sections[0] > 0;
}

/* Positions' rank without the section row gives the token dims ([T] or [B, S]); with one
 * token dim allowed it is [T] whatever positions' rank (their shape is row 15). */
static ropekit_status rk_rope_token_dims(struct rk_rope_ctx *c, int *rule) {
    const ropekit_tensor *pos = c->t[RK_ROPE_POS];
    const bool mrope = rk_wants_mrope(c->p);
    char b1[96];
    c->out->tok_dims = c->pol->max_token_dims == 1 ? 1 : pos->ndim - (mrope ? 1 : 0);
    if (c->out->tok_dims < 1 || c->out->tok_dims > RK_ROPE_MAX_TOKEN_DIMS)
        RK_ROPE_FAIL(RK_ROPE_RULE_RANK, "%s: positions shape = %s: must be %s", c->p->api,
                     rk_shape_str(pos, b1, sizeof b1),
                     mrope ? "[m, T] or [m, B, S] for mrope" : "[T] or [B, S] for rope");
    return ROPEKIT_OK;
}

static const char *rk_qk_ranks(bool split_heads, int tok_dims) {
    if (tok_dims == 1)
        return split_heads ? "2-D [T, H*headSize] or 3-D [T, H, headSize]" : "2-D";
    return split_heads ? "3-D [B, S, H*headSize] or 4-D [B, S, H, headSize] (positions have "
                         "token dims [B, S])"
                       : "3-D [B, S, H*headSize] (positions have token dims [B, S])";
}

static ropekit_status rk_step_rank(struct rk_rope_ctx *c, int *rule) {
    char b1[96];
    RK_COUNT(RANK);
    ropekit_status st = rk_rope_token_dims(c, rule);
    if (st != ROPEKIT_OK)
        return st;
    const int td = c->out->tok_dims;
    for (int i = RK_ROPE_Q_IN; i <= RK_ROPE_CACHE; i++) {
        const ropekit_tensor *t = c->t[i];
        if (!t)
            continue;
        const bool cache = i == RK_ROPE_CACHE;
        const int lo = cache ? 2 : td + 1, hi = cache ? 2 : td + (c->pol->split_heads ? 2 : 1);
        if (t->ndim < lo || t->ndim > hi)
            RK_ROPE_FAIL(RK_ROPE_RULE_RANK, "%s: %s shape = %s: must be %s", c->p->api, rk_names[i],
                         rk_shape_str(t, b1, sizeof b1),
                         cache ? "2-D" : rk_qk_ranks(c->pol->split_heads, td));
    }
    return ROPEKIT_OK;
}

/* A policy without empty inputs: reported in the order queryIn, keyIn, cosSinCache,
 * positions (SPEC §5.5 row 5). */
static ropekit_status rk_step_empty(struct rk_rope_ctx *c, int *rule) {
    static const int order[4] = {RK_ROPE_Q_IN, RK_ROPE_K_IN, RK_ROPE_CACHE, RK_ROPE_POS};
    char b1[96];
    if (c->pol->empty_allowed)
        return ROPEKIT_OK;
    RK_COUNT(EMPTY);
    for (int n = 0; n < 4; n++)
        if (rk_tensor_numel(c->t[order[n]]) == 0)
            RK_ROPE_FAIL(RK_ROPE_RULE_EMPTY, "%s: %s shape = %s: must not be empty", c->p->api,
                         rk_names[order[n]], rk_shape_str(c->t[order[n]], b1, sizeof b1));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_tokens(struct rk_rope_ctx *c, int *rule) {
    const ropekit_tensor *qi = c->t[RK_ROPE_Q_IN], *ki = c->t[RK_ROPE_K_IN];
    const int td = c->out->tok_dims;
    RK_COUNT(TOKENS);
    c->out->tokens = c->x->shape[0];
    if (td == 1) {
        if (qi && ki && ki->shape[0] != qi->shape[0])
            RK_ROPE_FAIL(RK_ROPE_RULE_TOKENS,
                         "%s: keyIn shape[0] = %lld: must equal queryIn's numTokens %lld",
                         c->p->api, (long long)ki->shape[0], (long long)qi->shape[0]);
        return ROPEKIT_OK;
    }
    /* B * S may overflow only when query and key are empty; positions then cannot
     * match them (rk_step_pos_shape) */
    if (!rk_mul_i64(c->x->shape[0], c->x->shape[1], &c->out->tokens))
        c->out->tokens = INT64_MAX;
    for (int d = 0; qi && ki && d < td; d++)
        if (ki->shape[d] != qi->shape[d])
            RK_ROPE_FAIL(RK_ROPE_RULE_TOKENS,
                         "%s: keyIn shape[%d] = %lld: must equal queryIn shape[%d] = %lld (token "
                         "dims [B, S])",
                         c->p->api, d, (long long)ki->shape[d], d, (long long)qi->shape[d]);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_out_shape(struct rk_rope_ctx *c, int *rule) {
    const ropekit_tensor *qi = c->t[RK_ROPE_Q_IN], *ki = c->t[RK_ROPE_K_IN];
    const ropekit_tensor *qo = c->t[RK_ROPE_Q_OUT], *ko = c->t[RK_ROPE_K_OUT];
    char b1[96], b2[96];
    RK_COUNT(OUT_SHAPE);
    bool q_bad = qi && !rk_same_shape(qo, qi);
    if (q_bad || (ki && !rk_same_shape(ko, ki)))
        RK_ROPE_FAIL(RK_ROPE_RULE_OUT_SHAPE, "%s: %s shape = %s: must equal %s shape %s", c->p->api,
                     q_bad ? "queryOut" : "keyOut", rk_shape_str(q_bad ? qo : ko, b1, sizeof b1),
                     q_bad ? "queryIn" : "keyIn", rk_shape_str(q_bad ? qi : ki, b2, sizeof b2));
    return ROPEKIT_OK;
}

static ropekit_status rk_step_sections(struct rk_rope_ctx *c, int *rule) {
    const char *api = c->p->api;
    const int64_t *sec = c->p->sections;
    RK_COUNT(SECTIONS);
    const unsigned counts = c->pol->section_counts;
    char b1[64];
    c->nsec = sec ? c->p->num_sections : 0;
    if (sec && counts && (c->nsec >= 32 || !((counts >> c->nsec) & 1u)))
        RK_ROPE_FAIL(RK_ROPE_RULE_SECTIONS, "%s: mropeSection size = %llu: must be %s", api,
                     (unsigned long long)c->nsec, rk_counts_str(counts, b1, sizeof b1));
    if (c->nsec > ROPEKIT_ROPE_MAX_SECTIONS)
        RK_ROPE_FAIL(RK_ROPE_RULE_SECTIONS, "%s: sections count = %llu: at most %d", api,
                     (unsigned long long)c->nsec, ROPEKIT_ROPE_MAX_SECTIONS);
    c->sum = 0;
    for (uint64_t i = 0; i < c->nsec; i++) {
        if (sec[i] < 0)
            RK_ROPE_FAIL(RK_ROPE_RULE_SECTIONS, "%s: mropeSection[%llu] = %lld: must be >= 0", api,
                         (unsigned long long)i, (long long)sec[i]);
        if (!rk_add_i64(c->sum, sec[i], &c->sum))
            RK_ROPE_FAIL(RK_ROPE_RULE_SECTIONS, "%s: mropeSection sum overflows", api);
    }
    c->out->mrope = rk_wants_mrope(c->p);
    c->out->rot_dim = c->t[RK_ROPE_CACHE]->shape[1];
    return ROPEKIT_OK;
}

static ropekit_status rk_step_section_values(struct rk_rope_ctx *c, int *rule) {
    const int64_t *sec = c->p->sections, rot_dim = c->out->rot_dim;
    char b1[96], b2[160];
    if (!c->out->mrope)
        return ROPEKIT_OK;
    RK_COUNT(SECTION_VALUES);
    if (rot_dim % 2 != 0 || c->sum != rot_dim / 2) /* 2 * sum would overflow for a huge sum */
        RK_ROPE_FAIL(RK_ROPE_RULE_SECTION_VALUES,
                     "%s: mropeSection = %s: 2 * sum (sum = %lld) must equal rotaryDim %lld",
                     c->p->api, rk_sections_str(sec, c->nsec, b1, sizeof b1), (long long)c->sum,
                     (long long)rot_dim);
    if (c->pol->section_lists && !rk_listed(c->pol, sec, c->nsec))
        RK_ROPE_FAIL(RK_ROPE_RULE_SECTION_VALUES, "%s: mropeSection = %s: %s%s%s", c->p->api,
                     rk_sections_str(sec, c->nsec, b1, sizeof b1), c->pol->section_lists_lead,
                     rk_section_lists_str(c->pol, b2, sizeof b2), c->pol->section_lists_tail);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_head_size(struct rk_rope_ctx *c, int *rule) {
    RK_COUNT(HEAD_SIZE);
    if (c->p->head_size < 1)
        RK_ROPE_FAIL(RK_ROPE_RULE_HEAD_SIZE, "%s: headSize = %lld: must be >= 1", c->p->api,
                     (long long)c->p->head_size);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_mode_sections(struct rk_rope_ctx *c, int *rule) {
    const int64_t *sec = c->p->sections, mode = c->p->cache_mode;
    const char *api = c->p->api;
    char b1[96];
    RK_COUNT(MODE_SECTIONS);
    if (!c->out->mrope || mode == ROPEKIT_MROPE_SECTIONED)
        return ROPEKIT_OK;
    if (mode == ROPEKIT_MROPE_QWEN3_VL && c->nsec != 3)
        RK_ROPE_FAIL(RK_ROPE_RULE_MODE_SECTIONS,
                     "%s: cacheMode = %lld with %llu sections: interleaved mrope needs 3 sections",
                     api, (long long)mode, (unsigned long long)c->nsec);
    if (mode == ROPEKIT_MROPE_ERNIE_VL && (c->nsec != 3 || sec[0] != sec[1]))
        RK_ROPE_FAIL(RK_ROPE_RULE_MODE_SECTIONS,
                     "%s: cacheMode = 2 with mropeSection = %s: ERNIE-4.5-VL mrope needs 3 "
                     "sections (h, w, t) with h == w",
                     api, rk_sections_str(sec, c->nsec, b1, sizeof b1));
    if (mode == ROPEKIT_MROPE_PANGU_VL && c->nsec != 2 && c->nsec != 3)
        RK_ROPE_FAIL(RK_ROPE_RULE_MODE_SECTIONS,
                     "%s: cacheMode = 3 with %llu sections: openPangu-VL interleaved mrope needs 2 "
                     "sections (h, w) or 3 (t, h, w)",
                     api, (unsigned long long)c->nsec);
    return ROPEKIT_OK;
}

/* After the token dims: [H*headSize] (flat heads) or [H, headSize] (split). */
static ropekit_status rk_step_heads(struct rk_rope_ctx *c, int *rule) {
    const int64_t hs = c->p->head_size;
    const int td = c->out->tok_dims;
    RK_COUNT(HEADS);
    for (int i = RK_ROPE_Q_IN; i <= RK_ROPE_K_IN; i++) {
        const ropekit_tensor *t = c->t[i];
        if (!t)
            continue;
        if (t->ndim == td + 1 && t->shape[td] % hs != 0)
            RK_ROPE_FAIL(RK_ROPE_RULE_HEADS,
                         "%s: %s shape[%d] = %lld: must be a multiple of headSize %lld", c->p->api,
                         rk_names[i], td, (long long)t->shape[td], (long long)hs);
        if (t->ndim == td + 2 && t->shape[td + 1] != hs)
            RK_ROPE_FAIL(RK_ROPE_RULE_HEADS, "%s: %s shape[%d] = %lld: must equal headSize %lld",
                         c->p->api, rk_names[i], td + 1, (long long)t->shape[td + 1],
                         (long long)hs);
    }
    return ROPEKIT_OK;
}

/* The policy's alignment of headSize and rotaryDim, per element size. */
static ropekit_status rk_step_align(struct rk_rope_ctx *c, int *rule) {
    const int64_t hs = c->p->head_size, rot_dim = c->out->rot_dim;
    const int64_t align = c->x->dtype == ROPEKIT_F32 ? c->pol->align_f32 : c->pol->align_16bit;
    if (align <= 0)
        return ROPEKIT_OK;
    RK_COUNT(ALIGN);
    if (hs % align != 0 || rot_dim % align != 0)
        RK_ROPE_FAIL(RK_ROPE_RULE_ALIGN, "%s: %s = %lld: must be a multiple of %lld for %s (%s)",
                     c->p->api, hs % align ? "headSize" : "rotaryDim",
                     (long long)(hs % align ? hs : rot_dim), (long long)align,
                     ropekit_dtype_name(c->x->dtype), c->pol->align_note);
    return ROPEKIT_OK;
}

static ropekit_status rk_step_rot_dim(struct rk_rope_ctx *c, int *rule) {
    const int64_t hs = c->p->head_size, rot_dim = c->out->rot_dim;
    RK_COUNT(ROT_DIM);
    if (rot_dim > hs || rot_dim < 2 || rot_dim % 2 != 0)
        RK_ROPE_FAIL(RK_ROPE_RULE_ROT_DIM,
                     "%s: rotaryDim (cosSinCache shape[1]) = %lld: must be even, >= 2 and <= "
                     "headSize %lld",
                     c->p->api, (long long)rot_dim, (long long)hs);
    return ROPEKIT_OK;
}

/* Positions' shape: the section row for mrope, then the token dims of queryIn (or
 * keyIn). rk_positions_fit tests it in place (phase 1 of every call pays for it), the
 * message builds it. */
static bool rk_positions_fit(const struct rk_rope_ctx *c, int rows) {
    const ropekit_tensor *pos = c->t[RK_ROPE_POS];
    const int lead = c->out->mrope ? 1 : 0, td = c->out->tok_dims;
    bool fit = pos->ndim == lead + td && (!lead || pos->shape[0] == rows);
    for (int d = 0; fit && d < td; d++)
        fit = pos->shape[lead + d] == c->x->shape[d];
    return fit;
}

static struct rk_shape rk_wanted_positions(const struct rk_rope_ctx *c, int rows) {
    struct rk_shape want = {.present = true};
    if (c->out->mrope)
        want.dims[want.ndim++] = rows;
    for (int d = 0; d < c->out->tok_dims; d++)
        want.dims[want.ndim++] = c->x->shape[d];
    return want;
}

static bool rk_shape_is(const ropekit_tensor *t, const struct rk_shape *s) {
    bool same = t->ndim == s->ndim;
    for (int32_t d = 0; same && d < t->ndim; d++)
        same = t->shape[d] == s->dims[d];
    return same;
}

static ropekit_status rk_step_pos_shape(struct rk_rope_ctx *c, int *rule) {
    const ropekit_tensor *pos = c->t[RK_ROPE_POS];
    const int64_t tokens = c->out->tokens;
    const int rows = c->out->mrope ? (int)c->nsec : 1;
    char b1[96], b2[96];
    RK_COUNT(POS_SHAPE);
    const bool ok = rk_positions_fit(c, rows);
    if (!ok && c->out->tok_dims > 1) {
        const struct rk_shape want = rk_wanted_positions(c, rows);
        RK_ROPE_FAIL(RK_ROPE_RULE_POS_SHAPE,
                     "%s: positions shape = %s: must be %s (%s with %s's token dims [B, S])",
                     c->p->api, rk_shape_str(pos, b1, sizeof b1),
                     rk_shape_format(&want, b2, sizeof b2), c->out->mrope ? "mrope" : "rope",
                     c->x_name);
    }
    if (!ok && c->out->mrope)
        RK_ROPE_FAIL(RK_ROPE_RULE_POS_SHAPE,
                     "%s: positions shape = %s: must be [%d, %lld] for mrope with %d sections",
                     c->p->api, rk_shape_str(pos, b1, sizeof b1), rows, (long long)tokens, rows);
    if (!ok)
        RK_ROPE_FAIL(RK_ROPE_RULE_POS_SHAPE,
                     "%s: positions shape = %s: must be [numTokens] = [%lld] for rope", c->p->api,
                     rk_shape_str(pos, b1, sizeof b1), (long long)tokens);
    c->out->nsec = rows;
    return ROPEKIT_OK;
}

/* Native: offsets are int64 with positions' token dims (a row for every section of
 * mrope would be the same offsets again). */
static ropekit_status rk_step_offsets(struct rk_rope_ctx *c, int *rule) {
    const ropekit_tensor *off = c->t[RK_ROPE_OFF], *pos = c->t[RK_ROPE_POS];
    char b1[96], b2[96];
    if (!off)
        return ROPEKIT_OK;
    RK_COUNT(OFFSETS);
    if (off->dtype != ROPEKIT_I64)
        RK_ROPE_FAIL(RK_ROPE_RULE_OFFSETS, "%s: offsets dtype = %d: must be int64", c->p->api,
                     (int)off->dtype);
    struct rk_shape want = {.present = true, .ndim = c->out->tok_dims};
    for (int d = 0; d < want.ndim; d++)
        want.dims[d] = pos->shape[pos->ndim - want.ndim + d];
    if (!rk_shape_is(off, &want))
        RK_ROPE_FAIL(RK_ROPE_RULE_OFFSETS,
                     "%s: offsets shape = %s: must be %s, the token dims of positions", c->p->api,
                     rk_shape_str(off, b1, sizeof b1), rk_shape_format(&want, b2, sizeof b2));
    return ROPEKIT_OK;
}

/* Whether an output shares a byte with another tensor without being exactly its input
 * (in place): the one cross-tensor check, for phase 1 and for data bound later. */
static ropekit_status rk_rope_overlap_error(const char *api, int o, int i, int *rule) {
    RK_ROPE_FAIL(RK_ROPE_RULE_OVERLAP,
                 "%s: %s memory overlaps %s: an output may only be exactly its input (in place)",
                 api, rk_names[o], rk_names[i]);
}

static inline ropekit_status
rk_rope_check_overlaps(const char *api, const struct rk_view_geom geom[RK_ROPE_TENSORS],
                       const bool present[RK_ROPE_TENSORS], const bool same_layout[2],
                       const void *const data[RK_ROPE_TENSORS], int *rule) {
    for (int o = RK_ROPE_Q_OUT; o <= RK_ROPE_K_OUT; o++) {
        if (!present[o])
            continue;
        const int in = o - (RK_ROPE_Q_OUT - RK_ROPE_Q_IN);
#if defined(__GNUC__)
#pragma GCC unroll 7
#endif
        for (int i = 0; i < RK_ROPE_TENSORS; i++) {
            if (!present[i] || i == o)
                continue;
            if (i == in && data[i] == data[o] && same_layout[o - RK_ROPE_Q_OUT])
                continue; /* in place */
            if (rk_views_overlap(&geom[o], data[o], &geom[i], data[i]))
                return rk_rope_overlap_error(api, o, i, rule);
        }
    }
    return ROPEKIT_OK;
}

/* What the plan keeps of the views: their geometry, and whether each output has its
 * input's layout (then it may be exactly its input: in place). */
static void rk_rope_derive(struct rk_rope_ctx *c) {
    struct rk_rope_checked *out = c->out;
    const int64_t hs = c->p->head_size;
    const ropekit_tensor *qi = c->t[RK_ROPE_Q_IN], *ki = c->t[RK_ROPE_K_IN];
    const int td = out->tok_dims;
    out->q_heads = qi ? (qi->ndim == td + 1 ? qi->shape[td] / hs : qi->shape[td]) : 0;
    out->k_heads = ki ? (ki->ndim == td + 1 ? ki->shape[td] / hs : ki->shape[td]) : 0;
    out->max_pos = c->t[RK_ROPE_CACHE]->shape[0];
    out->noop = out->tokens == 0 || (out->q_heads == 0 && out->k_heads == 0);
    for (int i = 0; i < RK_ROPE_TENSORS; i++) {
        out->present[i] = c->t[i] != NULL;
        if (c->t[i])
            out->geom[i] = rk_view_geom_of(c->t[i]);
    }
    for (int side = 0; side < 2; side++) {
        const ropekit_tensor *in = c->t[RK_ROPE_Q_IN + side], *o = c->t[RK_ROPE_Q_OUT + side];
        bool same = in && in->ndim == o->ndim;
        for (int32_t i = 0; same && i < in->ndim; i++)
            same = in->strides[i] == o->strides[i] || in->shape[i] == 1;
        out->same_layout[side] = same;
    }
}

/* Row 16: no output overlaps itself; with data, no output shares a byte with another
 * tensor unless it is exactly its input. */
static ropekit_status rk_step_overlap(struct rk_rope_ctx *c, int *rule) {
    RK_COUNT(OVERLAP);
    for (int i = RK_ROPE_Q_OUT; i <= RK_ROPE_K_OUT; i++)
        if (c->t[i] && rk_tensor_self_overlaps(c->t[i]))
            RK_ROPE_FAIL(RK_ROPE_RULE_OVERLAP,
                         "%s: %s strides: two elements share one address; an output must not "
                         "overlap itself",
                         c->p->api, rk_names[i]);
    rk_rope_derive(c);
    if (!c->p->check_data || c->out->noop)
        return ROPEKIT_OK;
    const void *data[RK_ROPE_TENSORS];
    for (int i = 0; i < RK_ROPE_TENSORS; i++)
        data[i] = c->t[i] ? c->t[i]->data : NULL;
    return rk_rope_check_overlaps(c->p->api, c->out->geom, c->out->present, c->out->same_layout,
                                  data, rule);
}

/* SPEC §5.5's rows in order (the rule enum's order). A list the compiler expands into
 * straight-line calls, so phase 1 pays no indirect call per step. */
#define RK_ROPE_STEPS(X)                                                                           \
    X(cache_mode)                                                                                  \
    X(null)                                                                                        \
    X(layout)                                                                                      \
    X(data_null)                                                                                   \
    X(pos_dtype)                                                                                   \
    X(dtype)                                                                                       \
    X(rank)                                                                                        \
    X(empty)                                                                                       \
    X(tokens)                                                                                      \
    X(out_shape)                                                                                   \
    X(sections)                                                                                    \
    X(section_values)                                                                              \
    X(head_size)                                                                                   \
    X(mode_sections)                                                                               \
    X(heads)                                                                                       \
    X(align)                                                                                       \
    X(rot_dim)                                                                                     \
    X(pos_shape)                                                                                   \
    X(offsets)                                                                                     \
    X(overlap)

ropekit_status rk_rope_validate(const struct rk_rope_problem *p, const struct rk_rope_policy *pol,
                                struct rk_rope_checked *out, int *rule) {
    struct rk_rope_ctx c = {
        .p = p,
        .pol = pol,
        .t = {p->positions, p->query_in, p->key_in, p->cache, p->query_out, p->key_out, p->offsets},
        .out = out,
    };
    ropekit_status st;
    *rule = RK_ROPE_RULE_NONE;
#define RK_RUN_STEP_(name)                                                                         \
    if ((st = rk_step_##name(&c, rule)) != ROPEKIT_OK)                                             \
        return st;
    RK_ROPE_STEPS(RK_RUN_STEP_)
#undef RK_RUN_STEP_
    return ROPEKIT_OK;
}

ropekit_status rk_rope_check_data(const void *plan, const char *api, const struct rk_op_data *d,
                                  int *rule) {
    const struct rk_rope_plan *pl = plan;
    const void *const *data = (const void *const *)d->ptr;
    const bool present[RK_ROPE_TENSORS] = {true,          pl->q.present, pl->k.present, true,
                                           pl->q.present, pl->k.present, pl->offsets};
    const bool same_layout[2] = {pl->q.same_layout, pl->k.same_layout};
    *rule = RK_ROPE_RULE_NONE;
    RK_COUNT_CHECK(RK_OP_ROPE, RK_ROPE_RULE_DATA_NULL);
    for (int i = 0; i < RK_ROPE_TENSORS; i++)
        if (present[i] && !data[i] && pl->geom[i].span_hi > pl->geom[i].span_lo)
            RK_ROPE_FAIL(RK_ROPE_RULE_DATA_NULL, "%s: %s data = NULL: required", api, rk_names[i]);
    if (pl->noop)
        return ROPEKIT_OK;
    RK_COUNT_CHECK(RK_OP_ROPE, RK_ROPE_RULE_OVERLAP);
    return rk_rope_check_overlaps(api, pl->geom, present, same_layout, data, rule);
}
