/* aclCreateTensor and the aclTensor getters. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/tensor_view.h"
#include "runtime/acl_objects.h"

size_t rk_acl_dtype_size(aclDataType dtype) {
    switch (dtype) {
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
        return 4;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
        return 2;
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
    case ACL_HIFLOAT8:
    case ACL_FLOAT8_E5M2:
    case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0:
    case ACL_FLOAT6_E3M2:
    case ACL_FLOAT6_E2M3:
    case ACL_FLOAT4_E2M1:
    case ACL_FLOAT4_E1M2:
    case ACL_HIFLOAT4:
    case ACL_INT4:
    case ACL_UINT1:
        return 1;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64:
        return 8;
    case ACL_COMPLEX128:
        return 16;
    case ACL_COMPLEX32:
        return 4;
    default:
        return 0;
    }
}

size_t aclDataTypeSize(aclDataType dataType) {
    return rk_acl_dtype_size(dataType);
}

ropekit_tensor rk_acl_tensor_view(const aclTensor *t) {
    ropekit_tensor v = {0};
    v.dtype = (ropekit_dtype)t->dtype;
    v.ndim = (int32_t)t->ndim;
    for (uint64_t i = 0; i < t->ndim; i++) {
        v.shape[i] = t->dims[i];
        v.strides[i] = t->strides[i];
    }
    v.data = t->data ? (char *)t->data + t->offset * (int64_t)rk_acl_dtype_size(t->dtype) : NULL;
    return v;
}

const ropekit_tensor *rk_acl_view_or_null(const aclTensor *t, ropekit_tensor *view) {
    if (!t)
        return NULL;
    *view = rk_acl_tensor_view(t);
    return view;
}

#define RK_CT "aclCreateTensor"

aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t *stride, int64_t offset, aclFormat format,
                           const int64_t *storageDims, uint64_t storageDimsNum, void *tensorData) {
    if (viewDimsNum > ROPEKIT_MAX_DIMS || storageDimsNum > ROPEKIT_MAX_DIMS) {
        rk_error_set(
            ROPEKIT_INVALID_ARGUMENT, RK_CT ": %s = %llu: at most %d dimensions",
            viewDimsNum > ROPEKIT_MAX_DIMS ? "viewDimsNum" : "storageDimsNum",
            (unsigned long long)(viewDimsNum > ROPEKIT_MAX_DIMS ? viewDimsNum : storageDimsNum),
            ROPEKIT_MAX_DIMS);
        return NULL;
    }
    if ((viewDimsNum > 0 && !viewDims) || (storageDimsNum > 0 && !storageDims)) {
        rk_error_set(ROPEKIT_NULL_POINTER, RK_CT ": %s = NULL with a non-zero count",
                     !viewDims ? "viewDims" : "storageDims");
        return NULL;
    }
    if (rk_acl_dtype_size(dataType) == 0) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, RK_CT ": dataType = %d: not an aclDataType",
                     (int)dataType);
        return NULL;
    }
    if (offset < 0) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, RK_CT ": offset = %lld: must be >= 0",
                     (long long)offset);
        return NULL;
    }
    ropekit_tensor view =
        ropekit_tensor_make(NULL, (ropekit_dtype)dataType, (int32_t)viewDimsNum, viewDims, stride);
    if (rk_tensor_check_layout(&view, RK_CT, "view") != ROPEKIT_OK)
        return NULL;
    /* Operators address data + offset * item size + span: all of it must fit in int64. */
    int64_t end = 0;
    if (!rk_mul_i64(offset, (int64_t)rk_acl_dtype_size(dataType), &end) ||
        !rk_add_i64(end, rk_tensor_span(&view).hi, &end)) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                     RK_CT ": offset = %lld: the view's byte extent overflows int64",
                     (long long)offset);
        return NULL;
    }
    /* The view must stay inside the storage when a storage shape is given. */
    if (storageDimsNum > 0 && rk_tensor_numel(&view) > 0) {
        int64_t storage = 1;
        for (uint64_t i = 0; i < storageDimsNum; i++) {
            if (storageDims[i] < 0 || !rk_mul_i64(storage, storageDims[i], &storage)) {
                rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                             RK_CT ": storageDims[%llu] = %lld: negative or overflowing",
                             (unsigned long long)i, (long long)storageDims[i]);
                return NULL;
            }
        }
        int64_t lo = offset, hi = offset;
        for (uint64_t i = 0; i < viewDimsNum; i++) {
            int64_t reach = (view.shape[i] - 1) * view.strides[i];
            /* past int64 is past any storage: saturate, so that the check below refuses it */
            if (reach < 0 && !rk_add_i64(lo, reach, &lo))
                lo = INT64_MIN;
            else if (reach >= 0 && !rk_add_i64(hi, reach, &hi))
                hi = INT64_MAX;
        }
        if (lo < 0 || hi >= storage) {
            rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                         RK_CT ": view reaches elements [%lld, %lld] but the storage holds %lld",
                         (long long)lo, (long long)hi, (long long)storage);
            return NULL;
        }
    }
    aclTensor *t = calloc(1, sizeof *t);
    if (!t) {
        rk_error_set(ROPEKIT_NO_MEMORY, RK_CT ": out of memory");
        return NULL;
    }
    t->ndim = viewDimsNum;
    for (uint64_t i = 0; i < viewDimsNum; i++) {
        t->dims[i] = view.shape[i];
        t->strides[i] = view.strides[i];
    }
    t->offset = offset;
    t->dtype = dataType;
    t->format = format;
    t->storage_ndim = storageDimsNum;
    if (storageDimsNum)
        memcpy(t->storage_dims, storageDims, storageDimsNum * sizeof(int64_t));
    t->data = tensorData;
    return t;
}

aclnnStatus aclDestroyTensor(const aclTensor *tensor) {
    free((void *)(uintptr_t)tensor);
    return ACLNN_SUCCESS;
}

static aclnnStatus rk_copy_dims(const int64_t *src, uint64_t n, int64_t **out, uint64_t *count,
                                const char *api) {
    if (!out || !count) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: output pointer = NULL", api);
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    *out = malloc((n ? n : 1) * sizeof(int64_t));
    if (!*out) {
        rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
        return ACLNN_ERR_INNER_NULLPTR;
    }
    if (n)
        memcpy(*out, src, n * sizeof(int64_t));
    *count = n;
    return ACLNN_SUCCESS;
}

#define RK_NEED_TENSOR(t, api)                                                                     \
    do {                                                                                           \
        if (!(t)) {                                                                                \
            rk_error_set(ROPEKIT_NULL_POINTER, api ": tensor = NULL");                             \
            return ACLNN_ERR_PARAM_NULLPTR;                                                        \
        }                                                                                          \
    } while (0)

aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum) {
    RK_NEED_TENSOR(tensor, "aclGetViewShape");
    return rk_copy_dims(tensor->dims, tensor->ndim, viewDims, viewDimsNum, "aclGetViewShape");
}

aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                              uint64_t *stridesNum) {
    RK_NEED_TENSOR(tensor, "aclGetViewStrides");
    return rk_copy_dims(tensor->strides, tensor->ndim, stridesValue, stridesNum,
                        "aclGetViewStrides");
}

aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                               uint64_t *storageDimsNum) {
    RK_NEED_TENSOR(tensor, "aclGetStorageShape");
    return rk_copy_dims(tensor->storage_dims, tensor->storage_ndim, storageDims, storageDimsNum,
                        "aclGetStorageShape");
}

/* The getters of one field, by getter, output type, output parameter and field: each
 * refuses a NULL tensor, then a NULL output. */
#define RK_FIELD_GETTERS(X)                                                                        \
    X(aclGetViewOffset, int64_t, offset, offset)                                                   \
    X(aclGetFormat, aclFormat, format, format)                                                     \
    X(aclGetDataType, aclDataType, dataType, dtype)

#define RK_DEFINE_FIELD_GETTER(api, type, out, field)                                              \
    aclnnStatus api(const aclTensor *tensor, type *out) {                                          \
        RK_NEED_TENSOR(tensor, #api);                                                              \
        if (!out) {                                                                                \
            rk_error_set(ROPEKIT_NULL_POINTER, #api ": " #out " = NULL");                          \
            return ACLNN_ERR_PARAM_NULLPTR;                                                        \
        }                                                                                          \
        *out = tensor->field;                                                                      \
        return ACLNN_SUCCESS;                                                                      \
    }

RK_FIELD_GETTERS(RK_DEFINE_FIELD_GETTER)
#undef RK_DEFINE_FIELD_GETTER
