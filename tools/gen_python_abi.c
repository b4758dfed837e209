/* Prints python/ropekit/_abi.py: the numbers and struct layouts of the public headers
 * (ropekit/ropekit.h, ropekit/ropekit_cann.h, acl/acl_base.h, aclnn/acl_meta.h) and the
 * library's names of the enum values, so that the Python package copies none of them by
 * hand. The output is
 * checked in; the CTest test python_abi regenerates it and fails on any difference.
 *
 * The enumerators and fields are listed here (C cannot enumerate them), but nothing is
 * typed twice: every value, offset and size is the compiler's, every name of a value
 * the library's, and each field's ctypes type follows from its C type (_Generic). The
 * lists are checked for completeness where the headers allow it: the status list is
 * the header's own X-macro, a value that has a name (ropekit_dtype_name, ...) or a size
 * (aclDataTypeSize) must be listed, and consecutive fields must tile their struct with
 * no more than alignment padding between them.
 *
 * Usage: ropekit_gen_python_abi > python/ropekit/_abi.py (exit status 1 and a message on
 * stderr when a list is incomplete). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl_base.h"
#include "ropekit/ropekit_cann.h"
#include "aclnn/acl_meta.h"
#include "ropekit/ropekit.h"

#define RK_STR_(x) #x
#define RK_STR(x) RK_STR_(x)

/* The ctypes type of a struct member of each C type the structs use; enums are ints. */
_Static_assert(sizeof(ropekit_dtype) == sizeof(int), "ropekit_dtype is not int-sized");
_Static_assert(sizeof(ropekit_rope_style) == sizeof(int), "ropekit_rope_style is not int-sized");
_Static_assert(sizeof(ropekit_rope_scaling_type) == sizeof(int),
               "ropekit_rope_scaling_type is not int-sized");

#define RK_CTYPE(member)                                                                           \
    _Generic(&(member),                                                                            \
        void **: "c_void_p",                                                                       \
        int32_t *: "c_int32",                                                                      \
        int64_t *: "c_int64",                                                                      \
        double *: "c_double",                                                                      \
        ropekit_dtype *: "c_int",                                                                  \
        ropekit_rope_style *: "c_int",                                                             \
        ropekit_rope_scaling_type *: "c_int",                                                      \
        int64_t(*)[ROPEKIT_MAX_DIMS]: "c_int64[" RK_STR(ROPEKIT_MAX_DIMS) "]",                     \
        const int64_t **: "POINTER(c_int64)",                                                      \
        const double **: "POINTER(c_double)",                                                      \
        const ropekit_tensor **: "POINTER(ropekit_tensor)",                                        \
        default: NULL)

#define RK_ALIGN(member)                                                                           \
    _Generic(&(member),                                                                            \
        int32_t *: _Alignof(int32_t),                                                              \
        int64_t *: _Alignof(int64_t),                                                              \
        double *: _Alignof(double),                                                                \
        ropekit_dtype *: _Alignof(int),                                                            \
        ropekit_rope_style *: _Alignof(int),                                                       \
        ropekit_rope_scaling_type *: _Alignof(int),                                                \
        int64_t(*)[ROPEKIT_MAX_DIMS]: _Alignof(int64_t),                                           \
        default: _Alignof(void *))

struct rk_const {
    const char *name;
    long long value;
};

struct rk_field {
    const char *name, *ctype;
    size_t offset, size, align;
};

#define RK_CONST(x)                                                                                \
    { #x, (long long)(x) }
#define RK_COUNT(a) (sizeof(a) / sizeof((a)[0]))

static int rk_failed;

static void rk_fail(const char *what) {
    fprintf(stderr, "gen_python_abi: %s\n", what);
    rk_failed = 1;
}

static bool rk_listed(const struct rk_const *c, size_t n, long long value) {
    for (size_t i = 0; i < n; i++)
        if (c[i].value == value)
            return true;
    return false;
}

typedef const char *(*rk_name_fn)(long long value);

/* One enum (or family of #define codes): a constant per value, the values by C name, and
 * the library's name of each value when it has a name function. A value in [lo, hi)
 * that the library names (or `known` accepts) but the list lacks is an error. */
static void rk_print_enum(const char *type, const char *header, const struct rk_const *c, size_t n,
                          rk_name_fn name_of, const char *name_fn, const char *unknown,
                          bool (*known)(long long)) {
    printf("\n# %s (%s)\n", type, header);
    for (size_t i = 0; i < n; i++)
        printf("%s = %lld\n", c[i].name, c[i].value);
    printf("%s = {\n", type);
    for (size_t i = 0; i < n; i++)
        printf("    \"%s\": %lld,\n", c[i].name, c[i].value);
    printf("}\n");
    if (name_of) {
        printf("# %s of each value\n%s_names = {\n", name_fn, type);
        for (size_t i = 0; i < n; i++)
            printf("    %lld: \"%s\",\n", c[i].value, name_of(c[i].value));
        printf("}\n");
    }
    for (long long v = -1; v < 256 && (name_of || known); v++) {
        bool named = name_of ? strcmp(name_of(v), unknown) != 0 : known(v);
        if (named && !rk_listed(c, n, v)) {
            char msg[160];
            snprintf(msg, sizeof msg, "%s value %lld is not listed in gen_python_abi.c", type, v);
            rk_fail(msg);
        }
    }
}

static const char *rk_status_name(long long v) {
    return ropekit_status_name((ropekit_status)v);
}
static const char *rk_dtype_name(long long v) {
    return ropekit_dtype_name((ropekit_dtype)v);
}
static const char *rk_mode_name(long long v) {
    return ropekit_rotary_mode_name((ropekit_rotary_mode)v);
}
static const char *rk_isa_name(long long v) {
    return ropekit_isa_name((ropekit_isa)v);
}
static const char *rk_cann_op_name(long long v) {
    return ropekit_cann_op_name((ropekit_cann_op)v);
}
static bool rk_acl_dtype_known(long long v) {
    return aclDataTypeSize((aclDataType)v) != 0;
}

/* The fields of a struct, in order: each starts where the one before ends, rounded up to
 * its alignment, and the struct ends where the last one does, rounded up to the largest
 * alignment; otherwise a field is missing from the list. */
static void rk_print_struct(const char *type, size_t size, const struct rk_field *f, size_t n) {
    size_t end = 0, align = 1;
    printf("    \"%s\": (%zu, (\n", type, size);
    for (size_t i = 0; i < n; i++) {
        char msg[200];
        if (!f[i].ctype) {
            snprintf(msg, sizeof msg, "%s.%s: its C type has no ctypes type in gen_python_abi.c",
                     type, f[i].name);
            rk_fail(msg);
        }
        size_t want = (end + f[i].align - 1) / f[i].align * f[i].align;
        if (f[i].offset != want) {
            snprintf(msg, sizeof msg, "%s.%s: at offset %zu, not %zu: a field before it is missing",
                     type, f[i].name, f[i].offset, want);
            rk_fail(msg);
        }
        end = f[i].offset + f[i].size;
        align = f[i].align > align ? f[i].align : align;
        printf("        (\"%s\", \"%s\", %zu),\n", f[i].name, f[i].ctype ? f[i].ctype : "?",
               f[i].offset);
    }
    if ((end + align - 1) / align * align != size) {
        char msg[160];
        snprintf(msg, sizeof msg, "%s: sizeof %zu, fields end at %zu: a last field is missing",
                 type, size, end);
        rk_fail(msg);
    }
    printf("    )),\n");
}

#define RK_FIELD(probe, T, m)                                                                      \
    { #m, RK_CTYPE(probe.m), offsetof(T, m), sizeof(probe.m), RK_ALIGN(probe.m) }

static void rk_print_structs(void) {
    /* only named in unevaluated operands (_Generic's controlling expression, sizeof) */
    ropekit_tensor rk_tensor_probe;
    ropekit_rope_config rk_config_probe;
    ropekit_rope_scaling rk_scaling_probe;
    const struct rk_field tensor[] = {
        RK_FIELD(rk_tensor_probe, ropekit_tensor, data),
        RK_FIELD(rk_tensor_probe, ropekit_tensor, dtype),
        RK_FIELD(rk_tensor_probe, ropekit_tensor, ndim),
        RK_FIELD(rk_tensor_probe, ropekit_tensor, shape),
        RK_FIELD(rk_tensor_probe, ropekit_tensor, strides),
    };
    const struct rk_field config[] = {
        RK_FIELD(rk_config_probe, ropekit_rope_config, head_size),
        RK_FIELD(rk_config_probe, ropekit_rope_config, style),
        RK_FIELD(rk_config_probe, ropekit_rope_config, sections),
        RK_FIELD(rk_config_probe, ropekit_rope_config, num_sections),
        RK_FIELD(rk_config_probe, ropekit_rope_config, cache_mode),
        RK_FIELD(rk_config_probe, ropekit_rope_config, offsets),
    };
#define RK_SC(m) RK_FIELD(rk_scaling_probe, ropekit_rope_scaling, m)
    const struct rk_field scaling[] = {
        RK_SC(type),
        RK_SC(factor),
        RK_SC(original_max_position),
        RK_SC(beta_fast),
        RK_SC(beta_slow),
        RK_SC(extrapolation_factor),
        RK_SC(attn_factor),
        RK_SC(low_freq_factor),
        RK_SC(high_freq_factor),
        RK_SC(no_truncate),
        RK_SC(attention_factor),
        RK_SC(mscale),
        RK_SC(mscale_all_dim),
        RK_SC(mixed_b),
        RK_SC(alpha),
        RK_SC(short_factor),
        RK_SC(long_factor),
        RK_SC(short_factor_count),
        RK_SC(long_factor_count),
        RK_SC(longrope_stacked),
        RK_SC(short_mscale),
        RK_SC(long_mscale),
    };
#undef RK_SC
    printf("\n# struct layouts (include/ropekit/ropekit.h): name -> (sizeof, fields), each field\n"
           "# (name, ctypes type, offsetof); POINTER(ropekit_tensor) points to the struct above\n"
           "STRUCTS = {\n");
    rk_print_struct("ropekit_tensor", sizeof(ropekit_tensor), tensor, RK_COUNT(tensor));
    rk_print_struct("ropekit_rope_config", sizeof(ropekit_rope_config), config, RK_COUNT(config));
    rk_print_struct("ropekit_rope_scaling", sizeof(ropekit_rope_scaling), scaling,
                    RK_COUNT(scaling));
    printf("}\n");
}

#define RK_STATUS_CONST_(name, value, text) {"ROPEKIT_" #name, value},

static void rk_print_ropekit_enums(void) {
    static const char h[] = "include/ropekit/ropekit.h";
    const struct rk_const status[] = {ROPEKIT_STATUS_MAP(RK_STATUS_CONST_)};
    const struct rk_const dtype[] = {
        RK_CONST(ROPEKIT_F32), RK_CONST(ROPEKIT_F16),  RK_CONST(ROPEKIT_I64),
        RK_CONST(ROPEKIT_F64), RK_CONST(ROPEKIT_BF16),
    };
    const struct rk_const mode[] = {
        RK_CONST(ROPEKIT_ROTARY_HALF),
        RK_CONST(ROPEKIT_ROTARY_INTERLEAVE),
        RK_CONST(ROPEKIT_ROTARY_QUARTER),
        RK_CONST(ROPEKIT_ROTARY_INTERLEAVE_HALF),
    };
    const struct rk_const direction[] = {
        RK_CONST(ROPEKIT_FORWARD),
        RK_CONST(ROPEKIT_BACKWARD),
    };
    const struct rk_const style[] = {
        RK_CONST(ROPEKIT_ROPE_NEOX),
        RK_CONST(ROPEKIT_ROPE_GPTJ),
    };
    const struct rk_const cache_mode[] = {
        RK_CONST(ROPEKIT_MROPE_SECTIONED),
        RK_CONST(ROPEKIT_MROPE_QWEN3_VL),
        RK_CONST(ROPEKIT_MROPE_ERNIE_VL),
        RK_CONST(ROPEKIT_MROPE_PANGU_VL),
    };
    const struct rk_const isa[] = {
        RK_CONST(ROPEKIT_ISA_SCALAR),
        RK_CONST(ROPEKIT_ISA_AVX2),
        RK_CONST(ROPEKIT_ISA_AVX512),
    };
    const struct rk_const scaling[] = {
        RK_CONST(ROPEKIT_SCALING_NONE),          RK_CONST(ROPEKIT_SCALING_LINEAR),
        RK_CONST(ROPEKIT_SCALING_DYNAMIC_NTK),   RK_CONST(ROPEKIT_SCALING_YARN),
        RK_CONST(ROPEKIT_SCALING_LLAMA3),        RK_CONST(ROPEKIT_SCALING_LONGROPE),
        RK_CONST(ROPEKIT_SCALING_NTK),           RK_CONST(ROPEKIT_SCALING_DYNAMIC_NTK_ALPHA),
        RK_CONST(ROPEKIT_SCALING_DEEPSEEK_YARN),
    };
    rk_print_enum("ropekit_status", h, status, RK_COUNT(status), rk_status_name,
                  "ropekit_status_name", "ROPEKIT_UNKNOWN_STATUS", NULL);
    rk_print_enum("ropekit_dtype", h, dtype, RK_COUNT(dtype), rk_dtype_name, "ropekit_dtype_name",
                  "?", NULL);
    rk_print_enum("ropekit_rotary_mode", h, mode, RK_COUNT(mode), rk_mode_name,
                  "ropekit_rotary_mode_name", "?", NULL);
    rk_print_enum("ropekit_direction", h, direction, RK_COUNT(direction), NULL, NULL, NULL, NULL);
    rk_print_enum("ropekit_rope_style", h, style, RK_COUNT(style), NULL, NULL, NULL, NULL);
    rk_print_enum("ropekit_rope_cache_mode", h, cache_mode, RK_COUNT(cache_mode), NULL, NULL, NULL,
                  NULL);
    rk_print_enum("ropekit_isa", h, isa, RK_COUNT(isa), rk_isa_name, "ropekit_isa_name", "?", NULL);
    rk_print_enum("ropekit_rope_scaling_type", h, scaling, RK_COUNT(scaling), NULL, NULL, NULL,
                  NULL);
    printf("\n# limits (%s)\nROPEKIT_MAX_DIMS = %d\nROPEKIT_ROPE_MAX_SECTIONS = %d\n", h,
           ROPEKIT_MAX_DIMS, ROPEKIT_ROPE_MAX_SECTIONS);
}

static void rk_print_cann_enums(void) {
    static const char h[] = "include/ropekit/ropekit_cann.h";
    const struct rk_const op[] = {
        RK_CONST(ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL),
        RK_CONST(ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL_GRAD),
        RK_CONST(ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE),
        RK_CONST(ROPEKIT_CANN_ROPE_WITH_SIN_COS_CACHE_V2),
        RK_CONST(ROPEKIT_CANN_APPLY_ROTARY_POS_EMB),
        RK_CONST(ROPEKIT_CANN_APPLY_ROTARY_POS_EMB_V2),
        RK_CONST(ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING),
        RK_CONST(ROPEKIT_CANN_INTERLEAVE_ROPE),
        RK_CONST(ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING_GRAD),
    };
    rk_print_enum("ropekit_cann_op", h, op, RK_COUNT(op), rk_cann_op_name, "ropekit_cann_op_name",
                  "?", NULL);
    printf("\n# limits (%s)\nROPEKIT_CANN_PARTIAL_ROTARY_MAX_D = %d\n", h,
           ROPEKIT_CANN_PARTIAL_ROTARY_MAX_D);
    printf("ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING_MAX_D = %d\n",
           ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING_MAX_D);
    printf("ROPEKIT_CANN_INTERLEAVE_ROPE_D = %d\n", ROPEKIT_CANN_INTERLEAVE_ROPE_D);
}

static void rk_print_acl_enums(void) {
    const struct rk_const dtype[] = {
        RK_CONST(ACL_DT_UNDEFINED), RK_CONST(ACL_FLOAT),         RK_CONST(ACL_FLOAT16),
        RK_CONST(ACL_INT8),         RK_CONST(ACL_INT32),         RK_CONST(ACL_UINT8),
        RK_CONST(ACL_INT16),        RK_CONST(ACL_UINT16),        RK_CONST(ACL_UINT32),
        RK_CONST(ACL_INT64),        RK_CONST(ACL_UINT64),        RK_CONST(ACL_DOUBLE),
        RK_CONST(ACL_BOOL),         RK_CONST(ACL_STRING),        RK_CONST(ACL_COMPLEX64),
        RK_CONST(ACL_COMPLEX128),   RK_CONST(ACL_BF16),          RK_CONST(ACL_INT4),
        RK_CONST(ACL_UINT1),        RK_CONST(ACL_COMPLEX32),     RK_CONST(ACL_HIFLOAT8),
        RK_CONST(ACL_FLOAT8_E5M2),  RK_CONST(ACL_FLOAT8_E4M3FN), RK_CONST(ACL_FLOAT8_E8M0),
        RK_CONST(ACL_FLOAT6_E3M2),  RK_CONST(ACL_FLOAT6_E2M3),   RK_CONST(ACL_FLOAT4_E2M1),
        RK_CONST(ACL_FLOAT4_E1M2),  RK_CONST(ACL_HIFLOAT4),
    };
    const struct rk_const format[] = {
        RK_CONST(ACL_FORMAT_UNDEFINED),   RK_CONST(ACL_FORMAT_NCHW),
        RK_CONST(ACL_FORMAT_NHWC),        RK_CONST(ACL_FORMAT_ND),
        RK_CONST(ACL_FORMAT_NC1HWC0),     RK_CONST(ACL_FORMAT_FRACTAL_Z),
        RK_CONST(ACL_FORMAT_NC1HWC0_C04), RK_CONST(ACL_FORMAT_HWCN),
        RK_CONST(ACL_FORMAT_NDHWC),       RK_CONST(ACL_FORMAT_FRACTAL_NZ),
        RK_CONST(ACL_FORMAT_NCDHW),       RK_CONST(ACL_FORMAT_NDC1HWC0),
        RK_CONST(ACL_FRACTAL_Z_3D),       RK_CONST(ACL_FORMAT_NC),
        RK_CONST(ACL_FORMAT_NCL),
    };
    const struct rk_const acl_error[] = {
        RK_CONST(ACL_SUCCESS),
        RK_CONST(ACL_ERROR_NONE),
        RK_CONST(ACL_ERROR_INVALID_PARAM),
        RK_CONST(ACL_ERROR_UNINITIALIZE),
        RK_CONST(ACL_ERROR_REPEAT_INITIALIZE),
        RK_CONST(ACL_ERROR_REPEAT_FINALIZE),
        RK_CONST(ACL_ERROR_BAD_ALLOC),
        RK_CONST(ACL_ERROR_INVALID_DEVICE),
        RK_CONST(ACL_ERROR_INTERNAL_ERROR),
        RK_CONST(ACL_ERROR_FAILURE),
        RK_CONST(ACL_ERROR_RT_FAILURE),
        RK_CONST(ACL_ERROR_RT_AICORE_EXCEPTION),
    };
    const struct rk_const aclnn_status[] = {
        RK_CONST(ACLNN_SUCCESS),
        RK_CONST(ACLNN_ERR_PARAM_NULLPTR),
        RK_CONST(ACLNN_ERR_PARAM_INVALID),
        RK_CONST(ACLNN_ERR_RUNTIME_ERROR),
        RK_CONST(ACLNN_ERR_INNER),
        RK_CONST(ACLNN_ERR_INNER_INFERSHAPE_ERROR),
        RK_CONST(ACLNN_ERR_INNER_TILING_ERROR),
        RK_CONST(ACLNN_ERR_INNER_FIND_KERNEL_ERROR),
        RK_CONST(ACLNN_ERR_INNER_CREATE_EXECUTOR),
        RK_CONST(ACLNN_ERR_INNER_NOT_TRANS_EXECUTOR),
        RK_CONST(ACLNN_ERR_INNER_NULLPTR),
        RK_CONST(ACLNN_ERR_INNER_WRONG_ATTR_INFO_SIZE),
        RK_CONST(ACLNN_ERR_INNER_KEY_CONFLICT),
        RK_CONST(ACLNN_ERR_INNER_INVALID_IMPL_MODE),
    };
    rk_print_enum("aclDataType", "include/acl/acl_base.h", dtype, RK_COUNT(dtype), NULL, NULL, NULL,
                  rk_acl_dtype_known);
    rk_print_enum("aclFormat", "include/acl/acl_base.h", format, RK_COUNT(format), NULL, NULL, NULL,
                  NULL);
    rk_print_enum("aclError", "include/acl/acl_base.h", acl_error, RK_COUNT(acl_error), NULL, NULL,
                  NULL, NULL);
    rk_print_enum("aclnnStatus", "include/aclnn/acl_meta.h", aclnn_status, RK_COUNT(aclnn_status),
                  NULL, NULL, NULL, NULL);
}

int main(void) {
    printf("\"\"\"libropekit's numbers and struct layouts for the Python package: the enum\n"
           "values and codes of include/ropekit/ropekit.h, include/ropekit/ropekit_cann.h,\n"
           "include/acl/acl_base.h and include/aclnn/acl_meta.h, the library's names of the\n"
           "values, and the layouts of the structs ctypes passes.\n\n"
           "Generated by tools/gen_python_abi.c: do not edit. The CTest test python_abi fails\n"
           "when the headers give anything else; regenerate with\n"
           "    cmake --build <build dir> --target ropekit_python_abi\n"
           "\"\"\"\n");
    rk_print_ropekit_enums();
    rk_print_cann_enums();
    rk_print_acl_enums();
    rk_print_structs();
    return rk_failed;
}
