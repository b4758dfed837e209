/* Every rope kernel the CPU can run is bit-identical to the scalar kernel, for both
 * styles and every dtype pair, with partial rotary_dim (pass-through), several heads
 * with padded head strides, in place and out of place, and NaN/inf/subnormal data.
 * ISAs the CPU lacks are skipped. */
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

/* float64 kernels compared so far: the AVX2 set must have them. */
static int f64_kernels_compared;

static void compare_set(const struct rk_kernel_set *set) {
    static const int64_t dims[][2] = {{2, 2},     {4, 8},   {16, 16},   {30, 32},
                                      {32, 64},   {64, 64}, {64, 128},  {96, 128},
                                      {128, 128}, {34, 40}, {250, 256}, {18, 100}};
    for (int style = 0; style < 2; style++)
        for (int xd = 0; xd < RK_KDT_COUNT; xd++)
            for (int cd = 0; cd < RK_KDT_COUNT; cd++)
                for (size_t di = 0; di < sizeof dims / sizeof dims[0]; di++) {
                    const int64_t rot = dims[di][0], hs = dims[di][1], heads = 3, pad = 5;
                    const rk_rope_fn fn = (*set->rope)[style][xd][cd];
                    if (!fn)
                        continue;
                    f64_kernels_compared += xd == RK_KDT_F64;
                    rk_rope_fn ref = rk_rope_table_scalar[style][xd][cd];
                    size_t xs = ropekit_dtype_size(dtypes[xd]), cs = ropekit_dtype_size(dtypes[cd]);
                    size_t bytes = (size_t)(heads * (hs + pad)) * xs;
                    char *in = malloc(bytes), *c = malloc((size_t)rot * cs);
                    char *want = malloc(bytes), *got = malloc(bytes);
                    fill(in, bytes / xs, dtypes[xd]);
                    fill(c, (size_t)rot, dtypes[cd]);
                    for (int inplace = 0; inplace < 2; inplace++) {
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
                        fn(&a);
                        if (memcmp(want, got, bytes) != 0) {
                            print_error("set %s style %d dtypes %d/%d rot %lld hs %lld "
                                        "inplace %d differs from scalar\n",
                                        set->name, style, xd, cd, (long long)rot, (long long)hs,
                                        inplace);
                            fail();
                        }
                    }
                    free(in);
                    free(c);
                    free(want);
                    free(got);
                }
}

static void test_scalar_is_complete(void **state) {
    (void)state;
    for (int s = 0; s < 2; s++)
        for (int x = 0; x < 3; x++)
            for (int c = 0; c < 3; c++)
                assert_non_null(rk_rope_table_scalar[s][x][c]);
    /* float64 pairs with float64 only (the AVX2 set has it too; the AVX-512 sets fall
     * back to AVX2's) */
    for (int s = 0; s < 2; s++)
        for (int k = 0; k < RK_KDT_COUNT; k++) {
            assert_true((rk_rope_table_scalar[s][RK_KDT_F64][k] != NULL) == (k == RK_KDT_F64));
            assert_true((rk_rope_table_scalar[s][k][RK_KDT_F64] != NULL) == (k == RK_KDT_F64));
        }
}

/* Every SIMD kernel set this CPU supports (each AVX-512 variant, AVX2), whatever the
 * dispatch would pick. */
static void test_simd_sets_match_scalar(void **state) {
    (void)state;
    size_t n;
    const struct rk_kernel_set *sets = rk_kernel_sets(&n);
    int tested = 0;
    for (size_t i = 0; i < n; i++) {
        if (sets[i].isa == ROPEKIT_ISA_SCALAR || !rk_kernel_set_supported(&sets[i]))
            continue;
        compare_set(&sets[i]);
        tested++;
        if (sets[i].isa == ROPEKIT_ISA_AVX2)
            assert_true(f64_kernels_compared > 0);
    }
    if (tested == 0)
        skip();
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar_is_complete),
        cmocka_unit_test(test_simd_sets_match_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
