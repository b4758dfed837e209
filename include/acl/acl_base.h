/* ACL base types and constants (CANN-compatible names and values). */
#ifndef ROPEKIT_ACL_ACL_BASE_H_
#define ROPEKIT_ACL_ACL_BASE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#if defined(_WIN32)
#define ACL_FUNC_VISIBILITY __declspec(dllexport)
#else
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef int aclError;
/* An IEEE 754 binary16 value, as its bits (CANN's type). */
typedef uint16_t aclFloat16;

#define ACL_SUCCESS 0
#define ACL_ERROR_NONE 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_UNINITIALIZE 100001
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_REPEAT_FINALIZE 100037
#define ACL_ERROR_BAD_ALLOC 200000
#define ACL_ERROR_INVALID_DEVICE 200002
#define ACL_ERROR_INTERNAL_ERROR 500000
#define ACL_ERROR_FAILURE 500001
#define ACL_ERROR_RT_FAILURE 500003
#define ACL_ERROR_RT_AICORE_EXCEPTION 507015

typedef void *aclrtStream;
typedef void *aclrtContext;
typedef void *aclrtEvent;

typedef enum aclDataType {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41,
    ACL_HIFLOAT4 = 42
} aclDataType;

typedef enum aclFormat {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47
} aclFormat;

/* Bytes of one element of the type (1 for the sub-byte types, which ropekit's tensors
 * address per element); 0 for a value that is not an aclDataType. */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/* The message of the most recent failure in the calling thread ("" when none).
 * Reading it does not clear it; the next failure replaces it. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

/* binary16 -> float, exactly (subnormals kept; a NaN stays NaN with its sign, quiet,
 * payload at the top). */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

/* float -> binary16, rounded to nearest, ties to even: magnitudes from 65520 up become
 * inf, tiny ones subnormal or zero with the sign kept; a NaN stays NaN with its sign,
 * quiet, with the top payload bits. The same rounding as ropekit's fp16 kernels. */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_ACL_ACL_BASE_H_ */
