/* The ACL runtime set-up a CANN client performs (aclInit, aclrtSetDevice, a stream),
 * and helpers to move a test tensor to "device" memory and describe it as an aclTensor,
 * the way the official two-phase examples do. */
#ifndef ROPEKIT_TESTKIT_ACL_SESSION_H_
#define ROPEKIT_TESTKIT_ACL_SESSION_H_

#include <stdbool.h>
#include <stddef.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "testkit/host_tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tk_acl {
    bool open;
    int32_t device;
    aclrtStream stream;
};

/* aclInit(NULL), aclrtSetDevice(0), aclrtCreateStream. On failure returns the ACL code
 * and writes a message into err. */
aclError tk_acl_open(struct tk_acl *acl, char *err, size_t len);
/* Destroys the stream, resets the device and finalizes (safe on a closed session). */
void tk_acl_close(struct tk_acl *acl);

/* A tensor's buffer in device memory, with the aclTensor that views it. */
struct tk_acl_tensor {
    void *dev;
    aclTensor *tensor;
};

/* aclrtMalloc + copy of the host buffer + aclCreateTensor with the tensor's shape,
 * strides and offset over a 1-D storage of the whole buffer. Returns 0 on success;
 * otherwise the message names the failing call. */
int tk_acl_tensor_upload(const struct tk_tensor *t, const void *host_buf, struct tk_acl_tensor *out,
                         char *err, size_t len);
/* Copies the device buffer back into host_buf (tk_tensor_bytes(t) bytes). */
int tk_acl_tensor_download(const struct tk_tensor *t, const struct tk_acl_tensor *at,
                           void *host_buf, char *err, size_t len);
void tk_acl_tensor_release(struct tk_acl_tensor *at);

/* "<call> = <code>: <aclGetRecentErrMsg()>" into err. */
void tk_acl_error(char *err, size_t len, const char *call, int code);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_ACL_SESSION_H_ */
