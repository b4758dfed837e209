/* aclnnInplacePartialRotaryMul from plain C11: fp16 x with fp32 cos/sin.
 *
 * x is [B=2, S=4, N=8, D=128] in fp16. Only channels [64,128) of every head are
 * rotated (interleave mode). cos/sin are [2,4,1,64]: one row per token, broadcast
 * over the 8 heads. C has no half type, so x is built from fp16 bit patterns and
 * decoded by hand for printing and for the float64 reference (SPEC section 3.3).
 * Every rotated element must be within 1e-3 * (|a*c| + |b*s|) + 2^-24 of the
 * reference (SPEC section 6) and every other element must be unchanged.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_inplace_partial_rotary_mul.h"

enum { B = 2, S = 4, N = 8, D = 128, START = 64, END = 128, L = END - START };

#define CHECK_RET(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf(__VA_ARGS__);                                                                   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static uint32_t next_random(uint32_t *state) {
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return *state;
}

/* A pseudo-random fp16 value with magnitude in [1/32, 4): sign bit, a biased exponent
 * between 10 and 16 (bias 15) and ten random mantissa bits. */
static uint16_t random_half(uint32_t *state) {
    uint32_t r = next_random(state);
    uint16_t sign = (uint16_t)((r >> 31) << 15);
    uint16_t exponent = (uint16_t)(10 + (r >> 10) % 7);
    return (uint16_t)(sign | exponent << 10 | (r & 0x3ff));
}

static double half_to_double(uint16_t h) {
    int exponent = (h >> 10) & 0x1f;
    int mantissa = h & 0x3ff;
    double magnitude;
    if (exponent == 0) {
        magnitude = ldexp(mantissa, -24); /* zero or subnormal */
    } else if (exponent == 31) {
        magnitude = mantissa ? NAN : INFINITY;
    } else {
        magnitude = ldexp(mantissa + 1024, exponent - 25);
    }
    return (h & 0x8000) ? -magnitude : magnitude;
}

/* Creates a contiguous ND tensor over a new device buffer filled from host. */
static aclTensor *create_tensor(const void *host, size_t bytes, const int64_t *shape,
                                aclDataType dtype, void **device) {
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(*device, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        return NULL;
    }
    return aclCreateTensor(shape, 4, dtype, NULL, 0, ACL_FORMAT_ND, shape, 4, *device);
}

int main(void) {
    static uint16_t x_host[B * S * N * D], result[B * S * N * D];
    static float cos_host[B * S * L], sin_host[B * S * L];
    const int64_t x_shape[4] = {B, S, N, D}, cs_shape[4] = {B, S, 1, L};
    const int64_t slice_values[2] = {START, END};
    uint32_t seed = 12345;

    /* Token (b, s) sits at position 3*b + s; pair i turns by position * 10000^(-2i/L). */
    for (size_t i = 0; i < B * S * N * D; i++) {
        x_host[i] = random_half(&seed);
    }
    for (int t = 0; t < B * S; t++) {
        int position = 3 * (t / S) + t % S;
        for (int i = 0; i < L / 2; i++) {
            double angle = position * pow(10000.0, -2.0 * i / L);
            cos_host[t * L + 2 * i] = cos_host[t * L + 2 * i + 1] = (float)cos(angle);
            sin_host[t * L + 2 * i] = sin_host[t * L + 2 * i + 1] = (float)sin(angle);
        }
    }

    aclrtStream stream = NULL;
    CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit failed\n");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice failed\n");
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream failed\n");

    void *x_dev = NULL, *cos_dev = NULL, *sin_dev = NULL;
    aclTensor *x = create_tensor(x_host, sizeof x_host, x_shape, ACL_FLOAT16, &x_dev);
    aclTensor *cos_t = create_tensor(cos_host, sizeof cos_host, cs_shape, ACL_FLOAT, &cos_dev);
    aclTensor *sin_t = create_tensor(sin_host, sizeof sin_host, cs_shape, ACL_FLOAT, &sin_dev);
    aclIntArray *slice = aclCreateIntArray(slice_values, 2);
    CHECK_RET(x && cos_t && sin_t && slice, "creating inputs failed: %s\n", aclGetRecentErrMsg());

    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus st = aclnnInplacePartialRotaryMulGetWorkspaceSize(x, cos_t, sin_t, 1, slice,
                                                                  &workspace_size, &executor);
    CHECK_RET(st == ACLNN_SUCCESS, "GetWorkspaceSize failed: %d (%s)\n", (int)st,
              aclGetRecentErrMsg());
    void *workspace = NULL;
    if (workspace_size > 0) {
        aclError rc = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(rc == ACL_SUCCESS, "workspace allocation failed: %d\n", rc);
    }
    st = aclnnInplacePartialRotaryMul(workspace, workspace_size, executor, stream);
    CHECK_RET(st == ACLNN_SUCCESS, "aclnnInplacePartialRotaryMul failed: %d (%s)\n", (int)st,
              aclGetRecentErrMsg());
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream failed\n");
    aclError rc =
        aclrtMemcpy(result, sizeof result, x_dev, sizeof result, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(rc == ACL_SUCCESS, "copy back failed: %d\n", rc);

    long bad = 0;
    for (int row = 0; row < B * S * N; row++) {
        const uint16_t *v = &x_host[row * D], *u = &result[row * D];
        const float *c = &cos_host[(row / N) * L], *s = &sin_host[(row / N) * L];
        for (int j = 0; j < D; j++) {
            if (j < START) {
                bad += v[j] != u[j]; /* outside the slice: bit-for-bit unchanged */
                continue;
            }
            int k = j - START, even = k % 2 == 0;
            double a = half_to_double(v[START + (k & ~1)]), b = half_to_double(v[START + (k | 1)]);
            double ref = even ? a * c[k] - b * s[k] : b * c[k] + a * s[k];
            double mag = even ? fabs(a * c[k]) + fabs(b * s[k]) : fabs(b * c[k]) + fabs(a * s[k]);
            double got = half_to_double(u[j]);
            if (!(fabs(got - ref) <= 1e-3 * mag + 0x1p-24)) {
                if (bad < 5) {
                    printf("mismatch at row %d col %d: got %.6g, want %.6g\n", row, j, got, ref);
                }
                bad++;
            }
        }
    }
    const int shown = ((1 * S + 2) * N + 3) * D; /* x[1,2,3,:] */
    for (int j = START; j < START + 4; j++) {
        printf("x[1,2,3,%d]: %.5f -> %.5f\n", j, half_to_double(x_host[shown + j]),
               half_to_double(result[shown + j]));
    }
    printf("%s: %ld mismatches in %d elements\n", bad ? "FAIL" : "PASS", bad, B * S * N * D);

    aclDestroyTensor(x);
    aclDestroyTensor(cos_t);
    aclDestroyTensor(sin_t);
    aclDestroyIntArray(slice);
    aclrtFree(x_dev);
    aclrtFree(cos_dev);
    aclrtFree(sin_dev);
    if (workspace_size > 0) {
        aclrtFree(workspace);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return bad ? 1 : 0;
}
