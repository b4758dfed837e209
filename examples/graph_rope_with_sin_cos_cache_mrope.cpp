/* RopeWithSinCosCache in GE graph mode, multimodal rope (mrope), fp32, NeoX style.
 *
 * Qwen2-VL's layout: mropeSection {16, 24, 24} splits the 64 frequencies of a 128-wide
 * head (rotaryDim = 2 * (16 + 24 + 24) = 128) into a temporal, a height and a width
 * section. positions is [3, T]: row 0 the temporal, row 1 the height, row 2 the width
 * position of each token; frequency j of token t reads cache row positions[k][t] of its
 * section k (j < 16: k = 0; j < 40: k = 1; else k = 2). Four tokens, a query of 2 heads
 * and a key of 1 head. Both outputs are checked against a float64 reference within the
 * fp32 bound of SPEC section 6. Exits non-zero on a mismatch. */
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
const int64_t T = 4, QH = 2, KH = 1, HS = 128, ROT = 128, MAXPOS = 64;
const std::vector<int64_t> kSections = {16, 24, 24};

template <typename T>
Tensor MakeTensor(const std::vector<int64_t> &shape, DataType dtype, const std::vector<T> &v) {
    return Tensor(TensorDesc(Shape(shape), FORMAT_ND, dtype),
                  reinterpret_cast<const uint8_t *>(v.data()), v.size() * sizeof(T));
}

int Section(int64_t j) {
    return j < kSections[0] ? 0 : j < kSections[0] + kSections[1] ? 1 : 2;
}

int64_t Check(const char *name, const std::vector<float> &in, const float *out, int64_t heads,
              const std::vector<float> &cache, const std::vector<int64_t> &positions) {
    const int64_t h = ROT / 2;
    int64_t bad = 0;
    for (int64_t t = 0; t < T; t++)
        for (int64_t n = 0; n < heads; n++) {
            const int64_t head = (t * heads + n) * HS;
            for (int64_t j = 0; j < ROT; j++) {
                const int64_t i = j % h, mate = j < h ? j + h : j - h;
                const float *row = &cache[positions[Section(i) * T + t] * ROT];
                const double t1 = static_cast<double>(in[head + j]) * row[i];
                const double t2 = static_cast<double>(in[head + mate]) * row[h + i];
                const double want = j < h ? t1 - t2 : t1 + t2;
                const double bound = 1e-5 * (std::fabs(t1) + std::fabs(t2)) + std::ldexp(1.0, -149);
                if (!(std::fabs(out[head + j] - want) <= bound) && bad++ < 5)
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
    std::map<AscendString, AscendString> options;
    Status ret = GEInitialize(options);
    if (ret != 0)
        return Fail("GEInitialize", ret);

    // Temporal, height and width positions of four image patches.
    std::vector<int64_t> positions = {5, 5, 5, 5, 0, 0, 1, 1, 0, 1, 0, 1};
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
        MakeTensor({3, T}, DT_INT64, positions), MakeTensor({T, QH * HS}, DT_FLOAT, query),
        MakeTensor({T, KH * HS}, DT_FLOAT, key), MakeTensor({MAXPOS, ROT}, DT_FLOAT, cache)};

    Graph graph("mrope");
    std::vector<Operator> data;
    const char *names[] = {"positions", "query", "key", "cache"};
    for (int i = 0; i < 4; i++)
        data.push_back(op::Data(names[i]).set_attr_index(i));
    auto rope = op::RopeWithSinCosCache("mrope");
    rope.set_input_positions(data[0]).set_input_queryIn(data[1]);
    rope.set_input_keyIn(data[2]).set_input_cosSinCache(data[3]);
    rope.set_attr_numQHeads(QH).set_attr_numKHeads(KH).set_attr_headSize(HS);
    rope.set_attr_mropeSection(kSections);
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
    std::printf("key token 3 [0, 16, 40] = %.5f %.5f %.5f -> %.5f %.5f %.5f\n", key[3 * HS],
                key[3 * HS + 16], key[3 * HS + 40], keyOut[3 * HS], keyOut[3 * HS + 16],
                keyOut[3 * HS + 40]);
    GEFinalize();
    std::printf("%s: %lld mismatches\n", bad == 0 ? "ok" : "FAILED", static_cast<long long>(bad));
    return bad == 0 ? 0 : 1;
}
