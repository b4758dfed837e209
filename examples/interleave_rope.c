/* aclnnInterleaveRope from plain C11: the rotary part of DeepSeek's multi-head latent
 * attention (fp16, out of place).
 *
 * x is [B=2, N=8, S=16, D=64] in fp16 (BNSD, as DeepSeek's q_pe after its transpose); cos
 * and sin are fp16 [2, 1, 16, 64], one row per batch and position shared by the 8 heads,
 * in half layout (channels j and j + 32 hold frequency j: DeepSeek's cat(freqs, freqs)).
 * The reference is DeepSeek's own formulation, computed in float64:
 *   q = x.view(b, h, s, d/2, 2).transpose(4, 3).reshape(b, h, s, d)    [evens | odds]
 *   out = q * cos + rotate_half(q) * sin,  rotate_half(q) = cat(-q[32:], q[:32])
 * (SPEC section 17.2). Every element of out must be within the fp16 bound of SPEC section 6
 * and x must be unchanged. C has no half type: fp16 values are built and read by hand.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_interleave_rope.h"

enum { B = 2, N = 8, S = 16, D = 64, H = D / 2, COUNT = B * N * S * D };

#define CHECK_RET(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf(__VA_ARGS__);                                                                   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* The nearest fp16 (ties to even) of a finite v with |v| < 65504. */
static uint16_t double_to_half(double v) {
    uint16_t sign = signbit(v) ? 0x8000 : 0;
    v = fabs(v);
    if (v < 0x1p-14) { /* subnormal; 1024 units round up to the smallest normal's bits */
        return (uint16_t)(sign | (uint16_t)nearbyint(v * 0x1p24));
    }
    int exponent;
    double fraction = frexp(v, &exponent);    /* v = fraction * 2^exponent, fraction in [0.5, 1) */
    long mantissa = lrint(fraction * 2048.0); /* 1024..2048; 2048 carries into the exponent */
    return (uint16_t)(sign | (((exponent + 14) << 10) + (mantissa - 1024)));
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

static float next_random(uint32_t *state) { /* xorshift32, uniform in [-1, 1) */
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

/* Creates a contiguous 4-D fp16 tensor over a new device buffer filled from host. */
static aclTensor *create_tensor(const uint16_t *host, size_t count, const int64_t *shape,
                                void **device) {
    size_t bytes = count * sizeof *host;
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(*device, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        return NULL;
    }
    return aclCreateTensor(shape, 4, ACL_FLOAT16, NULL, 0, ACL_FORMAT_ND, shape, 4, *device);
}

/* DeepSeek's rotation of one head in float64; mag gets |q*cos| + |rotate_half(q)*sin|. */
static void deepseek_rope(const uint16_t *x, const uint16_t *cos_row, const uint16_t *sin_row,
                          double *out, double *mag) {
    double q[D], rotated[D];
    for (int i = 0; i < H; i++) { /* view(d/2, 2).transpose: evens first, then odds */
        q[i] = half_to_double(x[2 * i]);
        q[i + H] = half_to_double(x[2 * i + 1]);
    }
    for (int j = 0; j < D; j++) {
        rotated[j] = j < H ? -q[j + H] : q[j - H];
    }
    for (int j = 0; j < D; j++) {
        double t1 = q[j] * half_to_double(cos_row[j]), t2 = rotated[j] * half_to_double(sin_row[j]);
        out[j] = t1 + t2;
        mag[j] = fabs(t1) + fabs(t2);
    }
}

int main(void) {
    static uint16_t x_host[COUNT], out_host[COUNT], x_after[COUNT];
    static uint16_t cos_host[B * S * D], sin_host[B * S * D];
    const int64_t x_shape[4] = {B, N, S, D}, cs_shape[4] = {B, 1, S, D};
    uint32_t seed = 64;

    /* Batch b holds positions 1000*b .. 1000*b + 15 (a long context in batch 1). */
    for (int t = 0; t < B * S; t++) {
        int position = 1000 * (t / S) + t % S;
        for (int j = 0; j < D; j++) {
            double angle = position * pow(10000.0, -2.0 * (j % H) / D);
            cos_host[t * D + j] = double_to_half(cos(angle));
            sin_host[t * D + j] = double_to_half(sin(angle));
        }
    }
    for (int i = 0; i < COUNT; i++) {
        x_host[i] = double_to_half(3.0 * next_random(&seed));
    }

    aclrtStream stream = NULL;
    CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit failed\n");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice failed\n");
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream failed\n");

    void *x_dev = NULL, *cos_dev = NULL, *sin_dev = NULL, *out_dev = NULL;
    aclTensor *x = create_tensor(x_host, COUNT, x_shape, &x_dev);
    aclTensor *cos_t = create_tensor(cos_host, B * S * D, cs_shape, &cos_dev);
    aclTensor *sin_t = create_tensor(sin_host, B * S * D, cs_shape, &sin_dev);
    aclTensor *out = create_tensor(out_host, COUNT, x_shape, &out_dev);
    CHECK_RET(x && cos_t && sin_t && out, "creating tensors failed: %s\n", aclGetRecentErrMsg());

    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus st =
        aclnnInterleaveRopeGetWorkspaceSize(x, cos_t, sin_t, out, &workspace_size, &executor);
    CHECK_RET(st == ACLNN_SUCCESS, "GetWorkspaceSize failed: %d (%s)\n", (int)st,
              aclGetRecentErrMsg());
    void *workspace = NULL;
    if (workspace_size > 0) {
        aclError rc = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(rc == ACL_SUCCESS, "workspace allocation failed: %d\n", rc);
    }
    st = aclnnInterleaveRope(workspace, workspace_size, executor, stream);
    CHECK_RET(st == ACLNN_SUCCESS, "aclnnInterleaveRope failed: %d (%s)\n", (int)st,
              aclGetRecentErrMsg());
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream failed\n");
    CHECK_RET(aclrtMemcpy(out_host, sizeof out_host, out_dev, sizeof out_host,
                          ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS &&
                  aclrtMemcpy(x_after, sizeof x_after, x_dev, sizeof x_after,
                              ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
              "copy back failed\n");

    long bad = memcmp(x_after, x_host, sizeof x_host) != 0;
    if (bad) {
        printf("x was modified\n");
    }
    for (int row = 0; row < B * N * S; row++) {
        const int token = (row / (N * S)) * S + row % S; /* (b, s) of row (b, n, s) */
        double want[D], mag[D];
        deepseek_rope(&x_host[row * D], &cos_host[token * D], &sin_host[token * D], want, mag);
        for (int j = 0; j < D; j++) {
            double got = half_to_double(out_host[row * D + j]);
            if (!(fabs(got - want[j]) <= 1e-3 * mag[j] + 0x1p-24)) {
                if (bad < 5) {
                    printf("mismatch at row %d col %d: got %.6g, want %.6g\n", row, j, got,
                           want[j]);
                }
                bad++;
            }
        }
    }
    const int shown = ((1 * N + 3) * S + 2) * D; /* x[1,3,2,:], position 1002 */
    printf("x[1,3,2,0:2] = %.4f %.4f -> out[1,3,2,0] %.4f, out[1,3,2,32] %.4f\n",
           half_to_double(x_host[shown]), half_to_double(x_host[shown + 1]),
           half_to_double(out_host[shown]), half_to_double(out_host[shown + H]));
    printf("%s: %ld mismatches in %d elements\n", bad ? "FAIL" : "PASS", bad, COUNT);

    aclDestroyTensor(x);
    aclDestroyTensor(cos_t);
    aclDestroyTensor(sin_t);
    aclDestroyTensor(out);
    aclrtFree(x_dev);
    aclrtFree(cos_dev);
    aclrtFree(sin_dev);
    aclrtFree(out_dev);
    if (workspace_size > 0) {
        aclrtFree(workspace);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return bad ? 1 : 0;
}
