/* The native API: one decode step of a Llama-3 style model.
 *
 * A batch of 4 sequences each adds one token, at positions 7993, 8000, 8001 and 8191.
 * Every token has 32 query heads and 8 key/value heads of size 128 (grouped-query
 * attention), stored in bf16 as [4, 32, 128] and [4, 8, 128]. The cos/sin cache covers
 * 8192 positions with Llama-3 frequency scaling (base 500000, factor 8, low/high
 * frequency factors 1 and 4, original context 8192) and is kept in fp32:
 * ropekit_cos_sin_cache_build makes it, and this program first checks the rows it
 * uses against its own Llama-3 frequency formula. ropekit_rope then rotates query and
 * key in place (the output descriptors are the input ones) in NeoX style, which is
 * what Llama uses. Every element is checked against a float64 reference (SPEC
 * section 5.4) within the bf16 bound of SPEC section 6 (8e-3).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ropekit/ropekit.h"

enum { T = 4, HQ = 32, HK = 8, HEAD = 128, HALF = HEAD / 2, MAX_POS = 8192 };

static const double PI = 3.14159265358979323846;

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

/* Llama-3 scaling of frequency i: long wavelengths (> 8192 positions) are slowed down
 * 8 times, short ones (< 2048) kept, and the band in between blended linearly in
 * 8192 / wavelength. Counts the three kinds in kinds[0..2]. */
static double llama3_inv_freq(int i, int kinds[3]) {
    const double factor = 8.0, low = 1.0, high = 4.0, context = 8192.0;
    double inv = pow(500000.0, -2.0 * i / HEAD), wavelength = 2.0 * PI / inv;
    if (wavelength < context / high) {
        kinds[0]++;
        return inv;
    }
    if (wavelength > context / low) {
        kinds[2]++;
        return inv / factor;
    }
    kinds[1]++;
    double smooth = (context / wavelength - low) / (high - low);
    return (1.0 - smooth) * inv / factor + smooth * inv;
}

/* Checks [T, heads, HEAD] against NeoX rotation with the cache rows of `positions`. */
static long check(const char *name, const uint16_t *in, const uint16_t *out, int heads,
                  const float *cache, const int64_t *positions) {
    long bad = 0;
    for (int t = 0; t < T; t++) {
        const float *c = &cache[positions[t] * HEAD], *s = c + HALF;
        for (int n = 0; n < heads; n++) {
            const uint16_t *x = &in[(t * heads + n) * HEAD], *u = &out[(t * heads + n) * HEAD];
            for (int j = 0; j < HEAD; j++) {
                int i = j % HALF, first = j < HALF;
                double a = bf16_to_double(x[j]), b = bf16_to_double(x[first ? j + HALF : j - HALF]);
                double ref = first ? a * c[i] - b * s[i] : a * c[i] + b * s[i];
                double bound = 8e-3 * (fabs(a * c[i]) + fabs(b * s[i])) + 0x1p-133;
                if (!(fabs(bf16_to_double(u[j]) - ref) <= bound)) {
                    if (bad++ < 5) {
                        printf("%s mismatch: token %d head %d channel %d: got %.6g, want %.6g\n",
                               name, t, n, j, bf16_to_double(u[j]), ref);
                    }
                }
            }
        }
    }
    return bad;
}

int main(void) {
    static float cache[MAX_POS * HEAD];
    static uint16_t query[T * HQ * HEAD], key[T * HK * HEAD];
    static uint16_t query0[T * HQ * HEAD], key0[T * HK * HEAD];
    int64_t positions[T] = {7993, 8000, 8001, MAX_POS - 1};
    uint32_t seed = 31337;

    /* 1. The cache, and a check of the rows this step uses. */
    ropekit_rope_scaling scaling;
    ropekit_rope_scaling_defaults(&scaling, ROPEKIT_SCALING_LLAMA3);
    scaling.factor = 8.0;
    scaling.original_max_position = 8192;
    ropekit_status status =
        ropekit_cos_sin_cache_build(cache, ROPEKIT_F32, MAX_POS, HEAD, 500000.0, &scaling);
    if (status != ROPEKIT_OK) {
        printf("cache build failed: %s: %s\n", ropekit_status_name(status), ropekit_last_error());
        return 1;
    }
    int kinds[3] = {0, 0, 0};
    double inv_freq[HALF];
    for (int i = 0; i < HALF; i++) {
        inv_freq[i] = llama3_inv_freq(i, kinds);
    }
    long cache_bad = 0;
    for (int t = 0; t < T; t++) {
        for (int i = 0; i < HALF; i++) {
            double angle = (double)positions[t] * inv_freq[i];
            const float *row = &cache[positions[t] * HEAD];
            cache_bad += !(fabs(row[i] - cos(angle)) <= 1e-6);
            cache_bad += !(fabs(row[HALF + i] - sin(angle)) <= 1e-6);
        }
    }
    printf("Llama-3 frequencies: %d kept, %d blended, %d divided by 8; cache rows off by more "
           "than 1e-6: %ld\n",
           kinds[0], kinds[1], kinds[2], cache_bad);

    /* 2. Query and key of the new tokens. */
    for (int i = 0; i < T * HQ * HEAD; i++) {
        query0[i] = query[i] = float_to_bf16(2.0f * next_random(&seed));
    }
    for (int i = 0; i < T * HK * HEAD; i++) {
        key0[i] = key[i] = float_to_bf16(2.0f * next_random(&seed));
    }

    /* 3. Rotate in place: the output descriptors are the input ones. */
    const int64_t pos_shape[1] = {T}, cache_shape[2] = {MAX_POS, HEAD};
    const int64_t q_shape[3] = {T, HQ, HEAD}, k_shape[3] = {T, HK, HEAD};
    ropekit_tensor pos_t = ropekit_tensor_make(positions, ROPEKIT_I64, 1, pos_shape, NULL);
    ropekit_tensor cache_t = ropekit_tensor_make(cache, ROPEKIT_F32, 2, cache_shape, NULL);
    ropekit_tensor q_t = ropekit_tensor_make(query, ROPEKIT_BF16, 3, q_shape, NULL);
    ropekit_tensor k_t = ropekit_tensor_make(key, ROPEKIT_BF16, 3, k_shape, NULL);
    ropekit_rope_config config = {.head_size = HEAD, .style = ROPEKIT_ROPE_NEOX};
    status = ropekit_rope(&pos_t, &q_t, &k_t, &cache_t, &q_t, &k_t, &config);
    if (status != ROPEKIT_OK) {
        printf("ropekit_rope failed: %s: %s\n", ropekit_status_name(status), ropekit_last_error());
        return 1;
    }

    /* 4. Check. */
    long bad = check("query", query0, query, HQ, cache, positions);
    bad += check("key", key0, key, HK, cache, positions);
    printf("query[3, head 31, 0..3] at position %lld:", (long long)positions[3]);
    for (int j = 0; j < 4; j++) {
        int i = (3 * HQ + 31) * HEAD + j;
        printf(" %.4f->%.4f", bf16_to_double(query0[i]), bf16_to_double(query[i]));
    }
    printf("\n%s: %ld mismatches in %d elements\n", bad == 0 && cache_bad == 0 ? "PASS" : "FAIL",
           bad, T * (HQ + HK) * HEAD);
    return bad == 0 && cache_bad == 0 ? 0 : 1;
}
