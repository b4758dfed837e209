/* Shape and stride arithmetic on ropekit_tensor descriptors: element counts with
 * overflow checks, the byte span a view touches, and self-overlap detection. */
#ifndef ROPEKIT_CORE_TENSOR_VIEW_H_
#define ROPEKIT_CORE_TENSOR_VIEW_H_

#include <stdbool.h>
#include <stdint.h>

#include "ropekit/ropekit.h"

/* Bytes touched by a view, relative to its data pointer: [lo, hi). Empty views give
 * lo == hi == 0. */
struct rk_span {
    int64_t lo;
    int64_t hi;
};

/* Checks rank, non-negative dims and that the element count and the byte span fit
 * in int64. `api` and `name` go into the error message. */
ropekit_status rk_tensor_check_layout(const ropekit_tensor *t, const char *api, const char *name);

/* Element count (the caller has run rk_tensor_check_layout). */
int64_t rk_tensor_numel(const ropekit_tensor *t);

struct rk_span rk_tensor_span(const ropekit_tensor *t);

/* True when two distinct indices of the view address the same element. Layouts whose
 * dims nest (sorted by |stride|, each stride at least the extent of the smaller ones)
 * are decided at once; others (interleaved, e.g. shape [3, 2] strides [2, 3]) by marking
 * every element reached, when the view has at most 2^20 elements over a span of at most
 * 2^27; larger interleaved layouts are reported as overlapping. Size-1 dims are ignored. */
bool rk_tensor_self_overlaps(const ropekit_tensor *t);

/* Where one view's bytes lie, for overlap tests with real addresses: its span, and
 * when it is `rows` runs of `row_bytes` contiguous bytes `row_stride` apart. */
struct rk_view_geom {
    int64_t span_lo, span_hi; /* bytes relative to data */
    bool rows_dense;          /* each of `rows` rows is `row_bytes` contiguous bytes */
    int64_t rows, row_stride, row_bytes;
};

struct rk_view_geom rk_view_geom_of(const ropekit_tensor *t);

/* The one overlap test: true when the two views may share a byte (exact for dense rows
 * with a common row stride, conservative otherwise). Empty views overlap nothing. */
bool rk_views_overlap(const struct rk_view_geom *a, const void *a_data,
                      const struct rk_view_geom *b, const void *b_data);

/* rk_views_overlap of two tensors (false when a data pointer is NULL). */
bool rk_tensors_may_alias(const ropekit_tensor *a, const void *a_data, const ropekit_tensor *b,
                          const void *b_data);

/* A view's shape, kept by plans for their descriptions (formatting it costs more than
 * planning, so it waits until a description is asked for). */
struct rk_shape {
    bool present; /* false: no tensor */
    int32_t ndim;
    int64_t dims[ROPEKIT_MAX_DIMS];
};
struct rk_shape rk_shape_of(const ropekit_tensor *t); /* t may be NULL */

/* "[2,4,8,128]" ("-" for no tensor) into buf. */
const char *rk_shape_format(const struct rk_shape *s, char *buf, size_t len);
const char *rk_shape_str(const ropekit_tensor *t, char *buf, size_t len);

/* Multiply / add with overflow detection (false on overflow). */
bool rk_mul_i64(int64_t a, int64_t b, int64_t *out);
bool rk_add_i64(int64_t a, int64_t b, int64_t *out);

#endif /* ROPEKIT_CORE_TENSOR_VIEW_H_ */
