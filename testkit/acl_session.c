/* The ACL session a CANN client sets up, and test tensors moved to and from device memory
 * (acl_session.h). */
#include "testkit/acl_session.h"

#include <stdio.h>

void tk_acl_error(char *err, size_t len, const char *call, int code) {
    const char *msg = aclGetRecentErrMsg();
    if (err && len)
        snprintf(err, len, "%s = %d: %s", call, code, msg ? msg : "");
}

aclError tk_acl_open(struct tk_acl *acl, char *err, size_t len) {
    acl->open = false;
    acl->device = 0;
    acl->stream = NULL;
    aclError rc = aclInit(NULL);
    if (rc != ACL_SUCCESS) {
        tk_acl_error(err, len, "aclInit", rc);
        return rc;
    }
    rc = aclrtSetDevice(acl->device);
    if (rc == ACL_SUCCESS)
        rc = aclrtCreateStream(&acl->stream);
    if (rc != ACL_SUCCESS) {
        tk_acl_error(err, len, acl->stream ? "aclrtCreateStream" : "aclrtSetDevice", rc);
        aclrtResetDevice(acl->device);
        aclFinalize();
        return rc;
    }
    acl->open = true;
    return ACL_SUCCESS;
}

void tk_acl_close(struct tk_acl *acl) {
    if (!acl->open)
        return;
    aclrtDestroyStream(acl->stream);
    aclrtResetDevice(acl->device);
    aclFinalize();
    acl->open = false;
}

int tk_acl_tensor_upload(const struct tk_tensor *t, const void *host_buf, struct tk_acl_tensor *out,
                         char *err, size_t len) {
    size_t bytes = tk_tensor_bytes(t);
    out->dev = NULL;
    out->tensor = NULL;
    aclError rc = aclrtMalloc(&out->dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    if (rc != ACL_SUCCESS) {
        tk_acl_error(err, len, "aclrtMalloc", rc);
        return -1;
    }
    rc = aclrtMemcpy(out->dev, bytes, host_buf, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    if (rc != ACL_SUCCESS) {
        tk_acl_error(err, len, "aclrtMemcpy", rc);
        tk_acl_tensor_release(out);
        return -1;
    }
    int64_t storage = t->buf_elems;
    /* ropekit_dtype values are CANN's aclDataType numbers. */
    out->tensor = aclCreateTensor(t->shape, (uint64_t)t->ndim, (aclDataType)t->dtype, t->strides,
                                  t->offset, ACL_FORMAT_ND, &storage, 1, out->dev);
    if (!out->tensor) {
        tk_acl_error(err, len, "aclCreateTensor", 0);
        tk_acl_tensor_release(out);
        return -1;
    }
    return 0;
}

int tk_acl_tensor_download(const struct tk_tensor *t, const struct tk_acl_tensor *at,
                           void *host_buf, char *err, size_t len) {
    size_t bytes = tk_tensor_bytes(t);
    aclError rc = aclrtMemcpy(host_buf, bytes, at->dev, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    if (rc != ACL_SUCCESS) {
        tk_acl_error(err, len, "aclrtMemcpy", rc);
        return -1;
    }
    return 0;
}

void tk_acl_tensor_release(struct tk_acl_tensor *at) {
    if (at->tensor)
        aclDestroyTensor(at->tensor);
    if (at->dev)
        aclrtFree(at->dev);
    at->tensor = NULL;
    at->dev = NULL;
}
