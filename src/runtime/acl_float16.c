/* aclFloat16ToFloat and aclFloatToFloat16: the library's own fp16 converters
 * (core/dtype_convert.h), so a buffer filled through ACL holds exactly what the fp16
 * kernels would have stored and reads back as they read it. No ACL state: CANN's
 * conversions work before aclInit too. */
#include "acl/acl_base.h"
#include "core/dtype_convert.h"

float aclFloat16ToFloat(aclFloat16 value) {
    return rk_f16_to_f32(value);
}

aclFloat16 aclFloatToFloat16(float value) {
    return rk_f32_to_f16(value);
}
