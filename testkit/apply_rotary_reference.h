/* Float64 reference of apply rotary (SPEC §14.2): query and key are each rotated over
 * their whole last dim D by cos and sin, which broadcast right-aligned against each
 * (a dim of 1 repeats), one vector at a time through tk_ref_rotate. Written from the SPEC,
 * independent of the library's kernels and of its partial-rotary planning. */
#ifndef ROPEKIT_TESTKIT_APPLY_ROTARY_REFERENCE_H_
#define ROPEKIT_TESTKIT_APPLY_ROTARY_REFERENCE_H_

#include "ropekit/ropekit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The rotated values of x (its views' elements read through shape and strides), dense in
 * x's row-major element order: out[i] and mag[i] (SPEC §6) for element i. mode 0..3,
 * direction 0 forward, 1 backward. x is not written. */
void tk_ref_apply_rotary(int mode, int direction, const ropekit_tensor *x,
                         const ropekit_tensor *cos, const ropekit_tensor *sin, double *out,
                         double *mag);

/* Element i (row-major) of a view, widened to double. */
double tk_view_load(const ropekit_tensor *t, int64_t i);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_APPLY_ROTARY_REFERENCE_H_ */
