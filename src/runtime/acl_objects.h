/* The aclTensor / aclIntArray / ... objects behind the opaque CANN types. */
#ifndef ROPEKIT_RUNTIME_ACL_OBJECTS_H_
#define ROPEKIT_RUNTIME_ACL_OBJECTS_H_

#include "aclnn/acl_meta.h"
#include "ropekit/ropekit.h"

struct aclTensor {
    uint64_t ndim;
    int64_t dims[ROPEKIT_MAX_DIMS];
    int64_t strides[ROPEKIT_MAX_DIMS];
    int64_t offset;
    aclDataType dtype;
    aclFormat format;
    uint64_t storage_ndim;
    int64_t storage_dims[ROPEKIT_MAX_DIMS];
    void *data;
};

struct aclIntArray {
    uint64_t size;
    int64_t values[]; /* flexible array member */
};

/* Element size of an ACL dtype in bytes (sub-byte types round up to 1); 0 if unknown. */
size_t rk_acl_dtype_size(aclDataType dtype);

/* The native view of an aclTensor: data advanced by the view offset. dtypes outside
 * ropekit_dtype keep their number, which every op rejects. */
ropekit_tensor rk_acl_tensor_view(const aclTensor *t);

/* The view of t written to *view and returned; NULL for no tensor. */
const ropekit_tensor *rk_acl_view_or_null(const aclTensor *t, ropekit_tensor *view);

#endif /* ROPEKIT_RUNTIME_ACL_OBJECTS_H_ */
