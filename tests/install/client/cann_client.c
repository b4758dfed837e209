/* Install test client (C11): uses only the installed headers and library.
 *
 * Runs aclnnInplacePartialRotaryMul in each of its five (x, cos/sin) dtype pairs and
 * aclnnInplacePartialRotaryMulGrad in all nine, over shapes that cover full and
 * partial slices, an odd slice start and the broadcast patterns BSND, BS1D, B11D,
 * 111D and B1ND. Each result is compared with a float64 reference (SPEC sections 3.3
 * and 4.2) within the SPEC section 6 bound; elements outside the slice must keep their
 * exact bytes. Prints one line per case and exits 1 if any case fails.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"

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
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("C client: %d of %d cases failed\n", failures, runs);
    return failures ? 1 : 0;
}
