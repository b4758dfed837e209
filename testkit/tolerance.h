/* SPEC §6 acceptance against the float64 reference: for every rotated element
 * |out - ref| <= rtol * mag + atol, with mag = |t1| + |t2| (the magnitudes of the two
 * products), rtol 1e-5 / 1e-3 / 8e-3 / 2^-50 for fp32 / fp16 / bf16 / float64 outputs
 * (float64: the native face only, against a reference also rounded in double) and atol one
 * subnormal step of the output type. NaN positions and inf signs must match; a result
 * beyond the output type's largest finite value may round to the inf of its sign. */
#ifndef ROPEKIT_TESTKIT_TOLERANCE_H_
#define ROPEKIT_TESTKIT_TOLERANCE_H_

#include <stdbool.h>
#include <stdint.h>

#include "ropekit/ropekit.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tk_tol {
    double rtol, atol, max_finite;
};

struct tk_tol tk_tol_of(ropekit_dtype out_dtype);

/* Running statistics over checked elements. `ratio` is error / bound: <= 1 passes. */
struct tk_err_stats {
    int64_t checked, bad;
    double max_abs_err; /* over elements whose reference is finite */
    double max_ratio;   /* inf when a NaN/inf class mismatches */
    int64_t first_bad;  /* caller-defined element id of the first failure, -1 if none */
    double first_got, first_ref, first_bound;
};

void tk_err_stats_init(struct tk_err_stats *st);

/* Checks one element and folds it into the statistics; returns true when it passes. */
bool tk_err_check(struct tk_err_stats *st, const struct tk_tol *tol, double got, double ref,
                  double mag, int64_t id);

#ifdef __cplusplus
}
#endif

#endif /* ROPEKIT_TESTKIT_TOLERANCE_H_ */
