/* The GE API's many small entry points, overload by overload: a prototype with an
 * attribute of every type (its defaults, its type names), SetAttr/GetAttr of every
 * overload, how a value reads in messages and dumps, the names of attribute kinds, input
 * and output descriptions (by name, by index, their failures and messages), Operator's
 * name and type, every TensorDesc and Tensor accessor, Graph's inputs, outputs and
 * targets (with their messages for an empty operator), and the data type table (names,
 * sizes, the names a prototype's declaration may use). Internal: it also calls the
 * ropekit_ge helpers behind messages and dumps. */
#include "faces/ge/operator_impl.h"
#include "faces/ge/types_table.h"
#include "graph/graph.h"
#include "graph/operator_reg.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "ge_test_support.h"

#define EXPECT_OK(call) assert_int_equal((call), ge::GRAPH_SUCCESS)
#define EXPECT_FAIL(call) assert_int_not_equal((call), ge::GRAPH_SUCCESS)

namespace ge {
REG_OP(RkEveryKind)
    .INPUT(a, TensorType::ALL())
    .OPTIONAL_INPUT(b, TensorType({DT_FLOAT}))
    .OUTPUT(y, TensorType::ALL())
    .OUTPUT(z, TensorType::ALL())
    .REQUIRED_ATTR(need, Int)
    .ATTR(i, Int, -3)
    .ATTR(f, Float, 0.5f)
    .ATTR(bl, Bool, true)
    .ATTR(s, String, "text")
    .ATTR(as, AscendString, "asc")
    .ATTR(t, Tensor, Tensor())
    .ATTR(dt, Type, DT_BF16)
    .ATTR(li, ListInt, {1, -2})
    .ATTR(lf, ListFloat, {0.25f})
    .ATTR(lb, ListBool, {true, false})
    .ATTR(ls, ListString, {"x", "y"})
    .ATTR(las, ListAscendString, {AscendString("p")})
    .ATTR(lt, ListTensor, {Tensor()})
    .ATTR(lli, ListListInt, {{1, 2}, {3}})
    .ATTR(ldt, ListType, {DT_FLOAT, DT_INT64})
    .OP_END_FACTORY_REG(RkEveryKind)
} // namespace ge

namespace {

using Dims = std::vector<int64_t>;
using gt::Desc;

template <typename T> bool Reads(const ge::Operator &op, const char *name, const T &want) {
    T got{};
    return op.GetAttr(name, got) == ge::GRAPH_SUCCESS && got == want;
}
template <typename T> bool ReadsStd(const ge::Operator &op, const char *name, const T &want) {
    T got{};
    return op.GetAttr(std::string(name), got) == ge::GRAPH_SUCCESS && got == want;
}
template <typename T> bool ReadFails(const ge::Operator &op, const char *name) {
    T got{};
    return op.GetAttr(name, got) != ge::GRAPH_SUCCESS;
}

void ExpectError(const char *want) {
    assert_string_equal(gt::TakeError().c_str(), want);
}

void prototype_of_every_kind(void **) {
    ge::op::RkEveryKind op("every");
    std::map<ge::AscendString, ge::AscendString> types;
    EXPECT_OK(op.GetAllIrAttrNamesAndTypes(types));
    const std::map<std::string, std::string> want = {
        {"need", "Int"},       {"i", "Int"},         {"f", "Float"},         {"bl", "Bool"},
        {"s", "String"},       {"as", "String"},     {"t", "Tensor"},        {"dt", "Type"},
        {"li", "ListInt"},     {"lf", "ListFloat"},  {"lb", "ListBool"},     {"ls", "ListString"},
        {"las", "ListString"}, {"lt", "ListTensor"}, {"lli", "ListListInt"}, {"ldt", "ListType"}};
    assert_int_equal(types.size(), want.size());
    for (const auto &kv : want)
        assert_string_equal(types[ge::AscendString(kv.first.c_str())].GetString(),
                            kv.second.c_str());

    /* the defaults, through the generic getters and the generated ones */
    assert_true(ReadFails<int64_t>(op, "need"));
    assert_true(Reads(op, "i", static_cast<int64_t>(-3)) && Reads(op, "i", -3));
    assert_true(Reads(op, "f", 0.5f) && Reads(op, "bl", true));
    assert_true(ReadsStd(op, "s", std::string("text")) && Reads(op, "as", ge::AscendString("asc")));
    assert_true(Reads(op, "dt", ge::DT_BF16));
    assert_true(Reads(op, "li", Dims{1, -2}) && Reads(op, "lf", std::vector<float>{0.25f}));
    assert_true(Reads(op, "lb", std::vector<bool>{true, false}));
    assert_true(ReadsStd(op, "ls", std::vector<std::string>{"x", "y"}));
    assert_true(ReadsStd(op, "las", std::vector<std::string>{"p"}));
    assert_true(Reads(op, "lli", std::vector<Dims>{{1, 2}, {3}}));
    assert_true(Reads(op, "ldt", std::vector<ge::DataType>{ge::DT_FLOAT, ge::DT_INT64}));
    std::vector<ge::Tensor> lt;
    EXPECT_OK(op.GetAttr("lt", lt));
    assert_int_equal(lt.size(), 1);
    assert_string_equal(op.get_attr_s().c_str(), "text");
    ge::AscendString s;
    EXPECT_OK(op.get_attr_s(s));
    assert_string_equal(s.GetString(), "text");
    std::vector<ge::AscendString> ls;
    EXPECT_OK(op.get_attr_ls(ls));
    assert_true(ls.size() == 2 && ls[1] == "y");

    /* a node of the registered type by its type name gets the same prototype */
    ge::Operator by_type("named", "RkEveryKind");
    std::map<ge::AscendString, ge::AscendString> again;
    EXPECT_OK(by_type.GetAllIrAttrNamesAndTypes(again));
    assert_true(again == types);
    assert_int_equal(by_type.GetInputsSize(), 2);
    assert_int_equal(by_type.GetOutputsSize(), 2);

    /* attribute names and types: the prototype's, then the values set (their kinds) */
    by_type.SetAttr("need", static_cast<int64_t>(1));
    by_type.SetAttr("extra", std::vector<bool>{false});
    by_type.SetAttr("i", 2.5f);
    std::map<ge::AscendString, ge::AscendString> all;
    EXPECT_OK(by_type.GetAllAttrNamesAndTypes(all));
    assert_int_equal(all.size(), want.size() + 1);
    assert_string_equal(all[ge::AscendString("extra")].GetString(), "ListBool");
    assert_string_equal(all[ge::AscendString("i")].GetString(), "Float");
    EXPECT_FAIL(ge::Operator().GetAllAttrNamesAndTypes(all));
    EXPECT_FAIL(ge::Operator().GetAllIrAttrNamesAndTypes(all));
    EXPECT_FAIL(by_type.VerifyAllAttr());
    ExpectError("node \"named\" (RkEveryKind): attribute i = 2.5 is Float; the prototype "
                "declares Int");
}

void every_set_and_get_overload(void **) {
    ge::Operator op("all", "NoSuchType");
    ge::Tensor t = gt::Int64Tensor({2}, {5, -6});
    op.SetAttr("i64", static_cast<int64_t>(-(static_cast<int64_t>(1) << 40)))
        .SetAttr("i32", static_cast<int32_t>(-7))
        .SetAttr("u32", static_cast<uint32_t>(4000000000u))
        .SetAttr("li64", Dims{1, -2})
        .SetAttr("li32", std::vector<int32_t>{3, -4})
        .SetAttr("lu32", std::vector<uint32_t>{5, 4000000000u})
        .SetAttr("init", {7, 8, 9})
        .SetAttr("f", 1.25f)
        .SetAttr("lf", std::vector<float>{-0.5f, 2.0f})
        .SetAttr("cs", "chars")
        .SetAttr("null", static_cast<const char *>(nullptr))
        .SetAttr("as", ge::AscendString("ascend"))
        .SetAttr("las", std::vector<ge::AscendString>{"m", "n"})
        .SetAttr("b", false)
        .SetAttr("lb", std::vector<bool>{false, true, true})
        .SetAttr("t", t)
        .SetAttr("lt", std::vector<ge::Tensor>{t, ge::Tensor()})
        .SetAttr("lli", std::vector<Dims>{{}, {4, 5}})
        .SetAttr("dt", ge::DT_INT32)
        .SetAttr("ldt", std::vector<ge::DataType>{ge::DT_BF16})
        .SetAttr(std::string("ss"), std::string("std"))
        .SetAttr(std::string("lss"), std::vector<std::string>{"u", ""});

    assert_true(Reads(op, "i64", -(static_cast<int64_t>(1) << 40)));
    assert_true(ReadFails<int32_t>(op, "i64") && ReadFails<uint32_t>(op, "i64"));
    assert_true(Reads(op, "i32", -7) && Reads(op, "i32", static_cast<int64_t>(-7)));
    assert_true(Reads(op, "u32", 4000000000u) && ReadFails<int32_t>(op, "u32"));
    assert_true(Reads(op, "li64", Dims{1, -2}) && Reads(op, "li64", std::vector<int32_t>{1, -2}));
    assert_true(ReadFails<std::vector<uint32_t>>(op, "li64"));
    assert_true(Reads(op, "li32", Dims{3, -4}));
    assert_true(Reads(op, "lu32", std::vector<uint32_t>{5, 4000000000u}));
    assert_true(ReadFails<std::vector<int32_t>>(op, "lu32"));
    assert_true(Reads(op, "init", Dims{7, 8, 9}));
    assert_true(Reads(op, "f", 1.25f) && Reads(op, "lf", std::vector<float>{-0.5f, 2.0f}));
    assert_true(ReadsStd(op, "cs", std::string("chars")) && ReadsStd(op, "null", std::string()));
    assert_true(Reads(op, "as", ge::AscendString("ascend")));
    assert_true(ReadsStd(op, "las", std::vector<std::string>{"m", "n"}));
    assert_true(Reads(op, "las", std::vector<ge::AscendString>{"m", "n"}));
    assert_true(Reads(op, "b", false) && Reads(op, "lb", std::vector<bool>{false, true, true}));
    ge::Tensor got_t;
    EXPECT_OK(op.GetAttr("t", got_t));
    assert_int_equal(got_t.GetSize(), 16);
    assert_ptr_equal(got_t.GetData(), t.GetData()); /* a Tensor attribute shares the handle */
    std::vector<ge::Tensor> got_lt;
    EXPECT_OK(op.GetAttr("lt", got_lt));
    assert_true(got_lt.size() == 2 && got_lt[0].GetData() == t.GetData() && !got_lt[1].GetData());
    assert_true(Reads(op, "lli", std::vector<Dims>{{}, {4, 5}}));
    assert_true(Reads(op, "dt", ge::DT_INT32));
    assert_true(Reads(op, "ldt", std::vector<ge::DataType>{ge::DT_BF16}));
    assert_true(ReadsStd(op, "ss", std::string("std")) && Reads(op, "ss", ge::AscendString("std")));
    assert_true(ReadsStd(op, "lss", std::vector<std::string>{"u", ""}));

    /* each getter reads its own kind only, and leaves its output on failure */
    assert_true(ReadFails<float>(op, "i64") && ReadFails<bool>(op, "f"));
    assert_true(ReadFails<ge::DataType>(op, "i64") && ReadFails<ge::Tensor>(op, "lt"));
    assert_true(ReadFails<std::vector<ge::Tensor>>(op, "t"));
    assert_true(ReadFails<std::vector<Dims>>(op, "li64") && ReadFails<Dims>(op, "lli"));
    assert_true(ReadFails<std::vector<bool>>(op, "lf") && ReadFails<std::vector<float>>(op, "lb"));
    assert_true(ReadFails<std::vector<ge::DataType>>(op, "dt"));
    assert_true(ReadFails<ge::AscendString>(op, "las"));
    assert_true(ReadFails<std::vector<ge::AscendString>>(op, "as"));
    std::string kept = "kept";
    EXPECT_FAIL(op.GetAttr(std::string("lss"), kept));
    EXPECT_FAIL(op.GetAttr(std::string("missing"), kept));
    assert_string_equal(kept.c_str(), "kept");
    std::vector<std::string> kept_list = {"k"};
    EXPECT_FAIL(op.GetAttr(std::string("ss"), kept_list));
    assert_true(kept_list == std::vector<std::string>{"k"});
    float kept_f = 3.0f;
    EXPECT_FAIL(op.GetAttr(static_cast<const char *>(nullptr), kept_f));
    assert_true(kept_f == 3.0f);

    /* an empty handle: setting does nothing, getting fails */
    ge::Operator empty;
    empty.SetAttr("f", 1.0f).SetAttr(std::string("s"), std::string("x"));
    assert_true(ReadFails<float>(empty, "f"));
    std::string s;
    EXPECT_FAIL(empty.GetAttr(std::string("s"), s));
    /* a NULL name sets nothing */
    op.SetAttr(static_cast<const char *>(nullptr), 1.0f);
}

void attribute_texts(void **) {
    using ropekit_ge::AttrData;
    using ropekit_ge::AttrKind;
    using ropekit_ge::AttrToString;
    AttrData a;
    assert_string_equal(AttrToString(a).c_str(), "(none)");
    a.i = -12;
    a.f = 0.1f;
    a.b = true;
    a.s = "word";
    a.t = gt::FloatTensor({2, 3}, ge::DT_FLOAT16, {1, 2, 3, 4, 5, 6});
    a.type = ge::DT_BF16;
    a.list_int = {4, -5};
    a.list_float = {1.5f, 1e-7f};
    a.list_bool = {true, false, true};
    a.list_string = {"a", ""};
    a.list_tensor = {ge::Tensor(), a.t};
    a.list_list_int = {{1}, {}, {2, 3}};
    a.list_type = {ge::DT_FLOAT, static_cast<ge::DataType>(60)}; /* in the enum's range */
    const std::map<AttrKind, std::string> want = {
        {AttrKind::Int, "-12"},
        {AttrKind::Float, "0.1"},
        {AttrKind::Bool, "true"},
        {AttrKind::String, "\"word\""},
        {AttrKind::Tensor, "Tensor{shape [2, 3], DT_FLOAT16, 12 bytes}"},
        {AttrKind::Type, "DT_BF16"},
        {AttrKind::ListInt, "[4, -5]"},
        {AttrKind::ListFloat, "[1.5, 1e-07]"},
        {AttrKind::ListBool, "[true, false, true]"},
        {AttrKind::ListString, "[\"a\", \"\"]"},
        {AttrKind::ListTensor,
         "[Tensor{shape [], DT_FLOAT, 0 bytes}, Tensor{shape [2, 3], DT_FLOAT16, 12 bytes}]"},
        {AttrKind::ListListInt, "[[1], [], [2, 3]]"},
        {AttrKind::ListType, "[DT_FLOAT, DT_60]"},
    };
    for (const auto &kv : want) {
        a.kind = kv.first;
        assert_string_equal(AttrToString(a).c_str(), kv.second.c_str());
    }
    AttrData empty_lists;
    empty_lists.kind = AttrKind::ListBool;
    assert_string_equal(AttrToString(empty_lists).c_str(), "[]");
    empty_lists.kind = AttrKind::ListListInt;
    assert_string_equal(AttrToString(empty_lists).c_str(), "[]");
    a.kind = AttrKind::Bool;
    a.b = false;
    assert_string_equal(AttrToString(a).c_str(), "false");
}

void attribute_kind_names(void **) {
    using ropekit_ge::AttrKind;
    const std::vector<std::pair<AttrKind, const char *>> kinds = {
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
    for (const auto &k : kinds) {
        assert_string_equal(ropekit_ge::AttrKindName(k.first), k.second);
        assert_true(ropekit_ge::AttrKindFromName(k.second) == k.first);
    }
    assert_string_equal(ropekit_ge::AttrKindName(AttrKind::None), "None");
    assert_true(ropekit_ge::AttrKindFromName("AscendString") == AttrKind::String);
    assert_true(ropekit_ge::AttrKindFromName("ListAscendString") == AttrKind::ListString);
    assert_true(ropekit_ge::AttrKindFromName("None") == AttrKind::None);
    assert_true(ropekit_ge::AttrKindFromName("int") == AttrKind::None);
    assert_true(ropekit_ge::AttrKindFromName("") == AttrKind::None);
}

void input_and_output_descriptions(void **) {
    (void)gt::TakeError();
    ge::op::RkEveryKind op("io");
    ge::TensorDesc d = Desc({2, 4}, ge::DT_FLOAT16), e = Desc({8}, ge::DT_INT64);
    EXPECT_OK(op.UpdateInputDesc("b", d));
    EXPECT_OK(op.UpdateInputDesc(std::string("a"), e));
    EXPECT_OK(op.UpdateOutputDesc("z", d));
    EXPECT_OK(op.UpdateOutputDesc(std::string("y"), e));
    assert_string_equal(gt::TakeError().c_str(), "");
    assert_int_equal(op.GetInputDescByName("b").GetDataType(), ge::DT_FLOAT16);
    assert_int_equal(op.GetInputDesc(std::string("a")).GetDataType(), ge::DT_INT64);
    assert_true(op.GetInputDesc(1u).GetShape().GetDims() == (Dims{2, 4}));
    assert_int_equal(op.GetOutputDescByName("z").GetDataType(), ge::DT_FLOAT16);
    assert_int_equal(op.GetOutputDesc(std::string("y")).GetDataType(), ge::DT_INT64);
    assert_true(op.GetOutputDesc(0u).GetShape().GetDims() == (Dims{8}));
    ge::TensorDesc probe;
    EXPECT_OK(op.TryGetInputDesc("b", probe));
    assert_int_equal(probe.GetDataType(), ge::DT_FLOAT16);
    EXPECT_OK(op.TryGetInputDesc(std::string("a"), probe));
    assert_int_equal(probe.GetDataType(), ge::DT_INT64);

    /* unknown names and indices: a default description */
    ge::TensorDesc def;
    for (const ge::TensorDesc &x :
         {op.GetInputDescByName("y"), op.GetInputDescByName(nullptr), op.GetInputDesc(2u),
          op.GetOutputDescByName("a"), op.GetOutputDescByName(nullptr), op.GetOutputDesc(2u),
          op.GetOutputDesc(std::string("nope"))}) {
        assert_true(x.GetShape().GetDims().empty());
        assert_true(x.GetDataType() == def.GetDataType() && x.GetFormat() == def.GetFormat());
    }
    probe = d;
    EXPECT_FAIL(op.TryGetInputDesc("z", probe));
    EXPECT_FAIL(op.TryGetInputDesc(static_cast<const char *>(nullptr), probe));
    assert_int_equal(probe.GetDataType(), ge::DT_FLOAT16);
    assert_string_equal(gt::TakeError().c_str(), "");

    assert_int_equal(op.UpdateInputDesc("y", d), ge::GRAPH_FAILED);
    ExpectError("node \"io\" (RkEveryKind): UpdateInputDesc(y): no such input (inputs: a, b)");
    assert_int_equal(op.UpdateInputDesc(static_cast<const char *>(nullptr), d), ge::GRAPH_FAILED);
    ExpectError("node \"io\" (RkEveryKind): UpdateInputDesc(): no such input (inputs: a, b)");
    assert_int_equal(op.UpdateOutputDesc(std::string("a"), d), ge::GRAPH_FAILED);
    ExpectError("node \"io\" (RkEveryKind): UpdateOutputDesc(a): no such output (outputs: y, z)");
    assert_int_equal(op.UpdateOutputDesc(static_cast<const char *>(nullptr), d), ge::GRAPH_FAILED);
    ExpectError("node \"io\" (RkEveryKind): UpdateOutputDesc(): no such output (outputs: y, z)");
    ge::Operator bare("bare", "NoSuchType");
    assert_int_equal(bare.UpdateInputDesc("x", d), ge::GRAPH_FAILED);
    ExpectError("node \"bare\" (NoSuchType): UpdateInputDesc(x): no such input (inputs: none)");
    assert_int_equal(bare.UpdateOutputDesc("x", d), ge::GRAPH_FAILED);
    ExpectError("node \"bare\" (NoSuchType): UpdateOutputDesc(x): no such output (outputs: none)");

    ge::Operator empty;
    assert_int_equal(empty.UpdateInputDesc("a", d), ge::GRAPH_FAILED);
    ExpectError("UpdateInputDesc: the operator is empty");
    assert_int_equal(empty.UpdateOutputDesc("y", d), ge::GRAPH_FAILED);
    ExpectError("UpdateOutputDesc: the operator is empty");
    EXPECT_FAIL(empty.TryGetInputDesc("a", probe));
    assert_true(empty.GetInputDesc(0u).GetShape().GetDims().empty());
    assert_true(empty.GetOutputDesc(0u).GetShape().GetDims().empty());
    assert_true(empty.GetOutputDescByName("y").GetShape().GetDims().empty());
    assert_int_equal(empty.GetInputsSize(), 0);
    assert_int_equal(empty.GetOutputsSize(), 0);
    assert_string_equal(gt::TakeError().c_str(), "");
}

void operator_name_and_type(void **) {
    ge::Operator op("nm", "SomeType");
    ge::AscendString name, type;
    EXPECT_OK(op.GetName(name));
    EXPECT_OK(op.GetOpType(type));
    assert_string_equal(name.GetString(), "nm");
    assert_string_equal(type.GetString(), "SomeType");
    assert_string_equal(op.GetName().c_str(), "nm");
    assert_string_equal(op.GetOpType().c_str(), "SomeType");

    ge::Operator empty;
    name = ge::AscendString("kept");
    type = ge::AscendString("kept");
    assert_int_equal(empty.GetName(name), ge::GRAPH_FAILED);
    assert_int_equal(empty.GetOpType(type), ge::GRAPH_FAILED);
    assert_string_equal(name.GetString(), "kept");
    assert_string_equal(type.GetString(), "kept");
    assert_string_equal(empty.GetName().c_str(), "");
    assert_string_equal(empty.GetOpType().c_str(), "");
}

void tensor_desc_and_tensor_accessors(void **) {
    ge::TensorDesc d(ge::Shape({3, 5}), ge::FORMAT_NCHW, ge::DT_INT32);
    assert_true(d.GetOriginShape().GetDims() == (Dims{3, 5}));
    assert_int_equal(d.GetOriginFormat(), ge::FORMAT_NCHW);
    assert_int_equal(d.GetSize(), 0);
    assert_int_equal(d.GetRealDimCnt(), 0);
    assert_int_equal(d.GetPlacement(), ge::kPlacementHost);
    d.SetOriginShape(ge::Shape({15}));
    d.SetOriginFormat(ge::FORMAT_ND);
    d.SetShape(ge::Shape({1, 15}));
    d.SetFormat(ge::FORMAT_NHWC);
    d.SetDataType(ge::DT_UINT8);
    d.SetSize(60);
    d.SetRealDimCnt(2);
    d.SetPlacement(ge::kPlacementDevice);
    assert_true(d.GetOriginShape().GetDims() == (Dims{15}));
    assert_int_equal(d.GetOriginFormat(), ge::FORMAT_ND);
    assert_true(d.GetShape().GetDims() == (Dims{1, 15}));
    assert_int_equal(d.GetFormat(), ge::FORMAT_NHWC);
    assert_int_equal(d.GetDataType(), ge::DT_UINT8);
    assert_int_equal(d.GetSize(), 60);
    assert_int_equal(d.GetRealDimCnt(), 2);
    assert_int_equal(d.GetPlacement(), ge::kPlacementDevice);
    std::vector<std::pair<int64_t, int64_t>> range = {{1, 4}, {15, 15}}, got;
    EXPECT_OK(d.SetShapeRange(range));
    EXPECT_OK(d.GetShapeRange(got));
    assert_true(got == range);
    d.SetName(static_cast<const char *>(nullptr));
    assert_string_equal(d.GetName().c_str(), "");
    d.SetName(std::string("named"));
    assert_string_equal(d.GetName().c_str(), "named");
    d.Update(ge::Shape({2}), ge::FORMAT_NC, ge::DT_INT8);
    assert_true(d.GetShape().GetDims() == (Dims{2}));
    assert_int_equal(d.GetFormat(), ge::FORMAT_NC);
    assert_int_equal(d.GetDataType(), ge::DT_INT8);
    assert_true(d.GetOriginShape().GetDims() == (Dims{15})); /* Update keeps the origin */

    ge::Tensor t(d);
    ge::Tensor shared = t;
    EXPECT_OK(shared.SetDataType(ge::DT_FLOAT16));
    EXPECT_OK(shared.SetFormat(ge::FORMAT_ND));
    EXPECT_OK(shared.SetPlacement(ge::kPlacementHost));
    assert_int_equal(t.GetDataType(), ge::DT_FLOAT16);
    assert_int_equal(t.GetFormat(), ge::FORMAT_ND);
    assert_int_equal(t.GetPlacement(), ge::kPlacementHost);
    assert_int_equal(t.GetTensorDesc().GetDataType(), ge::DT_FLOAT16);
    assert_int_equal(t.GetTensorDesc().GetFormat(), ge::FORMAT_ND);
    assert_int_equal(t.GetTensorDesc().GetPlacement(), ge::kPlacementHost);
    assert_int_equal(t.GetTensorDesc().GetSize(), 60);
    assert_int_equal(t.GetShapeDimNum(), 1);
    assert_int_equal(t.GetShapeDim(0), 2);
    assert_int_equal(t.GetShapeDim(1), 0);
    assert_int_equal(d.GetDataType(), ge::DT_INT8); /* the description was copied */
}

void graph_inputs_outputs_targets(void **) {
    (void)gt::TakeError();
    ge::op::Data x = gt::MakeData("x", 0);
    ge::op::RkEveryKind op("node");
    op.set_input_a(x);
    ge::Operator lone("lone", "NoSuchType"), goal("goal", "NoSuchType");

    ge::Graph g("g");
    ge::Graph &chained = g.SetInputs({x, ge::Operator()});
    assert_ptr_equal(&chained, &g);
    ExpectError("Graph::SetInputs: an operator is empty");
    assert_ptr_equal(&g.SetTargets({goal, ge::Operator(), ge::Operator()}), &g);
    ExpectError("Graph::SetTargets: an operator is empty\nGraph::SetTargets: an operator is empty");
    assert_ptr_equal(&g.SetOutputs({op, ge::Operator()}), &g);
    ExpectError("Graph::SetOutputs: an operator is empty");
    g.SetOutputs(std::vector<std::pair<ge::Operator, std::vector<size_t>>>{{op, {1, 0}}});
    g.SetOutputs(std::vector<std::pair<ge::Operator, std::string>>{{op, "y"}});
    g.SetOutputs(std::vector<std::pair<ge::Operator, ge::AscendString>>{{op, "z"}, {lone, "w"}});
    assert_string_equal(gt::TakeError().c_str(), "");

    /* every kind of entry brings its operators (and what they read) into the graph */
    std::vector<std::string> names;
    EXPECT_OK(g.GetAllOpName(names));
    assert_true(names == (std::vector<std::string>{"x", "node", "lone", "goal"}));
    std::vector<ge::Operator> found;
    EXPECT_OK(g.FindOpByType("NoSuchType", found));
    assert_int_equal(found.size(), 2);
    ge::Operator one;
    EXPECT_OK(g.FindOpByName(std::string("goal"), one));
    assert_string_equal(one.GetName().c_str(), "goal");

    /* a second SetTargets or SetInputs replaces the first */
    g.SetTargets({});
    g.SetInputs({});
    EXPECT_OK(g.GetAllOpName(names));
    assert_true(names == (std::vector<std::string>{"node", "x", "lone"}));

    /* a default Graph is made valid by the setters */
    ge::Graph late;
    assert_false(late.IsValid());
    late.SetTargets({goal});
    assert_true(late.IsValid());
    EXPECT_OK(late.GetAllOpName(names));
    assert_true(names == (std::vector<std::string>{"goal"}));
    ge::Graph later;
    later.SetInputs({x});
    assert_true(later.IsValid());
    ge::AscendString gname("kept");
    EXPECT_OK(later.GetName(gname));
    assert_string_equal(gname.GetString(), "");
    EXPECT_FAIL(ge::Graph().GetName(gname));
}

struct TypeRow {
    ge::DataType dt;
    const char *name;
    int size;
};

void data_type_table(void **) {
    const TypeRow rows[] = {
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
    /* every value below DT_MAX has a row, but 5, which GE's numbering skips */
    assert_int_equal(sizeof rows / sizeof rows[0], ge::DT_MAX - 1);
    assert_string_equal(ropekit_ge::DataTypeName(static_cast<ge::DataType>(5)).c_str(), "DT_5");
    assert_int_equal(ge::GetSizeByDataType(static_cast<ge::DataType>(5)), -1);
    for (const TypeRow &row : rows) {
        assert_string_equal(ropekit_ge::DataTypeName(row.dt).c_str(), row.name);
        assert_int_equal(ge::GetSizeByDataType(row.dt), row.size);
        ropekit_ge::TypeList list =
            ropekit_ge::ParseTypeList(std::string("TensorType({") + row.name + "})");
        assert_false(list.any);
        assert_true(list.types == std::vector<ge::DataType>{row.dt});
        assert_int_equal(ge::GetSizeInBytes(3, row.dt), row.size < 0 ? -1 : 3 * row.size);
    }
    assert_string_equal(ropekit_ge::DataTypeName(ge::DT_MAX).c_str(), "DT_43");
    assert_string_equal(ropekit_ge::DataTypeName(static_cast<ge::DataType>(63)).c_str(), "DT_63");
    assert_int_equal(ge::GetSizeByDataType(ge::DT_MAX), -1);
    assert_int_equal(ge::GetSizeInBytes(-1, ge::DT_FLOAT), -1);
    assert_int_equal(ge::GetSizeInBytes(INT64_MAX / 4 + 1, ge::DT_FLOAT), -1);
    assert_int_equal(ge::GetSizeInBytes(INT64_MAX / 4, ge::DT_FLOAT), (INT64_MAX / 4) * 4);

    /* the spellings some prototypes use, the named sets, repeats and unknown words */
    ropekit_ge::TypeList aliases =
        ropekit_ge::ParseTypeList("TensorType({DT_BFLOAT16, DT_FLOAT32, DT_BF16, DT_NOPE})");
    assert_true(aliases.types == (std::vector<ge::DataType>{ge::DT_BF16, ge::DT_FLOAT}));
    assert_string_equal(aliases.Describe().c_str(), "DT_BF16, DT_FLOAT");
    ropekit_ge::TypeList sets = ropekit_ge::ParseTypeList("TensorType::FLOAT()");
    assert_true(sets.types ==
                (std::vector<ge::DataType>{ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16}));
    ropekit_ge::TypeList none = ropekit_ge::ParseTypeList("TensorType({DT_NOPE})");
    assert_true(none.any && none.Allows(ge::DT_HIFLOAT4));
    assert_string_equal(none.Describe().c_str(), "any type");
    for (ge::DataType dt : {ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16, ge::DT_INT64})
        assert_true(ropekit_ge::IsRopekitType(dt));
    assert_false(ropekit_ge::IsRopekitType(ge::DT_DOUBLE));
}

} // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(prototype_of_every_kind),
        cmocka_unit_test(every_set_and_get_overload),
        cmocka_unit_test(attribute_texts),
        cmocka_unit_test(attribute_kind_names),
        cmocka_unit_test(input_and_output_descriptions),
        cmocka_unit_test(operator_name_and_type),
        cmocka_unit_test(tensor_desc_and_tensor_accessors),
        cmocka_unit_test(graph_inputs_outputs_targets),
        cmocka_unit_test(data_type_table),
    };
    return cmocka_run_group_tests(tests, gt::InitializeGe, gt::FinalizeGe);
}
