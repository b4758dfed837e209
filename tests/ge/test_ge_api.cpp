#define SUCCESS 0
#define FAILED -1
/* The GE API's semantics, call by call: CANN's SUCCESS/FAILED macros defined before the
 * headers, Operator as a shared handle, the accessors REG_OP generates for the RoPE
 * prototypes and for Data and Const, SetAttr/GetAttr of every kind, Tensor (ownership,
 * sharing, Clone, alignment, validity), TensorDesc and Shape, CANN's DataType and Format
 * numbers, AscendString, Graph building, AddGraph's snapshot and graph ids, Session's
 * copyability, the per-thread error message, GEInitialize/GEFinalize, aclgrphGetIRVersion. */
#include "ge_api.h"
#include "graph.h"
#include "tensor.h"
#include "types.h"
#include "ge_ir_build.h"
#include "ge_error_codes.h"
#include "ops_proto_legacy.h"
#include "graph/operator_reg.h"
#include "graph/types.h"
#include "ops_proto_posembedding.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <map>
#include <thread>
#include <type_traits>

#include "ge_test_support.h"
#include "ropekit/ropekit.h"

/* Macros, so that cmocka reports the caller's line. */
#define EXPECT_OK(call) assert_int_equal((call), ge::GRAPH_SUCCESS)
#define EXPECT_FAIL(call) assert_int_not_equal((call), ge::GRAPH_SUCCESS)

namespace {

using gt::Desc;
using gt::FloatTensor;
using gt::MakeData;
using Dims = std::vector<int64_t>;

const std::map<ge::AscendString, ge::AscendString> kNoOptions;

bool SameBytes(const ge::Tensor &a, const ge::Tensor &b) {
    return a.GetSize() == b.GetSize() &&
           (a.GetSize() == 0 || std::memcmp(a.GetData(), b.GetData(), a.GetSize()) == 0);
}

bool Aligned64(const void *p) {
    return reinterpret_cast<uintptr_t>(p) % 64 == 0;
}

Dims DimsOf(const ge::TensorDesc &d) {
    return d.GetShape().GetDims();
}

/* GetAttr(name) succeeds and gives `want`. */
template <typename T> bool Reads(const ge::Operator &op, const char *name, const T &want) {
    T got{};
    return op.GetAttr(name, got) == ge::GRAPH_SUCCESS && got == want;
}

bool Reads(const ge::Operator &op, const char *name, const ge::Tensor &want) {
    ge::Tensor got;
    return op.GetAttr(name, got) == ge::GRAPH_SUCCESS && SameBytes(got, want) &&
           DimsOf(got.GetTensorDesc()) == DimsOf(want.GetTensorDesc()) &&
           got.GetDataType() == want.GetDataType();
}

template <typename T> bool ReadFails(const ge::Operator &op, const char *name) {
    T got{};
    return op.GetAttr(name, got) != ge::GRAPH_SUCCESS;
}

/* The prototype's inputs and outputs, by count and name. */
void ExpectPorts(ge::Operator op, const std::vector<const char *> &ins,
                 const std::vector<const char *> &outs) {
    assert_int_equal(op.GetInputsSize(), ins.size());
    assert_int_equal(op.GetOutputsSize(), outs.size());
    ge::TensorDesc probe;
    for (const char *name : ins)
        EXPECT_OK(op.TryGetInputDesc(name, probe));
    for (const char *name : outs)
        EXPECT_OK(op.UpdateOutputDesc(name, probe));
    EXPECT_FAIL(op.TryGetInputDesc("nope", probe));
    EXPECT_FAIL(op.UpdateInputDesc("nope", probe));
    EXPECT_FAIL(op.UpdateOutputDesc("nope", probe));
    (void)gt::TakeError();
}

void ExpectIrAttrs(const ge::Operator &op, const std::map<std::string, std::string> &want) {
    std::map<ge::AscendString, ge::AscendString> got;
    EXPECT_OK(op.GetAllIrAttrNamesAndTypes(got));
    assert_int_equal(got.size(), want.size());
    for (const auto &kv : want)
        assert_string_equal(got[ge::AscendString(kv.first.c_str())].GetString(), kv.second.c_str());
}

/* The native API's forward interleave rotation of x's slice [start, end). */
std::vector<uint8_t> NativeRotate(const ge::Tensor &x, const ge::Tensor &cos, const ge::Tensor &sin,
                                  int64_t start, int64_t end) {
    std::vector<uint8_t> out(x.GetData(), x.GetData() + x.GetSize());
    auto tensor = [](const ge::Tensor &t, void *data) {
        Dims dims = DimsOf(t.GetTensorDesc());
        return ropekit_tensor_make(data, static_cast<ropekit_dtype>(t.GetDataType()),
                                   static_cast<int32_t>(dims.size()), dims.data(), nullptr);
    };
    ropekit_tensor tx = tensor(x, out.data());
    ropekit_tensor tc = tensor(cos, const_cast<uint8_t *>(cos.GetData()));
    ropekit_tensor ts = tensor(sin, const_cast<uint8_t *>(sin.GetData()));
    assert_int_equal(ropekit_partial_rotary(&tx, &tc, &ts, ROPEKIT_ROTARY_INTERLEAVE, start, end,
                                            ROPEKIT_FORWARD),
                     ROPEKIT_OK);
    return out;
}

/* Data d (index 0) as the graph's input and output: RunGraph returns the feed. */
ge::Graph IdentityGraph() {
    ge::Graph g("identity");
    ge::op::Data d = MakeData("d", 0);
    g.SetInputs({d}).SetOutputs({d});
    return g;
}

void ExpectIdentityRuns(ge::Session &s, uint32_t id) {
    ge::Tensor t = FloatTensor({3}, ge::DT_FLOAT, {1, 2, 3});
    std::vector<ge::Tensor> out;
    EXPECT_OK(s.RunGraph(id, {t}, out));
    assert_int_equal(out.size(), 1);
    assert_true(SameBytes(out[0], t));
}

void user_success_failed_macros(void **) {
    static_assert(std::is_same<decltype(FAILED), int>::value, "FAILED is the user's -1");
    static_assert(std::is_same<decltype(SUCCESS), int>::value, "SUCCESS is the user's 0");
    assert_int_equal(SUCCESS, 0);
    assert_int_equal(FAILED, -1);
    assert_int_equal(ge::GRAPH_SUCCESS, 0);
}

void operator_is_shared_handle(void **) {
    ge::Operator empty;
    assert_true(empty.IsEmpty());
    assert_string_equal(empty.GetName().c_str(), "");
    assert_int_equal(empty.GetInputsSize(), 0);
    assert_true(ReadFails<int64_t>(empty, "rotary_mode"));

    ge::Operator op("rot", "InplacePartialRotaryMul");
    assert_false(op.IsEmpty());
    assert_string_equal(op.GetName().c_str(), "rot");
    assert_string_equal(op.GetOpType().c_str(), "InplacePartialRotaryMul");
    assert_int_equal(op.GetInputsSize(), 3); /* it has the registered prototype */
    ge::Operator copy = op;
    copy.SetAttr("rotary_mode", static_cast<int64_t>(1));
    assert_true(Reads(op, "rotary_mode", static_cast<int64_t>(1)));
    copy.UpdateInputDesc("cos", Desc({1, 2, 1, 8}, ge::DT_FLOAT16));
    assert_int_equal(op.GetInputDescByName("cos").GetDataType(), ge::DT_FLOAT16);

    /* an op:: class converts to a handle on the same node; set_* return the object */
    ge::op::RopeWithSinCosCache rope("rope");
    assert_ptr_equal(&rope.set_attr_headSize(64), &rope);
    ge::Operator base = rope;
    base.SetAttr("numQHeads", static_cast<int64_t>(4));
    assert_int_equal(rope.get_attr_numQHeads(), 4);
    assert_true(Reads(base, "headSize", static_cast<int64_t>(64)));

    /* without a name: "<type>_<n>", different for each node */
    ge::Operator a("RopeWithSinCosCache"), b("RopeWithSinCosCache");
    assert_int_equal(a.GetName().find("RopeWithSinCosCache_"), 0);
    assert_string_not_equal(a.GetName().c_str(), b.GetName().c_str());
}

/* InplacePartialRotaryMul(Grad): input `in` (x or dy), cos, sin; output `in`. */
template <typename Op> void CheckPartialRotaryPrototype(const char *in) {
    Op op("pr");
    assert_int_equal(op.get_attr_rotary_mode(), 0);
    assert_true(op.get_attr_partial_slice() == (Dims{0, 0}));
    op.set_attr_rotary_mode(1).set_attr_partial_slice({16, 48});
    assert_int_equal(op.get_attr_rotary_mode(), 1);
    assert_true(op.get_attr_partial_slice() == (Dims{16, 48}));
    ExpectIrAttrs(op, {{"rotary_mode", "Int"}, {"partial_slice", "ListInt"}});
    ExpectPorts(op, {in, "cos", "sin"}, {in});
}

void partial_rotary_prototypes(void **) {
    CheckPartialRotaryPrototype<ge::op::InplacePartialRotaryMul>("x");
    CheckPartialRotaryPrototype<ge::op::InplacePartialRotaryMulGrad>("dy");
    /* the input and the output share a name; their descriptions are separate */
    ge::op::InplacePartialRotaryMul op("pr");
    ge::TensorDesc in = Desc({2, 3, 4, 64}, ge::DT_BF16);
    in.SetName("in");
    EXPECT_OK(op.update_input_desc_x(in));
    assert_true(DimsOf(op.GetInputDescByName("x")) == (Dims{2, 3, 4, 64}));
    assert_int_equal(op.GetInputDescByName("x").GetDataType(), ge::DT_BF16);
    assert_string_equal(op.get_input_desc_x().GetName().c_str(), "in");
    assert_true(DimsOf(op.GetOutputDescByName("x")).empty());
    EXPECT_OK(op.update_output_desc_x(Desc({5}, ge::DT_FLOAT16)));
    assert_int_equal(op.get_output_desc_x().GetDataType(), ge::DT_FLOAT16);
    assert_int_equal(op.GetInputDescByName("x").GetDataType(), ge::DT_BF16);

    ge::op::InplacePartialRotaryMulGrad grad("g");
    EXPECT_OK(grad.update_input_desc_dy(Desc({1, 2, 3, 4}, ge::DT_FLOAT16)));
    assert_int_equal(grad.GetInputDescByName("dy").GetDataType(), ge::DT_FLOAT16);
    EXPECT_OK(grad.update_output_desc_dy(Desc({7}, ge::DT_FLOAT)));
    assert_true(DimsOf(grad.get_output_desc_dy()) == (Dims{7}));
    assert_true(DimsOf(grad.get_input_desc_dy()) == (Dims{1, 2, 3, 4}));
}

void rope_prototype(void **) {
    ge::op::RopeWithSinCosCache rope("rope");
    assert_true(rope.get_attr_mropeSection() == (Dims{0, 0, 0}));
    assert_true(rope.get_attr_isNeoxStyle());
    assert_int_equal(rope.get_attr_qStride(), 0);
    assert_int_equal(rope.get_attr_kStride(), 0);
    ExpectIrAttrs(rope, {{"numQHeads", "Int"},
                         {"numKHeads", "Int"},
                         {"headSize", "Int"},
                         {"mropeSection", "ListInt"},
                         {"qStride", "Int"},
                         {"kStride", "Int"},
                         {"isNeoxStyle", "Bool"}});
    ExpectPorts(rope, {"positions", "queryIn", "keyIn", "cosSinCache"}, {"queryOut", "keyOut"});
    /* required attributes have no default: GetAttr fails until they are set */
    for (const char *name : {"numQHeads", "numKHeads", "headSize"})
        assert_true(ReadFails<int64_t>(rope, name));
    assert_int_equal(rope.get_attr_numQHeads(), 0);
    EXPECT_FAIL(rope.VerifyAllAttr());
    gt::ExpectMentions(gt::TakeError(), {"numQHeads", "required"});

    rope.set_attr_numQHeads(8).set_attr_numKHeads(2).set_attr_headSize(128);
    rope.set_attr_mropeSection({16, 24, 24}).set_attr_isNeoxStyle(false);
    rope.set_attr_qStride(1024).set_attr_kStride(256);
    EXPECT_OK(rope.VerifyAllAttr());
    assert_int_equal(rope.get_attr_numQHeads(), 8);
    assert_int_equal(rope.get_attr_numKHeads(), 2);
    assert_int_equal(rope.get_attr_headSize(), 128);
    assert_true(rope.get_attr_mropeSection() == (Dims{16, 24, 24}));
    assert_false(rope.get_attr_isNeoxStyle());
    assert_int_equal(rope.get_attr_qStride(), 1024);
    assert_int_equal(rope.get_attr_kStride(), 256);

    EXPECT_OK(rope.update_input_desc_positions(Desc({3}, ge::DT_INT64)));
    EXPECT_OK(rope.update_input_desc_queryIn(Desc({3, 1024}, ge::DT_BF16)));
    EXPECT_OK(rope.update_input_desc_keyIn(Desc({3, 256}, ge::DT_BF16)));
    assert_int_equal(rope.GetInputDescByName("positions").GetDataType(), ge::DT_INT64);
    assert_true(DimsOf(rope.get_input_desc_queryIn()) == (Dims{3, 1024}));
    assert_true(DimsOf(rope.GetInputDesc(2u)) == (Dims{3, 256}));
    EXPECT_OK(rope.update_output_desc_keyOut(Desc({3, 256}, ge::DT_FLOAT)));
    assert_int_equal(rope.get_output_desc_keyOut().GetDataType(), ge::DT_FLOAT);
}

void generic_attributes(void **) {
    ge::Operator op("attrs", "NoSuchType");
    ge::Tensor t = FloatTensor({2}, ge::DT_FLOAT, {1.5, -2.0});
    op.SetAttr("i", static_cast<int64_t>(1234567890123LL)).SetAttr("f", 0.1f).SetAttr("b", true);
    op.SetAttr("s", "text").SetAttr("as", ge::AscendString("ascend"));
    op.SetAttr(std::string("ss"), std::string("std"));
    op.SetAttr("li", Dims{3, 0, 5}).SetAttr("lf", std::vector<float>{0.25f, -1e-30f});
    op.SetAttr(std::string("ls"), std::vector<std::string>{"a", "", "c"});
    op.SetAttr("la", std::vector<ge::AscendString>{"p", "q"});
    op.SetAttr("t", t).SetAttr("dt", ge::DT_BF16);

    assert_true(Reads(op, "i", static_cast<int64_t>(1234567890123LL)));
    assert_true(Reads(op, "f", 0.1f));
    assert_true(Reads(op, "b", true));
    assert_true(Reads(op, "s", ge::AscendString("text")));
    assert_true(Reads(op, "as", ge::AscendString("ascend")));
    assert_true(Reads(op, "ss", std::string("std")));
    assert_true(Reads(op, "as", std::string("ascend"))); /* AscendString, std::string: one kind */
    assert_true(Reads(op, "li", Dims{3, 0, 5}));
    assert_true(Reads(op, "lf", std::vector<float>{0.25f, -1e-30f}));
    assert_true(Reads(op, "ls", std::vector<std::string>{"a", "", "c"}));
    assert_true(Reads(op, "la", std::vector<std::string>{"p", "q"}));
    assert_true(Reads(op, "ls", std::vector<ge::AscendString>{"a", "", "c"}));
    assert_true(Reads(op, "t", t));
    assert_true(Reads(op, "dt", ge::DT_BF16));

    /* setting again replaces the value, also with another kind */
    op.SetAttr("i", static_cast<int64_t>(7)).SetAttr("b", 2.5f);
    assert_true(Reads(op, "i", static_cast<int64_t>(7)));
    assert_true(Reads(op, "b", 2.5f));
    assert_true(ReadFails<bool>(op, "b"));

    /* a missing name, or another kind than the stored one, fails and leaves the output */
    assert_true(ReadFails<int64_t>(op, "missing") && ReadFails<std::string>(op, "missing"));
    assert_true(ReadFails<float>(op, "i") && ReadFails<bool>(op, "i") && ReadFails<Dims>(op, "i"));
    assert_true(ReadFails<int64_t>(op, "f") && ReadFails<int64_t>(op, "s"));
    assert_true(ReadFails<std::vector<float>>(op, "li"));
    assert_true(ReadFails<std::vector<std::string>>(op, "li"));
    assert_true(ReadFails<ge::DataType>(op, "t") && ReadFails<ge::Tensor>(op, "dt"));
    assert_true(ReadFails<int64_t>(op, "dt"));
    int64_t kept = 99;
    EXPECT_FAIL(op.GetAttr("f", kept));
    assert_int_equal(kept, 99);
}

/* graph/operator.h: "Int values read as int32/uint32 when they fit". Values that do not
 * fit fail; negative values, which fit int32 and int64, read back as set (the generic
 * overloads and the REG_OP getters). */
void int_attribute_widths(void **) {
    ge::Operator op("ints", "NoSuchType");
    op.SetAttr("u", static_cast<uint32_t>(4000000000u)).SetAttr("small", static_cast<int32_t>(9));
    op.SetAttr("big", static_cast<int64_t>(1) << 40).SetAttr("axis", static_cast<int64_t>(-1));
    op.SetAttr("lu", std::vector<uint32_t>{1, 4000000000u}).SetAttr("l", Dims{3, -4, 5});
    op.SetAttr("l32", std::vector<int32_t>{1, -2});
    assert_true(Reads(op, "u", 4000000000u));
    assert_true(Reads(op, "u", static_cast<int64_t>(4000000000LL)));
    assert_true(Reads(op, "small", 9));
    assert_true(ReadFails<int32_t>(op, "u") && ReadFails<int32_t>(op, "big"));
    assert_true(ReadFails<uint32_t>(op, "big") && ReadFails<uint32_t>(op, "axis"));
    assert_true(Reads(op, "lu", Dims{1, 4000000000LL}));
    assert_true(ReadFails<std::vector<int32_t>>(op, "lu"));

    assert_true(Reads(op, "axis", static_cast<int64_t>(-1)));
    assert_true(Reads(op, "axis", -1));
    assert_true(Reads(op, "l", Dims{3, -4, 5}));
    assert_true(Reads(op, "l32", std::vector<int32_t>{1, -2}));
    ge::op::InplacePartialRotaryMul pr("pr");
    pr.set_attr_rotary_mode(-1).set_attr_partial_slice({-8, 8});
    assert_int_equal(pr.get_attr_rotary_mode(), -1);
    assert_true(pr.get_attr_partial_slice() == (Dims{-8, 8}));
}

void data_and_const(void **) {
    ge::op::Data d("in");
    assert_int_equal(d.get_attr_index(), 0);
    ExpectPorts(d, {"x"}, {"y"});
    d.set_attr_index(3);
    assert_int_equal(d.get_attr_index(), 3);
    assert_true(Reads(d, "index", static_cast<int64_t>(3)));
    EXPECT_OK(d.update_output_desc_y(Desc({4, -1}, ge::DT_FLOAT16)));
    assert_true(DimsOf(d.get_output_desc_y()) == (Dims{4, -1}));

    ge::op::Const c("c");
    ExpectPorts(c, {}, {"y"});
    assert_int_equal(c.get_attr_value().GetSize(), 0);
    assert_null(c.get_attr_value().GetData());
    ge::Tensor value = gt::Int64Tensor({3}, {7, -8, 9});
    c.set_attr_value(value);
    ge::Tensor got = c.get_attr_value();
    assert_true(SameBytes(got, value));
    assert_int_equal(got.GetDataType(), ge::DT_INT64);
    assert_true(DimsOf(got.GetTensorDesc()) == (Dims{3}));
    assert_true(Reads(c, "value", value));
}

void tensor_data(void **) {
    ge::Tensor empty;
    assert_null(empty.GetData());
    assert_int_equal(empty.GetSize(), 0);
    EXPECT_OK(empty.IsValid());
    assert_null(ge::Tensor(Desc({2}, ge::DT_FLOAT)).Clone().GetData());

    std::vector<uint8_t> bytes(24);
    for (size_t i = 0; i < bytes.size(); ++i)
        bytes[i] = static_cast<uint8_t>(i * 3 + 1);
    ge::Tensor t(Desc({2, 3}, ge::DT_FLOAT), bytes);
    assert_int_equal(t.GetSize(), 24);
    assert_memory_equal(t.GetData(), bytes.data(), 24);
    assert_true(t.GetData() != bytes.data() && Aligned64(t.GetData())); /* a copy */
    assert_true(DimsOf(t.GetTensorDesc()) == (Dims{2, 3}));
    assert_int_equal(t.GetDataType(), ge::DT_FLOAT);
    EXPECT_OK(t.IsValid());
    ge::Tensor p(Desc({2, 3}, ge::DT_FLOAT), bytes.data(), 20); /* 20 bytes, not 2 * 3 * 4 */
    assert_int_equal(p.GetSize(), 20);
    assert_memory_equal(p.GetData(), bytes.data(), 20);
    EXPECT_FAIL(p.IsValid());
    EXPECT_OK(t.SetDataType(ge::DT_INT32));
    assert_int_equal(t.GetTensorDesc().GetDataType(), ge::DT_INT32);
    EXPECT_OK(t.IsValid()); /* int32 has float's size */
    EXPECT_OK(t.SetDataType(ge::DT_FLOAT16));
    EXPECT_FAIL(t.IsValid());
    EXPECT_FAIL(ge::Tensor(Desc({-1, 3}, ge::DT_FLOAT), bytes).IsValid());
    EXPECT_FAIL(t.SetData(nullptr, 4));

    for (size_t n : {1u, 3u, 63u, 65u, 1000u}) {
        ge::Tensor a(Desc({static_cast<int64_t>(n)}, ge::DT_UINT8));
        std::vector<uint8_t> v(n, 0x5a);
        EXPECT_OK(a.SetData(v.data(), n));
        assert_true(Aligned64(a.GetData()) && a.GetSize() == n);
        assert_memory_equal(a.GetData(), v.data(), n);
        EXPECT_OK(a.SetData(std::vector<uint8_t>(n, 0x11)));
        assert_true(Aligned64(a.GetData()) && a.GetData()[n - 1] == 0x11);
        EXPECT_OK(a.IsValid());
    }
}

void tensor_deleter_and_sharing(void **) {
    int deleted = 0;
    uint8_t *seen = nullptr;
    uint8_t *buf = new uint8_t[8]{1, 2, 3, 4, 5, 6, 7, 8};
    {
        ge::Tensor t(Desc({2}, ge::DT_FLOAT));
        EXPECT_OK(t.SetData(buf, 8, [&](uint8_t *q) {
            ++deleted;
            seen = q;
            delete[] q;
        }));
        assert_ptr_equal(t.GetData(), buf); /* not copied */
        ge::Tensor copy = t, clone = t.Clone();
        t = ge::Tensor();
        assert_int_equal(deleted, 0); /* `copy` still refers to it */
        assert_ptr_equal(copy.GetData(), buf);
        copy = clone;
        assert_int_equal(deleted, 1);
        assert_ptr_equal(seen, buf);
        assert_int_equal(clone.GetData()[7], 8);
    }
    assert_int_equal(deleted, 1);

    /* graph/tensor.h: copies share one description and one buffer */
    ge::Tensor a = FloatTensor({2, 2}, ge::DT_FLOAT, {1, 2, 3, 4});
    ge::Tensor b = a;
    assert_ptr_equal(a.GetData(), b.GetData());
    b.SetDataType(ge::DT_INT32);
    assert_int_equal(a.GetDataType(), ge::DT_INT32);
    b.SetData(std::vector<uint8_t>(4, 1));
    assert_int_equal(a.GetSize(), 4);
    b.SetTensorDesc(Desc({1}, ge::DT_INT32));
    assert_true(DimsOf(a.GetTensorDesc()) == (Dims{1}));

    /* Clone: the same bytes and description in a buffer of its own */
    ge::Tensor c = FloatTensor({3}, ge::DT_FLOAT16, {1, 2, 3});
    ge::Tensor d = c.Clone();
    assert_true(SameBytes(c, d) && d.GetData() != c.GetData() && Aligned64(d.GetData()));
    assert_int_equal(d.GetDataType(), ge::DT_FLOAT16);
    d.GetData()[0] ^= 0xff;
    d.SetDataType(ge::DT_BF16);
    assert_true(gt::Values(c) == (std::vector<double>{1, 2, 3}));
    assert_int_equal(c.GetDataType(), ge::DT_FLOAT16);
}

void tensor_desc_shape_and_types(void **) {
    ge::Shape s({2, 3, 4});
    assert_int_equal(s.GetDimNum(), 3);
    assert_int_equal(s.GetShapeSize(), 24);
    EXPECT_OK(s.SetDim(1, 5));
    assert_true(s.GetDims() == (Dims{2, 5, 4}));
    assert_int_equal(s.GetShapeSize(), 40);
    EXPECT_FAIL(s.SetDim(3, 1));
    EXPECT_OK(s.SetDim(0, ge::UNKNOWN_DIM));
    assert_int_equal(s.GetShapeSize(), -1);
    assert_int_equal(ge::Shape({4, 0, 2}).GetShapeSize(), 0);
    assert_int_equal(ge::Shape().GetShapeSize(), 0);               /* a scalar, as GE counts it */
    assert_int_equal(ge::Shape({INT64_MAX, 2}).GetShapeSize(), 0); /* overflow */

    ge::TensorDesc def;
    assert_true(DimsOf(def).empty());
    assert_true(def.GetFormat() == ge::FORMAT_ND && def.GetDataType() == ge::DT_FLOAT);
    ge::TensorDesc d(ge::Shape({8, -1}), ge::FORMAT_NCHW, ge::DT_BF16);
    assert_int_equal(d.GetFormat(), ge::FORMAT_NCHW);
    assert_int_equal(d.GetDataType(), ge::DT_BF16);
    assert_int_equal(d.GetShape().GetShapeSize(), -1);
    d.SetFormat(ge::FORMAT_ND);
    d.SetDataType(ge::DT_INT64);
    d.SetName("query");
    ge::AscendString name;
    EXPECT_OK(d.GetName(name));
    assert_true(name == "query");
    ge::TensorDesc copy = d; /* a value: the copy is independent */
    copy.SetShape(ge::Shape({1}));
    copy.SetDataType(ge::DT_FLOAT);
    assert_true(DimsOf(d) == (Dims{8, -1}));
    assert_true(d.GetFormat() == ge::FORMAT_ND && d.GetDataType() == ge::DT_INT64);
    EXPECT_OK(d.SetUnknownDimNumShape());
    assert_true(DimsOf(d) == ge::UNKNOWN_RANK);
    assert_int_equal(d.GetShape().GetDimNum(), 0);
    assert_int_equal(d.GetShape().GetShapeSize(), -1);

    assert_int_equal(ge::GetSizeByDataType(ge::DT_FLOAT), 4);
    assert_int_equal(ge::GetSizeByDataType(ge::DT_FLOAT16), 2);
    assert_int_equal(ge::GetSizeByDataType(ge::DT_BF16), 2);
    assert_int_equal(ge::GetSizeByDataType(ge::DT_INT32), 4);
    assert_int_equal(ge::GetSizeByDataType(ge::DT_INT64), 8);
    assert_int_equal(ge::GetSizeInBytes(6, ge::DT_BF16), 12);
    /* CANN's numbers: programs and saved graphs carry them */
    static_assert(ge::DT_FLOAT == 0 && ge::DT_FLOAT16 == 1 && ge::DT_INT32 == 3, "numbering");
    static_assert(ge::DT_INT64 == 9 && ge::DT_BF16 == 27, "numbering");
    static_assert(ge::FORMAT_NCHW == 0 && ge::FORMAT_ND == 2, "numbering");
    assert_string_equal(ge::GetFormatName(ge::FORMAT_NCHW), "FORMAT_NCHW");
}

void ascend_string(void **) {
    ge::AscendString a("rope"), b("rope"), c("ropf"), none(nullptr), def, part("ropekit", 4);
    assert_string_equal(a.GetString(), "rope");
    assert_int_equal(a.GetLength(), 4);
    assert_true(a == b && !(a != b) && a == "rope" && a != "ropf" && part == a);
    assert_true(a < c && !(c < a) && !(a < b) && c > a && a <= b && a >= b);
    assert_non_null(none.GetString());
    assert_string_equal(none.GetString(), "");
    assert_int_equal(none.GetLength(), 0);
    assert_true(none == def && def == "" && none < a);
    assert_true(a.Hash() == b.Hash());
    assert_int_equal(ge::AscendString("ropekit").Find(ge::AscendString("kit")), 4);

    std::map<ge::AscendString, int> m;
    m[a] = 1;
    m[c] = 2;
    m[def] = 3;
    m[ge::AscendString("rope")] += 10;
    assert_int_equal(m.size(), 3);
    assert_int_equal(m[b], 11);
    assert_int_equal(m[none], 3);
    assert_string_equal(m.begin()->first.GetString(), "");
}

void graph_building(void **) {
    assert_false(ge::Graph().IsValid());
    ge::Graph g("build");
    assert_true(g.IsValid());
    assert_string_equal(g.GetName().c_str(), "build");
    ge::op::Data x = MakeData("x", 0), cos = MakeData("cos", 1), sin = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(x).set_input_cos(cos).set_input_sin(sin);
    EXPECT_OK(g.AddOp(MakeData("lone", 3)));
    EXPECT_FAIL(g.AddOp(ge::Operator()));
    (void)gt::TakeError();
    ge::Graph &chained = g.SetInputs({x, cos, sin}).SetOutputs({op});
    assert_ptr_equal(&chained, &g);

    std::vector<std::string> names;
    EXPECT_OK(g.GetAllOpName(names));
    assert_int_equal(names.size(), 5);
    for (const char *n : {"x", "cos", "sin", "rotate", "lone"})
        assert_true(std::find(names.begin(), names.end(), n) != names.end());
    ge::Operator found;
    EXPECT_OK(g.FindOpByName("rotate", found));
    found.SetAttr("rotary_mode", static_cast<int64_t>(1)); /* the same node */
    assert_int_equal(op.get_attr_rotary_mode(), 1);
    EXPECT_FAIL(g.FindOpByName("absent", found));
}

void add_graph_snapshot_and_ids(void **) {
    const Dims xs = {1, 2, 2, 16}, cs = {1, 2, 1, 8};
    std::vector<ge::Tensor> feeds = {FloatTensor(xs, ge::DT_FLOAT, gt::Pattern(64, 1)),
                                     FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(16, 2)),
                                     FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(16, 3))};
    ge::Graph g("snapshot");
    ge::op::Data dx = MakeData("x", 0), dc = MakeData("cos", 1), ds = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(dx).set_input_cos(dc).set_input_sin(ds);
    op.set_attr_rotary_mode(1).set_attr_partial_slice({0, 8});
    g.SetInputs({dx, dc, ds}).SetOutputs({op});

    ge::Session s(kNoOptions);
    EXPECT_OK(s.AddGraph(0, g));
    op.set_attr_partial_slice({8, 16});
    std::vector<ge::Tensor> first, second;
    EXPECT_OK(s.RunGraph(0, feeds, first));
    std::vector<uint8_t> low = NativeRotate(feeds[0], feeds[1], feeds[2], 0, 8);
    assert_int_equal(first.size(), 1);
    assert_int_equal(first[0].GetSize(), low.size());
    assert_memory_equal(first[0].GetData(), low.data(), low.size());
    /* the change is real: the same graph added now rotates [8, 16) */
    EXPECT_OK(s.AddGraph(1, g));
    EXPECT_OK(s.RunGraph(1, feeds, second));
    std::vector<uint8_t> high = NativeRotate(feeds[0], feeds[1], feeds[2], 8, 16);
    assert_memory_equal(second[0].GetData(), high.data(), high.size());
    assert_true(low != high);

    /* an id in use: fails, and the stored graph stays */
    (void)gt::TakeError();
    assert_int_equal(s.AddGraph(0, g), ACL_ERROR_GE_PARAM_INVALID);
    gt::ExpectMentions(gt::TakeError(), {"AddGraph", "graph id 0", "already in use"});
    EXPECT_OK(s.RunGraph(0, feeds, first));
    assert_memory_equal(first[0].GetData(), low.data(), low.size());

    EXPECT_OK(s.RemoveGraph(0));
    assert_int_equal(s.RunGraph(0, feeds, first), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
    gt::ExpectMentions(gt::TakeError(), {"RunGraph", "no graph with id 0"});
    assert_int_equal(s.RemoveGraph(0), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
    (void)gt::TakeError();
    EXPECT_OK(s.AddGraph(0, g)); /* the id is free again */
}

void session_not_copyable(void **) {
    static_assert(!std::is_copy_constructible<ge::Session>::value, "Session is not copyable");
    static_assert(!std::is_copy_assignable<ge::Session>::value, "Session is not assignable");
    ge::Session a(kNoOptions), b(kNoOptions);
    assert_int_not_equal(a.GetSessionId(), 0);
    assert_int_not_equal(a.GetSessionId(), b.GetSessionId());
}

void error_message_per_thread(void **) {
    ge::Session s(kNoOptions);
    std::vector<ge::Tensor> out;
    (void)gt::TakeError();
    /* this thread's failure is pending while another thread fails and reads */
    assert_int_equal(s.RunGraph(43, {}, out), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
    ge::Status other_status = 0;
    std::string other_first, other_second;
    std::thread worker([&] { /* no cmocka asserts off the test's thread */
                             std::vector<ge::Tensor> o;
                             other_status = s.RunGraph(42, {}, o);
                             other_first = gt::TakeError();
                             other_second = gt::TakeError();
    });
    worker.join();
    assert_int_equal(other_status, ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
    gt::ExpectMentions(other_first, {"RunGraph", "id 42"});
    assert_true(other_first.find("id 43") == std::string::npos);
    assert_string_equal(other_second.c_str(), "");
    std::string v2 = ge::GEGetErrorMsgV2().GetString();
    gt::ExpectMentions(v2, {"RunGraph", "id 43"});
    assert_true(v2.find("id 42") == std::string::npos);
    assert_string_equal(ge::GEGetErrorMsgV2().GetString(), "");

    assert_int_equal(s.RunGraph(43, {}, out), ACL_ERROR_GE_EXEC_MODEL_ID_INVALID);
    assert_string_equal(ge::GEGetErrorMsg().c_str(), v2.c_str());
    assert_string_equal(ge::GEGetErrorMsg().c_str(), "");
    assert_string_equal(ge::GEGetErrorMsgV2().GetString(), "");

    /* every failure since the last read is kept */
    EXPECT_FAIL(s.RunGraph(44, {}, out));
    EXPECT_FAIL(s.RemoveGraph(45));
    gt::ExpectMentions(gt::TakeError(), {"id 44", "id 45"});
}

void initialize_and_finalize(void **) {
    const std::map<ge::AscendString, ge::AscendString> options = {{"ge.exec.deviceId", "0"}};
    const std::map<std::string, std::string> device0 = {{"ge.exec.deviceId", "0"}},
                                             device1 = {{"ge.exec.deviceId", "1"}};
    ge::Session before(kNoOptions);
    EXPECT_OK(before.AddGraph(0, IdentityGraph()));
    /* again: no effect; the session made before keeps its graph */
    EXPECT_OK(ge::GEInitialize(options));
    EXPECT_OK(ge::GEInitialize(device0));
    ExpectIdentityRuns(before, 0);
    (void)gt::TakeError();
    /* a rejected option leaves GE initialised */
    assert_int_equal(ge::GEInitialize(device1), ACL_ERROR_GE_PARAM_INVALID);
    gt::ExpectMentions(gt::TakeError(), {"ge.exec.deviceId", "\"1\""});
    ExpectIdentityRuns(before, 0);

    EXPECT_OK(ge::GEFinalize());
    std::vector<ge::Tensor> out;
    assert_int_equal(before.RunGraph(0, {}, out), ACL_ERROR_GE_EXEC_NOT_INIT);
    ge::Session between(kNoOptions);
    assert_int_equal(between.AddGraph(0, IdentityGraph()), ACL_ERROR_GE_EXEC_NOT_INIT);
    EXPECT_OK(ge::GEFinalize());
    (void)gt::TakeError();

    EXPECT_OK(ge::GEInitialize(device0));
    /* sessions ended by GEFinalize, or made while GE was not initialised, stay unusable */
    assert_int_equal(before.RunGraph(0, {}, out), ACL_ERROR_GE_EXEC_NOT_INIT);
    assert_int_equal(between.AddGraph(0, IdentityGraph()), ACL_ERROR_GE_EXEC_NOT_INIT);
    (void)gt::TakeError();
    ge::Session after(kNoOptions);
    EXPECT_OK(after.AddGraph(0, IdentityGraph()));
    ExpectIdentityRuns(after, 0);
}

void ir_version(void **) {
    int32_t major = -1, minor = -1, patch = -1;
    EXPECT_OK(ge::aclgrphGetIRVersion(&major, &minor, &patch));
    assert_int_equal(major, ge::IR_MAJOR_VERSION);
    assert_int_equal(minor, ge::IR_MINOR_VERSION);
    assert_int_equal(patch, ge::IR_PATCH_VERSION);
    assert_true(major >= 1 && minor >= 0 && patch >= 0);
    assert_int_equal(ge::aclgrphGetIRVersion(nullptr, &minor, &patch), ge::GRAPH_PARAM_INVALID);
    (void)gt::TakeError();
}

} // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(user_success_failed_macros),
        cmocka_unit_test(operator_is_shared_handle),
        cmocka_unit_test(partial_rotary_prototypes),
        cmocka_unit_test(rope_prototype),
        cmocka_unit_test(generic_attributes),
        cmocka_unit_test(int_attribute_widths),
        cmocka_unit_test(data_and_const),
        cmocka_unit_test(tensor_data),
        cmocka_unit_test(tensor_deleter_and_sharing),
        cmocka_unit_test(tensor_desc_shape_and_types),
        cmocka_unit_test(ascend_string),
        cmocka_unit_test(graph_building),
        cmocka_unit_test(add_graph_snapshot_and_ids),
        cmocka_unit_test(session_not_copyable),
        cmocka_unit_test(error_message_per_thread),
        cmocka_unit_test(initialize_and_finalize),
        cmocka_unit_test(ir_version),
    };
    return cmocka_run_group_tests(tests, gt::InitializeGe, gt::FinalizeGe);
}
