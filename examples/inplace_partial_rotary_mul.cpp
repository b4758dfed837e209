/* aclnnInplacePartialRotaryMul in the CANN two-phase style (fp32).
 *
 * x is [96,1,1,512]; only its last 64 channels, partialSlice [448,512), are rotated
 * in place, in interleave mode (rotary_mode 1): each adjacent pair (2i, 2i+1) of the
 * slice is turned by the angle stored in cos/sin [96,1,1,64]. The program prints a few
 * values and checks every element against a float64 reference (SPEC section 3.3,
 * bound of section 6). It exits non-zero on any mismatch.
 */
#include <iostream>
#include <vector>
#include <cmath>
#include <cstdint>
#include <cstring>
#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"

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

// Checks the rotated slice against SPEC 3.3 (interleave) computed in float64, with
// |out - ref| <= 1e-5 * (|a*c| + |b*s|) + (smallest fp32 subnormal), and checks that the
// channels outside the slice are bit-for-bit unchanged. Returns the number of mismatches.
int64_t CheckForward(const std::vector<float> &x, const std::vector<float> &out,
                     const std::vector<float> &cosv, const std::vector<float> &sinv, int64_t rows,
                     int64_t d, int64_t start, int64_t end) {
    const int64_t len = end - start;
    int64_t bad = 0;
    for (int64_t r = 0; r < rows; r++) {
        const float *v = &x[r * d + start];
        const float *c = &cosv[r * len];
        const float *s = &sinv[r * len];
        for (int64_t i = 0; i < len; i += 2) {
            double a = v[i], b = v[i + 1];
            double ref[2] = {a * c[i] - b * s[i], b * c[i + 1] + a * s[i + 1]};
            double mag[2] = {std::fabs(a * c[i]) + std::fabs(b * s[i]),
                             std::fabs(b * c[i + 1]) + std::fabs(a * s[i + 1])};
            for (int k = 0; k < 2; k++) {
                double got = out[r * d + start + i + k];
                if (!(std::fabs(got - ref[k]) <= 1e-5 * mag[k] + 1.4e-45)) {
                    if (bad++ < 5) {
                        LOG_PRINT("mismatch at row %lld col %lld: got %.9g, want %.9g\n",
                                  static_cast<long long>(r), static_cast<long long>(start + i + k),
                                  got, ref[k]);
                    }
                }
            }
        }
        for (int64_t j = 0; j < d; j++) {
            bool outside = j < start || j >= end;
            if (outside && std::memcmp(&x[r * d + j], &out[r * d + j], sizeof(float)) != 0) {
                if (bad++ < 5) {
                    LOG_PRINT("row %lld col %lld outside the slice was modified\n",
                              static_cast<long long>(r), static_cast<long long>(j));
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

    // 2. Host data. Row r of x is the token at position r; pair i of the slice turns by
    //    the angle r * 10000^(-2i/64), so cos/sin hold that angle twice per pair.
    const int64_t rows = 96, d = 512, start = 448, end = 512, len = end - start;
    std::vector<int64_t> xShape = {rows, 1, 1, d};
    std::vector<int64_t> cosShape = {rows, 1, 1, len};
    std::vector<float> xHostData(rows * d);
    std::vector<float> cosHostData(rows * len);
    std::vector<float> sinHostData(rows * len);
    uint32_t seed = 2024;
    for (auto &value : xHostData) {
        value = NextRandom(&seed);
    }
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t i = 0; i < len / 2; i++) {
            double angle = r * std::pow(10000.0, -2.0 * i / len);
            cosHostData[r * len + 2 * i] = cosHostData[r * len + 2 * i + 1] = std::cos(angle);
            sinHostData[r * len + 2 * i] = sinHostData[r * len + 2 * i + 1] = std::sin(angle);
        }
    }

    // 3. Device tensors and the slice attribute.
    void *xDeviceAddr = nullptr;
    void *cosDeviceAddr = nullptr;
    void *sinDeviceAddr = nullptr;
    aclTensor *x = nullptr;
    aclTensor *cos = nullptr;
    aclTensor *sin = nullptr;
    ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
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
    ret = aclnnInplacePartialRotaryMulGetWorkspaceSize(x, cos, sin, rotaryMode, partialSlice,
                                                       &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnInplacePartialRotaryMulGetWorkspaceSize failed: %d (%s)\n", ret,
                        aclGetRecentErrMsg());
              return ret);
    void *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("workspace allocation failed: %d\n", ret);
                  return ret);
    }
    ret = aclnnInplacePartialRotaryMul(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnInplacePartialRotaryMul failed: %d (%s)\n", ret,
                                            aclGetRecentErrMsg());
              return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed: %d\n", ret);
              return ret);

    // 5. Copy x back, print a few rotated values and check all of them.
    std::vector<float> resultData(xHostData.size());
    auto bytes = resultData.size() * sizeof(float);
    ret = aclrtMemcpy(resultData.data(), bytes, xDeviceAddr, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy result failed: %d\n", ret); return ret);
    const int64_t row = 5;
    for (int64_t j = start; j < start + 4; j++) {
        LOG_PRINT("x[%lld,0,0,%lld]: %.6f -> %.6f\n", static_cast<long long>(row),
                  static_cast<long long>(j), xHostData[row * d + j], resultData[row * d + j]);
    }
    int64_t bad =
        CheckForward(xHostData, resultData, cosHostData, sinHostData, rows, d, start, end);
    LOG_PRINT("%s: %lld mismatches in %lld elements\n", bad == 0 ? "PASS" : "FAIL",
              static_cast<long long>(bad), static_cast<long long>(rows * d));

    // 6. Release everything.
    aclDestroyTensor(x);
    aclDestroyTensor(cos);
    aclDestroyTensor(sin);
    aclDestroyIntArray(partialSlice);
    aclrtFree(xDeviceAddr);
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
