/* A test tensor: a strided view (shape, element strides, element offset) over a host
 * buffer the tool owns. The buffer may be larger than the view (padding, gaps,
 * negative strides), which is how verify builds non-contiguous inputs and then checks
 * that nothing outside the rotated elements changed. */
#ifndef ROPEKIT_TESTKIT_HOST_TENSOR_H_
#define ROPEKIT_TESTKIT_HOST_TENSOR_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ropekit/ropekit.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tk_tensor {
    ropekit_dtype dtype;
    int ndim;
    int64_t shape[ROPEKIT_MAX_DIMS];
    int64_t strides[ROPEKIT_MAX_DIMS]; /* in elements; may be 0 or negative */
    int64_t offset;                    /* buffer element index of element [0,...,0] */
    int64_t buf_elems;                 /* buffer length in elements (>= 1) */
    unsigned char *buf;
};

/* Allocates a zeroed, C-contiguous tensor. Returns 0 on success. */
int tk_tensor_alloc(struct tk_tensor *t, ropekit_dtype dtype, int ndim, const int64_t *shape);
/* Allocates a zeroed buffer of buf_elems elements viewed with the given strides and
 * offset; the caller guarantees the view fits. Returns 0 on success. */
int tk_tensor_alloc_view(struct tk_tensor *t, ropekit_dtype dtype, int ndim, const int64_t *shape,
                         const int64_t *strides, int64_t offset, int64_t buf_elems);
void tk_tensor_free(struct tk_tensor *t);

size_t tk_tensor_itemsize(const struct tk_tensor *t);
size_t tk_tensor_bytes(const struct tk_tensor *t); /* whole buffer */
int64_t tk_tensor_numel(const struct tk_tensor *t);
/* Buffer element index of the view element `idx` (ndim indices). */
int64_t tk_tensor_elem(const struct tk_tensor *t, const int64_t *idx);
static inline unsigned char *tk_tensor_ptr(const struct tk_tensor *t, int64_t elem) {
    return t->buf + (size_t)elem * tk_tensor_itemsize(t);
}

/* The view as a native descriptor over `base` (a copy of the buffer, or the buffer). */
ropekit_tensor tk_tensor_native(const struct tk_tensor *t, void *base);

/* Advances a row-major multi-index over `shape` (n dims); false after the last one.
 * With n == 0 there is exactly one (empty) index: the first call returns false. */
bool tk_index_next(int n, const int64_t *shape, int64_t *idx);

/* "[4,1024,8,128]" into buf. */
const char *tk_shape_str(int ndim, const int64_t *shape, char *buf, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_HOST_TENSOR_H_ */
