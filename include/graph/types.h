/* GE graph API (ropekit): data types, formats and placements with CANN's numbering.
 *
 * Part of ropekit's implementation of the subset of CANN's GE IR graph API that graph
 * programs for the RoPE operators use (docs/graph-mode.md). C++11. */
#ifndef ROPEKIT_GRAPH_TYPES_H_
#define ROPEKIT_GRAPH_TYPES_H_

#include <cstdint>
#include <initializer_list>
#include <vector>

/* Every GE class and function is exported from libropekit_ge. */
#ifndef GE_FUNC_VISIBILITY
#define GE_FUNC_VISIBILITY __attribute__((visibility("default")))
#endif
#ifndef GE_FUNC_HOST_VISIBILITY
#define GE_FUNC_HOST_VISIBILITY __attribute__((visibility("default")))
#endif
#ifndef GE_FUNC_DEV_VISIBILITY
#define GE_FUNC_DEV_VISIBILITY
#endif

namespace ge {

using char_t = char;
using float32_t = float;
using float64_t = double;

static const int64_t UNKNOWN_DIM = -1;     /* one dimension not known yet */
static const int64_t UNKNOWN_DIM_NUM = -2; /* the rank is not known yet */
static const std::vector<int64_t> UNKNOWN_SHAPE = {-1};
static const std::vector<int64_t> UNKNOWN_RANK = {-2};

/* CANN's numbering, equal to aclDataType's where both have a value (checked when
 * libropekit_ge is built). */
enum DataType {
    DT_FLOAT = 0,
    DT_FLOAT16 = 1,
    DT_INT8 = 2,
    DT_INT32 = 3,
    DT_UINT8 = 4,
    DT_INT16 = 6,
    DT_UINT16 = 7,
    DT_UINT32 = 8,
    DT_INT64 = 9,
    DT_UINT64 = 10,
    DT_DOUBLE = 11,
    DT_BOOL = 12,
    DT_STRING = 13,
    DT_DUAL_SUB_INT8 = 14,
    DT_DUAL_SUB_UINT8 = 15,
    DT_COMPLEX64 = 16,
    DT_COMPLEX128 = 17,
    DT_QINT8 = 18,
    DT_QINT16 = 19,
    DT_QINT32 = 20,
    DT_QUINT8 = 21,
    DT_QUINT16 = 22,
    DT_RESOURCE = 23,
    DT_STRING_REF = 24,
    DT_DUAL = 25,
    DT_VARIANT = 26,
    DT_BF16 = 27,
    DT_UNDEFINED = 28,
    DT_INT4 = 29,
    DT_UINT1 = 30,
    DT_INT2 = 31,
    DT_UINT2 = 32,
    DT_COMPLEX32 = 33,
    DT_HIFLOAT8 = 34,
    DT_FLOAT8_E5M2 = 35,
    DT_FLOAT8_E4M3FN = 36,
    DT_FLOAT8_E8M0 = 37,
    DT_FLOAT6_E3M2 = 38,
    DT_FLOAT6_E2M3 = 39,
    DT_FLOAT4_E2M1 = 40,
    DT_FLOAT4_E1M2 = 41,
    DT_HIFLOAT4 = 42,
    DT_MAX
};

/* Bytes per element; -1 for types that are not whole bytes or have no fixed size. */
GE_FUNC_VISIBILITY int GetSizeByDataType(DataType data_type);
/* element_count * size of data_type, or -1 when that is not defined or overflows. */
GE_FUNC_VISIBILITY int64_t GetSizeInBytes(int64_t element_count, DataType data_type);

enum Format {
    FORMAT_NCHW = 0,
    FORMAT_NHWC = 1,
    FORMAT_ND = 2,
    FORMAT_NC1HWC0 = 3,
    FORMAT_FRACTAL_Z = 4,
    FORMAT_NC1C0HWPAD = 5,
    FORMAT_NHWC1C0 = 6,
    FORMAT_FSR_NCHW = 7,
    FORMAT_FRACTAL_DECONV = 8,
    FORMAT_C1HWNC0 = 9,
    FORMAT_FRACTAL_DECONV_TRANSPOSE = 10,
    FORMAT_FRACTAL_DECONV_SP_STRIDE_TRANS = 11,
    FORMAT_NC1HWC0_C04 = 12,
    FORMAT_FRACTAL_Z_C04 = 13,
    FORMAT_CHWN = 14,
    FORMAT_FRACTAL_DECONV_SP_STRIDE8_TRANS = 15,
    FORMAT_HWCN = 16,
    FORMAT_NC1KHKWHWC0 = 17,
    FORMAT_BN_WEIGHT = 18,
    FORMAT_FILTER_HWCK = 19,
    FORMAT_HASHTABLE_LOOKUP_LOOKUPS = 20,
    FORMAT_HASHTABLE_LOOKUP_KEYS = 21,
    FORMAT_HASHTABLE_LOOKUP_VALUE = 22,
    FORMAT_HASHTABLE_LOOKUP_OUTPUT = 23,
    FORMAT_HASHTABLE_LOOKUP_HITS = 24,
    FORMAT_C1HWNCoC0 = 25,
    FORMAT_MD = 26,
    FORMAT_NDHWC = 27,
    FORMAT_FRACTAL_ZZ = 28,
    FORMAT_FRACTAL_NZ = 29,
    FORMAT_NCDHW = 30,
    FORMAT_DHWCN = 31,
    FORMAT_NDC1HWC0 = 32,
    FORMAT_FRACTAL_Z_3D = 33,
    FORMAT_CN = 34,
    FORMAT_NC = 35,
    FORMAT_DHWNC = 36,
    FORMAT_FRACTAL_Z_3D_TRANSPOSE = 37,
    FORMAT_FRACTAL_ZN_LSTM = 38,
    FORMAT_FRACTAL_Z_G = 39,
    FORMAT_RESERVED = 40,
    FORMAT_ALL = 41,
    FORMAT_NULL = 42,
    FORMAT_ND_RNN_BIAS = 43,
    FORMAT_FRACTAL_ZN_RNN = 44,
    FORMAT_NYUV = 45,
    FORMAT_NYUV_A = 46,
    FORMAT_NCL = 47,
    FORMAT_FRACTAL_Z_WINO = 48,
    FORMAT_C1HWC0 = 49,
    FORMAT_FRACTAL_NZ_C0_16 = 50,
    FORMAT_FRACTAL_NZ_C0_32 = 51,
    FORMAT_FRACTAL_NZ_C0_2 = 52,
    FORMAT_FRACTAL_NZ_C0_4 = 53,
    FORMAT_FRACTAL_NZ_C0_8 = 54,
    FORMAT_END,
    FORMAT_MAX = 0xff
};

/* "FORMAT_ND" style name; "FORMAT_UNKNOWN" for a value without one. */
GE_FUNC_VISIBILITY const char_t *GetFormatName(Format format);

enum Placement { kPlacementHost = 0, kPlacementDevice = 1, kPlacementEnd };

enum DeviceType { NPU = 0, CPU = 1 };

/* A set of data types, as operator prototypes declare them. Prototypes built with
 * graph/operator_reg.h keep the declaration's text instead, so a prototype may name
 * types (DT_BFLOAT16, DT_FLOAT32) that this enumeration spells differently. */
struct TensorType {
    explicit TensorType(DataType dt) : types(1, dt) {}
    TensorType(const std::initializer_list<DataType> &initial_types) : types(initial_types) {}
    static TensorType ALL() {
        return TensorType{DT_BOOL,     DT_COMPLEX128, DT_COMPLEX64, DT_DOUBLE,  DT_FLOAT,
                          DT_FLOAT16,  DT_INT16,      DT_INT32,     DT_INT64,   DT_INT8,
                          DT_QINT16,   DT_QINT32,     DT_QINT8,     DT_QUINT16, DT_QUINT8,
                          DT_RESOURCE, DT_STRING,     DT_UINT16,    DT_UINT32,  DT_UINT64,
                          DT_UINT8,    DT_BF16,       DT_COMPLEX32};
    }
    static TensorType FLOAT() { return TensorType{DT_FLOAT, DT_FLOAT16, DT_BF16}; }
    static TensorType IndexNumberType() { return TensorType{DT_INT32, DT_INT64}; }
    std::vector<DataType> types;
};

} // namespace ge

#endif /* ROPEKIT_GRAPH_TYPES_H_ */
