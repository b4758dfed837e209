/* Which RunGraph input feeds which Data node (docs/graph-mode.md, "Which input feeds which
 * Data node"), as CANN's GE binds them: by the index attributes when they are 0 .. n-1 one
 * each, whatever order SetInputs lists the nodes in; otherwise in the graph's input order
 * (SetInputs first, then where GE's breadth-first walk meets the others), as CANN's GE
 * IR examples need (every Data node index 0). Every input of each graph has the same
 * shape and dtype, so a wrong binding runs and gives other numbers: each result is
 * checked element by element against the float64 reference of the intended binding and
 * bit for bit against the native API. */
#include <cstring>
#include <map>

#include "ge_test_support.h"
#include "ropekit/ropekit.h"

namespace {

using gt::Desc;
using gt::FloatTensor;
using gt::MakeData;

const std::vector<int64_t> kShape = {1, 4, 2, 32}; /* x, cos and sin alike */

struct PrInputs {
    ge::Tensor x, cos, sin;
};

PrInputs MakePrInputs() {
    size_t n = 1 * 4 * 2 * 32;
    return {FloatTensor(kShape, ge::DT_FLOAT, gt::Pattern(n, 1)),
            FloatTensor(kShape, ge::DT_FLOAT, gt::Pattern(n, 2)),
            FloatTensor(kShape, ge::DT_FLOAT, gt::Pattern(n, 3))};
}

/* InplacePartialRotaryMul (rotary_mode 1, interleave, the one CANN's kernels run; the
 * whole head) reading x, cos and sin. */
ge::Operator Rotate(const ge::Operator &x, const ge::Operator &cos, const ge::Operator &sin) {
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(x).set_input_cos(cos).set_input_sin(sin);
    op.set_attr_rotary_mode(1).set_attr_partial_slice({0, 32});
    return op;
}

/* The graph's one output is the rotation of p.x by p.cos and p.sin: against the float64
 * reference, element by element, and bit for bit against the native API. */
void ExpectRotation(const std::vector<ge::Tensor> &outputs, const PrInputs &p) {
    assert_int_equal(outputs.size(), 1);
    std::vector<double> got = gt::Values(outputs[0]);
    std::vector<double> mag;
    std::vector<double> want = gt::PartialRotaryReference(
        gt::Values(p.x), kShape, gt::Values(p.cos), gt::Values(p.sin), kShape, 0, 32, 1, 0, &mag);
    assert_int_equal(got.size(), want.size());
    assert_true(gt::ErrorRatio(got, want, mag, ge::DT_FLOAT) <= 1.0);

    std::vector<uint8_t> native(p.x.GetData(), p.x.GetData() + p.x.GetSize());
    auto view = [](void *data) {
        return ropekit_tensor_make(data, ROPEKIT_F32, 4, kShape.data(), nullptr);
    };
    ropekit_tensor tx = view(native.data());
    ropekit_tensor tc = view(const_cast<uint8_t *>(p.cos.GetData()));
    ropekit_tensor ts = view(const_cast<uint8_t *>(p.sin.GetData()));
    assert_int_equal(
        ropekit_partial_rotary(&tx, &tc, &ts, ROPEKIT_ROTARY_INTERLEAVE, 0, 32, ROPEKIT_FORWARD),
        ROPEKIT_OK);
    assert_int_equal(outputs[0].GetSize(), native.size());
    assert_memory_equal(outputs[0].GetData(), native.data(), native.size());
}

/* AddGraph and RunGraph in a fresh session; both succeed. */
std::vector<ge::Tensor> Run(const ge::Graph &graph, const std::vector<ge::Tensor> &inputs,
                            std::string *warnings = nullptr) {
    std::vector<ge::Tensor> outputs;
    std::map<ge::AscendString, ge::AscendString> options;
    ge::Session session(options);
    (void)ge::GEGetWarningMsgV2(); /* start clean */
    ge::Status st = session.AddGraph(0, graph);
    if (warnings)
        *warnings = ge::GEGetWarningMsgV2().GetString();
    if (st == 0)
        st = session.RunGraph(0, inputs, outputs);
    if (st != 0)
        std::fprintf(stderr, "%s\n", gt::TakeError().c_str());
    assert_int_equal(st, 0);
    return outputs;
}

/* CANN's GE IR examples: every Data node index 0, SetInputs in the inputs' order. */
void all_index_zero_binds_in_set_inputs_order(void **) {
    PrInputs p = MakePrInputs();
    ge::op::Data x = MakeData("x", 0, Desc(kShape, ge::DT_FLOAT));
    ge::op::Data cos = MakeData("cos", 0, Desc(kShape, ge::DT_FLOAT));
    ge::op::Data sin = MakeData("sin", 0, Desc(kShape, ge::DT_FLOAT));
    ge::Graph graph("zeros");
    graph.SetInputs({x, cos, sin}).SetOutputs({Rotate(x, cos, sin)});
    std::string warnings;
    ExpectRotation(Run(graph, {p.x, p.cos, p.sin}, &warnings), p);
    gt::ExpectMentions(warnings, {"AddGraph(graph 0 \"zeros\")", "not 0 to 2", "as CANN's GE does",
                                  "(SetInputs): x, cos, sin"});
}

/* The index attribute never set (the prototype's default is 0), and SetInputs in another
 * order than the operator's inputs: SetInputs' order decides. */
void default_indices_follow_set_inputs_not_the_operator(void **) {
    PrInputs p = MakePrInputs();
    ge::op::Data x("x"), cos("cos"), sin("sin");
    ge::Graph graph("unset");
    graph.SetInputs({sin, x, cos}).SetOutputs({Rotate(x, cos, sin)});
    ExpectRotation(Run(graph, {p.sin, p.x, p.cos}), p);
}

/* Unique indices 0 .. n-1 bind by index, whatever order SetInputs lists the nodes in. */
void unique_indices_bind_by_index(void **) {
    PrInputs p = MakePrInputs();
    ge::op::Data x = MakeData("x", 2), cos = MakeData("cos", 0), sin = MakeData("sin", 1);
    ge::Graph graph("unique");
    graph.SetInputs({x, sin, cos}).SetOutputs({Rotate(x, cos, sin)});
    std::string warnings;
    ExpectRotation(Run(graph, {p.cos, p.sin, p.x}, &warnings), p);
    assert_true(warnings.empty());
}

/* A gap, a negative index or one past the end: as a collision, SetInputs' order. */
void gap_or_negative_indices_bind_in_set_inputs_order(void **) {
    const int64_t sets[][3] = {{0, 2, 3}, {-1, 0, 1}, {1, 2, 3}, {0, 0, 1}};
    for (const auto &index : sets) {
        PrInputs p = MakePrInputs();
        ge::op::Data x = MakeData("x", index[0]), cos = MakeData("cos", index[1]),
                     sin = MakeData("sin", index[2]);
        ge::Graph graph("gap");
        graph.SetInputs({cos, sin, x}).SetOutputs({Rotate(x, cos, sin)});
        ExpectRotation(Run(graph, {p.cos, p.sin, p.x}), p);
    }
}

/* Data nodes SetInputs does not name come where GE's walk from the named ones meets
 * them: from sin to the rotation, then to what it reads by input name (cos, sin, x). */
void data_outside_set_inputs_in_walk_order(void **) {
    PrInputs p = MakePrInputs();
    ge::op::Data x = MakeData("x", 0), cos = MakeData("cos", 0), sin = MakeData("sin", 0);
    ge::Graph graph("partial");
    graph.SetInputs({sin}).SetOutputs({Rotate(x, cos, sin)});
    std::string warnings;
    ExpectRotation(Run(graph, {p.sin, p.cos, p.x}, &warnings), p);
    gt::ExpectMentions(warnings, {"(SetInputs): sin, cos, x"});
}

/* Without SetInputs (which GE cannot build, ropekit can): the order ropekit meets the
 * nodes from the outputs, the operator's inputs in order. */
void no_set_inputs_in_the_order_met(void **) {
    PrInputs p = MakePrInputs();
    ge::op::Data x = MakeData("x", 0), cos = MakeData("cos", 0), sin = MakeData("sin", 0);
    ge::Graph graph("outputs_only");
    graph.SetOutputs({Rotate(x, cos, sin)});
    ExpectRotation(Run(graph, {p.x, p.cos, p.sin}), p);
}

/* RopeWithSinCosCache with all four Data nodes at index 0, and again with unique indices
 * in another order than SetInputs: query and key have one shape, so swapping them would
 * run; each output is checked against the reference of the intended binding. */
struct RopeInputs {
    ge::Tensor pos, q, k, cache;
};

const int64_t kTokens = 5, kHeads = 2, kHeadSize = 32, kMaxPos = 16;

RopeInputs MakeRopeInputs() {
    std::vector<int64_t> positions = {3, 0, 15, 7, 7};
    size_t n = static_cast<size_t>(kTokens * kHeads * kHeadSize);
    return {gt::Int64Tensor({kTokens}, positions),
            FloatTensor({kTokens, kHeads * kHeadSize}, ge::DT_FLOAT, gt::Pattern(n, 6)),
            FloatTensor({kTokens, kHeads * kHeadSize}, ge::DT_FLOAT, gt::Pattern(n, 7)),
            gt::CosSinCache(kMaxPos, kHeadSize, ge::DT_FLOAT)};
}

ge::Operator Rope(const ge::Operator &pos, const ge::Operator &q, const ge::Operator &k,
                  const ge::Operator &cache) {
    ge::op::RopeWithSinCosCache rope("rope");
    rope.set_input_positions(pos).set_input_queryIn(q).set_input_keyIn(k).set_input_cosSinCache(
        cache);
    rope.set_attr_numQHeads(kHeads).set_attr_numKHeads(kHeads).set_attr_headSize(kHeadSize);
    return rope;
}

void ExpectRope(const std::vector<ge::Tensor> &outputs, const RopeInputs &r) {
    assert_int_equal(outputs.size(), 2);
    std::vector<int64_t> positions(kTokens);
    std::memcpy(positions.data(), r.pos.GetData(), r.pos.GetSize());
    std::vector<double> cache = gt::Values(r.cache);
    const ge::Tensor *in[2] = {&r.q, &r.k};
    for (int i = 0; i < 2; ++i) {
        std::vector<double> mag;
        std::vector<double> want =
            gt::RopeReference(gt::Values(*in[i]), kTokens, kHeads, kHeadSize, cache, kHeadSize,
                              positions, {0, 0, 0}, 0, true, &mag);
        std::vector<double> got = gt::Values(outputs[static_cast<size_t>(i)]);
        assert_int_equal(got.size(), want.size());
        assert_true(gt::ErrorRatio(got, want, mag, ge::DT_FLOAT) <= 1.0);
    }
}

void rope_all_index_zero(void **) {
    RopeInputs r = MakeRopeInputs();
    ge::op::Data pos("positions"), q("query"), k("key"), cache("cache");
    for (ge::op::Data *d : {&pos, &q, &k, &cache})
        d->set_attr_index(0);
    ge::Graph graph("rope_zeros");
    graph.SetInputs({pos, q, k, cache}).SetOutputs({Rope(pos, q, k, cache)});
    ExpectRope(Run(graph, {r.pos, r.q, r.k, r.cache}), r);
}

void rope_unique_indices_other_order(void **) {
    RopeInputs r = MakeRopeInputs();
    ge::op::Data pos = MakeData("positions", 2), q = MakeData("query", 3), k = MakeData("key", 0),
                 cache = MakeData("cache", 1);
    ge::Graph graph("rope_unique");
    graph.SetInputs({pos, q, k, cache}).SetOutputs({Rope(pos, q, k, cache)});
    ExpectRope(Run(graph, {r.k, r.cache, r.pos, r.q}), r);
}

} // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(all_index_zero_binds_in_set_inputs_order),
        cmocka_unit_test(default_indices_follow_set_inputs_not_the_operator),
        cmocka_unit_test(unique_indices_bind_by_index),
        cmocka_unit_test(gap_or_negative_indices_bind_in_set_inputs_order),
        cmocka_unit_test(data_outside_set_inputs_in_walk_order),
        cmocka_unit_test(no_set_inputs_in_the_order_met),
        cmocka_unit_test(rope_all_index_zero),
        cmocka_unit_test(rope_unique_indices_other_order),
    };
    return cmocka_run_group_tests(tests, gt::InitializeGe, gt::FinalizeGe);
}
