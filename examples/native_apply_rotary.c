/* The native API's apply-rotary call beyond CANN's limits: query and key rotated in place by
 * one cos/sin, with D = 64 (CANN: 128 only), fp32 query with a bf16 key and bf16 tables
 * (CANN: one dtype for all four), and cos/sin broadcast over the batch by a zero stride.
 *
 * Multi-query attention: query is fp32 [B=2, S=8, Nq=8, D=64] and key bf16 [2, 8, Nk=1, 64].
 * ropekit_rotary_coeffs_build makes the bf16 tables [S, D] for positions 0..7 in interleave
 * layout (GPT-J: channel 2i pairs with 2i + 1); a view of shape [2, 8, 1, 64] with strides
 * [0, 64, 64, 1] reads the same rows for both batches. Every element is checked against a
 * float64 reference (SPEC section 14.2) within SPEC section 6's bound of its output dtype:
 * fp32 for query, bf16 for key.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ropekit/ropekit.h"

enum { B = 2, S = 8, NQ = 8, NK = 1, D = 64 };

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

/* Interleave rotation of element j of a head v in float64 (u[2i] = a*c - b*s,
 * u[2i+1] = b*c' + a*s' for the pair (a, b)); *mag gets |t1| + |t2|. */
static double rotate(const double *v, const uint16_t *c, const uint16_t *s, int j, double *mag) {
    const int even = j % 2 == 0;
    double t1 = v[j] * bf16_to_double(c[j]), t2 = v[even ? j + 1 : j - 1] * bf16_to_double(s[j]);
    *mag = fabs(t1) + fabs(t2);
    return even ? t1 - t2 : t1 + t2;
}

int main(void) {
    static float q[B * S * NQ * D], q0[B * S * NQ * D];
    static uint16_t k[B * S * NK * D], k0[B * S * NK * D];
    static uint16_t cos_table[S * D], sin_table[S * D];
    uint32_t seed = 4242;

    ropekit_status status = ropekit_rotary_coeffs_build(cos_table, sin_table, ROPEKIT_BF16, S, D,
                                                        ROPEKIT_ROTARY_INTERLEAVE, 10000.0, NULL);
    if (status != ROPEKIT_OK) {
        printf("building the tables failed: %s\n", ropekit_last_error());
        return 1;
    }
    for (int i = 0; i < B * S * NQ * D; i++) {
        q0[i] = q[i] = 2.0f * next_random(&seed);
    }
    for (int i = 0; i < B * S * NK * D; i++) {
        k0[i] = k[i] = ropekit_f32_to_bf16(2.0f * next_random(&seed));
    }

    const int64_t q_shape[4] = {B, S, NQ, D}, k_shape[4] = {B, S, NK, D};
    const int64_t cs_shape[4] = {B, S, 1, D}, cs_strides[4] = {0, D, D, 1};
    ropekit_tensor qt = ropekit_tensor_make(q, ROPEKIT_F32, 4, q_shape, NULL);
    ropekit_tensor kt = ropekit_tensor_make(k, ROPEKIT_BF16, 4, k_shape, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cos_table, ROPEKIT_BF16, 4, cs_shape, cs_strides);
    ropekit_tensor st = ropekit_tensor_make(sin_table, ROPEKIT_BF16, 4, cs_shape, cs_strides);
    status = ropekit_apply_rotary(&qt, &kt, &ct, &st, ROPEKIT_ROTARY_INTERLEAVE, ROPEKIT_FORWARD);
    if (status != ROPEKIT_OK) {
        printf("ropekit_apply_rotary failed: %s: %s\n", ropekit_status_name(status),
               ropekit_last_error());
        return 1;
    }

    long bad_q = 0, bad_k = 0;
    for (int row = 0; row < B * S * NQ; row++) {
        const int s = row / NQ % S;
        double v[D];
        for (int j = 0; j < D; j++) {
            v[j] = q0[row * D + j];
        }
        for (int j = 0; j < D; j++) {
            double mag, want = rotate(v, &cos_table[s * D], &sin_table[s * D], j, &mag);
            bad_q += !(fabs(q[row * D + j] - want) <= 1e-5 * mag + 0x1p-149);
        }
    }
    for (int row = 0; row < B * S * NK; row++) {
        const int s = row / NK % S;
        double v[D];
        for (int j = 0; j < D; j++) {
            v[j] = bf16_to_double(k0[row * D + j]);
        }
        for (int j = 0; j < D; j++) {
            double mag, want = rotate(v, &cos_table[s * D], &sin_table[s * D], j, &mag);
            bad_k += !(fabs(bf16_to_double(k[row * D + j]) - want) <= 8e-3 * mag + 0x1p-133);
        }
    }
    const int qi = ((1 * S + 7) * NQ + 4) * D, ki = (1 * S + 7) * NK * D; /* batch 1, position 7 */
    printf("query[1,7,4,0:2] %.6f %.6f -> %.6f %.6f (fp32)\n", q0[qi], q0[qi + 1], q[qi],
           q[qi + 1]);
    printf("key[1,7,0,0:2]   %.4f %.4f -> %.4f %.4f (bf16)\n", bf16_to_double(k0[ki]),
           bf16_to_double(k0[ki + 1]), bf16_to_double(k[ki]), bf16_to_double(k[ki + 1]));
    printf("query: %ld mismatches in %d, key: %ld mismatches in %d\n", bad_q, B * S * NQ * D, bad_k,
           B * S * NK * D);
    printf("%s\n", bad_q == 0 && bad_k == 0 ? "PASS" : "FAIL");
    return bad_q == 0 && bad_k == 0 ? 0 : 1;
}
