/* Install test client (C11): uses only the installed headers and library.
 *
 * Runs aclnnInplacePartialRotaryMul in each of its five (x, cos/sin) dtype pairs and
 * aclnnInplacePartialRotaryMulGrad in all nine, over shapes that cover full and
 * partial slices, an odd slice start and the broadcast patterns BSND, BS1D, B11D,
 * 111D and B1ND. Each result is compared with a float64 reference (SPEC sections 3.3
 * and 4.2) within the SPEC section 6 bound; elements outside the slice must keep their
 * exact bytes.
 *
 * Then aclnnRopeWithSinCosCache (V1) and aclnnRopeWithSinCosCacheV2 run in fp32, fp16
 * and bf16, NeoX and GPT-J style, over rope, rope requested as sections [0,0,0], every
 * whitelisted mrope section list with cacheMode 0 and (V2) the three-section lists
 * with cacheMode 1, with rotaryDim < headSize and numQHeads != numKHeads, each in four
 * memory layouts: separate contiguous tensors; q and k as row-strided views into one
 * fused qkv buffer (with separate outputs, or in place); contiguous in place. Every
 * position row holds 0 and maxSeqLen-1. Rotated elements are compared with a float64
 * reference (SPEC sections 5.3 and 5.4) within the SPEC section 6 bound; every other
 * byte of every buffer must be what it was (or, in a separate output, the input's
 * pass-through bytes). Out-of-range positions must queue fine, fail at
 * aclrtSynchronizeStream with 507015 and a message, and leave every byte unchanged.
 * Prints one line per case and exits 1 if any case fails.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"

typedef struct dtype_info {
    aclDataType id;
    const char *name;
    size_t size;
    double rtol, atol; /* SPEC section 6, by output dtype */
} dtype_info;

static const dtype_info F16 = {ACL_FLOAT16, "f16", 2, 1e-3, 0x1p-24};
static const dtype_info BF16 = {ACL_BF16, "bf16", 2, 8e-3, 0x1p-133};
static const dtype_info F32 = {ACL_FLOAT, "f32", 4, 1e-5, 0x1p-149};

typedef struct shape_case {
    const char *name;
    int64_t x[4], cs[4];
    int64_t start, end;
    int grad_only; /* odd D: legal for the gradient only */
} shape_case;

static const shape_case CASES[] = {
    {"BSND full slice", {2, 3, 4, 64}, {2, 3, 4, 64}, 0, 64, 0},
    {"BS1D partial slice", {2, 5, 3, 96}, {2, 5, 1, 32}, 32, 64, 0},
    {"B11D tail slice", {4, 3, 2, 128}, {4, 1, 1, 64}, 64, 128, 0},
    {"111D odd start", {3, 2, 2, 40}, {1, 1, 1, 14}, 7, 21, 0},
    {"B1ND odd D", {2, 2, 3, 33}, {2, 1, 3, 32}, 1, 33, 1},
};

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rng_next(void) { /* xorshift64* */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1du) >> 32);
}

/* A random value of the given dtype, written as raw bits: random sign and mantissa, a
 * magnitude in [2^lo, 2^(lo+7)); one value in 32 is a signed zero. */
static void random_value(const dtype_info *t, void *dst, int lo) {
    uint32_t r = rng_next(), mantissa = rng_next();
    uint32_t sign = r >> 31, zero = (r & 0x1f) == 0, step = (r >> 8) % 7;
    if (t->id == ACL_FLOAT16) {
        uint32_t exponent = zero ? 0 : (uint32_t)(15 + lo) + step;
        uint16_t h = (uint16_t)(sign << 15 | exponent << 10 | (zero ? 0 : mantissa >> 22));
        memcpy(dst, &h, 2);
        return;
    }
    uint32_t exponent = zero ? 0 : (uint32_t)(127 + lo) + step;
    uint32_t bits = sign << 31 | exponent << 23 | (zero ? 0 : mantissa >> 9);
    if (t->id == ACL_FLOAT) {
        memcpy(dst, &bits, 4);
    } else { /* bf16: the upper half of an fp32 */
        uint16_t h = (uint16_t)(bits >> 16);
        memcpy(dst, &h, 2);
    }
}

static double load(const dtype_info *t, const void *base, int64_t index) {
    const unsigned char *p = (const unsigned char *)base + index * (int64_t)t->size;
    if (t->id == ACL_FLOAT) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    uint16_t h;
    memcpy(&h, p, 2);
    if (t->id == ACL_BF16) {
        uint32_t u = (uint32_t)h << 16;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 0x400, e - 25);
    return (h & 0x8000) ? -v : v;
}

static int64_t numel(const int64_t *shape) {
    return shape[0] * shape[1] * shape[2] * shape[3];
}

/* Device buffer + contiguous tensor (explicit strides, as CANN clients pass them). */
static aclTensor *to_device(const void *host, const int64_t *shape, const dtype_info *t,
                            void **dev) {
    size_t bytes = (size_t)numel(shape) * t->size;
    int64_t strides[4] = {shape[1] * shape[2] * shape[3], shape[2] * shape[3], shape[3], 1};
    if (aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(*dev, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        return NULL;
    }
    return aclCreateTensor(shape, 4, t->id, strides, 0, ACL_FORMAT_ND, shape, 4, *dev);
}

static aclnnStatus launch(int grad, aclTensor *x, aclTensor *c, aclTensor *s, aclIntArray *slice,
                          aclrtStream stream) {
    uint64_t ws_size = 0;
    aclOpExecutor *exec = NULL;
    aclnnStatus st =
        grad ? aclnnInplacePartialRotaryMulGradGetWorkspaceSize(x, c, s, 1, slice, &ws_size, &exec)
             : aclnnInplacePartialRotaryMulGetWorkspaceSize(x, c, s, 1, slice, &ws_size, &exec);
    if (st != ACLNN_SUCCESS) {
        return st;
    }
    void *ws = NULL;
    if (ws_size > 0 && aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return -1;
    }
    st = grad ? aclnnInplacePartialRotaryMulGrad(ws, ws_size, exec, stream)
              : aclnnInplacePartialRotaryMul(ws, ws_size, exec, stream);
    if (st == ACLNN_SUCCESS) {
        st = aclrtSynchronizeStream(stream);
    }
    if (ws) {
        aclrtFree(ws);
    }
    return st;
}

/* Compares out with the float64 reference; returns the number of bad elements. */
static long verify(int grad, const shape_case *sc, const dtype_info *xt, const dtype_info *ct,
                   const void *x0, const void *out, const void *c, const void *s) {
    const int64_t D = sc->x[3], L = sc->end - sc->start;
    long bad = 0;
    for (int64_t row = 0; row < numel(sc->x) / D; row++) {
        int64_t idx[3] = {row / (sc->x[1] * sc->x[2]), (row / sc->x[2]) % sc->x[1], row % sc->x[2]};
        int64_t crow = 0;
        for (int k = 0; k < 3; k++) {
            crow = crow * sc->cs[k] + (sc->cs[k] == 1 ? 0 : idx[k]);
        }
        for (int64_t j = 0; j < D; j++) {
            int64_t e = row * D + j;
            if (j < sc->start || j >= sc->end) {
                bad += memcmp((const char *)x0 + e * xt->size, (const char *)out + e * xt->size,
                              xt->size) != 0;
                continue;
            }
            int64_t k = j - sc->start, p = row * D + sc->start + (k & ~(int64_t)1);
            double a = load(xt, x0, p), b = load(xt, x0, p + 1);
            double ck = load(ct, c, crow * L + k);
            double t1, t2; /* result = t1 + t2 */
            if (!grad) {   /* SPEC 3.3 */
                double sk = load(ct, s, crow * L + k);
                t1 = (k % 2 == 0) ? a * ck : b * ck;
                t2 = (k % 2 == 0) ? -(b * sk) : a * sk;
            } else { /* SPEC 4.2 */
                double sp = load(ct, s, crow * L + (k ^ 1));
                t1 = (k % 2 == 0) ? ck * a : ck * b;
                t2 = (k % 2 == 0) ? sp * b : -(sp * a);
            }
            double ref = t1 + t2, got = load(xt, out, e);
            if (!(fabs(got - ref) <= xt->rtol * (fabs(t1) + fabs(t2)) + xt->atol)) {
                if (bad < 3) {
                    fprintf(stderr, "    element %lld: got %.9g, want %.9g\n", (long long)e, got,
                            ref);
                }
                bad++;
            }
        }
    }
    return bad;
}

static int run_case(int grad, const shape_case *sc, const dtype_info *xt, const dtype_info *ct,
                    aclrtStream stream) {
    int64_t nx = numel(sc->x), nc = numel(sc->cs);
    void *x0 = malloc((size_t)nx * xt->size), *out = malloc((size_t)nx * xt->size);
    void *c = malloc((size_t)nc * ct->size), *s = malloc((size_t)nc * ct->size);
    void *xd = NULL, *cd = NULL, *sd = NULL;
    int failed = 1;
    if (!x0 || !out || !c || !s) {
        goto done;
    }
    for (int64_t i = 0; i < nx; i++) {
        random_value(xt, (char *)x0 + i * (int64_t)xt->size, -4);
    }
    for (int64_t i = 0; i < nc; i++) {
        random_value(ct, (char *)c + i * (int64_t)ct->size, -7);
        random_value(ct, (char *)s + i * (int64_t)ct->size, -7);
    }
    aclTensor *x_t = to_device(x0, sc->x, xt, &xd);
    aclTensor *c_t = to_device(c, sc->cs, ct, &cd);
    aclTensor *s_t = to_device(s, sc->cs, ct, &sd);
    int64_t range[2] = {sc->start, sc->end};
    aclIntArray *slice = aclCreateIntArray(range, 2);
    aclnnStatus st = -1;
    if (x_t && c_t && s_t && slice) {
        st = launch(grad, x_t, c_t, s_t, slice, stream);
    }
    aclDestroyTensor(x_t);
    aclDestroyTensor(c_t);
    aclDestroyTensor(s_t);
    aclDestroyIntArray(slice);
    if (st != ACLNN_SUCCESS) {
        fprintf(stderr, "    status %d: %s\n", (int)st, aclGetRecentErrMsg());
        goto done;
    }
    size_t bytes = (size_t)nx * xt->size;
    if (aclrtMemcpy(out, bytes, xd, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
        goto done;
    }
    failed = verify(grad, sc, xt, ct, x0, out, c, s) != 0;
done:
    printf("%s %-9s x=%-4s cos/sin=%-4s %-20s %s\n", failed ? "FAIL" : "ok  ",
           grad ? "grad" : "forward", xt->name, ct->name, sc->name, failed ? "<--" : "");
    aclrtFree(xd);
    aclrtFree(cd);
    aclrtFree(sd);
    free(x0);
    free(out);
    free(c);
    free(s);
    return failed;
}

/* ---- RopeWithSinCosCache ---- */

typedef struct rope_case {
    const char *name;
    int num_sections; /* 0: mropeSection = NULL */
    int64_t sections[4];
    int64_t cache_mode; /* V2 only: V1 runs the cases with cache_mode 0 */
    int64_t head_size, rotary_dim, hq, hk;
} rope_case;

enum { ROPE_T = 5, ROPE_M = 37 }; /* tokens, cache rows (maxSeqLen) */

static const rope_case ROPE_CASES[] = {
    {"rope", 0, {0}, 0, 64, 64, 4, 2},
    {"rope R32<hs96", 0, {0}, 0, 96, 32, 3, 1},
    {"rope [0,0,0] R64<hs128", 3, {0, 0, 0}, 0, 128, 64, 2, 1},
    {"rope cacheMode1 R64<hs128", 0, {0}, 1, 128, 64, 2, 2},
    {"mrope [16,24,24]", 3, {16, 24, 24}, 0, 128, 128, 2, 1},
    {"mrope [8,12,12] R64<hs128", 3, {8, 12, 12}, 0, 128, 64, 3, 2},
    {"mrope [24,20,20]", 3, {24, 20, 20}, 0, 128, 128, 4, 1},
    {"mrope [11,11,10]", 3, {11, 11, 10}, 0, 64, 64, 2, 3},
    {"mrope [16,16,16,16] R128<hs160", 4, {16, 16, 16, 16}, 0, 160, 128, 2, 1},
    {"imrope [16,24,24]", 3, {16, 24, 24}, 1, 128, 128, 2, 1},
    {"imrope [8,12,12] R64<hs96", 3, {8, 12, 12}, 1, 96, 64, 2, 1},
    {"imrope [24,20,20]", 3, {24, 20, 20}, 1, 128, 128, 3, 1},
    {"imrope [11,11,10] R64<hs128", 3, {11, 11, 10}, 1, 128, 64, 1, 2},
};

enum rope_layout { SEPARATE, FUSED, FUSED_IN_PLACE, IN_PLACE, LAYOUTS };
static const char *const LAYOUT_NAMES[LAYOUTS] = {"separate", "fused qkv", "fused qkv in place",
                                                  "in place"};

/* Host images and device copy of one allocation. */
typedef struct rope_buf {
    size_t bytes;
    unsigned char *before, *after, *expect;
    void *dev;
} rope_buf;

/* A [T, cols] view: element (t, c) is element offset + t * row_stride + c of buffer buf. */
typedef struct rope_view {
    int buf;
    int64_t offset, row_stride, cols;
} rope_view;

enum { B_Q, B_K, B_QO, B_KO, B_POS, B_CACHE, NBUF };

static int rope_is_mrope(const rope_case *rc) {
    return rc->num_sections > 0 && rc->sections[0] > 0;
}

/* SPEC 5.3: the position row that feeds coefficient j. */
static int rope_source_row(const rope_case *rc, int64_t j) {
    if (!rope_is_mrope(rc)) {
        return 0;
    }
    if (rc->cache_mode == 1) {
        if (j % 3 == 1 && j / 3 < rc->sections[1]) {
            return 1;
        }
        if (j % 3 == 2 && j / 3 < rc->sections[2]) {
            return 2;
        }
        return 0;
    }
    int64_t end = 0;
    for (int k = 0; k < rc->num_sections; k++) {
        end += rc->sections[k];
        if (j < end) {
            return k;
        }
    }
    return -1;
}

/* Checks the rotation of one [T, heads * hs] tensor and fills in what the rest of the
 * output view must hold; returns the number of bad elements. */
static long rope_verify(const rope_case *rc, int neox, const dtype_info *t, rope_buf *bufs,
                        const rope_view *in, const rope_view *out, const int64_t *pos) {
    const int64_t hs = rc->head_size, R = rc->rotary_dim, h = R / 2;
    const size_t sz = t->size;
    long bad = 0;
    for (int64_t tok = 0; tok < ROPE_T; tok++) {
        for (int64_t n = 0; n < in->cols / hs; n++) {
            int64_t ie = in->offset + tok * in->row_stride + n * hs;
            int64_t oe = out->offset + tok * out->row_stride + n * hs;
            const unsigned char *x = bufs[in->buf].before;
            for (int64_t j = R; j < hs; j++) { /* pass-through: the input's bytes */
                memcpy(bufs[out->buf].expect + (oe + j) * (int64_t)sz, x + (ie + j) * (int64_t)sz,
                       sz);
            }
            for (int64_t j = 0; j < h; j++) {
                int64_t p = pos[rope_source_row(rc, j) * ROPE_T + tok];
                double c = load(t, bufs[B_CACHE].before, p * R + j);
                double s = load(t, bufs[B_CACHE].before, p * R + h + j);
                int64_t i0 = neox ? j : 2 * j, i1 = neox ? j + h : 2 * j + 1;
                double a = load(t, x, ie + i0), b = load(t, x, ie + i1);
                double ref[2] = {a * c - b * s, b * c + a * s};
                double mag[2] = {fabs(a * c) + fabs(b * s), fabs(b * c) + fabs(a * s)};
                int64_t idx[2] = {oe + i0, oe + i1};
                for (int k = 0; k < 2; k++) {
                    double got = load(t, bufs[out->buf].after, idx[k]);
                    if (!(fabs(got - ref[k]) <= t->rtol * mag[k] + t->atol)) {
                        if (bad < 3) {
                            fprintf(stderr,
                                    "    token %lld head %lld channel %lld: got %.9g, "
                                    "want %.9g\n",
                                    (long long)tok, (long long)n, (long long)(k ? i1 : i0), got,
                                    ref[k]);
                        }
                        bad++;
                    }
                    /* checked numerically; the byte comparison takes it as it is */
                    memcpy(bufs[out->buf].expect + idx[k] * (int64_t)sz,
                           bufs[out->buf].after + idx[k] * (int64_t)sz, sz);
                }
            }
        }
    }
    return bad;
}

static aclTensor *rope_tensor(const rope_buf *bufs, const rope_view *v, const dtype_info *t) {
    const int64_t shape[2] = {ROPE_T, v->cols}, strides[2] = {v->row_stride, 1};
    const int64_t storage[1] = {(int64_t)(bufs[v->buf].bytes / t->size)};
    return aclCreateTensor(shape, 2, t->id, strides, v->offset, ACL_FORMAT_ND, storage, 1,
                           bufs[v->buf].dev);
}

/* Phase 1, phase 2 and synchronisation; *phase tells which one returned the status. */
static int32_t rope_launch(int v2, aclTensor *pos, aclTensor *q, aclTensor *k, aclTensor *cache,
                           aclIntArray *sections, int64_t hs, int neox, int64_t cache_mode,
                           aclTensor *qo, aclTensor *ko, aclrtStream stream, int *phase) {
    uint64_t ws_size = 0;
    aclOpExecutor *exec = NULL;
    *phase = 1;
    aclnnStatus st =
        v2 ? aclnnRopeWithSinCosCacheV2GetWorkspaceSize(pos, q, k, cache, sections, hs, neox != 0,
                                                        cache_mode, qo, ko, &ws_size, &exec)
           : aclnnRopeWithSinCosCacheGetWorkspaceSize(pos, q, k, cache, sections, hs, neox != 0, qo,
                                                      ko, &ws_size, &exec);
    if (st != ACLNN_SUCCESS) {
        return st;
    }
    void *ws = NULL;
    if (ws_size > 0 && aclrtMalloc(&ws, ws_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return -1;
    }
    *phase = 2;
    st = v2 ? aclnnRopeWithSinCosCacheV2(ws, ws_size, exec, stream)
            : aclnnRopeWithSinCosCache(ws, ws_size, exec, stream);
    if (st == ACLNN_SUCCESS) {
        *phase = 3;
        st = aclrtSynchronizeStream(stream);
    }
    if (ws) {
        aclrtFree(ws);
    }
    return st;
}

/* One rope case. A non-zero bad_position is an out-of-range value put into the last
 * position row; the run must then fail at synchronisation and change nothing. */
static int run_rope_case(int v2, const dtype_info *t, int neox, const rope_case *rc, int layout,
                         int64_t bad_position, aclrtStream stream) {
    const int64_t hs = rc->head_size, R = rc->rotary_dim, T = ROPE_T;
    const int m = rope_is_mrope(rc) ? rc->num_sections : 1;
    const int fused = layout == FUSED || layout == FUSED_IN_PLACE;
    const int in_place = layout == FUSED_IN_PLACE || layout == IN_PLACE;
    const int fault = bad_position != 0;
    rope_buf bufs[NBUF];
    rope_view q, k, qo, ko;
    int failed = 1;
    memset(bufs, 0, sizeof bufs);
    if (fused) { /* per token: q heads, k heads, v heads, 16 elements of padding */
        int64_t stride = (rc->hq + 2 * rc->hk) * hs + 16;
        q = (rope_view){B_Q, 0, stride, rc->hq * hs};
        k = (rope_view){B_Q, rc->hq * hs, stride, rc->hk * hs};
        bufs[B_Q].bytes = (size_t)(T * stride) * t->size;
    } else {
        q = (rope_view){B_Q, 0, rc->hq * hs, rc->hq * hs};
        k = (rope_view){B_K, 0, rc->hk * hs, rc->hk * hs};
        bufs[B_Q].bytes = (size_t)(T * rc->hq * hs) * t->size;
        bufs[B_K].bytes = (size_t)(T * rc->hk * hs) * t->size;
    }
    if (in_place) {
        qo = q;
        ko = k;
    } else {
        qo = (rope_view){B_QO, 0, q.cols, q.cols};
        ko = (rope_view){B_KO, 0, k.cols, k.cols};
        bufs[B_QO].bytes = (size_t)(T * q.cols) * t->size;
        bufs[B_KO].bytes = (size_t)(T * k.cols) * t->size;
    }
    bufs[B_POS].bytes = (size_t)(m * T) * sizeof(int64_t);
    bufs[B_CACHE].bytes = (size_t)(ROPE_M * R) * t->size;

    aclTensor *tq = NULL, *tk = NULL, *tqo = NULL, *tko = NULL, *tpos = NULL, *tcache = NULL;
    aclIntArray *sections = NULL;
    int32_t st = -1;
    int phase = 0;
    for (int b = 0; b < NBUF; b++) {
        if (bufs[b].bytes == 0) {
            continue;
        }
        bufs[b].before = malloc(bufs[b].bytes);
        bufs[b].after = malloc(bufs[b].bytes);
        bufs[b].expect = malloc(bufs[b].bytes);
        if (!bufs[b].before || !bufs[b].after || !bufs[b].expect) {
            goto done;
        }
        if (b == B_QO || b == B_KO) {
            memset(bufs[b].before, 0xa5, bufs[b].bytes); /* never read by the op */
        } else if (b == B_CACHE) {
            for (size_t i = 0; i < bufs[b].bytes / t->size; i++) {
                random_value(t, bufs[b].before + i * t->size, -6);
            }
        } else if (b != B_POS) {
            for (size_t i = 0; i < bufs[b].bytes / t->size; i++) {
                random_value(t, bufs[b].before + i * t->size, -4);
            }
        }
    }
    int64_t *pos = (int64_t *)bufs[B_POS].before;
    for (int r = 0; r < m; r++) { /* every row holds 0 and maxSeqLen-1 */
        for (int64_t i = 0; i < T; i++) {
            pos[r * T + i] = rng_next() % ROPE_M;
        }
        pos[r * T + r % T] = 0;
        pos[r * T + (r + 1) % T] = ROPE_M - 1;
    }
    if (fault) {
        pos[(m - 1) * T + 2] = bad_position;
    }
    for (int b = 0; b < NBUF; b++) {
        if (bufs[b].bytes &&
            (aclrtMalloc(&bufs[b].dev, bufs[b].bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
             aclrtMemcpy(bufs[b].dev, bufs[b].bytes, bufs[b].before, bufs[b].bytes,
                         ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)) {
            goto done;
        }
    }
    const int64_t pos_shape[2] = {m, T}, cache_shape[2] = {ROPE_M, R};
    tpos = !rope_is_mrope(rc) ? aclCreateTensor(&pos_shape[1], 1, ACL_INT64, NULL, 0, ACL_FORMAT_ND,
                                                &pos_shape[1], 1, bufs[B_POS].dev)
                              : aclCreateTensor(pos_shape, 2, ACL_INT64, NULL, 0, ACL_FORMAT_ND,
                                                pos_shape, 2, bufs[B_POS].dev);
    tcache = aclCreateTensor(cache_shape, 2, t->id, NULL, 0, ACL_FORMAT_ND, cache_shape, 2,
                             bufs[B_CACHE].dev);
    tq = rope_tensor(bufs, &q, t);
    tk = rope_tensor(bufs, &k, t);
    tqo = in_place ? tq : rope_tensor(bufs, &qo, t);
    tko = in_place ? tk : rope_tensor(bufs, &ko, t);
    if (rc->num_sections > 0) {
        sections = aclCreateIntArray(rc->sections, (uint64_t)rc->num_sections);
    }
    if (!tpos || !tcache || !tq || !tk || !tqo || !tko || (rc->num_sections > 0 && !sections)) {
        fprintf(stderr, "    creating tensors failed: %s\n", aclGetRecentErrMsg());
        goto done;
    }
    st = rope_launch(v2, tpos, tq, tk, tcache, sections, hs, neox, rc->cache_mode, tqo, tko, stream,
                     &phase);
    char msg[256];
    snprintf(msg, sizeof msg, "%s", aclGetRecentErrMsg());
    for (int b = 0; b < NBUF; b++) {
        if (bufs[b].bytes && aclrtMemcpy(bufs[b].after, bufs[b].bytes, bufs[b].dev, bufs[b].bytes,
                                         ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS) {
            goto done;
        }
        if (bufs[b].bytes) {
            memcpy(bufs[b].expect, bufs[b].before, bufs[b].bytes);
        }
    }
    long bad = 0;
    if (fault) {
        if (st != ACL_ERROR_RT_AICORE_EXCEPTION || phase != 3) {
            fprintf(stderr, "    expected 507015 from aclrtSynchronizeStream, got %d from %s\n",
                    (int)st,
                    phase == 1   ? "phase 1"
                    : phase == 2 ? "phase 2"
                                 : "synchronize");
            bad++;
        } else if (!msg[0]) {
            fprintf(stderr, "    aclGetRecentErrMsg() is empty after the fault\n");
            bad++;
        }
    } else if (st != ACLNN_SUCCESS) {
        fprintf(stderr, "    status %d at %s: %s\n", (int)st,
                phase == 1   ? "phase 1"
                : phase == 2 ? "phase 2"
                             : "synchronize",
                msg);
        goto done;
    } else {
        bad += rope_verify(rc, neox, t, bufs, &q, &qo, pos);
        bad += rope_verify(rc, neox, t, bufs, &k, &ko, pos);
    }
    for (int b = 0; b < NBUF; b++) { /* everything else keeps its expected bytes */
        for (size_t i = 0; bufs[b].bytes && i < bufs[b].bytes; i++) {
            if (bufs[b].after[i] != bufs[b].expect[i]) {
                fprintf(stderr, "    buffer %d byte %zu changed unexpectedly\n", b, i);
                bad++;
                break;
            }
        }
    }
    failed = bad != 0;
done:
    printf("%s %s %-4s %-5s %-30s %-18s%s%s\n", failed ? "FAIL" : "ok  ", v2 ? "V2" : "V1", t->name,
           neox ? "neox" : "gptj", rc->name, LAYOUT_NAMES[layout],
           fault ? " out-of-range position" : "", failed ? " <--" : "");
    aclDestroyTensor(tpos);
    aclDestroyTensor(tcache);
    if (!in_place) {
        aclDestroyTensor(tqo);
        aclDestroyTensor(tko);
    }
    aclDestroyTensor(tq);
    aclDestroyTensor(tk);
    aclDestroyIntArray(sections);
    for (int b = 0; b < NBUF; b++) {
        aclrtFree(bufs[b].dev);
        free(bufs[b].before);
        free(bufs[b].after);
        free(bufs[b].expect);
    }
    return failed;
}

int main(void) {
    const dtype_info *all[3] = {&F16, &BF16, &F32};
    const dtype_info *fwd_pairs[5][2] = {
        {&F16, &F16}, {&BF16, &BF16}, {&F32, &F32}, {&F16, &F32}, {&BF16, &F32}};
    aclrtStream stream = NULL;
    if (aclInit(NULL) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateStream(&stream) != ACL_SUCCESS) {
        fprintf(stderr, "ACL initialisation failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    int failures = 0, runs = 0;
    for (size_t k = 0; k < sizeof CASES / sizeof CASES[0]; k++) {
        for (int p = 0; p < 5 && !CASES[k].grad_only; p++, runs++) {
            failures += run_case(0, &CASES[k], fwd_pairs[p][0], fwd_pairs[p][1], stream);
        }
        for (int p = 0; p < 9; p++, runs++) {
            failures += run_case(1, &CASES[k], all[p / 3], all[p % 3], stream);
        }
    }
    int rope_failures = 0, rope_runs = 0;
    const size_t n_rope = sizeof ROPE_CASES / sizeof ROPE_CASES[0];
    for (int v2 = 0; v2 < 2; v2++) {
        for (int d = 0; d < 3; d++) {
            for (int neox = 1; neox >= 0; neox--) {
                for (size_t c = 0; c < n_rope; c++) {
                    for (int layout = 0; layout < LAYOUTS && (v2 || !ROPE_CASES[c].cache_mode);
                         layout++, rope_runs++) {
                        rope_failures +=
                            run_rope_case(v2, all[d], neox, &ROPE_CASES[c], layout, 0, stream);
                    }
                }
            }
        }
    }
    /* Out-of-range positions (maxSeqLen, -1, far beyond), then a clean run on the same
     * stream. */
    rope_failures += run_rope_case(0, &BF16, 1, &ROPE_CASES[0], SEPARATE, ROPE_M, stream);
    rope_failures += run_rope_case(0, &F32, 0, &ROPE_CASES[4], IN_PLACE, -1, stream);
    rope_failures += run_rope_case(1, &F16, 1, &ROPE_CASES[11], FUSED_IN_PLACE, ROPE_M, stream);
    rope_failures += run_rope_case(1, &BF16, 0, &ROPE_CASES[8], FUSED, INT64_MAX, stream);
    rope_failures += run_rope_case(1, &F16, 0, &ROPE_CASES[1], FUSED, 0, stream);
    rope_runs += 5;
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("C client: %d of %d partial-rotary cases and %d of %d rope cases failed\n", failures,
           runs, rope_failures, rope_runs);
    failures += rope_failures;
    return failures ? 1 : 0;
}
