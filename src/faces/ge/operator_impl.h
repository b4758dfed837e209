/* Inside a ge::Operator: the node's prototype, connections, descriptions, attributes and
 * the mistakes made while building it. */
#ifndef ROPEKIT_GE_OPERATOR_IMPL_H_
#define ROPEKIT_GE_OPERATOR_IMPL_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/operator.h"

namespace ropekit_ge {

/* Attribute types, named as prototypes name them. */
enum class AttrKind {
    None,
    Int,
    Float,
    Bool,
    String,
    Tensor,
    Type,
    ListInt,
    ListFloat,
    ListBool,
    ListString,
    ListTensor,
    ListListInt,
    ListType
};
/* "Int", "ListInt", ...; AscendString attributes are String. */
const char *AttrKindName(AttrKind kind);
/* The kind of a prototype's type name ("Int", "AscendString", ...); None when unknown. */
AttrKind AttrKindFromName(const std::string &name);

struct AttrData {
    AttrKind kind = AttrKind::None;
    int64_t i = 0;
    float f = 0.0f;
    bool b = false;
    std::string s;
    ge::Tensor t;
    ge::DataType type = ge::DT_UNDEFINED;
    std::vector<int64_t> list_int;
    std::vector<float> list_float;
    std::vector<bool> list_bool;
    std::vector<std::string> list_string;
    std::vector<ge::Tensor> list_tensor;
    std::vector<std::vector<int64_t>> list_list_int;
    std::vector<ge::DataType> list_type;
};
/* "1", "[0, 128]", "true", "\"text\"", "Tensor{...}": how dumps and messages show it. */
std::string AttrToString(const AttrData &value);

struct IrPort {
    std::string name;
    std::string type_text; /* the declaration, e.g. "TensorType({DT_FLOAT})" */
    bool optional = false;
};

struct IrAttr {
    std::string name;
    AttrKind kind = AttrKind::None;
    bool required = false;
    AttrData default_value; /* kind None for a required attribute */
};

/* Where an input reads from. */
struct InputLink {
    std::shared_ptr<ge::OperatorImpl> src; /* NULL: not connected */
    enum class By { OnlyOutput, Name, Index } by = By::OnlyOutput;
    std::string src_name;
    uint32_t src_index = 0;
};

} // namespace ropekit_ge

namespace ge {

class OperatorImpl {
  public:
    std::string name;
    std::string type;
    std::vector<ropekit_ge::IrPort> inputs;
    std::vector<ropekit_ge::IrPort> outputs;
    std::vector<ropekit_ge::IrAttr> ir_attrs;
    std::vector<TensorDesc> input_descs;
    std::vector<bool> input_desc_set;
    std::vector<TensorDesc> output_descs;
    std::vector<bool> output_desc_set;
    std::vector<ropekit_ge::InputLink> links; /* one per input */
    std::vector<std::shared_ptr<OperatorImpl>> control_inputs;
    std::map<std::string, ropekit_ge::AttrData> attrs; /* values set on the node */
    std::vector<std::string> build_errors;

    int InputIndex(const std::string &port) const;
    int OutputIndex(const std::string &port) const;
    const ropekit_ge::IrAttr *FindIrAttr(const std::string &attr) const;
    /* The value set on the node, else the prototype's default, else NULL. */
    const ropekit_ge::AttrData *Attr(const std::string &attr) const;
    /* "x, cos, sin" */
    std::string InputNames() const;
    std::string OutputNames() const;
    /* "node \"rope\" (RopeWithSinCosCache)" */
    std::string Describe() const;
};

class OperatorAdapter {
  public:
    static const std::shared_ptr<OperatorImpl> &Impl(const Operator &op) { return op.impl_; }
    static Operator Wrap(const std::shared_ptr<OperatorImpl> &impl) {
        Operator op;
        op.impl_ = impl;
        return op;
    }
};

} // namespace ge

namespace ropekit_ge {
/* True when every required attribute is set and every attribute has its prototype's type;
 * otherwise *problem says which is not. */
bool CheckNodeAttrs(const ge::OperatorImpl &op, std::string *problem);
} // namespace ropekit_ge

#endif /* ROPEKIT_GE_OPERATOR_IMPL_H_ */
