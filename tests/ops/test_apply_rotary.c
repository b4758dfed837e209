/* The native apply-rotary operator (ropekit_apply_rotary*): query and key rotated in place
 * by one cos/sin. For each layout (BSND, SBND, BNSD as shapes), dtype pair and mode:
 * against the float64 reference (SPEC §6 tolerance) and bit for bit against two
 * ropekit_partial_rotary calls over [0, D); strided views (a BNSD view of BSND memory, a
 * padded row) with the padding untouched; the same bytes at every ISA cap and thread
 * count; an empty key; the native rules refused with nothing written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ropekit/ropekit.h"
#include "testkit/apply_rotary_reference.h"
#include "testkit/everywhere.h"
#include "testkit/half_bits.h"
#include "testkit/tolerance.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static double uniform(double lo, double hi) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return lo + (hi - lo) * ((double)(z >> 11) * 0x1p-53);
}

/* A buffer of n elements of dtype, random in [lo, hi). */
static void *random_buf(ropekit_dtype dt, int64_t n, double lo, double hi) {
    size_t item = ropekit_dtype_size(dt);
    char *p = malloc((size_t)(n > 0 ? n : 1) * item);
    assert_non_null(p);
    for (int64_t i = 0; i < n; i++)
        tk_store(p + (size_t)i * item, dt, uniform(lo, hi));
    return p;
}

static void *dup_buf(const void *p, size_t n) {
    void *q = malloc(n ? n : 1);
    assert_non_null(q);
    memcpy(q, p, n);
    return q;
}

static void contiguous(int32_t nd, const int64_t *shape, int64_t *strides) {
    int64_t s = 1;
    for (int32_t d = nd - 1; d >= 0; d--) {
        strides[d] = s;
        s *= shape[d];
    }
}

static int64_t numel(int32_t nd, const int64_t *shape) {
    int64_t n = 1;
    for (int32_t d = 0; d < nd; d++)
        n *= shape[d];
    return n;
}

/* Checks every element of x (after the call) against the reference of x0 (before it). */
static void check_against_reference(int mode, const ropekit_tensor *x0, const ropekit_tensor *x,
                                    const ropekit_tensor *c, const ropekit_tensor *s,
                                    const char *what) {
    int64_t n = numel(x->ndim, x->shape);
    double *ref = malloc((size_t)(n > 0 ? n : 1) * sizeof *ref);
    double *mag = malloc((size_t)(n > 0 ? n : 1) * sizeof *mag);
    assert_non_null(ref);
    assert_non_null(mag);
    tk_ref_apply_rotary(mode, 0, x0, c, s, ref, mag);
    struct tk_tol tol = tk_tol_of(x->dtype);
    struct tk_err_stats st;
    tk_err_stats_init(&st);
    for (int64_t i = 0; i < n; i++)
        tk_err_check(&st, &tol, tk_view_load(x, i), ref[i], mag[i], i);
    if (st.bad)
        fail_msg("%s: %lld of %lld elements out of tolerance (first %lld: got %g, ref %g)", what,
                 (long long)st.bad, (long long)n, (long long)st.first_bad, st.first_got,
                 st.first_ref);
    free(ref);
    free(mag);
}

/* Shapes of a layout: q [.. Nq ..], k [.. Nk ..], cos [.. 1 ..] with B maybe 1. */
static void layout_shapes(int layout, int64_t b, int64_t s, int64_t nq, int64_t nk, int64_t d,
                          bool cos_b1, int64_t q[4], int64_t k[4], int64_t c[4]) {
    const int64_t cb = cos_b1 ? 1 : b;
    if (layout == 1) { /* BSND */
        int64_t a[4] = {b, s, nq, d}, e[4] = {b, s, nk, d}, f[4] = {cb, s, 1, d};
        memcpy(q, a, sizeof a), memcpy(k, e, sizeof e), memcpy(c, f, sizeof f);
    } else if (layout == 2) { /* SBND */
        int64_t a[4] = {s, b, nq, d}, e[4] = {s, b, nk, d}, f[4] = {s, cb, 1, d};
        memcpy(q, a, sizeof a), memcpy(k, e, sizeof e), memcpy(c, f, sizeof f);
    } else { /* BNSD */
        int64_t a[4] = {b, nq, s, d}, e[4] = {b, nk, s, d}, f[4] = {cb, 1, s, d};
        memcpy(q, a, sizeof a), memcpy(k, e, sizeof e), memcpy(c, f, sizeof f);
    }
}

static void run_case(int layout, ropekit_dtype xdt, ropekit_dtype cdt, int mode, bool cos_b1) {
    int64_t qd[4], kd[4], cd[4], qs[4], ks[4], cs[4];
    layout_shapes(layout, 2, 3, 4, 2, 16, cos_b1, qd, kd, cd);
    contiguous(4, qd, qs), contiguous(4, kd, ks), contiguous(4, cd, cs);
    const int64_t nq = numel(4, qd), nk = numel(4, kd), nc = numel(4, cd);
    const size_t xi = ropekit_dtype_size(xdt), ci = ropekit_dtype_size(cdt);
    void *q = random_buf(xdt, nq, -2, 2), *k = random_buf(xdt, nk, -2, 2);
    void *c = random_buf(cdt, nc, -1, 1), *s = random_buf(cdt, nc, -1, 1);
    void *q0 = dup_buf(q, (size_t)nq * xi), *k0 = dup_buf(k, (size_t)nk * xi);
    void *q2 = dup_buf(q, (size_t)nq * xi), *k2 = dup_buf(k, (size_t)nk * xi);
    ropekit_tensor tq = ropekit_tensor_make(q, xdt, 4, qd, qs);
    ropekit_tensor tk = ropekit_tensor_make(k, xdt, 4, kd, ks);
    ropekit_tensor tc = ropekit_tensor_make(c, cdt, 4, cd, cs);
    ropekit_tensor ts = ropekit_tensor_make(s, cdt, 4, cd, cs);
    ropekit_tensor tq0 = ropekit_tensor_make(q0, xdt, 4, qd, qs);
    ropekit_tensor tk0 = ropekit_tensor_make(k0, xdt, 4, kd, ks);
    ropekit_tensor tq2 = ropekit_tensor_make(q2, xdt, 4, qd, qs);
    ropekit_tensor tk2 = ropekit_tensor_make(k2, xdt, 4, kd, ks);
    char what[128];
    snprintf(what, sizeof what, "layout %d %s/%s mode %d cos B %s", layout, ropekit_dtype_name(xdt),
             ropekit_dtype_name(cdt), mode, cos_b1 ? "1" : "B");
    assert_int_equal(
        ropekit_apply_rotary(&tq, &tk, &tc, &ts, (ropekit_rotary_mode)mode, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    check_against_reference(mode, &tq0, &tq, &tc, &ts, what);
    check_against_reference(mode, &tk0, &tk, &tc, &ts, what);
    /* the same bytes as partial rotary over [0, D) of each */
    assert_int_equal(
        ropekit_partial_rotary(&tq2, &tc, &ts, (ropekit_rotary_mode)mode, 0, 16, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    assert_int_equal(
        ropekit_partial_rotary(&tk2, &tc, &ts, (ropekit_rotary_mode)mode, 0, 16, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    assert_memory_equal(q, q2, (size_t)nq * xi);
    assert_memory_equal(k, k2, (size_t)nk * xi);
    /* backward undoes forward's transpose: partial rotary's backward, bit for bit */
    memcpy(q2, q, (size_t)nq * xi);
    memcpy(k2, k, (size_t)nk * xi);
    assert_int_equal(
        ropekit_apply_rotary(&tq, &tk, &tc, &ts, (ropekit_rotary_mode)mode, ROPEKIT_BACKWARD),
        ROPEKIT_OK);
    assert_int_equal(
        ropekit_partial_rotary(&tq2, &tc, &ts, (ropekit_rotary_mode)mode, 0, 16, ROPEKIT_BACKWARD),
        ROPEKIT_OK);
    assert_int_equal(
        ropekit_partial_rotary(&tk2, &tc, &ts, (ropekit_rotary_mode)mode, 0, 16, ROPEKIT_BACKWARD),
        ROPEKIT_OK);
    assert_memory_equal(q, q2, (size_t)nq * xi);
    assert_memory_equal(k, k2, (size_t)nk * xi);
    (void)ci;
    free(q), free(k), free(c), free(s), free(q0), free(k0), free(q2), free(k2);
}

static void test_layouts_dtypes_modes(void **state) {
    (void)state;
    const ropekit_dtype pairs[][2] = {
        {ROPEKIT_F32, ROPEKIT_F32}, {ROPEKIT_F16, ROPEKIT_F16},  {ROPEKIT_BF16, ROPEKIT_BF16},
        {ROPEKIT_F16, ROPEKIT_F32}, {ROPEKIT_BF16, ROPEKIT_F32}, {ROPEKIT_F32, ROPEKIT_BF16},
        {ROPEKIT_F64, ROPEKIT_F64},
    };
    for (int layout = 1; layout <= 3; layout++)
        for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
            for (int mode = 0; mode < 4; mode++)
                for (int b1 = 0; b1 < 2; b1++)
                    run_case(layout, pairs[p][0], pairs[p][1], mode, b1 != 0);
}

/* q: a BNSD view [B, N, S, D] of BSND memory; k: BSND with each row padded by 8 elements,
 * the padding must stay as it was. cos [1, 1, S, D] for q is not k's layout: k's cos must
 * be [.., S, 1, D], so the view of q's cos is taken with N and S swapped, as strides. */
static void test_strided_views(void **state) {
    (void)state;
    enum { B = 2, S = 5, NQ = 3, NK = 2, D = 8, PAD = 8 };
    float *qbuf = random_buf(ROPEKIT_F32, B * S * NQ * D, -2, 2);
    float *kbuf = random_buf(ROPEKIT_F32, B * S * NK * (D + PAD), -2, 2);
    float *c = random_buf(ROPEKIT_F32, S * D, -1, 1), *s = random_buf(ROPEKIT_F32, S * D, -1, 1);
    float *q0 = dup_buf(qbuf, sizeof(float) * B * S * NQ * D);
    float *k0 = dup_buf(kbuf, sizeof(float) * B * S * NK * (D + PAD));
    /* q viewed as [B, NQ, S, D] over [B, S, NQ, D] memory */
    const int64_t qd[4] = {B, NQ, S, D}, qs[4] = {S * NQ * D, D, NQ * D, 1};
    const int64_t kd[4] = {B, S, NK, D}, ks[4] = {S * NK * (D + PAD), NK * (D + PAD), D + PAD, 1};
    /* one cos table [S, D], seen as [1, 1, S, D] by q and as [1, S, 1, D] by k */
    const int64_t cqd[4] = {1, 1, S, D}, cqs[4] = {S * D, S * D, D, 1};
    const int64_t ckd[4] = {1, S, 1, D}, cks[4] = {S * D, D, D, 1};
    ropekit_tensor tq = ropekit_tensor_make(qbuf, ROPEKIT_F32, 4, qd, qs);
    ropekit_tensor tq0 = ropekit_tensor_make(q0, ROPEKIT_F32, 4, qd, qs);
    ropekit_tensor tk = ropekit_tensor_make(kbuf, ROPEKIT_F32, 4, kd, ks);
    ropekit_tensor tk0 = ropekit_tensor_make(k0, ROPEKIT_F32, 4, kd, ks);
    ropekit_tensor tcq = ropekit_tensor_make(c, ROPEKIT_F32, 4, cqd, cqs);
    ropekit_tensor tsq = ropekit_tensor_make(s, ROPEKIT_F32, 4, cqd, cqs);
    ropekit_tensor tck = ropekit_tensor_make(c, ROPEKIT_F32, 4, ckd, cks);
    ropekit_tensor tsk = ropekit_tensor_make(s, ROPEKIT_F32, 4, ckd, cks);
    /* one call needs one cos for both: q's cos broadcasts to k only with k in BNSD too, so
     * rotate q with its cos and k with its own, each through apply_rotary with the other
     * an empty tensor */
    const int64_t ed[4] = {0, 1, S, D}, es[4] = {S * D, S * D, D, 1};
    ropekit_tensor empty = ropekit_tensor_make(NULL, ROPEKIT_F32, 4, ed, es);
    assert_int_equal(
        ropekit_apply_rotary(&tq, &empty, &tcq, &tsq, ROPEKIT_ROTARY_HALF, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    check_against_reference(0, &tq0, &tq, &tcq, &tsq, "BNSD view of BSND memory");
    const int64_t ekd[4] = {0, S, 1, D};
    ropekit_tensor empty_k = ropekit_tensor_make(NULL, ROPEKIT_F32, 4, ekd, es);
    assert_int_equal(
        ropekit_apply_rotary(&empty_k, &tk, &tck, &tsk, ROPEKIT_ROTARY_QUARTER, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    check_against_reference(2, &tk0, &tk, &tck, &tsk, "padded rows");
    for (int64_t r = 0; r < B * S * NK; r++)
        assert_memory_equal(kbuf + r * (D + PAD) + D, k0 + r * (D + PAD) + D, PAD * sizeof(float));
    free(qbuf), free(kbuf), free(c), free(s), free(q0), free(k0);
}

/* Query and key in one plan, q in BNSD over BSND memory and k in BSND: one cos works for
 * both only when it broadcasts to both, here [S, D] against q [B, N, S, D] and k BNSD. */
struct big {
    float *q, *k, *c, *s, *q0, *k0;
    ropekit_plan *plan;
    size_t qn, kn;
};

static void big_compute(void *ctx, void *out) {
    struct big *b = ctx;
    memcpy(b->q, b->q0, b->qn * sizeof(float));
    memcpy(b->k, b->k0, b->kn * sizeof(float));
    assert_int_equal(ropekit_apply_rotary_execute(b->plan, b->q, b->k, b->c, b->s), ROPEKIT_OK);
    memcpy(out, b->q, b->qn * sizeof(float));
    memcpy((float *)out + b->qn, b->k, b->kn * sizeof(float));
}

static void test_same_bytes_everywhere(void **state) {
    (void)state;
    enum { S = 64, NQ = 8, NK = 2, D = 128 };
    struct big b = {.qn = S * NQ * D, .kn = S * NK * D};
    b.q0 = random_buf(ROPEKIT_F32, (int64_t)b.qn, -2, 2);
    b.k0 = random_buf(ROPEKIT_F32, (int64_t)b.kn, -2, 2);
    b.q = dup_buf(b.q0, b.qn * sizeof(float));
    b.k = dup_buf(b.k0, b.kn * sizeof(float));
    b.c = random_buf(ROPEKIT_F32, S * D, -1, 1);
    b.s = random_buf(ROPEKIT_F32, S * D, -1, 1);
    const int64_t qd[4] = {1, NQ, S, D}, qs[4] = {S * NQ * D, D, NQ * D, 1};
    const int64_t kd[4] = {1, NK, S, D}, ks[4] = {S * NK * D, S * D, D, 1};
    const int64_t cd[2] = {S, D}, cs[2] = {D, 1};
    ropekit_tensor tq = ropekit_tensor_make(NULL, ROPEKIT_F32, 4, qd, qs);
    ropekit_tensor tk = ropekit_tensor_make(NULL, ROPEKIT_F32, 4, kd, ks);
    ropekit_tensor tc = ropekit_tensor_make(NULL, ROPEKIT_F32, 2, cd, cs);
    assert_int_equal(ropekit_apply_rotary_plan_create(&tq, &tk, &tc, &tc, ROPEKIT_ROTARY_HALF,
                                                      ROPEKIT_FORWARD, &b.plan),
                     ROPEKIT_OK);
    char desc[256];
    ropekit_plan_describe(b.plan, desc, sizeof desc);
    assert_non_null(strstr(desc, "apply_rotary forward mode=half"));
    const int threads[] = {1, 2, 3, 0};
    tk_everywhere_diff diff;
    bool same =
        tk_same_bytes_everywhere(big_compute, &b, (b.qn + b.kn) * sizeof(float), threads, 4, &diff);
    if (!same)
        fail_msg("isa %d threads %d differ (%s)", diff.isa, diff.threads, desc);
    ropekit_tensor vq0 = ropekit_tensor_make(b.q0, ROPEKIT_F32, 4, qd, qs);
    ropekit_tensor vq = ropekit_tensor_make(b.q, ROPEKIT_F32, 4, qd, qs);
    ropekit_tensor vk0 = ropekit_tensor_make(b.k0, ROPEKIT_F32, 4, kd, ks);
    ropekit_tensor vk = ropekit_tensor_make(b.k, ROPEKIT_F32, 4, kd, ks);
    ropekit_tensor vc = ropekit_tensor_make(b.c, ROPEKIT_F32, 2, cd, cs);
    ropekit_tensor vs = ropekit_tensor_make(b.s, ROPEKIT_F32, 2, cd, cs);
    check_against_reference(0, &vq0, &vq, &vc, &vs, "one plan, q");
    check_against_reference(0, &vk0, &vk, &vc, &vs, "one plan, k");
    ropekit_plan_destroy(b.plan);
    free(b.q), free(b.k), free(b.c), free(b.s), free(b.q0), free(b.k0);
}

/* A refusal: the status, a message naming the function and the rule's words, nothing
 * written. */
static void expect_refused(ropekit_status want, const char *words, ropekit_tensor *q,
                           ropekit_tensor *k, const ropekit_tensor *c, const ropekit_tensor *s,
                           int mode) {
    size_t qb = q && q->data ? (size_t)numel(q->ndim, q->shape) * ropekit_dtype_size(q->dtype) : 0;
    size_t kb = k && k->data ? (size_t)numel(k->ndim, k->shape) * ropekit_dtype_size(k->dtype) : 0;
    void *q0 = qb ? dup_buf(q->data, qb) : NULL, *k0 = kb ? dup_buf(k->data, kb) : NULL;
    ropekit_status st =
        ropekit_apply_rotary(q, k, c, s, (ropekit_rotary_mode)mode, ROPEKIT_FORWARD);
    if (st != want || !strstr(ropekit_last_error(), "ropekit_apply_rotary") ||
        !strstr(ropekit_last_error(), words))
        fail_msg("want %s with \"%s\", got %s: %s", ropekit_status_name(want), words,
                 ropekit_status_name(st), ropekit_last_error());
    if (qb)
        assert_memory_equal(q->data, q0, qb);
    if (kb)
        assert_memory_equal(k->data, k0, kb);
    free(q0), free(k0);
}

static void test_native_rules(void **state) {
    (void)state;
    float q[2 * 3 * 2 * 8], k[2 * 3 * 1 * 8], c[3 * 8], s[3 * 8];
    double cd64[3 * 8];
    for (size_t i = 0; i < sizeof q / sizeof q[0]; i++)
        q[i] = (float)i;
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        k[i] = (float)i + 0.5f;
    for (int i = 0; i < 24; i++)
        c[i] = s[i] = 0.5f, cd64[i] = 0.5;
    const int64_t qd[4] = {2, 3, 2, 8}, qs[4] = {48, 16, 8, 1};
    const int64_t kd[4] = {2, 3, 1, 8}, ks[4] = {24, 8, 8, 1};
    const int64_t cd[3] = {3, 1, 8}, cs[3] = {8, 8, 1};
    ropekit_tensor tq = ropekit_tensor_make(q, ROPEKIT_F32, 4, qd, qs);
    ropekit_tensor tk = ropekit_tensor_make(k, ROPEKIT_F32, 4, kd, ks);
    ropekit_tensor tc = ropekit_tensor_make(c, ROPEKIT_F32, 3, cd, cs);
    ropekit_tensor tsn = ropekit_tensor_make(s, ROPEKIT_F32, 3, cd, cs);
    expect_refused(ROPEKIT_NULL_POINTER, "key = NULL", &tq, NULL, &tc, &tsn, 0);
    ropekit_tensor bad = tq;
    bad.dtype = (ropekit_dtype)99;
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "query dtype = 99", &bad, &tk, &tc, &tsn, 0);
    ropekit_tensor c64 = ropekit_tensor_make(cd64, ROPEKIT_F64, 3, cd, cs);
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "float64 goes with float64 only", &tq, &tk, &c64, &c64,
                   0);
    ropekit_tensor sin_f16 = tsn;
    sin_f16.dtype = ROPEKIT_F16;
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "sin dtype", &tq, &tk, &tc, &sin_f16, 0);
    const int64_t c5d[5] = {1, 1, 3, 1, 8}, c5s[5] = {24, 24, 8, 8, 1};
    ropekit_tensor c5 = ropekit_tensor_make(c, ROPEKIT_F32, 5, c5d, c5s);
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "cos rank = 5", &tq, &tk, &c5, &c5, 0);
    const int64_t c2d[3] = {3, 1, 4};
    ropekit_tensor c2 = ropekit_tensor_make(c, ROPEKIT_F32, 3, c2d, cs);
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "sin shape", &tq, &tk, &tc, &c2, 0);
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "mode = 7", &tq, &tk, &tc, &tsn, 7);
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "must equal cos last dim", &tq, &tk, &c2, &c2, 0);
    const int64_t q6d[4] = {2, 3, 2, 6}, k6d[4] = {2, 3, 1, 6}, c6d[3] = {3, 1, 6};
    ropekit_tensor q6 = ropekit_tensor_make(q, ROPEKIT_F32, 4, q6d, qs);
    ropekit_tensor k6 = ropekit_tensor_make(k, ROPEKIT_F32, 4, k6d, ks);
    ropekit_tensor c6 = ropekit_tensor_make(c, ROPEKIT_F32, 3, c6d, cs);
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "multiple of 4 in quarter mode", &q6, &k6, &c6, &c6,
                   2);
    const int64_t cbd[3] = {2, 1, 8}, cbs[3] = {8, 8, 1};
    ropekit_tensor cb = ropekit_tensor_make(c, ROPEKIT_F32, 3, cbd, cbs);
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "must be 1 or query's 3", &tq, &tk, &cb, &cb, 0);
    const int64_t ss[4] = {48, 16, 0, 1};
    ropekit_tensor self = ropekit_tensor_make(q, ROPEKIT_F32, 4, qd, ss);
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "query strides", &self, &tk, &tc, &tsn, 0);
    /* key over query's memory */
    ropekit_tensor alias = tk;
    alias.data = q;
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "query memory overlaps key", &tq, &alias, &tc, &tsn,
                   0);
    const int64_t k1d[4] = {1, 3, 1, 8};
    ropekit_tensor on_cos = ropekit_tensor_make(c, ROPEKIT_F32, 4, k1d, ks);
    expect_refused(ROPEKIT_INVALID_ARGUMENT, "key memory overlaps cos", &tq, &on_cos, &tc, &tsn, 0);
    /* execute: a plan of another operator, and overlapping data */
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_apply_rotary_plan_create(&tq, &tk, &tc, &tsn, ROPEKIT_ROTARY_HALF,
                                                      ROPEKIT_FORWARD, &plan),
                     ROPEKIT_OK);
    float q0[48];
    memcpy(q0, q, sizeof q0);
    assert_int_equal(ropekit_apply_rotary_execute(plan, q, q + 8, c, s), ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "ropekit_apply_rotary_execute"));
    assert_int_equal(ropekit_apply_rotary_execute(plan, q, k, NULL, s), ROPEKIT_NULL_POINTER);
    assert_memory_equal(q, q0, sizeof q0);
    assert_int_equal(ropekit_partial_rotary_execute(plan, q, c, s), ROPEKIT_INVALID_ARGUMENT);
    ropekit_plan_destroy(plan);
    assert_int_equal(ropekit_apply_rotary_plan_create(&tq, &tk, &tc, &tsn, ROPEKIT_ROTARY_HALF,
                                                      (ropekit_direction)2, &plan),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_null(plan);
}

/* An empty key: query alone is rotated; all empty: nothing at all. */
static void test_empty(void **state) {
    (void)state;
    float q[8] = {1, 2, 3, 4, 5, 6, 7, 8}, c[8], s[8];
    for (int i = 0; i < 8; i++)
        c[i] = 0.5f, s[i] = 0.25f;
    float q0[8];
    memcpy(q0, q, sizeof q);
    const int64_t qd[2] = {1, 8}, qs[2] = {8, 1}, kd[2] = {0, 8};
    ropekit_tensor tq = ropekit_tensor_make(q, ROPEKIT_F32, 2, qd, qs);
    ropekit_tensor tq0 = ropekit_tensor_make(q0, ROPEKIT_F32, 2, qd, qs);
    ropekit_tensor tk = ropekit_tensor_make(NULL, ROPEKIT_F32, 2, kd, qs);
    ropekit_tensor tc = ropekit_tensor_make(c, ROPEKIT_F32, 2, qd, qs);
    ropekit_tensor ts = ropekit_tensor_make(s, ROPEKIT_F32, 2, qd, qs);
    assert_int_equal(
        ropekit_apply_rotary(&tq, &tk, &tc, &ts, ROPEKIT_ROTARY_INTERLEAVE, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    check_against_reference(1, &tq0, &tq, &tc, &ts, "empty key");
    memcpy(q0, q, sizeof q);
    ropekit_tensor eq = ropekit_tensor_make(NULL, ROPEKIT_F32, 2, kd, qs);
    assert_int_equal(
        ropekit_apply_rotary(&eq, &tk, &tc, &ts, ROPEKIT_ROTARY_INTERLEAVE, ROPEKIT_FORWARD),
        ROPEKIT_OK);
}

/* Interleave-half rows longer than the stack scratch: each part's tasks take a heap
 * scratch, and the result is partial rotary's, bit for bit. */
static void test_long_interleave_half(void **state) {
    (void)state;
    enum { D = 8192 };
    float *q = random_buf(ROPEKIT_F32, 3 * D, -2, 2), *k = random_buf(ROPEKIT_F32, 2 * D, -2, 2);
    float *c = random_buf(ROPEKIT_F32, D, -1, 1), *s = random_buf(ROPEKIT_F32, D, -1, 1);
    float *q2 = dup_buf(q, 3 * D * sizeof(float)), *k2 = dup_buf(k, 2 * D * sizeof(float));
    const int64_t qd[2] = {3, D}, kd[2] = {2, D}, cd[1] = {D};
    ropekit_tensor tq = ropekit_tensor_make(q, ROPEKIT_F32, 2, qd, NULL);
    ropekit_tensor tk = ropekit_tensor_make(k, ROPEKIT_F32, 2, kd, NULL);
    ropekit_tensor tq2 = ropekit_tensor_make(q2, ROPEKIT_F32, 2, qd, NULL);
    ropekit_tensor tk2 = ropekit_tensor_make(k2, ROPEKIT_F32, 2, kd, NULL);
    ropekit_tensor tc = ropekit_tensor_make(c, ROPEKIT_F32, 1, cd, NULL);
    ropekit_tensor ts = ropekit_tensor_make(s, ROPEKIT_F32, 1, cd, NULL);
    assert_int_equal(
        ropekit_apply_rotary(&tq, &tk, &tc, &ts, ROPEKIT_ROTARY_INTERLEAVE_HALF, ROPEKIT_BACKWARD),
        ROPEKIT_OK);
    assert_int_equal(ropekit_partial_rotary(&tq2, &tc, &ts, ROPEKIT_ROTARY_INTERLEAVE_HALF, 0, D,
                                            ROPEKIT_BACKWARD),
                     ROPEKIT_OK);
    assert_int_equal(ropekit_partial_rotary(&tk2, &tc, &ts, ROPEKIT_ROTARY_INTERLEAVE_HALF, 0, D,
                                            ROPEKIT_BACKWARD),
                     ROPEKIT_OK);
    assert_memory_equal(q, q2, 3 * D * sizeof(float));
    assert_memory_equal(k, k2, 2 * D * sizeof(float));
    free(q), free(k), free(c), free(s), free(q2), free(k2);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layouts_dtypes_modes),
        cmocka_unit_test(test_strided_views),
        cmocka_unit_test(test_same_bytes_everywhere),
        cmocka_unit_test(test_native_rules),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_long_interleave_half),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
