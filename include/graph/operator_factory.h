/* GE graph API (ropekit): creating operators by type name. Every op::<Type> class of
 * graph/operator_reg.h registers itself here when its header is compiled into a program;
 * libropekit_ge registers the RoPE operators, Data and Const. */
#ifndef ROPEKIT_GRAPH_OPERATOR_FACTORY_H_
#define ROPEKIT_GRAPH_OPERATOR_FACTORY_H_

#include <functional>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/error_codes.h"
#include "graph/operator.h"

namespace ge {

using OpCreatorV2 = std::function<Operator(const AscendString &)>;

class GE_FUNC_VISIBILITY OperatorFactory {
  public:
    /* A node of a registered type with its prototype; an empty Operator for an unknown
     * type (message set). */
    static Operator CreateOperator(const char_t *operator_name, const char_t *operator_type);
    static graphStatus GetOpsTypeList(std::vector<AscendString> &all_ops);
    static bool IsExistOp(const char_t *operator_type);
};

class GE_FUNC_VISIBILITY OperatorCreatorRegister {
  public:
    /* The first registration of a type wins. */
    OperatorCreatorRegister(const char_t *operator_type, const OpCreatorV2 &op_creator);
    ~OperatorCreatorRegister() = default;
};

} // namespace ge

#endif /* ROPEKIT_GRAPH_OPERATOR_FACTORY_H_ */
