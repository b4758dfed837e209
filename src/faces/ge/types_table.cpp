#include "types_table.h"

#include <cctype>
#include <climits>
#include <cstring>

#include "acl/acl_base.h"
#include "ropekit/ropekit.h"

/* GE's data types, one row each: the name after DT_ ("DT_<name>" is also its text), the
 * bytes per element (-1: not whole bytes or no fixed size), and ACL when aclDataType has the
 * type as ACL_<name> (GE's and ACL's numbering are one numbering, CANN's), GE_ONLY when not. */
#define RK_GE_TYPES(X)                                                                             \
    X(FLOAT, 4, ACL)                                                                               \
    X(FLOAT16, 2, ACL)                                                                             \
    X(INT8, 1, ACL)                                                                                \
    X(INT32, 4, ACL)                                                                               \
    X(UINT8, 1, ACL)                                                                               \
    X(INT16, 2, ACL)                                                                               \
    X(UINT16, 2, ACL)                                                                              \
    X(UINT32, 4, ACL)                                                                              \
    X(INT64, 8, ACL)                                                                               \
    X(UINT64, 8, ACL)                                                                              \
    X(DOUBLE, 8, ACL)                                                                              \
    X(BOOL, 1, ACL)                                                                                \
    X(STRING, -1, ACL)                                                                             \
    X(DUAL_SUB_INT8, 1, GE_ONLY)                                                                   \
    X(DUAL_SUB_UINT8, 1, GE_ONLY)                                                                  \
    X(COMPLEX64, 8, ACL)                                                                           \
    X(COMPLEX128, 16, ACL)                                                                         \
    X(QINT8, 1, GE_ONLY)                                                                           \
    X(QINT16, 2, GE_ONLY)                                                                          \
    X(QINT32, 4, GE_ONLY)                                                                          \
    X(QUINT8, 1, GE_ONLY)                                                                          \
    X(QUINT16, 2, GE_ONLY)                                                                         \
    X(RESOURCE, 8, GE_ONLY)                                                                        \
    X(STRING_REF, -1, GE_ONLY)                                                                     \
    X(DUAL, 5, GE_ONLY)                                                                            \
    X(VARIANT, 8, GE_ONLY)                                                                         \
    X(BF16, 2, ACL)                                                                                \
    X(UNDEFINED, -1, GE_ONLY)                                                                      \
    X(INT4, -1, ACL)                                                                               \
    X(UINT1, -1, ACL)                                                                              \
    X(INT2, -1, GE_ONLY)                                                                           \
    X(UINT2, -1, GE_ONLY)                                                                          \
    X(COMPLEX32, 4, ACL)                                                                           \
    X(HIFLOAT8, 1, ACL)                                                                            \
    X(FLOAT8_E5M2, 1, ACL)                                                                         \
    X(FLOAT8_E4M3FN, 1, ACL)                                                                       \
    X(FLOAT8_E8M0, 1, ACL)                                                                         \
    X(FLOAT6_E3M2, -1, ACL)                                                                        \
    X(FLOAT6_E2M3, -1, ACL)                                                                        \
    X(FLOAT4_E2M1, -1, ACL)                                                                        \
    X(FLOAT4_E1M2, -1, ACL)                                                                        \
    X(HIFLOAT4, -1, ACL)

#define RK_SAME_NUMBER_ACL(t)                                                                      \
    static_assert(static_cast<int>(ge::DT_##t) == static_cast<int>(ACL_##t),                       \
                  "ge::DT_" #t " must equal ACL_" #t);
#define RK_SAME_NUMBER_GE_ONLY(t)
#define RK_SAME_NUMBER(t, size, acl) RK_SAME_NUMBER_##acl(t)
RK_GE_TYPES(RK_SAME_NUMBER)
#undef RK_SAME_NUMBER
#undef RK_SAME_NUMBER_GE_ONLY
#undef RK_SAME_NUMBER_ACL

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

#define RK_TYPE_ROW(t, size, acl) {ge::DT_##t, "DT_" #t, size},
const TypeRow kTypes[] = {RK_GE_TYPES(RK_TYPE_ROW)};
#undef RK_TYPE_ROW

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
