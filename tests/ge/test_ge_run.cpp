/* Graph results: every operator in its modes and dtypes against the float64 reference and
 * bit for bit against the native API on the same inputs; the caller's inputs never change;
 * chained operators, fan-out, constants; repeated runs with new feeds and shapes; several
 * graphs per session and several sessions; outputs that outlive their session. */
#include <cstring>
#include <map>

#include "ge_test_support.h"
#include "ropekit/ropekit.h"

namespace {

using gt::Desc;
using gt::FloatTensor;
using gt::MakeData;

const std::map<ge::AscendString, ge::AscendString> kNoOptions;

bool SameBytes(const ge::Tensor &a, const ge::Tensor &b) {
    return a.GetSize() == b.GetSize() && std::memcmp(a.GetData(), b.GetData(), a.GetSize()) == 0;
}

/* The native API on a copy of x: what the graph must reproduce bit for bit. */
std::vector<uint8_t> NativePartialRotary(const ge::Tensor &x, const ge::Tensor &cos,
                                         const ge::Tensor &sin, int mode, int64_t start,
                                         int64_t end, ropekit_direction dir) {
    std::vector<uint8_t> out(x.GetData(), x.GetData() + x.GetSize());
    auto tensor = [](const ge::Tensor &t, void *data) {
        std::vector<int64_t> dims = t.GetTensorDesc().GetShape().GetDims();
        return ropekit_tensor_make(data, static_cast<ropekit_dtype>(t.GetDataType()),
                                   static_cast<int32_t>(dims.size()), dims.data(), nullptr);
    };
    ropekit_tensor tx = tensor(x, out.data());
    ropekit_tensor tc = tensor(cos, const_cast<uint8_t *>(cos.GetData()));
    ropekit_tensor ts = tensor(sin, const_cast<uint8_t *>(sin.GetData()));
    assert_int_equal(ropekit_partial_rotary(&tx, &tc, &ts, static_cast<ropekit_rotary_mode>(mode),
                                            start, end, dir),
                     ROPEKIT_OK);
    return out;
}

struct PrCase {
    const char *type; /* InplacePartialRotaryMul or ...Grad */
    std::vector<int64_t> x_shape, cs_shape;
    ge::DataType x_dt, cs_dt;
    int64_t start, end;
};

ge::Graph PartialRotaryGraph(const PrCase &c) {
    ge::Graph graph("pr");
    const char *data = std::strcmp(c.type, "InplacePartialRotaryMul") == 0 ? "x" : "dy";
    ge::op::Data x = MakeData("x", 0, Desc(c.x_shape, c.x_dt));
    ge::op::Data cos = MakeData("cos", 1, Desc(c.cs_shape, c.cs_dt));
    ge::op::Data sin = MakeData("sin", 2, Desc(c.cs_shape, c.cs_dt));
    ge::Operator op("rotate", c.type);
    op.SetInput(data, x).SetInput("cos", cos).SetInput("sin", sin);
    op.SetAttr("rotary_mode", static_cast<int64_t>(1));
    op.SetAttr("partial_slice", std::vector<int64_t>{c.start, c.end});
    graph.SetInputs({x, cos, sin}).SetOutputs({op});
    return graph;
}

void CheckPartialRotary(const PrCase &c) {
    int direction = std::strcmp(c.type, "InplacePartialRotaryMul") == 0 ? 0 : 1;
    int64_t xn = 1, cn = 1;
    for (int64_t d : c.x_shape)
        xn *= d;
    for (int64_t d : c.cs_shape)
        cn *= d;
    ge::Tensor x = FloatTensor(c.x_shape, c.x_dt, gt::Pattern(static_cast<size_t>(xn), 1));
    ge::Tensor cos = FloatTensor(c.cs_shape, c.cs_dt, gt::Pattern(static_cast<size_t>(cn), 2));
    ge::Tensor sin = FloatTensor(c.cs_shape, c.cs_dt, gt::Pattern(static_cast<size_t>(cn), 3));
    ge::Tensor x_before = x.Clone();
    std::vector<ge::Tensor> outputs;
    ge::Status st = gt::RunOnce(PartialRotaryGraph(c), {x, cos, sin}, outputs);
    if (st != 0)
        std::fprintf(stderr, "%s\n", gt::TakeError().c_str());
    assert_int_equal(st, 0);
    assert_int_equal(outputs.size(), 1);
    assert_true(SameBytes(x, x_before)); /* the caller's x is not rotated in place */
    assert_true(outputs[0].GetTensorDesc().GetShape().GetDims() == c.x_shape);
    assert_int_equal(outputs[0].GetDataType(), c.x_dt);

    std::vector<double> mag;
    std::vector<double> want =
        gt::PartialRotaryReference(gt::Values(x), c.x_shape, gt::Values(cos), gt::Values(sin),
                                   c.cs_shape, c.start, c.end, 1, direction, &mag);
    assert_true(gt::ErrorRatio(gt::Values(outputs[0]), want, mag, c.x_dt) <= 1.0);
    std::vector<uint8_t> native = NativePartialRotary(
        x, cos, sin, 1, c.start, c.end, direction ? ROPEKIT_BACKWARD : ROPEKIT_FORWARD);
    assert_int_equal(native.size(), outputs[0].GetSize());
    assert_memory_equal(native.data(), outputs[0].GetData(), native.size());
}

void pr_forward_bf16_slice_with_fp32_cos(void **) {
    CheckPartialRotary({"InplacePartialRotaryMul",
                        {2, 3, 4, 64},
                        {2, 3, 1, 32},
                        ge::DT_BF16,
                        ge::DT_FLOAT,
                        16,
                        48});
}

void pr_forward_fp32_whole_head(void **) {
    CheckPartialRotary({"InplacePartialRotaryMul",
                        {1, 5, 2, 128},
                        {1, 5, 2, 128},
                        ge::DT_FLOAT,
                        ge::DT_FLOAT,
                        0,
                        128});
}

void pr_forward_fp16_broadcast_b11d(void **) {
    CheckPartialRotary({"InplacePartialRotaryMul",
                        {3, 2, 2, 48},
                        {3, 1, 1, 16},
                        ge::DT_FLOAT16,
                        ge::DT_FLOAT16,
                        32,
                        48});
}

void pr_grad_fp16(void **) {
    CheckPartialRotary({"InplacePartialRotaryMulGrad",
                        {1, 4, 2, 32},
                        {1, 4, 1, 32},
                        ge::DT_FLOAT16,
                        ge::DT_FLOAT16,
                        0,
                        32});
}

void pr_grad_bf16_slice(void **) {
    CheckPartialRotary({"InplacePartialRotaryMulGrad",
                        {2, 2, 3, 64},
                        {1, 2, 1, 24},
                        ge::DT_BF16,
                        ge::DT_BF16,
                        8,
                        32});
}

/* The default partial_slice {0, 0} is a no-op: x comes back unchanged. */
void pr_default_slice_is_identity(void **) {
    ge::Graph graph("noop");
    ge::op::Data x = MakeData("x", 0), cos = MakeData("cos", 1), sin = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(x).set_input_cos(cos).set_input_sin(sin).set_attr_rotary_mode(1);
    graph.SetInputs({x, cos, sin}).SetOutputs({op});
    ge::Tensor tx = FloatTensor({1, 1, 2, 8}, ge::DT_FLOAT, gt::Pattern(16, 4));
    ge::Tensor tc = FloatTensor({1, 1, 1, 8}, ge::DT_FLOAT, gt::Pattern(8, 5));
    std::vector<ge::Tensor> outputs;
    assert_int_equal(gt::RunOnce(graph, {tx, tc, tc}, outputs), 0);
    assert_true(SameBytes(outputs[0], tx));
    assert_true(outputs[0].GetData() != tx.GetData());
}

struct RopeCase {
    int64_t tokens, q_heads, k_heads, head_size, rot, max_pos;
    ge::DataType dt, cache_dt;
    bool neox;
    std::vector<int64_t> sections; /* empty: the default {0, 0, 0} */
    int64_t cache_mode;            /* -1: no cacheMode attribute (V1) */
};

std::vector<int64_t> RopePositions(const RopeCase &c) {
    size_t rows = c.sections.empty() ? 1 : c.sections.size();
    std::vector<int64_t> p(rows * static_cast<size_t>(c.tokens));
    for (size_t i = 0; i < p.size(); ++i)
        p[i] = static_cast<int64_t>((i * 37 + 11) % static_cast<size_t>(c.max_pos));
    return p;
}

void CheckRope(const RopeCase &c) {
    int64_t qw = c.q_heads * c.head_size, kw = c.k_heads * c.head_size;
    std::vector<int64_t> positions = RopePositions(c);
    std::vector<int64_t> pos_shape =
        c.sections.empty()
            ? std::vector<int64_t>{c.tokens}
            : std::vector<int64_t>{static_cast<int64_t>(c.sections.size()), c.tokens};
    ge::Tensor pos = gt::Int64Tensor(pos_shape, positions);
    ge::Tensor q =
        FloatTensor({c.tokens, qw}, c.dt, gt::Pattern(static_cast<size_t>(c.tokens * qw), 6));
    ge::Tensor k =
        FloatTensor({c.tokens, kw}, c.dt, gt::Pattern(static_cast<size_t>(c.tokens * kw), 7));
    ge::Tensor cache = gt::CosSinCache(c.max_pos, c.rot, c.cache_dt);

    ge::Graph graph("rope");
    ge::op::Data dp = MakeData("positions", 0, pos.GetTensorDesc());
    ge::op::Data dq = MakeData("query", 1, q.GetTensorDesc());
    ge::op::Data dk = MakeData("key", 2, k.GetTensorDesc());
    ge::op::Data dc = MakeData("cache", 3, cache.GetTensorDesc());
    ge::op::RopeWithSinCosCache rope("rope");
    rope.set_input_positions(dp).set_input_queryIn(dq).set_input_keyIn(dk).set_input_cosSinCache(
        dc);
    rope.set_attr_numQHeads(c.q_heads).set_attr_numKHeads(c.k_heads).set_attr_headSize(c.head_size);
    rope.set_attr_isNeoxStyle(c.neox);
    if (!c.sections.empty())
        rope.set_attr_mropeSection(c.sections);
    if (c.cache_mode >= 0)
        rope.SetAttr("cacheMode", c.cache_mode);
    graph.SetInputs({dp, dq, dk, dc}).SetOutputs({rope});

    std::vector<ge::Tensor> outputs;
    ge::Status st = gt::RunOnce(graph, {pos, q, k, cache}, outputs);
    if (st != 0)
        std::fprintf(stderr, "%s\n", gt::TakeError().c_str());
    assert_int_equal(st, 0);
    assert_int_equal(outputs.size(), 2);

    std::vector<int64_t> sections = c.sections.empty() ? std::vector<int64_t>{0, 0, 0} : c.sections;
    std::vector<double> cache_values = gt::Values(cache);
    std::vector<double> mag;
    std::vector<double> want_q =
        gt::RopeReference(gt::Values(q), c.tokens, c.q_heads, c.head_size, cache_values, c.rot,
                          positions, sections, c.cache_mode < 0 ? 0 : c.cache_mode, c.neox, &mag);
    assert_true(gt::ErrorRatio(gt::Values(outputs[0]), want_q, mag, c.dt) <= 1.0);
    std::vector<double> want_k =
        gt::RopeReference(gt::Values(k), c.tokens, c.k_heads, c.head_size, cache_values, c.rot,
                          positions, sections, c.cache_mode < 0 ? 0 : c.cache_mode, c.neox, &mag);
    assert_true(gt::ErrorRatio(gt::Values(outputs[1]), want_k, mag, c.dt) <= 1.0);

    /* bit for bit the native API */
    std::vector<uint8_t> nq(q.GetSize()), nk(k.GetSize());
    auto tensor = [](const ge::Tensor &t, void *data) {
        std::vector<int64_t> dims = t.GetTensorDesc().GetShape().GetDims();
        return ropekit_tensor_make(data, static_cast<ropekit_dtype>(t.GetDataType()),
                                   static_cast<int32_t>(dims.size()), dims.data(), nullptr);
    };
    ropekit_tensor tp = tensor(pos, const_cast<uint8_t *>(pos.GetData()));
    ropekit_tensor tq = tensor(q, const_cast<uint8_t *>(q.GetData()));
    ropekit_tensor tk = tensor(k, const_cast<uint8_t *>(k.GetData()));
    ropekit_tensor tc = tensor(cache, const_cast<uint8_t *>(cache.GetData()));
    ropekit_tensor tqo = tensor(q, nq.data()), tko = tensor(k, nk.data());
    ropekit_rope_config config = {c.head_size,
                                  c.neox ? ROPEKIT_ROPE_NEOX : ROPEKIT_ROPE_GPTJ,
                                  sections.data(),
                                  static_cast<int32_t>(sections.size()),
                                  c.cache_mode < 0 ? 0 : c.cache_mode,
                                  nullptr};
    assert_int_equal(ropekit_rope(&tp, &tq, &tk, &tc, &tqo, &tko, &config), ROPEKIT_OK);
    assert_memory_equal(nq.data(), outputs[0].GetData(), nq.size());
    assert_memory_equal(nk.data(), outputs[1].GetData(), nk.size());
}

void rope_neox_fp32(void **) {
    CheckRope({7, 4, 2, 64, 64, 128, ge::DT_FLOAT, ge::DT_FLOAT, true, {}, -1});
}

void rope_gptj_bf16_partial_rotary_dim(void **) {
    CheckRope({5, 2, 1, 128, 64, 96, ge::DT_BF16, ge::DT_BF16, false, {}, -1});
}

void rope_neox_fp16(void **) {
    CheckRope({9, 3, 3, 32, 32, 64, ge::DT_FLOAT16, ge::DT_FLOAT16, true, {}, -1});
}

void mrope_sections_fp16(void **) {
    CheckRope({6, 2, 1, 128, 128, 64, ge::DT_FLOAT16, ge::DT_FLOAT16, true, {16, 24, 24}, -1});
}

void mrope_v2_interleaved_cache_mode(void **) {
    CheckRope({4, 2, 2, 128, 128, 32, ge::DT_FLOAT, ge::DT_FLOAT, true, {16, 24, 24}, 1});
}

/* InplacePartialRotaryMul, then its gradient on the result, with the same cos/sin: the
 * intermediate is handed from one in-place node to the next, and the composition is the
 * reference's composition. */
void chain_forward_then_gradient(void **) {
    std::vector<int64_t> xs = {1, 3, 2, 32}, cs = {1, 3, 1, 32};
    ge::Tensor x = FloatTensor(xs, ge::DT_FLOAT, gt::Pattern(192, 8));
    ge::Tensor cos = FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(96, 9));
    ge::Tensor sin = FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(96, 10));
    ge::Graph graph("chain");
    ge::op::Data dx = MakeData("x", 0), dc = MakeData("cos", 1), ds = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul fwd("forward");
    fwd.set_input_x(dx).set_input_cos(dc).set_input_sin(ds);
    fwd.set_attr_rotary_mode(1).set_attr_partial_slice({0, 32});
    ge::op::InplacePartialRotaryMulGrad bwd("backward");
    bwd.set_input_dy(fwd).set_input_cos(dc).set_input_sin(ds);
    bwd.set_attr_rotary_mode(1).set_attr_partial_slice({0, 32});
    graph.SetInputs({dx, dc, ds}).SetOutputs({bwd});
    std::vector<ge::Tensor> outputs;
    assert_int_equal(gt::RunOnce(graph, {x, cos, sin}, outputs), 0);
    std::vector<uint8_t> mid = NativePartialRotary(x, cos, sin, 1, 0, 32, ROPEKIT_FORWARD);
    ge::Tensor mid_t(Desc(xs, ge::DT_FLOAT), mid);
    std::vector<uint8_t> want = NativePartialRotary(mid_t, cos, sin, 1, 0, 32, ROPEKIT_BACKWARD);
    assert_memory_equal(want.data(), outputs[0].GetData(), want.size());
}

/* One Data read by two in-place nodes (and returned itself): each node rotates its own
 * copy, and the Data output is a copy of the feed. */
void fan_out_and_data_output(void **) {
    std::vector<int64_t> xs = {1, 2, 1, 16}, cs = {1, 2, 1, 16};
    ge::Tensor x = FloatTensor(xs, ge::DT_FLOAT, gt::Pattern(32, 11));
    ge::Tensor cos = FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(32, 12));
    ge::Tensor sin = FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(32, 13));
    ge::Graph graph("fan");
    ge::op::Data dx = MakeData("x", 0), dc = MakeData("cos", 1), ds = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul a("a"), b("b");
    a.set_input_x(dx).set_input_cos(dc).set_input_sin(ds).set_attr_rotary_mode(1);
    a.set_attr_partial_slice({0, 16});
    b.set_input_x(dx).set_input_cos(ds).set_input_sin(dc).set_attr_rotary_mode(1);
    b.set_attr_partial_slice({0, 16});
    graph.SetInputs({dx, dc, ds}).SetOutputs({a, b, dx});
    std::vector<ge::Tensor> outputs;
    assert_int_equal(gt::RunOnce(graph, {x, cos, sin}, outputs), 0);
    assert_int_equal(outputs.size(), 3);
    std::vector<uint8_t> want_a = NativePartialRotary(x, cos, sin, 1, 0, 16, ROPEKIT_FORWARD);
    std::vector<uint8_t> want_b = NativePartialRotary(x, sin, cos, 1, 0, 16, ROPEKIT_FORWARD);
    assert_memory_equal(want_a.data(), outputs[0].GetData(), want_a.size());
    assert_memory_equal(want_b.data(), outputs[1].GetData(), want_b.size());
    assert_true(SameBytes(outputs[2], x));
    assert_true(outputs[2].GetData() != x.GetData());
}

/* A Const input instead of a Data input. */
void const_cos_sin(void **) {
    std::vector<int64_t> xs = {1, 1, 2, 8}, cs = {1, 1, 1, 8};
    ge::Tensor x = FloatTensor(xs, ge::DT_FLOAT, gt::Pattern(16, 14));
    ge::Tensor cos = FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(8, 15));
    ge::Tensor sin = FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(8, 16));
    ge::Graph graph("const");
    ge::op::Data dx = MakeData("x", 0);
    ge::op::Const dc("cos"), ds("sin");
    dc.set_attr_value(cos);
    ds.set_attr_value(sin);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(dx).set_input_cos(dc).set_input_sin(ds).set_attr_rotary_mode(1);
    op.set_attr_partial_slice({0, 8});
    graph.SetInputs({dx}).SetOutputs({op});
    ge::Session session(kNoOptions);
    assert_int_equal(session.AddGraph(3, graph), 0);
    /* changing the constant's tensor after AddGraph does not change the stored graph */
    std::memset(cos.GetData(), 0, cos.GetSize());
    std::vector<ge::Tensor> outputs;
    assert_int_equal(session.RunGraph(3, {x}, outputs), 0);
    ge::Tensor cos0 = FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(8, 15));
    std::vector<uint8_t> want = NativePartialRotary(x, cos0, sin, 1, 0, 8, ROPEKIT_FORWARD);
    assert_memory_equal(want.data(), outputs[0].GetData(), want.size());
}

/* One stored graph run again and again with new feeds of new shapes (its Data nodes have
 * no declared description), and a second graph in the same session; outputs outlive the
 * session and GEFinalize. */
void repeated_runs_new_shapes_and_graphs(void **) {
    ge::Graph graph("dynamic");
    ge::op::Data dx = MakeData("x", 0), dc = MakeData("cos", 1), ds = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(dx).set_input_cos(dc).set_input_sin(ds).set_attr_rotary_mode(1);
    op.set_attr_partial_slice({0, 16});
    graph.SetInputs({dx, dc, ds}).SetOutputs({op});
    ge::Graph second("second");
    ge::op::Data ex = MakeData("x", 0);
    second.SetInputs({ex}).SetOutputs({ex});

    std::vector<ge::Tensor> kept;
    {
        ge::Session session(kNoOptions);
        assert_int_equal(session.AddGraph(0, graph), 0);
        assert_int_equal(session.AddGraph(1, second), 0);
        for (int round = 0; round < 6; ++round) {
            int64_t s = 1 + round % 3, n = 1 + round % 2;
            std::vector<int64_t> xs = {2, s, n, 32}, cs = {2, s, 1, 16};
            ge::Tensor x =
                FloatTensor(xs, ge::DT_FLOAT, gt::Pattern(static_cast<size_t>(64 * s * n), round));
            ge::Tensor cos =
                FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(static_cast<size_t>(32 * s), round + 1));
            ge::Tensor sin =
                FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(static_cast<size_t>(32 * s), round + 2));
            std::vector<ge::Tensor> outputs;
            assert_int_equal(session.RunGraph(0, {x, cos, sin}, outputs), 0);
            std::vector<uint8_t> want = NativePartialRotary(x, cos, sin, 1, 0, 16, ROPEKIT_FORWARD);
            assert_memory_equal(want.data(), outputs[0].GetData(), want.size());
            std::vector<ge::Tensor> echoed;
            assert_int_equal(session.RunGraph(1, {x}, echoed), 0);
            assert_true(SameBytes(echoed[0], x));
            kept.push_back(outputs[0]);
        }
        assert_int_equal(session.RemoveGraph(1), 0);
        std::vector<ge::Tensor> none;
        assert_int_not_equal(session.RunGraph(1, {kept[0]}, none), 0);
        gt::ExpectMentions(gt::TakeError(), {"RunGraph", "no graph with id 1"});
    }
    assert_int_equal(ge::GEFinalize(), 0);
    assert_int_equal(kept.size(), 6);
    assert_true(kept[5].GetSize() > 0 && kept[5].GetData() != nullptr);
    std::map<ge::AscendString, ge::AscendString> options;
    assert_int_equal(ge::GEInitialize(options), 0);
}

/* Large outputs (pooled buffers, reused once released): a loop that drops each run's
 * outputs gets right results every time, and outputs it keeps are never reused. */
void large_outputs_reused_across_runs(void **) {
    ge::Graph graph("large");
    ge::op::Data dx = MakeData("x", 0), dc = MakeData("cos", 1), ds = MakeData("sin", 2);
    ge::op::InplacePartialRotaryMul op("rotate");
    op.set_input_x(dx).set_input_cos(dc).set_input_sin(ds).set_attr_rotary_mode(1);
    op.set_attr_partial_slice({8, 40});
    graph.SetInputs({dx, dc, ds}).SetOutputs({op});
    ge::Session session(kNoOptions);
    assert_int_equal(session.AddGraph(0, graph), 0);
    const std::vector<int64_t> xs = {2, 512, 4, 64}, cs = {2, 512, 1, 32}; /* x: 1 MiB */
    std::vector<ge::Tensor> outputs, kept;
    std::vector<std::vector<uint8_t>> kept_bytes;
    for (int round = 0; round < 6; ++round) {
        ge::Tensor x = FloatTensor(xs, ge::DT_FLOAT, gt::Pattern(2 * 512 * 4 * 64, 10 + round));
        ge::Tensor cos = FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(2 * 512 * 32, 20 + round));
        ge::Tensor sin = FloatTensor(cs, ge::DT_FLOAT, gt::Pattern(2 * 512 * 32, 30 + round));
        assert_int_equal(session.RunGraph(0, {x, cos, sin}, outputs), 0);
        std::vector<uint8_t> want = NativePartialRotary(x, cos, sin, 1, 8, 40, ROPEKIT_FORWARD);
        assert_int_equal(outputs[0].GetSize(), want.size());
        assert_memory_equal(want.data(), outputs[0].GetData(), want.size());
        if (round % 2 == 0) {
            kept.push_back(outputs[0]);
            kept_bytes.push_back(want);
        }
    }
    outputs.clear();
    for (size_t i = 0; i < kept.size(); ++i)
        assert_memory_equal(kept_bytes[i].data(), kept[i].GetData(), kept_bytes[i].size());
}

/* Two sessions hold graphs under the same id independently. */
void two_sessions_same_id(void **) {
    ge::Graph g1("one"), g2("two");
    ge::op::Data a = MakeData("a", 0), b = MakeData("b", 0);
    g1.SetOutputs({a});
    g2.SetOutputs({b});
    ge::Session s1(kNoOptions), s2(kNoOptions);
    assert_int_equal(s1.AddGraph(7, g1), 0);
    assert_int_equal(s2.AddGraph(7, g2), 0);
    assert_int_not_equal(s1.GetSessionId(), s2.GetSessionId());
    ge::Tensor t = FloatTensor({3}, ge::DT_FLOAT, {1, 2, 3});
    std::vector<ge::Tensor> o1, o2;
    assert_int_equal(s1.RunGraph(7, {t}, o1), 0);
    assert_int_equal(s2.RunGraph(7, {t}, o2), 0);
    assert_true(SameBytes(o1[0], t) && SameBytes(o2[0], t));
}

} // namespace

int main(void) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pr_forward_bf16_slice_with_fp32_cos),
        cmocka_unit_test(pr_forward_fp32_whole_head),
        cmocka_unit_test(pr_forward_fp16_broadcast_b11d),
        cmocka_unit_test(pr_grad_fp16),
        cmocka_unit_test(pr_grad_bf16_slice),
        cmocka_unit_test(pr_default_slice_is_identity),
        cmocka_unit_test(rope_neox_fp32),
        cmocka_unit_test(rope_gptj_bf16_partial_rotary_dim),
        cmocka_unit_test(rope_neox_fp16),
        cmocka_unit_test(mrope_sections_fp16),
        cmocka_unit_test(mrope_v2_interleaved_cache_mode),
        cmocka_unit_test(chain_forward_then_gradient),
        cmocka_unit_test(fan_out_and_data_output),
        cmocka_unit_test(const_cos_sin),
        cmocka_unit_test(repeated_runs_new_shapes_and_graphs),
        cmocka_unit_test(large_outputs_reused_across_runs),
        cmocka_unit_test(two_sessions_same_id),
    };
    return cmocka_run_group_tests(tests, gt::InitializeGe, gt::FinalizeGe);
}
