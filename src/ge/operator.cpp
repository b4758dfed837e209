#include "graph/operator.h"

#include <atomic>
#include <climits>
#include <limits>
#include <type_traits>

#include "messages.h"
#include "op_kernels.h"
#include "operator_factory_internal.h"
#include "operator_impl.h"
#include "types_table.h"

using ropekit_ge::AttrData;
using ropekit_ge::AttrKind;

namespace ropekit_ge {

namespace {
struct KindRow {
    AttrKind kind;
    const char *name;
};
const KindRow kKinds[] = {
    {AttrKind::Int, "Int"},
    {AttrKind::Float, "Float"},
    {AttrKind::Bool, "Bool"},
    {AttrKind::String, "String"},
    {AttrKind::Tensor, "Tensor"},
    {AttrKind::Type, "Type"},
    {AttrKind::ListInt, "ListInt"},
    {AttrKind::ListFloat, "ListFloat"},
    {AttrKind::ListBool, "ListBool"},
    {AttrKind::ListString, "ListString"},
    {AttrKind::ListTensor, "ListTensor"},
    {AttrKind::ListListInt, "ListListInt"},
    {AttrKind::ListType, "ListType"},
};

template <typename T> std::string JoinList(const std::vector<T> &v, std::string (*one)(const T &)) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + one(v[i]);
    return out + "]";
}
std::string IntText(const int64_t &v) {
    return std::to_string(v);
}
std::string FloatText(const float &v) {
    return Format("%g", static_cast<double>(v));
}
std::string BoolText(const bool &v) {
    return v ? "true" : "false";
}
std::string StringText(const std::string &v) {
    return "\"" + v + "\"";
}
std::string IntListText(const std::vector<int64_t> &v) {
    return JoinList(v, &IntText);
}
std::string TypeText(const ge::DataType &v) {
    return DataTypeName(v);
}
std::string TensorText(const ge::Tensor &t) {
    ge::TensorDesc d = t.GetTensorDesc();
    return Format("Tensor{shape %s, %s, %zu bytes}", IntListText(d.GetShape().GetDims()).c_str(),
                  DataTypeName(d.GetDataType()).c_str(), t.GetSize());
}
} // namespace

const char *AttrKindName(AttrKind kind) {
    for (const KindRow &row : kKinds)
        if (row.kind == kind)
            return row.name;
    return "None";
}

AttrKind AttrKindFromName(const std::string &name) {
    if (name == "AscendString")
        return AttrKind::String;
    if (name == "ListAscendString")
        return AttrKind::ListString;
    for (const KindRow &row : kKinds)
        if (name == row.name)
            return row.kind;
    return AttrKind::None;
}

std::string AttrToString(const AttrData &a) {
    switch (a.kind) {
    case AttrKind::Int:
        return IntText(a.i);
    case AttrKind::Float:
        return FloatText(a.f);
    case AttrKind::Bool:
        return BoolText(a.b);
    case AttrKind::String:
        return StringText(a.s);
    case AttrKind::Tensor:
        return TensorText(a.t);
    case AttrKind::Type:
        return TypeText(a.type);
    case AttrKind::ListInt:
        return IntListText(a.list_int);
    case AttrKind::ListFloat:
        return JoinList(a.list_float, &FloatText);
    case AttrKind::ListBool: {
        std::vector<bool> v = a.list_bool;
        std::string out = "[";
        for (size_t i = 0; i < v.size(); ++i)
            out += (i ? ", " : "") + BoolText(v[i]);
        return out + "]";
    }
    case AttrKind::ListString:
        return JoinList(a.list_string, &StringText);
    case AttrKind::ListTensor:
        return JoinList(a.list_tensor, &TensorText);
    case AttrKind::ListListInt:
        return JoinList(a.list_list_int, &IntListText);
    case AttrKind::ListType:
        return JoinList(a.list_type, &TypeText);
    case AttrKind::None:
        break;
    }
    return "(none)";
}

bool CheckNodeAttrs(const ge::OperatorImpl &op, std::string *problem) {
    for (const IrAttr &ir : op.ir_attrs) {
        auto it = op.attrs.find(ir.name);
        if (it == op.attrs.end()) {
            if (ir.required) {
                *problem = Format("%s: required attribute %s (%s) is not set",
                                  op.Describe().c_str(), ir.name.c_str(), AttrKindName(ir.kind));
                return false;
            }
            continue;
        }
        if (ir.kind != AttrKind::None && it->second.kind != ir.kind) {
            *problem =
                Format("%s: attribute %s = %s is %s; the prototype declares %s",
                       op.Describe().c_str(), ir.name.c_str(), AttrToString(it->second).c_str(),
                       AttrKindName(it->second.kind), AttrKindName(ir.kind));
            return false;
        }
    }
    return true;
}

} // namespace ropekit_ge

namespace ge {

/* ---- OperatorImpl ---- */

int OperatorImpl::InputIndex(const std::string &port) const {
    for (size_t i = 0; i < inputs.size(); ++i)
        if (inputs[i].name == port)
            return static_cast<int>(i);
    return -1;
}

int OperatorImpl::OutputIndex(const std::string &port) const {
    for (size_t i = 0; i < outputs.size(); ++i)
        if (outputs[i].name == port)
            return static_cast<int>(i);
    return -1;
}

const ropekit_ge::IrAttr *OperatorImpl::FindIrAttr(const std::string &attr) const {
    for (const ropekit_ge::IrAttr &a : ir_attrs)
        if (a.name == attr)
            return &a;
    return nullptr;
}

const AttrData *OperatorImpl::Attr(const std::string &attr) const {
    auto it = attrs.find(attr);
    if (it != attrs.end())
        return &it->second;
    const ropekit_ge::IrAttr *ir = FindIrAttr(attr);
    if (ir && ir->default_value.kind != AttrKind::None)
        return &ir->default_value;
    return nullptr;
}

static std::string PortNames(const std::vector<ropekit_ge::IrPort> &ports) {
    std::string out;
    for (const ropekit_ge::IrPort &p : ports)
        out += (out.empty() ? "" : ", ") + p.name;
    return out.empty() ? "none" : out;
}

std::string OperatorImpl::InputNames() const {
    return PortNames(inputs);
}
std::string OperatorImpl::OutputNames() const {
    return PortNames(outputs);
}

std::string OperatorImpl::Describe() const {
    return ropekit_ge::Format("node \"%s\" (%s)", name.c_str(), type.c_str());
}

/* ---- construction ---- */

namespace {

std::string AutoName(const char_t *name, const char_t *type) {
    static std::atomic<unsigned long long> counter(0);
    if (name && *name)
        return name;
    return ropekit_ge::Format("%s_%llu", type ? type : "Operator", counter.fetch_add(1));
}

std::shared_ptr<OperatorImpl> NewImpl(const char_t *name, const char_t *type) {
    auto impl = std::make_shared<OperatorImpl>();
    impl->type = type ? type : "";
    impl->name = AutoName(name, type);
    return impl;
}

void NoteBuildError(OperatorImpl &op, const std::string &message) {
    op.build_errors.push_back(message);
    (void)ropekit_ge::Fail(GRAPH_FAILED, message);
}

} // namespace

/* A registered type gets its prototype from the registered class. */
static std::shared_ptr<OperatorImpl> ImplForType(const char_t *name, const char_t *type) {
    Operator typed;
    std::string op_name = AutoName(name, type);
    if (type && ropekit_ge::CreateRegisteredOperator(type, AscendString(op_name.c_str()), &typed))
        return OperatorAdapter::Impl(typed);
    return NewImpl(op_name.c_str(), type);
}

Operator::Operator(const char_t *type) : impl_(ImplForType(nullptr, type)) {}
Operator::Operator(const std::string &type) : impl_(ImplForType(nullptr, type.c_str())) {}
Operator::Operator(const char_t *name, const char_t *type) : impl_(ImplForType(name, type)) {}
Operator::Operator(const std::string &name, const std::string &type)
    : impl_(ImplForType(name.c_str(), type.c_str())) {}
Operator::Operator(const AscendString &name, const AscendString &type)
    : impl_(ImplForType(name.GetString(), type.GetString())) {}
Operator::Operator(const char_t *name, const char_t *type, const OperatorIrTag &)
    : impl_(NewImpl(name, type)) {}
Operator::Operator(const AscendString &name, const char_t *type, const OperatorIrTag &)
    : impl_(NewImpl(name.GetString(), type)) {}

bool Operator::IsEmpty() const {
    return !impl_;
}

std::string Operator::GetName() const {
    return impl_ ? impl_->name : std::string();
}
graphStatus Operator::GetName(AscendString &name) const {
    if (!impl_)
        return GRAPH_FAILED;
    name = AscendString(impl_->name.c_str());
    return GRAPH_SUCCESS;
}
std::string Operator::GetOpType() const {
    return impl_ ? impl_->type : std::string();
}
graphStatus Operator::GetOpType(AscendString &type) const {
    if (!impl_)
        return GRAPH_FAILED;
    type = AscendString(impl_->type.c_str());
    return GRAPH_SUCCESS;
}

/* ---- prototype registration ---- */

namespace {
ropekit_ge::IrPort Port(const char_t *name, const char_t *datatype_symbol) {
    ropekit_ge::IrPort p;
    p.name = name ? name : "";
    p.type_text = datatype_symbol ? datatype_symbol : "";
    return p;
}
} // namespace

void Operator::InputRegister(const char_t *name, const char_t *datatype_symbol) {
    impl_->inputs.push_back(Port(name, datatype_symbol));
    impl_->input_descs.emplace_back();
    impl_->input_desc_set.push_back(false);
    impl_->links.emplace_back();
}

void Operator::OptionalInputRegister(const char_t *name, const char_t *datatype_symbol) {
    InputRegister(name, datatype_symbol);
    impl_->inputs.back().optional = true;
}

void Operator::OutputRegister(const char_t *name, const char_t *datatype_symbol) {
    impl_->outputs.push_back(Port(name, datatype_symbol));
    impl_->output_descs.emplace_back();
    impl_->output_desc_set.push_back(false);
}

void Operator::RequiredAttrRegister(const char_t *name, const char_t *type_name) {
    ropekit_ge::IrAttr a;
    a.name = name;
    a.kind = ropekit_ge::AttrKindFromName(type_name ? type_name : "");
    a.required = true;
    impl_->ir_attrs.push_back(a);
}

namespace {
void RegisterDefault(OperatorImpl &op, const char_t *name, const AttrData &value) {
    ropekit_ge::IrAttr a;
    a.name = name;
    a.kind = value.kind;
    a.default_value = value;
    op.ir_attrs.push_back(a);
}

AttrData Make(AttrKind kind) {
    AttrData a;
    a.kind = kind;
    return a;
}
AttrData MakeInt(int64_t v) {
    AttrData a = Make(AttrKind::Int);
    a.i = v;
    return a;
}
AttrData MakeFloat(float v) {
    AttrData a = Make(AttrKind::Float);
    a.f = v;
    return a;
}
AttrData MakeBool(bool v) {
    AttrData a = Make(AttrKind::Bool);
    a.b = v;
    return a;
}
AttrData MakeString(const std::string &v) {
    AttrData a = Make(AttrKind::String);
    a.s = v;
    return a;
}
AttrData MakeTensor(const Tensor &v) {
    AttrData a = Make(AttrKind::Tensor);
    a.t = v;
    return a;
}
AttrData MakeType(DataType v) {
    AttrData a = Make(AttrKind::Type);
    a.type = v;
    return a;
}
template <typename T> AttrData MakeListInt(const std::vector<T> &v) {
    AttrData a = Make(AttrKind::ListInt);
    a.list_int.assign(v.begin(), v.end());
    return a;
}
AttrData MakeListFloat(const std::vector<float> &v) {
    AttrData a = Make(AttrKind::ListFloat);
    a.list_float = v;
    return a;
}
AttrData MakeListBool(const std::vector<bool> &v) {
    AttrData a = Make(AttrKind::ListBool);
    a.list_bool = v;
    return a;
}
AttrData MakeListString(const std::vector<std::string> &v) {
    AttrData a = Make(AttrKind::ListString);
    a.list_string = v;
    return a;
}
AttrData MakeListAscend(const std::vector<AscendString> &v) {
    AttrData a = Make(AttrKind::ListString);
    for (const AscendString &s : v)
        a.list_string.push_back(s.GetString());
    return a;
}
AttrData MakeListTensor(const std::vector<Tensor> &v) {
    AttrData a = Make(AttrKind::ListTensor);
    a.list_tensor = v;
    return a;
}
AttrData MakeListListInt(const std::vector<std::vector<int64_t>> &v) {
    AttrData a = Make(AttrKind::ListListInt);
    a.list_list_int = v;
    return a;
}
AttrData MakeListType(const std::vector<DataType> &v) {
    AttrData a = Make(AttrKind::ListType);
    a.list_type = v;
    return a;
}
} // namespace

void Operator::AttrRegister(const char_t *name, const OpInt &v) {
    RegisterDefault(*impl_, name, MakeInt(v));
}
void Operator::AttrRegister(const char_t *name, const OpFloat &v) {
    RegisterDefault(*impl_, name, MakeFloat(v));
}
void Operator::AttrRegister(const char_t *name, const OpBool &v) {
    RegisterDefault(*impl_, name, MakeBool(v));
}
void Operator::AttrRegister(const char_t *name, const OpString &v) {
    RegisterDefault(*impl_, name, MakeString(v));
}
void Operator::AttrRegister(const char_t *name, const OpAscendString &v) {
    RegisterDefault(*impl_, name, MakeString(v.GetString()));
}
void Operator::AttrRegister(const char_t *name, const OpTensor &v) {
    RegisterDefault(*impl_, name, MakeTensor(v));
}
void Operator::AttrRegister(const char_t *name, const OpType &v) {
    RegisterDefault(*impl_, name, MakeType(v));
}
void Operator::AttrRegister(const char_t *name, const OpListInt &v) {
    RegisterDefault(*impl_, name, MakeListInt(v));
}
void Operator::AttrRegister(const char_t *name, const OpListFloat &v) {
    RegisterDefault(*impl_, name, MakeListFloat(v));
}
void Operator::AttrRegister(const char_t *name, const OpListBool &v) {
    RegisterDefault(*impl_, name, MakeListBool(v));
}
void Operator::AttrRegister(const char_t *name, const OpListString &v) {
    RegisterDefault(*impl_, name, MakeListString(v));
}
void Operator::AttrRegister(const char_t *name, const OpListAscendString &v) {
    RegisterDefault(*impl_, name, MakeListAscend(v));
}
void Operator::AttrRegister(const char_t *name, const OpListTensor &v) {
    RegisterDefault(*impl_, name, MakeListTensor(v));
}
void Operator::AttrRegister(const char_t *name, const OpListListInt &v) {
    RegisterDefault(*impl_, name, MakeListListInt(v));
}
void Operator::AttrRegister(const char_t *name, const OpListType &v) {
    RegisterDefault(*impl_, name, MakeListType(v));
}

/* ---- connections ---- */

namespace {
void Connect(const std::shared_ptr<OperatorImpl> &dst, int dst_index, const std::string &dst_text,
             const Operator &src, const ropekit_ge::InputLink &how) {
    if (!dst)
        return;
    try {
        const std::shared_ptr<OperatorImpl> &s = OperatorAdapter::Impl(src);
        if (!s) {
            NoteBuildError(*dst,
                           ropekit_ge::Format("%s: SetInput(%s): the source operator is empty",
                                              dst->Describe().c_str(), dst_text.c_str()));
            return;
        }
        if (dst_index < 0 || static_cast<size_t>(dst_index) >= dst->inputs.size()) {
            NoteBuildError(*dst, ropekit_ge::Format("%s: SetInput(%s): no such input (inputs: %s)",
                                                    dst->Describe().c_str(), dst_text.c_str(),
                                                    dst->InputNames().c_str()));
            return;
        }
        ropekit_ge::InputLink link = how;
        link.src = s;
        dst->links[static_cast<size_t>(dst_index)] = link;
    } catch (...) {
        (void)ropekit_ge::FailFromException("Operator::SetInput");
    }
}

ropekit_ge::InputLink LinkBy(ropekit_ge::InputLink::By by, const std::string &name,
                             uint32_t index) {
    ropekit_ge::InputLink l;
    l.by = by;
    l.src_name = name;
    l.src_index = index;
    return l;
}
} // namespace

Operator &Operator::SetInput(const char_t *dst_name, const Operator &src_oprt) {
    std::string dst = dst_name ? dst_name : "";
    Connect(impl_, impl_ ? impl_->InputIndex(dst) : -1, dst, src_oprt,
            LinkBy(ropekit_ge::InputLink::By::OnlyOutput, "", 0));
    return *this;
}
Operator &Operator::SetInput(const std::string &dst_name, const Operator &src_oprt) {
    return SetInput(dst_name.c_str(), src_oprt);
}
Operator &Operator::SetInput(const char_t *dst_name, const Operator &src_oprt, const char_t *name) {
    std::string dst = dst_name ? dst_name : "";
    Connect(impl_, impl_ ? impl_->InputIndex(dst) : -1, dst, src_oprt,
            LinkBy(ropekit_ge::InputLink::By::Name, name ? name : "", 0));
    return *this;
}
Operator &Operator::SetInput(const std::string &dst_name, const Operator &src_oprt,
                             const std::string &name) {
    return SetInput(dst_name.c_str(), src_oprt, name.c_str());
}
Operator &Operator::SetInput(const char_t *dst_name, const Operator &src_oprt, uint32_t index) {
    std::string dst = dst_name ? dst_name : "";
    Connect(impl_, impl_ ? impl_->InputIndex(dst) : -1, dst, src_oprt,
            LinkBy(ropekit_ge::InputLink::By::Index, "", index));
    return *this;
}
Operator &Operator::SetInput(const std::string &dst_name, const Operator &src_oprt,
                             uint32_t index) {
    return SetInput(dst_name.c_str(), src_oprt, index);
}
Operator &Operator::SetInput(uint32_t dst_index, const Operator &src_oprt, uint32_t src_index) {
    int dst = dst_index <= static_cast<uint32_t>(INT_MAX) ? static_cast<int>(dst_index) : -1;
    Connect(impl_, dst, "#" + std::to_string(dst_index), src_oprt,
            LinkBy(ropekit_ge::InputLink::By::Index, "", src_index));
    return *this;
}

Operator &Operator::AddControlInput(const Operator &src_oprt) {
    if (impl_ && OperatorAdapter::Impl(src_oprt)) {
        try {
            impl_->control_inputs.push_back(OperatorAdapter::Impl(src_oprt));
        } catch (...) {
            (void)ropekit_ge::FailFromException("Operator::AddControlInput");
        }
    }
    return *this;
}

void Operator::BreakConnect() const {
    if (!impl_)
        return;
    for (ropekit_ge::InputLink &l : impl_->links)
        l = ropekit_ge::InputLink();
    impl_->control_inputs.clear();
}

/* ---- descriptions ---- */

size_t Operator::GetInputsSize() const {
    return impl_ ? impl_->inputs.size() : 0;
}
size_t Operator::GetOutputsSize() const {
    return impl_ ? impl_->outputs.size() : 0;
}

TensorDesc Operator::GetInputDescByName(const char_t *name) const {
    TensorDesc desc;
    (void)TryGetInputDesc(name, desc);
    return desc;
}
TensorDesc Operator::GetInputDesc(const std::string &name) const {
    return GetInputDescByName(name.c_str());
}
TensorDesc Operator::GetInputDesc(uint32_t index) const {
    if (!impl_ || index >= impl_->input_descs.size())
        return TensorDesc();
    return impl_->input_descs[index];
}

graphStatus Operator::TryGetInputDesc(const char_t *name, TensorDesc &tensor_desc) const {
    int i = impl_ && name ? impl_->InputIndex(name) : -1;
    if (i < 0)
        return GRAPH_FAILED;
    tensor_desc = impl_->input_descs[static_cast<size_t>(i)];
    return GRAPH_SUCCESS;
}
graphStatus Operator::TryGetInputDesc(const std::string &name, TensorDesc &tensor_desc) const {
    return TryGetInputDesc(name.c_str(), tensor_desc);
}

graphStatus Operator::UpdateInputDesc(const char_t *name, const TensorDesc &tensor_desc) {
    int i = impl_ && name ? impl_->InputIndex(name) : -1;
    if (i < 0)
        return ropekit_ge::Fail(
            GRAPH_FAILED, impl_ ? ropekit_ge::Format("%s: UpdateInputDesc(%s): no such input "
                                                     "(inputs: %s)",
                                                     impl_->Describe().c_str(), name ? name : "",
                                                     impl_->InputNames().c_str())
                                : "UpdateInputDesc: the operator is empty");
    impl_->input_descs[static_cast<size_t>(i)] = tensor_desc;
    impl_->input_desc_set[static_cast<size_t>(i)] = true;
    return GRAPH_SUCCESS;
}
graphStatus Operator::UpdateInputDesc(const std::string &name, const TensorDesc &tensor_desc) {
    return UpdateInputDesc(name.c_str(), tensor_desc);
}

TensorDesc Operator::GetOutputDescByName(const char_t *name) const {
    int i = impl_ && name ? impl_->OutputIndex(name) : -1;
    return i < 0 ? TensorDesc() : impl_->output_descs[static_cast<size_t>(i)];
}
TensorDesc Operator::GetOutputDesc(const std::string &name) const {
    return GetOutputDescByName(name.c_str());
}
TensorDesc Operator::GetOutputDesc(uint32_t index) const {
    if (!impl_ || index >= impl_->output_descs.size())
        return TensorDesc();
    return impl_->output_descs[index];
}

graphStatus Operator::UpdateOutputDesc(const char_t *name, const TensorDesc &tensor_desc) {
    int i = impl_ && name ? impl_->OutputIndex(name) : -1;
    if (i < 0)
        return ropekit_ge::Fail(
            GRAPH_FAILED, impl_ ? ropekit_ge::Format("%s: UpdateOutputDesc(%s): no such output "
                                                     "(outputs: %s)",
                                                     impl_->Describe().c_str(), name ? name : "",
                                                     impl_->OutputNames().c_str())
                                : "UpdateOutputDesc: the operator is empty");
    impl_->output_descs[static_cast<size_t>(i)] = tensor_desc;
    impl_->output_desc_set[static_cast<size_t>(i)] = true;
    return GRAPH_SUCCESS;
}
graphStatus Operator::UpdateOutputDesc(const std::string &name, const TensorDesc &tensor_desc) {
    return UpdateOutputDesc(name.c_str(), tensor_desc);
}

graphStatus Operator::InferShapeAndType() {
    if (!impl_)
        return ropekit_ge::Fail(GRAPH_FAILED, "InferShapeAndType: the operator is empty");
    const ropekit_ge::OpKernel *kernel = ropekit_ge::FindKernel(impl_->type);
    if (!kernel)
        return ropekit_ge::Fail(GRAPH_FAILED,
                                ropekit_ge::Format("%s: InferShapeAndType: not a type ropekit runs",
                                                   impl_->Describe().c_str()));
    for (size_t o = 0; o < impl_->outputs.size(); ++o) {
        int from = kernel->OutputTakesDescOf(*impl_, o);
        if (from >= 0) {
            impl_->output_descs[o] = impl_->input_descs[static_cast<size_t>(from)];
            impl_->output_desc_set[o] = true;
        }
    }
    return GRAPH_SUCCESS;
}

/* ---- attributes ---- */

graphStatus Operator::VerifyAllAttr(bool disable_common_verifier) {
    (void)disable_common_verifier;
    if (!impl_)
        return ropekit_ge::Fail(GRAPH_FAILED, "VerifyAllAttr: the operator is empty");
    std::string problem;
    if (!ropekit_ge::CheckNodeAttrs(*impl_, &problem))
        return ropekit_ge::Fail(GRAPH_FAILED, problem);
    return GRAPH_SUCCESS;
}

graphStatus
Operator::GetAllAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const {
    if (!impl_)
        return GRAPH_FAILED;
    (void)GetAllIrAttrNamesAndTypes(attr_name_types);
    for (const auto &a : impl_->attrs)
        attr_name_types[AscendString(a.first.c_str())] =
            AscendString(ropekit_ge::AttrKindName(a.second.kind));
    return GRAPH_SUCCESS;
}

graphStatus
Operator::GetAllIrAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const {
    if (!impl_)
        return GRAPH_FAILED;
    for (const ropekit_ge::IrAttr &a : impl_->ir_attrs)
        attr_name_types[AscendString(a.name.c_str())] =
            AscendString(ropekit_ge::AttrKindName(a.kind));
    return GRAPH_SUCCESS;
}

namespace {
void Store(const std::shared_ptr<OperatorImpl> &impl, const char_t *name, AttrData &&value) {
    if (!impl || !name)
        return;
    try {
        impl->attrs[name] = std::move(value);
    } catch (...) {
        (void)ropekit_ge::FailFromException("Operator::SetAttr");
    }
}

const AttrData *Lookup(const std::shared_ptr<OperatorImpl> &impl, const char_t *name,
                       AttrKind kind) {
    if (!impl || !name)
        return nullptr;
    const AttrData *a = impl->Attr(name);
    return a && a->kind == kind ? a : nullptr;
}

template <typename T> bool FitsInt(int64_t v) {
    if (v < 0)
        return v >= static_cast<int64_t>(std::numeric_limits<T>::min());
    return static_cast<uint64_t>(v) <= static_cast<uint64_t>(std::numeric_limits<T>::max());
}

template <typename T> graphStatus ReadInt(const AttrData *a, T &out) {
    if (!a || (std::is_unsigned<T>::value && a->i < 0) || !FitsInt<T>(a->i))
        return GRAPH_FAILED;
    out = static_cast<T>(a->i);
    return GRAPH_SUCCESS;
}

template <typename T> graphStatus ReadIntList(const AttrData *a, std::vector<T> &out) {
    if (!a)
        return GRAPH_FAILED;
    std::vector<T> v;
    for (int64_t x : a->list_int) {
        if ((std::is_unsigned<T>::value && x < 0) || !FitsInt<T>(x))
            return GRAPH_FAILED;
        v.push_back(static_cast<T>(x));
    }
    out.swap(v);
    return GRAPH_SUCCESS;
}
} // namespace

Operator &Operator::SetAttr(const char_t *name, int64_t v) {
    Store(impl_, name, MakeInt(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, int32_t v) {
    Store(impl_, name, MakeInt(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, uint32_t v) {
    Store(impl_, name, MakeInt(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<int64_t> &v) {
    Store(impl_, name, MakeListInt(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<int32_t> &v) {
    Store(impl_, name, MakeListInt(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<uint32_t> &v) {
    Store(impl_, name, MakeListInt(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, std::initializer_list<int64_t> &&v) {
    Store(impl_, name, MakeListInt(std::vector<int64_t>(v)));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, float32_t v) {
    Store(impl_, name, MakeFloat(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<float32_t> &v) {
    Store(impl_, name, MakeListFloat(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const char_t *v) {
    Store(impl_, name, MakeString(v ? v : ""));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const AscendString &v) {
    Store(impl_, name, MakeString(v.GetString()));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<AscendString> &v) {
    Store(impl_, name, MakeListAscend(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, bool v) {
    Store(impl_, name, MakeBool(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<bool> &v) {
    Store(impl_, name, MakeListBool(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const Tensor &v) {
    Store(impl_, name, MakeTensor(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<Tensor> &v) {
    Store(impl_, name, MakeListTensor(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<std::vector<int64_t>> &v) {
    Store(impl_, name, MakeListListInt(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const DataType &v) {
    Store(impl_, name, MakeType(v));
    return *this;
}
Operator &Operator::SetAttr(const char_t *name, const std::vector<DataType> &v) {
    Store(impl_, name, MakeListType(v));
    return *this;
}
Operator &Operator::SetAttr(const std::string &name, const std::string &v) {
    Store(impl_, name.c_str(), MakeString(v));
    return *this;
}
Operator &Operator::SetAttr(const std::string &name, const std::vector<std::string> &v) {
    Store(impl_, name.c_str(), MakeListString(v));
    return *this;
}

graphStatus Operator::GetAttr(const char_t *name, int64_t &v) const {
    return ReadInt(Lookup(impl_, name, AttrKind::Int), v);
}
graphStatus Operator::GetAttr(const char_t *name, int32_t &v) const {
    return ReadInt(Lookup(impl_, name, AttrKind::Int), v);
}
graphStatus Operator::GetAttr(const char_t *name, uint32_t &v) const {
    return ReadInt(Lookup(impl_, name, AttrKind::Int), v);
}
graphStatus Operator::GetAttr(const char_t *name, std::vector<int64_t> &v) const {
    return ReadIntList(Lookup(impl_, name, AttrKind::ListInt), v);
}
graphStatus Operator::GetAttr(const char_t *name, std::vector<int32_t> &v) const {
    return ReadIntList(Lookup(impl_, name, AttrKind::ListInt), v);
}
graphStatus Operator::GetAttr(const char_t *name, std::vector<uint32_t> &v) const {
    return ReadIntList(Lookup(impl_, name, AttrKind::ListInt), v);
}

#define RK_GET_ATTR(T, kind, field)                                                                \
    graphStatus Operator::GetAttr(const char_t *name, T &v) const {                                \
        const AttrData *a = Lookup(impl_, name, AttrKind::kind);                                   \
        if (!a)                                                                                    \
            return GRAPH_FAILED;                                                                   \
        v = a->field;                                                                              \
        return GRAPH_SUCCESS;                                                                      \
    }
RK_GET_ATTR(float32_t, Float, f)
RK_GET_ATTR(std::vector<float32_t>, ListFloat, list_float)
RK_GET_ATTR(bool, Bool, b)
RK_GET_ATTR(std::vector<bool>, ListBool, list_bool)
RK_GET_ATTR(Tensor, Tensor, t)
RK_GET_ATTR(std::vector<Tensor>, ListTensor, list_tensor)
RK_GET_ATTR(std::vector<std::vector<int64_t>>, ListListInt, list_list_int)
RK_GET_ATTR(DataType, Type, type)
RK_GET_ATTR(std::vector<DataType>, ListType, list_type)
#undef RK_GET_ATTR

graphStatus Operator::GetAttr(const char_t *name, AscendString &v) const {
    const AttrData *a = Lookup(impl_, name, AttrKind::String);
    if (!a)
        return GRAPH_FAILED;
    v = AscendString(a->s.c_str());
    return GRAPH_SUCCESS;
}
graphStatus Operator::GetAttr(const char_t *name, std::vector<AscendString> &v) const {
    const AttrData *a = Lookup(impl_, name, AttrKind::ListString);
    if (!a)
        return GRAPH_FAILED;
    v.clear();
    for (const std::string &s : a->list_string)
        v.emplace_back(s.c_str());
    return GRAPH_SUCCESS;
}
graphStatus Operator::GetAttr(const std::string &name, std::string &v) const {
    const AttrData *a = Lookup(impl_, name.c_str(), AttrKind::String);
    if (!a)
        return GRAPH_FAILED;
    v = a->s;
    return GRAPH_SUCCESS;
}
graphStatus Operator::GetAttr(const std::string &name, std::vector<std::string> &v) const {
    const AttrData *a = Lookup(impl_, name.c_str(), AttrKind::ListString);
    if (!a)
        return GRAPH_FAILED;
    v = a->list_string;
    return GRAPH_SUCCESS;
}

} // namespace ge
