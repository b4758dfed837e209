/* fp16/bf16 conversions and element access (half_bits.h). */
#include "testkit/half_bits.h"

#include <float.h>
#include <math.h>
#include <string.h>

/* fp32 -> binary16. For a normal fp32 with unbiased exponent E and 24-bit significand m,
 * the result is a multiple of 2^ue with ue = max(E - 10, -24) (-24 is the binary16
 * subnormal step). q = round(m * 2^(E - 23 - ue)) and the encoding is
 * ((ue + 24) << 10) + q for every ue, because a carry of q into bit 10 bumps the
 * exponent field exactly as the encoding needs. */
uint16_t tk_f32_to_f16(float value) {
    uint32_t x = tk_f32_bits(value);
    uint16_t sign = (uint16_t)((x >> 16) & 0x8000u);
    uint32_t exp = (x >> 23) & 0xffu, man = x & 0x7fffffu;
    if (exp == 0xffu)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0u));
    if (exp == 0)
        return sign; /* fp32 subnormals are far below half a binary16 step */
    int e = (int)exp - 127;
    int ue = e - 10 > -24 ? e - 10 : -24;
    int shift = ue - e + 23;
    if (shift > 25)
        return sign;
    uint32_t m = man | 0x800000u;
    uint32_t q = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1u), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (q & 1u)))
        q++;
    uint32_t bits = ((uint32_t)(ue + 24) << 10) + q;
    if (bits >= 0x7c00u)
        return (uint16_t)(sign | 0x7c00u);
    return (uint16_t)(sign | bits);
}

float tk_f16_to_f32(uint16_t bits) {
    uint32_t sign = (uint32_t)(bits & 0x8000u) << 16;
    uint32_t exp = (bits >> 10) & 0x1fu, man = bits & 0x3ffu;
    if (exp == 0x1fu)
        return tk_bits_f32(sign | 0x7f800000u | (man << 13));
    float mag = exp == 0 ? ldexpf((float)man, -24) : ldexpf((float)(man | 0x400u), (int)exp - 25);
    return sign ? -mag : mag;
}

uint16_t tk_f32_to_bf16(float value) {
    uint32_t x = tk_f32_bits(value);
    if ((x & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((x >> 16) | 0x40u);
    x += 0x7fffu + ((x >> 16) & 1u);
    return (uint16_t)(x >> 16);
}

float tk_bf16_to_f32(uint16_t bits) {
    return tk_bits_f32((uint32_t)bits << 16);
}

float tk_load_f32(const void *elem, ropekit_dtype dtype) {
    uint16_t h;
    float f;
    switch (dtype) {
    case ROPEKIT_F64:
        return (float)tk_load(elem, dtype);
    case ROPEKIT_F32:
        memcpy(&f, elem, sizeof f);
        return f;
    case ROPEKIT_F16:
        memcpy(&h, elem, sizeof h);
        return tk_f16_to_f32(h);
    case ROPEKIT_BF16:
        memcpy(&h, elem, sizeof h);
        return tk_bf16_to_f32(h);
    default:
        return NAN;
    }
}

double tk_load(const void *elem, ropekit_dtype dtype) {
    double d;
    if (dtype != ROPEKIT_F64)
        return tk_load_f32(elem, dtype);
    memcpy(&d, elem, sizeof d);
    return d;
}

void tk_store_f32(void *elem, ropekit_dtype dtype, float f) {
    uint16_t h;
    switch (dtype) {
    case ROPEKIT_F32:
        memcpy(elem, &f, sizeof f);
        break;
    case ROPEKIT_F16:
        h = tk_f32_to_f16(f);
        memcpy(elem, &h, sizeof h);
        break;
    case ROPEKIT_BF16:
        h = tk_f32_to_bf16(f);
        memcpy(elem, &h, sizeof h);
        break;
    case ROPEKIT_F64:
        tk_store(elem, dtype, f);
        break;
    default:
        break;
    }
}

void tk_store(void *elem, ropekit_dtype dtype, double value) {
    if (dtype == ROPEKIT_F64)
        memcpy(elem, &value, sizeof value);
    else
        tk_store_f32(elem, dtype, (float)value);
}

float tk_round_f32(ropekit_dtype dtype, float value) {
    if (dtype == ROPEKIT_F16)
        return tk_f16_to_f32(tk_f32_to_f16(value));
    if (dtype == ROPEKIT_BF16)
        return tk_bf16_to_f32(tk_f32_to_bf16(value));
    return value;
}

uint32_t tk_bits_in(ropekit_dtype dtype, float value) {
    if (dtype == ROPEKIT_F16)
        return tk_f32_to_f16(value);
    if (dtype == ROPEKIT_BF16)
        return tk_f32_to_bf16(value);
    return tk_f32_bits(value);
}

double tk_dtype_max(ropekit_dtype dtype) {
    switch (dtype) {
    case ROPEKIT_F16:
        return 65504.0;
    case ROPEKIT_BF16:
        return ldexp(255.0, 120); /* 0x7f7f */
    case ROPEKIT_F64:
        return DBL_MAX;
    default:
        return ldexp(16777215.0, 104); /* FLT_MAX */
    }
}

double tk_dtype_min_subnormal(ropekit_dtype dtype) {
    switch (dtype) {
    case ROPEKIT_F16:
        return ldexp(1.0, -24);
    case ROPEKIT_BF16:
        return ldexp(1.0, -133);
    case ROPEKIT_F64:
        return ldexp(1.0, -1074);
    default:
        return ldexp(1.0, -149);
    }
}
