/* Benchmark workloads: the table, the faces they apply to and their byte counts. */
#include "workloads.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RKB_PR(id_, what_, in_cache_, b, s, n, d, st, en, cb, csq, cn)                             \
    {                                                                                              \
        .id = id_, .what = what_, .kind = RKB_PARTIAL_ROTARY, .in_cache = in_cache_,               \
        .x = {b, s, n, d}, .cs = {cb, csq, cn, en - st}, .start = st, .end = en                    \
    }
#define RKB_ROPE_W(id_, what_, in_cache_, t, hq, hk, hs, r, m, nsec_, s0, s1, s2)                  \
    {                                                                                              \
        .id = id_, .what = what_, .kind = RKB_ROPE, .in_cache = in_cache_, .tokens = t,            \
        .q_heads = hq, .k_heads = hk, .head_size = hs, .rot_dim = r, .max_pos = m, .nsec = nsec_,  \
        .sections = {                                                                              \
            s0,                                                                                    \
            s1,                                                                                    \
            s2,                                                                                    \
            0                                                                                      \
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
    {.id = "G2",
     .what = "gradient of P2",
     .kind = RKB_PARTIAL_GRAD,
     .x = {4, 4096, 32, 128},
     .cs = {4, 4096, 1, 128},
     .start = 0,
     .end = 128},
    {.id = "D1",
     .what = "decode step, 1 token, 32/8 heads",
     .kind = RKB_ROPE,
     .in_cache = true,
     .latency = true,
     .tokens = 1,
     .q_heads = 32,
     .k_heads = 8,
     .head_size = 128,
     .rot_dim = 128,
     .max_pos = 8192},
};

const struct rkb_workload *rkb_builtin(int *count) {
    *count = (int)(sizeof rkb_workloads / sizeof rkb_workloads[0]);
    return rkb_workloads;
}

bool rkb_find_workload(const char *spec, struct rkb_workload *w) {
    int n;
    const struct rkb_workload *builtin = rkb_builtin(&n);
    for (int i = 0; i < n; i++)
        if (strcmp(builtin[i].id, spec) == 0) {
            *w = builtin[i];
            return true;
        }
    return rkb_parse_workload(spec, w);
}

static const struct rkb_dtype_choice rkb_dtypes[] = {
    {"f32", ROPEKIT_F32, ROPEKIT_F32, true},    {"f16", ROPEKIT_F16, ROPEKIT_F16, true},
    {"bf16", ROPEKIT_BF16, ROPEKIT_BF16, true}, {"mixed", ROPEKIT_BF16, ROPEKIT_F32, true},
    {"f64", ROPEKIT_F64, ROPEKIT_F64, false},
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
    if (c->w->kind == RKB_ROPE)
        return c->style == ROPEKIT_ROPE_NEOX ? "neox" : "gptj";
    return c->style == ROPEKIT_ROTARY_HALF ? "half" : "interleave";
}

const char *rkb_face_name(enum rkb_face face) {
    static const char *names[RKB_FACE_COUNT] = {"native", "native_oop", "aclnn", "aclnn_oop"};
    return face < RKB_FACE_COUNT ? names[face] : "?";
}

enum rkb_face rkb_face_native_twin(enum rkb_face face) {
    return rkb_face_out_of_place(face) ? RKB_NATIVE_OOP : RKB_NATIVE;
}

bool rkb_face_out_of_place(enum rkb_face face) {
    return face == RKB_NATIVE_OOP || face == RKB_ACLNN_OOP;
}

/* CANN's RopeWithSinCosCache: q, k and cache of one dtype; headSize and rotaryDim
 * multiples of 32 elements for 16-bit types, 16 for fp32 (SPEC §5.5). */
static bool rkb_aclnn_takes_rope(const struct rkb_config *c) {
    const int64_t align = c->x_dtype == ROPEKIT_F32 ? 16 : 32;
    return c->x_dtype == c->cs_dtype && c->w->head_size % align == 0 && c->w->rot_dim % align == 0;
}

bool rkb_face_applies(const struct rkb_config *c) {
    if (c->x_dtype == ROPEKIT_F64 && c->face != RKB_NATIVE && c->face != RKB_NATIVE_OOP)
        return false; /* CANN's operators take no float64 */
    switch (c->face) {
    case RKB_NATIVE:
        return true;
    case RKB_NATIVE_OOP:
        return c->w->kind == RKB_ROPE;
    case RKB_ACLNN: /* CANN: forward and gradient in interleave mode only */
        return c->w->kind == RKB_ROPE ? rkb_aclnn_takes_rope(c)
                                      : c->style == ROPEKIT_ROTARY_INTERLEAVE;
    case RKB_ACLNN_OOP:
        return c->w->kind == RKB_ROPE && rkb_aclnn_takes_rope(c);
    default:
        return false;
    }
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
    /* rope in place: rotated elements read and written; out of place: whole heads read and
     * written; one cache row per token, the position(s) of each token */
    double heads = (double)(w->q_heads + w->k_heads);
    double m = w->nsec > 0 ? w->nsec : 1;
    double moved = rkb_face_out_of_place(c->face) ? (double)w->head_size : (double)w->rot_dim;
    return (double)w->tokens * (2.0 * heads * moved * xs + (double)w->rot_dim * cs + 8.0 * m);
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
