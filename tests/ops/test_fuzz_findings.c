/* One test per defect the fuzz targets (tests/fuzz) found in the native API, named for
 * the defect; its input is also kept in tests/fuzz/regressions/<target>/. */
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>

#include <cmocka.h>

#include "ropekit/ropekit.h"

/* An empty table (0 positions) with a huge rotary_dim allocated rotary_dim / 2 doubles of
 * frequencies (8 GiB for 2^31) before finding there was nothing to write. */
static void empty_table_allocates_nothing(void **state) {
    (void)state;
    uint8_t sentinel[4] = {1, 2, 3, 4};
    const int64_t huge = (int64_t)1 << 40;
    assert_int_equal(ropekit_cos_sin_cache_build(sentinel, ROPEKIT_F32, 0, huge, 10000.0, NULL),
                     ROPEKIT_OK);
    assert_int_equal(ropekit_rotary_coeffs_build(sentinel, sentinel, ROPEKIT_BF16, 0, huge,
                                                 ROPEKIT_ROTARY_HALF, 10000.0, NULL),
                     ROPEKIT_OK);
    const uint8_t want[4] = {1, 2, 3, 4};
    assert_memory_equal(sentinel, want, sizeof want);
}

/* YaRN parameters that pass one by one but give NaN or overflowing tables were accepted:
 * an extrapolation_factor of NaN gave a table of NaN with status OK. Now each is refused
 * before anything is written. */
static void yarn_non_finite_parameters_refused(void **state) {
    (void)state;
    float table[4 * 8];
    memset(table, 0x5a, sizeof table);
    float before[4 * 8];
    memcpy(before, table, sizeof table);
    ropekit_rope_scaling sc;
    ropekit_rope_scaling_defaults(&sc, ROPEKIT_SCALING_YARN);
    sc.extrapolation_factor = NAN;
    assert_int_equal(ropekit_cos_sin_cache_build(table, ROPEKIT_F32, 4, 8, 10000.0, &sc),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "extrapolation_factor"));
    ropekit_rope_scaling_defaults(&sc, ROPEKIT_SCALING_YARN);
    sc.attn_factor = 1e300; /* finite, but no float holds the values */
    assert_int_equal(ropekit_cos_sin_cache_build(table, ROPEKIT_F32, 4, 8, 10000.0, &sc),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "larger than the largest"));
    ropekit_rope_scaling_defaults(&sc, ROPEKIT_SCALING_LINEAR);
    sc.factor = 5e-324; /* positions / factor are infinite */
    assert_int_equal(ropekit_cos_sin_cache_build(table, ROPEKIT_F32, 4, 8, 10000.0, &sc),
                     ROPEKIT_INVALID_ARGUMENT);
    assert_non_null(strstr(ropekit_last_error(), "not finite"));
    assert_memory_equal(table, before, sizeof table);
    double inv[4] = {7, 7, 7, 7};
    ropekit_rope_scaling_defaults(&sc, ROPEKIT_SCALING_YARN);
    sc.beta_fast = INFINITY;
    assert_int_equal(ropekit_rope_inv_freq(inv, 8, 10000.0, 4, &sc), ROPEKIT_INVALID_ARGUMENT);
    assert_true(inv[0] == 7 && inv[3] == 7);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_table_allocates_nothing),
        cmocka_unit_test(yarn_non_finite_parameters_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
