/* InplacePartialRotaryMul in GE graph mode: bf16 x, fp32 cos/sin, a partial slice.
 *
 * x [B=1, S=4, N=2, D=64] (bf16) is rotated on the slice [16, 48), 32 channels, in
 * interleave mode (rotary_mode 1: channel 16 + 2i pairs with 16 + 2i + 1), with cos and
 * sin [1, 4, 1, 32] in fp32 for positions 0..3 (built by ropekit_rotary_coeffs_build and
 * broadcast over the two heads). The graph is three Data nodes (index 0, 1, 2) feeding one
 * InplacePartialRotaryMul node, whose output x is the graph's output. Channels outside the
 * slice must come back bit for bit, rotated ones within the bf16 bound of SPEC section 6
 * of a float64 reference; the caller's x must be unchanged. Exits non-zero otherwise. */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <vector>

#include "ge_api.h"
#include "graph.h"
#include "ops_proto_posembedding.h"
#include "ropekit/ropekit.h"
#include "tensor.h"
#include "types.h"

using namespace ge;

namespace {
const int64_t B = 1, S = 4, N = 2, D = 64, START = 16, END = 48, L = END - START;

uint16_t FloatToBf16(float value) { // round to nearest even; finite values only
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    bits += 0x7fffu + ((bits >> 16) & 1u);
    return static_cast<uint16_t>(bits >> 16);
}

double Bf16ToDouble(uint16_t value) {
    uint32_t bits = static_cast<uint32_t>(value) << 16;
    float result;
    std::memcpy(&result, &bits, sizeof result);
    return result;
}

Tensor MakeTensor(const std::vector<int64_t> &shape, DataType dtype, const void *data,
                  size_t bytes) {
    return Tensor(TensorDesc(Shape(shape), FORMAT_ND, dtype), static_cast<const uint8_t *>(data),
                  bytes);
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

    // Inputs: x in bf16 (deterministic values in [-1, 1)), cos/sin rows in fp32.
    std::vector<uint16_t> x(B * S * N * D);
    for (size_t i = 0; i < x.size(); i++)
        x[i] = FloatToBf16(static_cast<float>((i * 37) % 101) / 50.5f - 1.0f);
    std::vector<float> cos(S * L), sin(S * L);
    ropekit_status built = ropekit_rotary_coeffs_build(cos.data(), sin.data(), ROPEKIT_F32, S, L,
                                                       ROPEKIT_ROTARY_INTERLEAVE, 10000.0, nullptr);
    if (built != ROPEKIT_OK) {
        std::printf("ropekit_rotary_coeffs_build: %s\n", ropekit_last_error());
        return 1;
    }
    const std::vector<int64_t> xShape = {B, S, N, D}, csShape = {1, S, 1, L};
    std::vector<Tensor> inputs = {MakeTensor(xShape, DT_BF16, x.data(), x.size() * 2),
                                  MakeTensor(csShape, DT_FLOAT, cos.data(), cos.size() * 4),
                                  MakeTensor(csShape, DT_FLOAT, sin.data(), sin.size() * 4)};

    // The graph: Data x, cos, sin -> InplacePartialRotaryMul.
    Graph graph("partial_rotary");
    auto xData = op::Data("x").set_attr_index(0);
    xData.update_output_desc_y(inputs[0].GetTensorDesc());
    auto cosData = op::Data("cos").set_attr_index(1);
    cosData.update_output_desc_y(inputs[1].GetTensorDesc());
    auto sinData = op::Data("sin").set_attr_index(2);
    sinData.update_output_desc_y(inputs[2].GetTensorDesc());
    auto rotate = op::InplacePartialRotaryMul("rotate");
    rotate.set_input_x(xData).set_input_cos(cosData).set_input_sin(sinData);
    rotate.set_attr_rotary_mode(1).set_attr_partial_slice({START, END});
    graph.SetInputs({xData, cosData, sinData}).SetOutputs({rotate});

    std::map<AscendString, AscendString> noOptions;
    Session session(noOptions);
    if ((ret = session.AddGraph(0, graph)) != 0)
        return Fail("AddGraph", ret);
    std::vector<Tensor> outputs;
    if ((ret = session.RunGraph(0, inputs, outputs)) != 0)
        return Fail("RunGraph", ret);

    // Check: x itself unchanged; the output against the float64 reference.
    int64_t bad = 0;
    if (std::memcmp(inputs[0].GetData(), x.data(), x.size() * 2) != 0) {
        std::printf("the input x was modified\n");
        bad++;
    }
    const uint16_t *out = reinterpret_cast<const uint16_t *>(outputs.at(0).GetData());
    for (int64_t s = 0; s < S; s++) {
        const float *c = &cos[s * L], *sn = &sin[s * L];
        for (int64_t n = 0; n < N; n++) {
            const int64_t row = (s * N + n) * D;
            for (int64_t d = 0; d < D; d++) {
                const uint16_t got = out[row + d];
                if (d < START || d >= END) { // outside the slice: copied bit for bit
                    bad += got != x[row + d];
                    continue;
                }
                const int64_t j = d - START, mate = j % 2 == 0 ? j + 1 : j - 1;
                const double a = Bf16ToDouble(x[row + d]), b = Bf16ToDouble(x[row + START + mate]);
                const double t1 = a * c[j], t2 = b * sn[j];
                const double want = j % 2 == 0 ? t1 - t2 : t1 + t2;
                const double bound = 8e-3 * (std::fabs(t1) + std::fabs(t2)) + std::ldexp(1.0, -133);
                if (!(std::fabs(Bf16ToDouble(got) - want) <= bound) && bad++ < 5)
                    std::printf("mismatch at s=%lld n=%lld d=%lld: got %.6g, want %.6g\n",
                                static_cast<long long>(s), static_cast<long long>(n),
                                static_cast<long long>(d), Bf16ToDouble(got), want);
            }
        }
    }
    std::printf("x[0, 1, 0, 16:20] = %.4f %.4f %.4f %.4f -> %.4f %.4f %.4f %.4f\n",
                Bf16ToDouble(x[N * D + 16]), Bf16ToDouble(x[N * D + 17]),
                Bf16ToDouble(x[N * D + 18]), Bf16ToDouble(x[N * D + 19]),
                Bf16ToDouble(out[N * D + 16]), Bf16ToDouble(out[N * D + 17]),
                Bf16ToDouble(out[N * D + 18]), Bf16ToDouble(out[N * D + 19]));
    GEFinalize();
    std::printf("%s: %lld mismatches\n", bad == 0 ? "ok" : "FAILED", static_cast<long long>(bad));
    return bad == 0 ? 0 : 1;
}
