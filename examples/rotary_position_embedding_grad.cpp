/* aclnnRotaryPositionEmbeddingGrad in the CANN two-phase style (fp32, mode 0 half).
 *
 * The forward was out = x*cos + rotate_half(x)*sin with x [B=2, S=8, N=4, D=64] and cos,
 * sin [1, 8, 1, 64] broadcast over the batches and the heads. Given dy (the gradient of
 * out) and the forward's x, the call writes
 *   dx   = dy rotated back (the transpose of the rotation, SPEC section 4.2),
 *   dcos = the sum over b and n of dy * x,
 *   dsin = the sum over b and n of dy * rotate_half(x), rotate_half(x) = cat(-x2, x1),
 * dcos and dsin of cos's shape (SPEC section 16.2). All three are checked against a float64
 * reference within the fp32 bound of SPEC section 6 (for a sum, mag is the sum of the
 * magnitudes of its products). The program exits non-zero on any mismatch.
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>
#include "acl/acl.h"
#include "aclnnop/aclnn_rotary_position_embedding_grad.h"

#define CHECK_RET(cond, return_expr)                                                               \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            return_expr;                                                                           \
        }                                                                                          \
    } while (0)

#define LOG_PRINT(...) printf(__VA_ARGS__)

const int64_t B = 2, S = 8, N = 4, D = 64, H = D / 2;

// Deterministic pseudo-random numbers in [-1, 1) (xorshift32).
float NextRandom(uint32_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return static_cast<float>(*state >> 8) / 8388608.0f - 1.0f;
}

// Copies hostData to a new device buffer and describes it as a contiguous fp32 ND tensor.
int CreateAclTensor(const std::vector<float> &hostData, const std::vector<int64_t> &shape,
                    void **deviceAddr, aclTensor **tensor) {
    auto size = hostData.size() * sizeof(float);
    auto ret = aclrtMalloc(deviceAddr, size, ACL_MEM_MALLOC_HUGE_FIRST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMalloc failed: %d\n", ret); return ret);
    ret = aclrtMemcpy(*deviceAddr, size, hostData.data(), size, ACL_MEMCPY_HOST_TO_DEVICE);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtMemcpy failed: %d\n", ret); return ret);
    std::vector<int64_t> strides(shape.size(), 1);
    for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; i--) {
        strides[i] = shape[i + 1] * strides[i + 1];
    }
    *tensor = aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, strides.data(), 0,
                              ACL_FORMAT_ND, shape.data(), shape.size(), *deviceAddr);
    CHECK_RET(*tensor != nullptr, LOG_PRINT("aclCreateTensor failed\n"); return -1);
    return 0;
}

int CopyBack(std::vector<float> *host, void *deviceAddr) {
    const size_t bytes = host->size() * sizeof(float);
    auto ret = aclrtMemcpy(host->data(), bytes, deviceAddr, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("copy back failed: %d\n", ret); return ret);
    return 0;
}

// One element against its float64 reference: |got - want| <= 1e-5 * mag + 2^-149.
// Returns 1 on a mismatch and prints the first few.
int64_t Mismatch(const char *name, int64_t at, float got, double want, double mag) {
    static int printed = 0;
    if (std::fabs(got - want) <= 1e-5 * mag + std::ldexp(1.0, -149)) {
        return 0;
    }
    if (printed++ < 5)
        LOG_PRINT("%s mismatch at %lld: got %.9g, want %.9g\n", name, static_cast<long long>(at),
                  got, want);
    return 1;
}

int64_t Check(const std::vector<float> &dy, const std::vector<float> &x,
              const std::vector<float> &cosv, const std::vector<float> &sinv,
              const std::vector<float> &dx, const std::vector<float> &dcos,
              const std::vector<float> &dsin) {
    int64_t bad = 0;
    std::vector<double> sumCos(S * D, 0.0), sumSin(S * D, 0.0);
    std::vector<double> magCos(S * D, 0.0), magSin(S * D, 0.0);
    for (int64_t row = 0; row < B * S * N; row++) {
        const int64_t s = row / N % S;
        const float *g = &dy[row * D], *v = &x[row * D];
        const float *c = &cosv[s * D], *sn = &sinv[s * D];
        // dx: w[j] = c[j] g[j] + s[j+h] g[j+h], w[j+h] = c[j+h] g[j+h] - s[j] g[j].
        for (int64_t j = 0; j < H; j++) {
            const double t[4] = {
                c[j] * static_cast<double>(g[j]), sn[j + H] * static_cast<double>(g[j + H]),
                c[j + H] * static_cast<double>(g[j + H]), sn[j] * static_cast<double>(g[j])};
            bad += Mismatch("dx", row * D + j, dx[row * D + j], t[0] + t[1],
                            std::fabs(t[0]) + std::fabs(t[1]));
            bad += Mismatch("dx", row * D + j + H, dx[row * D + j + H], t[2] - t[3],
                            std::fabs(t[2]) + std::fabs(t[3]));
        }
        for (int64_t j = 0; j < D; j++) {
            const double rotated = j < H ? -static_cast<double>(v[j + H]) : v[j - H];
            const double pc = static_cast<double>(g[j]) * v[j], ps = g[j] * rotated;
            sumCos[s * D + j] += pc;
            magCos[s * D + j] += std::fabs(pc);
            sumSin[s * D + j] += ps;
            magSin[s * D + j] += std::fabs(ps);
        }
    }
    for (int64_t i = 0; i < S * D; i++) {
        bad += Mismatch("dcos", i, dcos[i], sumCos[i], magCos[i]);
        bad += Mismatch("dsin", i, dsin[i], sumSin[i], magSin[i]);
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

    // 2. Host data: dy and x at random; half-layout tables, channel j and j + 32 share the
    //    angle s * 10000^(-2j/D).
    std::vector<int64_t> xShape = {B, S, N, D}, csShape = {1, S, 1, D};
    std::vector<float> dyHost(B * S * N * D), xHost(dyHost.size()), cosHost(S * D), sinHost(S * D);
    uint32_t seed = 31;
    for (size_t i = 0; i < dyHost.size(); i++) {
        dyHost[i] = NextRandom(&seed);
        xHost[i] = 3.0f * NextRandom(&seed);
    }
    for (int64_t s = 0; s < S; s++) {
        for (int64_t j = 0; j < D; j++) {
            double angle = s * std::pow(10000.0, -2.0 * (j % H) / D);
            cosHost[s * D + j] = static_cast<float>(std::cos(angle));
            sinHost[s * D + j] = static_cast<float>(std::sin(angle));
        }
    }
    std::vector<float> dxHost(dyHost.size(), 0.0f), dcosHost(S * D, 0.0f), dsinHost(S * D, 0.0f);

    // 3. Device tensors: the inputs dy, cos, sin, x and the outputs dx, dcos, dsin.
    void *addr[7] = {nullptr};
    aclTensor *dy = nullptr, *cos = nullptr, *sin = nullptr, *x = nullptr;
    aclTensor *dx = nullptr, *dcos = nullptr, *dsin = nullptr;
    CHECK_RET(CreateAclTensor(dyHost, xShape, &addr[0], &dy) == 0 &&
                  CreateAclTensor(cosHost, csShape, &addr[1], &cos) == 0 &&
                  CreateAclTensor(sinHost, csShape, &addr[2], &sin) == 0 &&
                  CreateAclTensor(xHost, xShape, &addr[3], &x) == 0 &&
                  CreateAclTensor(dxHost, xShape, &addr[4], &dx) == 0 &&
                  CreateAclTensor(dcosHost, csShape, &addr[5], &dcos) == 0 &&
                  CreateAclTensor(dsinHost, csShape, &addr[6], &dsin) == 0,
              return 1);
    int64_t mode = 0; // half

    // 4. Phase 1: validate and plan; phase 2: queue the work on the stream.
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    ret = aclnnRotaryPositionEmbeddingGradGetWorkspaceSize(dy, cos, sin, x, mode, dx, dcos, dsin,
                                                           &workspaceSize, &executor);
    CHECK_RET(ret == ACL_SUCCESS,
              LOG_PRINT("aclnnRotaryPositionEmbeddingGradGetWorkspaceSize failed: %d (%s)\n", ret,
                        aclGetRecentErrMsg());
              return ret);
    void *workspaceAddr = nullptr;
    if (workspaceSize > 0) {
        ret = aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("workspace allocation failed: %d\n", ret);
                  return ret);
    }
    ret = aclnnRotaryPositionEmbeddingGrad(workspaceAddr, workspaceSize, executor, stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclnnRotaryPositionEmbeddingGrad failed: %d (%s)\n",
                                            ret, aclGetRecentErrMsg());
              return ret);
    ret = aclrtSynchronizeStream(stream);
    CHECK_RET(ret == ACL_SUCCESS, LOG_PRINT("aclrtSynchronizeStream failed: %d\n", ret);
              return ret);

    // 5. Copy the three gradients back, print a few and check all of them.
    CHECK_RET(CopyBack(&dxHost, addr[4]) == 0 && CopyBack(&dcosHost, addr[5]) == 0 &&
                  CopyBack(&dsinHost, addr[6]) == 0,
              return 1);
    const int64_t shown = ((1 * S + 7) * N + 2) * D; // dy[1,7,2,:]
    for (int64_t j = 0; j < 3; j++) {
        LOG_PRINT("dy[1,7,2,%lld] %.6f -> dx %.6f; dcos[0,7,0,%lld] %.6f, dsin %.6f\n",
                  static_cast<long long>(j), dyHost[shown + j], dxHost[shown + j],
                  static_cast<long long>(j), dcosHost[7 * D + j], dsinHost[7 * D + j]);
    }
    int64_t bad = Check(dyHost, xHost, cosHost, sinHost, dxHost, dcosHost, dsinHost);
    LOG_PRINT("%s: %lld mismatches in %lld dx and %lld dcos/dsin elements\n",
              bad == 0 ? "PASS" : "FAIL", static_cast<long long>(bad),
              static_cast<long long>(dxHost.size()), static_cast<long long>(2 * S * D));

    // 6. Release everything.
    for (aclTensor *tensor : {dy, cos, sin, x, dx, dcos, dsin}) {
        aclDestroyTensor(tensor);
    }
    for (void *deviceAddr : addr) {
        aclrtFree(deviceAddr);
    }
    if (workspaceSize > 0) {
        aclrtFree(workspaceAddr);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(deviceId);
    aclFinalize();
    return bad == 0 ? 0 : 1;
}
