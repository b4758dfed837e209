/* Benchmark workloads: the table, their byte counts and their prepared cases. */
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"

#define RKB_PR(id_, what_, in_cache_, b, s, n, d, st, en, cb, csq, cn)                             \
    {                                                                                              \
        id_, what_, RKB_PARTIAL_ROTARY, in_cache_, {b, s, n, d}, {cb, csq, cn, en - st}, st, en,   \
            0, 0, 0, 0, 0, 0, 0, {                                                                 \
            0                                                                                      \
        }                                                                                          \
    }
#define RKB_ROPE_W(id_, what_, in_cache_, t, hq, hk, hs, r, m, nsec_, s0, s1, s2)                  \
    {                                                                                              \
        id_, what_, RKB_ROPE, in_cache_, {0}, {0}, 0, 0, t, hq, hk, hs, r, m, nsec_, {             \
            s0, s1, s2, 0                                                                          \
        }                                                                                          \
    }

static const struct rkb_workload rkb_workloads[] = {
    RKB_ROPE_W("W1", "decode 64 tok, 32/8 heads, hs 128", true, 64, 32, 8, 128, 128, 8192, 0, 0, 0,
               0),
    RKB_ROPE_W("W2", "prefill 4096 tok, 32/8 heads", false, 4096, 32, 8, 128, 128, 8192, 0, 0, 0,
               0),
    RKB_ROPE_W("W3", "prefill 32768 tok, 32/8 heads", false, 32768, 32, 8, 128, 128, 32768, 0, 0, 0,
               0),
    RKB_ROPE_W("W4", "4096 tok, 32/32 heads, rot 64/128", false, 4096, 32, 32, 128, 64, 8192, 0, 0,
               0, 0),
    RKB_ROPE_W("W5", "mrope 4096 tok, 28/4 heads [16,24,24]", false, 4096, 28, 4, 128, 128, 8192, 3,
               16, 24, 24),
    RKB_PR("P1", "x [96,1,1,512] slice [448,512)", true, 96, 1, 1, 512, 448, 512, 96, 1, 1),
    RKB_PR("P2", "x [4,4096,32,128] slice [0,128)", false, 4, 4096, 32, 128, 0, 128, 4, 4096, 1),
    RKB_PR("P3", "x [1,4096,128,192] slice [128,192)", false, 1, 4096, 128, 192, 128, 192, 1, 4096,
           1),
    {"G2",
     "gradient of P2",
     RKB_PARTIAL_GRAD,
     false,
     {4, 4096, 32, 128},
     {4, 4096, 1, 128},
     0,
     128,
     0,
     0,
     0,
     0,
     0,
     0,
     0,
     {0}},
    {"D1",
     "aclnn round trip, 1 token, 32/8 heads",
     RKB_ROUNDTRIP,
     true,
     {0},
     {0},
     0,
     0,
     1,
     32,
     8,
     128,
     128,
     8192,
     0,
     {0}},
};

const struct rkb_workload *rkb_builtin(int *count) {
    *count = (int)(sizeof rkb_workloads / sizeof rkb_workloads[0]);
    return rkb_workloads;
}

bool rkb_find_workload(const char *spec, struct rkb_workload *w) {
    int n;
    const struct rkb_workload *builtin = rkb_builtin(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(builtin[i].id, spec) == 0 && builtin[i].kind != RKB_ROUNDTRIP) {
            *w = builtin[i];
            return true;
        }
    return rkb_parse_workload(spec, w);
}

static const struct rkb_dtype_choice rkb_dtypes[] = {
    {"f32", ROPEKIT_F32, ROPEKIT_F32},
    {"f16", ROPEKIT_F16, ROPEKIT_F16},
    {"bf16", ROPEKIT_BF16, ROPEKIT_BF16},
    {"mixed", ROPEKIT_BF16, ROPEKIT_F32},
};

const struct rkb_dtype_choice *rkb_dtype_choices(int *count) {
    *count = (int)(sizeof rkb_dtypes / sizeof rkb_dtypes[0]);
    return rkb_dtypes;
}

bool rkb_parse_workload(const char *spec, struct rkb_workload *w) {
    long long v[10] = {0};
    int n = 0;
    memset(w, 0, sizeof *w);
    if (strncmp(spec, "rope:", 5) == 0) {
        n = sscanf(spec + 5, "%lld,%lld,%lld,%lld,%lld,%lld", &v[0], &v[1], &v[2], &v[3], &v[4],
                   &v[5]);
        if (n < 5 || v[0] < 1 || v[1] < 0 || v[2] < 0 || v[3] < 2 || v[4] < 2 || v[4] > v[3] ||
            v[4] % 2)
            return false;
        w->kind = RKB_ROPE;
        w->tokens = v[0];
        w->q_heads = v[1];
        w->k_heads = v[2];
        w->head_size = v[3];
        w->rot_dim = v[4];
        w->max_pos = n >= 6 && v[5] > 0 ? v[5] : 8192;
        snprintf(w->what, sizeof w->what, "rope T=%lld H=%lld/%lld hs=%lld R=%lld", v[0], v[1],
                 v[2], v[3], v[4]);
    } else if (strncmp(spec, "pr:", 3) == 0) {
        n = sscanf(spec + 3, "%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld,%lld", &v[0], &v[1], &v[2],
                   &v[3], &v[4], &v[5], &v[6], &v[7], &v[8]);
        if (n != 6 && n != 9)
            return false;
        if (v[0] < 1 || v[1] < 1 || v[2] < 1 || v[4] < 0 || v[5] <= v[4] || v[5] > v[3] ||
            (v[5] - v[4]) % 2)
            return false;
        w->kind = RKB_PARTIAL_ROTARY;
        for (int i = 0; i < 4; i++)
            w->x[i] = v[i];
        w->start = v[4];
        w->end = v[5];
        for (int i = 0; i < 3; i++)
            w->cs[i] = n == 9 ? v[6 + i] : v[i];
        w->cs[3] = w->end - w->start;
        for (int i = 0; i < 3; i++)
            if (w->cs[i] != 1 && w->cs[i] != w->x[i])
                return false;
        snprintf(w->what, sizeof w->what, "pr x [%lld,%lld,%lld,%lld] [%lld,%lld)", v[0], v[1],
                 v[2], v[3], v[4], v[5]);
    } else {
        return false;
    }
    snprintf(w->id, sizeof w->id, "custom");
    return true;
}

const char *rkb_style_name(const struct rkb_config *c) {
    if (c->w->kind == RKB_ROPE || c->w->kind == RKB_ROUNDTRIP)
        return c->style == ROPEKIT_ROPE_NEOX ? "neox" : "gptj";
    return c->style == ROPEKIT_ROTARY_HALF ? "half" : "interleave";
}

static int64_t rkb_prod(const int64_t *d, int n) {
    int64_t p = 1;
    for (int i = 0; i < n; i++)
        p *= d[i];
    return p;
}

double rkb_bytes(const struct rkb_config *c) {
    const struct rkb_workload *w = c->w;
    const double xs = (double)ropekit_dtype_size(c->x_dtype);
    const double cs = (double)ropekit_dtype_size(c->cs_dtype);
    if (w->kind == RKB_PARTIAL_ROTARY || w->kind == RKB_PARTIAL_GRAD) {
        double rows = (double)rkb_prod(w->x, 3);
        return 2.0 * rows * (double)(w->end - w->start) * xs +
               2.0 * (double)rkb_prod(w->cs, 4) * cs;
    }
    /* rope in place: rotated elements read and written, one cache row per token, the
     * position(s) of each token */
    double heads = (double)(w->q_heads + w->k_heads);
    double m = w->nsec > 0 ? w->nsec : 1;
    return (double)w->tokens *
           (2.0 * heads * (double)w->rot_dim * xs + (double)w->rot_dim * cs + 8.0 * m);
}

bool rkb_touch_geometry(const struct rkb_config *c, int64_t *rows, int64_t *stride, int64_t *used) {
    const struct rkb_workload *w = c->w;
    const int64_t xs = (int64_t)ropekit_dtype_size(c->x_dtype);
    if (w->kind == RKB_PARTIAL_ROTARY || w->kind == RKB_PARTIAL_GRAD) {
        *rows = rkb_prod(w->x, 3);
        *stride = w->x[3] * xs;
        *used = (w->end - w->start) * xs;
        return true;
    }
    if (w->kind == RKB_ROPE) {
        *rows = w->tokens * (w->q_heads + w->k_heads);
        *stride = w->head_size * xs;
        *used = w->rot_dim * xs;
        return true;
    }
    return false;
}

/* ---- prepared cases ---- */

struct rkb_case {
    struct rkb_config cfg;
    ropekit_plan *plan;
    void *buf[4]; /* pr: x cos sin; rope: positions q k cache */
    /* round trip */
    aclrtStream stream;
    aclTensor *tensors[4];
    char desc[320];
};

/* Deterministic test data in [-0.5, 0.5): fast enough for the largest workloads. */
static void rkb_fill(void *p, int64_t n, ropekit_dtype dt, uint32_t seed) {
    uint32_t state = seed * 2654435761u + 1u;
    for (int64_t i = 0; i < n; i++) {
        state = state * 1664525u + 1013904223u;
        float f = (float)(state >> 8) * (1.0f / 16777216.0f) - 0.5f;
        uint32_t u;
        memcpy(&u, &f, 4);
        if (dt == ROPEKIT_F32) {
            ((float *)p)[i] = f;
        } else if (dt == ROPEKIT_BF16) {
            ((uint16_t *)p)[i] = (uint16_t)(u >> 16);
        } else { /* fp16: normal-range values by field arithmetic, tiny ones as zero */
            uint32_t e = (u >> 23) & 0xffu;
            ((uint16_t *)p)[i] =
                (uint16_t)(((u >> 16) & 0x8000u) |
                           (e > 112u ? ((e - 112u) << 10) | ((u >> 13) & 0x3ffu) : 0u));
        }
    }
}

static void *rkb_alloc(int64_t elems, ropekit_dtype dt) {
    size_t bytes = (size_t)elems * ropekit_dtype_size(dt);
    void *p = aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
    return p;
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
    ropekit_tensor x = ropekit_tensor_make(k->buf[0], k->cfg.x_dtype, 4, w->x, NULL);
    ropekit_tensor c = ropekit_tensor_make(k->buf[1], k->cfg.cs_dtype, 4, w->cs, NULL);
    ropekit_tensor s = ropekit_tensor_make(k->buf[2], k->cfg.cs_dtype, 4, w->cs, NULL);
    ropekit_direction dir = w->kind == RKB_PARTIAL_GRAD ? ROPEKIT_BACKWARD : ROPEKIT_FORWARD;
    return ropekit_partial_rotary_plan_create(&x, &c, &s, (ropekit_rotary_mode)k->cfg.style,
                                              w->start, w->end, dir, &k->plan) == ROPEKIT_OK;
}

static bool rkb_case_rope_buffers(struct rkb_case *k) {
    const struct rkb_workload *w = k->cfg.w;
    int64_t m = w->nsec > 0 ? w->nsec : 1;
    k->buf[0] = malloc((size_t)(m * w->tokens) * sizeof(int64_t));
    k->buf[1] = rkb_alloc(w->tokens * w->q_heads * w->head_size, k->cfg.x_dtype);
    k->buf[2] = rkb_alloc(w->tokens * w->k_heads * w->head_size, k->cfg.x_dtype);
    k->buf[3] = rkb_alloc(w->max_pos * w->rot_dim, k->cfg.cs_dtype);
    if (!k->buf[0] || !k->buf[1] || !k->buf[2] || !k->buf[3])
        return false;
    int64_t *pos = k->buf[0];
    for (int64_t r = 0; r < m; r++) /* decode-like positions near the end of the cache */
        for (int64_t t = 0; t < w->tokens; t++)
            pos[r * w->tokens + t] = (w->max_pos - w->tokens - 7 * r + t) % w->max_pos;
    rkb_fill(k->buf[1], w->tokens * w->q_heads * w->head_size, k->cfg.x_dtype, 4);
    rkb_fill(k->buf[2], w->tokens * w->k_heads * w->head_size, k->cfg.x_dtype, 5);
    return ropekit_cos_sin_cache_build(k->buf[3], k->cfg.cs_dtype, w->max_pos, w->rot_dim, 10000.0,
                                       NULL) == ROPEKIT_OK;
}

static bool rkb_case_rope(struct rkb_case *k) {
    const struct rkb_workload *w = k->cfg.w;
    if (!rkb_case_rope_buffers(k))
        return false;
    int64_t m = w->nsec > 0 ? w->nsec : 1;
    int64_t ps[2] = {m, w->tokens}, qs[2] = {w->tokens, w->q_heads * w->head_size},
            ks[2] = {w->tokens, w->k_heads * w->head_size}, cs[2] = {w->max_pos, w->rot_dim};
    ropekit_tensor pos = w->nsec > 0 ? ropekit_tensor_make(k->buf[0], ROPEKIT_I64, 2, ps, NULL)
                                     : ropekit_tensor_make(k->buf[0], ROPEKIT_I64, 1, ps + 1, NULL);
    ropekit_tensor q = ropekit_tensor_make(k->buf[1], k->cfg.x_dtype, 2, qs, NULL);
    ropekit_tensor kk = ropekit_tensor_make(k->buf[2], k->cfg.x_dtype, 2, ks, NULL);
    ropekit_tensor cache = ropekit_tensor_make(k->buf[3], k->cfg.cs_dtype, 2, cs, NULL);
    ropekit_rope_config cfg = {w->head_size, (ropekit_rope_style)k->cfg.style,
                               w->nsec > 0 ? w->sections : NULL, w->nsec, 0};
    return ropekit_rope_plan_create(&pos, &q, &kk, &cache, &q, &kk, &cfg, &k->plan) == ROPEKIT_OK;
}

static aclTensor *rkb_acl_tensor(void *data, ropekit_dtype dt, int nd, const int64_t *shape) {
    return aclCreateTensor(shape, (uint64_t)nd, (aclDataType)dt, NULL, 0, ACL_FORMAT_ND, shape,
                           (uint64_t)nd, data);
}

static bool rkb_case_roundtrip(struct rkb_case *k) {
    const struct rkb_workload *w = k->cfg.w;
    if (!rkb_case_rope_buffers(k))
        return false;
    aclError e = aclInit(NULL);
    if (e != ACL_SUCCESS && e != ACL_ERROR_REPEAT_INITIALIZE)
        return false;
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&k->stream) != ACL_SUCCESS)
        return false;
    int64_t ps[1] = {w->tokens}, qs[2] = {w->tokens, w->q_heads * w->head_size},
            ks[2] = {w->tokens, w->k_heads * w->head_size}, cs[2] = {w->max_pos, w->rot_dim};
    k->tensors[0] = rkb_acl_tensor(k->buf[0], ROPEKIT_I64, 1, ps);
    k->tensors[1] = rkb_acl_tensor(k->buf[1], k->cfg.x_dtype, 2, qs);
    k->tensors[2] = rkb_acl_tensor(k->buf[2], k->cfg.x_dtype, 2, ks);
    k->tensors[3] = rkb_acl_tensor(k->buf[3], k->cfg.cs_dtype, 2, cs);
    return k->tensors[0] && k->tensors[1] && k->tensors[2] && k->tensors[3];
}

struct rkb_case *rkb_case_new(const struct rkb_config *c) {
    struct rkb_case *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->cfg = *c;
    bool ok = c->w->kind == RKB_ROPE        ? rkb_case_rope(k)
              : c->w->kind == RKB_ROUNDTRIP ? rkb_case_roundtrip(k)
                                            : rkb_case_pr(k);
    if (!ok) {
        fprintf(stderr, "ropekit bench: cannot prepare %s: %s\n", c->w->id, ropekit_last_error());
        rkb_case_free(k);
        return NULL;
    }
    if (k->plan)
        ropekit_plan_describe(k->plan, k->desc, sizeof k->desc);
    else
        snprintf(k->desc, sizeof k->desc,
                 "aclnnRopeWithSinCosCache round trip on a created stream");
    return k;
}

void rkb_case_run(struct rkb_case *k) {
    switch (k->cfg.w->kind) {
    case RKB_PARTIAL_ROTARY:
    case RKB_PARTIAL_GRAD:
        ropekit_partial_rotary_execute(k->plan, k->buf[0], k->buf[1], k->buf[2]);
        break;
    case RKB_ROPE:
        ropekit_rope_execute(k->plan, k->buf[0], k->buf[1], k->buf[2], k->buf[3], k->buf[1],
                             k->buf[2]);
        break;
    case RKB_ROUNDTRIP: {
        uint64_t ws = 0;
        aclOpExecutor *e = NULL;
        aclTensor **t = k->tensors;
        if (aclnnRopeWithSinCosCacheGetWorkspaceSize(
                t[0], t[1], t[2], t[3], NULL, k->cfg.w->head_size,
                k->cfg.style == ROPEKIT_ROPE_NEOX, t[1], t[2], &ws, &e) == ACLNN_SUCCESS)
            aclnnRopeWithSinCosCache(NULL, ws, e, k->stream);
        aclrtSynchronizeStream(k->stream);
        break;
    }
    }
}

const char *rkb_case_describe(const struct rkb_case *k) {
    return k->desc;
}

void rkb_case_free(struct rkb_case *k) {
    if (!k)
        return;
    ropekit_plan_destroy(k->plan);
    for (int i = 0; i < 4; i++) {
        if (k->tensors[i])
            aclDestroyTensor(k->tensors[i]);
        free(k->buf[i]);
    }
    if (k->stream)
        aclrtDestroyStream(k->stream);
    free(k);
}
