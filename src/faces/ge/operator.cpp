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

/* The attribute kinds (AttrKind but None): the C++ type of a value, the kind, whose
 * enumerator is also its name ("Int", "ListInt"), and the AttrData field that holds it. */
#define RK_ATTR_KINDS(X)                                                                           \
    X(int64_t, Int, i)                                                                             \
    X(float, Float, f)                                                                             \
    X(bool, Bool, b)                                                                               \
    X(std::string, String, s)                                                                      \
    X(ge::Tensor, Tensor, t)                                                                       \
    X(ge::DataType, Type, type)                                                                    \
    X(std::vector<int64_t>, ListInt, list_int)                                                     \
    X(std::vector<float>, ListFloat, list_float)                                                   \
    X(std::vector<bool>, ListBool, list_bool)                                                      \
    X(std::vector<std::string>, ListString, list_string)                                           \
    X(std::vector<ge::Tensor>, ListTensor, list_tensor)                                            \
    X(std::vector<std::vector<int64_t>>, ListListInt, list_list_int)                               \
    X(std::vector<ge::DataType>, ListType, list_type)

namespace ropekit_ge {

namespace {
struct KindRow {
    AttrKind kind;
    const char *name;
};
#define RK_KIND_ROW(T, kind, field) {AttrKind::kind, #kind},
const KindRow kKinds[] = {RK_ATTR_KINDS(RK_KIND_ROW)};
#undef RK_KIND_ROW

/* How a value reads in messages and dumps: 1, 0.5, true, "text", DT_FLOAT, Tensor{...},
 * [a, b] for a list. */
std::string Text(int64_t v) {
    return std::to_string(v);
}
std::string Text(float v) {
    return Format("%g", static_cast<double>(v));
}
std::string Text(bool v) {
    return v ? "true" : "false";
}
std::string Text(const std::string &v) {
    return "\"" + v + "\"";
}
std::string Text(ge::DataType v) {
    return DataTypeName(v);
}
std::string Text(const ge::Tensor &t);
template <typename T> std::string Text(const std::vector<T> &v) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i)
        out += (i ? ", " : "") + Text(v[i]);
    return out + "]";
}
std::string Text(const ge::Tensor &t) {
    ge::TensorDesc d = t.GetTensorDesc();
    return Format("Tensor{shape %s, %s, %zu bytes}", Text(d.GetShape().GetDims()).c_str(),
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
#define RK_TEXT_CASE(T, kind, field)                                                               \
    case AttrKind::kind:                                                                           \
        return Text(a.field);
        RK_ATTR_KINDS(RK_TEXT_CASE)
#undef RK_TEXT_CASE
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

static int PortIndex(const std::vector<ropekit_ge::IrPort> &ports, const std::string &port) {
    for (size_t i = 0; i < ports.size(); ++i)
        if (ports[i].name == port)
            return static_cast<int>(i);
    return -1;
}

int OperatorImpl::InputIndex(const std::string &port) const {
    return PortIndex(inputs, port);
}
int OperatorImpl::OutputIndex(const std::string &port) const {
    return PortIndex(outputs, port);
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

namespace {
/* GetName and GetOpType into an AscendString: the node's `field`. */
graphStatus CopyOut(const std::shared_ptr<OperatorImpl> &impl, std::string OperatorImpl::*field,
                    AscendString &out) {
    if (!impl)
        return GRAPH_FAILED;
    out = AscendString(((*impl).*field).c_str());
    return GRAPH_SUCCESS;
}
} // namespace

std::string Operator::GetName() const {
    return impl_ ? impl_->name : std::string();
}
graphStatus Operator::GetName(AscendString &name) const {
    return CopyOut(impl_, &OperatorImpl::name, name);
}
std::string Operator::GetOpType() const {
    return impl_ ? impl_->type : std::string();
}
graphStatus Operator::GetOpType(AscendString &type) const {
    return CopyOut(impl_, &OperatorImpl::type, type);
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

/* Attribute values and the C++ types they are set from and read into: AttrValue(v) is v as
 * an attribute; FromAttr(a, out) reads a into out when a is of out's kind (and, for the
 * narrower integers, fits), and otherwise returns false and leaves out as it was. */

template <typename T> AttrData Holding(AttrKind kind, T AttrData::*field, const T &v) {
    AttrData a;
    a.kind = kind;
    a.*field = v;
    return a;
}
template <typename T> bool Taking(const AttrData &a, AttrKind kind, T AttrData::*field, T &out) {
    if (a.kind != kind)
        return false;
    out = a.*field;
    return true;
}

#define RK_HELD_ATTR(T, kind, field)                                                               \
    AttrData AttrValue(const T &v) {                                                               \
        return Holding(AttrKind::kind, &AttrData::field, v);                                       \
    }                                                                                              \
    bool FromAttr(const AttrData &a, T &out) {                                                     \
        return Taking(a, AttrKind::kind, &AttrData::field, out);                                   \
    }
RK_ATTR_KINDS(RK_HELD_ATTR)
#undef RK_HELD_ATTR

/* int32 and uint32 values and lists are held as int64, and read back when they fit. */
template <typename T> bool FitsInt(int64_t v) {
    if (v < 0)
        return v >= static_cast<int64_t>(std::numeric_limits<T>::min());
    return static_cast<uint64_t>(v) <= static_cast<uint64_t>(std::numeric_limits<T>::max());
}
template <typename T> AttrData IntValue(T v) {
    return AttrValue(static_cast<int64_t>(v));
}
template <typename T> AttrData IntListValue(const std::vector<T> &v) {
    return AttrValue(std::vector<int64_t>(v.begin(), v.end()));
}
template <typename T> bool FromInt(const AttrData &a, T &out) {
    if (a.kind != AttrKind::Int || (std::is_unsigned<T>::value && a.i < 0) || !FitsInt<T>(a.i))
        return false;
    out = static_cast<T>(a.i);
    return true;
}
template <typename T> bool FromIntList(const AttrData &a, std::vector<T> &out) {
    if (a.kind != AttrKind::ListInt)
        return false;
    std::vector<T> v;
    for (int64_t x : a.list_int) {
        if ((std::is_unsigned<T>::value && x < 0) || !FitsInt<T>(x))
            return false;
        v.push_back(static_cast<T>(x));
    }
    out.swap(v);
    return true;
}
#define RK_NARROW_INT_ATTR(T)                                                                      \
    AttrData AttrValue(T v) {                                                                      \
        return IntValue(v);                                                                        \
    }                                                                                              \
    AttrData AttrValue(const std::vector<T> &v) {                                                  \
        return IntListValue(v);                                                                    \
    }                                                                                              \
    bool FromAttr(const AttrData &a, T &out) {                                                     \
        return FromInt(a, out);                                                                    \
    }                                                                                              \
    bool FromAttr(const AttrData &a, std::vector<T> &out) {                                        \
        return FromIntList(a, out);                                                                \
    }
RK_NARROW_INT_ATTR(int32_t)
RK_NARROW_INT_ATTR(uint32_t)
#undef RK_NARROW_INT_ATTR

/* Strings are also set from C strings and AscendStrings, and read into AscendStrings. */
AttrData AttrValue(const char_t *v) {
    return AttrValue(std::string(v ? v : ""));
}
AttrData AttrValue(const AscendString &v) {
    return AttrValue(std::string(v.GetString()));
}
AttrData AttrValue(const std::vector<AscendString> &v) {
    std::vector<std::string> strings;
    for (const AscendString &s : v)
        strings.push_back(s.GetString());
    return AttrValue(strings);
}
bool FromAttr(const AttrData &a, AscendString &out) {
    if (a.kind != AttrKind::String)
        return false;
    out = AscendString(a.s.c_str());
    return true;
}
bool FromAttr(const AttrData &a, std::vector<AscendString> &out) {
    if (a.kind != AttrKind::ListString)
        return false;
    out.clear();
    for (const std::string &s : a.list_string)
        out.emplace_back(s.c_str());
    return true;
}
} // namespace

/* AttrRegister of each type a prototype's attribute may have (Operator::Op<Type>): the
 * kinds' types, and AscendStrings. */
#define RK_ATTR_REGISTER(T)                                                                        \
    void Operator::AttrRegister(const char_t *name, const T &v) {                                  \
        RegisterDefault(*impl_, name, AttrValue(v));                                               \
    }
#define RK_ATTR_REGISTER_KIND(T, kind, field) RK_ATTR_REGISTER(T)
RK_ATTR_KINDS(RK_ATTR_REGISTER_KIND)
RK_ATTR_REGISTER(AscendString)
RK_ATTR_REGISTER(std::vector<AscendString>)
#undef RK_ATTR_REGISTER_KIND
#undef RK_ATTR_REGISTER

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

/* Connects the input named dst_name (NULL: "") of dst. */
void ConnectByName(const std::shared_ptr<OperatorImpl> &dst, const char_t *dst_name,
                   const Operator &src, const ropekit_ge::InputLink &how) {
    std::string text = dst_name ? dst_name : "";
    Connect(dst, dst ? dst->InputIndex(text) : -1, text, src, how);
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
    ConnectByName(impl_, dst_name, src_oprt, LinkBy(ropekit_ge::InputLink::By::OnlyOutput, "", 0));
    return *this;
}
Operator &Operator::SetInput(const std::string &dst_name, const Operator &src_oprt) {
    return SetInput(dst_name.c_str(), src_oprt);
}
Operator &Operator::SetInput(const char_t *dst_name, const Operator &src_oprt, const char_t *name) {
    ConnectByName(impl_, dst_name, src_oprt,
                  LinkBy(ropekit_ge::InputLink::By::Name, name ? name : "", 0));
    return *this;
}
Operator &Operator::SetInput(const std::string &dst_name, const Operator &src_oprt,
                             const std::string &name) {
    return SetInput(dst_name.c_str(), src_oprt, name.c_str());
}
Operator &Operator::SetInput(const char_t *dst_name, const Operator &src_oprt, uint32_t index) {
    ConnectByName(impl_, dst_name, src_oprt, LinkBy(ropekit_ge::InputLink::By::Index, "", index));
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

namespace {
/* A node's inputs or outputs: the prototype's ports, their descriptions and whether each
 * was set, and how the messages name them. */
struct Side {
    std::vector<ropekit_ge::IrPort> OperatorImpl::*ports;
    std::vector<TensorDesc> OperatorImpl::*descs;
    std::vector<bool> OperatorImpl::*desc_set;
    const char *update; /* the entry point that sets a description */
    const char *port;   /* "input" */
};
const Side kInputs = {&OperatorImpl::inputs, &OperatorImpl::input_descs,
                      &OperatorImpl::input_desc_set, "UpdateInputDesc", "input"};
const Side kOutputs = {&OperatorImpl::outputs, &OperatorImpl::output_descs,
                       &OperatorImpl::output_desc_set, "UpdateOutputDesc", "output"};

/* The index of the port `name`; -1 when there is none (or no node, or no name). */
int DescIndex(const std::shared_ptr<OperatorImpl> &impl, const Side &side, const char_t *name) {
    return impl && name ? PortIndex((*impl).*side.ports, name) : -1;
}

TensorDesc DescByName(const std::shared_ptr<OperatorImpl> &impl, const Side &side,
                      const char_t *name) {
    int i = DescIndex(impl, side, name);
    return i < 0 ? TensorDesc() : ((*impl).*side.descs)[static_cast<size_t>(i)];
}

TensorDesc DescByIndex(const std::shared_ptr<OperatorImpl> &impl, const Side &side,
                       uint32_t index) {
    if (!impl || index >= ((*impl).*side.descs).size())
        return TensorDesc();
    return ((*impl).*side.descs)[index];
}

graphStatus UpdateDesc(const std::shared_ptr<OperatorImpl> &impl, const Side &side,
                       const char_t *name, const TensorDesc &desc) {
    int i = DescIndex(impl, side, name);
    if (i < 0)
        return ropekit_ge::Fail(
            GRAPH_FAILED,
            impl ? ropekit_ge::Format("%s: %s(%s): no such %s (%ss: %s)", impl->Describe().c_str(),
                                      side.update, name ? name : "", side.port, side.port,
                                      PortNames((*impl).*side.ports).c_str())
                 : ropekit_ge::Format("%s: the operator is empty", side.update));
    ((*impl).*side.descs)[static_cast<size_t>(i)] = desc;
    ((*impl).*side.desc_set)[static_cast<size_t>(i)] = true;
    return GRAPH_SUCCESS;
}
} // namespace

/* The description accessors of the inputs and of the outputs, which differ only in names. */
#define RK_DESC_ACCESSORS(Side, side)                                                              \
    TensorDesc Operator::Get##Side##DescByName(const char_t *name) const {                         \
        return DescByName(impl_, side, name);                                                      \
    }                                                                                              \
    TensorDesc Operator::Get##Side##Desc(const std::string &name) const {                          \
        return Get##Side##DescByName(name.c_str());                                                \
    }                                                                                              \
    TensorDesc Operator::Get##Side##Desc(uint32_t index) const {                                   \
        return DescByIndex(impl_, side, index);                                                    \
    }                                                                                              \
    graphStatus Operator::Update##Side##Desc(const char_t *name, const TensorDesc &tensor_desc) {  \
        return UpdateDesc(impl_, side, name, tensor_desc);                                         \
    }                                                                                              \
    graphStatus Operator::Update##Side##Desc(const std::string &name,                              \
                                             const TensorDesc &tensor_desc) {                      \
        return Update##Side##Desc(name.c_str(), tensor_desc);                                      \
    }
RK_DESC_ACCESSORS(Input, kInputs)
RK_DESC_ACCESSORS(Output, kOutputs)
#undef RK_DESC_ACCESSORS

graphStatus Operator::TryGetInputDesc(const char_t *name, TensorDesc &tensor_desc) const {
    int i = DescIndex(impl_, kInputs, name);
    if (i < 0)
        return GRAPH_FAILED;
    tensor_desc = impl_->input_descs[static_cast<size_t>(i)];
    return GRAPH_SUCCESS;
}
graphStatus Operator::TryGetInputDesc(const std::string &name, TensorDesc &tensor_desc) const {
    return TryGetInputDesc(name.c_str(), tensor_desc);
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

namespace {
void NoteKind(std::map<AscendString, AscendString> &attr_name_types, const std::string &name,
              AttrKind kind) {
    attr_name_types[AscendString(name.c_str())] = AscendString(ropekit_ge::AttrKindName(kind));
}
} // namespace

graphStatus
Operator::GetAllAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const {
    if (!impl_)
        return GRAPH_FAILED;
    (void)GetAllIrAttrNamesAndTypes(attr_name_types);
    for (const auto &a : impl_->attrs)
        NoteKind(attr_name_types, a.first, a.second.kind);
    return GRAPH_SUCCESS;
}

graphStatus
Operator::GetAllIrAttrNamesAndTypes(std::map<AscendString, AscendString> &attr_name_types) const {
    if (!impl_)
        return GRAPH_FAILED;
    for (const ropekit_ge::IrAttr &a : impl_->ir_attrs)
        NoteKind(attr_name_types, a.name, a.kind);
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

/* GetAttr: the value of `name` (set on the node, else the prototype's default) into out. */
template <typename T>
graphStatus Read(const std::shared_ptr<OperatorImpl> &impl, const char_t *name, T &out) {
    if (!impl || !name)
        return GRAPH_FAILED;
    const AttrData *a = impl->Attr(name);
    return a && FromAttr(*a, out) ? GRAPH_SUCCESS : GRAPH_FAILED;
}
} // namespace

/* SetAttr and GetAttr by a C string name, for each type graph/operator.h declares them with. */
#define RK_SET_ATTR(T)                                                                             \
    Operator &Operator::SetAttr(const char_t *name, T v) {                                         \
        Store(impl_, name, AttrValue(v));                                                          \
        return *this;                                                                              \
    }
RK_SET_ATTR(int64_t)
RK_SET_ATTR(int32_t)
RK_SET_ATTR(uint32_t)
RK_SET_ATTR(const std::vector<int64_t> &)
RK_SET_ATTR(const std::vector<int32_t> &)
RK_SET_ATTR(const std::vector<uint32_t> &)
RK_SET_ATTR(float32_t)
RK_SET_ATTR(const std::vector<float32_t> &)
RK_SET_ATTR(const char_t *)
RK_SET_ATTR(const AscendString &)
RK_SET_ATTR(const std::vector<AscendString> &)
RK_SET_ATTR(bool)
RK_SET_ATTR(const std::vector<bool> &)
RK_SET_ATTR(const Tensor &)
RK_SET_ATTR(const std::vector<Tensor> &)
RK_SET_ATTR(const std::vector<std::vector<int64_t>> &)
RK_SET_ATTR(const DataType &)
RK_SET_ATTR(const std::vector<DataType> &)
#undef RK_SET_ATTR

#define RK_GET_ATTR(T)                                                                             \
    graphStatus Operator::GetAttr(const char_t *name, T &v) const {                                \
        return Read(impl_, name, v);                                                               \
    }
RK_GET_ATTR(int64_t)
RK_GET_ATTR(int32_t)
RK_GET_ATTR(uint32_t)
RK_GET_ATTR(std::vector<int64_t>)
RK_GET_ATTR(std::vector<int32_t>)
RK_GET_ATTR(std::vector<uint32_t>)
RK_GET_ATTR(float32_t)
RK_GET_ATTR(std::vector<float32_t>)
RK_GET_ATTR(AscendString)
RK_GET_ATTR(std::vector<AscendString>)
RK_GET_ATTR(bool)
RK_GET_ATTR(std::vector<bool>)
RK_GET_ATTR(Tensor)
RK_GET_ATTR(std::vector<Tensor>)
RK_GET_ATTR(std::vector<std::vector<int64_t>>)
RK_GET_ATTR(DataType)
RK_GET_ATTR(std::vector<DataType>)
#undef RK_GET_ATTR

Operator &Operator::SetAttr(const char_t *name, std::initializer_list<int64_t> &&v) {
    Store(impl_, name, AttrValue(std::vector<int64_t>(v)));
    return *this;
}

/* The std::string forms. */
Operator &Operator::SetAttr(const std::string &name, const std::string &v) {
    Store(impl_, name.c_str(), AttrValue(v));
    return *this;
}
Operator &Operator::SetAttr(const std::string &name, const std::vector<std::string> &v) {
    Store(impl_, name.c_str(), AttrValue(v));
    return *this;
}
graphStatus Operator::GetAttr(const std::string &name, std::string &v) const {
    return Read(impl_, name.c_str(), v);
}
graphStatus Operator::GetAttr(const std::string &name, std::vector<std::string> &v) const {
    return Read(impl_, name.c_str(), v);
}

} // namespace ge
