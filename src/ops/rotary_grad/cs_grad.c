/* The cos/sin gradient of a rotary forward out = x*cos + rotate(x)*sin over the slice
 * [start, start + len) of each row: per element j of a cos/sin row,
 *   dcos[j] = sum over the rows it broadcast to of dy[j] * x[src(j)]
 *   dsin[j] = sum of sign(j) * dy[j] * x[partner(j)]
 * with the mode's pairing (SPEC §16.2). Each product and sum in float64 (a float32 or
 * 16-bit product is exact there), the rows in one order (x's leading dims, last fastest)
 * whatever the split: the same bits on every thread count and instruction set. */
#include <string.h>

#include "core/dtype_convert.h"
#include "core/parallel.h"
#include "kernels/dispatch.h"
#include "kernels/simd/elem.h"
#include "ops/rotary_grad/rotary_grad.h"

/* An output row moves at least this many input bytes per task. */
#define RK_CSG_MIN_TASK_BYTES (64 * 1024)

void rk_csg_plan_make(struct rk_csg_plan *cs, const struct rk_rg_problem *p, int64_t start,
                      int64_t len) {
    const ropekit_tensor *x = p->x, *dy = p->dy, *c = p->dcos, *s = p->dsin;
    memset(cs, 0, sizeof *cs);
    cs->active = true;
    cs->mode = (int)p->mode;
    cs->x_dtype = x->dtype;
    cs->cs_dtype = c->dtype;
    cs->start = start;
    cs->len = len;
    const int64_t xs = (int64_t)ropekit_dtype_size(x->dtype);
    const int64_t ds = (int64_t)ropekit_dtype_size(c->dtype);
    const int32_t lead_x = x->ndim - 1, lead_c = c->ndim - 1;
    cs->x_col = x->strides[lead_x] * xs;
    cs->dy_col = dy->strides[lead_x] * xs;
    cs->c_col = c->strides[lead_c] * ds;
    cs->s_col = s->strides[lead_c] * ds;
    cs->groups = 1;
    cs->reduced = 1;
    for (int32_t k = 0; k < lead_x; k++) {
        const int64_t ext = x->shape[k];
        const int32_t kc = k - (lead_x - lead_c);
        const int64_t cext = kc >= 0 ? c->shape[kc] : 1;
        if (ext == 1 && cext == 1)
            continue;
        if (cext == ext) {
            cs->keep_ext[cs->nkeep] = ext;
            cs->keep_x[cs->nkeep] = x->strides[k] * xs;
            cs->keep_dy[cs->nkeep] = dy->strides[k] * xs;
            cs->keep_c[cs->nkeep] = c->strides[kc] * ds;
            cs->keep_s[cs->nkeep] = s->strides[kc] * ds;
            cs->nkeep++;
            cs->groups *= ext;
        } else { /* cos broadcast over this dim */
            cs->red_ext[cs->nred] = ext;
            cs->red_x[cs->nred] = x->strides[k] * xs;
            cs->red_dy[cs->nred] = dy->strides[k] * xs;
            cs->nred++;
            cs->reduced *= ext;
        }
    }
    int64_t group_bytes = 1, row_bytes; /* only steers the split: saturates */
    if (!rk_mul_i64(len, 2 * xs, &row_bytes) || !rk_mul_i64(cs->reduced, row_bytes, &group_bytes))
        group_bytes = INT64_MAX;
    if (group_bytes < 1)
        group_bytes = 1;
    struct rk_split split = rk_split_work(cs->groups, group_bytes, RK_CSG_MIN_TASK_BYTES);
    cs->groups_per_task = split.items_per_task > 0 ? split.items_per_task : 1;
    cs->tasks = cs->groups > 0 ? (cs->groups + cs->groups_per_task - 1) / cs->groups_per_task : 0;
    cs->threads = split.threads < 1 ? 1 : split.threads;
}

int64_t rk_csg_scratch_bytes(const struct rk_csg_plan *cs) {
    return 4 * cs->len * (int64_t)sizeof(double); /* x row, dy row, two sums */
}

/* n elements of a row (byte stride `col`) of dtype `dt`, as float64. A dense row has its
 * own loop (the same conversions, which the compiler can vectorize). */
static void rk_load_row(double *dst, const char *src, int64_t col, ropekit_dtype dt, int64_t n) {
    switch (dt) {
    case ROPEKIT_F32:
        if (col == (int64_t)sizeof(float)) {
            for (int64_t j = 0; j < n; j++) {
                float v;
                memcpy(&v, src + j * (int64_t)sizeof(float), sizeof v);
                dst[j] = v;
            }
            return;
        }
        for (int64_t j = 0; j < n; j++) {
            float v;
            memcpy(&v, src + j * col, sizeof v);
            dst[j] = v;
        }
        return;
    case ROPEKIT_F64:
        for (int64_t j = 0; j < n; j++)
            memcpy(&dst[j], src + j * col, sizeof(double));
        return;
    case ROPEKIT_F16:
    case ROPEKIT_BF16:
        if (dt == ROPEKIT_BF16 && col == (int64_t)sizeof(uint16_t)) {
            for (int64_t j = 0; j < n; j++) {
                uint16_t h;
                memcpy(&h, src + j * (int64_t)sizeof h, sizeof h);
                dst[j] = rk_bf16_to_f32(h);
            }
            return;
        }
        for (int64_t j = 0; j < n; j++) {
            uint16_t h;
            memcpy(&h, src + j * col, sizeof h);
            dst[j] = dt == ROPEKIT_F16 ? rk_f16_to_f32(h) : rk_bf16_to_f32(h);
        }
        return;
    default:
        return;
    }
}

/* The sums, rounded once to the output dtype; a NaN is the canonical one (SPEC §1). */
static void rk_store_row(char *dst, int64_t col, ropekit_dtype dt, const double *src, int64_t n) {
    for (int64_t j = 0; j < n; j++) {
        char *d = dst + j * col;
        const double v = src[j];
        if (dt == ROPEKIT_F64) {
            rk_store_f64(d, v);
        } else if (dt == ROPEKIT_F32 || v != v) {
            rk_store_elem(d, (float)v, rk_kdtype_of(dt));
        } else {
            const uint16_t h = dt == ROPEKIT_F16 ? rk_f64_to_f16(v) : rk_f64_to_bf16(v);
            memcpy(d, &h, sizeof h);
        }
    }
}

/* Adds one row's products: dcos += dy * x[src], dsin += sign * dy * x[partner]. */
static void rk_accumulate(int mode, int64_t len, const double *x, const double *dy, double *ac,
                          double *as) {
    const int64_t h = len / 2;
    switch (mode) {
    case ROPEKIT_ROTARY_HALF:
        for (int64_t j = 0; j < len; j++)
            ac[j] += dy[j] * x[j];
        for (int64_t j = 0; j < h; j++) {
            as[j] -= dy[j] * x[j + h];
            as[j + h] += dy[j + h] * x[j];
        }
        return;
    case ROPEKIT_ROTARY_INTERLEAVE:
        for (int64_t j = 0; j < len; j++)
            ac[j] += dy[j] * x[j];
        for (int64_t j = 0; j + 1 < len; j += 2) {
            as[j] -= dy[j] * x[j + 1];
            as[j + 1] += dy[j + 1] * x[j];
        }
        return;
    case ROPEKIT_ROTARY_QUARTER: {
        const int64_t q = len / 4;
        for (int64_t j = 0; j < len; j++)
            ac[j] += dy[j] * x[j];
        for (int64_t b = 0; b < len; b += 2 * q)
            for (int64_t j = b; j < b + q; j++) {
                as[j] -= dy[j] * x[j + q];
                as[j + q] += dy[j + q] * x[j];
            }
        return;
    }
    case ROPEKIT_ROTARY_INTERLEAVE_HALF:
        for (int64_t j = 0; j < h; j++) {
            ac[j] += dy[j] * x[2 * j];
            ac[j + h] += dy[j + h] * x[2 * j + 1];
            as[j] -= dy[j] * x[2 * j + 1];
            as[j + h] += dy[j + h] * x[2 * j];
        }
        return;
    default:
        return;
    }
}

void rk_csg_run_task(const struct rk_csg_plan *cs, const char *x, const char *dy, char *dcos,
                     char *dsin, double *scratch, int64_t task) {
    const int64_t len = cs->len;
    double *xr = scratch, *dyr = scratch + len, *ac = scratch + 2 * len, *as = scratch + 3 * len;
    const int64_t g_end = (task + 1) * cs->groups_per_task < cs->groups
                              ? (task + 1) * cs->groups_per_task
                              : cs->groups;
    for (int64_t g = task * cs->groups_per_task; g < g_end; g++) {
        int64_t xo = cs->start * cs->x_col, dyo = cs->start * cs->dy_col, co = 0, so = 0;
        int64_t rem = g;
        for (int k = cs->nkeep - 1; k >= 0; k--) {
            const int64_t i = rem % cs->keep_ext[k];
            rem /= cs->keep_ext[k];
            xo += i * cs->keep_x[k];
            dyo += i * cs->keep_dy[k];
            co += i * cs->keep_c[k];
            so += i * cs->keep_s[k];
        }
        for (int64_t j = 0; j < len; j++)
            ac[j] = as[j] = 0.0;
        int64_t idx[RK_PR_MAX_LEAD] = {0};
        for (int64_t r = 0; r < cs->reduced; r++) {
            int64_t rxo = xo, rdyo = dyo;
            for (int k = 0; k < cs->nred; k++) {
                rxo += idx[k] * cs->red_x[k];
                rdyo += idx[k] * cs->red_dy[k];
            }
            rk_load_row(xr, x + rxo, cs->x_col, cs->x_dtype, len);
            rk_load_row(dyr, dy + rdyo, cs->dy_col, cs->x_dtype, len);
            rk_accumulate(cs->mode, len, xr, dyr, ac, as);
            for (int k = cs->nred - 1; k >= 0 && ++idx[k] == cs->red_ext[k]; k--)
                if (k > 0)
                    idx[k] = 0;
        }
        rk_store_row(dcos + co, cs->c_col, cs->cs_dtype, ac, len);
        rk_store_row(dsin + so, cs->s_col, cs->cs_dtype, as, len);
    }
}
