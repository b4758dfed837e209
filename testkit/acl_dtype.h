/* aclDataType facts the tests share: element sizes, the float types, and the ropekit
 * dtype of a float aclDataType, written down here once (independently of the library's
 * aclDataTypeSize). Header-only. */
#ifndef ROPEKIT_TESTKIT_ACL_DTYPE_H_
#define ROPEKIT_TESTKIT_ACL_DTYPE_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_base.h"
#include "ropekit/ropekit.h"

#ifdef __cplusplus
extern "C" {
#endif

/* fp32, fp16 or bf16. */
static inline bool tk_acl_is_float(int64_t dt) {
    return dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16;
}

/* Bytes of one element of a test buffer: 2 for the 16-bit types, 8 for the 64-bit ones,
 * 1 for the byte types and 4 for everything else. */
static inline size_t tk_acl_item(aclDataType dt) {
    switch (dt) {
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
        return 2;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
        return 8;
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
        return 1;
    default:
        return 4;
    }
}

/* The element size ropekit's layout check counts for an ACL dtype: the ropekit dtypes'
 * sizes (fp32 4, fp16/bf16 2, int64 and double 8) and 1 for the types ropekit does not
 * know. */
static inline int64_t tk_acl_layout_item(int64_t dt) {
    return dt == ACL_FLOAT                       ? 4
           : dt == ACL_FLOAT16 || dt == ACL_BF16 ? 2
           : dt == ACL_INT64 || dt == ACL_DOUBLE ? 8
                                                 : 1;
}

/* The ropekit dtype an element is read and written as: fp16 and bf16 as themselves,
 * every other type as fp32 (4 bytes). */
static inline ropekit_dtype tk_acl_float_dtype(aclDataType dt) {
    return dt == ACL_FLOAT16 ? ROPEKIT_F16 : dt == ACL_BF16 ? ROPEKIT_BF16 : ROPEKIT_F32;
}

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_ACL_DTYPE_H_ */
