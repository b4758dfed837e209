/* Float64 reference of the rotary math (SPEC §3.3 forward, §4.2 backward), written
 * from the SPEC's index formulas and independent of the library's kernels.
 *
 * Every rotary mode is a set of h = L/2 pairs. A pair reads input positions (ip, ir) and
 * writes output positions (op, orr); cos/sin are indexed in the output layout:
 *
 *   forward   u[op]  = v[ip]*c[op]  - v[ir]*s[op]
 *             u[orr] = v[ir]*c[orr] + v[ip]*s[orr]
 *   backward  w[ip]  = c[op]*g[op]   + s[orr]*g[orr]      (the transpose of forward)
 *             w[ir]  = c[orr]*g[orr] - s[op]*g[op]
 *
 *   mode               pair k in [0,h)                       ip     ir       op    orr
 *   0 half             j = k                                 j      j+h      j     j+h
 *   1 interleave       i = k                                 2i     2i+1     2i    2i+1
 *   2 quarter          b = (k/q)*2q, j = k%q (two halves)    b+j    b+j+q    b+j   b+j+q
 *   3 interleave-half  j = k                                 2j     2j+1     j     j+h
 *
 * Operands widened from fp32/fp16/bf16 multiply exactly in float64 (48 significant bits
 * at most), so the reference carries one float64 rounding, far below any tolerance. The
 * one fp32 effect it models is a product overflowing to inf (SPEC §1 rule 2), which
 * decides whether a sum of two huge products is inf or NaN. */
#ifndef ROPEKIT_TESTKIT_REFERENCE_H_
#define ROPEKIT_TESTKIT_REFERENCE_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tk_rot_pair {
    int64_t ip, ir, op, orr;
};

/* Pair k of a vector of length L in the given mode (0..3). L must be even (a multiple
 * of 4 for quarter) and 0 <= k < L/2. */
struct tk_rot_pair tk_rot_pair_of(int mode, int64_t len, int64_t k);

/* Rotates one vector in float64: out[i] is the exact-ish result, mag[i] = |t1| + |t2|
 * (the magnitudes of its two products, SPEC §6). direction 0 = forward, 1 = backward.
 * float64: the operands are float64 data, whose products do not overflow where fp32's do
 * (otherwise a product at fp32's overflow threshold is inf, SPEC §1 rule 2). v, c, s,
 * out and mag hold `len` values; out must not alias v. */
void tk_ref_rotate(int mode, int direction, int64_t len, const double *v, const double *c,
                   const double *s, double *out, double *mag, bool float64);

/* The fp32 model of the interleave rotation (mode 1) that the bit-exact tests expect:
 * SPEC §1, each product rounded to fp32 once, then one fp32 add or subtract (no fused
 * multiply-add). direction 0: forward (SPEC §3.3), u[2i] = v[2i]c[2i] - v[2i+1]s[2i],
 * u[2i+1] = v[2i+1]c[2i+1] + v[2i]s[2i+1]; 1: gradient (SPEC §4.2), w[2i] =
 * c[2i]g[2i] + s[2i+1]g[2i+1], w[2i+1] = c[2i+1]g[2i+1] - s[2i]g[2i]. Pairs (2i, 2i+1)
 * with 2i+1 < len; out must not alias v. */
/* Its steps: fl(a*b), fl(fl(a*b) - fl(c*d)) and fl(fl(a*b) + fl(c*d)). */
float tk_mul32(float a, float b);
float tk_msub32(float a, float b, float c, float d);
float tk_madd32(float a, float b, float c, float d);
void tk_ref32_interleave(int direction, int64_t len, const float *v, const float *c, const float *s,
                         float *out);

/* Checks the reference itself against SPEC §3.3's worked example (mode 1,
 * v=[1,2,3,4], c=[.5,.5,.25,.25], s=[.1,.2,.3,.4] -> u=[0.3,1.2,-0.45,2.2]) and that
 * every mode's backward is the transpose of its forward. Returns 0 when all hold. */
int tk_ref_self_test(void);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_REFERENCE_H_ */
