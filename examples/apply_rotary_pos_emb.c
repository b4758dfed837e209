/* aclnnApplyRotaryPosEmbV2 from plain C11: query and key rotated in place (bf16).
 *
 * Grouped-query attention: query is [B=2, S=8, Nq=8, D=128] and key [2, 8, Nk=2, 128] in
 * layout 1 (BSND); cos and sin are [2, 8, 1, 128], one row per token shared by all the
 * heads of query and of key. rotaryMode "half" (NeoX) pairs channel j with j + 64. CANN's
 * rules: the four tensors 4-D of one dtype, D = 128, key's dims query's but N, cos's dims
 * query's but N = 1 (SPEC section 14.4). C has no bf16 type: the values are fp32 bit
 * patterns cut to their upper half. Every element of query and key is checked against a
 * float64 reference (SPEC section 14.2) within the bf16 bound of SPEC section 6.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_apply_rotary_pos_emb_v2.h"

enum { B = 2, S = 8, NQ = 8, NK = 2, D = 128, H = D / 2 };

#define CHECK_RET(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf(__VA_ARGS__);                                                                   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static uint16_t float_to_bf16(float f) { /* round to nearest even; finite values only */
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

static double bf16_to_double(uint16_t h) {
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static float next_random(uint32_t *state) { /* xorshift32, uniform in [-1, 1) */
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

/* Creates a contiguous 4-D bf16 tensor over a new device buffer filled from host. */
static aclTensor *create_tensor(const uint16_t *host, size_t count, const int64_t *shape,
                                void **device) {
    size_t bytes = count * sizeof *host;
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(*device, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        return NULL;
    }
    return aclCreateTensor(shape, 4, ACL_BF16, NULL, 0, ACL_FORMAT_ND, shape, 4, *device);
}

/* Mismatches of the rotated heads `got` against rotate-half of `in` in float64:
 * u[j] = v[j]c[j] - v[j+h]s[j], u[j+h] = v[j+h]c[j+h] + v[j]s[j+h]. */
static long check(const char *name, const uint16_t *in, const uint16_t *got, int heads,
                  const uint16_t *cos_t, const uint16_t *sin_t) {
    long bad = 0;
    for (int row = 0; row < B * S * heads; row++) {
        const int token = row / heads;
        for (int j = 0; j < D; j++) {
            const int at = row * D + j, first = j < H;
            double a = bf16_to_double(in[at]), b = bf16_to_double(in[first ? at + H : at - H]);
            double c = bf16_to_double(cos_t[token * D + j]),
                   s = bf16_to_double(sin_t[token * D + j]);
            double t1 = a * c, t2 = b * s;
            double want = first ? t1 - t2 : t1 + t2, value = bf16_to_double(got[at]);
            if (!(fabs(value - want) <= 8e-3 * (fabs(t1) + fabs(t2)) + 0x1p-133)) {
                if (bad < 5) {
                    printf("%s mismatch at row %d col %d: got %.6g, want %.6g\n", name, row, j,
                           value, want);
                }
                bad++;
            }
        }
    }
    return bad;
}

int main(void) {
    static uint16_t q_host[B * S * NQ * D], k_host[B * S * NK * D];
    static uint16_t q_out[B * S * NQ * D], k_out[B * S * NK * D];
    static uint16_t cos_host[B * S * D], sin_host[B * S * D];
    const int64_t q_shape[4] = {B, S, NQ, D}, k_shape[4] = {B, S, NK, D};
    const int64_t cs_shape[4] = {B, S, 1, D};
    char rotary_mode[] = "half";
    uint32_t seed = 2718;

    /* Batch b holds positions 50*b .. 50*b + 7; channels j and j + 64 share a frequency. */
    for (int t = 0; t < B * S; t++) {
        int position = 50 * (t / S) + t % S;
        for (int j = 0; j < D; j++) {
            double angle = position * pow(10000.0, -2.0 * (j % H) / D);
            cos_host[t * D + j] = float_to_bf16((float)cos(angle));
            sin_host[t * D + j] = float_to_bf16((float)sin(angle));
        }
    }
    for (size_t i = 0; i < B * S * NQ * D; i++) {
        q_host[i] = float_to_bf16(2.0f * next_random(&seed));
    }
    for (size_t i = 0; i < B * S * NK * D; i++) {
        k_host[i] = float_to_bf16(2.0f * next_random(&seed));
    }

    aclrtStream stream = NULL;
    CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit failed\n");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice failed\n");
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream failed\n");

    void *q_dev = NULL, *k_dev = NULL, *cos_dev = NULL, *sin_dev = NULL;
    aclTensor *q = create_tensor(q_host, B * S * NQ * D, q_shape, &q_dev);
    aclTensor *k = create_tensor(k_host, B * S * NK * D, k_shape, &k_dev);
    aclTensor *cos_t = create_tensor(cos_host, B * S * D, cs_shape, &cos_dev);
    aclTensor *sin_t = create_tensor(sin_host, B * S * D, cs_shape, &sin_dev);
    CHECK_RET(q && k && cos_t && sin_t, "creating inputs failed: %s\n", aclGetRecentErrMsg());

    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus st = aclnnApplyRotaryPosEmbV2GetWorkspaceSize(q, k, cos_t, sin_t, 1, rotary_mode,
                                                              &workspace_size, &executor);
    CHECK_RET(st == ACLNN_SUCCESS, "GetWorkspaceSize failed: %d (%s)\n", (int)st,
              aclGetRecentErrMsg());
    void *workspace = NULL;
    if (workspace_size > 0) {
        aclError rc = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(rc == ACL_SUCCESS, "workspace allocation failed: %d\n", rc);
    }
    st = aclnnApplyRotaryPosEmbV2(workspace, workspace_size, executor, stream);
    CHECK_RET(st == ACLNN_SUCCESS, "aclnnApplyRotaryPosEmbV2 failed: %d (%s)\n", (int)st,
              aclGetRecentErrMsg());
    CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream failed\n");
    CHECK_RET(aclrtMemcpy(q_out, sizeof q_out, q_dev, sizeof q_out, ACL_MEMCPY_DEVICE_TO_HOST) ==
                      ACL_SUCCESS &&
                  aclrtMemcpy(k_out, sizeof k_out, k_dev, sizeof k_out,
                              ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS,
              "copy back failed\n");

    long bad = check("query", q_host, q_out, NQ, cos_host, sin_host) +
               check("key", k_host, k_out, NK, cos_host, sin_host);
    const int shown = ((1 * S + 7) * NK + 1) * D; /* key[1,7,1,:], position 57 */
    for (int j = 0; j < 2; j++) {
        printf("key[1,7,1,%d]: %.4f -> %.4f, key[1,7,1,%d]: %.4f -> %.4f\n", j,
               bf16_to_double(k_host[shown + j]), bf16_to_double(k_out[shown + j]), j + H,
               bf16_to_double(k_host[shown + j + H]), bf16_to_double(k_out[shown + j + H]));
    }
    printf("%s: %ld mismatches in %d query and %d key elements\n", bad ? "FAIL" : "PASS", bad,
           B * S * NQ * D, B * S * NK * D);

    aclDestroyTensor(q);
    aclDestroyTensor(k);
    aclDestroyTensor(cos_t);
    aclDestroyTensor(sin_t);
    aclrtFree(q_dev);
    aclrtFree(k_dev);
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
