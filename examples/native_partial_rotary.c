/* The native API: rotate-half RoPE on bf16 queries, then the backward pass.
 *
 * x is [B=2, S=16, N=4, D=128] in bf16; cos/sin are fp32 [2,16,1,128], one row per
 * token broadcast over the 4 heads, built from the usual rotary frequency table
 * inv_freq[j] = 10000^(-2j/D). ROPEKIT_ROTARY_HALF pairs channel j with j + 64 (NeoX
 * layout). The forward result is checked against a float64 reference (SPEC sections
 * 3.3 and 6, bf16 bound 8e-3); the backward (the transpose of the rotation, hence
 * its inverse here because cos^2 + sin^2 = 1) must give x back up to bf16 rounding.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ropekit/ropekit.h"

enum { B = 2, S = 16, N = 4, D = 128, H = D / 2, COUNT = B * S * N * D };

/* bf16 is the upper half of an fp32; round to nearest even (finite values only). */
static uint16_t float_to_bf16(float f) {
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

int main(void) {
    static uint16_t x0[COUNT], x[COUNT];
    static float cos_table[B * S * D], sin_table[B * S * D];
    uint32_t seed = 99;

    /* Batch b holds positions 100*b .. 100*b + 15, so the two batches differ. */
    for (int t = 0; t < B * S; t++) {
        int position = 100 * (t / S) + t % S;
        for (int j = 0; j < H; j++) {
            double angle = position * pow(10000.0, -2.0 * j / D);
            cos_table[t * D + j] = cos_table[t * D + j + H] = (float)cos(angle);
            sin_table[t * D + j] = sin_table[t * D + j + H] = (float)sin(angle);
        }
    }
    for (int i = 0; i < COUNT; i++) {
        x0[i] = x[i] = float_to_bf16(4.0f * next_random(&seed));
    }

    const int64_t x_shape[4] = {B, S, N, D}, cs_shape[4] = {B, S, 1, D};
    ropekit_tensor xt = ropekit_tensor_make(x, ROPEKIT_BF16, 4, x_shape, NULL);
    ropekit_tensor ct = ropekit_tensor_make(cos_table, ROPEKIT_F32, 4, cs_shape, NULL);
    ropekit_tensor st = ropekit_tensor_make(sin_table, ROPEKIT_F32, 4, cs_shape, NULL);

    ropekit_status status =
        ropekit_partial_rotary(&xt, &ct, &st, ROPEKIT_ROTARY_HALF, 0, D, ROPEKIT_FORWARD);
    if (status != ROPEKIT_OK) {
        printf("forward failed: %s: %s\n", ropekit_status_name(status), ropekit_last_error());
        return 1;
    }

    /* Forward check: u[j] = v[j]c[j] - v[j+h]s[j], u[j+h] = v[j+h]c[j+h] + v[j]s[j+h]. */
    long bad = 0;
    for (int i = 0; i < COUNT; i++) {
        int j = i % D, token = i / (N * D), first = j < H;
        double a = bf16_to_double(x0[i]);
        double b = bf16_to_double(x0[first ? i + H : i - H]);
        double c = cos_table[token * D + j], s = sin_table[token * D + j];
        double ref = first ? a * c - b * s : a * c + b * s;
        double mag = fabs(a * c) + fabs(b * s);
        if (!(fabs(bf16_to_double(x[i]) - ref) <= 8e-3 * mag + 0x1p-133)) {
            bad++;
        }
    }
    printf("forward x[1,15,3,0..3]:");
    for (int j = 0; j < 4; j++) {
        int i = ((1 * S + 15) * N + 3) * D + j;
        printf(" %.4f->%.4f", bf16_to_double(x0[i]), bf16_to_double(x[i]));
    }
    printf("\nforward: %ld mismatches\n", bad);

    /* The backward pass rotates by the negative angle and restores x. */
    status = ropekit_partial_rotary(&xt, &ct, &st, ROPEKIT_ROTARY_HALF, 0, D, ROPEKIT_BACKWARD);
    if (status != ROPEKIT_OK) {
        printf("backward failed: %s: %s\n", ropekit_status_name(status), ropekit_last_error());
        return 1;
    }
    double worst = 0.0;
    long far = 0;
    for (int i = 0; i < COUNT; i++) {
        int j = i % D;
        double pair = fabs(bf16_to_double(x0[i])) + fabs(bf16_to_double(x0[j < H ? i + H : i - H]));
        double err = fabs(bf16_to_double(x[i]) - bf16_to_double(x0[i]));
        worst = err > worst ? err : worst;
        far += !(err <= 1e-2 * pair); /* two bf16 roundings of values up to |a| + |b| */
    }
    printf("backward restores x: max |x' - x| = %.3g, %ld elements out of bound\n", worst, far);
    printf("%s\n", bad == 0 && far == 0 ? "PASS" : "FAIL");
    return bad == 0 && far == 0 ? 0 : 1;
}
