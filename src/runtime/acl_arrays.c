/* aclIntArray, aclFloatArray, aclBoolArray, aclScalar and aclTensorList: small value
 * containers that copy what they are given. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "runtime/acl_objects.h"

struct aclFloatArray {
    uint64_t size;
    float values[];
};

struct aclBoolArray {
    uint64_t size;
    bool values[];
};

struct aclScalar {
    aclDataType dtype;
    unsigned char value[16];
};

struct aclTensorList {
    uint64_t size;
    const aclTensor *values[];
};

/* Allocates header + n items of `item` bytes and copies `src` (if n > 0). */
static void *rk_array_new(const void *src, uint64_t n, size_t item, size_t header,
                          const char *api) {
    if (n > 0 && !src) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: value = NULL with size = %llu", api,
                     (unsigned long long)n);
        return NULL;
    }
    if (n > (SIZE_MAX - header) / item) {
        rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: size = %llu: too large", api,
                     (unsigned long long)n);
        return NULL;
    }
    unsigned char *a = malloc(header + (size_t)n * item);
    if (!a) {
        rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
        return NULL;
    }
    memcpy(a, &n, sizeof n); /* every array header starts with its uint64_t size */
    if (n > 0)
        memcpy(a + header, src, (size_t)n * item);
    return a;
}

static aclnnStatus rk_array_size(const void *array, uint64_t *size, const char *api) {
    if (!array || !size) {
        rk_error_set(ROPEKIT_NULL_POINTER, "%s: %s = NULL", api, !array ? "array" : "size");
        return ACLNN_ERR_PARAM_NULLPTR;
    }
    memcpy(size, array, sizeof *size);
    return ACLNN_SUCCESS;
}

/* The arrays of plain values, by the name in their API (acl<Name>Array) and their item type:
 * create, destroy and size differ only in these. */
#define RK_VALUE_ARRAYS(X)                                                                         \
    X(Int, int64_t)                                                                                \
    X(Float, float)                                                                                \
    X(Bool, bool)

#define RK_DEFINE_VALUE_ARRAY(Name, item)                                                          \
    acl##Name##Array *aclCreate##Name##Array(const item *value, uint64_t size) {                   \
        return rk_array_new(value, size, sizeof(item), offsetof(struct acl##Name##Array, values),  \
                            "aclCreate" #Name "Array");                                            \
    }                                                                                              \
                                                                                                   \
    aclnnStatus aclDestroy##Name##Array(const acl##Name##Array *array) {                           \
        free((void *)(uintptr_t)array);                                                            \
        return ACLNN_SUCCESS;                                                                      \
    }                                                                                              \
                                                                                                   \
    aclnnStatus aclGet##Name##ArraySize(const acl##Name##Array *array, uint64_t *size) {           \
        return rk_array_size(array, size, "aclGet" #Name "ArraySize");                             \
    }

RK_VALUE_ARRAYS(RK_DEFINE_VALUE_ARRAY)
#undef RK_DEFINE_VALUE_ARRAY

aclTensorList *aclCreateTensorList(const aclTensor *const *value, uint64_t size) {
    return rk_array_new(value, size, sizeof(aclTensor *), offsetof(struct aclTensorList, values),
                        "aclCreateTensorList");
}

aclnnStatus aclDestroyTensorList(const aclTensorList *array) {
    if (array) {
        for (uint64_t i = 0; i < array->size; i++)
            aclDestroyTensor(array->values[i]);
    }
    free((void *)(uintptr_t)array);
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetTensorListSize(const aclTensorList *tensorList, uint64_t *size) {
    return rk_array_size(tensorList, size, "aclGetTensorListSize");
}

aclScalar *aclCreateScalar(void *value, aclDataType dataType) {
    size_t n = rk_acl_dtype_size(dataType);
    if (!value || n == 0) {
        rk_error_set(!value ? ROPEKIT_NULL_POINTER : ROPEKIT_INVALID_ARGUMENT,
                     "aclCreateScalar: %s", !value ? "value = NULL" : "unknown dataType");
        return NULL;
    }
    aclScalar *s = calloc(1, sizeof *s);
    if (!s) {
        rk_error_set(ROPEKIT_NO_MEMORY, "aclCreateScalar: out of memory");
        return NULL;
    }
    s->dtype = dataType;
    memcpy(s->value, value, n);
    return s;
}

aclnnStatus aclDestroyScalar(const aclScalar *scalar) {
    free((void *)(uintptr_t)scalar);
    return ACLNN_SUCCESS;
}
