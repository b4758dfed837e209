/* Every rope kernel of the kernel list (kernels/kernel_list.h) that the CPU can run is
 * bit-identical to the scalar kernel of its style and dtype pair, with partial rotary_dim
 * (pass-through), one head and several heads with padded head strides (the SIMD kernels
 * widen shared coefficients only for several), in place and out of place, and
 * NaN/inf/subnormal data; the tables hold exactly the list's rows. ISAs the CPU lacks are
 * skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/dispatch.h"
#include "kernels/kernel_list.h"
#include "testkit/half_bits.h"
#include "testkit/rng.h"

/* Indexed like the kernel tables (enum rk_kdtype); float64 pairs with itself only. */
static const ropekit_dtype dtypes[RK_KDT_COUNT] = {ROPEKIT_F32, ROPEKIT_F16, ROPEKIT_BF16,
                                                   ROPEKIT_F64};

static uint64_t rng = 0x13198a2e03707344ull;
static uint32_t next32(void) {
    return tk_xorshift32(&rng);
}

static void fill(char *p, size_t n, ropekit_dtype dt) {
    for (size_t i = 0; i < n; i++) {
        if (dt == ROPEKIT_F64) {
            const double d = tk_xorshift_f64(&rng);
            memcpy(p + 8 * i, &d, 8);
            continue;
        }
        uint32_t r = next32() % 64;
        float v = r == 0   ? tk_bits_f32(0x7fc00000u | (next32() & 0x3fffffu))
                  : r == 1 ? 1.0f / 0.0f
                  : r == 2 ? tk_bits_f32(next32() & 0x807fffffu)
                           : ((float)(next32() % 20001) - 10000.0f) / 3000.0f;
        tk_store_f32(p + ropekit_dtype_size(dt) * i, dt, v);
    }
}

/* The rows of the kernel list, every ISA this build has. */
struct rope_row {
    const char *name;
    rk_rope_fn fn;
    enum rk_rope_style style;
    enum rk_kdtype xd, cd;
};
#define ROPE_ROW(isa, name, style, xdt, cdt) {#name, name, style, xdt, cdt},
static const struct rope_row rope_rows[] = {RK_ROPE_KERNELS(ROPE_ROW)};
#define ROPE_ROW_COUNT (sizeof rope_rows / sizeof rope_rows[0])

/* The kernel set whose table holds the row (NULL: none does). */
static const struct rk_kernel_set *set_of(const struct rope_row *r) {
    size_t n;
    const struct rk_kernel_set *sets = rk_kernel_sets(&n);
    for (size_t i = 0; i < n; i++)
        if ((*sets[i].rope)[r->style][r->xd][r->cd] == r->fn)
            return &sets[i];
    return NULL;
}

/* One kernel against the scalar kernel of its row's style and dtypes. */
static void compare_kernel(const struct rope_row *r) {
    static const int64_t dims[][2] = {{2, 2},     {4, 8},   {16, 16},   {30, 32},
                                      {32, 64},   {64, 64}, {64, 128},  {96, 128},
                                      {128, 128}, {34, 40}, {250, 256}, {18, 100}};
    const rk_rope_fn ref = rk_rope_table_scalar[r->style][r->xd][r->cd];
    const size_t xs = ropekit_dtype_size(dtypes[r->xd]), cs = ropekit_dtype_size(dtypes[r->cd]);
    for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
        const int64_t rot = dims[di][0], hs = dims[di][1], pad = 5;
        size_t bytes = (size_t)(3 * (hs + pad)) * xs;
        char *in = malloc(bytes), *c = malloc((size_t)rot * cs);
        char *want = malloc(bytes), *got = malloc(bytes);
        fill(in, bytes / xs, dtypes[r->xd]);
        fill(c, (size_t)rot, dtypes[r->cd]);
        for (int variant = 0; variant < 4; variant++) {
            const int inplace = variant & 1;
            const int64_t heads = variant & 2 ? 1 : 3;
            struct rk_rope_rows a = {
                .cos = c,
                .sin = c + rot / 2 * cs,
                .heads = heads,
                .half = rot / 2,
                .head_size = hs,
                .in_head = (hs + pad) * (int64_t)xs,
                .out_head = (hs + pad) * (int64_t)xs,
                .in_col = (int64_t)xs,
                .out_col = (int64_t)xs,
                .cs_col = (int64_t)cs,
                .prefetch = di % 2 == 1, /* results must not depend on it */
            };
            memset(want, 0x5a, bytes);
            memset(got, 0x5a, bytes);
            if (inplace) {
                memcpy(want, in, bytes);
                memcpy(got, in, bytes);
            }
            a.in = inplace ? want : in;
            a.out = want;
            ref(&a);
            a.in = inplace ? got : in;
            a.out = got;
            r->fn(&a);
            if (memcmp(want, got, bytes) != 0) {
                print_error("%s rot %lld hs %lld heads %lld inplace %d differs from scalar\n",
                            r->name, (long long)rot, (long long)hs, (long long)heads, inplace);
                fail();
            }
        }
        free(in);
        free(c);
        free(want);
        free(got);
    }
}

/* Each row is in the table of one kernel set, at its own index, and the tables hold
 * nothing else. */
static void test_tables_are_the_list(void **state) {
    (void)state;
    for (size_t i = 0; i < ROPE_ROW_COUNT; i++)
        if (!set_of(&rope_rows[i])) {
            print_error("%s is in no table at its index\n", rope_rows[i].name);
            fail();
        }
    size_t n, entries = 0;
    const struct rk_kernel_set *sets = rk_kernel_sets(&n);
    for (size_t i = 0; i < n; i++)
        for (int st = 0; st < RK_ROPE_STYLE_COUNT; st++)
            for (int x = 0; x < RK_KDT_COUNT; x++)
                for (int c = 0; c < RK_KDT_COUNT; c++)
                    entries += (*sets[i].rope)[st][x][c] != NULL;
    assert_int_equal(entries, ROPE_ROW_COUNT);
}

static void test_scalar_is_complete(void **state) {
    (void)state;
    for (int st = 0; st < RK_ROPE_STYLE_COUNT; st++)
        for (int x = 0; x < RK_KDT_COUNT; x++)
            for (int c = 0; c < RK_KDT_COUNT; c++)
                /* float64 pairs with float64 only (the AVX2 set has it too; the AVX-512
                 * sets fall back to AVX2's) */
                assert_true((rk_rope_table_scalar[st][x][c] != NULL) ==
                            ((x == RK_KDT_F64) == (c == RK_KDT_F64)));
}

/* Every SIMD kernel of the list whose set this CPU supports, whatever the dispatch would
 * pick. */
static void test_simd_kernels_match_scalar(void **state) {
    (void)state;
    int tested = 0, f64_tested = 0, avx2_tested = 0;
    for (size_t i = 0; i < ROPE_ROW_COUNT; i++) {
        const struct rk_kernel_set *set = set_of(&rope_rows[i]);
        if (set->isa == ROPEKIT_ISA_SCALAR || !rk_kernel_set_supported(set))
            continue;
        compare_kernel(&rope_rows[i]);
        tested++;
        f64_tested += rope_rows[i].xd == RK_KDT_F64;
        avx2_tested += set->isa == ROPEKIT_ISA_AVX2;
    }
    /* the AVX2 set must have float64 kernels */
    if (avx2_tested)
        assert_true(f64_tested > 0);
    if (tested == 0)
        skip();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_are_the_list),
        cmocka_unit_test(test_scalar_is_complete),
        cmocka_unit_test(test_simd_kernels_match_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
