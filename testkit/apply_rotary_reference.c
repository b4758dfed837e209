/* Float64 reference of apply rotary (apply_rotary_reference.h). */
#include "testkit/apply_rotary_reference.h"

#include <stdlib.h>

#include "testkit/half_bits.h"
#include "testkit/reference.h"

/* Byte offset in view t of the element at x's index idx (x of rank x_ndim): t aligned
 * right against x, its dims of 1 broadcast. */
static int64_t tk_offset(const ropekit_tensor *t, const int64_t *idx, int32_t x_ndim) {
    int64_t off = 0;
    for (int32_t d = 0; d < t->ndim; d++) {
        int64_t i = idx[d + (x_ndim - t->ndim)];
        if (t->shape[d] == 1)
            i = 0;
        off += i * t->strides[d];
    }
    return off * (int64_t)ropekit_dtype_size(t->dtype);
}

double tk_view_load(const ropekit_tensor *t, int64_t i) {
    int64_t idx[ROPEKIT_MAX_DIMS];
    for (int32_t d = t->ndim - 1; d >= 0; d--) {
        idx[d] = i % t->shape[d];
        i /= t->shape[d];
    }
    return tk_load((const char *)t->data + tk_offset(t, idx, t->ndim), t->dtype);
}

void tk_ref_apply_rotary(int mode, int direction, const ropekit_tensor *x,
                         const ropekit_tensor *cos, const ropekit_tensor *sin, double *out,
                         double *mag) {
    const int64_t d = x->shape[x->ndim - 1];
    int64_t rows = 1;
    for (int32_t k = 0; k + 1 < x->ndim; k++)
        rows *= x->shape[k];
    double *v = malloc((size_t)(3 * d) * sizeof *v);
    if (!v || d == 0) {
        free(v);
        return;
    }
    double *c = v + d, *s = v + 2 * d;
    const bool f64 = x->dtype == ROPEKIT_F64 && cos->dtype == ROPEKIT_F64;
    int64_t idx[ROPEKIT_MAX_DIMS];
    for (int64_t r = 0; r < rows; r++) {
        int64_t rem = r;
        for (int32_t k = x->ndim - 2; k >= 0; k--) {
            idx[k] = rem % x->shape[k];
            rem /= x->shape[k];
        }
        for (int64_t j = 0; j < d; j++) {
            idx[x->ndim - 1] = j;
            v[j] = tk_load((const char *)x->data + tk_offset(x, idx, x->ndim), x->dtype);
            c[j] = tk_load((const char *)cos->data + tk_offset(cos, idx, x->ndim), cos->dtype);
            s[j] = tk_load((const char *)sin->data + tk_offset(sin, idx, x->ndim), sin->dtype);
        }
        tk_ref_rotate(mode, direction, d, v, c, s, out + r * d, mag + r * d, f64);
    }
    free(v);
}
