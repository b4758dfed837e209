// Install test client (C++11): uses only the installed headers and library.
//
// Every (x, cos/sin) dtype pair the aclnn face accepts is run through the forward op
// (5 pairs) and the gradient (9 pairs) on several shapes: CANN's own example shape,
// a BS1D broadcast with a partial slice, 1SND and 11ND broadcasts, and a case with
// +-inf and NaN in x. The rotation of each pair is written as a 2x2 matrix M (forward)
// and its transpose (gradient), evaluated in double; results must match within the
// SPEC section 6 bound, NaN where the reference is NaN, the same infinity where the
// reference is infinite, and bytes outside the slice must be unchanged.
//
// RopeWithSinCosCache V1 and V2 run in fp32, fp16 and bf16, NeoX and GPT-J, over rope
// (full and partial rotary, grouped-query head counts, one mode with +-inf and NaN in
// the query) and mrope with every whitelisted section list (cacheMode 0 on V1 and V2,
// cacheMode 1 on V2 for the three-section lists), each in four layouts: separate
// tensors, q/k as row-strided views into one fused qkv allocation (out of place and
// in place), and plain in place. The cos/sin cache comes from the installed
// ropekit_cos_sin_cache_build. The reference maps each frequency to its position row
// (SPEC 5.3), rotates each pair in double (SPEC 5.4) and needs the SPEC 6 bound; all
// other bytes of all allocations must be as before (or the input's pass-through bytes
// in a separate output). Positions out of [0, maxSeqLen) must give 0 from both phases,
// 507015 with a message from aclrtSynchronizeStream, and no change to any byte.
//
// The gradient header and the V1 rope header are included through their
// aclnnop/level2/ forwarders on purpose.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"
#include "aclnnop/level2/aclnn_inplace_partial_rotary_mul_grad.h"
#include "aclnnop/level2/aclnn_rope_with_sin_cos_cache.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"
#include "ropekit/ropekit.h"

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

// ---- RopeWithSinCosCache ----

const int64_t kTokens = 7;
const int64_t kMaxSeqLen = 50;

struct RopeMode {
    std::string name;
    std::vector<int64_t> sections; // empty: mropeSection = nullptr
    int64_t cacheMode;             // V2 only; V1 runs the modes with cacheMode 0
    int64_t headSize, rotaryDim, numQHeads, numKHeads;
    bool specials; // +-inf and NaN in the query
};

bool IsMrope(const RopeMode &mode) {
    return !mode.sections.empty() && mode.sections[0] > 0;
}

// Position row feeding each frequency j < rotaryDim / 2 (SPEC 5.3): consecutive runs
// of the section lengths for cacheMode 0; for cacheMode 1, frequency 3i + r comes from
// row r (r = 1, 2) for i < sections[r], everything else from row 0.
std::vector<int> FrequencyRows(const RopeMode &mode) {
    const int64_t half = mode.rotaryDim / 2;
    std::vector<int> rows(half, 0);
    if (!IsMrope(mode)) {
        return rows;
    }
    if (mode.cacheMode == 0) {
        std::vector<int> runs;
        for (size_t k = 0; k < mode.sections.size(); k++) {
            runs.insert(runs.end(), mode.sections[k], static_cast<int>(k));
        }
        runs.resize(half, -1);
        return runs;
    }
    for (int r = 1; r <= 2; r++) {
        for (int64_t i = 0; i < mode.sections[r] && 3 * i + r < half; i++) {
            rows[3 * i + r] = r;
        }
    }
    return rows;
}

enum class Layout { kSeparate, kFused, kFusedInPlace, kInPlace };
const Layout kLayouts[] = {Layout::kSeparate, Layout::kFused, Layout::kFusedInPlace,
                           Layout::kInPlace};

const char *LayoutName(Layout layout) {
    switch (layout) {
    case Layout::kSeparate:
        return "separate";
    case Layout::kFused:
        return "fused-qkv";
    case Layout::kFusedInPlace:
        return "fused-qkv/in-place";
    default:
        return "in-place";
    }
}

// One device allocation with the host images before and after the run.
class Block {
  public:
    explicit Block(std::vector<unsigned char> bytes) : before_(std::move(bytes)) {
        after_.resize(before_.size());
        ok_ = before_.empty() || // an unused allocation
              (aclrtMalloc(&device_, before_.size(), ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS &&
               aclrtMemcpy(device_, before_.size(), before_.data(), before_.size(),
                           ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS);
    }
    ~Block() {
        if (device_ != nullptr) {
            aclrtFree(device_);
        }
    }
    Block(const Block &) = delete;
    Block &operator=(const Block &) = delete;

    bool Ok() const { return ok_; }
    bool Download() {
        return before_.empty() || aclrtMemcpy(after_.data(), after_.size(), device_, before_.size(),
                                              ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS;
    }
    void *Device() const { return device_; }
    size_t Size() const { return before_.size(); }
    const std::vector<unsigned char> &Before() const { return before_; }
    const std::vector<unsigned char> &After() const { return after_; }

  private:
    std::vector<unsigned char> before_, after_;
    void *device_ = nullptr;
    bool ok_ = false;
};

template <typename T> std::vector<unsigned char> Bytes(const std::vector<T> &values) {
    std::vector<unsigned char> bytes(values.size() * sizeof(T));
    if (!bytes.empty()) {
        std::memcpy(bytes.data(), values.data(), bytes.size());
    }
    return bytes;
}

// A [kTokens, cols] view starting `first` elements into a block, rows `rowStride` apart.
// The aclTensor points at the first element (offset 0) and its storage runs to the end
// of the block.
template <typename X> struct RopeView {
    Block *block;
    int64_t first, rowStride, cols;

    int64_t Element(int64_t token, int64_t column) const {
        return first + token * rowStride + column;
    }
    X At(const std::vector<unsigned char> &image, int64_t token, int64_t column) const {
        X value;
        std::memcpy(&value, &image[Element(token, column) * sizeof(X)], sizeof(X));
        return value;
    }
    aclTensor *Create() const {
        const int64_t shape[2] = {kTokens, cols}, strides[2] = {rowStride, 1};
        const int64_t storage[1] = {static_cast<int64_t>(block->Size() / sizeof(X)) - first};
        void *data = static_cast<char *>(block->Device()) + first * sizeof(X);
        return aclCreateTensor(shape, 2, X::kId, strides, 0, aclFormat::ACL_FORMAT_ND, storage, 1,
                               data);
    }
};

struct Stages {
    aclnnStatus phase1 = -1, phase2 = -1;
    aclError sync = -1;
    std::string message;
};

Stages LaunchRope(bool v2, aclTensor *positions, aclTensor *query, aclTensor *key, aclTensor *cache,
                  aclIntArray *sections, int64_t headSize, bool neox, int64_t cacheMode,
                  aclTensor *queryOut, aclTensor *keyOut, aclrtStream stream) {
    Stages stages;
    uint64_t workspaceSize = 0;
    aclOpExecutor *executor = nullptr;
    stages.phase1 =
        v2 ? aclnnRopeWithSinCosCacheV2GetWorkspaceSize(positions, query, key, cache, sections,
                                                        headSize, neox, cacheMode, queryOut, keyOut,
                                                        &workspaceSize, &executor)
           : aclnnRopeWithSinCosCacheGetWorkspaceSize(positions, query, key, cache, sections,
                                                      headSize, neox, queryOut, keyOut,
                                                      &workspaceSize, &executor);
    if (stages.phase1 != ACLNN_SUCCESS) {
        stages.message = aclGetRecentErrMsg();
        return stages;
    }
    void *workspaceAddr = nullptr;
    if (workspaceSize > 0 &&
        aclrtMalloc(&workspaceAddr, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
        return stages;
    }
    stages.phase2 = v2 ? aclnnRopeWithSinCosCacheV2(workspaceAddr, workspaceSize, executor, stream)
                       : aclnnRopeWithSinCosCache(workspaceAddr, workspaceSize, executor, stream);
    if (stages.phase2 == ACLNN_SUCCESS) {
        stages.sync = aclrtSynchronizeStream(stream);
    }
    stages.message = aclGetRecentErrMsg();
    if (workspaceAddr != nullptr) {
        aclrtFree(workspaceAddr);
    }
    return stages;
}

// Checks one rotated view pair and writes into `expected` (an image of out.block)
// what every element of the output view must hold. Returns the number of bad elements.
template <typename X>
int64_t CheckRotation(const RopeMode &mode, bool neox, const RopeView<X> &in,
                      const RopeView<X> &out, const std::vector<X> &cache,
                      const std::vector<int64_t> &positions, std::vector<unsigned char> *expected) {
    const int64_t hs = mode.headSize, rot = mode.rotaryDim, half = rot / 2;
    const std::vector<int> rows = FrequencyRows(mode);
    int64_t bad = 0;
    for (int64_t t = 0; t < kTokens; t++) {
        for (int64_t head = 0; head < in.cols / hs; head++) {
            const int64_t base = head * hs;
            for (int64_t j = rot; j < hs; j++) {
                std::memcpy(&(*expected)[out.Element(t, base + j) * sizeof(X)],
                            &in.block->Before()[in.Element(t, base + j) * sizeof(X)], sizeof(X));
            }
            for (int64_t f = 0; f < half; f++) {
                const int64_t p = positions[rows[f] * kTokens + t];
                const double c = X::ToDouble(cache[p * rot + f]);
                const double s = X::ToDouble(cache[p * rot + half + f]);
                const int64_t first = base + (neox ? f : 2 * f);
                const int64_t second = base + (neox ? f + half : 2 * f + 1);
                const double a = X::ToDouble(in.At(in.block->Before(), t, first));
                const double b = X::ToDouble(in.At(in.block->Before(), t, second));
                const double u0 = X::ToDouble(out.At(out.block->After(), t, first));
                const double u1 = X::ToDouble(out.At(out.block->After(), t, second));
                // [u0, u1] = [[c, -s], [s, c]] [a, b]
                if (!Close<X>(u0, c * a, -s * b) || !Close<X>(u1, s * a, c * b)) {
                    if (bad < 3) {
                        std::printf("    token %lld column %lld/%lld: got (%.8g, %.8g), want "
                                    "(%.8g, %.8g)\n",
                                    static_cast<long long>(t), static_cast<long long>(first),
                                    static_cast<long long>(second), u0, u1, c * a - s * b,
                                    s * a + c * b);
                    }
                    bad++;
                }
                for (int64_t column : {first, second}) {
                    const size_t at = out.Element(t, column) * sizeof(X);
                    std::memcpy(&(*expected)[at], &out.block->After()[at], sizeof(X));
                }
            }
        }
    }
    return bad;
}

// Runs one case. With hasBadPosition, position row 0 of the last token is
// badPosition (out of range) and the run must fail at synchronisation, changing nothing.
template <typename X>
bool RunRope(bool v2, bool neox, const RopeMode &mode, Layout layout, aclrtStream stream,
             bool hasBadPosition = false, int64_t badPosition = 0) {
    static uint64_t seed = 1000;
    Random rng(seed++);
    const int64_t hs = mode.headSize, rot = mode.rotaryDim;
    const int64_t qCols = mode.numQHeads * hs, kCols = mode.numKHeads * hs;
    const int64_t rows = IsMrope(mode) ? static_cast<int64_t>(mode.sections.size()) : 1;
    const bool fused = layout == Layout::kFused || layout == Layout::kFusedInPlace;
    const bool inPlace = layout == Layout::kFusedInPlace || layout == Layout::kInPlace;

    std::vector<int64_t> positions(rows * kTokens);
    for (int64_t r = 0; r < rows; r++) {
        for (int64_t t = 0; t < kTokens; t++) {
            positions[r * kTokens + t] = rng.Next() % kMaxSeqLen;
        }
        positions[r * kTokens + (2 * r) % kTokens] = 0;
        positions[r * kTokens + (2 * r + 1) % kTokens] = kMaxSeqLen - 1;
    }
    if (hasBadPosition) {
        positions[kTokens - 1] = badPosition;
    }
    std::vector<X> cache(kMaxSeqLen * rot);
    bool ok = ropekit_cos_sin_cache_build(cache.data(), static_cast<ropekit_dtype>(X::kId),
                                          kMaxSeqLen, rot, 10000.0, nullptr) == ROPEKIT_OK;

    auto randomValues = [&rng](int64_t count) {
        std::vector<X> values(count);
        for (auto &v : values) {
            v = rng.Value<X>(-3, 6);
        }
        return values;
    };
    // Query and key storage: one fused [tokens, q | k | v | pad] allocation, or two.
    const int64_t fusedStride = qCols + 2 * kCols + 8;
    std::vector<X> qHost = randomValues(fused ? kTokens * fusedStride : kTokens * qCols);
    std::vector<X> kHost = randomValues(fused ? 0 : kTokens * kCols);
    if (mode.specials) {
        for (int64_t t = 0; t < kTokens; t++) {
            const int64_t row = t * (fused ? fusedStride : qCols);
            qHost[row + (5 * t) % qCols] = X::Inf(t % 2 == 0);
            qHost[row + (11 * t + 3) % qCols] = X::NaN();
        }
    }
    Block qBlock(Bytes(qHost)), kBlock(Bytes(kHost));
    Block qoBlock(std::vector<unsigned char>(inPlace ? 0 : kTokens * qCols * sizeof(X), 0x7b));
    Block koBlock(std::vector<unsigned char>(inPlace ? 0 : kTokens * kCols * sizeof(X), 0x3c));
    Block posBlock(Bytes(positions)), cacheBlock(Bytes(cache));
    Block *blocks[] = {&qBlock, &kBlock, &qoBlock, &koBlock, &posBlock, &cacheBlock};

    RopeView<X> q{&qBlock, 0, fused ? fusedStride : qCols, qCols};
    RopeView<X> k = fused ? RopeView<X>{&qBlock, qCols, fusedStride, kCols}
                          : RopeView<X>{&kBlock, 0, kCols, kCols};
    RopeView<X> qo = inPlace ? q : RopeView<X>{&qoBlock, 0, qCols, qCols};
    RopeView<X> ko = inPlace ? k : RopeView<X>{&koBlock, 0, kCols, kCols};

    aclTensor *qT = q.Create(), *kT = k.Create();
    aclTensor *qoT = inPlace ? qT : qo.Create(), *koT = inPlace ? kT : ko.Create();
    std::vector<int64_t> posShape =
        IsMrope(mode) ? std::vector<int64_t>{rows, kTokens} : std::vector<int64_t>{kTokens};
    aclTensor *posT =
        aclCreateTensor(posShape.data(), posShape.size(), ACL_INT64, nullptr, 0, ACL_FORMAT_ND,
                        posShape.data(), posShape.size(), posBlock.Device());
    const int64_t cacheShape[2] = {kMaxSeqLen, rot};
    aclTensor *cacheT = aclCreateTensor(cacheShape, 2, X::kId, nullptr, 0, ACL_FORMAT_ND,
                                        cacheShape, 2, cacheBlock.Device());
    aclIntArray *sections = mode.sections.empty()
                                ? nullptr
                                : aclCreateIntArray(mode.sections.data(), mode.sections.size());
    for (Block *b : blocks) {
        ok = ok && b->Ok();
    }
    ok = ok && qT && kT && qoT && koT && posT && cacheT && (mode.sections.empty() || sections);

    int64_t bad = 0;
    if (!ok) {
        std::printf("    setting up the case failed: %s\n", aclGetRecentErrMsg());
        bad = 1;
    } else {
        Stages st = LaunchRope(v2, posT, qT, kT, cacheT, sections, hs, neox, mode.cacheMode, qoT,
                               koT, stream);
        for (Block *b : blocks) {
            if (!b->Download()) {
                bad++;
            }
        }
        std::vector<std::vector<unsigned char>> expected;
        for (Block *b : blocks) {
            expected.push_back(b->Before());
        }
        if (hasBadPosition) {
            if (st.phase1 != ACLNN_SUCCESS || st.phase2 != ACLNN_SUCCESS ||
                st.sync != ACL_ERROR_RT_AICORE_EXCEPTION || st.message.empty()) {
                std::printf("    want phase1 0, phase2 0, sync 507015 with a message; got %d, "
                            "%d, %d, \"%s\"\n",
                            static_cast<int>(st.phase1), static_cast<int>(st.phase2),
                            static_cast<int>(st.sync), st.message.c_str());
                bad++;
            }
        } else if (st.phase1 != ACLNN_SUCCESS || st.phase2 != ACLNN_SUCCESS ||
                   st.sync != ACL_SUCCESS) {
            std::printf("    phase1 %d, phase2 %d, sync %d: %s\n", static_cast<int>(st.phase1),
                        static_cast<int>(st.phase2), static_cast<int>(st.sync), st.message.c_str());
            bad++;
        } else {
            auto indexOf = [&blocks](const Block *block) {
                size_t i = 0;
                while (blocks[i] != block) {
                    i++;
                }
                return i;
            };
            bad += CheckRotation(mode, neox, q, qo, cache, positions, &expected[indexOf(qo.block)]);
            bad += CheckRotation(mode, neox, k, ko, cache, positions, &expected[indexOf(ko.block)]);
        }
        for (size_t i = 0; i < expected.size(); i++) {
            if (expected[i] != blocks[i]->After()) {
                std::printf("    allocation %zu: bytes outside the rotated elements differ\n", i);
                bad++;
            }
        }
    }
    if (!inPlace) {
        aclDestroyTensor(qoT);
        aclDestroyTensor(koT);
    }
    aclDestroyTensor(qT);
    aclDestroyTensor(kT);
    aclDestroyTensor(posT);
    aclDestroyTensor(cacheT);
    if (sections != nullptr) {
        aclDestroyIntArray(sections);
    }
    std::printf("%s %s %s %s %-30s %s%s\n", bad == 0 ? "ok  " : "FAIL", v2 ? "V2" : "V1", X::Name(),
                neox ? "neox" : "gptj", mode.name.c_str(), LayoutName(layout),
                hasBadPosition ? " (position out of range)" : "");
    return bad == 0;
}

template <typename X>
void RunRopeAll(const std::vector<RopeMode> &modes, int *failed, int *total, aclrtStream stream) {
    for (int v2 = 0; v2 < 2; v2++) {
        for (bool neox : {true, false}) {
            for (const auto &mode : modes) {
                if (!v2 && mode.cacheMode != 0) {
                    continue;
                }
                for (Layout layout : kLayouts) {
                    ++*total;
                    if (!RunRope<X>(v2 != 0, neox, mode, layout, stream)) {
                        ++*failed;
                    }
                }
            }
        }
    }
}

void RopeRunAllDtypes(const std::vector<RopeMode> &modes, int *failed, int *total,
                      aclrtStream stream) {
    RunRopeAll<F32Bits>(modes, failed, total, stream);
    RunRopeAll<F16Bits>(modes, failed, total, stream);
    RunRopeAll<BF16Bits>(modes, failed, total, stream);
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
    const std::vector<RopeMode> modes = {
        {"rope GQA 8/2 heads", {}, 0, 128, 128, 8, 2, false},
        {"rope R64<hs128", {}, 0, 128, 64, 2, 1, false},
        {"rope inf/NaN in query", {}, 0, 64, 64, 2, 2, true},
        {"mrope [16,24,24]", {16, 24, 24}, 0, 128, 128, 2, 1, false},
        {"mrope [8,12,12] R64<hs96", {8, 12, 12}, 0, 96, 64, 3, 1, false},
        {"mrope [24,20,20] R128<hs192", {24, 20, 20}, 0, 192, 128, 1, 2, false},
        {"mrope [11,11,10]", {11, 11, 10}, 0, 64, 64, 4, 2, false},
        {"mrope [16,16,16,16]", {16, 16, 16, 16}, 0, 128, 128, 2, 1, false},
        {"imrope [16,24,24]", {16, 24, 24}, 1, 128, 128, 2, 1, false},
        {"imrope [8,12,12]", {8, 12, 12}, 1, 64, 64, 3, 1, false},
        {"imrope [24,20,20] R128<hs256", {24, 20, 20}, 1, 256, 128, 2, 2, false},
        {"imrope [11,11,10] R64<hs96", {11, 11, 10}, 1, 96, 64, 1, 3, false},
    };
    int ropeFailed = 0, ropeTotal = 0;
    RopeRunAllDtypes(modes, &ropeFailed, &ropeTotal, stream);
    // Out-of-range positions: maxSeqLen, -1 and far beyond, then a clean run.
    const bool faults[] = {
        RunRope<F32Bits>(false, true, modes[0], Layout::kInPlace, stream, true, kMaxSeqLen),
        RunRope<BF16Bits>(false, false, modes[3], Layout::kSeparate, stream, true, -1),
        RunRope<F16Bits>(true, true, modes[8], Layout::kFusedInPlace, stream, true, 1 << 30),
        RunRope<F32Bits>(true, false, modes[1], Layout::kFused, stream, true, kMaxSeqLen),
        RunRope<BF16Bits>(true, true, modes[10], Layout::kFused, stream),
    };
    for (bool passed : faults) {
        ++ropeTotal;
        ropeFailed += passed ? 0 : 1;
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("C++ client: %d of %d partial-rotary cases and %d of %d rope cases failed\n",
                failed, total, ropeFailed, ropeTotal);
    return failed == 0 && ropeFailed == 0 ? 0 : 1;
}
