/* Random memory layouts (padded, permuted, reversed, broadcast) for the verify suites
 * (layout_gen.h). */
#include "testkit/layout_gen.h"

struct tk_layout tk_layout_random(struct tk_rng *rng, int ndim, const int64_t *shape,
                                  const struct tk_layout_opts *opts) {
    struct tk_layout l = {{0}, 0, 1};
    int order[8]; /* order[0] is the outermost dimension in memory */
    for (int i = 0; i < ndim; i++)
        order[i] = i;
    if (opts->permute)
        for (int i = ndim - 1; i > 0; i--) {
            int j = (int)tk_rng_below(rng, (uint64_t)i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
    int64_t step = opts->pad ? tk_rng_range(rng, 1, 3) : 1;
    for (int i = ndim - 1; i >= 0; i--) {
        int d = order[i];
        l.strides[d] = step;
        step *= shape[d] > 0 ? shape[d] : 1;
        if (opts->pad)
            step += tk_rng_range(rng, 0, 5);
    }
    int64_t lead = opts->pad ? tk_rng_range(rng, 0, 7) : 0, span = 1, back = 0;
    for (int d = 0; d < ndim; d++) {
        if (opts->zero && shape[d] > 1 && tk_rng_chance(rng, 40))
            l.strides[d] = 0;
        if (opts->negative && shape[d] > 1 && tk_rng_chance(rng, 40))
            l.strides[d] = -l.strides[d];
        int64_t reach = (shape[d] > 0 ? shape[d] - 1 : 0) * l.strides[d];
        span += reach < 0 ? -reach : reach;
        if (reach < 0)
            back -= reach;
    }
    l.offset = lead + back;
    l.buf_elems = lead + span + (opts->pad ? tk_rng_range(rng, 0, 7) : 0);
    return l;
}
