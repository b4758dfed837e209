/* Cos/sin tables: RopeWithSinCosCache's [max_positions, rotary_dim] cache and
 * InplacePartialRotaryMul's per-position coefficient rows, with the rope scaling
 * variants inference engines use (rope_scaling.c). Angles are computed in double and
 * each stored value is rounded once. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype_convert.h"
#include "core/error.h"
#include "kernels/dispatch.h"
#include "ops/rope_scaling.h"
#include "ropekit/ropekit.h"

/* Parameters that pass their own checks can still combine into frequencies, angles or
 * magnitudes that are not finite (a tiny linear factor makes positions infinite; a huge
 * attention factor overflows the dtype): refused before anything is written. rows = 0
 * checks only the frequencies. */
static ropekit_status rk_check_frequencies(const char *api, const double *inv, int64_t h,
                                           int64_t rows, double last_position);

/* The frequencies of ropekit_rope_inv_freq (divisor NULL: positions' divisor folded into
 * them) or ropekit_rope_table_frequencies (divisor reported). */
static ropekit_status rk_frequencies_query(const char *api, double *inv_freq, double *divisor,
                                           int64_t rotary_dim, double base, int64_t max_positions,
                                           const ropekit_rope_scaling *scaling, bool fold) {
    if (!inv_freq)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: inv_freq = NULL", api);
    if (!fold && !divisor)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: position_divisor = NULL", api);
    if (rotary_dim < 2 || rotary_dim % 2)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: rotary_dim = %lld: must be even, >= 2",
                            api, (long long)rotary_dim);
    if (!(base > 1) || !isfinite(base))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: base = %g: must be > 1", api, base);
    ropekit_status st = rk_check_scaling(scaling, rotary_dim, api);
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
    st = rk_check_frequencies(api, inv, h, 0, 1.0);
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
    if (rotary_dim < 2 || rotary_dim % 2)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: rotary_dim = %lld: must be even, >= 2",
                            api, (long long)rotary_dim);
    ropekit_status st = rk_check_scaling(scaling, rotary_dim, api);
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
                                           int64_t rows, double last_position) {
    double largest = 0;
    for (int64_t f = 0; f < h; f++) {
        if (!isfinite(inv[f]))
            return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                                "%s: inverse frequency %lld = %g: the scaling parameters give no "
                                "finite frequency",
                                api, (long long)f, inv[f]);
        if (fabs(inv[f]) > largest)
            largest = fabs(inv[f]);
    }
    if (rows > 0 && !isfinite(last_position * largest))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: angle of position %lld = %g * %g: not finite (the scaling "
                            "factor is too small)",
                            api, (long long)(rows - 1), last_position, largest);
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
                                     int64_t len, double base) {
    if (rk_kdtype_of(dtype) < 0)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: dtype = %d: must be float32, float16, bfloat16 or float64", api,
                            (int)dtype);
    if (rows < 0)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: positions = %lld: must be >= 0", api,
                            (long long)rows);
    if (len < 2 || len % 2)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: rotary_dim = %lld: must be even, >= 2",
                            api, (long long)len);
    if (!(base > 1) || !isfinite(base))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: base = %g: must be > 1", api, base);
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

/* The frequencies of a table: rows [0, split) use inv[0, h) at position p, rows
 * [split, rows) use inv[h, 2h) at position p - split (vLLM's stacked LongRoPE table; split
 * = rows otherwise). Each position is divided by `divisor` before it meets them. */
struct rk_table_freqs {
    double *inv;
    int64_t split;
    double divisor, magnitude;
};

static ropekit_status rk_table_freqs_make(const char *api, struct rk_table_freqs *t, int64_t rows,
                                          int64_t len, double base,
                                          const ropekit_rope_scaling *scaling) {
    const int64_t h = len / 2;
    const bool two_sets = rk_scaling_two_sets(scaling);
    t->inv = malloc((size_t)h * (two_sets ? 2 : 1) * sizeof *t->inv);
    if (!t->inv)
        return rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
    t->split = rows;
    if (two_sets) {
        rk_scaling_frequencies(t->inv, len, base, rows, scaling, false);
        rk_scaling_frequencies(t->inv + h, len, base, rows, scaling, true);
        if (scaling->original_max_position < rows)
            t->split = scaling->original_max_position;
    } else {
        rk_scaling_frequencies(t->inv, len, base, rows, scaling,
                               rk_scaling_uses_long_factors(scaling, rows));
    }
    t->divisor = rk_scaling_position_divisor(scaling);
    t->magnitude = rk_scaling_magnitude(scaling);
    return ROPEKIT_OK;
}

/* Refuses frequencies, angles or a magnitude that are not finite in the table's dtype. */
static ropekit_status rk_table_freqs_check(const char *api, const struct rk_table_freqs *t,
                                           int64_t rows, int64_t h, ropekit_dtype dtype) {
    const int64_t count = t->split < rows ? 2 * h : h;
    ropekit_status st =
        rk_check_frequencies(api, t->inv, count, rows, (double)(rows - 1) / t->divisor);
    if (st == ROPEKIT_OK && !rk_stores_finite(t->magnitude, dtype))
        st = rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                          "%s: cos/sin scaled by %g (the scaling's attention factor): larger "
                          "than the largest %s",
                          api, t->magnitude, ropekit_dtype_name(dtype));
    return st;
}

static void rk_table_fill(const struct rk_table_layout *out, const struct rk_table_freqs *t,
                          int64_t rows, int64_t len) {
    const int64_t h = len / 2;
    const double mag = t->magnitude;
    for (int64_t p = 0; p < rows; p++) {
        const bool second = p >= t->split;
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

/* Checks the arguments shared by both builders, then fills every row. */
static ropekit_status rk_table_build(const char *api, const struct rk_table_layout *out,
                                     int64_t rows, int64_t len, double base,
                                     const ropekit_rope_scaling *scaling) {
    ropekit_status st = rk_check_table(api, out->dtype, rows, len, base);
    if (st == ROPEKIT_OK)
        st = rk_check_scaling(scaling, len, api);
    if (st != ROPEKIT_OK)
        return st;
    if ((!out->cos || !out->sin) && rows > 0)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: %s = NULL", api,
                            out->cache  ? "cache"
                            : !out->cos ? "cos"
                                        : "sin");
    if (rows == 0)
        return ROPEKIT_OK; /* nothing to write: no frequency table for an empty one */
    struct rk_table_freqs freqs = {NULL, 0, 1.0, 1.0};
    st = rk_table_freqs_make(api, &freqs, rows, len, base, scaling);
    if (st != ROPEKIT_OK)
        return st;
    st = rk_table_freqs_check(api, &freqs, rows, len / 2, out->dtype);
    if (st == ROPEKIT_OK)
        rk_table_fill(out, &freqs, rows, len);
    free(freqs.inv);
    return st;
}

ropekit_status ropekit_cos_sin_cache_build(void *cache, ropekit_dtype dtype, int64_t max_positions,
                                           int64_t rotary_dim, double base,
                                           const ropekit_rope_scaling *scaling) {
    struct rk_table_layout out = {cache, cache, true, ROPEKIT_ROTARY_HALF, dtype};
    return rk_table_build("ropekit_cos_sin_cache_build", &out, max_positions, rotary_dim, base,
                          scaling);
}

ropekit_status ropekit_rotary_coeffs_build(void *cos_out, void *sin_out, ropekit_dtype dtype,
                                           int64_t num_positions, int64_t len,
                                           ropekit_rotary_mode mode, double base,
                                           const ropekit_rope_scaling *scaling) {
    static const char api[] = "ropekit_rotary_coeffs_build";
    if ((int)mode < 0 || (int)mode > 3)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: mode = %d: must be 0-3", api, (int)mode);
    if (mode == ROPEKIT_ROTARY_QUARTER && len % 4)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: len = %lld: quarter mode needs a multiple of 4", api,
                            (long long)len);
    struct rk_table_layout out = {cos_out, sin_out, false, mode, dtype};
    return rk_table_build(api, &out, num_positions, len, base, scaling);
}
