/* ISA names and the ISA cap (ropekit.h, "Instruction sets"): every name, "?" for other
 * values; ROPEKIT_MAX_ISA read at the first use of the cap; ropekit_set_max_isa's
 * refusal (its message, the cap kept) and the active ISA as min(detected, cap). */
#define _POSIX_C_SOURCE 200809L /* setenv */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ropekit/ropekit.h"

static ropekit_isa min_isa(ropekit_isa a, ropekit_isa b) {
    return a < b ? a : b;
}

static void test_isa_names(void **state) {
    (void)state;
    assert_string_equal(ropekit_isa_name(ROPEKIT_ISA_SCALAR), "scalar");
    assert_string_equal(ropekit_isa_name(ROPEKIT_ISA_AVX2), "avx2");
    assert_string_equal(ropekit_isa_name(ROPEKIT_ISA_AVX512), "avx512");
    assert_string_equal(ropekit_isa_name((ropekit_isa)3), "?");
    assert_string_equal(ropekit_isa_name((ropekit_isa)-1), "?");
    assert_string_equal(ropekit_isa_name((ropekit_isa)1000), "?");
    assert_string_equal(ropekit_isa_name(ropekit_isa_detected()),
                        ropekit_isa_name(ropekit_isa_detected()));
    assert_true(ropekit_isa_detected() >= ROPEKIT_ISA_SCALAR &&
                ropekit_isa_detected() <= ROPEKIT_ISA_AVX512);
}

/* main sets ROPEKIT_MAX_ISA=avx2 before anything reads the cap. */
static void test_environment_then_setter(void **state) {
    (void)state;
    ropekit_isa detected = ropekit_isa_detected();
    assert_int_equal(ropekit_get_active_isa(), min_isa(detected, ROPEKIT_ISA_AVX2));
    setenv("ROPEKIT_MAX_ISA", "scalar", 1); /* read once: no effect now */
    assert_int_equal(ropekit_get_active_isa(), min_isa(detected, ROPEKIT_ISA_AVX2));

    assert_int_equal(ropekit_set_max_isa(ROPEKIT_ISA_SCALAR), ROPEKIT_OK);
    assert_int_equal(ropekit_get_active_isa(), ROPEKIT_ISA_SCALAR);
    assert_int_equal(ropekit_set_max_isa((ropekit_isa)3), ROPEKIT_INVALID_ARGUMENT);
    assert_string_equal(ropekit_last_error(),
                        "ropekit_set_max_isa: isa = 3: must be 0 (scalar), 1 (avx2) or 2 (avx512)");
    assert_int_equal(ropekit_set_max_isa((ropekit_isa)-1), ROPEKIT_INVALID_ARGUMENT);
    assert_string_equal(ropekit_last_error(), "ropekit_set_max_isa: isa = -1: must be 0 (scalar), "
                                              "1 (avx2) or 2 (avx512)");
    assert_int_equal(ropekit_get_active_isa(), ROPEKIT_ISA_SCALAR);
    assert_int_equal(ropekit_set_max_isa(ROPEKIT_ISA_AVX512), ROPEKIT_OK);
    assert_int_equal(ropekit_get_active_isa(), detected);
    assert_int_equal(ropekit_set_max_isa(ROPEKIT_ISA_AVX2), ROPEKIT_OK);
    assert_int_equal(ropekit_get_active_isa(), min_isa(detected, ROPEKIT_ISA_AVX2));
}

int main(int argc, char **argv) {
    /* argv[1], when given, is the value ROPEKIT_MAX_ISA starts with (tests a spelling the
     * cap does not know: the cap is then avx512) */
    const char *start = argc > 1 ? argv[1] : "avx2";
    setenv("ROPEKIT_MAX_ISA", start, 1);
    if (argc > 1) {
        ropekit_isa want = strcmp(start, "scalar") == 0 ? ROPEKIT_ISA_SCALAR
                           : strcmp(start, "avx2") == 0 ? ROPEKIT_ISA_AVX2
                                                        : ROPEKIT_ISA_AVX512;
        ropekit_isa got = ropekit_get_active_isa();
        return got == min_isa(ropekit_isa_detected(), want) ? 0 : 1;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_isa_names),
        cmocka_unit_test(test_environment_then_setter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
