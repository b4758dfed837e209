/* How a kernel applies the aclnn face's rules: the node's tensors as aclTensors over the
 * run's buffers, phase 1 of the matching aclnn operator, and its verdict as a GE status.
 * The executor phase 1 makes is destroyed unused; the native API runs the node. */
#ifndef ROPEKIT_GE_ACLNN_CHECK_H_
#define ROPEKIT_GE_ACLNN_CHECK_H_

#include <string>
#include <vector>

#include "aclnn/acl_meta.h"
#include "op_kernels.h"

namespace ropekit_ge {

/* aclTensors for the duration of one check. */
class AclTensors {
  public:
    AclTensors() = default;
    AclTensors(const AclTensors &) = delete;
    AclTensors &operator=(const AclTensors &) = delete;
    ~AclTensors();
    /* A contiguous ND view of v; NULL (and *detail set) when ACL refuses it. */
    aclTensor *Add(const RunValue &v, std::string *detail);

  private:
    std::vector<aclTensor *> tensors_;
};

/* An aclIntArray destroyed at the end of the scope. */
class AclIntArray {
  public:
    explicit AclIntArray(const std::vector<int64_t> &values);
    AclIntArray(const AclIntArray &) = delete;
    AclIntArray &operator=(const AclIntArray &) = delete;
    ~AclIntArray();
    aclIntArray *get() const { return array_; }

  private:
    aclIntArray *array_ = nullptr;
};

/* The verdict of phase 1 (`aclnn_api` names the operator): success destroys the executor;
 * a failure gives ACL_ERROR_GE_PARAM_INVALID (ACL_ERROR_GE_MEMORY_ALLOCATION for the
 * face's out-of-memory code) and *detail carrying the face's code and message. */
ge::Status AclnnVerdict(aclnnStatus status, aclOpExecutor *executor, const char *aclnn_api,
                        std::string *detail);

/* The native API's view of v (contiguous). */
ropekit_tensor NativeTensor(const RunValue &v);
/* A plan owned by a shared_ptr. */
std::shared_ptr<ropekit_plan> OwnPlan(ropekit_plan *plan);
/* The status of a native call that should not fail after phase 1 passed: *detail carries
 * ropekit_last_error(). OUT_OF_RANGE (bad data, e.g. positions) is a parameter error. */
ge::Status NativeVerdict(ropekit_status status, const char *native_api, std::string *detail);

} // namespace ropekit_ge

#endif /* ROPEKIT_GE_ACLNN_CHECK_H_ */
