/* Deterministic contents of partial-rotary test tensors: uniform values and rotary angles
 * (pr_fill.h). */
#include "testkit/pr_fill.h"

#include <math.h>

#include "testkit/half_bits.h"
#include "testkit/reference.h"

void tk_pr_fill_uniform(struct tk_tensor *t, struct tk_rng *rng, double lo, double hi) {
    int64_t idx[ROPEKIT_MAX_DIMS] = {0};
    if (tk_tensor_numel(t) == 0)
        return;
    do {
        tk_store(tk_tensor_ptr(t, tk_tensor_elem(t, idx)), t->dtype, tk_rng_uniform(rng, lo, hi));
    } while (tk_index_next(t->ndim, t->shape, idx));
}

void tk_pr_fill_random_angles(struct tk_pr_case *pc, struct tk_rng *rng, double scale) {
    static const double pi = 3.14159265358979323846;
    int64_t idx[ROPEKIT_MAX_DIMS] = {0};
    if (tk_tensor_numel(&pc->cos) == 0)
        return;
    do {
        double a = tk_rng_uniform(rng, -pi, pi);
        tk_store(tk_tensor_ptr(&pc->cos, tk_tensor_elem(&pc->cos, idx)), pc->cos.dtype,
                 scale * cos(a));
        tk_store(tk_tensor_ptr(&pc->sin, tk_tensor_elem(&pc->sin, idx)), pc->sin.dtype,
                 scale * sin(a));
    } while (tk_index_next(pc->cos.ndim, pc->cos.shape, idx));
}

void tk_pr_fill_rotary_angles(struct tk_pr_case *pc, double base) {
    struct tk_tensor *c = &pc->cos, *s = &pc->sin;
    const int lead = c->ndim - 1;
    const int64_t len = c->shape[lead];
    int64_t idx[ROPEKIT_MAX_DIMS] = {0};
    if (tk_tensor_numel(c) == 0)
        return;
    int64_t row = 0;
    do {
        double pos = (double)(row + 1);
        for (int64_t k = 0; k < len / 2; k++) {
            struct tk_rot_pair p = tk_rot_pair_of(pc->mode, len, k);
            double angle = pos * pow(base, -2.0 * (double)k / (double)len);
            const int64_t cols[2] = {p.op, p.orr};
            for (int m = 0; m < 2; m++) {
                idx[lead] = cols[m];
                tk_store(tk_tensor_ptr(c, tk_tensor_elem(c, idx)), c->dtype, cos(angle));
                tk_store(tk_tensor_ptr(s, tk_tensor_elem(s, idx)), s->dtype, sin(angle));
            }
        }
        idx[lead] = 0;
        row++;
    } while (tk_index_next(lead, c->shape, idx));
}
