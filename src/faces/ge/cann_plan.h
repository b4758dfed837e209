/* How a kernel applies the aclnn face's rules: a native plan made under CANN's rules
 * (ropekit_cann.h) from the node's tensors, once per shape, and the verdicts of the
 * native calls as GE statuses. */
#ifndef ROPEKIT_GE_CANN_PLAN_H_
#define ROPEKIT_GE_CANN_PLAN_H_

#include <memory>
#include <string>

#include "op_kernels.h"
#include "ropekit/ropekit_cann.h"

namespace ropekit_ge {

/* The native API's view of v (contiguous). */
ropekit_tensor NativeTensor(const RunValue &v);
/* A plan owned by a shared_ptr. */
std::shared_ptr<ropekit_plan> OwnPlan(ropekit_plan *plan);
/* The verdict of a ropekit_cann_*_plan_create for `op`: a failure gives
 * ACL_ERROR_GE_PARAM_INVALID (ACL_ERROR_GE_MEMORY_ALLOCATION out of memory) and *detail
 * carrying the aclnn face's message and code. */
ge::Status CannVerdict(ropekit_status status, int32_t cann_code, ropekit_cann_op op,
                       std::string *detail);
/* The status of a native call that should not fail after the plan was made: *detail
 * carries ropekit_last_error(). OUT_OF_RANGE (bad data, e.g. positions) is a parameter
 * error. */
ge::Status NativeVerdict(ropekit_status status, const char *native_api, std::string *detail);

} // namespace ropekit_ge

#endif /* ROPEKIT_GE_CANN_PLAN_H_ */
