/* The rows of the rotary-matrix operator, scalar for every dtype (SPEC §15.5):
 *   xr[j] = sum_i v[i] * rotate[i][j]   exact float64 products, summed in i order from
 *                                       the first product, rounded once to fp32
 *   y[j]  = v[j]*cos[j] + xr[j]*sin[j]  §1: two fp32 products, one add, rounded once
 * float64 stays float64 throughout. A row is read whole before it is written, so out may
 * be x itself. */
#include "kernels/simd/elem.h"
#include "ops/rotary_matrix/rotary_matrix.h"

/* Element offsets of row `row` in a tensor of the plan's leading dims with strides st. */
static int64_t rk_row_offset(const struct rk_rm_plan *pl, const int64_t *st, int64_t row) {
    int64_t off = 0;
    for (int32_t i = pl->ndim - 2; i >= 0; i--) {
        off += (row % pl->lead[i]) * st[i];
        row /= pl->lead[i];
    }
    return off;
}

static double rk_load_as_f64(const char *p, int kdt) {
    return kdt == RK_KDT_F64 ? rk_load_f64(p) : (double)rk_load_elem(p, (enum rk_kdtype)kdt);
}

void rk_rm_rows(const struct rk_rm_plan *pl, const struct rk_op_data *data, const double *rotate64,
                double *scratch, int64_t first, int64_t count) {
    const int64_t d = pl->d, last = pl->ndim - 1;
    const int kdt = pl->kdt;
    const int64_t es = RK_SIZE(kdt);
    double *v = scratch, *xr = scratch + d;
    for (int64_t row = first; row < first + count; row++) {
        const char *x = (const char *)data->ptr[RK_RM_X] + rk_row_offset(pl, pl->x_st, row) * es;
        const char *c =
            (const char *)data->ptr[RK_RM_COS] + rk_row_offset(pl, pl->cos_st, row) * es;
        const char *s =
            (const char *)data->ptr[RK_RM_SIN] + rk_row_offset(pl, pl->sin_st, row) * es;
        char *y = (char *)data->ptr[RK_RM_OUT] + rk_row_offset(pl, pl->out_st, row) * es;
        for (int64_t i = 0; i < d; i++)
            v[i] = rk_load_as_f64(x + i * pl->x_st[last] * es, kdt);
        for (int64_t j = 0; j < d; j++)
            xr[j] = v[0] * rotate64[j];
        for (int64_t i = 1; i < d; i++)
            for (int64_t j = 0; j < d; j++)
                xr[j] += v[i] * rotate64[i * d + j];
        for (int64_t j = 0; j < d; j++) {
            const char *cj = c + j * pl->cos_st[last] * es, *sj = s + j * pl->sin_st[last] * es;
            char *yj = y + j * pl->out_st[last] * es;
            if (kdt == RK_KDT_F64) {
                double vc = v[j] * rk_load_f64(cj), rs = xr[j] * rk_load_f64(sj);
                rk_store_f64(yj, vc + rs);
            } else {
                float vc = (float)v[j] * rk_load_elem(cj, (enum rk_kdtype)kdt);
                float rs = (float)xr[j] * rk_load_elem(sj, (enum rk_kdtype)kdt);
                rk_store_elem(yj, vc + rs, (enum rk_kdtype)kdt);
            }
        }
    }
}
