/* Two operators chained in one GE graph: InplacePartialRotaryMul, then
 * InplacePartialRotaryMulGrad on its output, with the same cos and sin (fp32).
 *
 * The gradient of a rotation is its transpose, the rotation back: for real angles
 * cos^2 + sin^2 = 1, so the second node returns x up to rounding. The graph names both
 * nodes as outputs: the rotated x (checked against a float64 reference of the forward
 * rotation) and the round trip (checked against the float64 gradient of that rotated x,
 * and within a few fp32 roundings of x itself). The intermediate feeds an in-place node
 * and is also a graph output, so the runtime gives the second node a copy of it.
 * (RopeWithSinCosCache's outputs are 2-D [T, H*D] and InplacePartialRotaryMul wants 4-D x;
 * without a Reshape operator those two do not chain.) Exits non-zero on a mismatch. */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <vector>

#include "ge_api.h"
#include "graph.h"
#include "ops_proto_posembedding.h"
#include "tensor.h"
#include "types.h"

using namespace ge;

namespace {
const int64_t S = 6, N = 2, D = 16;

Tensor FloatTensor(const std::vector<int64_t> &shape, const std::vector<float> &values) {
    return Tensor(TensorDesc(Shape(shape), FORMAT_ND, DT_FLOAT),
                  reinterpret_cast<const uint8_t *>(values.data()), values.size() * sizeof(float));
}

// One interleaved pair (p, p + 1) of a row, forward or backward, in float64.
void Rotate(bool backward, const double v[2], const float *c, const float *s, int64_t p,
            double out[2], double mag[2]) {
    double a = c[p] * v[0], b = (backward ? s[p + 1] : s[p]) * v[1];
    double e = c[p + 1] * v[1], f = (backward ? s[p] : s[p + 1]) * v[0];
    out[0] = backward ? a + b : a - b;
    out[1] = backward ? e - f : e + f;
    mag[0] = std::fabs(a) + std::fabs(b);
    mag[1] = std::fabs(e) + std::fabs(f);
}

// Mismatches of `got` against the rotation of `in` (fp32 bound of SPEC 6).
int64_t Check(const char *name, bool backward, const float *in, const float *got,
              const std::vector<float> &cos, const std::vector<float> &sin) {
    int64_t bad = 0;
    for (int64_t s = 0; s < S; s++)
        for (int64_t n = 0; n < N; n++)
            for (int64_t p = 0; p < D; p += 2) {
                const int64_t at = (s * N + n) * D + p;
                const double v[2] = {in[at], in[at + 1]};
                double want[2], mag[2];
                Rotate(backward, v, &cos[s * D], &sin[s * D], p, want, mag);
                for (int k = 0; k < 2; k++)
                    if (!(std::fabs(got[at + k] - want[k]) <=
                          1e-5 * mag[k] + std::ldexp(1.0, -149)) &&
                        bad++ < 5)
                        std::printf("%s mismatch at %lld: got %.9g, want %.9g\n", name,
                                    static_cast<long long>(at + k), got[at + k], want[k]);
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
    std::map<AscendString, AscendString> options;
    Status ret = GEInitialize(options);
    if (ret != 0)
        return Fail("GEInitialize", ret);

    std::vector<float> x(S * N * D), cos(S * D), sin(S * D);
    for (size_t i = 0; i < x.size(); i++)
        x[i] = static_cast<float>((i * 41) % 79) / 39.5f - 1.0f;
    for (int64_t s = 0; s < S; s++) // position s, frequency of pair j / 2
        for (int64_t j = 0; j < D; j++) {
            const double angle = s * std::pow(10000.0, -2.0 * (j / 2) / D);
            cos[s * D + j] = static_cast<float>(std::cos(angle));
            sin[s * D + j] = static_cast<float>(std::sin(angle));
        }
    const std::vector<int64_t> xShape = {1, S, N, D}, csShape = {1, S, 1, D};
    std::vector<Tensor> inputs = {FloatTensor(xShape, x), FloatTensor(csShape, cos),
                                  FloatTensor(csShape, sin)};

    // x, cos, sin -> forward -> gradient; both nodes are graph outputs.
    Graph graph("round_trip");
    auto xData = op::Data("x").set_attr_index(0);
    auto cosData = op::Data("cos").set_attr_index(1);
    auto sinData = op::Data("sin").set_attr_index(2);
    auto forward = op::InplacePartialRotaryMul("forward");
    forward.set_input_x(xData).set_input_cos(cosData).set_input_sin(sinData);
    forward.set_attr_rotary_mode(1).set_attr_partial_slice({0, D});
    auto backward = op::InplacePartialRotaryMulGrad("backward");
    backward.set_input_dy(forward).set_input_cos(cosData).set_input_sin(sinData);
    backward.set_attr_rotary_mode(1).set_attr_partial_slice({0, D});
    graph.SetInputs({xData, cosData, sinData}).SetOutputs({forward, backward});

    std::map<AscendString, AscendString> noOptions;
    Session session(noOptions);
    std::vector<Tensor> outputs;
    if ((ret = session.AddGraph(0, graph)) != 0)
        return Fail("AddGraph", ret);
    if ((ret = session.RunGraph(0, inputs, outputs)) != 0)
        return Fail("RunGraph", ret);

    const float *rotated = reinterpret_cast<const float *>(outputs.at(0).GetData());
    const float *back = reinterpret_cast<const float *>(outputs.at(1).GetData());
    int64_t bad = Check("forward", false, x.data(), rotated, cos, sin) +
                  Check("backward", true, rotated, back, cos, sin);
    double worst = 0.0;
    for (size_t i = 0; i < x.size(); i++)
        worst = std::fmax(worst, std::fabs(back[i] - x[i]));
    if (!(worst <= 1e-6)) {
        std::printf("the round trip moved x by %.3g\n", worst);
        bad++;
    }
    std::printf("x[0, 5, 1, 0:2] = %.6f %.6f -> rotated %.6f %.6f -> back %.6f %.6f (max |back - "
                "x| = %.2g)\n",
                x[(5 * N + 1) * D], x[(5 * N + 1) * D + 1], rotated[(5 * N + 1) * D],
                rotated[(5 * N + 1) * D + 1], back[(5 * N + 1) * D], back[(5 * N + 1) * D + 1],
                worst);
    GEFinalize();
    std::printf("%s: %lld mismatches\n", bad == 0 ? "ok" : "FAILED", static_cast<long long>(bad));
    return bad == 0 ? 0 : 1;
}
