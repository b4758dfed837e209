/* aclnnInplacePartialRotaryMulGrad in the CANN two-phase style (fp32).
 *
 * dy [1,1,1,128] enters as the gradient of the rotated output and leaves as the
 * gradient of the input: over partialSlice [0,128) each pair (2i, 2i+1) is turned back
 * by the angle in cos/sin [1,1,1,128] (interleave mode, rotary_mode 1). The program
 * prints a few values and checks all of them against a float64 reference (SPEC
 * section 4.2, bound of section 6). It exits non-zero on any mismatch.
 */
#include <iostream>
#include <vector>
#include <cmath>
#include <cstdint>
#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul_grad.h"

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

// Deterministic pseudo-random numbers in [-1, 1) (xorshift32).
float NextRandom(uint32_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return static_cast<float>(*state >> 8) / 8388608.0f - 1.0f;
}

// SPEC 4.2 (interleave) in float64 for one vector g of length len:
//   w[2i]   = c[2i]*g[2i]     + s[2i+1]*g[2i+1]
//   w[2i+1] = c[2i+1]*g[2i+1] - s[2i]*g[2i]
// Each result must satisfy |w - ref| <= 1e-5 * (sum of the two terms' magnitudes) + the
// smallest fp32 subnormal. Returns the number of mismatches.
int64_t CheckGrad(const std::vector<float> &g, const std::vector<float> &w,
                  const std::vector<float> &c, const std::vector<float> &s, int64_t len) {
    int64_t bad = 0;
    for (int64_t i = 0; i < len; i += 2) {
        double g0 = g[i], g1 = g[i + 1];
        double ref[2] = {c[i] * g0 + s[i + 1] * g1, c[i + 1] * g1 - s[i] * g0};
        double mag[2] = {std::fabs(c[i] * g0) + std::fabs(s[i + 1] * g1),
                         std::fabs(c[i + 1] * g1) + std::fabs(s[i] * g0)};
        for (int k = 0; k < 2; k++) {
            if (!(std::fabs(w[i + k] - ref[k]) <= 1e-5 * mag[k] + 1.4e-45)) {
                if (bad++ < 5) {
                    LOG_PRINT("mismatch at %lld: got %.9g, want %.9g\n",
                              static_cast<long long>(i + k), w[i + k], ref[k]);
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

    // 2. Host data: a pseudo-random incoming gradient and the cos/sin of one token at
    //    position 7 (pair i turns by 7 * 10000^(-2i/128)).
    const int64_t len = 128, start = 0, end = 128, position = 7;
    std::vector<int64_t> dyShape = {1, 1, 1, len};
    std::vector<int64_t> cosShape = {1, 1, 1, len};
    std::vector<float> dyHostData(len);
    std::vector<float> cosHostData(len);
    std::vector<float> sinHostData(len);
    uint32_t seed = 77;
    for (auto &value : dyHostData) {
        value = NextRandom(&seed);
    }
    for (int64_t i = 0; i < len / 2; i++) {
        double angle = position * std::pow(10000.0, -2.0 * i / len);
        cosHostData[2 * i] = cosHostData[2 * i + 1] = std::cos(angle);
        sinHostData[2 * i] = sinHostData[2 * i + 1] = std::sin(angle);
    }

    // 3. Device tensors and the slice attribute.
    void *dyDeviceAddr = nullptr;
    void *cosDeviceAddr = nullptr;
    void *sinDeviceAddr = nullptr;
    aclTensor *dy = nullptr;
    aclTensor *cos = nullptr;
    aclTensor *sin = nullptr;
    ret = CreateAclTensor(dyHostData, dyShape, &dyDeviceAddr, aclDataType::ACL_FLOAT, &dy);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(cosHostData, cosShape, &cosDeviceAddr, aclDataType::ACL_FLOAT, &cos);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(sinHostData, cosShape, &sinDeviceAddr, aclDataType::ACL_FLOAT, &sin);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    int64_t rotaryMode = 1;
    std::vector<int64_t> sliceData = {start, end};
    aclIntArray *partialSlice = aclCreateIntArray(sliceData.data(), sliceData.size());
    CHECK_RET(partialSlice != nullptr, LOG_PRINT("aclCreateIntArray failed\n"); return -1);

    // 4. Phase 1: validate and plan; phase 2: queue the work on the stream.
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    ret = aclnnInplacePartialRotaryMulGradGetWorkspaceSize(dy, cos, sin, rotaryMode, partialSlice,
                                                           &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnInplacePartialRotaryMulGradGetWorkspaceSize failed: %d (%s)\n", ret,
                        aclGetRecentErrMsg());
              return ret);
    void *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("workspace allocation failed: %d\n", ret);
                  return ret);
    }
    ret = aclnnInplacePartialRotaryMulGrad(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplacePartialRotaryMulGrad failed: %d (%s)\n",
                                            ret, aclGetRecentErrMsg());
              return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed: %d\n", ret);
              return ret);

    // 5. Copy dx back, print a few values and check all of them.
    std::vector<float> resultData(dyHostData.size());
    auto bytes = resultData.size() * sizeof(float);
    ret = aclrtMemcpy(resultData.data(), bytes, dyDeviceAddr, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result failed: %d\n", ret); return ret);
    for (int64_t i = 0; i < 4; i++) {
        LOG_PRINT("dy[%lld] = %.6f -> dx[%lld] = %.6f\n", static_cast<long long>(i), dyHostData[i],
                  static_cast<long long>(i), resultData[i]);
    }
    int64_t bad = CheckGrad(dyHostData, resultData, cosHostData, sinHostData, len);
    LOG_PRINT("%s: %lld mismatches in %lld elements\n", bad == 0 ? "PASS" : "FAIL",
              static_cast<long long>(bad), static_cast<long long>(len));

    // 6. Release everything.
    aclDestroyTensor(dy);
    aclDestroyTensor(cos);
    aclDestroyTensor(sin);
    aclDestroyIntArray(partialSlice);
    aclrtFree(dyDeviceAddr);
    aclrtFree(cosDeviceAddr);
    aclrtFree(sinDeviceAddr);
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return bad == 0 ? 0 : 1;
}
