/* fp16 / bf16 bit conversions and dtype-generic element access for test data: the one set
 * the tools, tests, fuzz targets and benchmark use.
 *
 * Written independently of the library's own converters so that the float64 reference
 * in the test kit does not share code with what it checks. Narrowing rounds to nearest
 * even; NaN stays NaN (quiet, sign kept); overflow gives +-inf; subnormals are kept. */
#ifndef ROPEKIT_TESTKIT_HALF_BITS_H_
#define ROPEKIT_TESTKIT_HALF_BITS_H_

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "ropekit/ropekit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The bits of an fp32 value, and the value of fp32 bits. */
static inline uint32_t tk_f32_bits(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline float tk_bits_f32(uint32_t u) {
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* Narrowing keeps a NaN's sign and the top of its payload and sets the quiet bit;
 * widening is exact (a NaN keeps its payload, shifted into place). */
uint16_t tk_f32_to_f16(float value);
float tk_f16_to_f32(uint16_t bits);
uint16_t tk_f32_to_bf16(float value);
float tk_bf16_to_f32(uint16_t bits);

/* fp32, fp16, bf16 or float64 (a ropekit_dtype value, or any integer): the float types
 * of the native face. */
static inline bool tk_dtype_is_float(int64_t dtype) {
    return dtype == ROPEKIT_F32 || dtype == ROPEKIT_F16 || dtype == ROPEKIT_BF16 ||
           dtype == ROPEKIT_F64;
}

/* Reads one element of a float dtype, widened exactly to double (NaN for other dtypes). */
double tk_load(const void *elem, ropekit_dtype dtype);
/* The same as fp32: exact, except for float64 (rounded to nearest). */
float tk_load_f32(const void *elem, ropekit_dtype dtype);
/* Stores an fp32 value into one element, rounded to the dtype (RNE); nothing for a dtype
 * that is not a float type. */
void tk_store_f32(void *elem, ropekit_dtype dtype, float value);
/* The value nearest to `value` in the dtype (RNE), as fp32. */
float tk_round_f32(ropekit_dtype dtype, float value);
/* The bits `value` has in the dtype (fp32: 32 bits, fp16/bf16: 16 bits; RNE). */
uint32_t tk_bits_in(ropekit_dtype dtype, float value);
/* Stores a value into one element: double -> fp32 (RNE), then -> the dtype (RNE); float64
 * stores the value itself. The double rounding is harmless for generating test data. */
void tk_store(void *elem, ropekit_dtype dtype, double value);

/* Largest finite value and the smallest subnormal of a float dtype. */
double tk_dtype_max(ropekit_dtype dtype);
double tk_dtype_min_subnormal(ropekit_dtype dtype);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_HALF_BITS_H_ */
