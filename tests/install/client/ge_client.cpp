// Install test client for libropekit_ge (C++11): a graph program written the way CANN's
// graph examples are, with only the installed headers (found flat, through the include
// folders that pkg-config's ropekit-ge or CMake's ropekit::ge give) and libraries.
//
// One graph holds InplacePartialRotaryMul (fp32, slice [0, 8) of a [1, 2, 1, 8] x with
// cos/sin broadcast over the batch) and RopeWithSinCosCache (GPT-J, 3 tokens, one 16-wide
// head, cache built by the installed ropekit_cos_sin_cache_build); both results are
// checked against double-precision references. A graph with an unknown operator type must
// fail AddGraph with ACL_ERROR_GE_PARAM_INVALID and a message naming the node.
#define SUCCESS 0 // as CANN's examples do, before the GE headers
#define FAILED (-1)

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "ge_api.h"
#include "ge_error_codes.h"
#include "ge_ir_build.h"
#include "graph.h"
#include "inplace_partial_rotary_mul_proto.h"
#include "ops_proto_legacy.h"
#include "rope_with_sin_cos_cache_proto.h"
#include "ropekit/ropekit.h"
#include "tensor.h"
#include "types.h"

using namespace ge;

namespace {
Tensor Make(const std::vector<int64_t> &shape, DataType dtype, const void *data, size_t bytes) {
    return Tensor(TensorDesc(Shape(shape), FORMAT_ND, dtype), static_cast<const uint8_t *>(data),
                  bytes);
}

bool Near(double got, double want) {
    return std::fabs(got - want) <= 1e-5 * (1.0 + std::fabs(want));
}
} // namespace

int main() {
    std::map<AscendString, AscendString> options = {{"ge.exec.deviceId", "0"}};
    if (GEInitialize(options) != SUCCESS) {
        std::printf("GEInitialize: %s\n", GEGetErrorMsgV2().GetString());
        return 1;
    }
    int failures = 0;

    std::vector<float> x(16), cs(16), sn(16);
    for (int i = 0; i < 16; i++) {
        x[i] = 0.25f * static_cast<float>(i) - 2.0f;
        cs[i] = std::cos(0.1f * static_cast<float>(i / 2 + 1));
        sn[i] = std::sin(0.1f * static_cast<float>(i / 2 + 1));
    }
    std::vector<int64_t> positions = {1, 7, 30};
    std::vector<float> q(3 * 16), cache(32 * 16);
    for (size_t i = 0; i < q.size(); i++)
        q[i] = static_cast<float>((i * 13) % 17) / 8.5f - 1.0f;
    if (ropekit_cos_sin_cache_build(cache.data(), ROPEKIT_F32, 32, 16, 10000.0, nullptr) !=
        ROPEKIT_OK)
        return 1;

    std::vector<Tensor> inputs = {Make({1, 2, 1, 8}, DT_FLOAT, x.data(), 64),
                                  Make({1, 2, 1, 8}, DT_FLOAT, cs.data(), 64),
                                  Make({1, 2, 1, 8}, DT_FLOAT, sn.data(), 64),
                                  Make({3}, DT_INT64, positions.data(), 24),
                                  Make({3, 16}, DT_FLOAT, q.data(), q.size() * 4),
                                  Make({32, 16}, DT_FLOAT, cache.data(), cache.size() * 4)};
    Graph graph("install_client");
    std::vector<Operator> data;
    for (int i = 0; i < 6; i++)
        data.push_back(op::Data(("in" + std::to_string(i)).c_str()).set_attr_index(i));
    auto rotate = op::InplacePartialRotaryMul("rotate");
    rotate.set_input_x(data[0]).set_input_cos(data[1]).set_input_sin(data[2]);
    rotate.set_attr_rotary_mode(1).set_attr_partial_slice({0, 8});
    auto rope = op::RopeWithSinCosCache("rope");
    rope.set_input_positions(data[3]).set_input_queryIn(data[4]).set_input_keyIn(data[4]);
    rope.set_input_cosSinCache(data[5]);
    rope.set_attr_numQHeads(1).set_attr_numKHeads(1).set_attr_headSize(16);
    rope.set_attr_isNeoxStyle(false);
    graph.SetInputs(data).SetOutputs({rotate, rope});

    std::map<AscendString, AscendString> none;
    Session session(none);
    std::vector<Tensor> outputs;
    if (session.AddGraph(1, graph) != SUCCESS || session.RunGraph(1, inputs, outputs) != SUCCESS ||
        outputs.size() != 3) {
        std::printf("graph failed: %s\n", GEGetErrorMsgV2().GetString());
        return 1;
    }
    const float *r = reinterpret_cast<const float *>(outputs[0].GetData());
    for (int i = 0; i < 16; i += 2) {
        failures += !Near(r[i], double(x[i]) * cs[i] - double(x[i + 1]) * sn[i]);
        failures += !Near(r[i + 1], double(x[i + 1]) * cs[i + 1] + double(x[i]) * sn[i + 1]);
    }
    const float *qo = reinterpret_cast<const float *>(outputs[1].GetData());
    for (int t = 0; t < 3; t++)
        for (int j = 0; j < 8; j++) {
            const float c = cache[positions[t] * 16 + j], s = cache[positions[t] * 16 + 8 + j];
            const float a = q[t * 16 + 2 * j], b = q[t * 16 + 2 * j + 1];
            failures += !Near(qo[t * 16 + 2 * j], double(a) * c - double(b) * s);
            failures += !Near(qo[t * 16 + 2 * j + 1], double(b) * c + double(a) * s);
        }
    failures += std::memcmp(outputs[1].GetData(), outputs[2].GetData(), q.size() * 4) != 0;

    Graph bad("bad");
    auto d = op::Data("d").set_attr_index(0);
    Operator unknown("mystery", "NoSuchOperator");
    bad.SetInputs({d}).SetOutputs({d});
    bad.AddOp(unknown);
    if (session.AddGraph(2, bad) != ACL_ERROR_GE_PARAM_INVALID) {
        std::printf("an unknown operator type was accepted\n");
        failures++;
    }
    std::string message = GEGetErrorMsgV2().GetString();
    failures += message.find("mystery") == std::string::npos;

    GEFinalize();
    if (failures)
        std::printf("FAILED: %d checks (%s)\n", failures, message.c_str());
    else
        std::printf("ok: graph mode from the installed headers and libraries\n");
    return failures ? 1 : 0;
}
