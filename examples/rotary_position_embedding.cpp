/* aclnnRotaryPositionEmbedding in the CANN two-phase style (bf16, out of place).
 *
 * x is [B=2, S=16, N=8, D=64] in bf16; cos and sin are bf16 [1, 16, 1, 64]: one row per
 * position, broadcast over the batches and the heads. Mode 1 (interleave) turns each
 * adjacent pair (2i, 2i+1) of every head by the angle s * 10000^(-2i/64). The result goes to
 * a separate out tensor and x must come back unchanged. Every element of out is checked
 * against a float64 reference (SPEC sections 3.3 and 15.2, bf16 bound of section 6). The
 * program exits non-zero on any mismatch.
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_rotary_position_embedding.h"

#define CHECK_RET(cond, return_expr)                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            return_expr;                                                                           \
        }                                                                                          \
    } while (0)

#define LOG_PRINT(...) printf(__VA_ARGS__)

const int64_t B = 2, S = 16, N = 8, D = 64;

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

// Copies hostData to a new device buffer and describes it as a contiguous 4-D ND tensor.
int CreateAclTensor(const std::vector<uint16_t> &hostData, const std::vector<int64_t> &shape,
                    void **deviceAddr, aclTensor **tensor) {
    auto size = hostData.size() * sizeof(uint16_t);
    auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
        strides[i] = shape[i + 1] * strides[i + 1];
    }
    *tensor = aclCreateTensor(shape.data(), shape.size(), ACL_BF16, strides.data(), 0,
                              ACL_FORMAT_ND, shape.data(), shape.size(), *deviceAddr);
    CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed\n"); return -1);
    return 0;
}

// Interleave mode in float64: u[2i] = a*c - b*s, u[2i+1] = b*c' + a*s' for the pair
// (a, b) = (x[2i], x[2i+1]), within 8e-3 * (|t1| + |t2|) + 2^-133. Returns the mismatches.
int64_t Check(const std::vector<uint16_t> &x, const std::vector<uint16_t> &out,
              const std::vector<uint16_t> &cosv, const std::vector<uint16_t> &sinv) {
    int64_t bad = 0;
    for (int64_t row = 0; row < B * S * N; row++) {
        const int64_t s = row / N % S;
        for (int64_t j = 0; j < D; j++) {
            const int64_t at = row * D + j, even = j % 2 == 0;
            const double a = Bf16ToDouble(x[at]), b = Bf16ToDouble(x[even ? at + 1 : at - 1]);
            const double c = Bf16ToDouble(cosv[s * D + j]), sn = Bf16ToDouble(sinv[s * D + j]);
            const double t1 = a * c, t2 = b * sn;
            const double want = even ? t1 - t2 : t1 + t2;
            const double got = Bf16ToDouble(out[at]);
            if (!(std::fabs(got - want) <=
                  8e-3 * (std::fabs(t1) + std::fabs(t2)) + std::ldexp(1.0, -133)) &&
                bad++ < 5) {
                LOG_PRINT("mismatch at row %lld col %lld: got %.6g, want %.6g\n",
                          static_cast<long long>(row), static_cast<long long>(j), got, want);
            }
        }
    }
    return bad;
}

int main() {
    // 1. Device and stream.
    int32_t deviceId = 0;
    aclrtStream stream;
    auto ret = aclInit(nullptr);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclInit failed: %d\n", ret); return ret);
    ret = aclrtSetDevice(deviceId);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSetDevice failed: %d\n", ret); return ret);
    ret = aclrtCreateStream(&stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtCreateStream failed: %d\n", ret); return ret);

    // 2. Host data: x at random, both members of pair i turned by s * 10000^(-2i/D).
    std::vector<int64_t> xShape = {B, S, N, D}, csShape = {1, S, 1, D};
    std::vector<uint16_t> xHostData(B * S * N * D), outHostData(xHostData.size(), 0);
    std::vector<uint16_t> cosHostData(S * D), sinHostData(S * D);
    uint32_t seed = 7;
    for (auto &value : xHostData) {
        value = FloatToBf16(2.0f * NextRandom(&seed));
    }
    for (int64_t s = 0; s < S; s++) {
        for (int64_t j = 0; j < D; j++) {
            double angle = s * std::pow(10000.0, -2.0 * (j / 2) / D);
            cosHostData[s * D + j] = FloatToBf16(static_cast<float>(std::cos(angle)));
            sinHostData[s * D + j] = FloatToBf16(static_cast<float>(std::sin(angle)));
        }
    }

    // 3. Device tensors: x, cos, sin and the out tensor (x's shape and dtype).
    void *xDeviceAddr = nullptr, *cosDeviceAddr = nullptr, *sinDeviceAddr = nullptr;
    void *outDeviceAddr = nullptr;
    aclTensor *x = nullptr, *cos = nullptr, *sin = nullptr, *out = nullptr;
    ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, &x);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(cosHostData, csShape, &cosDeviceAddr, &cos);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(sinHostData, csShape, &sinDeviceAddr, &sin);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    ret = CreateAclTensor(outHostData, xShape, &outDeviceAddr, &out);
    CHECK_RET(ret == ACL_SUCCESS, return ret);
    int64_t mode = 1; // interleave

    // 4. Phase 1: validate and plan; phase 2: queue the work on the stream.
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    ret = aclnnRotaryPositionEmbeddingGetWorkspaceSize(x, cos, sin, mode, out, &workspaceSize,
                                                       &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnRotaryPositionEmbeddingGetWorkspaceSize failed: %d (%s)\n", ret,
                        aclGetRecentErrMsg());
              return ret);
    void *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("workspace allocation failed: %d\n", ret);
                  return ret);
    }
    ret = aclnnRotaryPositionEmbedding(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnRotaryPositionEmbedding failed: %d (%s)\n", ret,
                                            aclGetRecentErrMsg());
              return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed: %d\n", ret);
              return ret);

    // 5. Copy out and x back: out against the reference, x bit for bit as it was.
    std::vector<uint16_t> result(xHostData.size()), xAfter(xHostData.size());
    const size_t bytes = result.size() * sizeof(uint16_t);
    ret = aclrtMemcpy(result.data(), bytes, outDeviceAddr, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy out failed: %d\n", ret); return ret);
    ret = aclrtMemcpy(xAfter.data(), bytes, xDeviceAddr, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy x failed: %d\n", ret); return ret);
    const int64_t shown = ((1 * S + 3) * N + 5) * D; // x[1,3,5,:]
    for (int64_t j = 0; j < 4; j++) {
        LOG_PRINT("x[1,3,5,%lld]: %.4f -> out %.4f\n", static_cast<long long>(j),
                  Bf16ToDouble(xHostData[shown + j]), Bf16ToDouble(result[shown + j]));
    }
    int64_t bad = Check(xHostData, result, cosHostData, sinHostData);
    if (std::memcmp(xAfter.data(), xHostData.data(), bytes) != 0) {
        LOG_PRINT("x was modified\n");
        bad++;
    }
    LOG_PRINT("%s: %lld mismatches in %lld elements\n", bad == 0 ? "PASS" : "FAIL",
              static_cast<long long>(bad), static_cast<long long>(result.size()));

    // 6. Release everything.
    aclDestroyTensor(x);
    aclDestroyTensor(cos);
    aclDestroyTensor(sin);
    aclDestroyTensor(out);
    aclrtFree(xDeviceAddr);
    aclrtFree(cosDeviceAddr);
    aclrtFree(sinDeviceAddr);
    aclrtFree(outDeviceAddr);
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return bad == 0 ? 0 : 1;
}
