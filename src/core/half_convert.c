/* The public fp16/bf16 conversions (ropekit.h): the library's own converters, so a buffer
 * filled with them holds exactly what the kernels would have stored. */
#include "core/dtype_convert.h"
#include "ropekit/ropekit.h"

/* Each conversion (the name shared by ropekit_<name>, ropekit_<name>_array and the
 * converter rk_<name>), with the type it reads and the type it gives. */
#define RK_HALF_CONVERSIONS(X)                                                                     \
    X(f32_to_bf16, float, uint16_t)                                                                \
    X(bf16_to_f32, uint16_t, float)                                                                \
    X(f32_to_f16, float, uint16_t)                                                                 \
    X(f16_to_f32, uint16_t, float)

#define RK_DEFINE_CONVERSION(name, from, to)                                                       \
    to ropekit_##name(from value) {                                                                \
        return rk_##name(value);                                                                   \
    }                                                                                              \
                                                                                                   \
    void ropekit_##name##_array(to *dst, const from *src, size_t n) {                              \
        for (size_t i = 0; i < n; i++)                                                             \
            dst[i] = rk_##name(src[i]);                                                            \
    }

RK_HALF_CONVERSIONS(RK_DEFINE_CONVERSION)
#undef RK_DEFINE_CONVERSION
