/* InplacePartialRotaryMulGrad in GE graph mode (fp32).
 *
 * dy [B=2, S=3, N=4, D=32], the gradient of InplacePartialRotaryMul's output, is replaced
 * by the gradient of its input x for the whole head (partial_slice {0, 32}) in interleave
 * mode, with cos/sin [2, 3, 1, 32] (a row per batch and position, broadcast over the
 * heads). The gradient is the transpose of the forward rotation: for the pair (2i, 2i+1)
 *   dx[2i]   = cos[2i]   * dy[2i]   + sin[2i+1] * dy[2i+1]
 *   dx[2i+1] = cos[2i+1] * dy[2i+1] - sin[2i]   * dy[2i]
 * Every element is checked against that in float64 within the fp32 bound of SPEC
 * section 6. Exits non-zero on a mismatch. */
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
const int64_t B = 2, S = 3, N = 4, D = 32;

Tensor FloatTensor(const std::vector<int64_t> &shape, const std::vector<float> &values) {
    return Tensor(TensorDesc(Shape(shape), FORMAT_ND, DT_FLOAT),
                  reinterpret_cast<const uint8_t *>(values.data()), values.size() * sizeof(float));
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

    std::vector<float> dy(B * S * N * D), cos(B * S * D), sin(B * S * D);
    for (size_t i = 0; i < dy.size(); i++)
        dy[i] = static_cast<float>((i * 53) % 97) / 48.5f - 1.0f;
    for (int64_t r = 0; r < B * S; r++) // angle (r + 1) * frequency of pair i
        for (int64_t j = 0; j < D; j++) {
            const double angle = (r + 1) * std::pow(10000.0, -2.0 * (j / 2) / D);
            cos[r * D + j] = static_cast<float>(std::cos(angle));
            sin[r * D + j] = static_cast<float>(std::sin(angle));
        }
    const std::vector<int64_t> dyShape = {B, S, N, D}, csShape = {B, S, 1, D};
    std::vector<Tensor> inputs = {FloatTensor(dyShape, dy), FloatTensor(csShape, cos),
                                  FloatTensor(csShape, sin)};

    Graph graph("partial_rotary_grad");
    auto dyData = op::Data("dy").set_attr_index(0);
    auto cosData = op::Data("cos").set_attr_index(1);
    auto sinData = op::Data("sin").set_attr_index(2);
    auto grad = op::InplacePartialRotaryMulGrad("grad");
    grad.set_input_dy(dyData).set_input_cos(cosData).set_input_sin(sinData);
    grad.set_attr_rotary_mode(1).set_attr_partial_slice({0, D});
    graph.SetInputs({dyData, cosData, sinData}).SetOutputs({grad});

    std::map<AscendString, AscendString> noOptions;
    Session session(noOptions);
    std::vector<Tensor> outputs;
    if ((ret = session.AddGraph(0, graph)) != 0)
        return Fail("AddGraph", ret);
    if ((ret = session.RunGraph(0, inputs, outputs)) != 0)
        return Fail("RunGraph", ret);

    const float *dx = reinterpret_cast<const float *>(outputs.at(0).GetData());
    int64_t bad = 0;
    for (int64_t b = 0; b < B; b++)
        for (int64_t s = 0; s < S; s++)
            for (int64_t n = 0; n < N; n++) {
                const int64_t row = ((b * S + s) * N + n) * D, cs = (b * S + s) * D;
                for (int64_t i = 0; i < D / 2; i++) {
                    const int64_t p = 2 * i, r = p + 1;
                    const double g0 = dy[row + p], g1 = dy[row + r];
                    const double a0 = cos[cs + p] * g0, a1 = sin[cs + r] * g1;
                    const double b0 = cos[cs + r] * g1, b1 = sin[cs + p] * g0;
                    const double want[2] = {a0 + a1, b0 - b1};
                    const double mag[2] = {std::fabs(a0) + std::fabs(a1),
                                           std::fabs(b0) + std::fabs(b1)};
                    for (int k = 0; k < 2; k++) {
                        const double got = dx[row + p + k];
                        const double bound = 1e-5 * mag[k] + std::ldexp(1.0, -149);
                        if (!(std::fabs(got - want[k]) <= bound) && bad++ < 5)
                            std::printf("mismatch at [%lld, %lld, %lld, %lld]: got %.9g, want "
                                        "%.9g\n",
                                        static_cast<long long>(b), static_cast<long long>(s),
                                        static_cast<long long>(n), static_cast<long long>(p + k),
                                        got, want[k]);
                    }
                }
            }
    std::printf("dy[0, 0, 0, 0:4] = %.5f %.5f %.5f %.5f -> dx %.5f %.5f %.5f %.5f\n", dy[0], dy[1],
                dy[2], dy[3], dx[0], dx[1], dx[2], dx[3]);
    GEFinalize();
    std::printf("%s: %lld mismatches\n", bad == 0 ? "ok" : "FAILED", static_cast<long long>(bad));
    return bad == 0 ? 0 : 1;
}
