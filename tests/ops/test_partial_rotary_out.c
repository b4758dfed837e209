/* The partial-rotary operator out of place on the native face
 * (ropekit_partial_rotary_out{,_plan_create,_execute}): out's slice is what the in-place
 * call writes, bit for bit, and the rest of each row x's bits; x is left as it was; out
 * takes its own strides; out == x is in place; an empty slice or cos copies x; any other
 * overlap, a wrong dtype or shape and a plan of the other kind are refused with nothing
 * written. Every mode and direction, every dtype pair, every kernel set and thread count. */
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

static const ropekit_dtype dts[] = {ROPEKIT_F32, ROPEKIT_F16, ROPEKIT_BF16, ROPEKIT_F64};

static void fill(void *p, int64_t n, ropekit_dtype dt, uint32_t seed) {
    for (int64_t i = 0; i < n; i++) {
        seed = seed * 1664525u + 1013904223u;
        tk_store((char *)p + (size_t)i * ropekit_dtype_size(dt), dt,
                 ((double)(seed >> 8 & 0xffff) - 32768.0) / 8192.0);
    }
}

/* x [3, 5, D] (row pitch D + 3 elements), cos/sin [5, L] broadcast over dim 0, slice
 * [start, start + L), out [3, 5, D] with rows D + 7 apart (column stride `ocol`). */
struct call {
    ropekit_dtype xdt, cdt;
    int mode, dir;
    int64_t D, start, L, ocol;
};

static void run_call(const struct call *k, int isa_cap, int threads) {
    const size_t xs = ropekit_dtype_size(k->xdt), cs = ropekit_dtype_size(k->cdt);
    const int64_t xpitch = k->D + 3, opitch = (k->D + 7) * k->ocol, rows = 15;
    const size_t xbytes = (size_t)(rows * xpitch) * xs, obytes = (size_t)(rows * opitch) * xs;
    char *x = malloc(xbytes), *x0 = malloc(xbytes), *ref = malloc(xbytes);
    char *c = malloc((size_t)(5 * k->L) * cs + 1), *s = malloc((size_t)(5 * k->L) * cs + 1);
    char *o = malloc(obytes), *o0 = malloc(obytes);
    fill(x, rows * xpitch, k->xdt, 1);
    fill(c, 5 * k->L, k->cdt, 2);
    fill(s, 5 * k->L, k->cdt, 3);
    fill(o, rows * opitch, k->xdt, 4);
    memcpy(x0, x, xbytes);
    memcpy(ref, x, xbytes);
    memcpy(o0, o, obytes);
    const int64_t xshape[3] = {3, 5, k->D}, xst[3] = {5 * xpitch, xpitch, 1};
    const int64_t cshape[2] = {5, k->L}, cst[2] = {k->L, 1};
    const int64_t ost[3] = {5 * opitch, opitch, k->ocol};
    ropekit_tensor tx = ropekit_tensor_make(x, k->xdt, 3, xshape, xst);
    ropekit_tensor tr = ropekit_tensor_make(ref, k->xdt, 3, xshape, xst);
    ropekit_tensor tc = ropekit_tensor_make(c, k->cdt, 2, cshape, cst);
    ropekit_tensor ts = ropekit_tensor_make(s, k->cdt, 2, cshape, cst);
    ropekit_tensor to = ropekit_tensor_make(o, k->xdt, 3, xshape, ost);
    ropekit_set_max_isa((ropekit_isa)isa_cap);
    ropekit_set_num_threads(threads);
    /* the in-place call is the reference of the slice */
    assert_int_equal(
        ropekit_partial_rotary(&tr, &tc, &ts, k->mode, k->start, k->start + k->L, k->dir),
        ROPEKIT_OK);
    assert_int_equal(
        ropekit_partial_rotary_out(&tx, &tc, &ts, &to, k->mode, k->start, k->start + k->L, k->dir),
        ROPEKIT_OK);
    assert_memory_equal(x, x0, xbytes);
    for (int64_t r = 0; r < rows; r++)
        for (int64_t j = 0; j < k->D + 7; j++) {
            const char *got = o + (size_t)(r * opitch + j * k->ocol) * xs;
            const char *want = j < k->D ? ref + (size_t)(r * xpitch + j) * xs
                                        : o0 + (size_t)(r * opitch + j * k->ocol) * xs;
            if (memcmp(got, want, xs)) {
                print_error("mode %d dir %d dtypes %d/%d isa %d threads %d: row %lld elem %lld\n",
                            k->mode, k->dir, (int)k->xdt, (int)k->cdt, isa_cap, threads,
                            (long long)r, (long long)j);
                fail();
            }
            for (int64_t g = 1; g < k->ocol && j < k->D; g++) /* gaps of a strided out */
                assert_memory_equal(got + (size_t)g * xs, o0 + (got - o) + (size_t)g * xs, xs);
        }
    /* the plan API does the same */
    ropekit_plan *plan = NULL;
    memcpy(o, o0, obytes);
    assert_int_equal(ropekit_partial_rotary_out_plan_create(&tx, &tc, &ts, &to, k->mode, k->start,
                                                            k->start + k->L, k->dir, &plan),
                     ROPEKIT_OK);
    char *o1 = malloc(obytes);
    memcpy(o1, o, obytes);
    assert_int_equal(ropekit_partial_rotary_out_execute(plan, x, c, s, o1), ROPEKIT_OK);
    /* out is x: in place, equal to the in-place call */
    assert_int_equal(
        ropekit_partial_rotary_out(&tx, &tc, &ts, &tx, k->mode, k->start, k->start + k->L, k->dir),
        ROPEKIT_OK);
    assert_memory_equal(x, ref, xbytes);
    ropekit_plan_destroy(plan);
    ropekit_set_max_isa(ROPEKIT_ISA_AVX512);
    ropekit_set_num_threads(0);
    free(o1);
    free(x), free(x0), free(ref), free(c), free(s), free(o), free(o0);
}

static void test_every_mode_dtype_isa(void **state) {
    (void)state;
    for (int mode = 0; mode < 4; mode++)
        for (int dir = 0; dir < 2; dir++)
            for (int xi = 0; xi < 4; xi++)
                for (int ci = 0; ci < 4; ci++) {
                    if ((xi == 3) != (ci == 3))
                        continue;
                    for (int isa = 0; isa <= (int)ROPEKIT_ISA_AVX512; isa++) {
                        struct call k = {dts[xi], dts[ci], mode, dir, 40, 4, 24, 1};
                        run_call(&k, isa, isa == 1 ? 2 : 1);
                        k.ocol = 2; /* a strided out: scalar path */
                        k.D = 70, k.start = 2, k.L = 64;
                        run_call(&k, isa, 1);
                    }
                }
}

/* The pieces of a refusal: status, message piece, nothing written. */
static void expect_refused(const ropekit_tensor *x, const ropekit_tensor *c,
                           const ropekit_tensor *s, const ropekit_tensor *o, int64_t start,
                           int64_t end, ropekit_status want, const char *piece, const void *watch,
                           const void *copy, size_t bytes) {
    ropekit_status st =
        ropekit_partial_rotary_out(x, c, s, o, ROPEKIT_ROTARY_HALF, start, end, ROPEKIT_FORWARD);
    if (st != want || !strstr(ropekit_last_error(), piece)) {
        print_error("status %d (want %d): %s (want \"%s\")\n", (int)st, (int)want,
                    ropekit_last_error(), piece);
        fail();
    }
    assert_memory_equal(watch, copy, bytes);
}

static void test_refusals(void **state) {
    (void)state;
    float x[64], c[16], s[16], o[64], o0[64], xo[64];
    fill(x, 64, ROPEKIT_F32, 5);
    fill(c, 16, ROPEKIT_F32, 6);
    fill(s, 16, ROPEKIT_F32, 7);
    fill(o, 64, ROPEKIT_F32, 8);
    memcpy(o0, o, sizeof o);
    memcpy(xo, x, sizeof x);
    const int64_t xd[2] = {4, 16}, cd[2] = {1, 8}, od_bad[2] = {4, 15}, half_rows[2] = {2, 16};
    ropekit_tensor tx = ropekit_tensor_make(x, ROPEKIT_F32, 2, xd, NULL);
    ropekit_tensor tc = ropekit_tensor_make(c, ROPEKIT_F32, 2, cd, NULL);
    ropekit_tensor ts = ropekit_tensor_make(s, ROPEKIT_F32, 2, cd, NULL);
    ropekit_tensor to = ropekit_tensor_make(o, ROPEKIT_F32, 2, xd, NULL);
    ropekit_tensor bad = to;
    expect_refused(&tx, &tc, &ts, NULL, 0, 8, ROPEKIT_NULL_POINTER, "out = NULL", o, o0, sizeof o);
    bad.dtype = ROPEKIT_F16;
    expect_refused(&tx, &tc, &ts, &bad, 0, 8, ROPEKIT_INVALID_ARGUMENT, "out dtype", o, o0,
                   sizeof o);
    bad = ropekit_tensor_make(o, ROPEKIT_F32, 2, od_bad, NULL);
    expect_refused(&tx, &tc, &ts, &bad, 0, 8, ROPEKIT_INVALID_ARGUMENT, "out shape", o, o0,
                   sizeof o);
    /* out overlapping x without being x: shifted by a row, or x's strides differing */
    bad = ropekit_tensor_make(x + 16, ROPEKIT_F32, 2, half_rows, NULL);
    ropekit_tensor tx2 = ropekit_tensor_make(x, ROPEKIT_F32, 2, half_rows, NULL);
    expect_refused(&tx2, &tc, &ts, &bad, 0, 8, ROPEKIT_INVALID_ARGUMENT, "out memory overlaps x", x,
                   xo, sizeof x);
    const int64_t col2[2] = {16, 2}, d8[2] = {4, 8};
    ropekit_tensor xs8 = ropekit_tensor_make(x, ROPEKIT_F32, 2, d8, NULL);
    ropekit_tensor os8 = ropekit_tensor_make(x, ROPEKIT_F32, 2, d8, col2);
    expect_refused(&xs8, &tc, &ts, &os8, 0, 8, ROPEKIT_INVALID_ARGUMENT, "out memory overlaps x", x,
                   xo, sizeof x);
    /* out over cos; out overlapping itself */
    bad = ropekit_tensor_make(c, ROPEKIT_F32, 2, xd, NULL);
    expect_refused(&tx, &tc, &ts, &bad, 0, 8, ROPEKIT_INVALID_ARGUMENT, "out memory overlaps cos",
                   c, c, 0);
    const int64_t zero[2] = {0, 1};
    bad = ropekit_tensor_make(o, ROPEKIT_F32, 2, xd, zero);
    expect_refused(&tx, &tc, &ts, &bad, 0, 8, ROPEKIT_INVALID_ARGUMENT, "out strides", o, o0,
                   sizeof o);
    /* in-place and out-of-place plans run only with their own execute */
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_partial_rotary_plan_create(&tx, &tc, &ts, ROPEKIT_ROTARY_HALF, 0, 8,
                                                        ROPEKIT_FORWARD, &plan),
                     ROPEKIT_OK);
    assert_int_equal(ropekit_partial_rotary_out_execute(plan, x, c, s, o),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "ropekit_partial_rotary_execute"));
    assert_memory_equal(o, o0, sizeof o);
    ropekit_plan_destroy(plan);
    /* bound data: out overlapping x is refused at execute */
    assert_int_equal(ropekit_partial_rotary_out_plan_create(&tx, &tc, &ts, &to, ROPEKIT_ROTARY_HALF,
                                                            0, 8, ROPEKIT_FORWARD, &plan),
                     ROPEKIT_OK);
    assert_int_equal(ropekit_partial_rotary_out_execute(plan, x, c, s, x + 1),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_int_equal(ropekit_partial_rotary_out_execute(plan, x, c, s, NULL), ROPEKIT_NULL_POINTER);
    assert_memory_equal(x, xo, sizeof x);
    ropekit_plan_destroy(plan);
}

/* Nothing to rotate (start == end, or an empty cos) copies x to out; an empty x writes
 * nothing. */
static void test_copies(void **state) {
    (void)state;
    float x[64], c[16], o[64];
    fill(x, 64, ROPEKIT_F32, 9);
    fill(c, 16, ROPEKIT_F32, 10);
    const int64_t xd[2] = {4, 16}, cd[2] = {1, 8}, ce[2] = {0, 8}, xe[2] = {0, 16};
    const int64_t ost[2] = {16, 1};
    ropekit_tensor tx = ropekit_tensor_make(x, ROPEKIT_F32, 2, xd, NULL);
    ropekit_tensor tc = ropekit_tensor_make(c, ROPEKIT_F32, 2, cd, NULL);
    ropekit_tensor te = ropekit_tensor_make(c, ROPEKIT_F32, 2, ce, NULL);
    ropekit_tensor to = ropekit_tensor_make(o, ROPEKIT_F32, 2, xd, ost);
    memset(o, 0, sizeof o);
    assert_int_equal(
        ropekit_partial_rotary_out(&tx, &tc, &tc, &to, ROPEKIT_ROTARY_HALF, 4, 4, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    assert_memory_equal(o, x, sizeof x);
    memset(o, 0, sizeof o);
    assert_int_equal(
        ropekit_partial_rotary_out(&tx, &te, &te, &to, ROPEKIT_ROTARY_HALF, 0, 8, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    assert_memory_equal(o, x, sizeof x);
    memset(o, 0, sizeof o);
    ropekit_tensor ex = ropekit_tensor_make(x, ROPEKIT_F32, 2, xe, NULL);
    ropekit_tensor eo = ropekit_tensor_make(o, ROPEKIT_F32, 2, xe, NULL);
    assert_int_equal(
        ropekit_partial_rotary_out(&ex, &tc, &tc, &eo, ROPEKIT_ROTARY_HALF, 0, 8, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    for (int i = 0; i < 64; i++)
        assert_true(o[i] == 0.0f);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_mode_dtype_isa),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
