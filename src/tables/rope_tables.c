/* Cos/sin tables: RopeWithSinCosCache's [max_positions, rotary_dim] cache and
 * InplacePartialRotaryMul's per-position coefficient rows, with the frequencies of the
 * rope scaling variants inference engines use (rope_scaling.c) or the caller's own.
 * Angles are computed in double and each stored value is rounded once. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype_convert.h"
#include "core/error.h"
#include "kernels/dispatch.h"
#include "tables/rope_scaling.h"
#include "ropekit/ropekit.h"

/* Parameters that pass their own checks can still combine into frequencies, angles or
 * magnitudes that are not finite (a tiny linear factor makes positions infinite; a huge
 * attention factor overflows the dtype): refused before anything is written. rows = 0
 * checks only the frequencies. `given`: the caller's inv_freq, not a scaling's. */
static ropekit_status rk_check_frequencies(const char *api, const double *inv, int64_t h,
                                           int64_t rows, double last_position, bool given);

static ropekit_status rk_check_rotary_dim(const char *api, int64_t rotary_dim) {
    if (rotary_dim < 2 || rotary_dim % 2)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: rotary_dim = %lld: must be even, >= 2",
                            api, (long long)rotary_dim);
    return ROPEKIT_OK;
}

static ropekit_status rk_check_base(const char *api, double base) {
    if (!(base > 1) || !isfinite(base))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: base = %g: must be > 1", api, base);
    return ROPEKIT_OK;
}

/* The frequencies of ropekit_rope_inv_freq (divisor NULL: positions' divisor folded into
 * them) or ropekit_rope_table_frequencies (divisor reported). */
static ropekit_status rk_frequencies_query(const char *api, double *inv_freq, double *divisor,
                                           int64_t rotary_dim, double base, int64_t max_positions,
                                           const ropekit_rope_scaling *scaling, bool fold) {
    if (!inv_freq)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: inv_freq = NULL", api);
    if (!fold && !divisor)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: position_divisor = NULL", api);
    ropekit_status st = rk_check_rotary_dim(api, rotary_dim);
    if (st == ROPEKIT_OK)
        st = rk_check_base(api, base);
    if (st == ROPEKIT_OK)
        st = rk_check_scaling(scaling, rotary_dim, api);
    if (st != ROPEKIT_OK)
        return st;
    const int64_t h = rotary_dim / 2;
    double *inv = malloc((size_t)h * sizeof *inv); /* the caller's buffer holds h doubles */
    if (!inv)
        return rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
    rk_scaling_frequencies(inv, rotary_dim, base, max_positions, scaling,
                           rk_scaling_uses_long_factors(scaling, max_positions));
    const double position_divisor = rk_scaling_position_divisor(scaling);
    if (fold)
        for (int64_t i = 0; i < h; i++)
            inv[i] /= position_divisor;
    st = rk_check_frequencies(api, inv, h, 0, 1.0, false);
    if (st == ROPEKIT_OK) {
        memcpy(inv_freq, inv, (size_t)h * sizeof *inv);
        if (!fold)
            *divisor = position_divisor;
    }
    free(inv);
    return st;
}

ropekit_status ropekit_rope_inv_freq(double *inv_freq, int64_t rotary_dim, double base,
                                     int64_t max_positions, const ropekit_rope_scaling *scaling) {
    return rk_frequencies_query("ropekit_rope_inv_freq", inv_freq, NULL, rotary_dim, base,
                                max_positions, scaling, true);
}

ropekit_status ropekit_rope_table_frequencies(double *inv_freq, double *position_divisor,
                                              int64_t rotary_dim, double base,
                                              int64_t max_positions,
                                              const ropekit_rope_scaling *scaling) {
    return rk_frequencies_query("ropekit_rope_table_frequencies", inv_freq, position_divisor,
                                rotary_dim, base, max_positions, scaling, false);
}

ropekit_status ropekit_rope_attention_scaling(double *attention_scaling, int64_t rotary_dim,
                                              const ropekit_rope_scaling *scaling) {
    static const char api[] = "ropekit_rope_attention_scaling";
    if (!attention_scaling)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: attention_scaling = NULL", api);
    ropekit_status st = rk_check_rotary_dim(api, rotary_dim);
    if (st == ROPEKIT_OK)
        st = rk_check_scaling(scaling, rotary_dim, api);
    if (st != ROPEKIT_OK)
        return st;
    const double magnitude = rk_scaling_magnitude(scaling);
    if (!isfinite(magnitude))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: attention scaling = %g: the scaling parameters give no finite "
                            "magnitude",
                            api, magnitude);
    *attention_scaling = magnitude;
    return ROPEKIT_OK;
}

static ropekit_status rk_check_frequencies(const char *api, const double *inv, int64_t h,
                                           int64_t rows, double last_position, bool given) {
    double largest = 0;
    for (int64_t f = 0; f < h; f++) {
        if (!isfinite(inv[f]))
            return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: %s %lld = %g: %s", api,
                                given ? "inv_freq" : "inverse frequency", (long long)f, inv[f],
                                given ? "must be finite"
                                      : "the scaling parameters give no finite frequency");
        if (fabs(inv[f]) > largest)
            largest = fabs(inv[f]);
    }
    if (rows > 0 && !isfinite(last_position * largest))
        return rk_error_set(
            ROPEKIT_INVALID_ARGUMENT, "%s: angle of position %lld = %g * %g: not finite (%s)", api,
            (long long)(rows - 1), last_position, largest,
            given ? "inv_freq too large for max_positions" : "the scaling factor is too small");
    return ROPEKIT_OK;
}

static void rk_store_f64(void *base, int64_t index, double v, ropekit_dtype dtype) {
    if (dtype == ROPEKIT_F64) {
        memcpy((char *)base + index * 8, &v, 8);
    } else if (dtype == ROPEKIT_F32) {
        float f = (float)v;
        memcpy((char *)base + index * 4, &f, 4);
    } else {
        uint16_t h = dtype == ROPEKIT_F16 ? rk_f64_to_f16(v) : rk_f64_to_bf16(v);
        memcpy((char *)base + index * 2, &h, 2);
    }
}

/* Whether v, stored in dtype, is finite. */
static bool rk_stores_finite(double v, ropekit_dtype dtype) {
    if (dtype == ROPEKIT_F64)
        return isfinite(v);
    uint32_t bits = 0;
    rk_store_f64(&bits, 0, v, dtype);
    if (dtype == ROPEKIT_F32)
        return isfinite(rk_f32_from_bits(bits));
    uint16_t h; /* the 2 bytes stored at offset 0, on either byte order */
    memcpy(&h, &bits, sizeof h);
    return isfinite(dtype == ROPEKIT_F16 ? rk_f16_to_f32(h) : rk_bf16_to_f32(h));
}

static ropekit_status rk_check_table(const char *api, ropekit_dtype dtype, int64_t rows,
                                     int64_t len) {
    if (rk_kdtype_of(dtype) < 0)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: dtype = %d: must be float32, float16, bfloat16 or float64", api,
                            (int)dtype);
    if (rows < 0)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: positions = %lld: must be >= 0", api,
                            (long long)rows);
    ropekit_status st = rk_check_rotary_dim(api, len);
    if (st != ROPEKIT_OK)
        return st;
    /* in bytes of fp32 for the narrower types too, float64's own size for float64 */
    const int64_t item = dtype == ROPEKIT_F64 ? 8 : 4;
    if (len > (INT64_MAX / item) / (rows > 0 ? rows : 1))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: table size overflows", api);
    return ROPEKIT_OK;
}

/* Positions of the two members of pair f in a row of length len laid out for `mode`. */
static void rk_pair_slots(ropekit_rotary_mode mode, int64_t len, int64_t f, int64_t *a,
                          int64_t *b) {
    const int64_t h = len / 2, q = len / 4;
    switch (mode) {
    case ROPEKIT_ROTARY_INTERLEAVE:
        *a = 2 * f;
        *b = 2 * f + 1;
        return;
    case ROPEKIT_ROTARY_QUARTER:
        *a = f < q ? f : 2 * q + (f - q);
        *b = *a + q;
        return;
    default: /* half and interleave-half index cos/sin in half layout */
        *a = f;
        *b = f + h;
        return;
    }
}

/* Where a table puts cos and sin of (position p, frequency f). */
struct rk_table_layout {
    void *cos, *sin;          /* the cache layout uses one buffer for both */
    bool cache;               /* [cos | sin] rows of len; else one row per tensor */
    ropekit_rotary_mode mode; /* coefficient rows: the pair layout */
    ropekit_dtype dtype;
};

/* The frequencies of a table: rows [0, split) use inv[0, h) at position p and magnitude[0],
 * rows [split, rows) use inv[h, 2h) at position p - split and magnitude[1] (vLLM's stacked
 * LongRoPE table; split = rows otherwise). Each position is divided by `divisor` before it
 * meets them. */
struct rk_table_freqs {
    const double *inv;
    double *owned; /* what inv points to when the builder computed it */
    int64_t split;
    double divisor, magnitude[2];
    bool given; /* the caller's inv_freq and magnitude, not a scaling's */
};

static ropekit_status rk_table_freqs_make(const char *api, struct rk_table_freqs *t, int64_t rows,
                                          int64_t len, double base,
                                          const ropekit_rope_scaling *scaling) {
    const int64_t h = len / 2;
    const bool two_sets = rk_scaling_two_sets(scaling);
    double *inv = malloc((size_t)h * (two_sets ? 2 : 1) * sizeof *inv);
    if (!inv)
        return rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
    t->inv = t->owned = inv;
    t->split = rows;
    if (two_sets) {
        rk_scaling_frequencies(inv, len, base, rows, scaling, false);
        rk_scaling_frequencies(inv + h, len, base, rows, scaling, true);
        if (scaling->original_max_position < rows)
            t->split = scaling->original_max_position;
        t->magnitude[0] = rk_scaling_set_magnitude(scaling, false);
        t->magnitude[1] = rk_scaling_set_magnitude(scaling, true);
    } else {
        const bool long_set = rk_scaling_uses_long_factors(scaling, rows);
        rk_scaling_frequencies(inv, len, base, rows, scaling, long_set);
        t->magnitude[0] = t->magnitude[1] = rk_scaling_set_magnitude(scaling, long_set);
    }
    t->divisor = rk_scaling_position_divisor(scaling);
    return ROPEKIT_OK;
}

/* Refuses frequencies, angles or a magnitude that are not finite in the table's dtype. */
static ropekit_status rk_table_freqs_check(const char *api, const struct rk_table_freqs *t,
                                           int64_t rows, int64_t h, ropekit_dtype dtype) {
    const int64_t count = t->split < rows ? 2 * h : h;
    ropekit_status st =
        rk_check_frequencies(api, t->inv, count, rows, (double)(rows - 1) / t->divisor, t->given);
    for (int set = 0; set < 2 && st == ROPEKIT_OK; set++)
        if (!rk_stores_finite(t->magnitude[set], dtype))
            st = rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                              "%s: cos/sin scaled by %g (%s): larger than "
                              "the largest %s",
                              api, t->magnitude[set],
                              t->given ? "magnitude" : "the scaling's attention factor",
                              ropekit_dtype_name(dtype));
    return st;
}

static void rk_table_fill(const struct rk_table_layout *out, const struct rk_table_freqs *t,
                          int64_t rows, int64_t len) {
    const int64_t h = len / 2;
    for (int64_t p = 0; p < rows; p++) {
        const bool second = p >= t->split;
        const double mag = t->magnitude[second];
        const double *inv = t->inv + (second ? h : 0);
        const double pos = (double)(second ? p - t->split : p) / t->divisor;
        for (int64_t f = 0; f < h; f++) {
            double angle = pos * inv[f], c = cos(angle) * mag, s = sin(angle) * mag;
            if (out->cache) {
                rk_store_f64(out->cos, p * len + f, c, out->dtype);
                rk_store_f64(out->cos, p * len + h + f, s, out->dtype);
                continue;
            }
            int64_t a, b;
            rk_pair_slots(out->mode, len, f, &a, &b);
            rk_store_f64(out->cos, p * len + a, c, out->dtype);
            rk_store_f64(out->cos, p * len + b, c, out->dtype);
            rk_store_f64(out->sin, p * len + a, s, out->dtype);
            rk_store_f64(out->sin, p * len + b, s, out->dtype);
        }
    }
}

/* An empty table needs no buffer. */
static ropekit_status rk_check_buffers(const char *api, const struct rk_table_layout *out,
                                       int64_t rows) {
    if ((!out->cos || !out->sin) && rows > 0)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: %s = NULL", api,
                            out->cache  ? "cache"
                            : !out->cos ? "cos"
                                        : "sin");
    return ROPEKIT_OK;
}

/* A table of the frequencies of base and a scaling: checks every argument, then fills
 * every row. */
static ropekit_status rk_table_build(const char *api, const struct rk_table_layout *out,
                                     int64_t rows, int64_t len, double base,
                                     const ropekit_rope_scaling *scaling) {
    ropekit_status st = rk_check_table(api, out->dtype, rows, len);
    if (st == ROPEKIT_OK)
        st = rk_check_base(api, base);
    if (st == ROPEKIT_OK)
        st = rk_check_scaling(scaling, len, api);
    if (st == ROPEKIT_OK)
        st = rk_check_buffers(api, out, rows);
    if (st != ROPEKIT_OK || rows == 0)
        return st; /* nothing to write: no frequency table for an empty one */
    struct rk_table_freqs freqs = {NULL, NULL, 0, 1.0, {1.0, 1.0}, false};
    st = rk_table_freqs_make(api, &freqs, rows, len, base, scaling);
    if (st == ROPEKIT_OK)
        st = rk_table_freqs_check(api, &freqs, rows, len / 2, out->dtype);
    if (st == ROPEKIT_OK)
        rk_table_fill(out, &freqs, rows, len);
    free(freqs.owned);
    return st;
}

/* A table of the caller's len / 2 frequencies and magnitude: the same checks and fill,
 * with position divisor 1 and one frequency set. */
static ropekit_status rk_table_build_given(const char *api, const struct rk_table_layout *out,
                                           int64_t rows, int64_t len, const double *inv_freq,
                                           double magnitude) {
    ropekit_status st = rk_check_table(api, out->dtype, rows, len);
    if (st == ROPEKIT_OK)
        st = rk_check_buffers(api, out, rows);
    if (st == ROPEKIT_OK && !inv_freq)
        st = rk_error_set(ROPEKIT_NULL_POINTER, "%s: inv_freq = NULL", api);
    if (st == ROPEKIT_OK && (!(magnitude > 0) || !isfinite(magnitude)))
        st = rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: magnitude = %g: must be finite, > 0", api,
                          magnitude);
    if (st != ROPEKIT_OK)
        return st;
    /* checked for an empty table too: the frequencies are an argument, not derived */
    const struct rk_table_freqs freqs = {inv_freq, NULL, rows, 1.0, {magnitude, magnitude}, true};
    st = rk_table_freqs_check(api, &freqs, rows, len / 2, out->dtype);
    if (st == ROPEKIT_OK)
        rk_table_fill(out, &freqs, rows, len);
    return st;
}

ropekit_status ropekit_cos_sin_cache_build(void *cache, ropekit_dtype dtype, int64_t max_positions,
                                           int64_t rotary_dim, double base,
                                           const ropekit_rope_scaling *scaling) {
    struct rk_table_layout out = {cache, cache, true, ROPEKIT_ROTARY_HALF, dtype};
    return rk_table_build("ropekit_cos_sin_cache_build", &out, max_positions, rotary_dim, base,
                          scaling);
}

ropekit_status ropekit_cos_sin_cache_from_inv_freq(void *cache, ropekit_dtype dtype,
                                                   int64_t max_positions, int64_t rotary_dim,
                                                   const double *inv_freq, double magnitude) {
    struct rk_table_layout out = {cache, cache, true, ROPEKIT_ROTARY_HALF, dtype};
    return rk_table_build_given("ropekit_cos_sin_cache_from_inv_freq", &out, max_positions,
                                rotary_dim, inv_freq, magnitude);
}

/* The layout of the two partial-rotary tables of `mode` (checked first: 0-3, and len a
 * multiple of 4 in quarter mode). */
static ropekit_status rk_coeffs_layout(const char *api, void *cos_out, void *sin_out,
                                       ropekit_dtype dtype, ropekit_rotary_mode mode, int64_t len,
                                       struct rk_table_layout *out) {
    if ((int)mode < 0 || (int)mode > 3)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: mode = %d: must be 0-3", api, (int)mode);
    if (mode == ROPEKIT_ROTARY_QUARTER && len % 4)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: len = %lld: quarter mode needs a multiple of 4", api,
                            (long long)len);
    *out = (struct rk_table_layout){cos_out, sin_out, false, mode, dtype};
    return ROPEKIT_OK;
}

ropekit_status ropekit_rotary_coeffs_build(void *cos_out, void *sin_out, ropekit_dtype dtype,
                                           int64_t num_positions, int64_t len,
                                           ropekit_rotary_mode mode, double base,
                                           const ropekit_rope_scaling *scaling) {
    static const char api[] = "ropekit_rotary_coeffs_build";
    struct rk_table_layout out = {0};
    ropekit_status st = rk_coeffs_layout(api, cos_out, sin_out, dtype, mode, len, &out);
    return st != ROPEKIT_OK ? st : rk_table_build(api, &out, num_positions, len, base, scaling);
}

ropekit_status ropekit_rotary_coeffs_from_inv_freq(void *cos_out, void *sin_out,
                                                   ropekit_dtype dtype, int64_t num_positions,
                                                   int64_t len, ropekit_rotary_mode mode,
                                                   const double *inv_freq, double magnitude) {
    static const char api[] = "ropekit_rotary_coeffs_from_inv_freq";
    struct rk_table_layout out = {0};
    ropekit_status st = rk_coeffs_layout(api, cos_out, sin_out, dtype, mode, len, &out);
    return st != ROPEKIT_OK
               ? st
               : rk_table_build_given(api, &out, num_positions, len, inv_freq, magnitude);
}
