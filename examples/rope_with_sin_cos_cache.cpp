/* aclnnRopeWithSinCosCache in the CANN two-phase style (bf16, NeoX).
 *
 * Two tokens at positions 3 and 17 carry a query of 2 heads and a key of 1 head, each
 * head 32 wide: queryIn [2, 64], keyIn [2, 32]. cosSinCache [64, 32] holds, for every
 * position p < 64, cos(p * 10000^(-2i/32)) in columns [0, 16) and the matching sines
 * in [16, 32); it is built in bf16 by ropekit_cos_sin_cache_build. rotaryDim is the
 * cache width, 32, so the whole head turns, in NeoX style (isNeoxStyle = true: channel
 * j pairs with j + 16). mropeSection is NULL (plain rope). The results go to separate
 * queryOut/keyOut tensors. Every output element is checked against a float64
 * reference that uses the cache's own (rounded) cos/sin values (SPEC section 5.4),
 * within the bf16 bound of SPEC section 6; the program exits non-zero on a mismatch.
 */
#include <iostream>
#include <vector>
#include <cmath>
#include <cstdint>
#include <cstring>
#include "acl/acl.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"
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

// bf16 is the upper half of an fp32. Host data is kept as raw uint16_t bit patterns.
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

// Deterministic pseudo-random numbers in [-1, 1) (xorshift32).
float NextRandom(uint32_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return static_cast<float>(*state >> 8) / 8388608.0f - 1.0f;
}

// Checks one rotated tensor [numTokens, numHeads * headSize] (NeoX, rotaryDim ==
// headSize) against SPEC 5.4 in float64 with the bf16 bound of SPEC 6:
// |out - ref| <= 8e-3 * (|x[j] c| + |x[j+h] s|) + 2^-133. Returns the number of mismatches.
int64_t CheckNeox(const char *name, const std::vector<uint16_t> &in,
                  const std::vector<uint16_t> &out, const std::vector<uint16_t> &cache,
                  const std::vector<int64_t> &positions, int64_t numHeads, int64_t headSize,
                  int64_t rotaryDim) {
    const int64_t half = rotaryDim / 2;
    int64_t bad = 0;
    for (size_t t = 0; t < positions.size(); t++) {
        const uint16_t *row = &cache[positions[t] * rotaryDim];
        for (int64_t n = 0; n < numHeads; n++) {
            const int64_t head = (static_cast<int64_t>(t) * numHeads + n) * headSize;
            for (int64_t j = 0; j < rotaryDim; j++) {
                const int64_t i = j % half; // coefficient index; both halves share it
                const double c = Bf16ToDouble(row[i]), s = Bf16ToDouble(row[half + i]);
                const double a = Bf16ToDouble(in[head + j]);
                const double b = Bf16ToDouble(in[head + (j < half ? j + half : j - half)]);
                const double ref = j < half ? a * c - b * s : a * c + b * s;
                const double bound =
                    8e-3 * (std::fabs(a * c) + std::fabs(b * s)) + std::ldexp(1.0, -133);
                const double got = Bf16ToDouble(out[head + j]);
                if (!(std::fabs(got - ref) <= bound)) {
                    if (bad++ < 5) {
                        LOG_PRINT("%s mismatch: token %zu head %lld channel %lld: got %.6g, want "
                                  "%.6g\n",
                                  name, t, static_cast<long long>(n), static_cast<long long>(j),
                                  got, ref);
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

    // 2. Host data.
    const int64_t numTokens = 2, numQHeads = 2, numKHeads = 1, headSize = 32, rotaryDim = 32;
    const int64_t maxSeqLen = 64;
    const bool isNeoxStyle = true;
    std::vector<int64_t> positionsShape = {numTokens};
    std::vector<int64_t> queryShape = {numTokens, numQHeads * headSize};
    std::vector<int64_t> keyShape = {numTokens, numKHeads * headSize};
    std::vector<int64_t> cacheShape = {maxSeqLen, rotaryDim};
    std::vector<int64_t> positionsHostData = {3, 17};
    std::vector<uint16_t> queryHostData(GetShapeSize(queryShape));
    std::vector<uint16_t> keyHostData(GetShapeSize(keyShape));
    std::vector<uint16_t> cacheHostData(GetShapeSize(cacheShape));
    std::vector<uint16_t> queryOutHostData(queryHostData.size(), 0);
    std::vector<uint16_t> keyOutHostData(keyHostData.size(), 0);
    uint32_t seed = 7;
    for (auto &value : queryHostData) {
        value = FloatToBf16(2.0f * NextRandom(&seed));
    }
    for (auto &value : keyHostData) {
        value = FloatToBf16(2.0f * NextRandom(&seed));
    }
    ropekit_status built = ropekit_cos_sin_cache_build(cacheHostData.data(), ROPEKIT_BF16,
                                                       maxSeqLen, rotaryDim, 10000.0, nullptr);
    CHECK_RET(built == ROPEKIT_OK,
              LOG_PRINT("ropekit_cos_sin_cache_build failed: %s\n", ropekit_last_error());
              return 1);

    // 3. Device tensors.
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
    ret = CreateAclTensor(queryHostData, queryShape, &queryDeviceAddr, aclDataType::ACL_BF16,
                          &queryIn);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(keyHostData, keyShape, &keyDeviceAddr, aclDataType::ACL_BF16, &keyIn);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(cacheHostData, cacheShape, &cacheDeviceAddr, aclDataType::ACL_BF16,
                          &cosSinCache);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(queryOutHostData, queryShape, &queryOutDeviceAddr, aclDataType::ACL_BF16,
                          &queryOut);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(keyOutHostData, keyShape, &keyOutDeviceAddr, aclDataType::ACL_BF16,
                          &keyOut);
    CHECK_RET(ret == ACL_SUCCESS, return ret);

    // 4. Phase 1: validate and plan; phase 2: queue the work on the stream.
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    ret = aclnnRopeWithSinCosCacheGetWorkspaceSize(positions, queryIn, keyIn, cosSinCache, nullptr,
                                                   headSize, isNeoxStyle, queryOut, keyOut,
                                                   &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnRopeWithSinCosCacheGetWorkspaceSize failed: %d (%s)\n", ret,
                        aclGetRecentErrMsg());
              return ret);
    void *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("workspace allocation failed: %d\n", ret);
                  return ret);
    }
    ret = aclnnRopeWithSinCosCache(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnRopeWithSinCosCache failed: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclrtSynchronizeStream failed: %d (%s)\n", ret, aclGetRecentErrMsg());
              return ret);

    // 5. Copy the outputs back, print a few values and check all of them.
    auto queryBytes = queryOutHostData.size() * sizeof(uint16_t);
    auto keyBytes = keyOutHostData.size() * sizeof(uint16_t);
    ret = aclrtMemcpy(queryOutHostData.data(), queryBytes, queryOutDeviceAddr, queryBytes,
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy queryOut failed: %d\n", ret); return ret);
    ret = aclrtMemcpy(keyOutHostData.data(), keyBytes, keyOutDeviceAddr, keyBytes,
                      ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy keyOut failed: %d\n", ret); return ret);
    for (int64_t j = 0; j < 4; j++) {
        LOG_PRINT("token 1 query head 1 [%lld]: %.5f -> %.5f   key [%lld]: %.5f -> %.5f\n",
                  static_cast<long long>(j), Bf16ToDouble(queryHostData[96 + j]),
                  Bf16ToDouble(queryOutHostData[96 + j]), static_cast<long long>(j),
                  Bf16ToDouble(keyHostData[32 + j]), Bf16ToDouble(keyOutHostData[32 + j]));
    }
    int64_t bad = CheckNeox("queryOut", queryHostData, queryOutHostData, cacheHostData,
                            positionsHostData, numQHeads, headSize, rotaryDim);
    bad += CheckNeox("keyOut", keyHostData, keyOutHostData, cacheHostData, positionsHostData,
                     numKHeads, headSize, rotaryDim);
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
