/* fp16 / bf16 bit conversions and dtype-generic element access for test data.
 *
 * Written independently of the library's own converters so that the float64 reference
 * in the test kit does not share code with what it checks. Narrowing rounds to nearest
 * even; NaN stays NaN (quiet, sign kept); overflow gives +-inf; subnormals are kept. */
#ifndef ROPEKIT_TESTKIT_HALF_BITS_H_
#define ROPEKIT_TESTKIT_HALF_BITS_H_

#include <stdint.h>

#include "ropekit/ropekit.h"

#ifdef __cplusplus
extern "C" {
#endif

uint16_t tk_f32_to_f16(float value);
float tk_f16_to_f32(uint16_t bits);
uint16_t tk_f32_to_bf16(float value);
float tk_bf16_to_f32(uint16_t bits);

/* Reads one element of a float dtype, widened exactly to double. */
double tk_load(const void *elem, ropekit_dtype dtype);
/* Stores a value into one element: double -> fp32 (RNE), then -> the dtype (RNE). The
 * double rounding is harmless for generating test data. */
void tk_store(void *elem, ropekit_dtype dtype, double value);

/* Largest finite value and the smallest subnormal of a float dtype. */
double tk_dtype_max(ropekit_dtype dtype);
double tk_dtype_min_subnormal(ropekit_dtype dtype);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_HALF_BITS_H_ */
