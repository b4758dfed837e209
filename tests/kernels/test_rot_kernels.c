/* Every partial-rotary kernel the CPU can run is bit-identical to the scalar kernel
 * (the oracle), for every mode, direction and dtype pair, on ragged lengths, several
 * rows, broadcast cos/sin rows and in-place data with NaN/inf/subnormal values. The
 * strided scalar path equals the contiguous one. ISAs the CPU lacks are skipped. */
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

static uint64_t rng = 0x243f6a8885a308d3ull;
static uint32_t next32(void) {
    return tk_xorshift32(&rng);
}

static float random_value(void) {
    uint32_t r = next32() % 64;
    if (r == 0)
        return tk_bits_f32(0x7fc00000u | (next32() & 0x3fffffu)); /* NaN */
    if (r == 1)
        return (next32() & 1) ? 1.0f / 0.0f : -1.0f / 0.0f;
    if (r == 2)
        return tk_bits_f32(next32() & 0x807fffffu); /* subnormal */
    if (r == 3)
        return 70000.0f; /* overflows f16 */
    return ((float)(next32() % 20001) - 10000.0f) / 2500.0f;
}

static void fill(char *p, size_t n, ropekit_dtype dt) {
    for (size_t i = 0; i < n; i++) {
        if (dt == ROPEKIT_F64) {
            const double d = tk_xorshift_f64(&rng);
            memcpy(p + 8 * i, &d, 8);
            continue;
        }
        float v = random_value();
        tk_store_f32(p + ropekit_dtype_size(dt) * i, dt, v);
    }
}

/* Runs kernel fn on a copy of x and returns it. */
static char *run(rk_rot_fn fn, const char *x, size_t xbytes, const struct rk_rot_rows *tmpl,
                 char *x_base) {
    char *copy = malloc(xbytes);
    memcpy(copy, x, xbytes);
    struct rk_rot_rows a = *tmpl;
    a.x = copy + (a.x - x_base);
    fn(&a);
    return copy;
}

/* float64 kernels compared so far: the AVX2 set must have them. */
static int f64_kernels_compared;

static void compare_set(const struct rk_kernel_set *set) {
    static const int64_t lens[] = {2,  4,  6,  8,  12,  16,  18,  30,  32, 34,
                                   62, 64, 66, 96, 128, 130, 250, 256, 512};
    float *scratch = malloc(4096 * sizeof(float));
    for (int mode = 0; mode < 4; mode++)
        for (int dir = 0; dir < 2; dir++)
            for (int xd = 0; xd < RK_KDT_COUNT; xd++)
                for (int cd = 0; cd < RK_KDT_COUNT; cd++)
                    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
                        int64_t len = lens[li];
                        if (mode == 2 && len % 4)
                            continue;
                        const rk_rot_fn fn = (*set->rot)[mode][dir][xd][cd];
                        if (!fn)
                            continue;
                        f64_kernels_compared += xd == RK_KDT_F64;
                        const rk_rot_fn ref = rk_rot_table_scalar[mode][dir][xd][cd];
                        size_t xs = ropekit_dtype_size(dtypes[xd]);
                        size_t cs = ropekit_dtype_size(dtypes[cd]);
                        const int64_t rows = 5, pad = 3; /* row pitch len+pad elements */
                        size_t xbytes = (size_t)(rows * (len + pad)) * xs;
                        char *x = malloc(xbytes), *c = malloc((size_t)len * cs * 2),
                             *s = malloc((size_t)len * cs * 2);
                        fill(x, xbytes / xs, dtypes[xd]);
                        fill(c, (size_t)len * 2, dtypes[cd]);
                        fill(s, (size_t)len * 2, dtypes[cd]);
                        for (int bcast = 0; bcast < 2; bcast++) {
                            struct rk_rot_rows a = {
                                .x = x + xs, /* odd element offset */
                                .cos = c,
                                .sin = s,
                                .rows = bcast ? rows - 1 : 2,
                                .len = len,
                                .x_row = (len + pad) * (int64_t)xs,
                                .c_row = bcast ? 0 : len * (int64_t)cs,
                                .s_row = bcast ? 0 : len * (int64_t)cs,
                                .x_col = (int64_t)xs,
                                .c_col = (int64_t)cs,
                                .s_col = (int64_t)cs,
                                .scratch = scratch,
                                .prefetch = bcast == 1, /* results must not depend on it */
                            };
                            char *want = run(ref, x, xbytes, &a, x);
                            char *got = run(fn, x, xbytes, &a, x);
                            if (memcmp(want, got, xbytes) != 0) {
                                for (size_t b = 0; b < xbytes; b += xs)
                                    if (memcmp(want + b, got + b, xs)) {
                                        uint64_t w = 0, g = 0, in = 0;
                                        memcpy(&w, want + b, xs);
                                        memcpy(&g, got + b, xs);
                                        memcpy(&in, x + b, xs);
                                        print_error("element %zu: input %016llx want %016llx got "
                                                    "%016llx\n",
                                                    b / xs, (unsigned long long)in,
                                                    (unsigned long long)w, (unsigned long long)g);
                                        break;
                                    }
                                print_error("set %s mode %d dir %d dtypes %d/%d len %lld "
                                            "bcast %d differs from scalar\n",
                                            set->name, mode, dir, xd, cd, (long long)len, bcast);
                                fail();
                            }
                            free(want);
                            free(got);
                        }
                        { /* exact-size rows: a kernel touching one element too many is
                             caught by the sanitizer build */
                            size_t ebytes = (size_t)(2 * len) * xs;
                            char *xe = malloc(ebytes);
                            fill(xe, (size_t)(2 * len), dtypes[xd]);
                            struct rk_rot_rows a = {.x = xe,
                                                    .cos = c,
                                                    .sin = s,
                                                    .rows = 2,
                                                    .len = len,
                                                    .x_row = len * (int64_t)xs,
                                                    .c_row = len * (int64_t)cs,
                                                    .s_row = len * (int64_t)cs,
                                                    .x_col = (int64_t)xs,
                                                    .c_col = (int64_t)cs,
                                                    .s_col = (int64_t)cs,
                                                    .scratch = scratch,
                                                    /* requests lines past the end */
                                                    .prefetch = true};
                            char *want = run(ref, xe, ebytes, &a, xe);
                            char *got = run(fn, xe, ebytes, &a, xe);
                            if (memcmp(want, got, ebytes) != 0) {
                                print_error("set %s mode %d dir %d dtypes %d/%d len %lld exact "
                                            "rows differ from scalar\n",
                                            set->name, mode, dir, xd, cd, (long long)len);
                                fail();
                            }
                            free(want);
                            free(got);
                            free(xe);
                        }
                        free(x);
                        free(c);
                        free(s);
                    }
    free(scratch);
}

static void test_scalar_is_complete(void **state) {
    (void)state;
    for (int m = 0; m < 4; m++)
        for (int d = 0; d < 2; d++)
            for (int x = 0; x < 3; x++)
                for (int c = 0; c < 3; c++)
                    assert_non_null(rk_rot_table_scalar[m][d][x][c]);
    /* float64 pairs with float64 only (the AVX2 set has it too; the AVX-512 sets fall
     * back to AVX2's) */
    for (int m = 0; m < 4; m++)
        for (int d = 0; d < 2; d++)
            for (int k = 0; k < RK_KDT_COUNT; k++) {
                assert_true((rk_rot_table_scalar[m][d][RK_KDT_F64][k] != NULL) ==
                            (k == RK_KDT_F64));
                assert_true((rk_rot_table_scalar[m][d][k][RK_KDT_F64] != NULL) ==
                            (k == RK_KDT_F64));
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

/* A scalar kernel given element strides equals the same kernel on packed data. */
static void test_strided_equals_packed(void **state) {
    (void)state;
    float scratch[64];
    for (int mode = 0; mode < 4; mode++)
        for (int dir = 0; dir < 2; dir++) {
            const int64_t len = 16;
            float packed[16], strided[48], c[16], s[16];
            for (int i = 0; i < len; i++) {
                packed[i] = strided[3 * i] = (float)(i + 1) * 0.37f;
                strided[3 * i + 1] = strided[3 * i + 2] = -1.0f;
                c[i] = 0.5f + (float)i * 0.01f;
                s[i] = 0.25f - (float)i * 0.02f;
            }
            struct rk_rot_rows a = {.x = (char *)packed,
                                    .cos = (char *)c,
                                    .sin = (char *)s,
                                    .rows = 1,
                                    .len = len,
                                    .x_col = 4,
                                    .c_col = 4,
                                    .s_col = 4,
                                    .scratch = scratch};
            rk_rot_table_scalar[mode][dir][0][0](&a);
            a.x = (char *)strided;
            a.x_col = 12;
            rk_rot_table_scalar[mode][dir][0][0](&a);
            for (int i = 0; i < len; i++) {
                assert_memory_equal(&packed[i], &strided[3 * i], 4);
                assert_true(strided[3 * i + 1] == -1.0f && strided[3 * i + 2] == -1.0f);
            }
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_scalar_is_complete),
        cmocka_unit_test(test_strided_equals_packed),
        cmocka_unit_test(test_simd_sets_match_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
