/* fp16/bf16 <-> fp32 conversions (SPEC §1): exact widening, round-to-nearest-even
 * narrowing, overflow to inf, NaN kept quiet, subnormals kept. fp16 is checked against
 * the F16C instructions where the CPU has them, and everywhere against an independent
 * rounding written with double arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>

#include "core/dtype_convert.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define HAVE_X86 1
__attribute__((target("f16c"))) static uint16_t hw_f32_to_f16(float f) {
    return (uint16_t)_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT);
}
__attribute__((target("f16c"))) static float hw_f16_to_f32(uint16_t h) {
    return _cvtsh_ss(h);
}
#endif

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint32_t rng32(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* Independent RNE to a binary format with `man_bits` fraction bits, minimum normal
 * exponent `emin` and maximum finite value `max`, using double (exact for these). */
static double round_to_format(double v, int man_bits, int emin, double max) {
    if (isinf(v))
        return v;
    double a = fabs(v);
    int e;
    frexp(a, &e); /* a = f * 2^e, f in [0.5, 1) */
    int exp = e - 1;
    if (exp < emin)
        exp = emin;
    double quantum = ldexp(1.0, exp - man_bits);
    double q = a / quantum;
    double fl = floor(q);
    double r = q - fl;
    if (r > 0.5 || (r == 0.5 && fmod(fl, 2.0) == 1.0))
        fl += 1.0;
    double out = fl * quantum;
    /* values at or beyond max + half a quantum of the top binade round to inf */
    double top_quantum = ldexp(1.0, (int)floor(log2(max)) - man_bits);
    if (out > max || a >= max + top_quantum / 2)
        out = INFINITY;
    return copysign(out, v);
}

static void check_f16_one(uint32_t bits) {
    float f = rk_f32_from_bits(bits);
    uint16_t got = rk_f32_to_f16(f);
    if (isnan(f)) {
        assert_true((got & 0x7c00u) == 0x7c00u && (got & 0x3ffu) != 0);
        assert_true((got & 0x200u) != 0); /* quiet */
        assert_int_equal(got & 0x8000u, (bits >> 16) & 0x8000u);
        assert_int_equal(got & 0x1ffu, (bits >> 13) & 0x1ffu);
        return;
    }
    double want = round_to_format(f, 10, -14, 65504.0);
    float back = rk_f16_to_f32(got);
    if ((double)back != want || !!signbit(back) != !!signbit(want)) {
        print_error("f32 %08x -> f16 %04x (%.9g), expected %.9g\n", bits, got, back, want);
        fail();
    }
}

static void test_f16_narrowing_matches_reference(void **state) {
    (void)state;
    /* Structured: every top half, with the bits below the fp16 rounding point at the
     * interesting positions (zero, just above, just below a tie, tie, just above a tie). */
    static const uint32_t low13[] = {0x0000, 0x0001, 0x0fff, 0x1000, 0x1001, 0x1fff};
    for (uint32_t hi = 0; hi < 0x10000u; hi++)
        for (uint32_t k = 0; k < 8; k++)
            for (size_t j = 0; j < sizeof low13 / sizeof low13[0]; j++)
                check_f16_one(hi << 16 | k << 13 | low13[j]);
    for (int i = 0; i < 2000000; i++)
        check_f16_one(rng32());
    /* The fp16 subnormal range rounds at higher bit positions: sweep it densely. */
    for (uint32_t bits = 0x33000000u - 4096; bits < 0x38800000u + 4096; bits += 61)
        check_f16_one(bits);
}

static void test_f16_matches_f16c(void **state) {
    (void)state;
#ifdef HAVE_X86
    if (!__builtin_cpu_supports("f16c"))
        skip();
    for (uint32_t h = 0; h < 0x10000u; h++) {
        float a = rk_f16_to_f32((uint16_t)h), b = hw_f16_to_f32((uint16_t)h);
        assert_int_equal(rk_f32_bits(a), rk_f32_bits(b));
    }
    for (uint64_t bits = 0; bits <= 0xffffffffull; bits += 4099) {
        float f = rk_f32_from_bits((uint32_t)bits);
        assert_int_equal(rk_f32_to_f16(f), hw_f32_to_f16(f));
    }
    for (int i = 0; i < 2000000; i++) {
        float f = rk_f32_from_bits(rng32());
        assert_int_equal(rk_f32_to_f16(f), hw_f32_to_f16(f));
    }
#else
    skip();
#endif
}

static void test_f16_widening_exact(void **state) {
    (void)state;
    for (uint32_t h = 0; h < 0x10000u; h++) {
        float f = rk_f16_to_f32((uint16_t)h);
        uint32_t e = (h >> 10) & 0x1f, m = h & 0x3ff;
        if (e == 0x1f) {
            assert_true(m ? isnan(f) : isinf(f));
            if (m) /* NaN: quieted, payload moved to the top (as F16C does) */
                assert_int_equal(rk_f32_bits(f), (h & 0x8000u) << 16 | 0x7fc00000u | m << 13);
            continue;
        }
        double want = e ? ldexp(1.0 + m / 1024.0, (int)e - 15) : ldexp((double)m, -24);
        if (h & 0x8000u)
            want = -want;
        assert_true((double)f == want && !!signbit(f) == !!signbit(want));
        assert_int_equal(rk_f32_to_f16(f), h); /* round trip */
    }
}

static void check_bf16_one(uint32_t bits) {
    float f = rk_f32_from_bits(bits);
    uint16_t got = rk_f32_to_bf16(f);
    if (isnan(f)) {
        assert_int_equal(got, ((bits >> 16) | 0x40u) & 0xffffu);
        return;
    }
    double want = round_to_format(f, 7, -126, ldexp(255.0 / 128.0, 127));
    float back = rk_bf16_to_f32(got);
    if ((double)back != want || !!signbit(back) != !!signbit(want)) {
        print_error("f32 %08x -> bf16 %04x (%.9g), expected %.9g\n", bits, got, back, want);
        fail();
    }
}

static void test_bf16_narrowing_matches_reference(void **state) {
    (void)state;
    static const uint32_t low16[] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff};
    for (uint32_t hi = 0; hi < 0x10000u; hi++)
        for (size_t j = 0; j < sizeof low16 / sizeof low16[0]; j++)
            check_bf16_one(hi << 16 | low16[j]);
    for (int i = 0; i < 2000000; i++)
        check_bf16_one(rng32());
}

static void test_bf16_widening_exact(void **state) {
    (void)state;
    for (uint32_t h = 0; h < 0x10000u; h++) {
        float f = rk_bf16_to_f32((uint16_t)h);
        assert_int_equal(rk_f32_bits(f), h << 16);
        if (!isnan(f))
            assert_int_equal(rk_f32_to_bf16(f), h);
    }
}

static void test_specials(void **state) {
    (void)state;
    assert_int_equal(rk_f32_to_f16(65504.0f), 0x7bff);
    assert_int_equal(rk_f32_to_f16(65519.996f), 0x7bff);
    assert_int_equal(rk_f32_to_f16(65520.0f), 0x7c00); /* tie to even goes to inf */
    assert_int_equal(rk_f32_to_f16(-INFINITY), 0xfc00);
    assert_int_equal(rk_f32_to_f16(0x1p-24f), 0x0001); /* smallest subnormal */
    assert_int_equal(rk_f32_to_f16(0x1p-25f), 0x0000); /* tie to even: zero */
    assert_int_equal(rk_f32_to_f16(0x1.000002p-25f), 0x0001);
    assert_int_equal(rk_f32_to_f16(-0.0f), 0x8000);
    assert_int_equal(rk_f32_to_bf16(rk_f32_from_bits(0x7f7fffffu)), 0x7f80); /* max -> inf */
    assert_int_equal(rk_f32_to_bf16(rk_f32_from_bits(0x00000001u)), 0x0000);
    assert_int_equal(rk_f32_to_bf16(rk_f32_from_bits(0x00008000u)), 0x0000); /* tie: even */
    assert_int_equal(rk_f32_to_bf16(rk_f32_from_bits(0x00018000u)), 0x0002); /* tie: up */
    assert_int_equal(rk_f32_to_bf16(rk_f32_from_bits(0x7f800001u)), 0x7fc0); /* sNaN quieted */
    assert_int_equal(rk_f32_to_bf16(rk_f32_from_bits(0xff800001u)), 0xffc0);
}

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f16_widening_exact),
        cmocka_unit_test(test_f16_narrowing_matches_reference),
        cmocka_unit_test(test_f16_matches_f16c),
        cmocka_unit_test(test_bf16_widening_exact),
        cmocka_unit_test(test_bf16_narrowing_matches_reference),
        cmocka_unit_test(test_specials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
