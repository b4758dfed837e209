/* The public fp16/bf16 conversions (ropekit_f32_to_bf16 and friends) give exactly what the
 * operators store and read: a value converted by the helper equals the operator's output
 * for that value, on every bit pattern class (ties, subnormals, overflow, inf, NaN), and
 * widening equals what the kernels read. The operator does the conversion here through a
 * rotation by cos = value, sin = 0 of the vector (1, 0) (out[0] = 1 * value - 0 * 0).
 * A NaN's sign and payload after that arithmetic are the CPU's, not the conversion's:
 * there both sides must be NaN, and the helper's a quiet one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "ropekit/ropekit.h"

#define COUNT 4096

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint32_t rng32(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Float values of every class: random patterns, halfway cases of both formats, values
 * around their largest finite and smallest subnormal, zeros, infinities and NaNs. */
static void fill_values(float *v) {
    static const uint32_t edges[] = {
        0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00001u, 0x7f800001u,
        0x477fe000u, 0x477ff000u, 0x477fefffu, 0x7f7f8000u, 0x7f7fffffu, 0x33800000u, 0x33000000u,
        0x00000001u, 0x3f808000u, 0x3f818000u, 0x3f800800u, 0x3f801800u, 0x387fc000u};
    const size_t n_edges = sizeof edges / sizeof edges[0];
    for (size_t i = 0; i < COUNT; i++) {
        uint32_t u = i < n_edges ? edges[i] : rng32() << 1 ^ rng32();
        if (i >= n_edges && i % 3 == 0) /* an exact tie of bf16 or fp16 */
            u = (u & 0xffff0000u) | (i % 2 ? 0x8000u : 0x1000u);
        v[i] = from_bits(u);
    }
}

/* out[i] = 1 * value[i] - 0 * 0 rounded to x_dtype by the operator. */
static void rotate_into(void *x, ropekit_dtype x_dtype, const float *values) {
    float *cos = calloc(2 * COUNT, sizeof *cos), *sin = calloc(2 * COUNT, sizeof *sin);
    assert_non_null(cos);
    assert_non_null(sin);
    for (size_t i = 0; i < COUNT; i++)
        cos[2 * i] = cos[2 * i + 1] = values[i];
    int64_t shape[4] = {COUNT, 1, 1, 2};
    ropekit_tensor xt = ropekit_tensor_make(x, x_dtype, 4, shape, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cos, ROPEKIT_F32, 4, shape, NULL);
    ropekit_tensor st = ropekit_tensor_make(sin, ROPEKIT_F32, 4, shape, NULL);
    assert_int_equal(
        ropekit_partial_rotary(&xt, &ct, &st, ROPEKIT_ROTARY_INTERLEAVE, 0, 2, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    free(cos);
    free(sin);
}

static void check_narrowing(ropekit_dtype dtype, uint16_t (*one)(float),
                            void (*array)(uint16_t *, const float *, size_t)) {
    float *values = malloc(COUNT * sizeof *values);
    uint16_t *x = malloc(2 * COUNT * sizeof *x), *converted = malloc(COUNT * sizeof *converted);
    assert_non_null(values);
    assert_non_null(x);
    assert_non_null(converted);
    fill_values(values);
    uint16_t one_bits = dtype == ROPEKIT_BF16 ? 0x3f80u : 0x3c00u;
    for (size_t i = 0; i < COUNT; i++) {
        x[2 * i] = one_bits;
        x[2 * i + 1] = 0;
    }
    rotate_into(x, dtype, values);
    array(converted, values, COUNT);
    const uint16_t exp_mask = dtype == ROPEKIT_BF16 ? 0x7f80u : 0x7c00u;
    const uint16_t quiet = dtype == ROPEKIT_BF16 ? 0x0040u : 0x0200u;
    for (size_t i = 0; i < COUNT; i++) {
        uint16_t want = one(values[i]);
        if (values[i] != values[i]) {
            bool nans = (x[2 * i] & 0x7fffu) > exp_mask &&
                        (want & (exp_mask | quiet)) == (exp_mask | quiet);
            if (nans && converted[i] == want)
                continue;
        }
        if (x[2 * i] != want || converted[i] != want)
            fail_msg("%s of 0x%08x: operator 0x%04x, helper 0x%04x, array 0x%04x",
                     ropekit_dtype_name(dtype), (unsigned)bits_of(values[i]), (unsigned)x[2 * i],
                     (unsigned)one(values[i]), (unsigned)converted[i]);
    }
    free(values);
    free(x);
    free(converted);
}

static void f32_to_bf16_matches_the_operators(void **state) {
    (void)state;
    check_narrowing(ROPEKIT_BF16, ropekit_f32_to_bf16, ropekit_f32_to_bf16_array);
}

static void f32_to_f16_matches_the_operators(void **state) {
    (void)state;
    check_narrowing(ROPEKIT_F16, ropekit_f32_to_f16, ropekit_f32_to_f16_array);
}

/* Every 16-bit pattern widened by the helper equals what the operator reads: the f32
 * output of rotating (1, 0) by cos = the pattern (as cos dtype), sin = 0. */
static void check_widening(ropekit_dtype dtype, float (*one)(uint16_t),
                           void (*array)(float *, const uint16_t *, size_t)) {
    enum { N = 65536 };
    uint16_t *cos = calloc(2 * N, sizeof *cos), *sin = calloc(2 * N, sizeof *sin);
    uint16_t *patterns = malloc(N * sizeof *patterns);
    float *x = malloc(2 * N * sizeof *x), *widened = malloc(N * sizeof *widened);
    assert_true(cos && sin && patterns && x && widened);
    for (uint32_t i = 0; i < N; i++) {
        patterns[i] = (uint16_t)i;
        cos[2 * i] = cos[2 * i + 1] = (uint16_t)i;
        x[2 * i] = 1.0f;
        x[2 * i + 1] = 0.0f;
    }
    int64_t shape[4] = {N, 1, 1, 2};
    ropekit_tensor xt = ropekit_tensor_make(x, ROPEKIT_F32, 4, shape, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cos, dtype, 4, shape, NULL);
    ropekit_tensor st = ropekit_tensor_make(sin, dtype, 4, shape, NULL);
    assert_int_equal(
        ropekit_partial_rotary(&xt, &ct, &st, ROPEKIT_ROTARY_INTERLEAVE, 0, 2, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    array(widened, patterns, N);
    for (uint32_t i = 0; i < N; i++) {
        float h = one((uint16_t)i);
        uint32_t a = bits_of(x[2 * i]), b = bits_of(h), c = bits_of(widened[i]);
        if (h != h && x[2 * i] != x[2 * i] && c == b)
            continue;
        if (a != b || c != b)
            fail_msg("%s 0x%04x: operator 0x%08x, helper 0x%08x, array 0x%08x",
                     ropekit_dtype_name(dtype), (unsigned)i, (unsigned)a, (unsigned)b, (unsigned)c);
    }
    free(cos);
    free(sin);
    free(patterns);
    free(x);
    free(widened);
}

static void bf16_to_f32_matches_the_operators(void **state) {
    (void)state;
    check_widening(ROPEKIT_BF16, ropekit_bf16_to_f32, ropekit_bf16_to_f32_array);
}

static void f16_to_f32_matches_the_operators(void **state) {
    (void)state;
    check_widening(ROPEKIT_F16, ropekit_f16_to_f32, ropekit_f16_to_f32_array);
}

/* Values with known results: the rounding rule itself, independent of the kernels. */
static void known_values(void **state) {
    (void)state;
    assert_int_equal(ropekit_f32_to_bf16(1.0f), 0x3f80);
    assert_int_equal(ropekit_f32_to_bf16(from_bits(0x3f808000u)), 0x3f80); /* tie to even */
    assert_int_equal(ropekit_f32_to_bf16(from_bits(0x3f818000u)), 0x3f82); /* tie up to even */
    assert_int_equal(ropekit_f32_to_bf16(from_bits(0x7f7fffffu)), 0x7f80); /* overflow: inf */
    assert_int_equal(ropekit_f32_to_bf16(from_bits(0xff800001u)) & 0xffc0, 0xffc0); /* quiet */
    assert_int_equal(ropekit_f32_to_f16(65504.0f), 0x7bff);
    assert_int_equal(ropekit_f32_to_f16(65520.0f), 0x7c00);          /* halfway: inf */
    assert_int_equal(ropekit_f32_to_f16(from_bits(0x33800000u)), 1); /* 2^-24 */
    assert_int_equal(ropekit_f32_to_f16(from_bits(0x33000000u)), 0); /* 2^-25: tie to 0 */
    assert_true(ropekit_f16_to_f32(0x7e00) != ropekit_f16_to_f32(0x7e00));
    assert_true(ropekit_bf16_to_f32(0xc000) == -2.0f);
    assert_true(ropekit_f16_to_f32(0x0001) == from_bits(0x33800000u));
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(f32_to_bf16_matches_the_operators),
        cmocka_unit_test(f32_to_f16_matches_the_operators),
        cmocka_unit_test(bf16_to_f32_matches_the_operators),
        cmocka_unit_test(f16_to_f32_matches_the_operators),
        cmocka_unit_test(known_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
