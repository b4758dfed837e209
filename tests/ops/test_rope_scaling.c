/* The scalars of rope_scaling.c that the tables do not hold by themselves:
 * ropekit_rope_softmax_scale (DeepSeek's softmax factor) and ropekit_rope_table_magnitude
 * (the magnitude of a table row, LongRoPE's per-set mscales included), against their
 * formulas and the builders' own tables; bad input is refused with nothing written. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ropekit/ropekit.h"

#define UNTOUCHED (-12345.0)

static ropekit_rope_scaling scaling_of(ropekit_rope_scaling_type type, double factor) {
    ropekit_rope_scaling s;
    ropekit_rope_scaling_defaults(&s, type);
    s.factor = factor;
    return s;
}

/* DeepSeek-V2's yarn_get_mscale(scale, mscale_all_dim) squared. */
static double deepseek_factor(double scale, double m) {
    double v = scale <= 1 ? 1.0 : 0.1 * m * log(scale) + 1.0;
    return v * v;
}

static void softmax_scale_of_yarn_types(void **state) {
    (void)state;
    const ropekit_rope_scaling_type types[2] = {ROPEKIT_SCALING_YARN,
                                                ROPEKIT_SCALING_DEEPSEEK_YARN};
    for (int t = 0; t < 2; t++) {
        ropekit_rope_scaling s = scaling_of(types[t], 40.0);
        s.original_max_position = 4096;
        s.mscale = 0.707;
        s.mscale_all_dim = 0.707;
        double got = UNTOUCHED;
        assert_int_equal(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_OK);
        assert_true(got == deepseek_factor(40.0, 0.707));
        s.mscale_all_dim = 1.0;
        assert_int_equal(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_OK);
        assert_true(got == deepseek_factor(40.0, 1.0));
        s.mscale_all_dim = 0.0; /* mscale(f, 0) = 1 */
        assert_int_equal(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_OK);
        assert_true(got == 1.0);
        s.mscale_all_dim = 1.0;
        s.factor = 1.0; /* no extension: 1 */
        assert_int_equal(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_OK);
        assert_true(got == 1.0);
    }
}

static void softmax_scale_is_one_for_other_types(void **state) {
    (void)state;
    double got = UNTOUCHED;
    assert_int_equal(ropekit_rope_softmax_scale(&got, NULL), ROPEKIT_OK);
    assert_true(got == 1.0);
    const ropekit_rope_scaling_type types[] = {
        ROPEKIT_SCALING_NONE,    ROPEKIT_SCALING_LINEAR, ROPEKIT_SCALING_DYNAMIC_NTK,
        ROPEKIT_SCALING_NTK,     ROPEKIT_SCALING_LLAMA3, ROPEKIT_SCALING_DYNAMIC_NTK_ALPHA,
        ROPEKIT_SCALING_LONGROPE};
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        ropekit_rope_scaling s = scaling_of(types[t], 4.0);
        s.mscale_all_dim = 1.0; /* read by the YaRN types only */
        got = UNTOUCHED;
        assert_int_equal(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_OK);
        assert_true(got == 1.0);
    }
}

static void expect_refused(ropekit_status st, ropekit_status want, double value, const char *api,
                           const char *piece) {
    assert_int_equal(st, want);
    assert_true(value == UNTOUCHED);
    assert_true(strncmp(ropekit_last_error(), api, strlen(api)) == 0);
    assert_non_null(strstr(ropekit_last_error(), piece));
}

static void softmax_scale_refuses_bad_input(void **state) {
    (void)state;
    static const char api[] = "ropekit_rope_softmax_scale: ";
    ropekit_rope_scaling s = scaling_of(ROPEKIT_SCALING_YARN, 4.0);
    double got = UNTOUCHED;
    assert_int_equal(ropekit_rope_softmax_scale(NULL, &s), ROPEKIT_NULL_POINTER);
    assert_non_null(strstr(ropekit_last_error(), "softmax_scale = NULL"));
    s.type = (ropekit_rope_scaling_type)99;
    expect_refused(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_INVALID_ARGUMENT, got, api,
                   "scaling type = 99: unknown");
    s = scaling_of(ROPEKIT_SCALING_DEEPSEEK_YARN, 0.0);
    expect_refused(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_INVALID_ARGUMENT, got, api,
                   "scaling factor = 0");
    s = scaling_of(ROPEKIT_SCALING_YARN, 4.0);
    s.mscale_all_dim = -1.0;
    expect_refused(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_INVALID_ARGUMENT, got, api,
                   "mscale_all_dim = -1");
    s.mscale_all_dim = NAN;
    expect_refused(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_INVALID_ARGUMENT, got, api,
                   "mscale_all_dim = nan");
    s = scaling_of(ROPEKIT_SCALING_YARN, 4.0);
    s.beta_fast = 0.0; /* a YaRN field the builders refuse */
    expect_refused(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_INVALID_ARGUMENT, got, api,
                   "beta_fast = 0");
    s = scaling_of(ROPEKIT_SCALING_YARN, 1e300);
    s.mscale_all_dim = 1e300; /* finite fields, no finite square */
    expect_refused(ropekit_rope_softmax_scale(&got, &s), ROPEKIT_INVALID_ARGUMENT, got, api,
                   "no finite factor");
}

enum { R = 8, H = R / 2, ORIGINAL = 4 };
static const double short_factor[H] = {1.0, 1.5, 2.0, 2.5}, long_factor[H] = {3, 4, 5, 6};

static ropekit_rope_scaling longrope(double short_mscale, double long_mscale, int32_t stacked) {
    ropekit_rope_scaling s = scaling_of(ROPEKIT_SCALING_LONGROPE, 8.0);
    s.original_max_position = ORIGINAL;
    s.short_factor = short_factor;
    s.long_factor = long_factor;
    s.short_factor_count = s.long_factor_count = H;
    s.short_mscale = short_mscale;
    s.long_mscale = long_mscale;
    s.longrope_stacked = stacked;
    return s;
}

/* Row `row` of a float64 cache of `rows` rows, at position 0 (row 0, or the first long
 * row of a stacked table): its cos, cos(0) times the magnitude, is the magnitude. */
static double built_magnitude(const ropekit_rope_scaling *s, int64_t rows, int64_t row) {
    double cache[2 * ORIGINAL * R];
    assert_true(rows * R <= (int64_t)(sizeof cache / sizeof cache[0]));
    assert_int_equal(ropekit_cos_sin_cache_build(cache, ROPEKIT_F64, rows, R, 10000.0, s),
                     ROPEKIT_OK);
    return cache[row * R];
}

static void table_magnitude_matches_the_builders(void **state) {
    (void)state;
    const ropekit_rope_scaling sets[] = {longrope(0.9, 1.19, 0), longrope(0.0, 1.19, 0),
                                         longrope(0.9, 0.0, 0), longrope(0.0, 0.0, 0)};
    for (size_t k = 0; k < sizeof sets / sizeof sets[0]; k++) {
        double derived;
        assert_int_equal(ropekit_rope_attention_scaling(&derived, R, &sets[k]), ROPEKIT_OK);
        for (int64_t rows = 1; rows <= 2 * ORIGINAL; rows++) {
            const bool long_set = rows > ORIGINAL;
            const double set_mscale = long_set ? sets[k].long_mscale : sets[k].short_mscale;
            double got = UNTOUCHED;
            assert_int_equal(ropekit_rope_table_magnitude(&got, R, rows, 0, &sets[k]), ROPEKIT_OK);
            assert_true(got == (set_mscale > 0 ? set_mscale : derived));
            assert_true(got == built_magnitude(&sets[k], rows, 0));
            double last = UNTOUCHED; /* every row of a one-set table alike */
            assert_int_equal(ropekit_rope_table_magnitude(&last, R, rows, rows - 1, &sets[k]),
                             ROPEKIT_OK);
            assert_true(last == got);
        }
    }
    /* stacked: rows [0, original) short, the rest long (row `original` is position 0) */
    const ropekit_rope_scaling st = longrope(0.9, 1.19, 1);
    for (int64_t row = 0; row < 2 * ORIGINAL; row++) {
        double got = UNTOUCHED;
        assert_int_equal(ropekit_rope_table_magnitude(&got, R, 2 * ORIGINAL, row, &st), ROPEKIT_OK);
        assert_true(got == (row < ORIGINAL ? 0.9 : 1.19));
    }
    assert_true(built_magnitude(&st, 2 * ORIGINAL, 0) == 0.9);
    assert_true(built_magnitude(&st, 2 * ORIGINAL, ORIGINAL) == 1.19);
    /* other types: ropekit_rope_attention_scaling's value (YaRN's mscale here) */
    ropekit_rope_scaling yarn = scaling_of(ROPEKIT_SCALING_YARN, 16.0);
    yarn.original_max_position = 4;
    double want, got = UNTOUCHED;
    assert_int_equal(ropekit_rope_attention_scaling(&want, R, &yarn), ROPEKIT_OK);
    assert_int_equal(ropekit_rope_table_magnitude(&got, R, 64, 5, &yarn), ROPEKIT_OK);
    assert_true(got == want && want > 1.0);
    assert_int_equal(ropekit_rope_table_magnitude(&got, R, 64, 5, NULL), ROPEKIT_OK);
    assert_true(got == 1.0);
}

static void table_magnitude_refuses_bad_input(void **state) {
    (void)state;
    static const char api[] = "ropekit_rope_table_magnitude: ";
    ropekit_rope_scaling s = longrope(0.9, 1.19, 0);
    double got = UNTOUCHED;
    assert_int_equal(ropekit_rope_table_magnitude(NULL, R, 8, 0, &s), ROPEKIT_NULL_POINTER);
    assert_non_null(strstr(ropekit_last_error(), "magnitude = NULL"));
    expect_refused(ropekit_rope_table_magnitude(&got, 7, 8, 0, &s), ROPEKIT_INVALID_ARGUMENT, got,
                   api, "rotary_dim = 7: must be even, >= 2");
    expect_refused(ropekit_rope_table_magnitude(&got, 0, 8, 0, &s), ROPEKIT_INVALID_ARGUMENT, got,
                   api, "rotary_dim = 0");
    expect_refused(ropekit_rope_table_magnitude(&got, R, 8, 8, &s), ROPEKIT_INVALID_ARGUMENT, got,
                   api, "row = 8: must be in [0, max_positions = 8)");
    expect_refused(ropekit_rope_table_magnitude(&got, R, 8, -1, &s), ROPEKIT_INVALID_ARGUMENT, got,
                   api, "row = -1");
    expect_refused(ropekit_rope_table_magnitude(&got, R, 0, 0, NULL), ROPEKIT_INVALID_ARGUMENT, got,
                   api, "max_positions = 0");
    expect_refused(ropekit_rope_table_magnitude(&got, 2 * R, 8, 0, &s), ROPEKIT_INVALID_ARGUMENT,
                   got, api, "short_factor_count = 4: must be rotary_dim / 2 = 8");
    s.long_mscale = -1.0;
    expect_refused(ropekit_rope_table_magnitude(&got, R, 8, 0, &s), ROPEKIT_INVALID_ARGUMENT, got,
                   api, "long_mscale = -1");
    s = longrope(0.9, 1.19, 0);
    s.long_factor = NULL;
    expect_refused(ropekit_rope_table_magnitude(&got, R, 8, 0, &s), ROPEKIT_NULL_POINTER, got, api,
                   "long_factor = NULL");
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(softmax_scale_of_yarn_types),
        cmocka_unit_test(softmax_scale_is_one_for_other_types),
        cmocka_unit_test(softmax_scale_refuses_bad_input),
        cmocka_unit_test(table_magnitude_matches_the_builders),
        cmocka_unit_test(table_magnitude_refuses_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
