/* Prepared benchmark cases: buffers with deterministic data, and either a native plan
 * (made once, executed in place) or aclTensors on a created stream (the aclnn round
 * trip of a CANN client, in place or out of place). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "aclnnop/aclnn_interleave_rope.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"
#include "testkit/half_bits.h"
#include "workloads.h"

enum { RKB_MAX_BUF = 7, RKB_ROPE_BUF = 6 };

struct rkb_case {
    struct rkb_config cfg;
    ropekit_plan *plan; /* native face */
    /* pr: x cos sin; rope: positions q k cache [q_out k_out]; InterleaveRope and
     * RotaryPositionEmbedding: x cos sin out; its gradient: dy cos sin [x] dx dcos dsin;
     * ApplyRotaryPosEmb: q k cos sin */
    void *buf[RKB_MAX_BUF];
    aclTensor *tensor[RKB_MAX_BUF];
    aclIntArray *ints; /* pr: the slice; rope: mrope sections (NULL: rope) */
    aclrtStream stream;
    /* In place, rounding makes repeated rotations drift slowly towards zero, and fp32
     * subnormals are slow: the inputs are restored from these every RKB_RESTORE_RUNS runs
     * (rope; partial rotary uses exact rotations). */
    void *orig[2];
    int64_t runs;
    char desc[320];
};

#define RKB_RESTORE_RUNS 4096

static int64_t rkb_prod(const int64_t *d, int n) {
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        p *= d[i];
    return p;
}

/* Deterministic test data in [-0.5, 0.5) (an LCG: fast enough for the largest workloads),
 * rounded to the dtype by the test kit's conversions. */
static void rkb_fill(void *p, int64_t n, ropekit_dtype dt, uint32_t seed) {
    uint32_t state = seed * 2654435761u + 1u;
    const size_t item = ropekit_dtype_size(dt);
    for (int64_t i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        float f = (float)(state >> 8) * (1.0f / 16777216.0f) - 0.5f;
        tk_store_f32((char *)p + (size_t)i * item, dt, f);
    }
}

static void *rkb_alloc(int64_t elems, ropekit_dtype dt) {
    size_t bytes = (size_t)elems * ropekit_dtype_size(dt);
    return aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
}

static aclTensor *rkb_acl_tensor(void *data, ropekit_dtype dt, int nd, const int64_t *shape) {
    return aclCreateTensor(shape, (uint64_t)nd, (aclDataType)dt, NULL, 0, ACL_FORMAT_ND, shape,
                           (uint64_t)nd, data);
}

static bool rkb_acl_session(struct rkb_case *k) {
    aclError e = aclInit(NULL);
    if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_INITIALIZE)
        return false;
    return aclrtSetDevice(0) == ACL_SUCCESS && aclrtCreateStream(&k->stream) == ACL_SUCCESS;
}

static bool rkb_case_pr(struct rkb_case *k) {
    const struct rkb_workload *w = k->cfg.w;
    int64_t xn = rkb_prod(w->x, 4), cn = rkb_prod(w->cs, 4);
    k->buf[0] = rkb_alloc(xn, k->cfg.x_dtype);
    k->buf[1] = rkb_alloc(cn, k->cfg.cs_dtype);
    k->buf[2] = rkb_alloc(cn, k->cfg.cs_dtype);
    if (!k->buf[0] || !k->buf[1] || !k->buf[2])
        return false;
    rkb_fill(k->buf[0], xn, k->cfg.x_dtype, 1);
    /* Real rotations (cos^2 + sin^2 = 1): repeated runs keep x's magnitude, so timing never
     * drifts into subnormal arithmetic. */
    if (ropekit_rotary_coeffs_build(k->buf[1], k->buf[2], k->cfg.cs_dtype, cn / w->cs[3], w->cs[3],
                                    (ropekit_rotary_mode)k->cfg.style, 10000.0, NULL) != ROPEKIT_OK)
        return false;
    if (k->cfg.face == RKB_ACLNN) {
        const int64_t slice[2] = {w->start, w->end};
        k->tensor[0] = rkb_acl_tensor(k->buf[0], k->cfg.x_dtype, 4, w->x);
        k->tensor[1] = rkb_acl_tensor(k->buf[1], k->cfg.cs_dtype, 4, w->cs);
        k->tensor[2] = rkb_acl_tensor(k->buf[2], k->cfg.cs_dtype, 4, w->cs);
        k->ints = aclCreateIntArray(slice, 2);
        return k->tensor[0] && k->tensor[1] && k->tensor[2] && k->ints && rkb_acl_session(k);
    }
    ropekit_tensor x = ropekit_tensor_make(k->buf[0], k->cfg.x_dtype, 4, w->x, NULL);
    ropekit_tensor c = ropekit_tensor_make(k->buf[1], k->cfg.cs_dtype, 4, w->cs, NULL);
    ropekit_tensor s = ropekit_tensor_make(k->buf[2], k->cfg.cs_dtype, 4, w->cs, NULL);
    ropekit_direction dir = w->kind == RKB_PARTIAL_GRAD ? ROPEKIT_BACKWARD : ROPEKIT_FORWARD;
    return ropekit_partial_rotary_plan_create(&x, &c, &s, (ropekit_rotary_mode)k->cfg.style,
                                              w->start, w->end, dir, &k->plan) == ROPEKIT_OK;
}

static bool rkb_case_rope(struct rkb_case *k) {
    const struct rkb_workload *w = k->cfg.w;
    const int64_t m = w->nsec > 0 ? w->nsec : 1;
    const int64_t qn = w->tokens * w->q_heads * w->head_size;
    const int64_t kn = w->tokens * w->k_heads * w->head_size;
    const bool oop = rkb_face_out_of_place(k->cfg.face);
    k->buf[0] = malloc((size_t)(m * w->tokens) * sizeof(int64_t));
    k->buf[1] = rkb_alloc(qn, k->cfg.x_dtype);
    k->buf[2] = rkb_alloc(kn, k->cfg.x_dtype);
    k->buf[3] = rkb_alloc(w->max_pos * w->rot_dim, k->cfg.cs_dtype);
    k->buf[4] = oop ? rkb_alloc(qn, k->cfg.x_dtype) : k->buf[1];
    k->buf[5] = oop ? rkb_alloc(kn, k->cfg.x_dtype) : k->buf[2];
    for (int i = 0; i < RKB_ROPE_BUF; i++)
        if (!k->buf[i])
            return false;
    int64_t *pos = k->buf[0];
    for (int64_t r = 0; r < m; r++) /* decode-like positions near the end of the cache */
        for (int64_t t = 0; t < w->tokens; t++)
            pos[r * w->tokens + t] = (w->max_pos - w->tokens - 7 * r + t) % w->max_pos;
    rkb_fill(k->buf[1], qn, k->cfg.x_dtype, 4);
    rkb_fill(k->buf[2], kn, k->cfg.x_dtype, 5);
    if (!oop) {
        const size_t xs = ropekit_dtype_size(k->cfg.x_dtype);
        if (!(k->orig[0] = malloc((size_t)qn * xs)) || !(k->orig[1] = malloc((size_t)kn * xs)))
            return false;
        memcpy(k->orig[0], k->buf[1], (size_t)qn * xs);
        memcpy(k->orig[1], k->buf[2], (size_t)kn * xs);
    }
    if (oop) { /* outputs touched once, so the first timed call does not page them in */
        memset(k->buf[4], 0, (size_t)qn * ropekit_dtype_size(k->cfg.x_dtype));
        memset(k->buf[5], 0, (size_t)kn * ropekit_dtype_size(k->cfg.x_dtype));
    }
    if (ropekit_cos_sin_cache_build(k->buf[3], k->cfg.cs_dtype, w->max_pos, w->rot_dim, 10000.0,
                                    NULL) != ROPEKIT_OK)
        return false;
    int64_t ps[2] = {m, w->tokens}, qs[2] = {w->tokens, w->q_heads * w->head_size},
            ks[2] = {w->tokens, w->k_heads * w->head_size}, cs[2] = {w->max_pos, w->rot_dim};
    if (k->cfg.face == RKB_ACLNN || k->cfg.face == RKB_ACLNN_OOP) {
        k->tensor[0] = w->nsec > 0 ? rkb_acl_tensor(k->buf[0], ROPEKIT_I64, 2, ps)
                                   : rkb_acl_tensor(k->buf[0], ROPEKIT_I64, 1, ps + 1);
        k->tensor[1] = rkb_acl_tensor(k->buf[1], k->cfg.x_dtype, 2, qs);
        k->tensor[2] = rkb_acl_tensor(k->buf[2], k->cfg.x_dtype, 2, ks);
        k->tensor[3] = rkb_acl_tensor(k->buf[3], k->cfg.cs_dtype, 2, cs);
        k->tensor[4] = oop ? rkb_acl_tensor(k->buf[4], k->cfg.x_dtype, 2, qs) : NULL;
        k->tensor[5] = oop ? rkb_acl_tensor(k->buf[5], k->cfg.x_dtype, 2, ks) : NULL;
        if (w->nsec > 0 && !(k->ints = aclCreateIntArray(w->sections, (uint64_t)w->nsec)))
            return false;
        return k->tensor[0] && k->tensor[1] && k->tensor[2] && k->tensor[3] &&
               (!oop || (k->tensor[4] && k->tensor[5])) && rkb_acl_session(k);
    }
    ropekit_tensor pos_t = w->nsec > 0
                               ? ropekit_tensor_make(k->buf[0], ROPEKIT_I64, 2, ps, NULL)
                               : ropekit_tensor_make(k->buf[0], ROPEKIT_I64, 1, ps + 1, NULL);
    ropekit_tensor q = ropekit_tensor_make(k->buf[1], k->cfg.x_dtype, 2, qs, NULL);
    ropekit_tensor kk = ropekit_tensor_make(k->buf[2], k->cfg.x_dtype, 2, ks, NULL);
    ropekit_tensor qo = ropekit_tensor_make(k->buf[4], k->cfg.x_dtype, 2, qs, NULL);
    ropekit_tensor ko = ropekit_tensor_make(k->buf[5], k->cfg.x_dtype, 2, ks, NULL);
    ropekit_tensor cache = ropekit_tensor_make(k->buf[3], k->cfg.cs_dtype, 2, cs, NULL);
    ropekit_rope_config cfg = {w->head_size,
                               (ropekit_rope_style)k->cfg.style,
                               w->nsec > 0 ? w->sections : NULL,
                               w->nsec,
                               0,
                               NULL};
    return ropekit_rope_plan_create(&pos_t, &q, &kk, &cache, &qo, &ko, &cfg, &k->plan) ==
           ROPEKIT_OK;
}

/* Real rotations (cos^2 + sin^2 = 1) for the mode: in place, repeated runs keep x's
 * magnitude. */
static bool rkb_coeffs(struct rkb_case *k, void *cos, void *sin) {
    const struct rkb_workload *w = k->cfg.w;
    const int64_t cn = rkb_prod(w->cs, 4);
    return cos && sin &&
           ropekit_rotary_coeffs_build(cos, sin, k->cfg.cs_dtype, cn / w->cs[3], w->cs[3],
                                       (ropekit_rotary_mode)k->cfg.style, 10000.0,
                                       NULL) == ROPEKIT_OK;
}

/* A filled x-shaped buffer (seed 0: left unfilled, touched once so the first timed call
 * does not page it in). */
static void *rkb_x_buffer(const struct rkb_case *k, const int64_t *shape, uint32_t seed) {
    const int64_t n = rkb_prod(shape, 4);
    void *p = rkb_alloc(n, k->cfg.x_dtype);
    if (p && seed)
        rkb_fill(p, n, k->cfg.x_dtype, seed);
    else if (p)
        memset(p, 0, (size_t)n * ropekit_dtype_size(k->cfg.x_dtype));
    return p;
}

/* InterleaveRope, RotaryPositionEmbedding and its gradient: whole rows out of place. */
static bool rkb_case_rotary_out(struct rkb_case *k) {
    const struct rkb_workload *w = k->cfg.w;
    const bool grad = w->kind == RKB_RPE_GRAD, sums = grad && w->cs_grad;
    const bool aclnn = k->cfg.face == RKB_ACLNN;
    const int64_t cn = rkb_prod(w->cs, 4);
    const ropekit_rotary_mode mode = (ropekit_rotary_mode)k->cfg.style;
    const ropekit_dtype xd = k->cfg.x_dtype, cd = k->cfg.cs_dtype;
    const int out = grad ? 4 : 3;
    k->buf[0] = rkb_x_buffer(k, w->x, 1);
    k->buf[1] = rkb_alloc(cn, cd);
    k->buf[2] = rkb_alloc(cn, cd);
    k->buf[out] = rkb_x_buffer(k, w->x, 0);
    if (!k->buf[0] || !k->buf[out] || !rkb_coeffs(k, k->buf[1], k->buf[2]))
        return false;
    if (grad && (sums || aclnn)) { /* CANN's dcosOut and dsinOut are always given */
        if (!(k->buf[5] = rkb_alloc(cn, cd)) || !(k->buf[6] = rkb_alloc(cn, cd)))
            return false;
        memset(k->buf[5], 0, (size_t)cn * ropekit_dtype_size(cd));
        memset(k->buf[6], 0, (size_t)cn * ropekit_dtype_size(cd));
    }
    if (sums && !(k->buf[3] = rkb_x_buffer(k, w->x, 2)))
        return false;
    if (aclnn) {
        for (int i = 0; i < RKB_MAX_BUF; i++)
            if (k->buf[i])
                k->tensor[i] = rkb_acl_tensor(k->buf[i], i == 1 || i == 2 || i >= 5 ? cd : xd, 4,
                                              i == 1 || i == 2 || i >= 5 ? w->cs : w->x);
        for (int i = 0; i < RKB_MAX_BUF; i++)
            if (k->buf[i] && !k->tensor[i])
                return false;
        return rkb_acl_session(k);
    }
    ropekit_tensor t[RKB_MAX_BUF];
    for (int i = 0; i < RKB_MAX_BUF; i++)
        t[i] = ropekit_tensor_make(k->buf[i], i == 1 || i == 2 || i >= 5 ? cd : xd, 4,
                                   i == 1 || i == 2 || i >= 5 ? w->cs : w->x, NULL);
    if (grad)
        return ropekit_partial_rotary_grad_plan_create(
                   &t[0], &t[1], &t[2], sums ? &t[3] : NULL, &t[4], sums ? &t[5] : NULL,
                   sums ? &t[6] : NULL, mode, w->start, w->end, &k->plan) == ROPEKIT_OK;
    return ropekit_partial_rotary_out_plan_create(&t[0], &t[1], &t[2], &t[3], mode, w->start,
                                                  w->end, ROPEKIT_FORWARD, &k->plan) == ROPEKIT_OK;
}

/* ApplyRotaryPosEmb: q and k in place (BSND). */
static bool rkb_case_apply(struct rkb_case *k) {
    const struct rkb_workload *w = k->cfg.w;
    const int64_t cn = rkb_prod(w->cs, 4);
    k->buf[0] = rkb_x_buffer(k, w->x, 1);
    k->buf[1] = rkb_x_buffer(k, w->k, 2);
    k->buf[2] = rkb_alloc(cn, k->cfg.cs_dtype);
    k->buf[3] = rkb_alloc(cn, k->cfg.cs_dtype);
    if (!k->buf[0] || !k->buf[1] || !rkb_coeffs(k, k->buf[2], k->buf[3]))
        return false;
    if (k->cfg.face == RKB_ACLNN) {
        k->tensor[0] = rkb_acl_tensor(k->buf[0], k->cfg.x_dtype, 4, w->x);
        k->tensor[1] = rkb_acl_tensor(k->buf[1], k->cfg.x_dtype, 4, w->k);
        k->tensor[2] = rkb_acl_tensor(k->buf[2], k->cfg.cs_dtype, 4, w->cs);
        k->tensor[3] = rkb_acl_tensor(k->buf[3], k->cfg.cs_dtype, 4, w->cs);
        return k->tensor[0] && k->tensor[1] && k->tensor[2] && k->tensor[3] && rkb_acl_session(k);
    }
    ropekit_tensor q = ropekit_tensor_make(k->buf[0], k->cfg.x_dtype, 4, w->x, NULL);
    ropekit_tensor kk = ropekit_tensor_make(k->buf[1], k->cfg.x_dtype, 4, w->k, NULL);
    ropekit_tensor c = ropekit_tensor_make(k->buf[2], k->cfg.cs_dtype, 4, w->cs, NULL);
    ropekit_tensor s = ropekit_tensor_make(k->buf[3], k->cfg.cs_dtype, 4, w->cs, NULL);
    return ropekit_apply_rotary_plan_create(&q, &kk, &c, &s, (ropekit_rotary_mode)k->cfg.style,
                                            ROPEKIT_FORWARD, &k->plan) == ROPEKIT_OK;
}

static bool rkb_kind_out_of_place(enum rkb_kind kind) {
    return kind == RKB_INTERLEAVE_ROPE || kind == RKB_RPE || kind == RKB_RPE_GRAD;
}

static bool rkb_case_prepare(struct rkb_case *k) {
    switch (k->cfg.w->kind) {
    case RKB_ROPE:
        return rkb_case_rope(k);
    case RKB_PARTIAL_ROTARY:
    case RKB_PARTIAL_GRAD:
        return rkb_case_pr(k);
    case RKB_APPLY:
        return rkb_case_apply(k);
    default:
        return rkb_case_rotary_out(k);
    }
}

struct rkb_case *rkb_case_new(const struct rkb_config *c) {
    struct rkb_case *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->cfg = *c;
    if (!rkb_face_applies(c)) {
        fprintf(stderr,
                "ropekit bench: the %s face does not take %s at %s/%s (CANN's operators: no "
                "float64; partial rotary in interleave mode; rope with one dtype and sizes "
                "CANN aligns; the other operators with one dtype)\n",
                rkb_face_name(c->face), c->w->id, ropekit_dtype_name(c->x_dtype),
                ropekit_dtype_name(c->cs_dtype));
        rkb_case_free(k);
        return NULL;
    }
    bool ok = rkb_case_prepare(k);
    if (!ok) {
        fprintf(stderr, "ropekit bench: cannot prepare %s (%s): %s\n", c->w->id,
                rkb_face_name(c->face), ropekit_last_error());
        rkb_case_free(k);
        return NULL;
    }
    if (k->plan)
        ropekit_plan_describe(k->plan, k->desc, sizeof k->desc);
    else
        snprintf(k->desc, sizeof k->desc, "aclnn round trip (%s) on a created stream",
                 c->face == RKB_ACLNN_OOP || rkb_kind_out_of_place(c->w->kind) ? "out of place"
                                                                               : "in place");
    return k;
}

/* GetWorkspaceSize + execute + sync, as a CANN client calls it. */
static void rkb_case_run_aclnn(struct rkb_case *k) {
    aclTensor **t = k->tensor;
    uint64_t ws = 0;
    aclOpExecutor *e = NULL;
    aclnnStatus st;
    switch (k->cfg.w->kind) {
    case RKB_PARTIAL_ROTARY:
        st = aclnnInplacePartialRotaryMulGetWorkspaceSize(t[0], t[1], t[2], 1, k->ints, &ws, &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnInplacePartialRotaryMul(NULL, ws, e, k->stream);
        break;
    case RKB_PARTIAL_GRAD:
        st =
            aclnnInplacePartialRotaryMulGradGetWorkspaceSize(t[0], t[1], t[2], 1, k->ints, &ws, &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnInplacePartialRotaryMulGrad(NULL, ws, e, k->stream);
        break;
    case RKB_INTERLEAVE_ROPE:
        st = aclnnInterleaveRopeGetWorkspaceSize(t[0], t[1], t[2], t[3], &ws, &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnInterleaveRope(NULL, ws, e, k->stream);
        break;
    case RKB_RPE:
        st = aclnnRotaryPositionEmbeddingGetWorkspaceSize(t[0], t[1], t[2], k->cfg.style, t[3], &ws,
                                                          &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnRotaryPositionEmbedding(NULL, ws, e, k->stream);
        break;
    case RKB_RPE_GRAD:
        st = aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(t[0], t[1], t[2], t[3], k->cfg.style,
                                                              t[4], t[5], t[6], &ws, &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnRotaryPositionEmbeddingGrad(NULL, ws, e, k->stream);
        break;
    case RKB_APPLY: /* layout 1: BSND */
        st = aclnnApplyRotaryPosEmbGetWorkspaceSize(t[0], t[1], t[2], t[3], 1, &ws, &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnApplyRotaryPosEmb(NULL, ws, e, k->stream);
        break;
    default: {
        aclTensor *qo = t[4] ? t[4] : t[1], *ko = t[5] ? t[5] : t[2];
        st = aclnnRopeWithSinCosCacheGetWorkspaceSize(
            t[0], t[1], t[2], t[3], k->ints, k->cfg.w->head_size, k->cfg.style == ROPEKIT_ROPE_NEOX,
            qo, ko, &ws, &e);
        if (st == ACLNN_SUCCESS)
            st = aclnnRopeWithSinCosCache(NULL, ws, e, k->stream);
        break;
    }
    }
    if (st != ACLNN_SUCCESS || aclrtSynchronizeStream(k->stream) != ACL_SUCCESS) {
        fprintf(stderr, "ropekit bench: %s aclnn call failed: %s\n", k->cfg.w->id,
                aclGetRecentErrMsg());
        exit(1); /* a benchmark of a failing call would measure nothing */
    }
}

static void rkb_case_restore(struct rkb_case *k) {
    const struct rkb_workload *w = k->cfg.w;
    const size_t xs = ropekit_dtype_size(k->cfg.x_dtype);
    memcpy(k->buf[1], k->orig[0], (size_t)(w->tokens * w->q_heads * w->head_size) * xs);
    memcpy(k->buf[2], k->orig[1], (size_t)(w->tokens * w->k_heads * w->head_size) * xs);
}

void rkb_case_run(struct rkb_case *k) {
    if (k->orig[0] && ++k->runs % RKB_RESTORE_RUNS == 0)
        rkb_case_restore(k);
    if (!k->plan) {
        rkb_case_run_aclnn(k);
    } else if (k->cfg.w->kind == RKB_ROPE) {
        ropekit_rope_execute(k->plan, k->buf[0], k->buf[1], k->buf[2], k->buf[3], k->buf[4],
                             k->buf[5]);
    } else if (k->cfg.w->kind == RKB_APPLY) {
        ropekit_apply_rotary_execute(k->plan, k->buf[0], k->buf[1], k->buf[2], k->buf[3]);
    } else if (k->cfg.w->kind == RKB_RPE_GRAD) {
        ropekit_partial_rotary_grad_execute(k->plan, k->buf[0], k->buf[1], k->buf[2], k->buf[3],
                                            k->buf[4], k->buf[5], k->buf[6]);
    } else if (k->cfg.w->kind != RKB_PARTIAL_ROTARY && k->cfg.w->kind != RKB_PARTIAL_GRAD) {
        ropekit_partial_rotary_out_execute(k->plan, k->buf[0], k->buf[1], k->buf[2], k->buf[3]);
    } else {
        ropekit_partial_rotary_execute(k->plan, k->buf[0], k->buf[1], k->buf[2]);
    }
}

const char *rkb_case_describe(const struct rkb_case *k) {
    return k->desc;
}

void rkb_case_free(struct rkb_case *k) {
    if (!k)
        return;
    ropekit_plan_destroy(k->plan);
    if (k->ints)
        aclDestroyIntArray(k->ints);
    free(k->orig[0]);
    free(k->orig[1]);
    for (int i = 0; i < RKB_MAX_BUF; i++) {
        if (k->tensor[i])
            aclDestroyTensor(k->tensor[i]);
        if (k->cfg.w->kind != RKB_ROPE || i < 4 ||
            k->buf[i] != k->buf[i - 3]) /* rope in place: outputs are the inputs */
            free(k->buf[i]);
    }
    if (k->stream)
        aclrtDestroyStream(k->stream);
    free(k);
}
