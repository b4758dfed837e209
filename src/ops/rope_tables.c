/* Cos/sin tables: RopeWithSinCosCache's [max_positions, rotary_dim] cache and
 * InplacePartialRotaryMul's per-position coefficient rows, with the rope scaling
 * variants inference engines use (linear, dynamic NTK, YaRN, Llama-3). Angles are
 * computed in double and each stored value is rounded once. */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/dtype_convert.h"
#include "core/error.h"
#include "kernels/dispatch.h"
#include "ropekit/ropekit.h"

#define RK_PI 3.14159265358979323846

void ropekit_rope_scaling_defaults(ropekit_rope_scaling *out, ropekit_rope_scaling_type type) {
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    out->type = type;
    out->factor = 1.0;
    out->original_max_position = 8192;
    out->beta_fast = 32.0;
    out->beta_slow = 1.0;
    out->extrapolation_factor = 1.0;
    out->attn_factor = 1.0;
    out->low_freq_factor = 1.0;
    out->high_freq_factor = 4.0;
}

static ropekit_status rk_check_scaling(const ropekit_rope_scaling *sc, int64_t rotary_dim,
                                       const char *api) {
    if (!sc || sc->type == ROPEKIT_SCALING_NONE)
        return ROPEKIT_OK;
    if ((int)sc->type < 0 || sc->type > ROPEKIT_SCALING_LLAMA3)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: scaling type = %d: unknown", api,
                            (int)sc->type);
    if (!(sc->factor > 0) || !isfinite(sc->factor))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: scaling factor = %g: must be > 0", api,
                            sc->factor);
    if (sc->type != ROPEKIT_SCALING_LINEAR && sc->original_max_position < 1)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: original_max_position = %lld: must be >= 1", api,
                            (long long)sc->original_max_position);
    if (sc->type == ROPEKIT_SCALING_DYNAMIC_NTK && rotary_dim <= 2)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: rotary_dim = %lld: dynamic NTK needs rotary_dim > 2", api,
                            (long long)rotary_dim);
    if (sc->type == ROPEKIT_SCALING_YARN && (!(sc->beta_fast > 0) || !(sc->beta_slow > 0) ||
                                             !isfinite(sc->beta_fast) || !isfinite(sc->beta_slow)))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: YaRN beta_fast = %g, beta_slow = %g: must be finite and > 0", api,
                            sc->beta_fast, sc->beta_slow);
    if (sc->type == ROPEKIT_SCALING_YARN && !isfinite(sc->extrapolation_factor))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: YaRN extrapolation_factor = %g: must be finite", api,
                            sc->extrapolation_factor);
    if (sc->type == ROPEKIT_SCALING_YARN && (!(sc->attn_factor > 0) || !isfinite(sc->attn_factor)))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: YaRN attn_factor = %g: must be finite and > 0", api,
                            sc->attn_factor);
    if (sc->type == ROPEKIT_SCALING_LLAMA3 &&
        (!(sc->low_freq_factor > 0) || !(sc->high_freq_factor > 0) ||
         !isfinite(sc->low_freq_factor) || !isfinite(sc->high_freq_factor)))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: Llama-3 low/high_freq_factor = %g/%g: must be finite and > 0", api,
                            sc->low_freq_factor, sc->high_freq_factor);
    return ROPEKIT_OK;
}

/* YaRN: the dimension index at which a frequency completes `rotations` turns over the
 * original context. */
static double rk_yarn_correction_dim(double rotations, int64_t dim, double base, int64_t max_pos) {
    return ((double)dim * log((double)max_pos / (rotations * 2 * RK_PI))) / (2 * log(base));
}

static void rk_inv_freq(double *inv, int64_t dim, double base, int64_t max_positions,
                        const ropekit_rope_scaling *sc) {
    const int64_t h = dim / 2;
    ropekit_rope_scaling_type type = sc ? sc->type : ROPEKIT_SCALING_NONE;
    if (type == ROPEKIT_SCALING_DYNAMIC_NTK && max_positions > sc->original_max_position) {
        double ratio = sc->factor * (double)max_positions / (double)sc->original_max_position -
                       (sc->factor - 1);
        base *= pow(ratio, (double)dim / (double)(dim - 2));
    }
    for (int64_t i = 0; i < h; i++)
        inv[i] = 1.0 / pow(base, (double)(2 * i) / (double)dim);
    if (type == ROPEKIT_SCALING_YARN) {
        double lo =
            floor(rk_yarn_correction_dim(sc->beta_fast, dim, base, sc->original_max_position));
        double hi =
            ceil(rk_yarn_correction_dim(sc->beta_slow, dim, base, sc->original_max_position));
        if (lo < 0)
            lo = 0;
        if (hi > (double)(dim - 1))
            hi = (double)(dim - 1);
        if (lo == hi)
            hi += 0.001;
        for (int64_t i = 0; i < h; i++) {
            double ramp = ((double)i - lo) / (hi - lo);
            ramp = ramp < 0 ? 0 : ramp > 1 ? 1 : ramp;
            double mask = (1 - ramp) * sc->extrapolation_factor;
            double extrapolated = inv[i], interpolated = inv[i] / sc->factor;
            inv[i] = interpolated * (1 - mask) + extrapolated * mask;
        }
    } else if (type == ROPEKIT_SCALING_LLAMA3) {
        double orig = (double)sc->original_max_position;
        double low_wavelen = orig / sc->low_freq_factor, high_wavelen = orig / sc->high_freq_factor;
        for (int64_t i = 0; i < h; i++) {
            double wavelen = 2 * RK_PI / inv[i];
            if (wavelen < high_wavelen)
                continue;
            if (wavelen > low_wavelen) {
                inv[i] /= sc->factor;
                continue;
            }
            double smooth = sc->low_freq_factor == sc->high_freq_factor
                                ? 0
                                : (orig / wavelen - sc->low_freq_factor) /
                                      (sc->high_freq_factor - sc->low_freq_factor);
            inv[i] = (1 - smooth) * inv[i] / sc->factor + smooth * inv[i];
        }
    }
}

/* Parameters that pass their own checks can still combine into frequencies, angles or
 * magnitudes that are not finite (a tiny linear factor makes positions infinite; a huge
 * attention factor overflows the dtype): refused before anything is written. rows = 0
 * checks only the frequencies. */
static ropekit_status rk_check_frequencies(const char *api, const double *inv, int64_t h,
                                           int64_t rows, double last_position);

ropekit_status ropekit_rope_inv_freq(double *inv_freq, int64_t rotary_dim, double base,
                                     int64_t max_positions, const ropekit_rope_scaling *scaling) {
    static const char api[] = "ropekit_rope_inv_freq";
    if (!inv_freq)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: inv_freq = NULL", api);
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
    rk_inv_freq(inv, rotary_dim, base, max_positions, scaling);
    st = rk_check_frequencies(api, inv, h, 0, 1.0);
    if (st == ROPEKIT_OK)
        memcpy(inv_freq, inv, (size_t)h * sizeof *inv);
    free(inv);
    return st;
}

/* Scale of cos/sin values (YaRN's attention factor); 1 otherwise. */
static double rk_magnitude(const ropekit_rope_scaling *sc) {
    if (!sc || sc->type != ROPEKIT_SCALING_YARN)
        return 1.0;
    double mscale = sc->factor <= 1 ? 1.0 : 0.1 * log(sc->factor) + 1.0;
    return mscale * sc->attn_factor;
}

/* Position as the angle sees it (linear scaling divides it). */
static double rk_scaled_position(int64_t p, const ropekit_rope_scaling *sc) {
    if (sc && sc->type == ROPEKIT_SCALING_LINEAR)
        return (double)p / sc->factor;
    return (double)p;
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
    const int64_t h = len / 2;
    double *inv = malloc((size_t)h * sizeof *inv);
    if (!inv)
        return rk_error_set(ROPEKIT_NO_MEMORY, "%s: out of memory", api);
    rk_inv_freq(inv, len, base, rows, scaling);
    const double mag = rk_magnitude(scaling);
    st = rk_check_frequencies(api, inv, h, rows, rk_scaled_position(rows - 1, scaling));
    if (st == ROPEKIT_OK && !rk_stores_finite(mag, out->dtype))
        st = rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                          "%s: cos/sin scaled by %g (YaRN mscale * attn_factor): larger than the "
                          "largest %s",
                          api, mag, ropekit_dtype_name(out->dtype));
    if (st != ROPEKIT_OK) {
        free(inv);
        return st;
    }
    for (int64_t p = 0; p < rows; p++) {
        double pos = rk_scaled_position(p, scaling);
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
    free(inv);
    return ROPEKIT_OK;
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
