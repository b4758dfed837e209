/* The mrope coefficient layouts whose rows the plan precomputes (ropekit_rope_cache_mode). */
#include <stdlib.h>

#include "ops/rope/rope.h"

/* Of the rows with slots left (other than `last` when skip_last), the one placed least
 * in proportion to its count; the lowest row on ties. -1 when there is none. The ratios
 * are compared as doubles because openPangu-VL's own code divides: for any section sizes
 * the sequence is the model's, rounding included. */
static int rk_pangu_pick(const int64_t count[3], const int64_t placed[3], int last,
                         bool skip_last) {
    int best = -1;
    double best_ratio = 0;
    for (int k = 0; k < 3; k++) {
        if (placed[k] >= count[k] || (skip_last && k == last))
            continue;
        const double ratio = (double)placed[k] / (double)count[k];
        if (best < 0 || ratio < best_ratio) {
            best = k;
            best_ratio = ratio;
        }
    }
    return best;
}

void rk_mrope_pangu_rows(const int64_t *sections, int nsec, int64_t h, uint8_t *rows) {
    const bool ends_with_t = nsec == 3;
    const int64_t count[3] = {sections[0] - (ends_with_t ? 1 : 0), sections[1],
                              nsec == 3 ? sections[2] : 0};
    int64_t placed[3] = {0, 0, 0};
    const int64_t steps = ends_with_t ? h - 1 : h;
    int last = -1;
    for (int64_t j = 0; j < steps; j++) {
        int k = rk_pangu_pick(count, placed, last, true);
        if (k < 0)
            k = rk_pangu_pick(count, placed, last, false);
        rows[j] = (uint8_t)k;
        placed[k]++;
        last = k;
    }
    if (ends_with_t)
        rows[steps] = 0;
}

ropekit_status rk_rope_plan_coeff_rows(struct rk_rope_plan *pl, const char *api, int *rule) {
    if (!pl->mrope || pl->noop || pl->cache_mode != ROPEKIT_MROPE_PANGU_VL)
        return ROPEKIT_OK;
    pl->coeff_rows = malloc((size_t)pl->half);
    if (!pl->coeff_rows)
        RK_ROPE_FAIL(RK_ROPE_RULE_NO_MEMORY, "%s: mrope coefficient rows: out of memory", api);
    rk_mrope_pangu_rows(pl->sections, pl->nsec, pl->half, pl->coeff_rows);
    return ROPEKIT_OK;
}

void rk_rope_release(void *plan) {
    struct rk_rope_plan *pl = plan;
    free(pl->coeff_rows);
    pl->coeff_rows = NULL;
}
