/* Deterministic contents for partial-rotary test tensors. */
#ifndef ROPEKIT_TESTKIT_PR_FILL_H_
#define ROPEKIT_TESTKIT_PR_FILL_H_

#include "testkit/pr_case.h"
#include "testkit/rng.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Every element of the view uniform in [lo, hi) (rounded to the dtype), in row-major
 * order. Buffer elements outside the view are left as they are. */
void tk_pr_fill_uniform(struct tk_tensor *t, struct tk_rng *rng, double lo, double hi);

/* cos/sin of real rotary angles: the row at leading flat index p (over cos's leading
 * dimensions) is position p + 1, and pair k of the mode's layout (reference.h) shares
 * the angle (p + 1) * base^(-2k/L), as a model's frequency table does. */
void tk_pr_fill_rotary_angles(struct tk_pr_case *pc, double base);

/* cos(a) * scale and sin(a) * scale with an independent random angle a per element. */
void tk_pr_fill_random_angles(struct tk_pr_case *pc, struct tk_rng *rng, double scale);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_PR_FILL_H_ */
