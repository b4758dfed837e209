// Install test client (C++11): uses only the installed headers and library.
//
// Every (x, cos/sin) dtype pair the aclnn face accepts is run through the forward op
// (5 pairs) and the gradient (9 pairs) on several shapes: CANN's own example shape,
// a BS1D broadcast with a partial slice, 1SND and 11ND broadcasts, and a case with
// +-inf and NaN in x. The rotation of each pair is written as a 2x2 matrix M (forward)
// and its transpose (gradient), evaluated in double; results must match within the
// SPEC section 6 bound, NaN where the reference is NaN, the same infinity where the
// reference is infinite, and bytes outside the slice must be unchanged.
// The gradient header is included through its aclnnop/level2/ forwarder on purpose.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/level2/aclnn_inplace_partial_rotary_mul_grad.h"

namespace {

// Storage formats: bit layout, ACL id and the SPEC section 6 tolerance of a result.
struct F16Bits {
    uint16_t bits;
    static const aclDataType kId = ACL_FLOAT16;
    static const char *Name() { return "fp16"; }
    static double Rtol() { return 1e-3; }
    static double Atol() { return std::ldexp(1.0, -24); }
    static double ToDouble(F16Bits h) {
        int e = (h.bits >> 10) & 31;
        double mant = h.bits & 1023;
        double v = e == 0
                       ? std::ldexp(mant, -24)
                       : (e == 31 ? (mant != 0 ? NAN : INFINITY) : std::ldexp(mant + 1024, e - 25));
        return (h.bits & 0x8000) ? -v : v;
    }
    // sign, unbiased exponent in [-14, 15], 10 mantissa bits
    static F16Bits Make(bool neg, int exp2, uint32_t mant) {
        return F16Bits{
            static_cast<uint16_t>((neg ? 0x8000 : 0) | (exp2 + 15) << 10 | (mant & 1023))};
    }
    static F16Bits Inf(bool neg) { return F16Bits{static_cast<uint16_t>(neg ? 0xfc00 : 0x7c00)}; }
    static F16Bits NaN() { return F16Bits{0x7e00}; }
};

struct BF16Bits {
    uint16_t bits;
    static const aclDataType kId = ACL_BF16;
    static const char *Name() { return "bf16"; }
    static double Rtol() { return 8e-3; }
    static double Atol() { return std::ldexp(1.0, -133); }
    static double ToDouble(BF16Bits b) {
        uint32_t u = static_cast<uint32_t>(b.bits) << 16;
        float f;
        std::memcpy(&f, &u, sizeof f);
        return f;
    }
    static BF16Bits Make(bool neg, int exp2, uint32_t mant) {
        return BF16Bits{
            static_cast<uint16_t>((neg ? 0x8000 : 0) | (exp2 + 127) << 7 | (mant & 127))};
    }
    static BF16Bits Inf(bool neg) { return BF16Bits{static_cast<uint16_t>(neg ? 0xff80 : 0x7f80)}; }
    static BF16Bits NaN() { return BF16Bits{0x7fc0}; }
};

struct F32Bits {
    float value;
    static const aclDataType kId = ACL_FLOAT;
    static const char *Name() { return "fp32"; }
    static double Rtol() { return 1e-5; }
    static double Atol() { return std::ldexp(1.0, -149); }
    static double ToDouble(F32Bits f) { return f.value; }
    static F32Bits Make(bool neg, int exp2, uint32_t mant) {
        return F32Bits{static_cast<float>(
            std::ldexp((neg ? -1.0 : 1.0) * (1.0 + (mant & 0x7fffff) / 8388608.0), exp2))};
    }
    static F32Bits Inf(bool neg) { return F32Bits{neg ? -INFINITY : INFINITY}; }
    static F32Bits NaN() { return F32Bits{NAN}; }
};

class Random {
  public:
    explicit Random(uint64_t seed) : state_(seed * 2654435761u + 1) {}
    uint32_t Next() { // 64-bit LCG, upper bits
        state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<uint32_t>(state_ >> 32);
    }
    // Random sign and mantissa; exponent in [lowExp, lowExp + spread).
    template <typename T> T Value(int lowExp, int spread) {
        uint32_t r = Next();
        return T::Make((r & 1) != 0, lowExp + static_cast<int>((r >> 1) % spread), Next());
    }

  private:
    uint64_t state_;
};

struct Shape4 {
    int64_t d[4];
    int64_t Count() const { return d[0] * d[1] * d[2] * d[3]; }
};

struct Case {
    std::string name;
    Shape4 x, cs;
    int64_t start, end;
    bool specials; // put +inf, -inf and NaN into x
};

// A host vector mirrored into device memory, wrapped as a contiguous ND aclTensor.
template <typename T> class DeviceTensor {
  public:
    DeviceTensor(const std::vector<T> &host, const Shape4 &shape)
        : bytes_(host.size() * sizeof(T)) {
        if (aclrtMalloc(&device_, bytes_, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
            aclrtMemcpy(device_, bytes_, host.data(), bytes_, ACL_MEMCPY_HOST_TO_DEVICE) !=
                ACL_SUCCESS) {
            return;
        }
        std::vector<int64_t> strides = {shape.d[1] * shape.d[2] * shape.d[3],
                                        shape.d[2] * shape.d[3], shape.d[3], 1};
        tensor_ = aclCreateTensor(shape.d, 4, T::kId, strides.data(), 0, aclFormat::ACL_FORMAT_ND,
                                  shape.d, 4, device_);
    }
    ~DeviceTensor() {
        if (tensor_ != nullptr) {
            aclDestroyTensor(tensor_);
        }
        if (device_ != nullptr) {
            aclrtFree(device_);
        }
    }
    DeviceTensor(const DeviceTensor &) = delete;
    DeviceTensor &operator=(const DeviceTensor &) = delete;

    aclTensor *Get() const { return tensor_; }
    bool Read(std::vector<T> *host) const {
        return aclrtMemcpy(host->data(), bytes_, device_, bytes_, ACL_MEMCPY_DEVICE_TO_HOST) ==
               ACL_SUCCESS;
    }

  private:
    size_t bytes_;
    void *device_ = nullptr;
    aclTensor *tensor_ = nullptr;
};

enum class Op { kForward, kGrad };

aclnnStatus Launch(Op op, aclTensor *x, aclTensor *cosT, aclTensor *sinT, aclIntArray *slice,
                   aclrtStream stream) {
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    aclnnStatus ret = op == Op::kForward ? aclnnInplacePartialRotaryMulGetWorkspaceSize(
                                               x, cosT, sinT, 1, slice, &workspaceSize, &executor)
                                         : aclnnInplacePartialRotaryMulGradGetWorkspaceSize(
                                               x, cosT, sinT, 1, slice, &workspaceSize, &executor);
    if (ret != ACLNN_SUCCESS) {
        return ret;
    }
    void *workspace = nullptr;
    if (workspaceSize > 0 &&
        aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return ACLNN_ERR_INNER;
    }
    ret = op == Op::kForward
              ? aclnnInplacePartialRotaryMul(workspace, workspaceSize, executor, stream)
              : aclnnInplacePartialRotaryMulGrad(workspace, workspaceSize, executor, stream);
    if (ret == ACLNN_SUCCESS) {
        ret = aclrtSynchronizeStream(stream);
    }
    if (workspace != nullptr) {
        aclrtFree(workspace);
    }
    return ret;
}

// One result element against its double reference sum t0 + t1.
template <typename X> bool Close(double got, double t0, double t1) {
    double ref = t0 + t1;
    if (std::isnan(ref)) {
        return std::isnan(got);
    }
    if (std::isinf(ref)) {
        return got == ref;
    }
    return std::fabs(got - ref) <= X::Rtol() * (std::fabs(t0) + std::fabs(t1)) + X::Atol();
}

template <typename X, typename C> bool RunCase(Op op, const Case &tc, aclrtStream stream) {
    static uint64_t seed = 1;
    Random rng(seed++);
    const int64_t dim = tc.x.d[3], len = tc.end - tc.start, rows = tc.x.Count() / dim;
    std::vector<X> x(tc.x.Count());
    std::vector<C> cosv(tc.cs.Count()), sinv(tc.cs.Count());
    for (auto &v : x) {
        v = rng.Value<X>(-3, 5);
    }
    for (size_t i = 0; i < cosv.size(); i++) {
        cosv[i] = rng.Value<C>(-6, 6);
        sinv[i] = rng.Value<C>(-6, 6);
    }
    if (tc.specials) {
        for (int64_t r = 0; r < rows; r += 3) {
            int64_t base = r * dim + tc.start + (r % len);
            x[base] = X::Inf(r % 2 == 0);
            x[(base + 5) % x.size()] = X::NaN();
        }
    }

    std::vector<X> out(x.size());
    std::vector<int64_t> sliceValues = {tc.start, tc.end};
    aclIntArray *slice = aclCreateIntArray(sliceValues.data(), sliceValues.size());
    aclnnStatus status = ACLNN_ERR_INNER;
    {
        DeviceTensor<X> xDev(x, tc.x);
        DeviceTensor<C> cosDev(cosv, tc.cs), sinDev(sinv, tc.cs);
        if (slice != nullptr && xDev.Get() && cosDev.Get() && sinDev.Get()) {
            status = Launch(op, xDev.Get(), cosDev.Get(), sinDev.Get(), slice, stream);
            if (status == ACLNN_SUCCESS && !xDev.Read(&out)) {
                status = ACLNN_ERR_INNER;
            }
        }
    }
    aclDestroyIntArray(slice);

    int64_t bad = 0;
    if (status != ACLNN_SUCCESS) {
        std::printf("    aclnn status %d: %s\n", static_cast<int>(status), aclGetRecentErrMsg());
        bad = 1;
    }
    for (int64_t r = 0; r < rows && status == ACLNN_SUCCESS; r++) {
        const int64_t i0 = r / (tc.x.d[1] * tc.x.d[2]), i1 = (r / tc.x.d[2]) % tc.x.d[1],
                      i2 = r % tc.x.d[2];
        const int64_t cr =
            ((tc.cs.d[0] == 1 ? 0 : i0) * tc.cs.d[1] + (tc.cs.d[1] == 1 ? 0 : i1)) * tc.cs.d[2] +
            (tc.cs.d[2] == 1 ? 0 : i2);
        for (int64_t j = 0; j < dim; j++) {
            if ((j < tc.start || j >= tc.end) &&
                std::memcmp(&x[r * dim + j], &out[r * dim + j], sizeof(X)) != 0) {
                bad++;
            }
        }
        for (int64_t p = 0; p < len; p += 2) {
            // Forward M = [[c0, -s0], [s1, c1]] maps (a, b) to (u0, u1); the gradient
            // applies M^T = [[c0, s1], [-s0, c1]].
            const double a = X::ToDouble(x[r * dim + tc.start + p]);
            const double b = X::ToDouble(x[r * dim + tc.start + p + 1]);
            const double c0 = C::ToDouble(cosv[cr * len + p]),
                         c1 = C::ToDouble(cosv[cr * len + p + 1]);
            const double s0 = C::ToDouble(sinv[cr * len + p]),
                         s1 = C::ToDouble(sinv[cr * len + p + 1]);
            const double m01 = op == Op::kForward ? -s0 : s1;
            const double m10 = op == Op::kForward ? s1 : -s0;
            const double u0 = X::ToDouble(out[r * dim + tc.start + p]);
            const double u1 = X::ToDouble(out[r * dim + tc.start + p + 1]);
            if (!Close<X>(u0, c0 * a, m01 * b) || !Close<X>(u1, m10 * a, c1 * b)) {
                if (bad < 3) {
                    std::printf("    row %lld pair %lld: got (%.8g, %.8g), want (%.8g, %.8g)\n",
                                static_cast<long long>(r), static_cast<long long>(p), u0, u1,
                                c0 * a + m01 * b, m10 * a + c1 * b);
                }
                bad++;
            }
        }
    }
    std::printf("%s %-8s %s/%s  %s\n", bad == 0 ? "ok  " : "FAIL",
                op == Op::kForward ? "forward" : "grad", X::Name(), C::Name(), tc.name.c_str());
    return bad == 0;
}

template <typename X, typename C>
void RunAll(Op op, const std::vector<Case> &cases, int *failed, int *total, aclrtStream stream) {
    for (const auto &tc : cases) {
        ++*total;
        if (!RunCase<X, C>(op, tc, stream)) {
            ++*failed;
        }
    }
}

} // namespace

int main() {
    aclrtStream stream = nullptr;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS ||
        aclrtCreateStream(&stream) != ACL_SUCCESS) {
        std::printf("ACL initialisation failed: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    const std::vector<Case> cases = {
        {"example [96,1,1,512] slice [448,512)",
         {{96, 1, 1, 512}},
         {{96, 1, 1, 64}},
         448,
         512,
         false},
        {"BS1D [3,4,2,64] slice [8,56)", {{3, 4, 2, 64}}, {{3, 4, 1, 48}}, 8, 56, false},
        {"1SND [2,3,2,16] full", {{2, 3, 2, 16}}, {{1, 3, 2, 16}}, 0, 16, false},
        {"11ND [2,2,5,30] slice [25,29)", {{2, 2, 5, 30}}, {{1, 1, 5, 4}}, 25, 29, false},
        {"inf/NaN [4,2,3,32] slice [0,24)", {{4, 2, 3, 32}}, {{4, 2, 1, 24}}, 0, 24, true},
    };
    int failed = 0, total = 0;
    RunAll<F16Bits, F16Bits>(Op::kForward, cases, &failed, &total, stream);
    RunAll<BF16Bits, BF16Bits>(Op::kForward, cases, &failed, &total, stream);
    RunAll<F32Bits, F32Bits>(Op::kForward, cases, &failed, &total, stream);
    RunAll<F16Bits, F32Bits>(Op::kForward, cases, &failed, &total, stream);
    RunAll<BF16Bits, F32Bits>(Op::kForward, cases, &failed, &total, stream);
    RunAll<F16Bits, F16Bits>(Op::kGrad, cases, &failed, &total, stream);
    RunAll<F16Bits, BF16Bits>(Op::kGrad, cases, &failed, &total, stream);
    RunAll<F16Bits, F32Bits>(Op::kGrad, cases, &failed, &total, stream);
    RunAll<BF16Bits, F16Bits>(Op::kGrad, cases, &failed, &total, stream);
    RunAll<BF16Bits, BF16Bits>(Op::kGrad, cases, &failed, &total, stream);
    RunAll<BF16Bits, F32Bits>(Op::kGrad, cases, &failed, &total, stream);
    RunAll<F32Bits, F16Bits>(Op::kGrad, cases, &failed, &total, stream);
    RunAll<F32Bits, BF16Bits>(Op::kGrad, cases, &failed, &total, stream);
    RunAll<F32Bits, F32Bits>(Op::kGrad, cases, &failed, &total, stream);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("C++ client: %d of %d cases failed\n", failed, total);
    return failed == 0 ? 0 : 1;
}
