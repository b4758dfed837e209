/* RopeWithSinCosCache in GE graph mode: NeoX style, fp32, a rotary dim below the head size.
 *
 * Five tokens at positions {0, 3, 17, 42, 99} carry a query of 4 heads and a key of 2
 * heads, each head 64 wide: queryIn [5, 256], keyIn [5, 128]. cosSinCache [128, 32] holds
 * cos(p * 10000^(-2i/32)) in columns [0, 16) and the sines in [16, 32) for p < 128 (built
 * by ropekit_cos_sin_cache_build), so rotaryDim is 32: the first 32 channels of every head
 * turn, channel j pairing with j + 16, and channels [32, 64) pass through. The attributes
 * numQHeads, numKHeads and headSize are required by the prototype and must agree with the
 * tensors. Both outputs are checked against a float64 reference within the fp32 bound of
 * SPEC section 6 (pass-through channels bit for bit). Exits non-zero on a mismatch. */
#include <cmath>
#include <cstdint>
#include <cstdio>
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
const int64_t T = 5, QH = 4, KH = 2, HS = 64, ROT = 32, MAXPOS = 128;

template <typename T>
Tensor MakeTensor(const std::vector<int64_t> &shape, DataType dtype, const std::vector<T> &v) {
    return Tensor(TensorDesc(Shape(shape), FORMAT_ND, dtype),
                  reinterpret_cast<const uint8_t *>(v.data()), v.size() * sizeof(T));
}

// Mismatches of one output [T, heads * HS] against the NeoX rotation in float64.
int64_t Check(const char *name, const std::vector<float> &in, const float *out, int64_t heads,
              const std::vector<float> &cache, const std::vector<int64_t> &positions) {
    const int64_t h = ROT / 2;
    int64_t bad = 0;
    for (int64_t t = 0; t < T; t++)
        for (int64_t n = 0; n < heads; n++) {
            const int64_t head = (t * heads + n) * HS;
            const float *c = &cache[positions[t] * ROT], *s = c + h;
            for (int64_t j = 0; j < HS; j++) {
                double want = in[head + j], mag = 0.0;
                if (j < ROT) {
                    const int64_t i = j % h, mate = j < h ? j + h : j - h;
                    const double t1 = static_cast<double>(in[head + j]) * c[i];
                    const double t2 = static_cast<double>(in[head + mate]) * s[i];
                    want = j < h ? t1 - t2 : t1 + t2;
                    mag = std::fabs(t1) + std::fabs(t2);
                }
                const double bound = 1e-5 * mag + std::ldexp(1.0, -149);
                const bool ok = j < ROT ? std::fabs(out[head + j] - want) <= bound
                                        : out[head + j] == in[head + j];
                if (!ok && bad++ < 5)
                    std::printf("%s mismatch: token %lld head %lld channel %lld: got %.9g, want "
                                "%.9g\n",
                                name, static_cast<long long>(t), static_cast<long long>(n),
                                static_cast<long long>(j), out[head + j], want);
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

    std::vector<int64_t> positions = {0, 3, 17, 42, 99};
    std::vector<float> query(T * QH * HS), key(T * KH * HS), cache(MAXPOS * ROT);
    for (size_t i = 0; i < query.size(); i++)
        query[i] = static_cast<float>((i * 29) % 89) / 44.5f - 1.0f;
    for (size_t i = 0; i < key.size(); i++)
        key[i] = static_cast<float>((i * 31) % 83) / 41.5f - 1.0f;
    if (ropekit_cos_sin_cache_build(cache.data(), ROPEKIT_F32, MAXPOS, ROT, 10000.0, nullptr) !=
        ROPEKIT_OK) {
        std::printf("ropekit_cos_sin_cache_build: %s\n", ropekit_last_error());
        return 1;
    }
    std::vector<Tensor> inputs = {
        MakeTensor({T}, DT_INT64, positions), MakeTensor({T, QH * HS}, DT_FLOAT, query),
        MakeTensor({T, KH * HS}, DT_FLOAT, key), MakeTensor({MAXPOS, ROT}, DT_FLOAT, cache)};

    // Data positions, query, key, cache -> RopeWithSinCosCache -> queryOut, keyOut.
    Graph graph("rope");
    std::vector<Operator> data;
    const char *names[] = {"positions", "query", "key", "cache"};
    for (int i = 0; i < 4; i++) {
        auto d = op::Data(names[i]).set_attr_index(i);
        d.update_output_desc_y(inputs[i].GetTensorDesc());
        data.push_back(d);
    }
    auto rope = op::RopeWithSinCosCache("rope");
    rope.set_input_positions(data[0]).set_input_queryIn(data[1]);
    rope.set_input_keyIn(data[2]).set_input_cosSinCache(data[3]);
    rope.set_attr_numQHeads(QH).set_attr_numKHeads(KH).set_attr_headSize(HS);
    rope.set_attr_isNeoxStyle(true);
    graph.SetInputs(data).SetOutputs({rope});

    std::map<AscendString, AscendString> noOptions;
    Session session(noOptions);
    std::vector<Tensor> outputs;
    if ((ret = session.AddGraph(0, graph)) != 0)
        return Fail("AddGraph", ret);
    if ((ret = session.RunGraph(0, inputs, outputs)) != 0)
        return Fail("RunGraph", ret);

    const float *queryOut = reinterpret_cast<const float *>(outputs.at(0).GetData());
    const float *keyOut = reinterpret_cast<const float *>(outputs.at(1).GetData());
    int64_t bad = Check("queryOut", query, queryOut, QH, cache, positions) +
                  Check("keyOut", key, keyOut, KH, cache, positions);
    std::printf("query token 2 head 0 [0:4] = %.5f %.5f %.5f %.5f -> %.5f %.5f %.5f %.5f\n",
                query[2 * QH * HS], query[2 * QH * HS + 1], query[2 * QH * HS + 2],
                query[2 * QH * HS + 3], queryOut[2 * QH * HS], queryOut[2 * QH * HS + 1],
                queryOut[2 * QH * HS + 2], queryOut[2 * QH * HS + 3]);
    GEFinalize();
    std::printf("%s: %lld mismatches\n", bad == 0 ? "ok" : "FAILED", static_cast<long long>(bad));
    return bad == 0 ? 0 : 1;
}
