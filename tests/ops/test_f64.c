/* float64 on the native face: both operators, forward and gradient, every rotary mode and
 * rope style, against a long double reference written from SPEC §3.3, §4.2 and §5.4.
 * Random full-precision data must lie within the rounding of one double product and one
 * double sum (so nothing went through fp32); data with short mantissas, whose products
 * and sums are exact in double, must equal the reference bit for bit. Also: strided
 * views, broadcast cos/sin, in place and out of place, elements outside the rotated
 * part untouched, results identical at every ISA cap and thread count, mixed float64
 * pairings refused with nothing written, and float64 cos/sin tables. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ropekit/ropekit.h"
#include "testkit/everywhere.h"

/* ---- data ---- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t next64(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [-scale, scale) with all 53 bits, or (short) k / 4096 with |k| <= 4096 * scale:
 * 13-bit mantissas, so every product and every sum of two products is exact in double. */
static double random_value(double scale, bool short_mantissa) {
    if (short_mantissa)
        return (double)((int64_t)(next64() % (uint64_t)(8193 * scale)) - (int64_t)(4096 * scale)) /
               4096.0;
    return ((double)(next64() >> 11) * 0x1p-53 * 2.0 - 1.0) * scale;
}

static double *random_doubles(size_t n, double scale, bool short_mantissa) {
    double *p = malloc(n * sizeof *p);
    assert_non_null(p);
    for (size_t i = 0; i < n; i++)
        p[i] = random_value(scale, short_mantissa);
    return p;
}

static double *copy_doubles(const double *src, size_t n) {
    double *p = malloc(n * sizeof *p);
    assert_non_null(p);
    memcpy(p, src, n * sizeof *p);
    return p;
}

/* One rounding of each product and of the sum: |error| <= 2u * mag (1 + u), u = 2^-53. */
static void check_element(double got, long double ref, long double mag, bool exact) {
    if (exact) {
        double want = (double)ref;
        assert_memory_equal(&got, &want, sizeof got);
        return;
    }
    long double err = fabsl((long double)got - ref);
    if (err > 2.0000001L * 0x1p-53L * mag + 0x1p-1074L)
        fail_msg("float64 result %.17g, reference %.21Lg (magnitude %.6Lg)", got, ref, mag);
}

/* ---- partial rotary: reference ---- */

/* The pairs of one rotated vector, SPEC §3.3: for pair k, the members are read at
 * in_a/in_b and written at out_a/out_b; c_a/c_b index cos and sin. Forward:
 *   out_a = v[in_a] c[c_a] - v[in_b] s[c_a],  out_b = v[in_b] c[c_b] + v[in_a] s[c_b];
 * the gradient is its transpose (SPEC §4.2). */
struct pair_at {
    int64_t in_a, in_b, out_a, out_b, c_a, c_b;
};

static int64_t mode_pairs(ropekit_rotary_mode mode, int64_t len, bool backward,
                          struct pair_at *out) {
    const int64_t h = len / 2, q = len / 4;
    int64_t n = 0;
    for (int64_t j = 0; j < h; j++) {
        int64_t a, b;
        switch (mode) {
        case ROPEKIT_ROTARY_INTERLEAVE:
            a = 2 * j, b = 2 * j + 1;
            break;
        case ROPEKIT_ROTARY_QUARTER:
            a = j < q ? j : j + q, b = a + q;
            break;
        default:
            a = j, b = j + h;
            break;
        }
        struct pair_at p = {a, b, a, b, a, b};
        if (mode == ROPEKIT_ROTARY_INTERLEAVE_HALF) { /* interleaved <-> half layout */
            p.in_a = backward ? j : 2 * j;
            p.in_b = backward ? j + h : 2 * j + 1;
            p.out_a = backward ? 2 * j : j;
            p.out_b = backward ? 2 * j + 1 : j + h;
        }
        out[n++] = p;
    }
    return n;
}

/* Reference of one vector: u and mag (|first product| + |second product|). */
static void pr_reference(const double *v, const double *c, const double *s, int64_t len,
                         ropekit_rotary_mode mode, bool backward, long double *u,
                         long double *mag) {
    struct pair_at pairs[256];
    const int64_t n = mode_pairs(mode, len, backward, pairs);
    for (int64_t k = 0; k < n; k++) {
        const struct pair_at p = pairs[k];
        long double a = v[p.in_a], b = v[p.in_b];
        long double ca = c[p.c_a], sa = s[p.c_a], cb = c[p.c_b], sb = s[p.c_b];
        long double t1 = a * ca, t2 = backward ? b * sb : b * sa;
        long double t3 = b * cb, t4 = backward ? a * sa : a * sb;
        u[p.out_a] = backward ? t1 + t2 : t1 - t2;
        u[p.out_b] = backward ? t3 - t4 : t3 + t4;
        mag[p.out_a] = fabsl(t1) + fabsl(t2);
        mag[p.out_b] = fabsl(t3) + fabsl(t4);
    }
}

/* ---- partial rotary: results ---- */

enum { PR_B = 5, PR_N = 3, PR_D = 40, PR_START = 4, PR_L = 32, PR_COL = 2 };

/* x [B, N, D] as every other double of its buffer (column stride 2), rotated on
 * [START, START + L); cos/sin [N, L], broadcast over B. */
static void pr_case(ropekit_rotary_mode mode, bool backward, bool short_mantissa) {
    const size_t xn = (size_t)PR_B * PR_N * PR_D * PR_COL, cn = (size_t)PR_N * PR_L;
    double *buf = random_doubles(xn, 4.0, short_mantissa);
    double *before = copy_doubles(buf, xn);
    double *c = random_doubles(cn, 1.0, short_mantissa);
    double *s = random_doubles(cn, 1.0, short_mantissa);
    const int64_t xshape[3] = {PR_B, PR_N, PR_D};
    const int64_t xstrides[3] = {PR_N * PR_D * PR_COL, PR_D * PR_COL, PR_COL};
    const int64_t cshape[2] = {PR_N, PR_L};
    ropekit_tensor x = ropekit_tensor_make(buf, ROPEKIT_F64, 3, xshape, xstrides);
    ropekit_tensor ct = ropekit_tensor_make(c, ROPEKIT_F64, 2, cshape, NULL);
    ropekit_tensor st = ropekit_tensor_make(s, ROPEKIT_F64, 2, cshape, NULL);
    assert_int_equal(ropekit_partial_rotary(&x, &ct, &st, mode, PR_START, PR_START + PR_L,
                                            backward ? ROPEKIT_BACKWARD : ROPEKIT_FORWARD),
                     ROPEKIT_OK);
    for (int64_t b = 0; b < PR_B; b++)
        for (int64_t n = 0; n < PR_N; n++) {
            const size_t row = (size_t)(b * xstrides[0] + n * xstrides[1]);
            double v[PR_L];
            long double u[PR_L], mag[PR_L];
            for (int64_t j = 0; j < PR_L; j++)
                v[j] = before[row + (size_t)((PR_START + j) * PR_COL)];
            pr_reference(v, c + n * PR_L, s + n * PR_L, PR_L, mode, backward, u, mag);
            for (int64_t e = 0; e < PR_D * PR_COL; e++) {
                const size_t at = row + (size_t)e;
                const int64_t j = e / PR_COL - PR_START;
                if (e % PR_COL == 0 && j >= 0 && j < PR_L)
                    check_element(buf[at], u[j], mag[j], short_mantissa);
                else /* outside the slice, and the gaps between columns */
                    assert_memory_equal(&buf[at], &before[at], sizeof buf[at]);
            }
        }
    free(buf);
    free(before);
    free(c);
    free(s);
}

static void pr_matches_reference(void **state) {
    (void)state;
    for (int mode = 0; mode < 4; mode++)
        for (int backward = 0; backward < 2; backward++)
            for (int exact = 0; exact < 2; exact++)
                pr_case((ropekit_rotary_mode)mode, backward, exact);
}

/* The forward followed by the gradient is the identity up to rounding (each pair turns
 * by one angle, and the gradient is the transpose). */
static void pr_gradient_undoes_forward(void **state) {
    (void)state;
    enum { L = 64, P = 5 };
    for (int mode = 0; mode < 4; mode++) {
        double x[L], x0[L], c[P * L], s[P * L];
        assert_int_equal(ropekit_rotary_coeffs_build(c, s, ROPEKIT_F64, P, L,
                                                     (ropekit_rotary_mode)mode, 10000.0, NULL),
                         ROPEKIT_OK);
        for (int j = 0; j < L; j++)
            x[j] = x0[j] = random_value(2.0, false);
        const int64_t xs[1] = {L};
        ropekit_tensor xt = ropekit_tensor_make(x, ROPEKIT_F64, 1, xs, NULL);
        ropekit_tensor ct = ropekit_tensor_make(c + (P - 1) * L, ROPEKIT_F64, 1, xs, NULL);
        ropekit_tensor st = ropekit_tensor_make(s + (P - 1) * L, ROPEKIT_F64, 1, xs, NULL);
        for (int dir = 0; dir < 2; dir++)
            assert_int_equal(ropekit_partial_rotary(&xt, &ct, &st, (ropekit_rotary_mode)mode, 0, L,
                                                    (ropekit_direction)dir),
                             ROPEKIT_OK);
        for (int j = 0; j < L; j++)
            assert_true(fabs(x[j] - x0[j]) <= 1e-14);
    }
}

/* ---- rope: reference and results ---- */

enum { RT = 6, HQ = 2, HK = 1, HS = 40, RD = 32, RH = RD / 2, RM = 50, QKV = (HQ + 2 * HK) * HS };

struct rope_variant {
    bool gptj;
    int nsec; /* 0: rope */
    int64_t cache_mode;
};

/* The positions row feeding coefficient j (SPEC §5.3) for sections {4, 6, 6}. */
static int source_row(const struct rope_variant *v, int64_t j) {
    static const int64_t sec[3] = {4, 6, 6};
    if (v->nsec == 0)
        return 0;
    if (v->cache_mode == 1) {
        const int64_t r = j % 3, blk = j / 3;
        return r == 1 && blk < sec[1] ? 1 : r == 2 && blk < sec[2] ? 2 : 0;
    }
    return j < sec[0] ? 0 : j < sec[0] + sec[1] ? 1 : 2;
}

/* query [T, HQ, HS] and key [T, HK*HS]: views of one fused [T, QKV] buffer (as q, k, v). */
static void rope_case(const struct rope_variant *v, bool in_place, bool short_mantissa) {
    static const int64_t sections[3] = {4, 6, 6};
    const size_t qkv_n = (size_t)RT * QKV;
    double *qkv = random_doubles(qkv_n, 4.0, short_mantissa);
    double *before = copy_doubles(qkv, qkv_n);
    double *cache = random_doubles((size_t)RM * RD, 1.0, short_mantissa);
    double *out = malloc(qkv_n * sizeof *out);
    assert_non_null(out);
    for (size_t i = 0; i < qkv_n; i++)
        out[i] = -7.0;
    int64_t pos[3 * RT];
    for (int i = 0; i < 3 * RT; i++)
        pos[i] = (int64_t)(next64() % RM);
    const int64_t q_shape[3] = {RT, HQ, HS}, q_strides[3] = {QKV, HS, 1};
    const int64_t k_shape[2] = {RT, HK * HS}, k_strides[2] = {QKV, 1};
    const int64_t c_shape[2] = {RM, RD}, p_shape[2] = {v->nsec ? 3 : 1, RT};
    double *dst = in_place ? qkv : out;
    ropekit_tensor q = ropekit_tensor_make(qkv, ROPEKIT_F64, 3, q_shape, q_strides);
    ropekit_tensor k = ropekit_tensor_make(qkv + HQ * HS, ROPEKIT_F64, 2, k_shape, k_strides);
    ropekit_tensor qo = ropekit_tensor_make(dst, ROPEKIT_F64, 3, q_shape, q_strides);
    ropekit_tensor ko = ropekit_tensor_make(dst + HQ * HS, ROPEKIT_F64, 2, k_shape, k_strides);
    ropekit_tensor ct = ropekit_tensor_make(cache, ROPEKIT_F64, 2, c_shape, NULL);
    ropekit_tensor pt = v->nsec ? ropekit_tensor_make(pos, ROPEKIT_I64, 2, p_shape, NULL)
                                : ropekit_tensor_make(pos, ROPEKIT_I64, 1, p_shape + 1, NULL);
    ropekit_rope_config cfg = {
        .head_size = HS,
        .style = v->gptj ? ROPEKIT_ROPE_GPTJ : ROPEKIT_ROPE_NEOX,
        .sections = v->nsec ? sections : NULL,
        .num_sections = v->nsec,
        .cache_mode = v->cache_mode,
    };
    assert_int_equal(ropekit_rope(&pt, &q, &k, &ct, &qo, &ko, &cfg), ROPEKIT_OK);
    for (int64_t t = 0; t < RT; t++)
        for (int64_t head = 0; head < HQ + HK; head++) {
            const size_t at = (size_t)(t * QKV + head * HS);
            for (int64_t j = 0; j < RH; j++) {
                const double *row = cache + pos[source_row(v, j) * RT + t] * RD;
                const long double c = row[j], s = row[RH + j];
                const int64_t p = v->gptj ? 2 * j : j, r = v->gptj ? 2 * j + 1 : j + RH;
                const long double a = before[at + p], b = before[at + r];
                check_element(dst[at + p], a * c - b * s, fabsl(a * c) + fabsl(b * s),
                              short_mantissa);
                check_element(dst[at + r], b * c + a * s, fabsl(b * c) + fabsl(a * s),
                              short_mantissa);
            }
            for (int64_t e = RD; e < HS; e++)
                assert_memory_equal(&dst[at + e], &before[at + e], sizeof(double));
        }
    for (int64_t t = 0; t < RT; t++) /* the v part of the fused buffer: never written */
        for (int64_t e = (HQ + HK) * HS; e < QKV; e++) {
            const size_t at = (size_t)(t * QKV + e);
            assert_true(in_place ? memcmp(&qkv[at], &before[at], sizeof(double)) == 0
                                 : out[at] == -7.0);
        }
    if (!in_place) /* inputs untouched */
        assert_memory_equal(qkv, before, qkv_n * sizeof(double));
    free(qkv);
    free(before);
    free(cache);
    free(out);
}

static void rope_matches_reference(void **state) {
    (void)state;
    static const struct rope_variant variants[] = {
        {false, 0, 0}, {true, 0, 0}, {false, 3, 0}, {true, 3, 0}, {false, 3, 1}, {true, 3, 1},
    };
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        for (int in_place = 0; in_place < 2; in_place++)
            for (int exact = 0; exact < 2; exact++)
                rope_case(&variants[i], in_place, exact);
}

/* ---- every ISA cap and thread count ---- */

/* The kernel set a float64 plan uses under the current cap: AVX2's from AVX2 up (the
 * AVX-512 sets have no float64 kernels), else the scalar one. */
static const char *float64_kernel(void) {
    return ropekit_get_active_isa() >= ROPEKIT_ISA_AVX2 ? "kernel=avx2" : "kernel=scalar";
}

enum { BIG_ROWS = 512, BIG_D = 160, BIG_T = 256, BIG_H = 8, BIG_HS = 128, BIG_M = 300 };

static double *big_partial_rotary(ropekit_rotary_mode mode, ropekit_direction dir) {
    const size_t n = (size_t)BIG_ROWS * BIG_D;
    rng_state = 42;
    double *x = random_doubles(n, 3.0, false);
    double *c = random_doubles((size_t)BIG_ROWS * 128, 1.0, false);
    double *s = random_doubles((size_t)BIG_ROWS * 128, 1.0, false);
    const int64_t xs[2] = {BIG_ROWS, BIG_D}, cs[2] = {BIG_ROWS, 128};
    ropekit_tensor xt = ropekit_tensor_make(x, ROPEKIT_F64, 2, xs, NULL);
    ropekit_tensor ct = ropekit_tensor_make(c, ROPEKIT_F64, 2, cs, NULL);
    ropekit_tensor st = ropekit_tensor_make(s, ROPEKIT_F64, 2, cs, NULL);
    ropekit_plan *plan;
    assert_int_equal(ropekit_partial_rotary_plan_create(&xt, &ct, &st, mode, 16, 144, dir, &plan),
                     ROPEKIT_OK);
    char text[512];
    ropekit_plan_describe(plan, text, sizeof text);
    assert_non_null(strstr(text, float64_kernel()));
    assert_int_equal(ropekit_partial_rotary_execute(plan, x, c, s), ROPEKIT_OK);
    ropekit_plan_destroy(plan);
    free(c);
    free(s);
    return x;
}

static double *big_rope(bool gptj) {
    const size_t n = (size_t)BIG_T * BIG_H * BIG_HS;
    rng_state = 43;
    double *q = random_doubles(n, 3.0, false);
    double *cache = random_doubles((size_t)BIG_M * 96, 1.0, false);
    int64_t pos[BIG_T];
    for (int t = 0; t < BIG_T; t++)
        pos[t] = (int64_t)(next64() % BIG_M);
    const int64_t qs[2] = {BIG_T, BIG_H * BIG_HS}, cs[2] = {BIG_M, 96}, ps[1] = {BIG_T};
    ropekit_tensor qt = ropekit_tensor_make(q, ROPEKIT_F64, 2, qs, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cache, ROPEKIT_F64, 2, cs, NULL);
    ropekit_tensor pt = ropekit_tensor_make(pos, ROPEKIT_I64, 1, ps, NULL);
    ropekit_rope_config cfg = {.head_size = BIG_HS,
                               .style = gptj ? ROPEKIT_ROPE_GPTJ : ROPEKIT_ROPE_NEOX};
    ropekit_plan *plan;
    assert_int_equal(ropekit_rope_plan_create(&pt, &qt, NULL, &ct, &qt, NULL, &cfg, &plan),
                     ROPEKIT_OK);
    char text[512];
    ropekit_plan_describe(plan, text, sizeof text);
    assert_non_null(strstr(text, float64_kernel()));
    assert_int_equal(ropekit_rope_execute(plan, pos, q, NULL, cache, q, NULL), ROPEKIT_OK);
    ropekit_plan_destroy(plan);
    free(cache);
    return q;
}

struct big_case {
    bool rope, gptj;
    ropekit_rotary_mode mode;
    ropekit_direction dir;
};

static void big_case_compute(void *ctx, void *out) {
    const struct big_case *c = ctx;
    double *x = c->rope ? big_rope(c->gptj) : big_partial_rotary(c->mode, c->dir);
    memcpy(out, x,
           (c->rope ? (size_t)BIG_T * BIG_H * BIG_HS : (size_t)BIG_ROWS * BIG_D) * sizeof *x);
    free(x);
}

static void identical_across_isa_and_threads(void **state) {
    (void)state;
    static const int threads[] = {1, 2, 3};
    tk_everywhere_diff diff;
    for (int mode = 0; mode < 4; mode++)
        for (int dir = 0; dir < 2; dir++) {
            struct big_case c = {false, false, (ropekit_rotary_mode)mode, (ropekit_direction)dir};
            if (!tk_same_bytes_everywhere(big_case_compute, &c,
                                          (size_t)BIG_ROWS * BIG_D * sizeof(double), threads, 3,
                                          &diff))
                fail_msg("partial rotary mode %d dir %d: isa %d threads %d differ", mode, dir,
                         diff.isa, diff.threads);
        }
    for (int gptj = 0; gptj < 2; gptj++) {
        struct big_case c = {true, gptj, 0, 0};
        if (!tk_same_bytes_everywhere(big_case_compute, &c,
                                      (size_t)BIG_T * BIG_H * BIG_HS * sizeof(double), threads, 3,
                                      &diff))
            fail_msg("rope gptj %d: isa %d threads %d differ", gptj, diff.isa, diff.threads);
    }
}

/* ---- validation ---- */

static void expect_refused(ropekit_status st, const char *text) {
    assert_int_equal(st, ROPEKIT_INVALID_ARGUMENT);
    if (!strstr(ropekit_last_error(), text))
        fail_msg("message \"%s\" lacks \"%s\"", ropekit_last_error(), text);
}

static void mixed_float64_refused(void **state) {
    (void)state;
    double xd[8] = {1, 2, 3, 4, 5, 6, 7, 8}, cd[8] = {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5};
    float xf[8] = {1, 2, 3, 4, 5, 6, 7, 8},
          cf[8] = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f};
    const double x0[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const float xf0[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    const int64_t shape[1] = {8};
    ropekit_tensor x64 = ropekit_tensor_make(xd, ROPEKIT_F64, 1, shape, NULL);
    ropekit_tensor x32 = ropekit_tensor_make(xf, ROPEKIT_F32, 1, shape, NULL);
    ropekit_tensor c64 = ropekit_tensor_make(cd, ROPEKIT_F64, 1, shape, NULL);
    ropekit_tensor c32 = ropekit_tensor_make(cf, ROPEKIT_F32, 1, shape, NULL);
    ropekit_tensor c16 = ropekit_tensor_make(cf, ROPEKIT_F16, 1, shape, NULL);
    for (int dir = 0; dir < 2; dir++) {
        const ropekit_direction d = (ropekit_direction)dir;
        expect_refused(ropekit_partial_rotary(&x64, &c32, &c32, ROPEKIT_ROTARY_HALF, 0, 8, d),
                       "(x, cos) dtypes = (f64, f32): float64 goes with float64 only");
        expect_refused(ropekit_partial_rotary(&x64, &c16, &c16, ROPEKIT_ROTARY_HALF, 0, 8, d),
                       "(x, cos) dtypes = (f64, f16): float64 goes with float64 only");
        expect_refused(ropekit_partial_rotary(&x32, &c64, &c64, ROPEKIT_ROTARY_HALF, 0, 8, d),
                       "(x, cos) dtypes = (f32, f64): float64 goes with float64 only");
        expect_refused(ropekit_partial_rotary(&x64, &c64, &c32, ROPEKIT_ROTARY_HALF, 0, 8, d),
                       "sin dtype = f32: must equal cos dtype f64");
    }
    assert_memory_equal(xd, x0, sizeof xd);
    assert_memory_equal(xf, xf0, sizeof xf);

    int64_t pos[2] = {0, 1};
    double cache64[2 * 4] = {1, 1, 0, 0, 0.5, 0.5, 0.5, 0.5};
    float cache32[2 * 4] = {1, 1, 0, 0, 0.5f, 0.5f, 0.5f, 0.5f};
    const int64_t qs[2] = {2, 4}, cs[2] = {2, 4}, ps[1] = {2};
    ropekit_tensor pt = ropekit_tensor_make(pos, ROPEKIT_I64, 1, ps, NULL);
    ropekit_tensor q64 = ropekit_tensor_make(xd, ROPEKIT_F64, 2, qs, NULL);
    ropekit_tensor q32 = ropekit_tensor_make(xf, ROPEKIT_F32, 2, qs, NULL);
    ropekit_tensor k32 = ropekit_tensor_make(xf, ROPEKIT_F32, 2, qs, NULL);
    ropekit_tensor cache_64 = ropekit_tensor_make(cache64, ROPEKIT_F64, 2, cs, NULL);
    ropekit_tensor cache_32 = ropekit_tensor_make(cache32, ROPEKIT_F32, 2, cs, NULL);
    ropekit_rope_config cfg = {.head_size = 4, .style = ROPEKIT_ROPE_NEOX};
    expect_refused(ropekit_rope(&pt, &q64, NULL, &cache_32, &q64, NULL, &cfg),
                   "cosSinCache dtype = f32: float64 goes with float64 only (queryIn dtype = f64)");
    expect_refused(ropekit_rope(&pt, &q32, NULL, &cache_64, &q32, NULL, &cfg),
                   "cosSinCache dtype = f64: float64 goes with float64 only (queryIn dtype = f32)");
    expect_refused(ropekit_rope(&pt, NULL, &q64, &cache_32, NULL, &q64, &cfg),
                   "(keyIn dtype = f64)");
    expect_refused(ropekit_rope(&pt, &q64, &k32, &cache_64, &q64, &k32, &cfg),
                   "keyIn dtype = 0: must equal queryIn's dtype");
    assert_memory_equal(xd, x0, sizeof xd);
    assert_memory_equal(xf, xf0, sizeof xf);
}

/* ---- tables ---- */

static void float64_tables(void **state) {
    (void)state;
    enum { P = 64, R = 16 };
    assert_int_equal(ropekit_dtype_size(ROPEKIT_F64), 8);
    assert_string_equal(ropekit_dtype_name(ROPEKIT_F64), "f64");
    static double c64[P * R], cos64[P * R], sin64[P * R];
    static float c32[P * R];
    ropekit_rope_scaling yarn;
    ropekit_rope_scaling_defaults(&yarn, ROPEKIT_SCALING_YARN);
    yarn.factor = 4;
    yarn.original_max_position = 16;
    const ropekit_rope_scaling *scalings[2] = {NULL, &yarn};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(ropekit_cos_sin_cache_build(c64, ROPEKIT_F64, P, R, 10000.0, scalings[i]),
                         ROPEKIT_OK);
        assert_int_equal(ropekit_cos_sin_cache_build(c32, ROPEKIT_F32, P, R, 10000.0, scalings[i]),
                         ROPEKIT_OK);
        for (int e = 0; e < P * R; e++) /* both rounded once from the same double */
            assert_true(c32[e] == (float)c64[e]);
        assert_true(c64[R / 2] == 0.0 && (i || c64[0] == 1.0)); /* position 0 */
        for (int mode = 0; mode < 4; mode++) {
            assert_int_equal(ropekit_rotary_coeffs_build(cos64, sin64, ROPEKIT_F64, P, R,
                                                         (ropekit_rotary_mode)mode, 10000.0,
                                                         scalings[i]),
                             ROPEKIT_OK);
            for (int p = 0; p < P; p++) /* the first pair of each row holds frequency 0 */
                assert_true(cos64[p * R] == c64[p * R] && sin64[p * R] == c64[p * R + R / 2]);
        }
    }
    /* a non-trivial angle is not rounded to fp32 */
    assert_true(c64[R + 1] != (double)(float)c64[R + 1]);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pr_matches_reference),
        cmocka_unit_test(pr_gradient_undoes_forward),
        cmocka_unit_test(rope_matches_reference),
        cmocka_unit_test(identical_across_isa_and_threads),
        cmocka_unit_test(mixed_float64_refused),
        cmocka_unit_test(float64_tables),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
