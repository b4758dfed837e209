/* The aclnn face's apply-rotary problem, shared by phase 1 and the CANN-rules plans. */
#ifndef ROPEKIT_FACES_ACLNN_APPLY_ROTARY_H_
#define ROPEKIT_FACES_ACLNN_APPLY_ROTARY_H_

#include "faces/aclnn/executor.h"
#include "ops/apply_rotary/apply_rotary.h"

/* The problem of entry point `entry` (V1 or V2) from its arguments as views; V1 ignores
 * rotary_mode (CANN's V1 passes "half"). Data is not checked, no argument is missing
 * (V2's rotary_mode NULL is). */
struct rk_ar_problem rk_aclnn_ar_problem(const struct rk_aclnn_entry *entry,
                                         const ropekit_tensor *q, const ropekit_tensor *k,
                                         const ropekit_tensor *cos, const ropekit_tensor *sin,
                                         int64_t layout, const char *rotary_mode);

#endif /* ROPEKIT_FACES_ACLNN_APPLY_ROTARY_H_ */
