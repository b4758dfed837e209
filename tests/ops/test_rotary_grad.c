/* The rotary gradient on the native face (ropekit_partial_rotary_grad): dx against the
 * out-of-place backward call, dcos/dsin against a float64 reference written from CANN's
 * formulas (the chunk/stack form of each mode), every mode, dtype pair, broadcast (right
 * aligned, lower ranks) and slice; the same bits on every kernel set and thread count; dx
 * in place; x = NULL; an empty dy; the rules, each with nothing written. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ropekit/ropekit.h"
#include "testkit/half_bits.h"

static void fill(void *p, int64_t n, ropekit_dtype dt, uint32_t seed) {
    for (int64_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        tk_store((char *)p + (size_t)i * ropekit_dtype_size(dt), dt,
                 ((double)(seed >> 8 & 0xffff) - 32768.0) / 16384.0);
    }
}

/* CANN's doc: out = xs * cos + xr * sin with xs[j] = x[src(j)], xr[j] = sign(j) x[par(j)]. */
static void pairing(int mode, int64_t L, int64_t j, int64_t *src, int64_t *par, double *sign) {
    const int64_t h = L / 2, q = L / 4;
    switch (mode) {
    case 0: /* half: xr = cat(-x2, x1) */
        *src = j;
        *par = j < h ? j + h : j - h;
        *sign = j < h ? -1 : 1;
        return;
    case 1: /* interleave: xr = stack(-x[1::2], x[::2]) */
        *src = j;
        *par = j % 2 ? j - 1 : j + 1;
        *sign = j % 2 ? 1 : -1;
        return;
    case 2: { /* quarter: xr = cat(-x2, x1, -x4, x3) */
        const int64_t base = j < 2 * q ? 0 : 2 * q, k = j - base;
        *src = j;
        *par = base + (k < q ? k + q : k - q);
        *sign = k < q ? -1 : 1;
        return;
    }
    default: /* interleave-half: xs = cat(x[::2], x[1::2]), xr = cat(-x[1::2], x[::2]) */
        *src = j < h ? 2 * j : 2 * (j - h) + 1;
        *par = j < h ? 2 * j + 1 : 2 * (j - h);
        *sign = j < h ? -1 : 1;
        return;
    }
}

/* x, dy [2, 3, 4, D] (row pitch D + 1), cos/sin of rank crank (right-aligned; dims kept as
 * x's where bit k of keep is set, else 1), slice [start, start + L). */
struct call {
    ropekit_dtype xdt, cdt;
    int mode;
    int64_t D, start, L;
    int crank;
    unsigned keep; /* bits over x's leading dims 0..2 */
};

static const int64_t lead[3] = {2, 3, 4};

static double ulp_tol(ropekit_dtype dt) {
    return dt == ROPEKIT_F64 ? 1e-13 : dt == ROPEKIT_F32 ? 1.2e-7 : dt == ROPEKIT_F16 ? 1e-3 : 8e-3;
}

static void run_call(const struct call *k, int isa, int threads, char **keep_out) {
    const size_t xs = ropekit_dtype_size(k->xdt), cs = ropekit_dtype_size(k->cdt);
    const int64_t pitch = k->D + 1, rows = 24;
    int64_t cshape[4], cst[4], cn = 1;
    for (int i = k->crank - 2; i >= -1; i--) { /* fill from the last dim backward */
        int d = 4 - k->crank + i + 1;          /* x's dim this cos dim aligns with */
        cshape[i + 1] = d == 3 ? k->L : ((k->keep >> d) & 1u) ? lead[d] : 1;
    }
    for (int i = k->crank - 1; i >= 0; i--) {
        cst[i] = cn;
        cn *= cshape[i];
    }
    char *x = malloc((size_t)(rows * pitch) * xs), *dy = malloc((size_t)(rows * pitch) * xs);
    char *dx = malloc((size_t)(rows * pitch) * xs), *dxr = malloc((size_t)(rows * pitch) * xs);
    char *c = malloc((size_t)cn * cs), *s = malloc((size_t)cn * cs);
    char *dc = malloc((size_t)cn * cs), *ds = malloc((size_t)cn * cs);
    fill(x, rows * pitch, k->xdt, 1);
    fill(dy, rows * pitch, k->xdt, 2);
    fill(c, cn, k->cdt, 3);
    fill(s, cn, k->cdt, 4);
    fill(dx, rows * pitch, k->xdt, 5);
    memcpy(dxr, dx, (size_t)(rows * pitch) * xs);
    const int64_t xshape[4] = {2, 3, 4, k->D}, xst[4] = {12 * pitch, 4 * pitch, pitch, 1};
    ropekit_tensor tx = ropekit_tensor_make(x, k->xdt, 4, xshape, xst);
    ropekit_tensor tdy = ropekit_tensor_make(dy, k->xdt, 4, xshape, xst);
    ropekit_tensor tdx = ropekit_tensor_make(dx, k->xdt, 4, xshape, xst);
    ropekit_tensor tdxr = ropekit_tensor_make(dxr, k->xdt, 4, xshape, xst);
    ropekit_tensor tc = ropekit_tensor_make(c, k->cdt, k->crank, cshape, cst);
    ropekit_tensor ts = ropekit_tensor_make(s, k->cdt, k->crank, cshape, cst);
    ropekit_tensor tdc = ropekit_tensor_make(dc, k->cdt, k->crank, cshape, cst);
    ropekit_tensor tds = ropekit_tensor_make(ds, k->cdt, k->crank, cshape, cst);
    ropekit_set_max_isa((ropekit_isa)isa);
    ropekit_set_num_threads(threads);
    const int64_t end = k->start + k->L;
    assert_int_equal(
        ropekit_partial_rotary_out(&tdy, &tc, &ts, &tdxr, k->mode, k->start, end, ROPEKIT_BACKWARD),
        ROPEKIT_OK);
    assert_int_equal(
        ropekit_partial_rotary_grad(&tdy, &tc, &ts, &tx, &tdx, &tdc, &tds, k->mode, k->start, end),
        ROPEKIT_OK);
    assert_memory_equal(dx, dxr, (size_t)(rows * pitch) * xs);

    /* the reference sums */
    double *rc = calloc((size_t)cn, sizeof(double)), *rs = calloc((size_t)cn, sizeof(double));
    double *mag = calloc((size_t)cn, sizeof(double));
    for (int64_t i0 = 0; i0 < 2; i0++)
        for (int64_t i1 = 0; i1 < 3; i1++)
            for (int64_t i2 = 0; i2 < 4; i2++) {
                const int64_t idx[3] = {i0, i1, i2};
                int64_t co = 0;
                for (int i = 0; i < k->crank - 1; i++) {
                    int d = 4 - k->crank + i;
                    co += (cshape[i] == 1 ? 0 : idx[d]) * cst[i];
                }
                const int64_t row = (i0 * 12 + i1 * 4 + i2) * pitch + k->start;
                for (int64_t j = 0; j < k->L; j++) {
                    int64_t src, par;
                    double sign;
                    pairing(k->mode, k->L, j, &src, &par, &sign);
                    double g = tk_load(dy + (size_t)(row + j) * xs, k->xdt);
                    double a = tk_load(x + (size_t)(row + src) * xs, k->xdt);
                    double b = tk_load(x + (size_t)(row + par) * xs, k->xdt);
                    rc[co + j] += g * a;
                    rs[co + j] += sign * g * b;
                    mag[co + j] += fabs(g * a) + fabs(g * b);
                }
            }
    for (int64_t e = 0; e < cn; e++) {
        double gc = tk_load(dc + (size_t)e * cs, k->cdt), gs = tk_load(ds + (size_t)e * cs, k->cdt);
        double tol = ulp_tol(k->cdt) * (fabs(rc[e]) + fabs(rs[e])) + 1e-12 * mag[e];
        if (fabs(gc - rc[e]) > tol || fabs(gs - rs[e]) > tol) {
            print_error("mode %d dtypes %d/%d crank %d keep %u elem %lld: dcos %g want %g, dsin %g "
                        "want %g\n",
                        k->mode, (int)k->xdt, (int)k->cdt, k->crank, k->keep, (long long)e, gc,
                        rc[e], gs, rs[e]);
            fail();
        }
    }
    if (keep_out) { /* the bytes, for the comparison across kernel sets and threads */
        keep_out[0] = dx;
        keep_out[1] = dc;
        keep_out[2] = ds;
    } else {
        free(dx);
        free(dc);
        free(ds);
    }
    free(rc);
    free(rs);
    free(mag);
    free(x);
    free(dy);
    free(dxr);
    free(c);
    free(s);
}

static void test_every_mode_dtype_broadcast(void **state) {
    (void)state;
    static const ropekit_dtype pairs[][2] = {
        {ROPEKIT_F32, ROPEKIT_F32},  {ROPEKIT_F16, ROPEKIT_F16},  {ROPEKIT_BF16, ROPEKIT_BF16},
        {ROPEKIT_F32, ROPEKIT_BF16}, {ROPEKIT_BF16, ROPEKIT_F32}, {ROPEKIT_F64, ROPEKIT_F64}};
    static const struct {
        int crank;
        unsigned keep;
    } bc[] = {{4, 0}, {4, 7}, {4, 5}, {4, 2}, {3, 6}, {2, 4}, {1, 0}};
    for (int mode = 0; mode < 4; mode++)
        for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
            for (size_t b = 0; b < sizeof bc / sizeof bc[0]; b++)
                for (int sliced = 0; sliced < 2; sliced++) {
                    struct call k = {pairs[p][0],    pairs[p][1], mode,        sliced ? 21 : 16,
                                     sliced ? 3 : 0, 16,          bc[b].crank, bc[b].keep};
                    run_call(&k, (int)ROPEKIT_ISA_AVX512, 1, NULL);
                }
}

/* The same bytes on every kernel set and thread count, with enough rows to split. */
static void test_same_bits_every_isa_and_thread_count(void **state) {
    (void)state;
    const int64_t T = 512, N = 8, D = 128;
    const int64_t shape[3] = {T, N, D}, st[3] = {N * D, D, 1};
    const int64_t cshape[3] = {T, 1, D}, cst[3] = {D, D, 1};
    for (int mode = 0; mode < 4; mode++) {
        char *x = malloc((size_t)(T * N * D) * 4), *dy = malloc((size_t)(T * N * D) * 4);
        char *c = malloc((size_t)(T * D) * 4), *s = malloc((size_t)(T * D) * 4);
        fill(x, T * N * D, ROPEKIT_F32, 7);
        fill(dy, T * N * D, ROPEKIT_F32, 8);
        fill(c, T * D, ROPEKIT_F32, 9);
        fill(s, T * D, ROPEKIT_F32, 10);
        char *first[3] = {0};
        for (int isa = 0; isa <= (int)ROPEKIT_ISA_AVX512; isa++)
            for (int threads = 1; threads <= 3; threads++) {
                char *dx = calloc((size_t)(T * N * D), 4), *dc = calloc((size_t)(T * D), 4);
                char *ds = calloc((size_t)(T * D), 4);
                ropekit_tensor tx = ropekit_tensor_make(x, ROPEKIT_F32, 3, shape, st);
                ropekit_tensor tdy = ropekit_tensor_make(dy, ROPEKIT_F32, 3, shape, st);
                ropekit_tensor tdx = ropekit_tensor_make(dx, ROPEKIT_F32, 3, shape, st);
                ropekit_tensor tc = ropekit_tensor_make(c, ROPEKIT_F32, 3, cshape, cst);
                ropekit_tensor ts = ropekit_tensor_make(s, ROPEKIT_F32, 3, cshape, cst);
                ropekit_tensor tdc = ropekit_tensor_make(dc, ROPEKIT_F32, 3, cshape, cst);
                ropekit_tensor tds = ropekit_tensor_make(ds, ROPEKIT_F32, 3, cshape, cst);
                ropekit_set_max_isa((ropekit_isa)isa);
                ropekit_set_num_threads(threads);
                assert_int_equal(
                    ropekit_partial_rotary_grad(&tdy, &tc, &ts, &tx, &tdx, &tdc, &tds, mode, 0, D),
                    ROPEKIT_OK);
                if (!first[0]) {
                    first[0] = dx;
                    first[1] = dc;
                    first[2] = ds;
                    continue;
                }
                assert_memory_equal(dx, first[0], (size_t)(T * N * D) * 4);
                assert_memory_equal(dc, first[1], (size_t)(T * D) * 4);
                assert_memory_equal(ds, first[2], (size_t)(T * D) * 4);
                free(dx);
                free(dc);
                free(ds);
            }
        for (int i = 0; i < 3; i++)
            free(first[i]);
        free(x);
        free(dy);
        free(c);
        free(s);
    }
    ropekit_set_num_threads(1);
}

/* Small fixture for the edge cases and rules: dy, x [2, 4, 8], cos [4, 8]. */
struct small {
    float x[64], dy[64], dx[64], c[32], s[32], dc[32], ds[32];
    ropekit_tensor tx, tdy, tdx, tc, ts, tdc, tds;
};

static void small_init(struct small *m) {
    static const int64_t shape[3] = {2, 4, 8}, st[3] = {32, 8, 1};
    static const int64_t cshape[2] = {4, 8}, cst[2] = {8, 1};
    fill(m->x, 64, ROPEKIT_F32, 11);
    fill(m->dy, 64, ROPEKIT_F32, 12);
    fill(m->c, 32, ROPEKIT_F32, 13);
    fill(m->s, 32, ROPEKIT_F32, 14);
    fill(m->dx, 64, ROPEKIT_F32, 15);
    fill(m->dc, 32, ROPEKIT_F32, 16);
    fill(m->ds, 32, ROPEKIT_F32, 17);
    m->tx = ropekit_tensor_make(m->x, ROPEKIT_F32, 3, shape, st);
    m->tdy = ropekit_tensor_make(m->dy, ROPEKIT_F32, 3, shape, st);
    m->tdx = ropekit_tensor_make(m->dx, ROPEKIT_F32, 3, shape, st);
    m->tc = ropekit_tensor_make(m->c, ROPEKIT_F32, 2, cshape, cst);
    m->ts = ropekit_tensor_make(m->s, ROPEKIT_F32, 2, cshape, cst);
    m->tdc = ropekit_tensor_make(m->dc, ROPEKIT_F32, 2, cshape, cst);
    m->tds = ropekit_tensor_make(m->ds, ROPEKIT_F32, 2, cshape, cst);
}

static ropekit_status small_run(struct small *m, int mode) {
    return ropekit_partial_rotary_grad(&m->tdy, &m->tc, &m->ts, &m->tx, &m->tdx, &m->tdc, &m->tds,
                                       mode, 0, 8);
}

static void test_dx_in_place_and_x_null(void **state) {
    (void)state;
    struct small a, b;
    small_init(&a);
    small_init(&b);
    assert_int_equal(small_run(&a, 1), ROPEKIT_OK);
    /* dx is dy: the sums read dy before it is overwritten */
    b.tdx.data = b.dy;
    assert_int_equal(small_run(&b, 1), ROPEKIT_OK);
    assert_memory_equal(b.dy, a.dx, sizeof a.dx);
    assert_memory_equal(b.dc, a.dc, sizeof a.dc);
    assert_memory_equal(b.ds, a.ds, sizeof a.ds);
    /* x NULL: dcos, dsin untouched (and may be NULL) */
    struct small n;
    small_init(&n);
    float dc0[32];
    memcpy(dc0, n.dc, sizeof dc0);
    assert_int_equal(
        ropekit_partial_rotary_grad(&n.tdy, &n.tc, &n.ts, NULL, &n.tdx, &n.tdc, NULL, 1, 0, 8),
        ROPEKIT_OK);
    assert_memory_equal(n.dx, a.dx, sizeof a.dx);
    assert_memory_equal(n.dc, dc0, sizeof dc0);
}

/* A plan made once runs like the one-shot call, on any data laid out as planned. */
static void test_plan_execute(void **state) {
    (void)state;
    for (int mode = 0; mode < 4; mode++) {
        struct small a, b;
        small_init(&a);
        small_init(&b);
        for (int i = 0; i < 64; i++)
            b.dy[i] = a.dy[i] * 0.5f + 0.25f;
        ropekit_plan *plan = NULL;
        assert_int_equal(ropekit_partial_rotary_grad_plan_create(&a.tdy, &a.tc, &a.ts, &a.tx,
                                                                 &a.tdx, &a.tdc, &a.tds, mode, 0, 8,
                                                                 &plan),
                         ROPEKIT_OK);
        struct small ref;
        small_init(&ref);
        memcpy(ref.dy, b.dy, sizeof ref.dy);
        assert_int_equal(small_run(&ref, mode), ROPEKIT_OK);
        assert_int_equal(
            ropekit_partial_rotary_grad_execute(plan, b.dy, b.c, b.s, b.x, b.dx, b.dc, b.ds),
            ROPEKIT_OK);
        assert_memory_equal(b.dx, ref.dx, sizeof b.dx);
        assert_memory_equal(b.dc, ref.dc, sizeof b.dc);
        assert_memory_equal(b.ds, ref.ds, sizeof b.ds);
        /* x's data missing for a plan with sums: refused, nothing written */
        struct small c;
        small_init(&c);
        float dx0[64];
        memcpy(dx0, c.dx, sizeof dx0);
        assert_int_equal(
            ropekit_partial_rotary_grad_execute(plan, c.dy, c.c, c.s, NULL, c.dx, c.dc, c.ds),
            ROPEKIT_NULL_POINTER);
        assert_non_null(strstr(ropekit_last_error(), "x data = NULL"));
        assert_memory_equal(c.dx, dx0, sizeof dx0);
        ropekit_plan_destroy(plan);
    }
    /* a plan of dx only ignores x, dcos and dsin */
    struct small d, e;
    small_init(&d);
    small_init(&e);
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_partial_rotary_grad_plan_create(&d.tdy, &d.tc, &d.ts, NULL, &d.tdx,
                                                             NULL, NULL, 1, 0, 8, &plan),
                     ROPEKIT_OK);
    assert_int_equal(
        ropekit_partial_rotary_grad_execute(plan, d.dy, d.c, d.s, NULL, d.dx, NULL, NULL),
        ROPEKIT_OK);
    assert_int_equal(small_run(&e, 1), ROPEKIT_OK);
    assert_memory_equal(d.dx, e.dx, sizeof d.dx);
    ropekit_plan_destroy(plan);
    /* another operator's plan, or none */
    ropekit_plan *pr = NULL;
    assert_int_equal(
        ropekit_partial_rotary_plan_create(&d.tdy, &d.tc, &d.ts, 0, 0, 8, ROPEKIT_BACKWARD, &pr),
        ROPEKIT_OK);
    assert_int_equal(ropekit_partial_rotary_grad_execute(pr, d.dy, d.c, d.s, d.x, d.dx, d.dc, d.ds),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "not a rotary-gradient plan"));
    ropekit_plan_destroy(pr);
    assert_int_equal(
        ropekit_partial_rotary_grad_execute(NULL, d.dy, d.c, d.s, d.x, d.dx, d.dc, d.ds),
        ROPEKIT_NULL_POINTER);
    assert_int_equal(ropekit_partial_rotary_grad_plan_create(&d.tdy, &d.tc, &d.ts, &d.tx, &d.tdx,
                                                             &d.tdc, &d.tds, 0, 0, 8, NULL),
                     ROPEKIT_NULL_POINTER);
}

static void test_empty_dy_gives_zero_sums(void **state) {
    (void)state;
    struct small m;
    small_init(&m);
    static const int64_t shape[3] = {0, 4, 8}, cshape[3] = {1, 4, 8}, cst[3] = {32, 8, 1};
    m.tx.shape[0] = m.tdy.shape[0] = m.tdx.shape[0] = 0;
    ropekit_tensor tc = ropekit_tensor_make(m.c, ROPEKIT_F32, 3, cshape, cst);
    ropekit_tensor ts = ropekit_tensor_make(m.s, ROPEKIT_F32, 3, cshape, cst);
    ropekit_tensor tdc = ropekit_tensor_make(m.dc, ROPEKIT_F32, 3, cshape, cst);
    ropekit_tensor tds = ropekit_tensor_make(m.ds, ROPEKIT_F32, 3, cshape, cst);
    (void)shape;
    assert_int_equal(
        ropekit_partial_rotary_grad(&m.tdy, &tc, &ts, &m.tx, &m.tdx, &tdc, &tds, 0, 0, 8),
        ROPEKIT_OK);
    for (int i = 0; i < 32; i++) {
        assert_true(m.dc[i] == 0.0f && !signbit(m.dc[i]));
        assert_true(m.ds[i] == 0.0f && !signbit(m.ds[i]));
    }
}

/* An empty cos/sin (native: nothing to rotate): dx is dy, there are no sums to write. */
static void test_empty_cos(void **state) {
    (void)state;
    struct small m;
    small_init(&m);
    static const int64_t cshape[1] = {0}, cst[1] = {1};
    ropekit_tensor tc = ropekit_tensor_make(m.c, ROPEKIT_F32, 1, cshape, cst);
    ropekit_tensor ts = ropekit_tensor_make(m.s, ROPEKIT_F32, 1, cshape, cst);
    ropekit_tensor tdc = ropekit_tensor_make(m.dc, ROPEKIT_F32, 1, cshape, cst);
    ropekit_tensor tds = ropekit_tensor_make(m.ds, ROPEKIT_F32, 1, cshape, cst);
    float dc0[32];
    memcpy(dc0, m.dc, sizeof dc0);
    assert_int_equal(
        ropekit_partial_rotary_grad(&m.tdy, &tc, &ts, &m.tx, &m.tdx, &tdc, &tds, 0, 0, 8),
        ROPEKIT_OK);
    assert_memory_equal(m.dx, m.dy, sizeof m.dx);
    assert_memory_equal(m.dc, dc0, sizeof dc0);
}

/* A refused call writes nothing and names the rule's subject. */
static void expect_refused(struct small *m, const char *needle) {
    float dx[64], dc[32], ds[32];
    memcpy(dx, m->dx, sizeof dx);
    memcpy(dc, m->dc, sizeof dc);
    memcpy(ds, m->ds, sizeof ds);
    ropekit_status st = small_run(m, 0);
    if (st != ROPEKIT_INVALID_ARGUMENT || !strstr(ropekit_last_error(), needle)) {
        print_error("status %d, message '%s', expected '%s'\n", (int)st, ropekit_last_error(),
                    needle);
        fail();
    }
    assert_memory_equal(dx, m->dx, sizeof dx);
    assert_memory_equal(dc, m->dc, sizeof dc);
    assert_memory_equal(ds, m->ds, sizeof ds);
}

static void test_rules_nothing_written(void **state) {
    (void)state;
    struct small m;
    uint16_t half[64];
    small_init(&m);
    m.tx.dtype = ROPEKIT_BF16;
    m.tx.data = half;
    expect_refused(&m, "x dtype");
    small_init(&m);
    m.tx.shape[0] = 1;
    expect_refused(&m, "x shape");
    small_init(&m);
    m.tdc.dtype = ROPEKIT_F16;
    m.tdc.data = half;
    expect_refused(&m, "dcos dtype");
    small_init(&m);
    m.tds.shape[0] = 1;
    expect_refused(&m, "dsin shape");
    small_init(&m);
    m.tdc.data = m.dy;
    expect_refused(&m, "dcos memory overlaps dy");
    small_init(&m);
    m.tds.data = m.dc;
    expect_refused(&m, "dcos memory overlaps dsin");
    small_init(&m);
    m.tdc.data = m.x;
    expect_refused(&m, "dcos memory overlaps x");
    small_init(&m);
    m.tdc.strides[0] = 0;
    expect_refused(&m, "dcos strides");
    small_init(&m);
    m.tdx.shape[1] = 2;
    expect_refused(&m, "dx shape");
    /* x given: dcos and dsin are required */
    small_init(&m);
    float dx0[64];
    memcpy(dx0, m.dx, sizeof dx0);
    assert_int_equal(
        ropekit_partial_rotary_grad(&m.tdy, &m.tc, &m.ts, &m.tx, &m.tdx, NULL, &m.tds, 0, 0, 8),
        ROPEKIT_NULL_POINTER);
    if (!strstr(ropekit_last_error(), "dcos = NULL: required when x is given")) {
        print_error("message %s\n", ropekit_last_error());
        fail();
    }
    assert_memory_equal(dx0, m.dx, sizeof dx0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_mode_dtype_broadcast),
        cmocka_unit_test(test_same_bits_every_isa_and_thread_count),
        cmocka_unit_test(test_dx_in_place_and_x_null),
        cmocka_unit_test(test_plan_execute),
        cmocka_unit_test(test_empty_dy_gives_zero_sums),
        cmocka_unit_test(test_empty_cos),
        cmocka_unit_test(test_rules_nothing_written),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
