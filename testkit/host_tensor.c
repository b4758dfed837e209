/* Strided test tensors over host buffers the kit owns (host_tensor.h). */
#include "testkit/host_tensor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tk_tensor_alloc_view(struct tk_tensor *t, ropekit_dtype dtype, int ndim, const int64_t *shape,
                         const int64_t *strides, int64_t offset, int64_t buf_elems) {
    memset(t, 0, sizeof *t);
    if (ndim < 0 || ndim > ROPEKIT_MAX_DIMS || buf_elems < 0)
        return -1;
    t->dtype = dtype;
    t->ndim = ndim;
    for (int i = 0; i < ndim; i++) {
        t->shape[i] = shape[i];
        t->strides[i] = strides[i];
    }
    t->offset = offset;
    t->buf_elems = buf_elems > 0 ? buf_elems : 1;
    t->buf = calloc((size_t)t->buf_elems, ropekit_dtype_size(dtype));
    return t->buf ? 0 : -1;
}

int tk_tensor_alloc(struct tk_tensor *t, ropekit_dtype dtype, int ndim, const int64_t *shape) {
    int64_t strides[ROPEKIT_MAX_DIMS], step = 1;
    if (ndim < 0 || ndim > ROPEKIT_MAX_DIMS)
        return -1;
    for (int i = ndim - 1; i >= 0; i--) {
        strides[i] = step;
        step *= shape[i];
    }
    return tk_tensor_alloc_view(t, dtype, ndim, shape, strides, 0, step);
}

void tk_tensor_free(struct tk_tensor *t) {
    free(t->buf);
    t->buf = NULL;
}

size_t tk_tensor_itemsize(const struct tk_tensor *t) {
    return ropekit_dtype_size(t->dtype);
}

size_t tk_tensor_bytes(const struct tk_tensor *t) {
    return (size_t)t->buf_elems * tk_tensor_itemsize(t);
}

int64_t tk_tensor_numel(const struct tk_tensor *t) {
    int64_t n = 1;
    for (int i = 0; i < t->ndim; i++)
        n *= t->shape[i];
    return n;
}

int64_t tk_tensor_elem(const struct tk_tensor *t, const int64_t *idx) {
    int64_t e = t->offset;
    for (int i = 0; i < t->ndim; i++)
        e += idx[i] * t->strides[i];
    return e;
}

ropekit_tensor tk_tensor_native(const struct tk_tensor *t, void *base) {
    unsigned char *data = (unsigned char *)base + (size_t)t->offset * tk_tensor_itemsize(t);
    return ropekit_tensor_make(data, t->dtype, t->ndim, t->shape, t->strides);
}

bool tk_index_next(int n, const int64_t *shape, int64_t *idx) {
    for (int i = n - 1; i >= 0; i--) {
        if (++idx[i] < shape[i])
            return true;
        idx[i] = 0;
    }
    return false;
}

const char *tk_shape_str(int ndim, const int64_t *shape, char *buf, size_t len) {
    size_t used = 0;
    if (len == 0)
        return buf;
    used += (size_t)snprintf(buf, len, "[");
    for (int i = 0; i < ndim && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, i ? ",%lld" : "%lld", (long long)shape[i]);
    if (used < len)
        snprintf(buf + used, len - used, "]");
    return buf;
}
