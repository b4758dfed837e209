#include "types_table.h"

#include <cctype>
#include <climits>
#include <cstring>

#include "acl/acl_base.h"
#include "ropekit/ropekit.h"

/* GE's and ACL's numbering are one numbering (CANN's); these are the values both name. */
#define RK_SAME_AS_ACL(t)                                                                          \
    static_assert(static_cast<int>(ge::DT_##t) == static_cast<int>(ACL_##t),                       \
                  "ge::DT_" #t " must equal ACL_" #t);
RK_SAME_AS_ACL(FLOAT)
RK_SAME_AS_ACL(FLOAT16)
RK_SAME_AS_ACL(INT8)
RK_SAME_AS_ACL(INT32)
RK_SAME_AS_ACL(UINT8)
RK_SAME_AS_ACL(INT16)
RK_SAME_AS_ACL(UINT16)
RK_SAME_AS_ACL(UINT32)
RK_SAME_AS_ACL(INT64)
RK_SAME_AS_ACL(UINT64)
RK_SAME_AS_ACL(DOUBLE)
RK_SAME_AS_ACL(BOOL)
RK_SAME_AS_ACL(STRING)
RK_SAME_AS_ACL(COMPLEX64)
RK_SAME_AS_ACL(COMPLEX128)
RK_SAME_AS_ACL(BF16)
RK_SAME_AS_ACL(INT4)
RK_SAME_AS_ACL(UINT1)
RK_SAME_AS_ACL(COMPLEX32)
RK_SAME_AS_ACL(HIFLOAT8)
RK_SAME_AS_ACL(FLOAT8_E5M2)
RK_SAME_AS_ACL(FLOAT8_E4M3FN)
RK_SAME_AS_ACL(FLOAT8_E8M0)
RK_SAME_AS_ACL(FLOAT6_E3M2)
RK_SAME_AS_ACL(FLOAT6_E2M3)
RK_SAME_AS_ACL(FLOAT4_E2M1)
RK_SAME_AS_ACL(FLOAT4_E1M2)
RK_SAME_AS_ACL(HIFLOAT4)
#undef RK_SAME_AS_ACL
static_assert(static_cast<int>(ge::DT_FLOAT) == ROPEKIT_F32 &&
                  static_cast<int>(ge::DT_FLOAT16) == ROPEKIT_F16 &&
                  static_cast<int>(ge::DT_BF16) == ROPEKIT_BF16 &&
                  static_cast<int>(ge::DT_INT64) == ROPEKIT_I64,
              "ge::DataType and ropekit_dtype must number types alike");

namespace ropekit_ge {
namespace {

struct TypeRow {
    ge::DataType dt;
    const char *name;
    int size; /* bytes per element; -1: not whole bytes or no fixed size */
};

const TypeRow kTypes[] = {
    {ge::DT_FLOAT, "DT_FLOAT", 4},
    {ge::DT_FLOAT16, "DT_FLOAT16", 2},
    {ge::DT_INT8, "DT_INT8", 1},
    {ge::DT_INT32, "DT_INT32", 4},
    {ge::DT_UINT8, "DT_UINT8", 1},
    {ge::DT_INT16, "DT_INT16", 2},
    {ge::DT_UINT16, "DT_UINT16", 2},
    {ge::DT_UINT32, "DT_UINT32", 4},
    {ge::DT_INT64, "DT_INT64", 8},
    {ge::DT_UINT64, "DT_UINT64", 8},
    {ge::DT_DOUBLE, "DT_DOUBLE", 8},
    {ge::DT_BOOL, "DT_BOOL", 1},
    {ge::DT_STRING, "DT_STRING", -1},
    {ge::DT_DUAL_SUB_INT8, "DT_DUAL_SUB_INT8", 1},
    {ge::DT_DUAL_SUB_UINT8, "DT_DUAL_SUB_UINT8", 1},
    {ge::DT_COMPLEX64, "DT_COMPLEX64", 8},
    {ge::DT_COMPLEX128, "DT_COMPLEX128", 16},
    {ge::DT_QINT8, "DT_QINT8", 1},
    {ge::DT_QINT16, "DT_QINT16", 2},
    {ge::DT_QINT32, "DT_QINT32", 4},
    {ge::DT_QUINT8, "DT_QUINT8", 1},
    {ge::DT_QUINT16, "DT_QUINT16", 2},
    {ge::DT_RESOURCE, "DT_RESOURCE", 8},
    {ge::DT_STRING_REF, "DT_STRING_REF", -1},
    {ge::DT_DUAL, "DT_DUAL", 5},
    {ge::DT_VARIANT, "DT_VARIANT", 8},
    {ge::DT_BF16, "DT_BF16", 2},
    {ge::DT_UNDEFINED, "DT_UNDEFINED", -1},
    {ge::DT_INT4, "DT_INT4", -1},
    {ge::DT_UINT1, "DT_UINT1", -1},
    {ge::DT_INT2, "DT_INT2", -1},
    {ge::DT_UINT2, "DT_UINT2", -1},
    {ge::DT_COMPLEX32, "DT_COMPLEX32", 4},
    {ge::DT_HIFLOAT8, "DT_HIFLOAT8", 1},
    {ge::DT_FLOAT8_E5M2, "DT_FLOAT8_E5M2", 1},
    {ge::DT_FLOAT8_E4M3FN, "DT_FLOAT8_E4M3FN", 1},
    {ge::DT_FLOAT8_E8M0, "DT_FLOAT8_E8M0", 1},
    {ge::DT_FLOAT6_E3M2, "DT_FLOAT6_E3M2", -1},
    {ge::DT_FLOAT6_E2M3, "DT_FLOAT6_E2M3", -1},
    {ge::DT_FLOAT4_E2M1, "DT_FLOAT4_E2M1", -1},
    {ge::DT_FLOAT4_E1M2, "DT_FLOAT4_E1M2", -1},
    {ge::DT_HIFLOAT4, "DT_HIFLOAT4", -1},
};

struct AliasRow {
    const char *name;
    ge::DataType dt;
};
const AliasRow kAliases[] = {{"DT_BFLOAT16", ge::DT_BF16}, {"DT_FLOAT32", ge::DT_FLOAT}};

const TypeRow *FindType(ge::DataType dt) {
    for (const TypeRow &row : kTypes)
        if (row.dt == dt)
            return &row;
    return nullptr;
}

bool TypeByName(const std::string &name, ge::DataType *dt) {
    for (const TypeRow &row : kTypes)
        if (name == row.name) {
            *dt = row.dt;
            return true;
        }
    for (const AliasRow &row : kAliases)
        if (name == row.name) {
            *dt = row.dt;
            return true;
        }
    return false;
}

struct NamedSet {
    const char *name;
    ge::TensorType (*make)();
};
const NamedSet kNamedSets[] = {{"ALL", &ge::TensorType::ALL},
                               {"FLOAT", &ge::TensorType::FLOAT},
                               {"IndexNumberType", &ge::TensorType::IndexNumberType}};

struct FormatRow {
    ge::Format format;
    const char *name;
};
#define RK_FORMAT_ROW(f)                                                                           \
    { ge::f, #f }
const FormatRow kFormats[] = {
    RK_FORMAT_ROW(FORMAT_NCHW),       RK_FORMAT_ROW(FORMAT_NHWC),
    RK_FORMAT_ROW(FORMAT_ND),         RK_FORMAT_ROW(FORMAT_NC1HWC0),
    RK_FORMAT_ROW(FORMAT_FRACTAL_Z),  RK_FORMAT_ROW(FORMAT_NC1HWC0_C04),
    RK_FORMAT_ROW(FORMAT_HWCN),       RK_FORMAT_ROW(FORMAT_NDHWC),
    RK_FORMAT_ROW(FORMAT_FRACTAL_NZ), RK_FORMAT_ROW(FORMAT_NCDHW),
    RK_FORMAT_ROW(FORMAT_NDC1HWC0),   RK_FORMAT_ROW(FORMAT_FRACTAL_Z_3D),
    RK_FORMAT_ROW(FORMAT_CN),         RK_FORMAT_ROW(FORMAT_NC),
    RK_FORMAT_ROW(FORMAT_NCL),        RK_FORMAT_ROW(FORMAT_RESERVED),
    RK_FORMAT_ROW(FORMAT_ALL),        RK_FORMAT_ROW(FORMAT_NULL),
    RK_FORMAT_ROW(FORMAT_MD),         RK_FORMAT_ROW(FORMAT_CHWN),
};
#undef RK_FORMAT_ROW

} // namespace

std::string DataTypeName(ge::DataType dt) {
    const TypeRow *row = FindType(dt);
    return row ? std::string(row->name) : "DT_" + std::to_string(static_cast<int>(dt));
}

bool TypeList::Allows(ge::DataType dt) const {
    if (any)
        return true;
    for (ge::DataType t : types)
        if (t == dt)
            return true;
    return false;
}

std::string TypeList::Describe() const {
    if (any)
        return "any type";
    std::string out;
    for (ge::DataType t : types)
        out += (out.empty() ? "" : ", ") + DataTypeName(t);
    return out;
}

TypeList ParseTypeList(const std::string &text) {
    TypeList list;
    auto add = [&list](ge::DataType dt) {
        if (!list.Allows(dt))
            list.types.push_back(dt);
    };
    for (size_t i = 0; i < text.size();) {
        bool at_word = std::isalpha(static_cast<unsigned char>(text[i])) || text[i] == '_';
        if (!at_word) {
            ++i;
            continue;
        }
        size_t j = i;
        while (j < text.size() &&
               (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_'))
            ++j;
        std::string word = text.substr(i, j - i);
        ge::DataType dt;
        if (TypeByName(word, &dt)) {
            add(dt);
        } else {
            for (const NamedSet &set : kNamedSets)
                if (word == set.name)
                    for (ge::DataType t : set.make().types)
                        add(t);
        }
        i = j;
    }
    list.any = list.types.empty();
    return list;
}

bool IsRopekitType(ge::DataType dt) {
    return dt == ge::DT_FLOAT || dt == ge::DT_FLOAT16 || dt == ge::DT_BF16 || dt == ge::DT_INT64;
}

} // namespace ropekit_ge

namespace ge {

int GetSizeByDataType(DataType data_type) {
    const ropekit_ge::TypeRow *row = ropekit_ge::FindType(data_type);
    return row ? row->size : -1;
}

int64_t GetSizeInBytes(int64_t element_count, DataType data_type) {
    int size = GetSizeByDataType(data_type);
    if (size < 0 || element_count < 0 || (size > 0 && element_count > INT64_MAX / size))
        return -1;
    return element_count * size;
}

const char_t *GetFormatName(Format format) {
    for (const ropekit_ge::FormatRow &row : ropekit_ge::kFormats)
        if (row.format == format)
            return row.name;
    return "FORMAT_UNKNOWN";
}

} // namespace ge
