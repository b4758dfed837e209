/* Float64 reference of RopeWithSinCosCache (SPEC §5.3 cos/sin selection, §5.4 rotation
 * of one head), written from the SPEC's formulas and independent of the library.
 *
 * Selection: coefficient j in [0, h) of token t reads cache row pos_src(j)(t), where
 *   rope                   src(j) = 0
 *   mrope, cache mode 0    src(j) = k for S_k <= j < S_k+1 (S_0 = 0, S_k+1 = S_k + s_k)
 *   mrope, cache mode 1    src(j) = 1 if j % 3 == 1 and j / 3 < s1,
 *                                   2 if j % 3 == 2 and j / 3 < s2, 0 otherwise
 * and c[j] = cache[row][j], s[j] = cache[row][h + j].
 *
 * Rotation of the first R elements of a head (h = R / 2), pair (a, b) sharing c[j], s[j]:
 *   NeoX  (a, b) = (j, j + h)       out[a] = x[a]*c[j] - x[b]*s[j]
 *   GPT-J (a, b) = (2j, 2j + 1)     out[b] = x[b]*c[j] + x[a]*s[j]
 * Elements [R, headSize) pass through unchanged (checked bit for bit by the callers).
 *
 * Products of values widened from fp32/fp16/bf16 are exact in float64; the one fp32
 * effect modelled is a product overflowing to inf (SPEC §1 rule 2). */
#ifndef ROPEKIT_TESTKIT_ROPE_REFERENCE_H_
#define ROPEKIT_TESTKIT_ROPE_REFERENCE_H_

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* How a problem picks its cos/sin rows. nsec == 0 or sections[0] == 0 is plain rope. */
struct tk_rope_select {
    int nsec;
    const int64_t *sections;
    int64_t cache_mode;
};

bool tk_rope_is_mrope(const struct tk_rope_select *sel);

/* Which position row feeds coefficient j (0 <= j < h), for cache modes 0 to 3. */
int tk_rope_src_row(const struct tk_rope_select *sel, int64_t j);

/* Rotates one head in float64. neox selects the pairing; x, out and mag hold rot_dim
 * values, c and s hold rot_dim / 2. mag[i] = |t1| + |t2| (SPEC §6). float64: as for
 * tk_ref_rotate (reference.h). out must not alias x. */
void tk_rope_ref_head(bool neox, int64_t rot_dim, const double *x, const double *c, const double *s,
                      double *out, double *mag, bool float64);

/* Checks the reference against hand-computed NeoX and GPT-J results and against the
 * selection examples of SPEC §5.3. Returns 0 when all hold. */
int tk_rope_ref_self_test(void);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_ROPE_REFERENCE_H_ */
