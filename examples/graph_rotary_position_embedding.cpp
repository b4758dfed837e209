/* RotaryPositionEmbedding and then RotaryPositionEmbeddingGrad in one GE graph (fp16).
 *
 * x [B=2, S=8, N=4, D=64] in fp16 is rotated out of place in mode 0 (half: channel j pairs
 * with j + 32) by cos and sin [1, 8, 1, 64] built from the angles s * 10000^(-2j/64); the
 * gradient node takes that output y as its dy (its optional x input left unconnected, so it
 * computes dx only) and rotates it back. With cos^2 + sin^2 = 1 the round trip returns x
 * up to fp16 rounding. The graph's outputs are y (output 0 of the first node) and dx
 * (output 0 of the second); y is checked against a float64 reference of the forward
 * rotation, dx against the float64 backward rotation of y (both within the fp16 bound of
 * SPEC section 6), and dx against x itself within a few fp16 roundings. Exits non-zero
 * otherwise. */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <utility>
#include <vector>

#include "ge_api.h"
#include "graph.h"
#include "ops_proto_posembedding.h"
#include "ropekit/ropekit.h"
#include "tensor.h"
#include "types.h"

using namespace ge;

namespace {
const int64_t B = 2, S = 8, N = 4, D = 64, H = D / 2;

Tensor HalfTensor(const std::vector<int64_t> &shape, const std::vector<uint16_t> &values) {
    return Tensor(TensorDesc(Shape(shape), FORMAT_ND, DT_FLOAT16),
                  reinterpret_cast<const uint8_t *>(values.data()), values.size() * 2);
}

// Mismatches of `got` against the half-mode rotation of `in` in float64 (fp16 bound):
// forward u[j] = v[j]c[j] - v[j+h]s[j], u[j+h] = v[j+h]c[j+h] + v[j]s[j+h]; backward
// w[j] = c[j]g[j] + s[j+h]g[j+h], w[j+h] = c[j+h]g[j+h] - s[j]g[j].
int64_t Check(const char *name, bool backward, const uint16_t *in, const uint16_t *got,
              const std::vector<uint16_t> &cos, const std::vector<uint16_t> &sin) {
    int64_t bad = 0;
    for (int64_t row = 0; row < B * S * N; row++) {
        const int64_t s = row / N % S;
        for (int64_t j = 0; j < D; j++) {
            const int64_t at = row * D + j, mate = j < H ? j + H : j - H;
            const double v = ropekit_f16_to_f32(in[at]), m = ropekit_f16_to_f32(in[row * D + mate]);
            const double c = ropekit_f16_to_f32(cos[s * D + j]);
            const double sn = ropekit_f16_to_f32(sin[s * D + (backward ? mate : j)]);
            const double t1 = v * c, t2 = m * sn;
            const bool minus = (j < H) != backward;
            const double want = minus ? t1 - t2 : t1 + t2;
            const double value = ropekit_f16_to_f32(got[at]);
            if (!(std::fabs(value - want) <=
                  1e-3 * (std::fabs(t1) + std::fabs(t2)) + std::ldexp(1.0, -24)) &&
                bad++ < 5)
                std::printf("%s mismatch at %lld: got %.6g, want %.6g\n", name,
                            static_cast<long long>(at), value, want);
        }
    }
    return bad;
}

int Fail(const char *what, Status status) {
    std::printf("%s failed (%u): %s\n", what, static_cast<unsigned>(status),
                GEGetErrorMsgV2().GetString());
    return 1;
}
} // namespace

int main() {
    std::map<AscendString, AscendString> options = {{"ge.exec.deviceId", "0"}};
    Status ret = GEInitialize(options);
    if (ret != 0)
        return Fail("GEInitialize", ret);

    std::vector<uint16_t> x(B * S * N * D), cos(S * D), sin(S * D);
    for (size_t i = 0; i < x.size(); i++)
        x[i] = ropekit_f32_to_f16(static_cast<float>((i * 53) % 97) / 24.25f - 2.0f);
    for (int64_t s = 0; s < S; s++)
        for (int64_t j = 0; j < D; j++) {
            const double angle = s * std::pow(10000.0, -2.0 * (j % H) / D);
            cos[s * D + j] = ropekit_f32_to_f16(static_cast<float>(std::cos(angle)));
            sin[s * D + j] = ropekit_f32_to_f16(static_cast<float>(std::sin(angle)));
        }
    const std::vector<int64_t> xShape = {B, S, N, D}, csShape = {1, S, 1, D};
    std::vector<Tensor> inputs = {HalfTensor(xShape, x), HalfTensor(csShape, cos),
                                  HalfTensor(csShape, sin)};

    // x, cos, sin -> RotaryPositionEmbedding -> RotaryPositionEmbeddingGrad (dy = y).
    Graph graph("rotary_round_trip");
    auto xData = op::Data("x").set_attr_index(0);
    auto cosData = op::Data("cos").set_attr_index(1);
    auto sinData = op::Data("sin").set_attr_index(2);
    auto forward = op::RotaryPositionEmbedding("forward");
    forward.set_input_x(xData).set_input_cos(cosData).set_input_sin(sinData).set_attr_mode(0);
    auto backward = op::RotaryPositionEmbeddingGrad("backward");
    backward.set_input_dy(forward).set_input_cos(cosData).set_input_sin(sinData).set_attr_mode(0);
    graph.SetInputs({xData, cosData, sinData})
        .SetOutputs(
            std::vector<std::pair<Operator, std::vector<size_t>>>{{forward, {0}}, {backward, {0}}});

    std::map<AscendString, AscendString> noOptions;
    Session session(noOptions);
    std::vector<Tensor> outputs;
    if ((ret = session.AddGraph(0, graph)) != 0)
        return Fail("AddGraph", ret);
    if ((ret = session.RunGraph(0, inputs, outputs)) != 0)
        return Fail("RunGraph", ret);

    const uint16_t *y = reinterpret_cast<const uint16_t *>(outputs.at(0).GetData());
    const uint16_t *dx = reinterpret_cast<const uint16_t *>(outputs.at(1).GetData());
    int64_t bad =
        Check("forward", false, x.data(), y, cos, sin) + Check("backward", true, y, dx, cos, sin);
    // The round trip: each of the three roundings (the tables, y, dx) is at most 2^-11 of
    // the pair's magnitude |x[j]| + |x[j+-h]|.
    double worst = 0.0;
    for (size_t i = 0; i < x.size(); i++) {
        const size_t j = i % D, mate = j < H ? i + H : i - H;
        const double a = ropekit_f16_to_f32(x[i]), back = ropekit_f16_to_f32(dx[i]);
        const double pair = std::fabs(a) + std::fabs(ropekit_f16_to_f32(x[mate]));
        worst = std::fmax(worst, std::fabs(back - a));
        if (!(std::fabs(back - a) <= 4e-3 * pair) && bad++ < 5)
            std::printf("the round trip moved x[%zu] from %.6g to %.6g\n", i, a, back);
    }
    const int64_t at = ((1 * S + 7) * N + 3) * D; // x[1, 7, 3, :]
    std::printf("x[1, 7, 3, 0:2] = %.4f %.4f -> y %.4f %.4f -> dx %.4f %.4f (max |dx - x| = "
                "%.2g)\n",
                ropekit_f16_to_f32(x[at]), ropekit_f16_to_f32(x[at + 1]), ropekit_f16_to_f32(y[at]),
                ropekit_f16_to_f32(y[at + 1]), ropekit_f16_to_f32(dx[at]),
                ropekit_f16_to_f32(dx[at + 1]), worst);
    GEFinalize();
    std::printf("%s: %lld mismatches\n", bad == 0 ? "ok" : "FAILED", static_cast<long long>(bad));
    return bad == 0 ? 0 : 1;
}
