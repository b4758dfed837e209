/* Benchmark workloads: the table, the faces they apply to and their byte counts. */
#include "workloads.h"

#include "ropekit/ropekit_cann.h"

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
    {.id = "I1",
     .what = "InterleaveRope MLA x [1,64,4096,64]",
     .kind = RKB_INTERLEAVE_ROPE,
     .x = {1, 64, 4096, ROPEKIT_CANN_INTERLEAVE_ROPE_D},
     .cs = {1, 1, 4096, ROPEKIT_CANN_INTERLEAVE_ROPE_D},
     .end = ROPEKIT_CANN_INTERLEAVE_ROPE_D,
     .dtypes = "f16,bf16",
     .styles = "interleave-half"},
    {.id = "R1",
     .what = "RotaryPositionEmbedding x [4,4096,32,128]",
     .kind = RKB_RPE,
     .x = {4, 4096, 32, 128},
     .cs = {1, 4096, 1, 128},
     .end = 128,
     .dtypes = "f32,bf16"},
    {.id = "RG1",
     .what = "gradient of R1: dx",
     .kind = RKB_RPE_GRAD,
     .x = {4, 4096, 32, 128},
     .cs = {1, 4096, 1, 128},
     .end = 128,
     .dtypes = "f32,bf16"},
    {.id = "RG2",
     .what = "gradient of R1: dx, dcos, dsin",
     .kind = RKB_RPE_GRAD,
     .cs_grad = true,
     .x = {4, 4096, 32, 128},
     .cs = {1, 4096, 1, 128},
     .end = 128,
     .dtypes = "f32,bf16"},
    {.id = "A1",
     .what = "ApplyRotaryPosEmb q [1,4096,32,128] k [1,4096,8,128]",
     .kind = RKB_APPLY,
     .x = {1, 4096, 32, 128},
     .k = {1, 4096, 8, 128},
     .cs = {1, 4096, 1, 128},
     .end = 128,
     .dtypes = "f32,f16,bf16",
     .styles = "half"},
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

/* The whole-row operators' specs: "<prefix>:B,S,N,D[,cB,cS,cN]" (cos/sin [1,S,1,D]
 * unless given), "ir:B,N,S[,cS]" (x [B,N,S,64], cos/sin [B,1,cS,64], cS S unless given),
 * "apply:B,S,Nq,Nk,D" (BSND query and key, cos/sin [B,S,1,D]). */
struct rkb_row_spec {
    const char *prefix;
    enum rkb_kind kind;
    bool cs_grad;
    const char *what;
};

static const struct rkb_row_spec rkb_row_specs[] = {
    {"rpe:", RKB_RPE, false, "RotaryPositionEmbedding"},
    {"rpeg:", RKB_RPE_GRAD, false, "RotaryPositionEmbeddingGrad dx"},
    {"rpegcs:", RKB_RPE_GRAD, true, "RotaryPositionEmbeddingGrad dx dcos dsin"},
    {"ir:", RKB_INTERLEAVE_ROPE, false, "InterleaveRope"},
    {"apply:", RKB_APPLY, false, "ApplyRotaryPosEmb"},
};

static bool rkb_parse_row_spec(const struct rkb_row_spec *rs, const char *args,
                               struct rkb_workload *w) {
    long long v[7] = {0};
    const int n = sscanf(args, "%lld,%lld,%lld,%lld,%lld,%lld,%lld", &v[0], &v[1], &v[2], &v[3],
                         &v[4], &v[5], &v[6]);
    for (int i = 0; i < n; i++)
        if (v[i] < 1)
            return false;
    w->kind = rs->kind;
    w->cs_grad = rs->cs_grad;
    if (rs->kind == RKB_INTERLEAVE_ROPE) {
        if (n != 3 && n != 4)
            return false;
        const int64_t x[4] = {v[0], v[1], v[2], ROPEKIT_CANN_INTERLEAVE_ROPE_D},
                      cs[4] = {v[0], 1, n == 4 ? v[3] : v[2], ROPEKIT_CANN_INTERLEAVE_ROPE_D};
        if (cs[2] != 1 && cs[2] != x[2])
            return false;
        memcpy(w->x, x, sizeof x);
        memcpy(w->cs, cs, sizeof cs);
        w->styles = "interleave-half";
        w->dtypes = "f16,bf16";
    } else if (rs->kind == RKB_APPLY) {
        if (n != 5 || v[4] % 2)
            return false;
        const int64_t q[4] = {v[0], v[1], v[2], v[4]}, k[4] = {v[0], v[1], v[3], v[4]},
                      cs[4] = {v[0], v[1], 1, v[4]};
        memcpy(w->x, q, sizeof q);
        memcpy(w->k, k, sizeof k);
        memcpy(w->cs, cs, sizeof cs);
    } else {
        if ((n != 4 && n != 7) || v[3] % 2)
            return false;
        const int64_t x[4] = {v[0], v[1], v[2], v[3]},
                      cs[4] = {n == 7 ? v[4] : 1, n == 7 ? v[5] : v[1], n == 7 ? v[6] : 1, v[3]};
        for (int i = 0; i < 3; i++)
            if (cs[i] != 1 && cs[i] != x[i])
                return false;
        memcpy(w->x, x, sizeof x);
        memcpy(w->cs, cs, sizeof cs);
    }
    w->end = w->x[3];
    snprintf(w->what, sizeof w->what, "%s x [%lld,%lld,%lld,%lld] cos [%lld,%lld,%lld,%lld]",
             rs->what, (long long)w->x[0], (long long)w->x[1], (long long)w->x[2],
             (long long)w->x[3], (long long)w->cs[0], (long long)w->cs[1], (long long)w->cs[2],
             (long long)w->cs[3]);
    return true;
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
        size_t i = 0;
        while (i < sizeof rkb_row_specs / sizeof rkb_row_specs[0] &&
               strncmp(spec, rkb_row_specs[i].prefix, strlen(rkb_row_specs[i].prefix)) != 0)
            i++;
        if (i == sizeof rkb_row_specs / sizeof rkb_row_specs[0] ||
            !rkb_parse_row_spec(&rkb_row_specs[i], spec + strlen(rkb_row_specs[i].prefix), w))
            return false;
    }
    snprintf(w->id, sizeof w->id, "custom");
    return true;
}

bool rkb_in_list(const char *list, const char *name) {
    if (!list)
        return true;
    size_t n = strlen(name);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, name, n) == 0)
            return true;
        p += len + (end ? 1 : 0);
    }
    return false;
}

enum { RKB_ROPE_STYLES = 2, RKB_MODES = 4 };

const char *const *rkb_style_names(int *count) {
    static const char *names[RKB_ROPE_STYLES + RKB_MODES];
    if (!names[0]) {
        names[ROPEKIT_ROPE_NEOX] = "neox";
        names[ROPEKIT_ROPE_GPTJ] = "gptj";
        for (int m = 0; m < RKB_MODES; m++)
            names[RKB_ROPE_STYLES + m] = ropekit_rotary_mode_name((ropekit_rotary_mode)m);
    }
    *count = RKB_ROPE_STYLES + RKB_MODES;
    return names;
}

const char *rkb_style_name(const struct rkb_config *c) {
    int n;
    const char *const *names = rkb_style_names(&n);
    return names[(c->w->kind == RKB_ROPE ? 0 : RKB_ROPE_STYLES) + c->style];
}

int rkb_workload_styles(const struct rkb_workload *w, const char *wanted, int *out) {
    int n, count = 0;
    const char *const *names = rkb_style_names(&n);
    const bool rope = w->kind == RKB_ROPE;
    const int first = rope ? 0 : RKB_ROPE_STYLES, last = rope ? RKB_ROPE_STYLES : n;
    for (int i = first; i < last; i++) {
        const bool by_default = w->styles ? rkb_in_list(w->styles, names[i]) : i - first < 2;
        if (by_default && rkb_in_list(wanted, names[i]))
            out[count++] = i - first;
    }
    return count;
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

/* The aclnn faces of the other operators: one dtype for every tensor (SPEC §14-§17; the
 * shapes of the built-in workloads are ones CANN takes). */
static bool rkb_aclnn_takes(const struct rkb_config *c) {
    switch (c->w->kind) {
    case RKB_ROPE:
        return rkb_aclnn_takes_rope(c);
    case RKB_PARTIAL_ROTARY:
    case RKB_PARTIAL_GRAD: /* CANN: forward and gradient in interleave mode only */
        return c->style == ROPEKIT_ROTARY_INTERLEAVE;
    case RKB_INTERLEAVE_ROPE:
        return c->x_dtype == c->cs_dtype && c->x_dtype != ROPEKIT_F32;
    case RKB_APPLY: /* aclnnApplyRotaryPosEmb: rotate-half only */
        return c->x_dtype == c->cs_dtype && c->style == ROPEKIT_ROTARY_HALF;
    default:
        return c->x_dtype == c->cs_dtype;
    }
}

bool rkb_face_applies(const struct rkb_config *c) {
    if (c->x_dtype == ROPEKIT_F64 && c->face != RKB_NATIVE && c->face != RKB_NATIVE_OOP)
        return false; /* CANN's operators take no float64 */
    switch (c->face) {
    case RKB_NATIVE:
        return true;
    case RKB_NATIVE_OOP:
        return c->w->kind == RKB_ROPE;
    case RKB_ACLNN:
        return rkb_aclnn_takes(c);
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
    const double cs_elems = (double)rkb_prod(w->cs, 4);
    if (w->kind == RKB_APPLY) /* q and k read and written, cos and sin read */
        return 2.0 * (double)(rkb_prod(w->x, 4) + rkb_prod(w->k, 4)) * xs + 2.0 * cs_elems * cs;
    if (w->kind == RKB_RPE_GRAD && w->cs_grad) /* dy and x read, dx written; cos, sin read,
                                                * dcos, dsin written */
        return 3.0 * (double)rkb_prod(w->x, 4) * xs + 4.0 * cs_elems * cs;
    if (w->kind != RKB_ROPE) { /* in place: the slice; out of place: x read, out written */
        double rows = (double)rkb_prod(w->x, 3);
        return 2.0 * rows * (double)(w->end - w->start) * xs + 2.0 * cs_elems * cs;
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
    if (w->kind == RKB_APPLY) { /* q's rows and k's, of one row size */
        *rows = rkb_prod(w->x, 3) + rkb_prod(w->k, 3);
        *stride = *used = w->x[3] * xs;
        return true;
    }
    if (w->kind != RKB_ROPE) {
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
