/* Exact widening of fp16/bf16 to fp32 and round-to-nearest-even narrowing (SPEC §1).
 * These scalar conversions are the reference every SIMD conversion must match bit
 * for bit, including subnormals (kept, never flushed), overflow (to +-inf) and NaN
 * (stays NaN, quiet, sign kept, top payload bits kept). */
#ifndef ROPEKIT_CORE_DTYPE_CONVERT_H_
#define ROPEKIT_CORE_DTYPE_CONVERT_H_

#include <stdint.h>
#include <string.h>

static inline uint32_t rk_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static inline float rk_f32_from_bits(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static inline float rk_bf16_to_f32(uint16_t h) {
    return rk_f32_from_bits((uint32_t)h << 16);
}

static inline uint16_t rk_f32_to_bf16(float f) {
    uint32_t u = rk_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) /* NaN: truncate payload, force quiet */
        return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7fffu + ((u >> 16) & 1u); /* ties to even; finite overflow carries into inf */
    return (uint16_t)(u >> 16);
}

static inline float rk_f16_to_f32(uint16_t h) {
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    if (exp == 0x1fu) /* inf, or NaN: quieted, payload at the top (as F16C does) */
        return rk_f32_from_bits(sign | 0x7f800000u | (man << 13) | (man ? 0x400000u : 0u));
    if (exp != 0)
        return rk_f32_from_bits(sign | ((exp + 112u) << 23) | (man << 13));
    if (man == 0)
        return rk_f32_from_bits(sign);
    /* subnormal: value = man * 2^-24, exactly representable in fp32 */
    float mag = (float)man * 0x1p-24f;
    return rk_f32_from_bits(sign | rk_f32_bits(mag));
}

static inline uint16_t rk_f32_to_f16(float f) {
    uint32_t u = rk_f32_bits(f);
    uint16_t sign = (uint16_t)((u >> 16) & 0x8000u);
    uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) /* NaN: quiet, keep the top 9 payload bits (as F16C does) */
        return (uint16_t)(sign | 0x7e00u | ((abs >> 13) & 0x3ffu));
    if (abs >= 0x477ff000u) /* >= 65520 rounds to inf; also inf itself */
        return (uint16_t)(sign | 0x7c00u);
    if (abs >= 0x38800000u) { /* normal fp16 range (>= 2^-14) */
        uint32_t r = abs + 0xfffu + ((abs >> 13) & 1u);
        return (uint16_t)(sign | (uint16_t)((r - 0x38000000u) >> 13));
    }
    if (abs < 0x33000000u) /* < 2^-25: rounds to zero (2^-25 itself is a tie to even 0) */
        return sign;
    /* subnormal fp16: shift the implicit-1 mantissa right and round to nearest even */
    uint32_t exp = abs >> 23;
    uint32_t man = (abs & 0x7fffffu) | 0x800000u;
    uint32_t shift = 126u - exp; /* 14..24 */
    uint32_t half = 1u << (shift - 1);
    uint32_t rest = man & ((1u << shift) - 1u);
    uint32_t q = man >> shift;
    if (rest > half || (rest == half && (q & 1u)))
        q++;
    return (uint16_t)(sign | q);
}

/* double -> float rounded to odd: exact values stay, inexact ones get their last bit
 * set after truncation. Rounding that result to fp16/bf16 with RNE equals rounding the
 * double once (fp32 keeps more than two extra bits), so table builders round once. */
static inline float rk_f64_to_f32_round_odd(double d) {
    float f = (float)d;
    if ((double)f == d || d != d)
        return f;
    uint32_t u = rk_f32_bits(f);
    if ((f < 0 ? -(double)f : (double)f) > (d < 0 ? -d : d))
        u -= 1; /* step back toward zero: truncation */
    return rk_f32_from_bits(u | 1u);
}

static inline uint16_t rk_f64_to_f16(double d) {
    return rk_f32_to_f16(rk_f64_to_f32_round_odd(d));
}
static inline uint16_t rk_f64_to_bf16(double d) {
    return rk_f32_to_bf16(rk_f64_to_f32_round_odd(d));
}

#endif /* ROPEKIT_CORE_DTYPE_CONVERT_H_ */
