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

/* An empty x: the out-of-place plan skipped the step that records its views, so its own
 * execute refused it ("made by ropekit_partial_rotary_plan_create") and the in-place
 * execute took it. */
static void empty_out_of_place_plan_is_out_of_place(void **state) {
    (void)state;
    float x[4] = {0}, cs[4] = {0}, out[4] = {0};
    int64_t xs[2] = {0, 4}, css[1] = {4};
    ropekit_tensor X = ropekit_tensor_make(x, ROPEKIT_F32, 2, xs, NULL);
    ropekit_tensor C = ropekit_tensor_make(cs, ROPEKIT_F32, 1, css, NULL);
    ropekit_tensor O = ropekit_tensor_make(out, ROPEKIT_F32, 2, xs, NULL);
    ropekit_plan *plan = NULL;
    assert_int_equal(ropekit_partial_rotary_out_plan_create(&X, &C, &C, &O, ROPEKIT_ROTARY_HALF, 0,
                                                            4, ROPEKIT_FORWARD, &plan),
                     ROPEKIT_OK);
    assert_int_equal(ropekit_partial_rotary_out_execute(plan, x, cs, cs, out), ROPEKIT_OK);
    assert_int_not_equal(ropekit_partial_rotary_execute(plan, x, cs, cs), ROPEKIT_OK);
    ropekit_plan_destroy(plan);
}

/* An empty dy with x given: dcos over cos was accepted (the overlap check read the
 * geometry of views the no-op exit had not recorded) and zeros were written over cos. */
static void empty_dy_dcos_over_cos_refused(void **state) {
    (void)state;
    float dy[4] = {0}, x[4] = {0}, dx[4] = {0}, cs[4] = {1, 2, 3, 4}, sn[4] = {5, 6, 7, 8};
    float dsin[4] = {0};
    int64_t ds[2] = {0, 4}, css[2] = {1, 4};
    ropekit_tensor DY = ropekit_tensor_make(dy, ROPEKIT_F32, 2, ds, NULL);
    ropekit_tensor X = ropekit_tensor_make(x, ROPEKIT_F32, 2, ds, NULL);
    ropekit_tensor DX = ropekit_tensor_make(dx, ROPEKIT_F32, 2, ds, NULL);
    ropekit_tensor C = ropekit_tensor_make(cs, ROPEKIT_F32, 2, css, NULL);
    ropekit_tensor S = ropekit_tensor_make(sn, ROPEKIT_F32, 2, css, NULL);
    ropekit_tensor DC = ropekit_tensor_make(cs, ROPEKIT_F32, 2, css, NULL); /* on cos */
    ropekit_tensor DS = ropekit_tensor_make(dsin, ROPEKIT_F32, 2, css, NULL);
    assert_int_not_equal(
        ropekit_partial_rotary_grad(&DY, &C, &S, &X, &DX, &DC, &DS, ROPEKIT_ROTARY_HALF, 0, 4),
        ROPEKIT_OK);
    const float want[4] = {1, 2, 3, 4};
    assert_memory_equal(cs, want, sizeof want);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(empty_table_allocates_nothing),
        cmocka_unit_test(yarn_non_finite_parameters_refused),
        cmocka_unit_test(empty_out_of_place_plan_is_out_of_place),
        cmocka_unit_test(empty_dy_dcos_over_cos_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
