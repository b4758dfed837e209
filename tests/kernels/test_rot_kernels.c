/* Every partial-rotary kernel of the kernel list (kernels/kernel_list.h) that the CPU can
 * run is bit-identical to the scalar kernel (the oracle) of its mode, direction and dtype
 * pair, on ragged lengths, several rows, broadcast cos/sin rows and data with
 * NaN/inf/subnormal values, in place and out of place (y rows of another pitch, x left
 * as it was, nothing written between y's rows); the tables hold exactly the list's rows.
 * Out of place writes what in place does. The strided scalar path equals the contiguous
 * one. ISAs the CPU lacks are skipped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
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

/* Runs kernel fn in place on a copy of x and returns it. */
static char *run(rk_rot_fn fn, const char *x, size_t xbytes, const struct rk_rot_rows *tmpl,
                 const char *x_base) {
    char *copy = malloc(xbytes);
    memcpy(copy, x, xbytes);
    struct rk_rot_rows a = *tmpl;
    a.x = copy + (a.x - x_base);
    a.y = copy + (a.x - copy);
    a.y_row = a.x_row;
    a.y_col = a.x_col;
    fn(&a);
    return copy;
}

/* Where an out-of-place run writes: rows `pitch` elements apart from element `lead` of a
 * buffer of `bytes`, which starts as random bits (what the kernel must leave alone). */
struct y_layout {
    size_t bytes;
    int64_t lead, pitch;
};

/* Runs kernel fn from a copy of x into a new y buffer and returns y; the copy of x must be
 * left as it was. */
static char *run_apart(rk_rot_fn fn, const char *x, size_t xbytes, const struct rk_rot_rows *tmpl,
                       const char *x_base, const char *y_init, struct y_layout yl, size_t xs) {
    char *copy = malloc(xbytes), *y = malloc(yl.bytes);
    memcpy(copy, x, xbytes);
    memcpy(y, y_init, yl.bytes);
    struct rk_rot_rows a = *tmpl;
    a.x = copy + (a.x - x_base);
    a.y = y + yl.lead * (int64_t)xs;
    a.y_row = yl.pitch * (int64_t)xs;
    a.y_col = (int64_t)xs;
    fn(&a);
    if (memcmp(copy, x, xbytes) != 0) {
        print_error("an out-of-place kernel wrote its input\n");
        fail();
    }
    free(copy);
    return y;
}

/* The rows of the kernel list, every ISA this build has. */
struct rot_row {
    const char *name;
    rk_rot_fn fn;
    ropekit_rotary_mode mode;
    ropekit_direction dir;
    enum rk_kdtype xd, cd;
};
#define ROT_ROW(isa, name, mode, dir, xdt, cdt) {#name, name, mode, dir, xdt, cdt},
static const struct rot_row rot_rows[] = {RK_ROT_KERNELS(ROT_ROW)};
#define ROT_ROW_COUNT (sizeof rot_rows / sizeof rot_rows[0])

/* The kernel set whose table holds the row (NULL: none does). */
static const struct rk_kernel_set *set_of(const struct rot_row *r) {
    size_t n;
    const struct rk_kernel_set *sets = rk_kernel_sets(&n);
    for (size_t i = 0; i < n; i++)
        if ((*sets[i].rot)[r->mode][r->dir][r->xd][r->cd] == r->fn)
            return &sets[i];
    return NULL;
}

static void fail_on_difference(const char *what, const char *want, const char *got, const char *in,
                               size_t bytes, size_t xs) {
    if (memcmp(want, got, bytes) == 0)
        return;
    for (size_t b = 0; b < bytes; b += xs)
        if (memcmp(want + b, got + b, xs)) {
            uint64_t w = 0, g = 0, v = 0;
            memcpy(&w, want + b, xs);
            memcpy(&g, got + b, xs);
            memcpy(&v, in + b, xs);
            print_error("element %zu: input %016llx want %016llx got %016llx\n", b / xs,
                        (unsigned long long)v, (unsigned long long)w, (unsigned long long)g);
            break;
        }
    print_error("%s differs from scalar\n", what);
    fail();
}

/* One kernel against the scalar kernel of its row's mode, direction and dtypes. */
static void compare_kernel(const struct rot_row *r) {
    static const int64_t lens[] = {2,  4,  6,  8,  12,  16,  18,  30,  32, 34,
                                   62, 64, 66, 96, 128, 130, 250, 256, 512};
    const rk_rot_fn ref = rk_rot_table_scalar[r->mode][r->dir][r->xd][r->cd];
    const size_t xs = ropekit_dtype_size(dtypes[r->xd]), cs = ropekit_dtype_size(dtypes[r->cd]);
    float *scratch = malloc(4096 * sizeof(float));
    for (size_t li = 0; li < sizeof lens / sizeof lens[0]; li++) {
        const int64_t len = lens[li];
        if (r->mode == ROPEKIT_ROTARY_QUARTER && len % 4)
            continue;
        char what[160];
        const int64_t rows = 5, pad = 3; /* row pitch len+pad elements */
        size_t xbytes = (size_t)(rows * (len + pad)) * xs;
        char *x = malloc(xbytes), *c = malloc((size_t)len * cs * 2),
             *s = malloc((size_t)len * cs * 2);
        fill(x, xbytes / xs, dtypes[r->xd]);
        fill(c, (size_t)len * 2, dtypes[r->cd]);
        fill(s, (size_t)len * 2, dtypes[r->cd]);
        /* each of broadcast (a hoisted row) and prefetch with and without the other: the
           SIMD drivers run each combination in its own loop */
        for (int variant = 0; variant < 4; variant++) {
            const int bcast = variant % 2, pf = variant / 2;
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
                .prefetch = pf == 1, /* results must not depend on it */
            };
            char *want = run(ref, x, xbytes, &a, x);
            char *got = run(r->fn, x, xbytes, &a, x);
            snprintf(what, sizeof what, "%s len %lld bcast %d prefetch %d", r->name, (long long)len,
                     bcast, pf);
            fail_on_difference(what, want, got, x, xbytes, xs);
            /* out of place: y rows of another pitch and offset than x's */
            const struct y_layout yl = {(size_t)(rows * (len + 5)) * xs, 2, len + 5};
            char *y_init = malloc(yl.bytes);
            fill(y_init, yl.bytes / xs, dtypes[r->xd]);
            char *want_y = run_apart(ref, x, xbytes, &a, x, y_init, yl, xs);
            char *got_y = run_apart(r->fn, x, xbytes, &a, x, y_init, yl, xs);
            snprintf(what, sizeof what, "%s len %lld bcast %d prefetch %d out of place", r->name,
                     (long long)len, bcast, pf);
            fail_on_difference(what, want_y, got_y, y_init, yl.bytes, xs);
            /* ... and writes what in place writes, on y's rows only */
            for (int64_t row = 0; row < a.rows; row++) {
                const size_t yo = (size_t)(yl.lead + row * yl.pitch) * xs;
                const size_t xo = (size_t)(a.x - x) + (size_t)(row * a.x_row);
                snprintf(what, sizeof what,
                         "%s len %lld bcast %d prefetch %d row %lld out of place vs in place",
                         r->name, (long long)len, bcast, pf, (long long)row);
                fail_on_difference(what, want + xo, want_y + yo, x + xo, (size_t)len * xs, xs);
                memcpy(want_y + yo, y_init + yo, (size_t)len * xs);
            }
            snprintf(what, sizeof what,
                     "%s len %lld bcast %d prefetch %d: out of place outside y's rows", r->name,
                     (long long)len, bcast, pf);
            fail_on_difference(what, y_init, want_y, y_init, yl.bytes, xs);
            free(y_init);
            free(want_y);
            free(got_y);
            free(want);
            free(got);
        }
        { /* exact-size rows: a kernel touching one element too many is caught by the
             sanitizer build */
            size_t ebytes = (size_t)(2 * len) * xs;
            char *xe = malloc(ebytes);
            fill(xe, (size_t)(2 * len), dtypes[r->xd]);
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
            char *got = run(r->fn, xe, ebytes, &a, xe);
            snprintf(what, sizeof what, "%s len %lld exact rows", r->name, (long long)len);
            fail_on_difference(what, want, got, xe, ebytes, xs);
            free(want);
            free(got);
            /* out of place into exact-size rows too */
            const struct y_layout yl = {ebytes, 0, len};
            char *y_init = malloc(ebytes);
            fill(y_init, (size_t)(2 * len), dtypes[r->xd]);
            want = run_apart(ref, xe, ebytes, &a, xe, y_init, yl, xs);
            got = run_apart(r->fn, xe, ebytes, &a, xe, y_init, yl, xs);
            snprintf(what, sizeof what, "%s len %lld exact rows out of place", r->name,
                     (long long)len);
            fail_on_difference(what, want, got, y_init, ebytes, xs);
            free(want);
            free(got);
            free(y_init);
            free(xe);
        }
        free(x);
        free(c);
        free(s);
    }
    free(scratch);
}

/* Each row is in the table of one kernel set, at its own index, and the tables hold
 * nothing else. */
static void test_tables_are_the_list(void **state) {
    (void)state;
    for (size_t i = 0; i < ROT_ROW_COUNT; i++)
        if (!set_of(&rot_rows[i])) {
            print_error("%s is in no table at its index\n", rot_rows[i].name);
            fail();
        }
    size_t n, entries = 0;
    const struct rk_kernel_set *sets = rk_kernel_sets(&n);
    for (size_t i = 0; i < n; i++)
        for (int m = 0; m < RK_ROT_MODE_COUNT; m++)
            for (int d = 0; d < RK_DIRECTION_COUNT; d++)
                for (int x = 0; x < RK_KDT_COUNT; x++)
                    for (int c = 0; c < RK_KDT_COUNT; c++)
                        entries += (*sets[i].rot)[m][d][x][c] != NULL;
    assert_int_equal(entries, ROT_ROW_COUNT);
}

static void test_scalar_is_complete(void **state) {
    (void)state;
    for (int m = 0; m < RK_ROT_MODE_COUNT; m++)
        for (int d = 0; d < RK_DIRECTION_COUNT; d++) {
            for (int x = 0; x < RK_KDT_COUNT; x++)
                for (int c = 0; c < RK_KDT_COUNT; c++)
                    /* float64 pairs with float64 only (the AVX2 set has it too; the
                     * AVX-512 sets fall back to AVX2's) */
                    assert_true((rk_rot_table_scalar[m][d][x][c] != NULL) ==
                                ((x == RK_KDT_F64) == (c == RK_KDT_F64)));
        }
}

/* Every SIMD kernel of the list whose set this CPU supports, whatever the dispatch would
 * pick. */
static void test_simd_kernels_match_scalar(void **state) {
    (void)state;
    int tested = 0, f64_tested = 0, avx2_tested = 0;
    for (size_t i = 0; i < ROT_ROW_COUNT; i++) {
        const struct rk_kernel_set *set = set_of(&rot_rows[i]);
        if (set->isa == ROPEKIT_ISA_SCALAR || !rk_kernel_set_supported(set))
            continue;
        compare_kernel(&rot_rows[i]);
        tested++;
        f64_tested += rot_rows[i].xd == RK_KDT_F64;
        avx2_tested += set->isa == ROPEKIT_ISA_AVX2;
    }
    /* the AVX2 set must have float64 kernels */
    if (avx2_tested)
        assert_true(f64_tested > 0);
    if (tested == 0)
        skip();
}

/* A scalar kernel given element strides equals the same kernel on packed data, in place
 * and out of place. */
static void test_strided_equals_packed(void **state) {
    (void)state;
    float scratch[64];
    for (int mode = 0; mode < RK_ROT_MODE_COUNT; mode++)
        for (int dir = 0; dir < RK_DIRECTION_COUNT; dir++) {
            const int64_t len = 16;
            float packed[16], strided[48], c[16], s[16];
            for (int i = 0; i < len; i++) {
                packed[i] = strided[3 * i] = (float)(i + 1) * 0.37f;
                strided[3 * i + 1] = strided[3 * i + 2] = -1.0f;
                c[i] = 0.5f + (float)i * 0.01f;
                s[i] = 0.25f - (float)i * 0.02f;
            }
            float apart[32], source[48];
            memcpy(source, strided, sizeof source);
            for (int i = 0; i < 32; i++)
                apart[i] = -2.0f;
            struct rk_rot_rows a = {.x = (char *)packed,
                                    .y = (char *)packed,
                                    .cos = (char *)c,
                                    .sin = (char *)s,
                                    .rows = 1,
                                    .len = len,
                                    .x_col = 4,
                                    .y_col = 4,
                                    .c_col = 4,
                                    .s_col = 4,
                                    .scratch = scratch};
            rk_rot_table_scalar[mode][dir][RK_KDT_F32][RK_KDT_F32](&a);
            /* strided x to strided y (a stride of 2 elements) */
            a.x = (char *)source;
            a.x_col = 12;
            a.y = (char *)apart;
            a.y_col = 8;
            rk_rot_table_scalar[mode][dir][RK_KDT_F32][RK_KDT_F32](&a);
            /* strided in place */
            a.x = a.y = (char *)strided;
            a.x_col = a.y_col = 12;
            rk_rot_table_scalar[mode][dir][RK_KDT_F32][RK_KDT_F32](&a);
            for (int i = 0; i < len; i++) {
                assert_memory_equal(&packed[i], &strided[3 * i], 4);
                assert_true(strided[3 * i + 1] == -1.0f && strided[3 * i + 2] == -1.0f);
                assert_memory_equal(&packed[i], &apart[2 * i], 4);
                assert_true(apart[2 * i + 1] == -2.0f);
                assert_true(source[3 * i] == (float)(i + 1) * 0.37f);
            }
        }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_are_the_list),
        cmocka_unit_test(test_scalar_is_complete),
        cmocka_unit_test(test_strided_equals_packed),
        cmocka_unit_test(test_simd_kernels_match_scalar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
