/* SPEC §6 tolerance against the float64 reference (tolerance.h). */
#include "testkit/tolerance.h"

#include <math.h>

#include "testkit/half_bits.h"

struct tk_tol tk_tol_of(ropekit_dtype out_dtype) {
    struct tk_tol t;
    switch (out_dtype) {
    case ROPEKIT_F16:
        t.rtol = 1e-3;
        break;
    case ROPEKIT_BF16:
        t.rtol = 8e-3;
        break;
    case ROPEKIT_F64: /* one rounding per product and sum, here and in the reference */
        t.rtol = ldexp(1.0, -50);
        break;
    default:
        t.rtol = 1e-5;
        break;
    }
    t.atol = tk_dtype_min_subnormal(out_dtype);
    t.max_finite = tk_dtype_max(out_dtype);
    return t;
}

void tk_err_stats_init(struct tk_err_stats *st) {
    st->checked = st->bad = 0;
    st->max_abs_err = 0.0;
    st->max_ratio = 0.0;
    st->first_bad = -1;
    st->first_got = st->first_ref = st->first_bound = 0.0;
}

bool tk_err_check(struct tk_err_stats *st, const struct tk_tol *tol, double got, double ref,
                  double mag, int64_t id) {
    double bound = tol->rtol * mag + tol->atol;
    double ratio;
    st->checked++;
    if (isnan(ref)) {
        ratio = isnan(got) ? 0.0 : INFINITY;
    } else if (isinf(ref)) {
        ratio = got == ref ? 0.0 : INFINITY;
    } else if (isinf(got)) {
        /* Rounding past the largest finite value gives inf (SPEC §1 rule 4). */
        bool may_overflow = fabs(ref) + bound > tol->max_finite && signbit(got) == signbit(ref);
        ratio = may_overflow ? 0.0 : INFINITY;
    } else if (isnan(got)) {
        ratio = INFINITY;
    } else {
        double err = fabs(got - ref);
        if (err > st->max_abs_err)
            st->max_abs_err = err;
        ratio = err / bound;
    }
    if (ratio > st->max_ratio)
        st->max_ratio = ratio;
    if (ratio <= 1.0)
        return true;
    if (st->bad++ == 0) {
        st->first_bad = id;
        st->first_got = got;
        st->first_ref = ref;
        st->first_bound = bound;
    }
    return false;
}
