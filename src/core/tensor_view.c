#include "core/tensor_view.h"

#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"

bool rk_mul_i64(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_mul_overflow(a, b, out);
}
bool rk_add_i64(int64_t a, int64_t b, int64_t *out) {
    return !__builtin_add_overflow(a, b, out);
}

/* The element types: each one's size and name, in one place. The tables it expands are
 * indexed by value (a lookup is one load); other values have size 0 and no name. */
#define RK_DTYPES(X)                                                                               \
    X(ROPEKIT_F32, 4, "f32")                                                                       \
    X(ROPEKIT_F16, 2, "f16")                                                                       \
    X(ROPEKIT_BF16, 2, "bf16")                                                                     \
    X(ROPEKIT_F64, 8, "f64")                                                                       \
    X(ROPEKIT_I64, 8, "i64")

#define RK_DTYPE_SIZE_(dtype, size, name) [dtype] = size,
#define RK_DTYPE_NAME_(dtype, size, name) [dtype] = name,
static const uint8_t rk_dtype_sizes[] = {RK_DTYPES(RK_DTYPE_SIZE_)};
static const char *const rk_dtype_names[] = {RK_DTYPES(RK_DTYPE_NAME_)};

size_t ropekit_dtype_size(ropekit_dtype dtype) {
    return (unsigned)dtype < sizeof rk_dtype_sizes ? rk_dtype_sizes[dtype] : 0;
}

const char *ropekit_dtype_name(ropekit_dtype dtype) {
    const char *name = (unsigned)dtype < sizeof rk_dtype_names / sizeof rk_dtype_names[0]
                           ? rk_dtype_names[dtype]
                           : NULL;
    return name ? name : "?";
}

ropekit_tensor ropekit_tensor_make(void *data, ropekit_dtype dtype, int32_t ndim,
                                   const int64_t *shape, const int64_t *strides) {
    ropekit_tensor t = {0};
    t.data = data;
    t.dtype = dtype;
    if (ndim < 0 || ndim > ROPEKIT_MAX_DIMS || (ndim > 0 && shape == NULL)) {
        t.ndim = -1;
        return t;
    }
    t.ndim = ndim;
    int64_t step = 1;
    for (int32_t i = ndim - 1; i >= 0; i--) {
        t.shape[i] = shape[i];
        t.strides[i] = strides ? strides[i] : step;
        if (!strides && shape[i] > 1 && !rk_mul_i64(step, shape[i], &step))
            step = INT64_MAX; /* caught later by rk_tensor_check_layout */
    }
    return t;
}

struct rk_shape rk_shape_of(const ropekit_tensor *t) {
    struct rk_shape s = {false, 0, {0}};
    if (!t)
        return s;
    s.present = true;
    s.ndim = t->ndim;
    for (int32_t i = 0; i >= 0 && i < t->ndim && i < ROPEKIT_MAX_DIMS; i++)
        s.dims[i] = t->shape[i];
    return s;
}

const char *rk_shape_format(const struct rk_shape *s, char *buf, size_t len) {
    size_t used = 0;
    if (len == 0)
        return buf;
    buf[0] = '\0';
    if (!s->present) {
        snprintf(buf, len, "-");
        return buf;
    }
    if (s->ndim < 0 || s->ndim > ROPEKIT_MAX_DIMS) {
        snprintf(buf, len, "<rank %d>", (int)s->ndim);
        return buf;
    }
    used += (size_t)snprintf(buf + used, len - used, "[");
    for (int32_t i = 0; i < s->ndim && used < len; i++)
        used +=
            (size_t)snprintf(buf + used, len - used, i ? ",%lld" : "%lld", (long long)s->dims[i]);
    if (used < len)
        snprintf(buf + used, len - used, "]");
    return buf;
}

const char *rk_shape_str(const ropekit_tensor *t, char *buf, size_t len) {
    const struct rk_shape s = rk_shape_of(t);
    return rk_shape_format(&s, buf, len);
}

ropekit_status rk_tensor_check_layout(const ropekit_tensor *t, const char *api, const char *name) {
    if (t->ndim < 0 || t->ndim > ROPEKIT_MAX_DIMS)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: %s rank = %d: must be in [0, %d]", api,
                            name, (int)t->ndim, ROPEKIT_MAX_DIMS);
    int64_t numel = 1;
    int64_t lo = 0, hi = 0;
    bool empty = false;
    for (int32_t i = 0; i < t->ndim; i++) {
        if (t->shape[i] < 0)
            return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: %s shape[%d] = %lld: must be >= 0",
                                api, name, (int)i, (long long)t->shape[i]);
        empty = empty || t->shape[i] == 0;
    }
    if (empty) /* no element, whatever the other dims: [2^62, 2^62, 0] is a valid view */
        return ROPEKIT_OK;
    for (int32_t i = 0; i < t->ndim; i++)
        if (!rk_mul_i64(numel, t->shape[i], &numel))
            return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: %s element count overflows int64",
                                api, name);
    int64_t item = (int64_t)ropekit_dtype_size(t->dtype);
    if (item == 0)
        item = 1;
    for (int32_t i = 0; i < t->ndim; i++) {
        int64_t reach;
        if (!rk_mul_i64(t->shape[i] - 1, t->strides[i], &reach) ||
            !rk_mul_i64(reach, item, &reach) ||
            !rk_add_i64(reach < 0 ? lo : hi, reach, reach < 0 ? &lo : &hi))
            return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                                "%s: %s byte span overflows int64 (stride[%d] = %lld)", api, name,
                                (int)i, (long long)t->strides[i]);
    }
    if (!rk_add_i64(hi, item, &hi) || hi > INT64_MAX + lo) /* hi - lo must fit as well */
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: %s byte span overflows int64", api,
                            name);
    return ROPEKIT_OK;
}

int64_t rk_tensor_numel(const ropekit_tensor *t) {
    for (int32_t i = 0; i < t->ndim; i++)
        if (t->shape[i] == 0)
            return 0; /* before the product, which may overflow for an empty view */
    int64_t n = 1;
    for (int32_t i = 0; i < t->ndim; i++)
        n *= t->shape[i];
    return n;
}

struct rk_span rk_tensor_span(const ropekit_tensor *t) {
    struct rk_span s = {0, 0};
    if (rk_tensor_numel(t) == 0)
        return s;
    int64_t item = (int64_t)ropekit_dtype_size(t->dtype);
    for (int32_t i = 0; i < t->ndim; i++) {
        int64_t reach = (t->shape[i] - 1) * t->strides[i] * item;
        if (reach < 0)
            s.lo += reach;
        else
            s.hi += reach;
    }
    s.hi += item;
    return s;
}

struct rk_dim {
    int64_t size;
    int64_t stride;
};

static int rk_dim_cmp(const void *a, const void *b) {
    const struct rk_dim *x = a, *y = b;
    return (x->stride > y->stride) - (x->stride < y->stride);
}

/* Whether two indices of the (non-size-1) dims reach one element, by marking every
 * element reached in a bitmap over the span; -1 when that would take too long or too
 * much memory. Strides are taken by magnitude: the sign does not change which indices
 * collide. */
static int rk_dims_collide(const struct rk_dim *dims, int n) {
    const int64_t max_elements = (int64_t)1 << 20, max_span = (int64_t)1 << 27;
    int64_t count = 1, span = 1;
    for (int i = 0; i < n; i++) {
        if (!rk_mul_i64(count, dims[i].size, &count) || count > max_elements)
            return -1;
        int64_t reach;
        if (!rk_mul_i64(dims[i].stride, dims[i].size - 1, &reach) ||
            !rk_add_i64(span, reach, &span) || span > max_span)
            return -1;
    }
    uint8_t *seen = calloc((size_t)(span / 8 + 1), 1);
    if (!seen)
        return -1;
    int64_t index[ROPEKIT_MAX_DIMS] = {0}, offset = 0;
    int collide = 0;
    for (int64_t k = 0; k < count && !collide; k++) {
        uint8_t bit = (uint8_t)(1u << (offset % 8));
        collide = (seen[offset / 8] & bit) != 0;
        seen[offset / 8] |= bit;
        for (int i = 0; i < n; i++) { /* the next index, odometer order */
            if (++index[i] < dims[i].size) {
                offset += dims[i].stride;
                break;
            }
            offset -= dims[i].stride * (dims[i].size - 1);
            index[i] = 0;
        }
    }
    free(seen);
    return collide;
}

bool rk_tensor_self_overlaps(const ropekit_tensor *t) {
    struct rk_dim dims[ROPEKIT_MAX_DIMS];
    int n = 0;
    if (rk_tensor_numel(t) == 0)
        return false;
    for (int32_t i = 0; i < t->ndim; i++) {
        if (t->shape[i] == 1)
            continue;
        dims[n].size = t->shape[i];
        dims[n].stride = t->strides[i] < 0 ? -t->strides[i] : t->strides[i];
        n++;
    }
    qsort(dims, (size_t)n, sizeof dims[0], rk_dim_cmp);
    int64_t extent = 1; /* elements spanned by the dims seen so far */
    for (int i = 0; i < n; i++) {
        if (dims[i].stride < extent) /* not nested: interleaved, or truly overlapping */
            return rk_dims_collide(dims, n) != 0;
        extent = dims[i].stride * (dims[i].size - 1) + extent;
    }
    return false;
}

/* A view as `rows` runs of `row_bytes` contiguous bytes, `row_stride` apart: the
 * trailing dims that are packed row-major form a run, and the leading dims must walk
 * the runs with one constant stride. Views that do not fit (e.g. every other column)
 * are marked not dense and get the conservative span test. */
struct rk_view_geom rk_view_geom_of(const ropekit_tensor *t) {
    struct rk_view_geom g = {0};
    struct rk_span s = rk_tensor_span(t);
    const int64_t item = (int64_t)ropekit_dtype_size(t->dtype);
    g.span_lo = s.lo;
    g.span_hi = s.hi;
    if (t->ndim < 1 || rk_tensor_numel(t) == 0)
        return g;
    int32_t k = t->ndim; /* dims [k, ndim) are packed */
    int64_t run = 1;
    while (k > 0 && (t->shape[k - 1] == 1 || t->strides[k - 1] == run)) {
        run *= t->shape[k - 1];
        k--;
    }
    int64_t rows = 1, stride = 0;
    g.rows_dense = true;
    for (int32_t i = k - 1; i >= 0; i--) { /* collapse the leading dims into one progression */
        if (t->shape[i] == 1)
            continue;
        int64_t next; /* where a constant progression puts this dim's step */
        if (rows == 1)
            stride = t->strides[i];
        else if (!rk_mul_i64(stride, rows, &next) || t->strides[i] != next)
            g.rows_dense = false;
        rows *= t->shape[i];
    }
    g.rows = rows;
    g.row_stride = rows > 1 ? stride * item : 0;
    g.row_bytes = run * item;
    return g;
}

static int64_t rk_floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

bool rk_views_overlap(const struct rk_view_geom *a, const void *a_data,
                      const struct rk_view_geom *b, const void *b_data) {
    if (a->span_lo == a->span_hi || b->span_lo == b->span_hi)
        return false;
    intptr_t a0 = (intptr_t)a_data, b0 = (intptr_t)b_data;
    if (a0 + a->span_hi <= b0 + b->span_lo || b0 + b->span_hi <= a0 + a->span_lo)
        return false;
    if (!a->rows_dense || !b->rows_dense)
        return true;
    /* A row stride S shared by both views (a single row takes the other's stride). */
    int64_t s = a->rows > 1 ? a->row_stride : b->row_stride;
    if (b->rows > 1 && b->row_stride != s)
        return true;
    if (s <= 0)
        return true; /* two single rows whose spans intersect, or negative strides */
    if (a->row_bytes > s || b->row_bytes > s)
        return true;
    /* Rows i of A and j of B meet iff d + (i - j) * s lies in (-wa, wb), d = a0 - b0. */
    int64_t d = (int64_t)(a0 - b0), wa = a->row_bytes, wb = b->row_bytes;
    int64_t k_lo = -rk_floor_div(wa + d - 1, s); /* smallest k with k*s >= 1 - wa - d */
    int64_t k_hi = rk_floor_div(wb - d - 1, s);  /* largest k with k*s <= wb - d - 1 */
    if (k_lo < -(b->rows - 1))
        k_lo = -(b->rows - 1);
    if (k_hi > a->rows - 1)
        k_hi = a->rows - 1;
    return k_lo <= k_hi;
}

bool rk_tensors_may_alias(const ropekit_tensor *a, const void *a_data, const ropekit_tensor *b,
                          const void *b_data) {
    if (a_data == NULL || b_data == NULL)
        return false;
    struct rk_view_geom ga = rk_view_geom_of(a), gb = rk_view_geom_of(b);
    return rk_views_overlap(&ga, a_data, &gb, b_data);
}
