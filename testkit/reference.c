/* The float64 references of the rotary math (reference.h) and its fp32 model. */
#include "testkit/reference.h"

#include <math.h>

struct tk_rot_pair tk_rot_pair_of(int mode, int64_t len, int64_t k) {
    struct tk_rot_pair p = {0, 0, 0, 0};
    const int64_t h = len / 2, q = len / 4;
    switch (mode) {
    case 0: /* half */
        p.ip = p.op = k;
        p.ir = p.orr = k + h;
        break;
    case 1: /* interleave */
        p.ip = p.op = 2 * k;
        p.ir = p.orr = 2 * k + 1;
        break;
    case 2: { /* quarter: rotate-half inside each half of the vector */
        int64_t base = (k / q) * 2 * q, j = k % q;
        p.ip = p.op = base + j;
        p.ir = p.orr = base + j + q;
        break;
    }
    default: /* interleave-half: interleaved input, half-layout output */
        p.ip = 2 * k;
        p.ir = 2 * k + 1;
        p.op = k;
        p.orr = k + h;
        break;
    }
    return p;
}

/* SPEC §1 rule 2 rounds each product to fp32; the only effect of that rounding beyond
 * the tolerance is overflow, so a product at or above the fp32 overflow threshold
 * (halfway between FLT_MAX and 2^128) becomes inf, as it does in fp32. float64 data's
 * products stay what they are. */
static double tk_product(double a, double b, bool float64) {
    static const double overflow = 340282356779733661637539395458142568448.0; /* 2^128-2^103 */
    double p = a * b;
    return !float64 && fabs(p) >= overflow ? copysign(INFINITY, p) : p;
}

void tk_ref_rotate(int mode, int direction, int64_t len, const double *v, const double *c,
                   const double *s, double *out, double *mag, bool float64) {
    for (int64_t k = 0; k < len / 2; k++) {
        struct tk_rot_pair p = tk_rot_pair_of(mode, len, k);
        double t1, t2, t3, t4;
        if (direction == 0) {
            t1 = tk_product(v[p.ip], c[p.op], float64);
            t2 = tk_product(v[p.ir], s[p.op], float64);
            t3 = tk_product(v[p.ir], c[p.orr], float64);
            t4 = tk_product(v[p.ip], s[p.orr], float64);
            out[p.op] = t1 - t2;
            mag[p.op] = fabs(t1) + fabs(t2);
            out[p.orr] = t3 + t4;
            mag[p.orr] = fabs(t3) + fabs(t4);
        } else {
            t1 = tk_product(c[p.op], v[p.op], float64);
            t2 = tk_product(s[p.orr], v[p.orr], float64);
            t3 = tk_product(c[p.orr], v[p.orr], float64);
            t4 = tk_product(s[p.op], v[p.op], float64);
            out[p.ip] = t1 + t2;
            mag[p.ip] = fabs(t1) + fabs(t2);
            out[p.ir] = t3 - t4;
            mag[p.ir] = fabs(t3) + fabs(t4);
        }
    }
}

/* <B^T a, b> == <a, F b> for forward F and backward B on small integer data, where
 * float64 is exact. */
static int tk_ref_adjoint_ok(int mode) {
    enum { N = 8 };
    double a[N], b[N], c[N], s[N], fb[N], bta[N], mag[N];
    for (int i = 0; i < N; i++) {
        a[i] = (double)(i % 3) - 1.0 + 0.5 * i;
        b[i] = (double)((i * 5) % 7) - 3.0;
        c[i] = (double)(i + 1);
        s[i] = (double)(2 * i - 5);
    }
    tk_ref_rotate(mode, 0, N, b, c, s, fb, mag, false);
    tk_ref_rotate(mode, 1, N, a, c, s, bta, mag, false);
    double lhs = 0.0, rhs = 0.0;
    for (int i = 0; i < N; i++) {
        lhs += bta[i] * b[i];
        rhs += a[i] * fb[i];
    }
    return lhs == rhs;
}

int tk_ref_self_test(void) {
    const double v[4] = {1, 2, 3, 4}, c[4] = {.5, .5, .25, .25}, s[4] = {.1, .2, .3, .4};
    const double want[4] = {0.3, 1.2, -0.45, 2.2};
    double u[4], mag[4];
    tk_ref_rotate(1, 0, 4, v, c, s, u, mag, false);
    for (int i = 0; i < 4; i++)
        if (fabs(u[i] - want[i]) > 1e-12)
            return 1;
    for (int mode = 0; mode < 4; mode++)
        if (!tk_ref_adjoint_ok(mode))
            return 2;
    return 0;
}

/* fl(a*b), kept in fp32 */
float tk_mul32(float a, float b) {
    volatile float p = a * b;
    return p;
}

/* fl(fl(a*b) - fl(c*d)) */
float tk_msub32(float a, float b, float c, float d) {
    float p = tk_mul32(a, b), q = tk_mul32(c, d);
    volatile float r = p - q;
    return r;
}

/* fl(fl(a*b) + fl(c*d)) */
float tk_madd32(float a, float b, float c, float d) {
    float p = tk_mul32(a, b), q = tk_mul32(c, d);
    volatile float r = p + q;
    return r;
}

void tk_ref32_interleave(int direction, int64_t len, const float *v, const float *c, const float *s,
                         float *out) {
    for (int64_t i = 0; i + 1 < len; i += 2) {
        if (direction == 0) {
            out[i] = tk_msub32(v[i], c[i], v[i + 1], s[i]);
            out[i + 1] = tk_madd32(v[i + 1], c[i + 1], v[i], s[i + 1]);
        } else {
            out[i] = tk_madd32(c[i], v[i], s[i + 1], v[i + 1]);
            out[i + 1] = tk_msub32(c[i + 1], v[i + 1], s[i], v[i]);
        }
    }
}
