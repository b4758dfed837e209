/* aclnnRopeWithSinCosCacheV2 from plain C11: interleaved multi-section rope (cacheMode 1,
 * the Qwen3-VL layout), fp32, NeoX style.
 *
 * Six tokens, 2 query heads and 1 key head of headSize = rotaryDim = 128. Each token has
 * three positions (temporal, height, width): positions is [3, 6]. With sections
 * {24, 20, 20}, coefficient j (j < 64) takes its cos/sin from the height position when
 * j % 3 == 1 and j / 3 < 20, from the width position when j % 3 == 2 and j / 3 < 20, and
 * from the temporal position otherwise (SPEC section 5.3). The result is checked against
 * a float64 reference within the fp32 bound of SPEC section 6; exits non-zero on a
 * mismatch.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache_v2.h"

enum { T = 6, HQ = 2, HK = 1, HEAD = 128, HALF = 64, MAX_POS = 64, ROWS = 3 };

#define CHECK_RET(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf(__VA_ARGS__);                                                                   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

/* A contiguous ND tensor over a new device buffer copied from host memory. */
static aclTensor *device_tensor(const void *host, size_t bytes, int nd, const int64_t *shape,
                                aclDataType dtype, void **device) {
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(*device, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
        return NULL;
    return aclCreateTensor(shape, (uint64_t)nd, dtype, NULL, 0, ACL_FORMAT_ND, shape, (uint64_t)nd,
                           *device);
}

/* Which positions row feeds coefficient j: the interleaved rule with sections {24,20,20}. */
static int source_row(int j) {
    if (j % 3 == 1 && j / 3 < 20)
        return 1;
    if (j % 3 == 2 && j / 3 < 20)
        return 2;
    return 0;
}

static long check(const char *name, const float *in, const float *out, int heads,
                  const float *cache, const int64_t *positions) {
    long bad = 0;
    for (int t = 0; t < T; t++)
        for (int n = 0; n < heads; n++) {
            const float *x = &in[(t * heads + n) * HEAD], *u = &out[(t * heads + n) * HEAD];
            for (int j = 0; j < HALF; j++) {
                const float *row = &cache[positions[source_row(j) * T + t] * 2 * HALF];
                double c = row[j], s = row[HALF + j], a = x[j], b = x[j + HALF];
                double ref[2] = {a * c - b * s, b * c + a * s};
                double mag[2] = {fabs(a * c) + fabs(b * s), fabs(b * c) + fabs(a * s)};
                double got[2] = {u[j], u[j + HALF]};
                for (int k = 0; k < 2; k++)
                    if (!(fabs(got[k] - ref[k]) <= 1e-5 * mag[k] + 0x1p-149) && bad++ < 5)
                        printf("%s mismatch: token %d head %d channel %d: got %.9g, want %.9g\n",
                               name, t, n, j + k * HALF, got[k], ref[k]);
            }
        }
    return bad;
}

int main(void) {
    static float query_host[T * HQ * HEAD], key_host[T * HK * HEAD], cache_host[MAX_POS * HEAD];
    static float query_out[T * HQ * HEAD], key_out[T * HK * HEAD];
    /* Two text tokens, then a 2x2 image patch grid at temporal position 2. */
    const int64_t positions_host[ROWS * T] = {0, 1, 2, 2, 2, 2,  /* temporal */
                                              0, 1, 2, 2, 3, 3,  /* height */
                                              0, 1, 2, 3, 2, 3}; /* width */
    for (int i = 0; i < T * HQ * HEAD; i++)
        query_host[i] = (float)sin(0.37 * i);
    for (int i = 0; i < T * HK * HEAD; i++)
        key_host[i] = (float)cos(0.21 * i);
    for (int p = 0; p < MAX_POS; p++)
        for (int i = 0; i < HALF; i++) {
            double angle = p * pow(10000.0, -2.0 * i / HEAD);
            cache_host[p * HEAD + i] = (float)cos(angle);
            cache_host[p * HEAD + HALF + i] = (float)sin(angle);
        }

    aclrtStream stream = NULL;
    CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit failed\n");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice failed\n");
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream failed\n");

    const int64_t pos_shape[2] = {ROWS, T}, q_shape[2] = {T, HQ * HEAD},
                  k_shape[2] = {T, HK * HEAD}, cache_shape[2] = {MAX_POS, HEAD};
    void *dev[6] = {NULL};
    aclTensor *positions =
        device_tensor(positions_host, sizeof positions_host, 2, pos_shape, ACL_INT64, &dev[0]);
    aclTensor *query = device_tensor(query_host, sizeof query_host, 2, q_shape, ACL_FLOAT, &dev[1]);
    aclTensor *key = device_tensor(key_host, sizeof key_host, 2, k_shape, ACL_FLOAT, &dev[2]);
    aclTensor *cache =
        device_tensor(cache_host, sizeof cache_host, 2, cache_shape, ACL_FLOAT, &dev[3]);
    aclTensor *q_out = device_tensor(query_out, sizeof query_out, 2, q_shape, ACL_FLOAT, &dev[4]);
    aclTensor *k_out = device_tensor(key_out, sizeof key_out, 2, k_shape, ACL_FLOAT, &dev[5]);
    CHECK_RET(positions && query && key && cache && q_out && k_out, "creating tensors failed: %s\n",
              aclGetRecentErrMsg());

    const int64_t sections[3] = {24, 20, 20};
    aclIntArray *mrope_section = aclCreateIntArray(sections, 3);
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus st = aclnnRopeWithSinCosCacheV2GetWorkspaceSize(
        positions, query, key, cache, mrope_section, HEAD, true, /*cacheMode=*/1, q_out, k_out,
        &workspace_size, &executor);
    CHECK_RET(st == ACLNN_SUCCESS, "GetWorkspaceSize failed: %d (%s)\n", (int)st,
              aclGetRecentErrMsg());
    st = aclnnRopeWithSinCosCacheV2(NULL, workspace_size, executor, stream);
    CHECK_RET(st == ACLNN_SUCCESS, "aclnnRopeWithSinCosCacheV2 failed: %d\n", (int)st);
    aclError rc = aclrtSynchronizeStream(stream);
    CHECK_RET(rc == ACL_SUCCESS, "aclrtSynchronizeStream failed: %d (%s)\n", rc,
              aclGetRecentErrMsg());
    aclrtMemcpy(query_out, sizeof query_out, dev[4], sizeof query_out, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtMemcpy(key_out, sizeof key_out, dev[5], sizeof key_out, ACL_MEMCPY_DEVICE_TO_HOST);

    long bad = check("query", query_host, query_out, HQ, cache_host, positions_host);
    bad += check("key", key_host, key_out, HK, cache_host, positions_host);
    for (int j = 0; j < 4; j++)
        printf("query[5, head 0, %d] (from positions row %d): %.6f -> %.6f\n", j, source_row(j),
               query_host[5 * HQ * HEAD + j], query_out[5 * HQ * HEAD + j]);
    printf("%s: %ld mismatches in %d elements\n", bad ? "FAIL" : "PASS", bad, T * (HQ + HK) * HEAD);

    aclDestroyIntArray(mrope_section);
    aclTensor *tensors[6] = {positions, query, key, cache, q_out, k_out};
    for (int i = 0; i < 6; i++) {
        aclDestroyTensor(tensors[i]);
        aclrtFree(dev[i]);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return bad ? 1 : 0;
}
