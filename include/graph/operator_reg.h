/* GE graph API (ropekit): operator prototypes.
 *
 *   REG_OP(Name)
 *       .INPUT(x, TensorType({DT_FLOAT16, DT_FLOAT}))
 *       .OPTIONAL_INPUT(bias, TensorType({DT_FLOAT}))
 *       .OUTPUT(y, TensorType({DT_FLOAT16, DT_FLOAT}))
 *       .ATTR(mode, Int, 0)
 *       .REQUIRED_ATTR(size, Int)
 *       .OP_END_FACTORY_REG(Name)
 *
 * declares the class ge::op::Name, an Operator whose constructor registers that
 * prototype, with the methods graph programs call:
 *   inputs      set_input_<x>(src[, output name | output index]), get_input_desc_<x>(),
 *               update_input_desc_<x>(desc), name_in_<x>()
 *   outputs     get_output_desc_<y>(), update_output_desc_<y>(desc), name_out_<y>()
 *   attributes  set_attr_<a>(value), get_attr_<a>() (the default when not set),
 *               name_attr_<a>(); String attributes also get_attr_<a>(AscendString &)
 * Attribute types: Int, Float, Bool, String, AscendString, Tensor, Type, ListInt,
 * ListFloat, ListBool, ListString, ListAscendString, ListTensor, ListListInt, ListType.
 * Input and output types are kept as the declaration's text (an input and an output may
 * share a name, as in-place operators declare them).
 *
 * How it works: REG_OP opens the class and a private member function; each .ENTRY(...)
 * ends the function it is in with a call to the next one, declares its public methods and
 * opens the function that registers it; OP_END_FACTORY_REG closes the last function, the
 * class and namespace op, and registers the type with OperatorFactory. */
#ifndef ROPEKIT_GRAPH_OPERATOR_REG_H_
#define ROPEKIT_GRAPH_OPERATOR_REG_H_

#include <string>
#include <type_traits>
#include <vector>

#include "graph/graph.h"
#include "graph/operator.h"
#include "graph/operator_factory.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {

/* What the entries of a prototype are chained on: each entry's text starts with N(). */
struct OperatorIrChain {
    OperatorIrChain &N() { return *this; }
};

} // namespace ge

#define REG_OP(x)                                                                                  \
    namespace op {                                                                                 \
    class x : public Operator {                                                                    \
        typedef x rk_this_type;                                                                    \
                                                                                                   \
      public:                                                                                      \
        explicit x(const std::string &name) : Operator(name.c_str(), #x, OperatorIrTag()) {        \
            rk_ir_begin();                                                                         \
        }                                                                                          \
        explicit x(const char_t *name) : Operator(name, #x, OperatorIrTag()) { rk_ir_begin(); }    \
        explicit x(const AscendString &name) : Operator(name, #x, OperatorIrTag()) {               \
            rk_ir_begin();                                                                         \
        }                                                                                          \
        x() : Operator(static_cast<const char_t *>(nullptr), #x, OperatorIrTag()) {                \
            rk_ir_begin();                                                                         \
        }                                                                                          \
                                                                                                   \
      private:                                                                                     \
        void rk_ir_begin() {                                                                       \
            OperatorIrChain()

#define ROPEKIT_GE_INPUT_METHODS_(x)                                                               \
    static const std::string name_in_##x() {                                                       \
        return #x;                                                                                 \
    }                                                                                              \
    static void name_in_##x(AscendString &name) {                                                  \
        name = AscendString(#x);                                                                   \
    }                                                                                              \
    rk_this_type &set_input_##x(const Operator &v) {                                               \
        Operator::SetInput(#x, v);                                                                 \
        return *this;                                                                              \
    }                                                                                              \
    rk_this_type &set_input_##x(const Operator &v, const std::string &srcName) {                   \
        Operator::SetInput(#x, v, srcName.c_str());                                                \
        return *this;                                                                              \
    }                                                                                              \
    rk_this_type &set_input_##x##_by_name(const Operator &v, const char_t *srcName) {              \
        Operator::SetInput(#x, v, srcName);                                                        \
        return *this;                                                                              \
    }                                                                                              \
    rk_this_type &set_input_##x(const Operator &v, uint32_t index) {                               \
        Operator::SetInput(#x, v, index);                                                          \
        return *this;                                                                              \
    }                                                                                              \
    TensorDesc get_input_desc_##x() const {                                                        \
        return Operator::GetInputDescByName(#x);                                                   \
    }                                                                                              \
    graphStatus update_input_desc_##x(const TensorDesc &tensorDesc) {                              \
        return Operator::UpdateInputDesc(#x, tensorDesc);                                          \
    }

#define INPUT(x, t)                                                                                \
    N();                                                                                           \
    rk_ir_in_##x();                                                                                \
    }                                                                                              \
                                                                                                   \
  public:                                                                                          \
    ROPEKIT_GE_INPUT_METHODS_(x)                                                                   \
                                                                                                   \
  private:                                                                                         \
    void rk_ir_in_##x() {                                                                          \
        Operator::InputRegister(#x, #t);                                                           \
        (void)OperatorIrChain()

#define OPTIONAL_INPUT(x, t)                                                                       \
    N();                                                                                           \
    rk_ir_in_##x();                                                                                \
    }                                                                                              \
                                                                                                   \
  public:                                                                                          \
    ROPEKIT_GE_INPUT_METHODS_(x)                                                                   \
                                                                                                   \
  private:                                                                                         \
    void rk_ir_in_##x() {                                                                          \
        Operator::OptionalInputRegister(#x, #t);                                                   \
        (void)OperatorIrChain()

#define OUTPUT(x, t)                                                                               \
    N();                                                                                           \
    rk_ir_out_##x();                                                                               \
    }                                                                                              \
                                                                                                   \
  public:                                                                                          \
    static const std::string name_out_##x() {                                                      \
        return #x;                                                                                 \
    }                                                                                              \
    static void name_out_##x(AscendString &name) {                                                 \
        name = AscendString(#x);                                                                   \
    }                                                                                              \
    TensorDesc get_output_desc_##x() const {                                                       \
        return Operator::GetOutputDescByName(#x);                                                  \
    }                                                                                              \
    graphStatus update_output_desc_##x(const TensorDesc &tensorDesc) {                             \
        return Operator::UpdateOutputDesc(#x, tensorDesc);                                         \
    }                                                                                              \
                                                                                                   \
  private:                                                                                         \
    void rk_ir_out_##x() {                                                                         \
        Operator::OutputRegister(#x, #t);                                                          \
        (void)OperatorIrChain()

/* Accessors every attribute type has; `init` initialises the getter's fallback. */
#define ROPEKIT_GE_ATTR_METHODS_(x, Type, init)                                                    \
    static const std::string name_attr_##x() {                                                     \
        return #x;                                                                                 \
    }                                                                                              \
    static void name_attr_##x(AscendString &attr) {                                                \
        attr = AscendString(#x);                                                                   \
    }                                                                                              \
    Op##Type get_attr_##x() const {                                                                \
        Op##Type value = init;                                                                     \
        (void)Operator::GetAttr(#x, value);                                                        \
        return value;                                                                              \
    }                                                                                              \
    rk_this_type &set_attr_##x(const Op##Type &v) {                                                \
        Operator::SetAttr(#x, v);                                                                  \
        return *this;                                                                              \
    }

/* String attributes are also read into an AscendString and set from a C string. */
#define ROPEKIT_GE_ATTR_EXTRA_String(x)                                                            \
    graphStatus get_attr_##x(AscendString &ret) const {                                            \
        std::string value = get_attr_##x();                                                        \
        ret = AscendString(value.c_str());                                                         \
        return GRAPH_SUCCESS;                                                                      \
    }                                                                                              \
    rk_this_type &set_attr_##x(const char_t *v) {                                                  \
        Operator::SetAttr(#x, v);                                                                  \
        return *this;                                                                              \
    }
#define ROPEKIT_GE_ATTR_EXTRA_ListString(x)                                                        \
    graphStatus get_attr_##x(std::vector<AscendString> &ret) const {                               \
        ret.clear();                                                                               \
        for (const std::string &s : get_attr_##x())                                                \
            ret.emplace_back(s.c_str());                                                           \
        return GRAPH_SUCCESS;                                                                      \
    }
#define ROPEKIT_GE_ATTR_EXTRA_Int(x)
#define ROPEKIT_GE_ATTR_EXTRA_Float(x)
#define ROPEKIT_GE_ATTR_EXTRA_Bool(x)
#define ROPEKIT_GE_ATTR_EXTRA_AscendString(x)
#define ROPEKIT_GE_ATTR_EXTRA_Tensor(x)
#define ROPEKIT_GE_ATTR_EXTRA_Type(x)
#define ROPEKIT_GE_ATTR_EXTRA_ListInt(x)
#define ROPEKIT_GE_ATTR_EXTRA_ListFloat(x)
#define ROPEKIT_GE_ATTR_EXTRA_ListBool(x)
#define ROPEKIT_GE_ATTR_EXTRA_ListAscendString(x)
#define ROPEKIT_GE_ATTR_EXTRA_ListTensor(x)
#define ROPEKIT_GE_ATTR_EXTRA_ListListInt(x)
#define ROPEKIT_GE_ATTR_EXTRA_ListType(x)

#define ATTR(x, Type, ...)                                                                         \
    N();                                                                                           \
    rk_ir_attr_##x();                                                                              \
    }                                                                                              \
                                                                                                   \
  public:                                                                                          \
    ROPEKIT_GE_ATTR_METHODS_(x, Type, Op##Type(__VA_ARGS__))                                       \
    ROPEKIT_GE_ATTR_EXTRA_##Type(x)                                                                \
                                                                                                   \
        private : void rk_ir_attr_##x() {                                                          \
        Operator::AttrRegister(#x, Op##Type(__VA_ARGS__));                                         \
        (void)OperatorIrChain()

#define REQUIRED_ATTR(x, Type)                                                                     \
    N();                                                                                           \
    rk_ir_attr_##x();                                                                              \
    }                                                                                              \
                                                                                                   \
  public:                                                                                          \
    ROPEKIT_GE_ATTR_METHODS_(x, Type, Op##Type())                                                  \
    ROPEKIT_GE_ATTR_EXTRA_##Type(x)                                                                \
                                                                                                   \
        private : void rk_ir_attr_##x() {                                                          \
        Operator::RequiredAttrRegister(#x, #Type);                                                 \
        (void)OperatorIrChain()

#define OP_END_FACTORY_REG(x)                                                                      \
    N();                                                                                           \
    }                                                                                              \
    static_assert(std::is_same<x, rk_this_type>::value,                                            \
                  "OP_END_FACTORY_REG must name the operator that REG_OP declared");               \
    }                                                                                              \
    ;                                                                                              \
    static const OperatorCreatorRegister rk_ge_register_##x(                                       \
        #x, [](const AscendString &name) -> Operator { return x(name); });                         \
    }

#endif /* ROPEKIT_GRAPH_OPERATOR_REG_H_ */
