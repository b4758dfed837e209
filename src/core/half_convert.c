/* The public fp16/bf16 conversions (ropekit.h): the library's own converters, so a buffer
 * filled with them holds exactly what the kernels would have stored. */
#include "core/dtype_convert.h"
#include "ropekit/ropekit.h"

uint16_t ropekit_f32_to_bf16(float value) {
    return rk_f32_to_bf16(value);
}

float ropekit_bf16_to_f32(uint16_t bits) {
    return rk_bf16_to_f32(bits);
}

uint16_t ropekit_f32_to_f16(float value) {
    return rk_f32_to_f16(value);
}

float ropekit_f16_to_f32(uint16_t bits) {
    return rk_f16_to_f32(bits);
}

void ropekit_f32_to_bf16_array(uint16_t *dst, const float *src, size_t n) {
    for (size_t i = 0; i < n; i++)
        dst[i] = rk_f32_to_bf16(src[i]);
}

void ropekit_bf16_to_f32_array(float *dst, const uint16_t *src, size_t n) {
    for (size_t i = 0; i < n; i++)
        dst[i] = rk_bf16_to_f32(src[i]);
}

void ropekit_f32_to_f16_array(uint16_t *dst, const float *src, size_t n) {
    for (size_t i = 0; i < n; i++)
        dst[i] = rk_f32_to_f16(src[i]);
}

void ropekit_f16_to_f32_array(float *dst, const uint16_t *src, size_t n) {
    for (size_t i = 0; i < n; i++)
        dst[i] = rk_f16_to_f32(src[i]);
}
