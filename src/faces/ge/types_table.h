/* One table of GE data types (names, sizes, ropekit's and ACL's codes) and of formats,
 * and the reading of an operator prototype's declared input/output types. */
#ifndef ROPEKIT_GE_TYPES_TABLE_H_
#define ROPEKIT_GE_TYPES_TABLE_H_

#include <string>
#include <vector>

#include "graph/types.h"

namespace ropekit_ge {

/* "DT_FLOAT" for DT_FLOAT; "DT_<number>" for a value without a name. */
std::string DataTypeName(ge::DataType dt);

/* The data types a prototype declaration allows. `any` is set when the text names no type
 * this table knows (a set such as TensorType::ALL() is expanded). */
struct TypeList {
    bool any = false;
    std::vector<ge::DataType> types;
    bool Allows(ge::DataType dt) const;
    /* "DT_FLOAT16, DT_FLOAT, DT_BF16" or "any type". */
    std::string Describe() const;
};
/* `text` is the declaration's text, e.g. "TensorType({DT_FLOAT16, DT_BFLOAT16})":
 * DT_BFLOAT16 and DT_FLOAT32 (names some prototypes use) read as DT_BF16 and DT_FLOAT. */
TypeList ParseTypeList(const std::string &text);

/* Whether ropekit's kernels take this type: ropekit_dtype values equal GE's numbers for
 * DT_FLOAT, DT_FLOAT16, DT_BF16 and DT_INT64. */
bool IsRopekitType(ge::DataType dt);

} // namespace ropekit_ge

#endif /* ROPEKIT_GE_TYPES_TABLE_H_ */
