/* aclFloat16ToFloat and aclFloatToFloat16 (SPEC §2.2), through the shared library as a
 * CANN program calls them: every one of the 65536 fp16 values widens to the value its
 * fields give and narrows back to itself; every float at, just below and just above each
 * midpoint between neighbouring fp16 values rounds to the nearer one, ties to the even
 * one; overflow, subnormals, signed zeros and NaNs; and both agree with ropekit's own
 * conversions, bit for bit, on all of these (one converter behind both). The reference
 * here is built from the binary16 fields with double arithmetic, not from the library. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <math.h>

#include "acl/acl_base.h"
#include "ropekit/ropekit.h"

static uint32_t bits_of(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static float float_of(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* The value of a finite fp16 bit pattern, from its fields. */
static double half_value(uint16_t h) {
    int e = (h >> 10) & 0x1f, m = h & 0x3ff;
    double v = e ? ldexp(1024 + m, e - 25) : ldexp(m, -24);
    return (h & 0x8000u) ? -v : v;
}

static void test_every_half_widens_exactly_and_round_trips(void **state) {
    (void)state;
    for (uint32_t i = 0; i < 0x10000u; i++) {
        aclFloat16 h = (aclFloat16)i;
        float f = aclFloat16ToFloat(h);
        assert_int_equal(bits_of(f), bits_of(ropekit_f16_to_f32(h)));
        if ((h & 0x7c00u) == 0x7c00u) {
            if (h & 0x3ffu) { /* NaN: quiet, sign kept, payload at the top */
                assert_true(isnan(f));
                assert_int_equal(bits_of(f),
                                 (h & 0x8000u) << 16 | 0x7fc00000u | (h & 0x3ffu) << 13);
                aclFloat16 back = aclFloatToFloat16(f);
                assert_int_equal(back, h | 0x200u);
            } else {
                assert_true(isinf(f));
                assert_int_equal(!!signbit(f), !!(h & 0x8000u));
                assert_int_equal(aclFloatToFloat16(f), h);
            }
            continue;
        }
        double want = half_value(h);
        if ((double)f != want || !!signbit(f) != !!(h & 0x8000u)) {
            print_error("fp16 %04x widened to %a, expected %a\n", h, (double)f, want);
            fail();
        }
        assert_int_equal(aclFloatToFloat16(f), h);
    }
}

/* f lies between the finite non-negative fp16 values lo and lo + 1: check it rounds to the
 * nearer, the even one at the midpoint; beyond 65504 the upper neighbour is inf, reached
 * at and past 65520 (the midpoint to the next binade's first value, 2^16). */
static void check_between(uint16_t lo, float f, int negate) {
    uint16_t hi = (uint16_t)(lo + 1);
    double a = half_value(lo);
    double b = (hi == 0x7c00u) ? 65536.0 : half_value(hi);
    double x = (double)f, mid = (a + b) / 2;
    uint16_t want = x < mid ? lo : x > mid ? hi : (lo & 1u) ? hi : lo;
    if (negate) {
        want |= 0x8000u;
        f = -f;
    }
    aclFloat16 got = aclFloatToFloat16(f);
    if (got != want) {
        print_error("float %a -> fp16 %04x, expected %04x\n", (double)f, got, want);
        fail();
    }
    assert_int_equal(got, ropekit_f32_to_f16(f));
}

static void test_every_midpoint_rounds_to_nearest_even(void **state) {
    (void)state;
    for (uint16_t lo = 0; lo < 0x7c00u; lo++) {
        double a = half_value(lo);
        double b = (lo + 1 == 0x7c00) ? 65536.0 : half_value((uint16_t)(lo + 1));
        float mid = (float)((a + b) / 2); /* exact: fp16 midpoints fit in fp32 */
        assert_true((double)mid == (a + b) / 2);
        float around[] = {mid,      nextafterf(mid, 0.0f),          nextafterf(mid, INFINITY),
                          (float)a, nextafterf((float)a, INFINITY), nextafterf((float)b, 0.0f)};
        for (size_t k = 0; k < sizeof around / sizeof around[0]; k++)
            for (int negate = 0; negate < 2; negate++)
                check_between(lo, around[k], negate);
    }
}

static void test_edges(void **state) {
    (void)state;
    static const struct {
        float in;
        aclFloat16 want;
    } cases[] = {
        {0.0f, 0x0000},
        {-0.0f, 0x8000},
        {1.0f, 0x3c00},
        {-2.0f, 0xc000},
        {65504.0f, 0x7bff},        /* largest finite */
        {65519.99609375f, 0x7bff}, /* just below the overflow midpoint */
        {65520.0f, 0x7c00},        /* the midpoint: ties to even, which is inf */
        {-65520.0f, 0xfc00},
        {1e10f, 0x7c00},
        {0x1p-14f, 0x0400},        /* smallest normal */
        {0x1p-24f, 0x0001},        /* smallest subnormal */
        {0x1p-25f, 0x0000},        /* half of it: tie to even zero */
        {0x1.000002p-25f, 0x0001}, /* just above: rounds up */
        {-0x1p-25f, 0x8000},       /* signed zero */
        {0x1.8p-24f, 0x0002},      /* 1.5 ulp: tie to even 2 */
        {0x1.4p-23f, 0x0002},      /* 2.5 ulp: tie to even 2 */
        {0x1p-149f, 0x0000},       /* fp32 subnormals are below fp16's range */
        {-0x1p-130f, 0x8000},
        {1.00048828125f, 0x3c00}, /* 1 + 2^-11: tie to even 1 */
        {1.00146484375f, 0x3c02}, /* 1 + 3*2^-11: tie to even 1 + 2^-9 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        aclFloat16 got = aclFloatToFloat16(cases[i].in);
        if (got != cases[i].want) {
            print_error("case %zu: %a -> %04x, expected %04x\n", i, (double)cases[i].in, got,
                        cases[i].want);
            fail();
        }
    }
    assert_int_equal(aclFloatToFloat16(INFINITY), 0x7c00);
    assert_int_equal(aclFloatToFloat16(-INFINITY), 0xfc00);
    /* NaNs: quiet, sign and the top 9 payload bits kept, never an infinity. */
    static const uint32_t nans[] = {0x7fc00000u, 0xffc00000u, 0x7f800001u, 0xff800001u,
                                    0x7fbfe000u, 0x7fffffffu, 0x7f802000u};
    for (size_t i = 0; i < sizeof nans / sizeof nans[0]; i++) {
        aclFloat16 got = aclFloatToFloat16(float_of(nans[i]));
        uint16_t want = (uint16_t)((nans[i] >> 16 & 0x8000u) | 0x7e00u | (nans[i] >> 13 & 0x1ffu));
        assert_int_equal(got, want);
        assert_int_equal(got, ropekit_f32_to_f16(float_of(nans[i])));
    }
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_half_widens_exactly_and_round_trips),
        cmocka_unit_test(test_every_midpoint_rounds_to_nearest_even),
        cmocka_unit_test(test_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
