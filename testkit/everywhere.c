#include "testkit/everywhere.h"

#include <stdlib.h>
#include <string.h>

#include "ropekit/ropekit.h"

bool tk_same_bytes_everywhere(tk_compute_fn compute, void *ctx, size_t bytes, const int *threads,
                              int n_threads, tk_everywhere_diff *diff) {
    unsigned char *first = malloc(bytes ? bytes : 1), *out = malloc(bytes ? bytes : 1);
    bool same = first && out;
    bool have_first = false;
    if (diff)
        *diff = (tk_everywhere_diff){-1, -1};
    const ropekit_isa best = ropekit_isa_detected();
    for (int isa = 0; same && isa <= (int)best; isa++)
        for (int t = 0; same && t < n_threads; t++) {
            same = ropekit_set_max_isa((ropekit_isa)isa) == ROPEKIT_OK &&
                   ropekit_set_num_threads(threads[t]) == ROPEKIT_OK;
            if (!same)
                break;
            memset(out, 0, bytes);
            compute(ctx, out);
            if (!have_first)
                memcpy(first, out, bytes);
            else if (memcmp(first, out, bytes) != 0) {
                same = false;
                if (diff)
                    *diff = (tk_everywhere_diff){isa, threads[t]};
            }
            have_first = true;
        }
    ropekit_set_max_isa(best);
    ropekit_set_num_threads(0);
    free(first);
    free(out);
    return same;
}
