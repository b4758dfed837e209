/* The rotary matrix on the native face (ropekit_rotary_matrix, SPEC §15.5): float64 of
 * ranks 1 to 5 with strides and broadcasts equal to a plain double evaluation bit for bit;
 * the matrices of modes half, interleave and quarter give ropekit_partial_rotary_out's
 * values in every float dtype; in place; plan + execute equal to the one-shot call; the
 * same bytes on 1 and 2 threads; the rules, each with nothing written. */
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

static int64_t numel(int32_t nd, const int64_t *d) {
    int64_t n = 1;
    for (int32_t i = 0; i < nd; i++)
        n *= d[i];
    return n;
}

/* Contiguous strides of `d`, the last `pitch` elements apart (rows padded by pitch - 1
 * elements: a non-contiguous view). */
static void strides_of(int32_t nd, const int64_t *d, int64_t pitch, int64_t *st) {
    int64_t run = pitch;
    st[nd - 1] = pitch;
    for (int32_t i = nd - 2; i >= 0; i--) {
        run *= i == nd - 2 ? d[nd - 1] : d[i + 1];
        st[i] = run;
    }
}

/* Element offset of row r's element j in a view of the rows' leading dims `lead`. */
static int64_t offset(int32_t nd, const int64_t *shape, const int64_t *st, const int64_t *lead,
                      int64_t r, int64_t j) {
    int64_t off = j * st[nd - 1];
    for (int32_t i = nd - 2; i >= 0; i--) {
        const int64_t idx = r % lead[i];
        r /= lead[i];
        off += (shape[i] == 1 ? 0 : idx) * st[i];
    }
    return off;
}

static void test_float64_bit_exact(void **state) {
    (void)state;
    const int64_t shapes[][5] = {{6}, {3, 8}, {2, 3, 10}, {2, 3, 4, 6}, {2, 1, 3, 2, 4}};
    for (int32_t nd = 1; nd <= 5; nd++) {
        const int64_t *xd = shapes[nd - 1], d = xd[nd - 1];
        int64_t cd[5], xst[5], cst[5], ost[5];
        for (int32_t i = 0; i < nd; i++)
            cd[i] = i + 1 < nd && i % 2 == 0 ? 1 : xd[i]; /* broadcast every other dim */
        strides_of(nd, xd, 2, xst);
        strides_of(nd, cd, 1, cst);
        strides_of(nd, xd, 1, ost);
        const int64_t xn = numel(nd, xd), cn = numel(nd, cd);
        double *x = calloc((size_t)(2 * xn), 8), *c = calloc((size_t)cn, 8);
        double *s = calloc((size_t)cn, 8), *r = calloc((size_t)(d * d), 8);
        double *o = calloc((size_t)xn, 8);
        fill(x, 2 * xn, ROPEKIT_F64, 1), fill(c, cn, ROPEKIT_F64, 2), fill(s, cn, ROPEKIT_F64, 3);
        fill(r, d * d, ROPEKIT_F64, 4);
        ropekit_tensor tx = ropekit_tensor_make(x, ROPEKIT_F64, nd, xd, xst);
        ropekit_tensor tc = ropekit_tensor_make(c, ROPEKIT_F64, nd, cd, NULL);
        ropekit_tensor ts = ropekit_tensor_make(s, ROPEKIT_F64, nd, cd, NULL);
        const int64_t rd[2] = {d, d};
        ropekit_tensor tr = ropekit_tensor_make(r, ROPEKIT_F64, 2, rd, NULL);
        ropekit_tensor to = ropekit_tensor_make(o, ROPEKIT_F64, nd, xd, NULL);
        assert_int_equal(ropekit_rotary_matrix(&tx, &tc, &ts, &tr, &to), ROPEKIT_OK);
        for (int64_t row = 0; row < xn / d; row++)
            for (int64_t j = 0; j < d; j++) {
                double xr = x[offset(nd, xd, xst, xd, row, 0)] * r[j];
                for (int64_t i = 1; i < d; i++)
                    xr += x[offset(nd, xd, xst, xd, row, i)] * r[i * d + j];
                const double want =
                    x[offset(nd, xd, xst, xd, row, j)] * c[offset(nd, cd, cst, xd, row, j)] +
                    xr * s[offset(nd, cd, cst, xd, row, j)];
                const double got = o[offset(nd, xd, ost, xd, row, j)];
                assert_memory_equal(&got, &want, 8);
            }
        free(x), free(c), free(s), free(r), free(o);
    }
}

/* The signed permutation of a mode: x @ M = rotate(x) of modes half, interleave, quarter. */
static void mode_matrix(int mode, int64_t d, double *m) {
    memset(m, 0, (size_t)(d * d) * sizeof *m);
    for (int64_t j = 0; j < d; j++) {
        int64_t par;
        double sign;
        if (mode == ROPEKIT_ROTARY_INTERLEAVE) {
            par = j % 2 ? j - 1 : j + 1;
            sign = j % 2 ? 1 : -1;
        } else {
            const int64_t part = mode == ROPEKIT_ROTARY_QUARTER ? d / 2 : d;
            const int64_t base = j / part * part, k = j - base, h = part / 2;
            par = base + (k < h ? k + h : k - h);
            sign = k < h ? -1 : 1;
        }
        m[par * d + j] = sign;
    }
}

static void test_mode_matrices(void **state) {
    (void)state;
    const ropekit_dtype dts[] = {ROPEKIT_F32, ROPEKIT_F16, ROPEKIT_BF16, ROPEKIT_F64};
    const int64_t xd[3] = {3, 5, 16}, cd[3] = {1, 5, 16}, rd[2] = {16, 16};
    for (int mode = 0; mode < 3; mode++)
        for (size_t t = 0; t < 4; t++) {
            const ropekit_dtype dt = dts[t];
            const size_t es = ropekit_dtype_size(dt);
            unsigned char x[240 * 8], c[80 * 8], s[80 * 8], r[256 * 8], o1[240 * 8], o2[240 * 8];
            double m[256];
            fill(x, 240, dt, 7), fill(c, 80, dt, 8), fill(s, 80, dt, 9);
            mode_matrix(mode, 16, m);
            for (int i = 0; i < 256; i++)
                tk_store(r + (size_t)i * es, dt, m[i]);
            ropekit_tensor tx = ropekit_tensor_make(x, dt, 3, xd, NULL);
            ropekit_tensor tc = ropekit_tensor_make(c, dt, 3, cd, NULL);
            ropekit_tensor ts = ropekit_tensor_make(s, dt, 3, cd, NULL);
            ropekit_tensor tr = ropekit_tensor_make(r, dt, 2, rd, NULL);
            ropekit_tensor t1 = ropekit_tensor_make(o1, dt, 3, xd, NULL);
            ropekit_tensor t2 = ropekit_tensor_make(o2, dt, 3, xd, NULL);
            assert_int_equal(ropekit_partial_rotary_out(&tx, &tc, &ts, &t1,
                                                        (ropekit_rotary_mode)mode, 0, 16,
                                                        ROPEKIT_FORWARD),
                             ROPEKIT_OK);
            assert_int_equal(ropekit_rotary_matrix(&tx, &tc, &ts, &tr, &t2), ROPEKIT_OK);
            for (size_t i = 0; i < 240; i++) /* a zero's sign may differ */
                assert_true(tk_load(o1 + i * es, dt) == tk_load(o2 + i * es, dt));
        }
}

static void test_in_place_plan_threads(void **state) {
    (void)state;
    const int64_t xd[3] = {64, 8, 64}, cd[3] = {64, 1, 64}, rd[2] = {64, 64};
    const int64_t xn = 64 * 8 * 64, cn = 64 * 64;
    uint16_t *x = malloc((size_t)xn * 2), *c = malloc((size_t)cn * 2), *s = malloc((size_t)cn * 2);
    uint16_t *r = malloc(64 * 64 * 2), *o1 = malloc((size_t)xn * 2), *o2 = malloc((size_t)xn * 2);
    fill(x, xn, ROPEKIT_BF16, 1), fill(c, cn, ROPEKIT_BF16, 2), fill(s, cn, ROPEKIT_BF16, 3);
    fill(r, 64 * 64, ROPEKIT_BF16, 4);
    ropekit_tensor tx = ropekit_tensor_make(x, ROPEKIT_BF16, 3, xd, NULL);
    ropekit_tensor tc = ropekit_tensor_make(c, ROPEKIT_BF16, 3, cd, NULL);
    ropekit_tensor ts = ropekit_tensor_make(s, ROPEKIT_BF16, 3, cd, NULL);
    ropekit_tensor tr = ropekit_tensor_make(r, ROPEKIT_BF16, 2, rd, NULL);
    ropekit_tensor t1 = ropekit_tensor_make(o1, ROPEKIT_BF16, 3, xd, NULL);
    ropekit_set_num_threads(1);
    assert_int_equal(ropekit_rotary_matrix(&tx, &tc, &ts, &tr, &t1), ROPEKIT_OK);
    ropekit_set_num_threads(2);
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_rotary_matrix_plan_create(&tx, &tc, &ts, &tr, &t1, &plan), ROPEKIT_OK);
    assert_int_equal(ropekit_rotary_matrix_execute(plan, x, c, s, r, o2), ROPEKIT_OK);
    assert_memory_equal(o1, o2, (size_t)xn * 2);
    /* refused at execute: missing data, out = cos; nothing written */
    memset(o2, 0x5a, (size_t)xn * 2);
    memcpy(o1, o2, (size_t)xn * 2);
    assert_int_equal(ropekit_rotary_matrix_execute(plan, x, c, s, NULL, o2), ROPEKIT_NULL_POINTER);
    assert_non_null(strstr(ropekit_last_error(), "rotate data = NULL"));
    assert_int_equal(ropekit_rotary_matrix_execute(plan, x, c, s, r, c), ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "overlaps cos"));
    assert_memory_equal(o1, o2, (size_t)xn * 2);
    ropekit_plan_destroy(plan);
    /* in place (out = x) gives the out-of-place bytes */
    assert_int_equal(ropekit_rotary_matrix(&tx, &tc, &ts, &tr, &t1), ROPEKIT_OK);
    assert_int_equal(ropekit_rotary_matrix(&tx, &tc, &ts, &tr, &tx), ROPEKIT_OK);
    assert_memory_equal(o1, x, (size_t)xn * 2);
    ropekit_set_num_threads(0);
    free(x), free(c), free(s), free(r), free(o1), free(o2);
}

struct bad {
    const char *what;
    ropekit_dtype xdt, cdt, rdt;
    int32_t xnd, cnd, rnd;
    int64_t xd[3], cd[3], rd[2], od[3];
    int null_slot; /* 1 x .. 5 out */
    ropekit_status status;
    const char *piece;
};

static void expect_refused(const struct bad *k) {
    double x[64], c[64], s[64], r[64], o[64], o0[64];
    fill(x, 64, ROPEKIT_F64, 1), fill(c, 64, ROPEKIT_F64, 2), fill(s, 64, ROPEKIT_F64, 3);
    fill(r, 64, ROPEKIT_F64, 4);
    memset(o, 0x5a, sizeof o), memcpy(o0, o, sizeof o);
    ropekit_tensor tx = ropekit_tensor_make(x, k->xdt, k->xnd, k->xd, NULL);
    ropekit_tensor tc = ropekit_tensor_make(c, k->cdt, k->cnd, k->cd, NULL);
    ropekit_tensor ts = ropekit_tensor_make(s, k->cdt, k->cnd, k->cd, NULL);
    ropekit_tensor tr = ropekit_tensor_make(r, k->rdt, k->rnd, k->rd, NULL);
    ropekit_tensor to = ropekit_tensor_make(o, k->xdt, k->xnd, k->od, NULL);
    ropekit_status st =
        ropekit_rotary_matrix(k->null_slot == 1 ? NULL : &tx, k->null_slot == 2 ? NULL : &tc,
                              k->null_slot == 3 ? NULL : &ts, k->null_slot == 4 ? NULL : &tr,
                              k->null_slot == 5 ? NULL : &to);
    if (st != k->status || !strstr(ropekit_last_error(), k->piece) ||
        !strstr(ropekit_last_error(), "ropekit_rotary_matrix"))
        fail_msg("%s: %d \"%s\", want %d \"%s\"", k->what, (int)st, ropekit_last_error(),
                 (int)k->status, k->piece);
    assert_memory_equal(o, o0, sizeof o);
}

static struct bad good(const char *what) {
    struct bad k = {.what = what,
                    .xdt = ROPEKIT_F64,
                    .cdt = ROPEKIT_F64,
                    .rdt = ROPEKIT_F64,
                    .xnd = 3,
                    .cnd = 3,
                    .rnd = 2};
    const int64_t xd[3] = {2, 3, 4}, cd[3] = {1, 3, 4};
    memcpy(k.xd, xd, sizeof xd), memcpy(k.od, xd, sizeof xd), memcpy(k.cd, cd, sizeof cd);
    k.rd[0] = k.rd[1] = 4;
    return k;
}

static void test_rules(void **state) {
    (void)state;
    struct bad k;
    static const char *const names[] = {"",           "x = NULL",      "cos = NULL",
                                        "sin = NULL", "rotate = NULL", "out = NULL"};
    for (int n = 1; n <= 5; n++) {
        k = good("NULL"), k.null_slot = n, k.status = ROPEKIT_NULL_POINTER, k.piece = names[n];
        expect_refused(&k);
    }
    k = good("DTYPE"), k.cdt = ROPEKIT_F32, k.status = ROPEKIT_INVALID_ARGUMENT;
    k.piece = "cos dtype";
    expect_refused(&k);
    k = good("RANK cos"), k.cnd = 2, k.cd[0] = 3, k.cd[1] = 4, k.status = ROPEKIT_INVALID_ARGUMENT;
    k.piece = "must be x's rank";
    expect_refused(&k);
    k = good("RANK rotate"), k.rnd = 1, k.status = ROPEKIT_INVALID_ARGUMENT, k.piece = "2-D";
    expect_refused(&k);
    k = good("OUT_SHAPE"), k.od[0] = 1, k.status = ROPEKIT_INVALID_ARGUMENT, k.piece = "out shape";
    expect_refused(&k);
    k = good("ROTATE_SHAPE"), k.rd[0] = 2, k.status = ROPEKIT_INVALID_ARGUMENT;
    k.piece = "rotate shape";
    expect_refused(&k);
    k = good("CS_LEN"), k.cd[2] = 2, k.status = ROPEKIT_INVALID_ARGUMENT, k.piece = "cos last dim";
    expect_refused(&k);
    k = good("BROADCAST"), k.cd[1] = 2, k.status = ROPEKIT_INVALID_ARGUMENT;
    k.piece = "must be 1 or x's";
    expect_refused(&k);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_float64_bit_exact),
        cmocka_unit_test(test_mode_matrices),
        cmocka_unit_test(test_in_place_plan_threads),
        cmocka_unit_test(test_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
