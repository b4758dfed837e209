/* RotaryPositionEmbedding(+Grad), InterleaveRope and ApplyRotaryPosEmb in graphs: results against
 * the float64 reference and bit for bit against the native API on the same inputs, the
 * caller's inputs unchanged, CANN's rules refused at RunGraph with the aclnn message, and
 * attribute kinds checked at AddGraph. */
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>

#include "ge_test_support.h"
#include "ropekit/ropekit.h"

namespace {

using gt::Desc;
using gt::FloatTensor;
using gt::MakeData;

const std::map<ge::AscendString, ge::AscendString> kNoOptions;

int64_t Numel(const std::vector<int64_t> &shape) {
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

ropekit_tensor NativeView(const ge::Tensor &t, const void *data) {
    std::vector<int64_t> dims = t.GetTensorDesc().GetShape().GetDims();
    return ropekit_tensor_make(const_cast<void *>(data),
                               static_cast<ropekit_dtype>(t.GetDataType()),
                               static_cast<int32_t>(dims.size()), dims.data(), nullptr);
}

bool SameBytes(const ge::Tensor &a, const ge::Tensor &b) {
    return a.GetSize() == b.GetSize() && std::memcmp(a.GetData(), b.GetData(), a.GetSize()) == 0;
}

ge::Status Run(const ge::Graph &graph, const std::vector<ge::Tensor> &in,
               std::vector<ge::Tensor> &out) {
    ge::Status st = gt::RunOnce(graph, in, out);
    if (st != 0)
        std::fprintf(stderr, "%s\n", gt::TakeError().c_str());
    return st;
}

/* ---- RotaryPositionEmbedding and InterleaveRope: y = x rotated over [0, D) ---- */

struct OutCase {
    const char *type;
    std::vector<int64_t> x_shape, cs_shape;
    ge::DataType dt;
    int mode; /* InterleaveRope: 3 */
};

ge::Graph OutGraph(const OutCase &c) {
    ge::Graph graph("rotary_out");
    ge::op::Data x = MakeData("x", 0, Desc(c.x_shape, c.dt));
    ge::op::Data cos = MakeData("cos", 1, Desc(c.cs_shape, c.dt));
    ge::op::Data sin = MakeData("sin", 2, Desc(c.cs_shape, c.dt));
    ge::Operator op("rotate", c.type);
    op.SetInput("x", x).SetInput("cos", cos).SetInput("sin", sin);
    if (std::strcmp(c.type, "RotaryPositionEmbedding") == 0)
        op.SetAttr("mode", static_cast<int64_t>(c.mode));
    graph.SetInputs({x, cos, sin}).SetOutputs({op});
    return graph;
}

std::vector<ge::Tensor> OutFeeds(const OutCase &c) {
    const size_t xn = static_cast<size_t>(Numel(c.x_shape));
    const size_t cn = static_cast<size_t>(Numel(c.cs_shape));
    return {FloatTensor(c.x_shape, c.dt, gt::Pattern(xn, 1)),
            FloatTensor(c.cs_shape, c.dt, gt::Pattern(cn, 2)),
            FloatTensor(c.cs_shape, c.dt, gt::Pattern(cn, 3))};
}

void CheckOut(const OutCase &c) {
    std::vector<ge::Tensor> in = OutFeeds(c);
    ge::Tensor x_before = in[0].Clone();
    std::vector<ge::Tensor> out;
    assert_int_equal(Run(OutGraph(c), in, out), 0);
    assert_int_equal(out.size(), 1);
    assert_true(SameBytes(in[0], x_before));
    assert_true(out[0].GetTensorDesc().GetShape().GetDims() == c.x_shape);
    assert_int_equal(out[0].GetDataType(), c.dt);
    const int64_t d = c.x_shape.back();
    std::vector<double> mag;
    std::vector<double> want =
        gt::PartialRotaryReference(gt::Values(in[0]), c.x_shape, gt::Values(in[1]),
                                   gt::Values(in[2]), c.cs_shape, 0, d, c.mode, 0, &mag);
    assert_true(gt::ErrorRatio(gt::Values(out[0]), want, mag, c.dt) <= 1.0);
    std::vector<uint8_t> native(in[0].GetSize());
    ropekit_tensor tx = NativeView(in[0], in[0].GetData()), tc = NativeView(in[1], in[1].GetData()),
                   ts = NativeView(in[2], in[2].GetData()), ty = NativeView(in[0], native.data());
    assert_int_equal(ropekit_partial_rotary_out(&tx, &tc, &ts, &ty,
                                                static_cast<ropekit_rotary_mode>(c.mode), 0, d,
                                                ROPEKIT_FORWARD),
                     ROPEKIT_OK);
    assert_memory_equal(native.data(), out[0].GetData(), native.size());
}

void rpe_every_mode_and_dtype(void **) {
    const ge::DataType dts[] = {ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
    for (int mode = 0; mode < 4; mode++)
        for (ge::DataType dt : dts) {
            CheckOut({"RotaryPositionEmbedding", {2, 3, 4, 64}, {1, 3, 1, 64}, dt, mode});
            CheckOut({"RotaryPositionEmbedding", {1, 4, 2, 32}, {1, 4, 2, 32}, dt, mode});
        }
}

void interleave_rope_f16_bf16(void **) {
    CheckOut({"InterleaveRope", {2, 4, 3, 64}, {2, 1, 3, 64}, ge::DT_FLOAT16, 3});
    CheckOut({"InterleaveRope", {1, 8, 5, 64}, {1, 1, 1, 64}, ge::DT_BF16, 3});
}

/* CANN's rules at RunGraph: InterleaveRope takes D = 64 only, RotaryPositionEmbedding a
 * mode in 0-3. */
void refused_with_the_aclnn_message(void **) {
    OutCase bad_d = {"InterleaveRope", {1, 2, 3, 32}, {1, 1, 3, 32}, ge::DT_FLOAT16, 3};
    std::vector<ge::Tensor> out;
    assert_int_not_equal(gt::RunOnce(OutGraph(bad_d), OutFeeds(bad_d), out), 0);
    gt::ExpectMentions(gt::TakeError(), {"rotate", "aclnnInterleaveRope", "561002"});
    assert_true(out.empty());
    OutCase bad_mode = {"RotaryPositionEmbedding", {1, 2, 2, 8}, {1, 2, 1, 8}, ge::DT_FLOAT, 4};
    assert_int_not_equal(gt::RunOnce(OutGraph(bad_mode), OutFeeds(bad_mode), out), 0);
    gt::ExpectMentions(gt::TakeError(), {"rotate", "aclnnRotaryPositionEmbedding", "mode"});
    assert_true(out.empty());
}

void attr_kinds_at_add_graph(void **) {
    OutCase c = {"RotaryPositionEmbedding", {1, 2, 2, 8}, {1, 2, 1, 8}, ge::DT_FLOAT, 0};
    ge::Graph graph = OutGraph(c);
    ge::Operator op;
    assert_int_equal(graph.FindOpByName("rotate", op), 0);
    op.SetAttr("mode", "half");
    ge::Session session(kNoOptions);
    assert_int_not_equal(session.AddGraph(0, graph), 0);
    gt::ExpectMentions(gt::TakeError(), {"rotate", "mode"});
}

/* ---- RotaryPositionEmbeddingGrad: dx, and dcos/dsin when x is connected ---- */

struct GradCase {
    std::vector<int64_t> dy_shape, cs_shape;
    ge::DataType dt;
    int mode;
    bool with_x;
};

ge::Graph GradGraph(const GradCase &c) {
    ge::Graph graph("rotary_grad");
    ge::op::Data dy = MakeData("dy", 0, Desc(c.dy_shape, c.dt));
    ge::op::Data cos = MakeData("cos", 1, Desc(c.cs_shape, c.dt));
    ge::op::Data sin = MakeData("sin", 2, Desc(c.cs_shape, c.dt));
    ge::op::Data x = MakeData("x", 3, Desc(c.dy_shape, c.dt));
    ge::Operator op("grad", "RotaryPositionEmbeddingGrad");
    op.SetInput("dy", dy).SetInput("cos", cos).SetInput("sin", sin);
    op.SetAttr("mode", static_cast<int64_t>(c.mode));
    std::vector<ge::Operator> inputs = {dy, cos, sin};
    if (c.with_x) {
        op.SetInput("x", x);
        inputs.push_back(x);
    }
    graph.SetInputs(inputs).SetOutputs(
        std::vector<std::pair<ge::Operator, std::string>>{{op, "dx"}, {op, "dcos"}, {op, "dsin"}});
    return graph;
}

void CheckGrad(const GradCase &c) {
    const size_t yn = static_cast<size_t>(Numel(c.dy_shape));
    const size_t cn = static_cast<size_t>(Numel(c.cs_shape));
    std::vector<ge::Tensor> in = {FloatTensor(c.dy_shape, c.dt, gt::Pattern(yn, 1)),
                                  FloatTensor(c.cs_shape, c.dt, gt::Pattern(cn, 2)),
                                  FloatTensor(c.cs_shape, c.dt, gt::Pattern(cn, 3))};
    if (c.with_x)
        in.push_back(FloatTensor(c.dy_shape, c.dt, gt::Pattern(yn, 4)));
    std::vector<ge::Tensor> out;
    assert_int_equal(Run(GradGraph(c), in, out), 0);
    assert_int_equal(out.size(), 3);
    assert_true(out[0].GetTensorDesc().GetShape().GetDims() == c.dy_shape);
    assert_true(out[1].GetTensorDesc().GetShape().GetDims() == c.cs_shape);
    assert_true(out[2].GetTensorDesc().GetShape().GetDims() == c.cs_shape);
    const int64_t d = c.dy_shape.back();
    std::vector<double> mag;
    std::vector<double> want =
        gt::PartialRotaryReference(gt::Values(in[0]), c.dy_shape, gt::Values(in[1]),
                                   gt::Values(in[2]), c.cs_shape, 0, d, c.mode, 1, &mag);
    assert_true(gt::ErrorRatio(gt::Values(out[0]), want, mag, c.dt) <= 1.0);
    std::vector<uint8_t> dx(in[0].GetSize()), dcos(in[1].GetSize()), dsin(in[2].GetSize());
    ropekit_tensor tdy = NativeView(in[0], in[0].GetData()),
                   tc = NativeView(in[1], in[1].GetData()), ts = NativeView(in[2], in[2].GetData()),
                   tdx = NativeView(in[0], dx.data()), tdc = NativeView(in[1], dcos.data()),
                   tds = NativeView(in[2], dsin.data());
    ropekit_tensor tx = c.with_x ? NativeView(in[3], in[3].GetData()) : ropekit_tensor{};
    assert_int_equal(ropekit_partial_rotary_grad(
                         &tdy, &tc, &ts, c.with_x ? &tx : nullptr, &tdx, c.with_x ? &tdc : nullptr,
                         c.with_x ? &tds : nullptr, static_cast<ropekit_rotary_mode>(c.mode), 0, d),
                     ROPEKIT_OK);
    assert_memory_equal(dx.data(), out[0].GetData(), dx.size());
    if (c.with_x) {
        assert_memory_equal(dcos.data(), out[1].GetData(), dcos.size());
        assert_memory_equal(dsin.data(), out[2].GetData(), dsin.size());
        return;
    }
    const std::vector<uint8_t> zeros(in[1].GetSize(), 0);
    assert_memory_equal(zeros.data(), out[1].GetData(), zeros.size());
    assert_memory_equal(zeros.data(), out[2].GetData(), zeros.size());
}

void grad_every_mode_with_and_without_x(void **) {
    const ge::DataType dts[] = {ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
    for (int mode = 0; mode < 4; mode++)
        for (ge::DataType dt : dts)
            for (bool with_x : {true, false}) {
                CheckGrad({{2, 3, 4, 64}, {1, 3, 1, 64}, dt, mode, with_x});
                CheckGrad({{1, 4, 2, 32}, {1, 4, 2, 32}, dt, mode, with_x});
            }
}

/* The reference checks the sums of dcos/dsin: x = dy rotated forward gives, summed over the
 * broadcast dims, the float64 sums computed here. */
void grad_sums_against_float64(void **) {
    const std::vector<int64_t> y_shape = {2, 3, 2, 8}, cs_shape = {1, 3, 1, 8};
    GradCase c = {y_shape, cs_shape, ge::DT_FLOAT, 0, true};
    const size_t yn = static_cast<size_t>(Numel(y_shape)),
                 cn = static_cast<size_t>(Numel(cs_shape));
    std::vector<ge::Tensor> in = {FloatTensor(y_shape, c.dt, gt::Pattern(yn, 1)),
                                  FloatTensor(cs_shape, c.dt, gt::Pattern(cn, 2)),
                                  FloatTensor(cs_shape, c.dt, gt::Pattern(cn, 3)),
                                  FloatTensor(y_shape, c.dt, gt::Pattern(yn, 4))};
    std::vector<ge::Tensor> out;
    assert_int_equal(Run(GradGraph(c), in, out), 0);
    std::vector<double> dy = gt::Values(in[0]), x = gt::Values(in[3]);
    std::vector<double> want_cos(cn, 0.0), want_sin(cn, 0.0);
    const int64_t d = 8, h = d / 2;
    for (int64_t b = 0; b < 2; b++)
        for (int64_t s = 0; s < 3; s++)
            for (int64_t n = 0; n < 2; n++)
                for (int64_t i = 0; i < d; i++) {
                    const size_t at = static_cast<size_t>(((b * 3 + s) * 2 + n) * d);
                    /* half mode: y = x*cos + rotate_half(x)*sin, rotate_half(x)_i =
                     * -x_{i+h} for i < h, x_{i-h} after */
                    const double rot = i < h ? -x[at + static_cast<size_t>(i + h)]
                                             : x[at + static_cast<size_t>(i - h)];
                    const size_t ci = static_cast<size_t>(s * d + i);
                    want_cos[ci] +=
                        dy[at + static_cast<size_t>(i)] * x[at + static_cast<size_t>(i)];
                    want_sin[ci] += dy[at + static_cast<size_t>(i)] * rot;
                }
    std::vector<double> got_cos = gt::Values(out[1]), got_sin = gt::Values(out[2]);
    for (size_t i = 0; i < cn; i++) {
        assert_true(std::fabs(got_cos[i] - want_cos[i]) <= 1e-5 * (1 + std::fabs(want_cos[i])));
        assert_true(std::fabs(got_sin[i] - want_sin[i]) <= 1e-5 * (1 + std::fabs(want_sin[i])));
    }
}

void grad_mode_attr_and_rules(void **) {
    GradCase bad_mode = {{1, 2, 2, 8}, {1, 2, 1, 8}, ge::DT_FLOAT, 4, true};
    std::vector<ge::Tensor> out;
    const size_t yn = 32, cn = 16;
    std::vector<ge::Tensor> in = {FloatTensor(bad_mode.dy_shape, bad_mode.dt, gt::Pattern(yn, 1)),
                                  FloatTensor(bad_mode.cs_shape, bad_mode.dt, gt::Pattern(cn, 2)),
                                  FloatTensor(bad_mode.cs_shape, bad_mode.dt, gt::Pattern(cn, 3)),
                                  FloatTensor(bad_mode.dy_shape, bad_mode.dt, gt::Pattern(yn, 4))};
    assert_int_not_equal(gt::RunOnce(GradGraph(bad_mode), in, out), 0);
    gt::ExpectMentions(gt::TakeError(), {"grad", "aclnnRotaryPositionEmbeddingGrad", "mode"});
    assert_true(out.empty());
    ge::Graph graph = GradGraph({{1, 2, 2, 8}, {1, 2, 1, 8}, ge::DT_FLOAT, 0, true});
    ge::Operator op;
    assert_int_equal(graph.FindOpByName("grad", op), 0);
    op.SetAttr("mode", "half");
    ge::Session session(kNoOptions);
    assert_int_not_equal(session.AddGraph(0, graph), 0);
    gt::ExpectMentions(gt::TakeError(), {"grad", "mode"});
}

/* ---- ApplyRotaryPosEmb: query and key in place ---- */

void apply_rotary_every_mode_and_layout(void **) {
    struct Layout {
        int64_t id;
        std::vector<int64_t> q, k, cs;
    };
    /* q and k [B, S, N, D] (BSND), [S, B, N, D] (SBND), [B, N, S, D] (BNSD) */
    const Layout layouts[] = {
        {1, {2, 3, 4, 128}, {2, 3, 1, 128}, {2, 3, 1, 128}},
        {2, {3, 2, 4, 128}, {3, 2, 2, 128}, {3, 2, 1, 128}},
        {3, {2, 4, 3, 128}, {2, 2, 3, 128}, {2, 1, 3, 128}},
    };
    const char *const modes[] = {"half", "interleave", "quarter"};
    const ge::DataType dts[] = {ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_BF16};
    for (const Layout &l : layouts)
        for (int m = 0; m < 3; m++)
            for (ge::DataType dt : dts) {
                ge::Graph graph("apply");
                ge::op::Data q = MakeData("q", 0, Desc(l.q, dt)),
                             k = MakeData("k", 1, Desc(l.k, dt)),
                             cos = MakeData("cos", 2, Desc(l.cs, dt)),
                             sin = MakeData("sin", 3, Desc(l.cs, dt));
                ge::Operator op("apply", "ApplyRotaryPosEmb");
                op.SetInput("query", q)
                    .SetInput("key", k)
                    .SetInput("cos", cos)
                    .SetInput("sin", sin);
                op.SetAttr("layout", l.id);
                op.SetAttr("rotary_mode", modes[m]);
                graph.SetInputs({q, k, cos, sin})
                    .SetOutputs(std::vector<std::pair<ge::Operator, std::string>>{{op, "query"},
                                                                                  {op, "key"}});
                const size_t cn = static_cast<size_t>(Numel(l.cs));
                std::vector<ge::Tensor> in = {
                    FloatTensor(l.q, dt, gt::Pattern(static_cast<size_t>(Numel(l.q)), 1)),
                    FloatTensor(l.k, dt, gt::Pattern(static_cast<size_t>(Numel(l.k)), 4)),
                    FloatTensor(l.cs, dt, gt::Pattern(cn, 2)),
                    FloatTensor(l.cs, dt, gt::Pattern(cn, 3))};
                ge::Tensor q_before = in[0].Clone(), k_before = in[1].Clone();
                std::vector<ge::Tensor> out;
                assert_int_equal(Run(graph, in, out), 0);
                assert_int_equal(out.size(), 2);
                assert_true(SameBytes(in[0], q_before) && SameBytes(in[1], k_before));
                std::vector<uint8_t> nq(in[0].GetData(), in[0].GetData() + in[0].GetSize());
                std::vector<uint8_t> nk(in[1].GetData(), in[1].GetData() + in[1].GetSize());
                ropekit_tensor tq = NativeView(in[0], nq.data()), tk = NativeView(in[1], nk.data()),
                               tc = NativeView(in[2], in[2].GetData()),
                               ts = NativeView(in[3], in[3].GetData());
                assert_int_equal(ropekit_apply_rotary(&tq, &tk, &tc, &ts,
                                                      static_cast<ropekit_rotary_mode>(m),
                                                      ROPEKIT_FORWARD),
                                 ROPEKIT_OK);
                assert_memory_equal(nq.data(), out[0].GetData(), nq.size());
                assert_memory_equal(nk.data(), out[1].GetData(), nk.size());
                for (int t = 0; t < 2; t++) {
                    const std::vector<int64_t> &shape = t == 0 ? l.q : l.k;
                    std::vector<double> mag;
                    std::vector<double> want = gt::PartialRotaryReference(
                        gt::Values(in[t]), shape, gt::Values(in[2]), gt::Values(in[3]), l.cs, 0,
                        shape.back(), m, 0, &mag);
                    assert_true(gt::ErrorRatio(gt::Values(out[t]), want, mag, dt) <= 1.0);
                }
            }
}

} // namespace

int main() {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rpe_every_mode_and_dtype),
        cmocka_unit_test(interleave_rope_f16_bf16),
        cmocka_unit_test(refused_with_the_aclnn_message),
        cmocka_unit_test(attr_kinds_at_add_graph),
        cmocka_unit_test(apply_rotary_every_mode_and_layout),
        cmocka_unit_test(grad_every_mode_with_and_without_x),
        cmocka_unit_test(grad_sums_against_float64),
        cmocka_unit_test(grad_mode_attr_and_rules),
    };
    return cmocka_run_group_tests(tests, gt::InitializeGe, gt::FinalizeGe);
}
