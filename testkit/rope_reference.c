/* The float64 reference of RopeWithSinCosCache: cos/sin selection and the rotation of one head
 * (rope_reference.h). */
#include "testkit/rope_reference.h"

#include <math.h>

bool tk_rope_is_mrope(const struct tk_rope_select *sel) {
    return sel->nsec > 0 && sel->sections && sel->sections[0] > 0;
}

/* openPangu-VL: step j of the greedy sequence (ropekit_rope_cache_mode), replayed from
 * the start. */
static int tk_rope_pangu_row(const struct tk_rope_select *sel, int64_t j) {
    const int64_t *s = sel->sections;
    const bool three = sel->nsec == 3;
    const int64_t slots[3] = {three ? s[0] - 1 : s[0], s[1], three ? s[2] : 0};
    const int64_t steps = slots[0] + slots[1] + slots[2];
    int64_t used[3] = {0, 0, 0};
    int prev = -1, row = 0;
    if (j >= steps)
        return 0; /* the closing t of three sections */
    for (int64_t step = 0; step <= j; step++) {
        int pick = -1, any = -1;
        for (int k = 2; k >= 0; k--) { /* descending, so that ties keep the lowest row */
            if (used[k] >= slots[k])
                continue;
            const double r = (double)used[k] / (double)slots[k];
            if (any < 0 || r <= (double)used[any] / (double)slots[any])
                any = k;
            if (k != prev && (pick < 0 || r <= (double)used[pick] / (double)slots[pick]))
                pick = k;
        }
        row = pick >= 0 ? pick : any;
        used[row]++;
        prev = row;
    }
    return row;
}

int tk_rope_src_row(const struct tk_rope_select *sel, int64_t j) {
    if (!tk_rope_is_mrope(sel))
        return 0;
    if (sel->cache_mode == 2) /* ERNIE-4.5-VL, sections (h, w, t) */
        return j < sel->sections[0] + sel->sections[1] ? 1 + (int)(j % 2) : 0;
    if (sel->cache_mode == 3)
        return tk_rope_pangu_row(sel, j);
    if (sel->cache_mode == 1) {
        const int64_t lane = j % 3, block = j / 3;
        if (lane != 0 && block < sel->sections[lane])
            return (int)lane;
        return 0;
    }
    int row = 0;
    for (int64_t bound = sel->sections[0]; j >= bound && row + 1 < sel->nsec;)
        bound += sel->sections[++row];
    return row;
}

/* One fp32 product: exact in float64 but for overflow, which fp32 turns into inf once
 * the magnitude reaches the rounding threshold 2^128 - 2^103 (float64 data's products
 * stay what they are). */
static double tk_rope_product(double a, double b, bool float64) {
    static const double overflow = 340282356779733661637539395458142568448.0;
    const double p = a * b;
    return !float64 && fabs(p) >= overflow ? copysign(INFINITY, p) : p;
}

void tk_rope_ref_head(bool neox, int64_t rot_dim, const double *x, const double *c, const double *s,
                      double *out, double *mag, bool float64) {
    const int64_t h = rot_dim / 2;
    for (int64_t j = 0; j < h; j++) {
        const int64_t a = neox ? j : 2 * j, b = neox ? j + h : 2 * j + 1;
        const double ac = tk_rope_product(x[a], c[j], float64);
        const double bs = tk_rope_product(x[b], s[j], float64);
        const double bc = tk_rope_product(x[b], c[j], float64);
        const double as = tk_rope_product(x[a], s[j], float64);
        out[a] = ac - bs;
        mag[a] = fabs(ac) + fabs(bs);
        out[b] = bc + as;
        mag[b] = fabs(bc) + fabs(as);
    }
}

static int tk_rope_ref_rotation_ok(void) {
    const double x[4] = {1, 2, 3, 4}, c[2] = {.5, .25}, s[2] = {.1, .2};
    const double neox[4] = {0.2, -0.3, 1.6, 1.4}, gptj[4] = {0.3, 1.1, -0.05, 1.6};
    double out[4], mag[4];
    tk_rope_ref_head(true, 4, x, c, s, out, mag, false);
    for (int i = 0; i < 4; i++)
        if (fabs(out[i] - neox[i]) > 1e-12)
            return 0;
    tk_rope_ref_head(false, 4, x, c, s, out, mag, false);
    for (int i = 0; i < 4; i++)
        if (fabs(out[i] - gptj[i]) > 1e-12)
            return 0;
    return 1;
}

/* The worked examples of SPEC §5.3, written out as expected rows per j. */
static int tk_rope_ref_selection_ok(void) {
    const int64_t qwen25[3] = {16, 24, 24}, qwen3[3] = {24, 20, 20}, odd[3] = {11, 11, 10};
    const int64_t quad[4] = {16, 16, 16, 16}, off[3] = {0, 5, 7};
    const struct tk_rope_select sec25 = {3, qwen25, 0}, il25 = {3, qwen25, 1};
    const struct tk_rope_select il3 = {3, qwen3, 1}, sec3 = {3, qwen3, 0};
    const struct tk_rope_select secodd = {3, odd, 0}, sec4 = {4, quad, 0};
    const struct tk_rope_select rope = {0, 0, 0}, zero_first = {3, off, 1};
    for (int64_t j = 0; j < 64; j++) {
        if (tk_rope_src_row(&sec25, j) != (j < 16 ? 0 : j < 40 ? 1 : 2))
            return 0;
        if (tk_rope_src_row(&sec3, j) != (j < 24 ? 0 : j < 44 ? 1 : 2))
            return 0;
        if (tk_rope_src_row(&sec4, j) != (int)(j / 16))
            return 0;
        /* [24,20,20] interleaved: 1,4,..,58 row 1; 2,5,..,59 row 2; the rest row 0. */
        int want3 = j <= 59 && j % 3 != 0 ? (int)(j % 3) : 0;
        if (tk_rope_src_row(&il3, j) != want3)
            return 0;
        /* [16,24,24] interleaved: row 1 at 1,..,61, row 2 at 2,..,62, row 0 at 0,..,63. */
        if (tk_rope_src_row(&il25, j) != (int)(j % 3))
            return 0;
        if (tk_rope_src_row(&rope, j) != 0 || tk_rope_src_row(&zero_first, j) != 0)
            return 0;
    }
    for (int64_t j = 0; j < 32; j++)
        if (tk_rope_src_row(&secodd, j) != (j < 11 ? 0 : j < 22 ? 1 : 2))
            return 0;
    return 1;
}

int tk_rope_ref_self_test(void) {
    if (!tk_rope_ref_rotation_ok())
        return 1;
    if (!tk_rope_ref_selection_ok())
        return 2;
    return 0;
}
