/* aclnnRopeWithSinCosCache from plain C11: fp32, GPT-J style, partial rotary, in place.
 *
 * Four tokens carry a query of 4 heads and a key of 2 heads, head size 128. Only the
 * first rotaryDim = 64 channels of every head are rotated, GPT-J style (isNeoxStyle =
 * false: channels 2i and 2i+1 form a pair, turned by frequency i); channels [64, 128)
 * pass through unchanged. cosSinCache [32, 64] is filled here by hand: row p holds
 * cos(p * 10000^(-2i/64)) for i < 32 in columns [0, 32) and the sines in [32, 64).
 * The op runs in place: queryOut is the same aclTensor as queryIn, keyOut the same as
 * keyIn. The rotated channels are checked against a float64 reference (SPEC section
 * 5.4) within the fp32 bound of SPEC section 6, the pass-through channels must keep
 * their exact bytes. Exits non-zero on a mismatch.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnnop/aclnn_rope_with_sin_cos_cache.h"

enum {
    T = 4,       /* tokens */
    HQ = 4,      /* query heads */
    HK = 2,      /* key heads */
    HEAD = 128,  /* headSize */
    ROT = 64,    /* rotaryDim */
    HALF = 32,   /* frequencies */
    MAX_POS = 32 /* maxSeqLen */
};

#define CHECK_RET(cond, ...)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            printf(__VA_ARGS__);                                                                   \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

static float next_random(uint32_t *state) { /* xorshift32, uniform in [-1, 1) */
    *state ^= *state << 13;
    *state ^= *state >> 17;
    *state ^= *state << 5;
    return (float)(*state >> 8) / 8388608.0f - 1.0f;
}

/* Creates a 2-D contiguous ND tensor over a new device buffer filled from host. */
static aclTensor *create_tensor(const void *host, size_t bytes, int64_t rows, int64_t cols,
                                aclDataType dtype, void **device) {
    const int64_t shape[2] = {rows, cols}, strides[2] = {cols, 1};
    if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
        aclrtMemcpy(*device, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) {
        return NULL;
    }
    return aclCreateTensor(shape, 2, dtype, strides, 0, ACL_FORMAT_ND, shape, 2, *device);
}

/* Checks heads [T, heads * HEAD]: GPT-J rotation of [0, ROT), exact bytes after it.
 * Returns the number of mismatching elements. */
static long check(const char *name, const float *in, const float *out, int heads,
                  const float *cache, const int64_t *positions) {
    long bad = 0;
    for (int t = 0; t < T; t++) {
        const float *c = &cache[positions[t] * ROT], *s = c + HALF;
        for (int n = 0; n < heads; n++) {
            const float *x = &in[(t * heads + n) * HEAD], *u = &out[(t * heads + n) * HEAD];
            for (int i = 0; i < HALF; i++) {
                double a = x[2 * i], b = x[2 * i + 1];
                double ref[2] = {a * c[i] - b * s[i], b * c[i] + a * s[i]};
                double mag[2] = {fabs(a * c[i]) + fabs(b * s[i]), fabs(b * c[i]) + fabs(a * s[i])};
                for (int k = 0; k < 2; k++) {
                    if (!(fabs(u[2 * i + k] - ref[k]) <= 1e-5 * mag[k] + 0x1p-149)) {
                        if (bad++ < 5) {
                            printf("%s mismatch: token %d head %d channel %d: got %.9g, want "
                                   "%.9g\n",
                                   name, t, n, 2 * i + k, u[2 * i + k], ref[k]);
                        }
                    }
                }
            }
            if (memcmp(x + ROT, u + ROT, (HEAD - ROT) * sizeof(float)) != 0) {
                printf("%s: token %d head %d: pass-through channels changed\n", name, t, n);
                bad++;
            }
        }
    }
    return bad;
}

int main(void) {
    static float query_host[T * HQ * HEAD], key_host[T * HK * HEAD], cache_host[MAX_POS * ROT];
    static float query_result[T * HQ * HEAD], key_result[T * HK * HEAD];
    const int64_t positions_host[T] = {0, 9, 10, MAX_POS - 1};
    uint32_t seed = 4242;

    for (int i = 0; i < T * HQ * HEAD; i++) {
        query_host[i] = 3.0f * next_random(&seed);
    }
    for (int i = 0; i < T * HK * HEAD; i++) {
        key_host[i] = 3.0f * next_random(&seed);
    }
    for (int p = 0; p < MAX_POS; p++) {
        for (int i = 0; i < HALF; i++) {
            double angle = p * pow(10000.0, -2.0 * i / ROT);
            cache_host[p * ROT + i] = (float)cos(angle);
            cache_host[p * ROT + HALF + i] = (float)sin(angle);
        }
    }

    aclrtStream stream = NULL;
    CHECK_RET(aclInit(NULL) == ACL_SUCCESS, "aclInit failed\n");
    CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice failed\n");
    CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream failed\n");

    void *positions_dev = NULL, *query_dev = NULL, *key_dev = NULL, *cache_dev = NULL;
    const int64_t pos_shape[1] = {T};
    aclTensor *positions = NULL;
    if (aclrtMalloc(&positions_dev, sizeof positions_host, ACL_MEM_MALLOC_HUGE_FIRST) ==
            ACL_SUCCESS &&
        aclrtMemcpy(positions_dev, sizeof positions_host, positions_host, sizeof positions_host,
                    ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS) {
        positions = aclCreateTensor(pos_shape, 1, ACL_INT64, NULL, 0, ACL_FORMAT_ND, pos_shape, 1,
                                    positions_dev);
    }
    aclTensor *query =
        create_tensor(query_host, sizeof query_host, T, HQ * HEAD, ACL_FLOAT, &query_dev);
    aclTensor *key = create_tensor(key_host, sizeof key_host, T, HK * HEAD, ACL_FLOAT, &key_dev);
    aclTensor *cache =
        create_tensor(cache_host, sizeof cache_host, MAX_POS, ROT, ACL_FLOAT, &cache_dev);
    CHECK_RET(positions && query && key && cache, "creating inputs failed: %s\n",
              aclGetRecentErrMsg());

    /* In place: the input tensors are passed again as the outputs. */
    uint64_t workspace_size = 0;
    aclOpExecutor *executor = NULL;
    aclnnStatus st = aclnnRopeWithSinCosCacheGetWorkspaceSize(
        positions, query, key, cache, NULL, HEAD, false, query, key, &workspace_size, &executor);
    CHECK_RET(st == ACLNN_SUCCESS, "GetWorkspaceSize failed: %d (%s)\n", (int)st,
              aclGetRecentErrMsg());
    void *workspace = NULL;
    if (workspace_size > 0) {
        aclError rc = aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST);
        CHECK_RET(rc == ACL_SUCCESS, "workspace allocation failed: %d\n", rc);
    }
    st = aclnnRopeWithSinCosCache(workspace, workspace_size, executor, stream);
    CHECK_RET(st == ACLNN_SUCCESS, "aclnnRopeWithSinCosCache failed: %d (%s)\n", (int)st,
              aclGetRecentErrMsg());
    aclError rc = aclrtSynchronizeStream(stream);
    CHECK_RET(rc == ACL_SUCCESS, "aclrtSynchronizeStream failed: %d (%s)\n", rc,
              aclGetRecentErrMsg());
    rc = aclrtMemcpy(query_result, sizeof query_result, query_dev, sizeof query_result,
                     ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(rc == ACL_SUCCESS, "copy back failed: %d\n", rc);
    rc = aclrtMemcpy(key_result, sizeof key_result, key_dev, sizeof key_result,
                     ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(rc == ACL_SUCCESS, "copy back failed: %d\n", rc);

    long bad = check("query", query_host, query_result, HQ, cache_host, positions_host);
    bad += check("key", key_host, key_result, HK, cache_host, positions_host);
    const int shown = (3 * HQ + 1) * HEAD; /* token 3 (position 31), query head 1 */
    for (int j = 0; j < 4; j++) {
        printf("query[3, head 1, %d]: %.6f -> %.6f\n", j, query_host[shown + j],
               query_result[shown + j]);
    }
    printf("query[3, head 1, %d] (pass-through): %.6f -> %.6f\n", ROT, query_host[shown + ROT],
           query_result[shown + ROT]);
    printf("%s: %ld mismatches in %d elements\n", bad ? "FAIL" : "PASS", bad, T * (HQ + HK) * HEAD);

    aclDestroyTensor(positions);
    aclDestroyTensor(query);
    aclDestroyTensor(key);
    aclDestroyTensor(cache);
    aclrtFree(positions_dev);
    aclrtFree(query_dev);
    aclrtFree(key_dev);
    aclrtFree(cache_dev);
    if (workspace_size > 0) {
        aclrtFree(workspace);
    }
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return bad ? 1 : 0;
}
