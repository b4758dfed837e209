/* The aclnn face's partial-rotary problem, shared by phase 1 and the CANN-rules plans. */
#ifndef ROPEKIT_FACES_ACLNN_PARTIAL_ROTARY_H_
#define ROPEKIT_FACES_ACLNN_PARTIAL_ROTARY_H_

#include "faces/aclnn/executor.h"
#include "ops/partial_rotary/partial_rotary.h"

/* The problem of entry point `entry` (the forward or the gradient) from its arguments as
 * views; slice NULL for none. Data is not checked, no argument is missing. */
struct rk_pr_problem rk_aclnn_pr_problem(const struct rk_aclnn_entry *entry,
                                         const ropekit_tensor *x, const ropekit_tensor *cos,
                                         const ropekit_tensor *sin, int64_t mode,
                                         const int64_t *slice, uint64_t slice_len);

/* The problem of aclnnRotaryPositionEmbedding (out of place over the whole row) from its
 * arguments as views. Data is not checked, no argument is missing. */
struct rk_pr_problem rk_aclnn_rpe_problem(const ropekit_tensor *x, const ropekit_tensor *cos,
                                          const ropekit_tensor *sin, int64_t mode,
                                          const ropekit_tensor *out);

/* aclnnRotaryPositionEmbedding's policy (SPEC §15.3), which its gradient's dy, cos, sin
 * and dx follow too (SPEC §16.3). */
extern const struct rk_pr_policy rk_aclnn_rpe_policy;

/* The problem of aclnnInterleaveRope (out of place over the whole row, interleave-half)
 * from its arguments as views. Data is not checked, no argument is missing. */
struct rk_pr_problem rk_aclnn_ir_problem(const ropekit_tensor *x, const ropekit_tensor *cos,
                                         const ropekit_tensor *sin, const ropekit_tensor *out);

#endif /* ROPEKIT_FACES_ACLNN_PARTIAL_ROTARY_H_ */
