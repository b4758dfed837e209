/* Helpers shared by the C tests of the ACL surface: cmocka group fixtures, aclTensors over
 * host buffers, typed element access by aclDataType and the expected rotation of a 4-D
 * case. The conversions (testkit/half_bits.h, testkit/acl_dtype.h) and the fp32 model of
 * the interleave rotation (testkit/reference.h, SPEC §3.3 and §4.2, mode 1) are the test
 * kit's, which this header includes; a program including it links ropekit_testkit.
 *
 * Everything is static inline so that each test program takes only what it uses. */
#ifndef ROPEKIT_TESTS_COMMON_ACL_FIXTURE_H_
#define ROPEKIT_TESTS_COMMON_ACL_FIXTURE_H_

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "testkit/acl_dtype.h"
#include "testkit/half_bits.h"
#include "testkit/reference.h"

/* ---- cmocka group fixtures: aclInit + device 0, and their undoing ---- */

static inline int fx_acl_init_group(void **state) {
    (void)state;
    return aclInit(NULL) == ACL_SUCCESS && aclrtSetDevice(0) == ACL_SUCCESS ? 0 : -1;
}

static inline int fx_acl_finalize_group(void **state) {
    (void)state;
    int bad = aclrtResetDevice(0) != ACL_SUCCESS;
    bad |= aclFinalize() != ACL_SUCCESS;
    return bad ? -1 : 0;
}

/* ---- scalar bit helpers and typed element access (the test kit's conversions) ---- */

/* Rounds a float to the nearest value of dt (RNE); fp32 is returned unchanged. */
static inline float fx_round_to(aclDataType dt, float v) {
    return tk_round_f32(tk_acl_float_dtype(dt), v);
}

/* Element i of a buffer of dt: fp16/bf16 at 2 bytes each, every other type as fp32. */
static inline void fx_store(aclDataType dt, void *data, size_t i, float v) {
    const ropekit_dtype d = tk_acl_float_dtype(dt);
    tk_store_f32((char *)data + ropekit_dtype_size(d) * i, d, v);
}

static inline float fx_load(aclDataType dt, const void *data, size_t i) {
    const ropekit_dtype d = tk_acl_float_dtype(dt);
    return tk_load_f32((const char *)data + ropekit_dtype_size(d) * i, d);
}

/* Raw bits of element i (fp32: 32 bits, fp16/bf16: 16 bits). */
static inline uint32_t fx_bits(aclDataType dt, const void *data, size_t i) {
    if (dt == ACL_FLOAT16 || dt == ACL_BF16) {
        uint16_t h;
        memcpy(&h, (const char *)data + 2 * i, 2);
        return h;
    }
    uint32_t u;
    memcpy(&u, (const char *)data + 4 * i, 4);
    return u;
}

/* Bits that `v` (already rounded to dt) has in dt. */
static inline uint32_t fx_bits_of(aclDataType dt, float v) {
    return tk_bits_in(tk_acl_float_dtype(dt), v);
}

/* A small exactly representable value (k/8 in [-4, 4)) for every dtype. */
static inline float fx_pattern(size_t i, unsigned salt) {
    unsigned k = (unsigned)((i * 2654435761u + salt * 40503u) >> 7) % 64u;
    return ((float)k - 32.0f) / 8.0f;
}

/* ---- tensors over host buffers ---- */

/* A tensor together with the host storage it views. `bytes` is the storage size. */
struct fx_tensor {
    aclTensor *t;
    aclDataType dt;
    int64_t ndim;
    int64_t dims[8];
    int64_t strides[8];
    int64_t offset;
    void *buf;
    size_t bytes;
};

static inline int64_t fx_numel(const int64_t *dims, int64_t ndim) {
    int64_t n = 1;
    for (int64_t i = 0; i < ndim; i++)
        n *= dims[i];
    return n;
}

/* Builds a tensor of `ndim` dims (strides NULL: contiguous) with `offset` elements
 * of lead-in (the storage starts at element 0). The storage is allocated with malloc and filled
 * with fx_pattern values (any dtype that is not a float type gets a byte pattern). `with_data`
 * false passes a NULL data pointer to aclCreateTensor (storage is still allocated). Returns 0 on
 * success. */
static inline int fx_tensor_init(struct fx_tensor *f, aclDataType dt, int64_t ndim,
                                 const int64_t *dims, const int64_t *strides, int64_t offset,
                                 bool with_data) {
    memset(f, 0, sizeof *f);
    f->dt = dt;
    f->ndim = ndim;
    f->offset = offset;
    int64_t step = 1;
    for (int64_t i = ndim - 1; i >= 0; i--) {
        f->dims[i] = dims[i];
        f->strides[i] = strides ? strides[i] : step;
        step *= dims[i] > 1 ? dims[i] : 1;
    }
    int64_t hi = offset; /* last element reached; negative strides must be balanced by
                          * the offset so that no index goes below 0 */
    bool empty = fx_numel(dims, ndim) == 0;
    for (int64_t i = 0; i < ndim && !empty; i++)
        hi += (dims[i] - 1) * (f->strides[i] > 0 ? f->strides[i] : 0);
    size_t elems = empty ? (size_t)offset : (size_t)hi + 1;
    f->bytes = elems * tk_acl_item(dt);
    f->buf = malloc(f->bytes ? f->bytes : 1);
    if (!f->buf)
        return -1;
    bool is_float = dt == ACL_FLOAT || dt == ACL_FLOAT16 || dt == ACL_BF16;
    for (size_t i = 0; i < elems; i++) {
        if (is_float)
            fx_store(dt, f->buf, i, fx_pattern(i, (unsigned)dt + 7u * (unsigned)ndim));
        else
            memset((char *)f->buf + i * tk_acl_item(dt), (int)(i * 13u + 5u) & 0xff,
                   tk_acl_item(dt));
    }
    f->t = aclCreateTensor(dims, (uint64_t)ndim, dt, strides, offset, ACL_FORMAT_ND, NULL, 0,
                           with_data ? f->buf : NULL);
    return f->t ? 0 : -1;
}

/* Contiguous 4-D tensor. */
static inline int fx_tensor4(struct fx_tensor *f, aclDataType dt, int64_t d0, int64_t d1,
                             int64_t d2, int64_t d3) {
    int64_t dims[4] = {d0, d1, d2, d3};
    return fx_tensor_init(f, dt, 4, dims, NULL, 0, true);
}

static inline void fx_tensor_free(struct fx_tensor *f) {
    if (f->t)
        aclDestroyTensor(f->t);
    free(f->buf);
    f->t = NULL;
    f->buf = NULL;
}

/* Storage index of element (i0, i1, i2, j) of a 4-D fixture tensor. */
static inline size_t fx_at4(const struct fx_tensor *f, int64_t i0, int64_t i1, int64_t i2,
                            int64_t j) {
    return (size_t)(f->offset + i0 * f->strides[0] + i1 * f->strides[1] + i2 * f->strides[2] +
                    j * f->strides[3]);
}

/* Index into a cos/sin tensor that broadcasts over x: size-1 dims read index 0. */
static inline size_t fx_at4_bcast(const struct fx_tensor *f, int64_t i0, int64_t i1, int64_t i2,
                                  int64_t j) {
    return fx_at4(f, f->dims[0] == 1 ? 0 : i0, f->dims[1] == 1 ? 0 : i1, f->dims[2] == 1 ? 0 : i2,
                  j);
}

/* Expected contents of x after rotating x[..., start:start+len) in place with cos/sin
 * (forward when `grad` is false). `expect` is a copy of x's storage to modify. */
static inline void fx_expect_rotation(const struct fx_tensor *x, const struct fx_tensor *c,
                                      const struct fx_tensor *s, int64_t start, int64_t len,
                                      bool grad, void *expect) {
    float v[64], cc[64], ss[64], u[64];
    for (int64_t i0 = 0; i0 < x->dims[0]; i0++)
        for (int64_t i1 = 0; i1 < x->dims[1]; i1++)
            for (int64_t i2 = 0; i2 < x->dims[2]; i2++) {
                for (int64_t j = 0; j < len; j++) {
                    v[j] = fx_load(x->dt, x->buf, fx_at4(x, i0, i1, i2, start + j));
                    cc[j] = fx_load(c->dt, c->buf, fx_at4_bcast(c, i0, i1, i2, j));
                    ss[j] = fx_load(s->dt, s->buf, fx_at4_bcast(s, i0, i1, i2, j));
                }
                if (grad)
                    tk_ref32_interleave(1, len, v, cc, ss, u);
                else
                    tk_ref32_interleave(0, len, v, cc, ss, u);
                for (int64_t j = 0; j < len; j++)
                    fx_store(x->dt, expect, fx_at4(x, i0, i1, i2, start + j), u[j]);
            }
}

#endif /* ROPEKIT_TESTS_COMMON_ACL_FIXTURE_H_ */
