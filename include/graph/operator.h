/* GE graph API (ropekit): Operator, one node of a graph.
 *
 * An Operator is a handle: copies (and the op::<Type> classes made by REG_OP, and values
 * returned by their set_* methods) all refer to the same node. A node has a name, a type,
 * its prototype (inputs, outputs and attributes, registered by the op::<Type> class), the
 * connections of its inputs, tensor descriptions of its inputs and outputs, and attribute
 * values. Mistakes made while building (an input name the prototype does not have, an
 * ambiguous source) are remembered on the node and reported by Session::AddGraph; the
 * call also sets the message that GEGetErrorMsgV2 returns. */
#ifndef ROPEKIT_GRAPH_OPERATOR_H_
#define ROPEKIT_GRAPH_OPERATOR_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "graph/ascend_string.h"
#include "graph/error_codes.h"
#include "graph/tensor.h"
#include "graph/types.h"

namespace ge {

class OperatorImpl;
class Graph;

/* Selects the constructor that op::<Type> classes use: the class registers the
 * prototype itself. */
struct OperatorIrTag {};

class GE_FUNC_VISIBILITY Operator {
  public:
    using OpInt = int64_t;
    using OpFloat = float32_t;
    using OpString = std::string;
    using OpAscendString = AscendString;
    using OpBool = bool;
    using OpTensor = Tensor;
    using OpType = DataType;
    using OpListInt = std::vector<int64_t>;
    using OpListFloat = std::vector<float32_t>;
    using OpListString = std::vector<std::string>;
    using OpListAscendString = std::vector<AscendString>;
    using OpListBool = std::vector<bool>;
    using OpListTensor = std::vector<Tensor>;
    using OpListListInt = std::vector<std::vector<int64_t>>;
    using OpListType = std::vector<DataType>;

    /* An empty handle (IsEmpty()): every call on it fails or returns defaults. */
    Operator() = default;
    /* A node of `type` named "<type>_<n>". When the type's prototype is registered (the
     * RoPE operators, Data and Const always are), the node gets it. */
    explicit Operator(const char_t *type);
    explicit Operator(const std::string &type);
    Operator(const char_t *name, const char_t *type);
    Operator(const std::string &name, const std::string &type);
    Operator(const AscendString &name, const AscendString &type);
    virtual ~Operator() = default;

    bool IsEmpty() const;
    std::string GetName() const;
    graphStatus GetName(AscendString &name) const;
    std::string GetOpType() const;
    graphStatus GetOpType(AscendString &type) const;

    /* Connects input dst_name to an output of src_oprt: its only output, the output
     * named `name`, or output number `index`. */
    Operator &SetInput(const char_t *dst_name, const Operator &src_oprt);
    Operator &SetInput(const std::string &dst_name, const Operator &src_oprt);
    Operator &SetInput(const char_t *dst_name, const Operator &src_oprt, const char_t *name);
    Operator &SetInput(const std::string &dst_name, const Operator &src_oprt,
                       const std::string &name);
    Operator &SetInput(const char_t *dst_name, const Operator &src_oprt, uint32_t index);
    Operator &SetInput(const std::string &dst_name, const Operator &src_oprt, uint32_t index);
    Operator &SetInput(uint32_t dst_index, const Operator &src_oprt, uint32_t src_index);
    /* src_oprt runs before this node. */
    Operator &AddControlInput(const Operator &src_oprt);
    /* Drops this node's input connections (a graph that links nodes in a cycle keeps
     * them alive until one of them breaks its connections). */
    void BreakConnect() const;

    size_t GetInputsSize() const;
    size_t GetOutputsSize() const;
    /* A default TensorDesc for a name or index the prototype does not have. */
    TensorDesc GetInputDescByName(const char_t *name) const;
    TensorDesc GetInputDesc(const std::string &name) const;
    TensorDesc GetInputDesc(uint32_t index) const;
    graphStatus TryGetInputDesc(const char_t *name, TensorDesc &tensor_desc) const;
    graphStatus TryGetInputDesc(const std::string &name, TensorDesc &tensor_desc) const;
    graphStatus UpdateInputDesc(const char_t *name, const TensorDesc &tensor_desc);
    graphStatus UpdateInputDesc(const std::string &name, const TensorDesc &tensor_desc);
    TensorDesc GetOutputDescByName(const char_t *name) const;
    TensorDesc GetOutputDesc(const std::string &name) const;
    TensorDesc GetOutputDesc(uint32_t index) const;
    graphStatus UpdateOutputDesc(const char_t *name, const TensorDesc &tensor_desc);
    graphStatus UpdateOutputDesc(const std::string &name, const TensorDesc &tensor_desc);

    /* For the RoPE operators: sets the output descriptions from the input descriptions
     * (each output as its input). GRAPH_FAILED for other types. */
    graphStatus InferShapeAndType();
    /* GRAPH_SUCCESS when every required attribute is set and every attribute has the
     * type its prototype declares; otherwise GRAPH_FAILED with the message set. */
    graphStatus VerifyAllAttr(bool disable_common_verifier = false);
    /* Attribute names with their types ("Int", "ListInt", ...): those set on the node
     * and those of the prototype. */
    graphStatus
    GetAllAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const;
    /* The prototype's attributes only. */
    graphStatus
    GetAllIrAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const;

    /* Attributes. A value of another type than the prototype declares is kept and reported
     * by Session::AddGraph. GetAttr fails for an attribute that is neither set nor has a
     * default, and for a type other than the stored one (Int values read as int32/uint32
     * when they fit). */
    Operator &SetAttr(const char_t *name, int64_t attr_value);
    Operator &SetAttr(const char_t *name, int32_t attr_value);
    Operator &SetAttr(const char_t *name, uint32_t attr_value);
    Operator &SetAttr(const char_t *name, const std::vector<int64_t> &attr_value);
    Operator &SetAttr(const char_t *name, const std::vector<int32_t> &attr_value);
    Operator &SetAttr(const char_t *name, const std::vector<uint32_t> &attr_value);
    Operator &SetAttr(const char_t *name, std::initializer_list<int64_t> &&attr_value);
    Operator &SetAttr(const char_t *name, float32_t attr_value);
    Operator &SetAttr(const char_t *name, const std::vector<float32_t> &attr_value);
    Operator &SetAttr(const char_t *name, const char_t *attr_value);
    Operator &SetAttr(const char_t *name, const AscendString &attr_value);
    Operator &SetAttr(const char_t *name, const std::vector<AscendString> &attr_values);
    Operator &SetAttr(const char_t *name, bool attr_value);
    Operator &SetAttr(const char_t *name, const std::vector<bool> &attr_value);
    Operator &SetAttr(const char_t *name, const Tensor &attr_value);
    Operator &SetAttr(const char_t *name, const std::vector<Tensor> &attr_value);
    Operator &SetAttr(const char_t *name, const std::vector<std::vector<int64_t>> &attr_value);
    Operator &SetAttr(const char_t *name, const DataType &attr_value);
    Operator &SetAttr(const char_t *name, const std::vector<DataType> &attr_value);
    Operator &SetAttr(const std::string &name, const std::string &attr_value);
    Operator &SetAttr(const std::string &name, const std::vector<std::string> &attr_value);

    graphStatus GetAttr(const char_t *name, int64_t &attr_value) const;
    graphStatus GetAttr(const char_t *name, int32_t &attr_value) const;
    graphStatus GetAttr(const char_t *name, uint32_t &attr_value) const;
    graphStatus GetAttr(const char_t *name, std::vector<int64_t> &attr_value) const;
    graphStatus GetAttr(const char_t *name, std::vector<int32_t> &attr_value) const;
    graphStatus GetAttr(const char_t *name, std::vector<uint32_t> &attr_value) const;
    graphStatus GetAttr(const char_t *name, float32_t &attr_value) const;
    graphStatus GetAttr(const char_t *name, std::vector<float32_t> &attr_value) const;
    graphStatus GetAttr(const char_t *name, AscendString &attr_value) const;
    graphStatus GetAttr(const char_t *name, std::vector<AscendString> &attr_values) const;
    graphStatus GetAttr(const char_t *name, bool &attr_value) const;
    graphStatus GetAttr(const char_t *name, std::vector<bool> &attr_value) const;
    graphStatus GetAttr(const char_t *name, Tensor &attr_value) const;
    graphStatus GetAttr(const char_t *name, std::vector<Tensor> &attr_value) const;
    graphStatus GetAttr(const char_t *name, std::vector<std::vector<int64_t>> &attr_value) const;
    graphStatus GetAttr(const char_t *name, DataType &attr_value) const;
    graphStatus GetAttr(const char_t *name, std::vector<DataType> &attr_value) const;
    graphStatus GetAttr(const std::string &name, std::string &attr_value) const;
    graphStatus GetAttr(const std::string &name, std::vector<std::string> &attr_value) const;

  protected:
    /* Used by op::<Type> classes (graph/operator_reg.h): an empty prototype that the
     * class fills in; name NULL or "" gives "<type>_<n>". */
    Operator(const char_t *name, const char_t *type, const OperatorIrTag &);
    Operator(const AscendString &name, const char_t *type, const OperatorIrTag &);

    /* Prototype registration. datatype_symbol is the declaration's type text, e.g.
     * "TensorType({DT_FLOAT16, DT_FLOAT})"; its DT_* names are the allowed types. */
    void InputRegister(const char_t *name, const char_t *datatype_symbol);
    void OptionalInputRegister(const char_t *name, const char_t *datatype_symbol);
    void OutputRegister(const char_t *name, const char_t *datatype_symbol);
    void RequiredAttrRegister(const char_t *name, const char_t *type_name);
    void AttrRegister(const char_t *name, const OpInt &default_value);
    void AttrRegister(const char_t *name, const OpFloat &default_value);
    void AttrRegister(const char_t *name, const OpBool &default_value);
    void AttrRegister(const char_t *name, const OpString &default_value);
    void AttrRegister(const char_t *name, const OpAscendString &default_value);
    void AttrRegister(const char_t *name, const OpTensor &default_value);
    void AttrRegister(const char_t *name, const OpType &default_value);
    void AttrRegister(const char_t *name, const OpListInt &default_value);
    void AttrRegister(const char_t *name, const OpListFloat &default_value);
    void AttrRegister(const char_t *name, const OpListBool &default_value);
    void AttrRegister(const char_t *name, const OpListString &default_value);
    void AttrRegister(const char_t *name, const OpListAscendString &default_value);
    void AttrRegister(const char_t *name, const OpListTensor &default_value);
    void AttrRegister(const char_t *name, const OpListListInt &default_value);
    void AttrRegister(const char_t *name, const OpListType &default_value);

  private:
    std::shared_ptr<OperatorImpl> impl_;
    friend class OperatorAdapter;
};

} // namespace ge

#endif /* ROPEKIT_GRAPH_OPERATOR_H_ */
