/* aclnnRopeWithSinCosCacheV2 with interleaved multimodal rope (cacheMode 1, fp16).
 *
 * Qwen3-VL style "interleaved MRoPE": every token has three positions, a temporal (t),
 * a height (h) and a width (w) one, so positions is [3, numTokens]. The 64 frequencies
 * of a 128-wide rotary part are shared out by mropeSection {24, 20, 20}: with
 * cacheMode 1 frequency j takes its cos/sin from the h position when j % 3 == 1 and
 * j / 3 < 20, from the w position when j % 3 == 2 and j / 3 < 20, and from the t
 * position otherwise (so 0, 3, ..., 57 and 60..63 are temporal). Here 8 tokens of a
 * small video (2 frames of 2x2 patches) carry a 4-head query and a 2-head key, head
 * size 128, all rotated in NeoX style into separate output tensors.
 *
 * The float64 reference builds its own frequency-to-row map the way the Qwen3-VL
 * model code does (start from the temporal row, then let h and w overwrite every third
 * frequency) and applies SPEC section 5.4 with the cache's fp16 values; every element
 * must be within the fp16 bound of SPEC section 6. Exits non-zero on a mismatch.
 */
#include <iostream>
#include <vector>
#include <cmath>
#include <cstdint>
#include "acl/acl.h"
#include "aclnnop/level2/aclnn_rope_with_sin_cos_cache_v2.h"
#include "ropekit/ropekit.h"

#define CHECK_RET(cond, return_expr)                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            return_expr;                                                                           \
        }                                                                                          \
    } while (0)

#define LOG_PRINT(...) printf(__VA_ARGS__)

int64_t GetShapeSize(const std::vector<int64_t> &shape) {
    int64_t size = 1;
    for (auto dim : shape) {
        size *= dim;
    }
    return size;
}

int Init(int32_t deviceId, aclrtStream *stream) {
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed: %d\n", ret); return ret);
    ret = aclrtCreateStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed: %d\n", ret); return ret);
    return 0;
}

// Copies hostData to a new device buffer and describes it as a contiguous ND tensor.
template <typename T>
int CreateAclTensor(const std::vector<T> &hostData, const std::vector<int64_t> &shape,
                    void **deviceAddr, aclDataType dataType, aclTensor **tensor) {
    auto size = GetShapeSize(shape) * sizeof(T);
    auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed: %d\n", ret); return ret);

    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
        strides[i] = shape[i + 1] * strides[i + 1];
    }
    *tensor = aclCreateTensor(shape.data(), shape.size(), dataType, strides.data(), 0,
                              aclFormat::ACL_FORMAT_ND, shape.data(), shape.size(), *deviceAddr);
    CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed\n"); return -1);
    return 0;
}

// fp16 host data is kept as raw uint16_t bit patterns.
double HalfToDouble(uint16_t value) {
    const int exponent = (value >> 10) & 0x1f;
    const int mantissa = value & 0x3ff;
    double magnitude;
    if (exponent == 0) {
        magnitude = std::ldexp(mantissa, -24);
    } else if (exponent == 31) {
        magnitude = mantissa != 0 ? NAN : INFINITY;
    } else {
        magnitude = std::ldexp(mantissa + 1024, exponent - 25);
    }
    return (value & 0x8000) ? -magnitude : magnitude;
}

// A pseudo-random fp16 value with magnitude in [1/16, 4) (xorshift32 bits).
uint16_t RandomHalf(uint32_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    const uint32_t r = *state;
    const uint32_t exponent = 11 + (r >> 12) % 6;
    return static_cast<uint16_t>((r >> 31) << 15 | exponent << 10 | (r & 0x3ff));
}

// Qwen3-VL's interleaved layout: which position row (0 = t, 1 = h, 2 = w) feeds
// frequency j. Everything starts temporal; h then takes j = 1, 4, 7, ... and w takes
// j = 2, 5, 8, ..., each for as many frequencies as its section has.
std::vector<int> InterleavedRows(const std::vector<int64_t> &sections, int64_t half) {
    std::vector<int> rows(half, 0);
    for (int dim = 1; dim < 3; dim++) {
        for (int64_t j = dim; j < sections[dim] * 3 && j < half; j += 3) {
            rows[j] = dim;
        }
    }
    return rows;
}

// Checks one rotated tensor [numTokens, numHeads * headSize] against SPEC 5.4 in
// float64, with |out - ref| <= 1e-3 * (|a c| + |b s|) + 2^-24 (SPEC 6, fp16).
int64_t Check(const char *name, const std::vector<uint16_t> &in, const std::vector<uint16_t> &out,
              const std::vector<uint16_t> &cache, const std::vector<int64_t> &positions,
              const std::vector<int> &rows, int64_t numTokens, int64_t numHeads, int64_t headSize,
              int64_t rotaryDim, bool isNeoxStyle) {
    const int64_t half = rotaryDim / 2;
    int64_t bad = 0;
    for (int64_t t = 0; t < numTokens; t++) {
        for (int64_t n = 0; n < numHeads; n++) {
            const int64_t head = (t * numHeads + n) * headSize;
            for (int64_t i = 0; i < half; i++) {
                const int64_t position = positions[rows[i] * numTokens + t];
                const double c = HalfToDouble(cache[position * rotaryDim + i]);
                const double s = HalfToDouble(cache[position * rotaryDim + half + i]);
                // The pair (p0, p1) turns by frequency i: (i, i + half) in NeoX style,
                // (2i, 2i + 1) in GPT-J style.
                const int64_t p0 = isNeoxStyle ? i : 2 * i, p1 = isNeoxStyle ? i + half : 2 * i + 1;
                const double a = HalfToDouble(in[head + p0]), b = HalfToDouble(in[head + p1]);
                const double ref[2] = {a * c - b * s, b * c + a * s};
                const double mag = std::fabs(a * c) + std::fabs(b * s);
                const double mag1 = std::fabs(b * c) + std::fabs(a * s);
                const double got[2] = {HalfToDouble(out[head + p0]), HalfToDouble(out[head + p1])};
                for (int k = 0; k < 2; k++) {
                    const double bound = 1e-3 * (k == 0 ? mag : mag1) + std::ldexp(1.0, -24);
                    if (!(std::fabs(got[k] - ref[k]) <= bound)) {
                        if (bad++ < 5) {
                            LOG_PRINT("%s mismatch: token %lld head %lld channel %lld: got %.6g, "
                                      "want %.6g\n",
                                      name, static_cast<long long>(t), static_cast<long long>(n),
                                      static_cast<long long>(k == 0 ? p0 : p1), got[k], ref[k]);
                        }
                    }
                }
            }
        }
    }
    return bad;
}

int main() {
    // 1. Device and stream.
    int32_t deviceId = 0;
    aclrtStream stream;
    auto ret = Init(deviceId, &stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("Init acl failed: %d\n", ret); return ret);

    // 2. Host data: 2 frames x 2 rows x 2 columns of patches. The temporal position
    //    advances by 4 per frame, the height and width positions by 1 per patch row or
    //    column; the three positions of every token differ.
    const int64_t numTokens = 8, numQHeads = 4, numKHeads = 2, headSize = 128, rotaryDim = 128;
    const int64_t maxSeqLen = 64, cacheMode = 1;
    const bool isNeoxStyle = true;
    std::vector<int64_t> sectionData = {24, 20, 20};
    std::vector<int64_t> positionsShape = {3, numTokens};
    std::vector<int64_t> queryShape = {numTokens, numQHeads * headSize};
    std::vector<int64_t> keyShape = {numTokens, numKHeads * headSize};
    std::vector<int64_t> cacheShape = {maxSeqLen, rotaryDim};
    std::vector<int64_t> positionsHostData(3 * numTokens);
    for (int64_t t = 0; t < numTokens; t++) {
        const int64_t frame = t / 4, row = (t / 2) % 2, column = t % 2;
        positionsHostData[0 * numTokens + t] = 30 + 4 * frame;
        positionsHostData[1 * numTokens + t] = 31 + row;
        positionsHostData[2 * numTokens + t] = 36 + column;
    }
    std::vector<uint16_t> queryHostData(GetShapeSize(queryShape));
    std::vector<uint16_t> keyHostData(GetShapeSize(keyShape));
    std::vector<uint16_t> cacheHostData(GetShapeSize(cacheShape));
    std::vector<uint16_t> queryOutHostData(queryHostData.size(), 0);
    std::vector<uint16_t> keyOutHostData(keyHostData.size(), 0);
    uint32_t seed = 2025;
    for (auto &value : queryHostData) {
        value = RandomHalf(&seed);
    }
    for (auto &value : keyHostData) {
        value = RandomHalf(&seed);
    }
    ropekit_status built = ropekit_cos_sin_cache_build(cacheHostData.data(), ROPEKIT_F16, maxSeqLen,
                                                       rotaryDim, 1000000.0, nullptr);
    CHECK_RET(built == ROPEKIT_OK,
              LOG_PRINT("ropekit_cos_sin_cache_build failed: %s\n", ropekit_last_error());
              return 1);

    // 3. Device tensors and the section attribute.
    void *positionsDeviceAddr = nullptr;
    void *queryDeviceAddr = nullptr;
    void *keyDeviceAddr = nullptr;
    void *cacheDeviceAddr = nullptr;
    void *queryOutDeviceAddr = nullptr;
    void *keyOutDeviceAddr = nullptr;
    aclTensor *positions = nullptr;
    aclTensor *queryIn = nullptr;
    aclTensor *keyIn = nullptr;
    aclTensor *cosSinCache = nullptr;
    aclTensor *queryOut = nullptr;
    aclTensor *keyOut = nullptr;
    ret = CreateAclTensor(positionsHostData, positionsShape, &positionsDeviceAddr,
                          aclDataType::ACL_INT64, &positions);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(queryHostData, queryShape, &queryDeviceAddr, aclDataType::ACL_FLOAT16,
                          &queryIn);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(keyHostData, keyShape, &keyDeviceAddr, aclDataType::ACL_FLOAT16, &keyIn);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(cacheHostData, cacheShape, &cacheDeviceAddr, aclDataType::ACL_FLOAT16,
                          &cosSinCache);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(queryOutHostData, queryShape, &queryOutDeviceAddr,
                          aclDataType::ACL_FLOAT16, &queryOut);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(keyOutHostData, keyShape, &keyOutDeviceAddr, aclDataType::ACL_FLOAT16,
                          &keyOut);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    aclIntArray *mropeSection = aclCreateIntArray(sectionData.data(), sectionData.size());
    CHECK_RET(mropeSection != nullptr, LOG_PRINT("aclCreateIntArray failed\n"); return -1);

    // 4. Phase 1: validate and plan; phase 2: queue the work on the stream.
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    ret = aclnnRopeWithSinCosCacheV2GetWorkspaceSize(positions, queryIn, keyIn, cosSinCache,
                                                     mropeSection, headSize, isNeoxStyle, cacheMode,
                                                     queryOut, keyOut, &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnRopeWithSinCosCacheV2GetWorkspaceSize failed: %d (%s)\n", ret,
                        aclGetRecentErrMsg());
              return ret);
    void *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("workspace allocation failed: %d\n", ret);
                  return ret);
    }
    ret = aclnnRopeWithSinCosCacheV2(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnRopeWithSinCosCacheV2 failed: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclrtSynchronizeStream failed: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);

    // 5. Copy the outputs back, show the frequency-to-row map and check everything.
    auto queryBytes = queryOutHostData.size() * sizeof(uint16_t);
    auto keyBytes = keyOutHostData.size() * sizeof(uint16_t);
    ret = aclrtMemcpy(queryOutHostData.data(), queryBytes, queryOutDeviceAddr, queryBytes,
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy queryOut failed: %d\n", ret); return ret);
    ret = aclrtMemcpy(keyOutHostData.data(), keyBytes, keyOutDeviceAddr, keyBytes,
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy keyOut failed: %d\n", ret); return ret);
    const std::vector<int> rows = InterleavedRows(sectionData, rotaryDim / 2);
    LOG_PRINT("position row of frequencies 0..63 (t=0, h=1, w=2): ");
    for (int row : rows) {
        LOG_PRINT("%d", row);
    }
    LOG_PRINT("\n");
    const int64_t shown = 5 * numQHeads * headSize; // token 5, query head 0
    for (int64_t j = 0; j < 4; j++) {
        LOG_PRINT("token 5 query head 0 [%lld]: %.5f -> %.5f\n", static_cast<long long>(j),
                  HalfToDouble(queryHostData[shown + j]),
                  HalfToDouble(queryOutHostData[shown + j]));
    }
    int64_t bad =
        Check("queryOut", queryHostData, queryOutHostData, cacheHostData, positionsHostData, rows,
              numTokens, numQHeads, headSize, rotaryDim, isNeoxStyle);
    bad += Check("keyOut", keyHostData, keyOutHostData, cacheHostData, positionsHostData, rows,
                 numTokens, numKHeads, headSize, rotaryDim, isNeoxStyle);
    LOG_PRINT("%s: %lld mismatches in %lld elements\n", bad == 0 ? "PASS" : "FAIL",
              static_cast<long long>(bad),
              static_cast<long long>(queryOutHostData.size() + keyOutHostData.size()));

    // 6. Release everything.
    aclDestroyTensor(positions);
    aclDestroyTensor(queryIn);
    aclDestroyTensor(keyIn);
    aclDestroyTensor(cosSinCache);
    aclDestroyTensor(queryOut);
    aclDestroyTensor(keyOut);
    aclDestroyIntArray(mropeSection);
    aclrtFree(positionsDeviceAddr);
    aclrtFree(queryDeviceAddr);
    aclrtFree(keyDeviceAddr);
    aclrtFree(cacheDeviceAddr);
    aclrtFree(queryOutDeviceAddr);
    aclrtFree(keyOutDeviceAddr);
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return bad == 0 ? 0 : 1;
}
