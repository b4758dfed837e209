/* Rope scaling variants of Hugging Face transformers and vLLM: which frequencies a table
 * uses and how large its cos and sin are. Each formula cites its origin. */
#include "tables/rope_scaling.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/error.h"

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
    out->no_truncate = 0;
    out->attention_factor = 0.0;
    out->mscale = 0.0;
    out->mscale_all_dim = 0.0;
    out->mixed_b = 0.0;
    out->alpha = 1.0;
    out->longrope_stacked = 0;
    out->short_mscale = 0.0;
    out->long_mscale = 0.0;
}

static bool rk_positive_finite(double v) {
    return v > 0 && isfinite(v);
}
static bool rk_nonnegative_finite(double v) {
    return v >= 0 && isfinite(v);
}

/* The magnitude fields that 0 leaves to be derived: the field `a` of scaling `kind` (and
 * `b` too, unless NULL) finite and >= 0; `note` says what 0 means. */
static ropekit_status rk_check_magnitudes(const char *api, const char *kind, const char *a,
                                          double va, const char *b, double vb, const char *note) {
    if (rk_nonnegative_finite(va) && (!b || rk_nonnegative_finite(vb)))
        return ROPEKIT_OK;
    char second[96] = "";
    if (b)
        snprintf(second, sizeof second, ", %s = %g", b, vb);
    return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: %s %s = %g%s: must be finite and >= 0%s",
                        api, kind, a, va, second, note);
}
static bool rk_is_yarn(ropekit_rope_scaling_type t) {
    return t == ROPEKIT_SCALING_YARN || t == ROPEKIT_SCALING_DEEPSEEK_YARN;
}

static bool rk_uses_original_max_position(ropekit_rope_scaling_type t) {
    return t == ROPEKIT_SCALING_DYNAMIC_NTK || t == ROPEKIT_SCALING_LLAMA3 ||
           t == ROPEKIT_SCALING_LONGROPE || rk_is_yarn(t);
}

static ropekit_status rk_check_yarn(const ropekit_rope_scaling *sc, const char *api) {
    if (!rk_positive_finite(sc->beta_fast) || !rk_positive_finite(sc->beta_slow))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: YaRN beta_fast = %g, beta_slow = %g: must be finite and > 0", api,
                            sc->beta_fast, sc->beta_slow);
    if (!isfinite(sc->extrapolation_factor))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: YaRN extrapolation_factor = %g: must be finite", api,
                            sc->extrapolation_factor);
    if (!rk_positive_finite(sc->attn_factor))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: YaRN attn_factor = %g: must be finite and > 0", api,
                            sc->attn_factor);
    if (sc->no_truncate != 0 && sc->no_truncate != 1)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: YaRN no_truncate = %d: must be 0 or 1",
                            api, (int)sc->no_truncate);
    ropekit_status st = rk_check_magnitudes(api, "YaRN", "attention_factor", sc->attention_factor,
                                            NULL, 0, " (0 derives it from mscale)");
    if (st == ROPEKIT_OK)
        st = rk_check_magnitudes(api, "YaRN", "mscale", sc->mscale, "mscale_all_dim",
                                 sc->mscale_all_dim, "");
    return st;
}

static ropekit_status rk_check_llama3(const ropekit_rope_scaling *sc, const char *api) {
    if (!rk_positive_finite(sc->low_freq_factor) || !rk_positive_finite(sc->high_freq_factor))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: Llama-3 low/high_freq_factor = %g/%g: must be finite and > 0", api,
                            sc->low_freq_factor, sc->high_freq_factor);
    return ROPEKIT_OK;
}

static ropekit_status rk_check_factor_array(const char *api, const char *name, const double *values,
                                            int64_t count, int64_t h) {
    if (count != h)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: LongRoPE %s_count = %lld: must be rotary_dim / 2 = %lld", api,
                            name, (long long)count, (long long)h);
    if (!values)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: LongRoPE %s = NULL", api, name);
    for (int64_t i = 0; i < count; i++)
        if (!rk_positive_finite(values[i]))
            return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                                "%s: LongRoPE %s[%lld] = %g: must be finite and > 0", api, name,
                                (long long)i, values[i]);
    return ROPEKIT_OK;
}

static ropekit_status rk_check_longrope(const ropekit_rope_scaling *sc, int64_t rotary_dim,
                                        const char *api) {
    ropekit_status st = rk_check_factor_array(api, "short_factor", sc->short_factor,
                                              sc->short_factor_count, rotary_dim / 2);
    if (st == ROPEKIT_OK)
        st = rk_check_factor_array(api, "long_factor", sc->long_factor, sc->long_factor_count,
                                   rotary_dim / 2);
    if (st == ROPEKIT_OK)
        st = rk_check_magnitudes(api, "LongRoPE", "attention_factor", sc->attention_factor, NULL, 0,
                                 " (0 derives it from factor)");
    if (st == ROPEKIT_OK)
        st = rk_check_magnitudes(api, "LongRoPE", "short_mscale", sc->short_mscale, "long_mscale",
                                 sc->long_mscale, " (0 keeps the attention factor)");
    if (st != ROPEKIT_OK)
        return st;
    if (sc->longrope_stacked != 0 && sc->longrope_stacked != 1)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: LongRoPE longrope_stacked = %d: must be 0 or 1", api,
                            (int)sc->longrope_stacked);
    /* the derived magnitude divides by ln(original_max_position) */
    if (sc->attention_factor == 0 && sc->factor > 1 && sc->original_max_position < 2)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: LongRoPE original_max_position = %lld: must be >= 2 to derive "
                            "the attention factor of factor %g",
                            api, (long long)sc->original_max_position, sc->factor);
    return ROPEKIT_OK;
}

static ropekit_status rk_check_type_fields(const ropekit_rope_scaling *sc, int64_t rotary_dim,
                                           const char *api) {
    switch (sc->type) {
    case ROPEKIT_SCALING_DYNAMIC_NTK:
    case ROPEKIT_SCALING_DYNAMIC_NTK_ALPHA:
        if (rotary_dim <= 2)
            return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                                "%s: rotary_dim = %lld: dynamic NTK needs rotary_dim > 2", api,
                                (long long)rotary_dim);
        if (sc->type == ROPEKIT_SCALING_DYNAMIC_NTK_ALPHA && !rk_positive_finite(sc->alpha))
            return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                                "%s: dynamic NTK alpha = %g: must be finite and > 0", api,
                                sc->alpha);
        return ROPEKIT_OK;
    case ROPEKIT_SCALING_YARN:
    case ROPEKIT_SCALING_DEEPSEEK_YARN:
        return rk_check_yarn(sc, api);
    case ROPEKIT_SCALING_LLAMA3:
        return rk_check_llama3(sc, api);
    case ROPEKIT_SCALING_LONGROPE:
        return rk_check_longrope(sc, rotary_dim, api);
    case ROPEKIT_SCALING_NTK:
        if (!rk_nonnegative_finite(sc->mixed_b))
            return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                                "%s: NTK mixed_b = %g: must be finite and >= 0 (0 = fixed NTK)",
                                api, sc->mixed_b);
        return ROPEKIT_OK;
    default:
        return ROPEKIT_OK;
    }
}

/* The checks of every type: the type itself, the factor, original_max_position. */
static ropekit_status rk_check_scaling_common(const ropekit_rope_scaling *sc, const char *api) {
    if ((int)sc->type < 0 || sc->type > ROPEKIT_SCALING_DEEPSEEK_YARN)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: scaling type = %d: unknown", api,
                            (int)sc->type);
    if (!rk_positive_finite(sc->factor))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: scaling factor = %g: must be > 0", api,
                            sc->factor);
    if (rk_uses_original_max_position(sc->type) && sc->original_max_position < 1)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: original_max_position = %lld: must be >= 1", api,
                            (long long)sc->original_max_position);
    return ROPEKIT_OK;
}

ropekit_status rk_check_scaling(const ropekit_rope_scaling *sc, int64_t rotary_dim,
                                const char *api) {
    if (!sc || sc->type == ROPEKIT_SCALING_NONE)
        return ROPEKIT_OK;
    ropekit_status st = rk_check_scaling_common(sc, api);
    return st == ROPEKIT_OK ? rk_check_type_fields(sc, rotary_dim, api) : st;
}

bool rk_scaling_two_sets(const ropekit_rope_scaling *sc) {
    return sc && sc->type == ROPEKIT_SCALING_LONGROPE && sc->longrope_stacked;
}

bool rk_scaling_uses_long_factors(const ropekit_rope_scaling *sc, int64_t max_positions) {
    return sc && sc->type == ROPEKIT_SCALING_LONGROPE && max_positions > sc->original_max_position;
}

/* The base after the variants that rescale it (NTK-aware scaling, bloc97 2023). */
static double rk_scaled_base(double base, int64_t dim, int64_t max_positions,
                             const ropekit_rope_scaling *sc) {
    const double exponent = (double)dim / (double)(dim - 2);
    switch (sc->type) {
    case ROPEKIT_SCALING_DYNAMIC_NTK:
        if (max_positions > sc->original_max_position)
            base *= pow(sc->factor * (double)max_positions / (double)sc->original_max_position -
                            (sc->factor - 1),
                        exponent);
        return base;
    case ROPEKIT_SCALING_DYNAMIC_NTK_ALPHA:
        return base * pow(sc->alpha, exponent);
    case ROPEKIT_SCALING_NTK:
        return sc->mixed_b == 0 ? base * sc->factor : base;
    default:
        return base;
    }
}

/* YaRN: the dimension index at which a frequency completes `rotations` turns over the
 * original context (Peng et al. 2023). */
static double rk_yarn_correction_dim(double rotations, int64_t dim, double base, int64_t max_pos) {
    return ((double)dim * log((double)max_pos / (rotations * 2 * RK_PI))) / (2 * log(base));
}

/* YaRN's ramp between interpolated (inv / factor) and extrapolated (inv) frequencies over
 * the correction range; no_truncate keeps the range's fractional bounds. */
static void rk_apply_yarn(double *inv, int64_t dim, double base, const ropekit_rope_scaling *sc) {
    double lo = rk_yarn_correction_dim(sc->beta_fast, dim, base, sc->original_max_position);
    double hi = rk_yarn_correction_dim(sc->beta_slow, dim, base, sc->original_max_position);
    if (!sc->no_truncate) {
        lo = floor(lo);
        hi = ceil(hi);
    }
    if (lo < 0)
        lo = 0;
    if (hi > (double)(dim - 1))
        hi = (double)(dim - 1);
    if (lo == hi)
        hi += 0.001;
    for (int64_t i = 0; i < dim / 2; i++) {
        double ramp = ((double)i - lo) / (hi - lo);
        ramp = ramp < 0 ? 0 : ramp > 1 ? 1 : ramp;
        double mask = (1 - ramp) * sc->extrapolation_factor;
        double extrapolated = inv[i], interpolated = inv[i] / sc->factor;
        inv[i] = interpolated * (1 - mask) + extrapolated * mask;
    }
}

/* Llama 3.1's wavelength bands (Meta 2024). */
static void rk_apply_llama3(double *inv, int64_t h, const ropekit_rope_scaling *sc) {
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

/* Fixed NTK divides every frequency by factor^(2/R) on top of the scaled base; mixed NTK
 * divides frequency i by exp(a (i+1)^b) with a = ln(factor) / (R/2)^b (Su 2023,
 * kexue.fm/archives/9706). */
static void rk_apply_ntk(double *inv, int64_t dim, const ropekit_rope_scaling *sc) {
    const int64_t h = dim / 2;
    if (sc->mixed_b == 0) {
        double divisor = pow(sc->factor, 2.0 / (double)dim);
        for (int64_t i = 0; i < h; i++)
            inv[i] /= divisor;
        return;
    }
    double a = log(sc->factor) / pow((double)h, sc->mixed_b);
    for (int64_t i = 0; i < h; i++)
        inv[i] /= exp(a * pow((double)(i + 1), sc->mixed_b));
}

void rk_scaling_frequencies(double *inv, int64_t dim, double base, int64_t max_positions,
                            const ropekit_rope_scaling *sc, bool long_set) {
    const int64_t h = dim / 2;
    ropekit_rope_scaling_type type = sc ? sc->type : ROPEKIT_SCALING_NONE;
    if (sc)
        base = rk_scaled_base(base, dim, max_positions, sc);
    for (int64_t i = 0; i < h; i++)
        inv[i] = 1.0 / pow(base, (double)(2 * i) / (double)dim);
    if (rk_is_yarn(type)) {
        rk_apply_yarn(inv, dim, base, sc);
    } else if (type == ROPEKIT_SCALING_LLAMA3) {
        rk_apply_llama3(inv, h, sc);
    } else if (type == ROPEKIT_SCALING_NTK) {
        rk_apply_ntk(inv, dim, sc);
    } else if (type == ROPEKIT_SCALING_LONGROPE) {
        /* LongRoPE (Ding et al. 2024): a searched divisor per frequency */
        const double *divisors = long_set ? sc->long_factor : sc->short_factor;
        for (int64_t i = 0; i < h; i++)
            inv[i] /= divisors[i];
    }
}

double rk_scaling_position_divisor(const ropekit_rope_scaling *sc) {
    return sc && sc->type == ROPEKIT_SCALING_LINEAR ? sc->factor : 1.0;
}

/* YaRN's magnitude correction 0.1 m ln(s) + 1 (Peng et al. 2023; m from DeepSeek-V2). */
static double rk_yarn_mscale(double scale, double m) {
    return scale <= 1 ? 1.0 : 0.1 * m * log(scale) + 1.0;
}

double rk_scaling_magnitude(const ropekit_rope_scaling *sc) {
    if (!sc)
        return 1.0;
    if (rk_is_yarn(sc->type)) {
        double derived = sc->attention_factor > 0
                             ? sc->attention_factor
                             : rk_yarn_mscale(sc->factor, sc->mscale > 0 ? sc->mscale : 1.0) /
                                   rk_yarn_mscale(sc->factor, sc->mscale_all_dim);
        return derived * sc->attn_factor;
    }
    if (sc->type == ROPEKIT_SCALING_LONGROPE) {
        if (sc->attention_factor > 0)
            return sc->attention_factor;
        if (sc->factor <= 1)
            return 1.0;
        return sqrt(1 + log(sc->factor) / log((double)sc->original_max_position));
    }
    return 1.0;
}

double rk_scaling_set_magnitude(const ropekit_rope_scaling *sc, bool long_set) {
    if (sc && sc->type == ROPEKIT_SCALING_LONGROPE) {
        const double set_mscale = long_set ? sc->long_mscale : sc->short_mscale;
        if (set_mscale > 0)
            return set_mscale;
    }
    return rk_scaling_magnitude(sc);
}

ropekit_status ropekit_rope_softmax_scale(double *softmax_scale,
                                          const ropekit_rope_scaling *scaling) {
    static const char api[] = "ropekit_rope_softmax_scale";
    if (!softmax_scale)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: softmax_scale = NULL", api);
    double m = 1.0;
    if (scaling && scaling->type != ROPEKIT_SCALING_NONE) {
        ropekit_status st = rk_check_scaling_common(scaling, api);
        if (st == ROPEKIT_OK && rk_is_yarn(scaling->type))
            st = rk_check_yarn(scaling, api);
        if (st != ROPEKIT_OK)
            return st;
        /* DeepSeek-V2's softmax_scale * mscale^2, mscale = yarn_get_mscale(factor,
         * mscale_all_dim) (its modeling code; vLLM's DeepseekScalingRotaryEmbedding) */
        if (rk_is_yarn(scaling->type))
            m = rk_yarn_mscale(scaling->factor, scaling->mscale_all_dim);
    }
    if (!isfinite(m * m))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: softmax scale = %g: the scaling parameters give no finite factor",
                            api, m * m);
    *softmax_scale = m * m;
    return ROPEKIT_OK;
}

ropekit_status ropekit_rope_table_magnitude(double *magnitude, int64_t rotary_dim,
                                            int64_t max_positions, int64_t row,
                                            const ropekit_rope_scaling *scaling) {
    static const char api[] = "ropekit_rope_table_magnitude";
    if (!magnitude)
        return rk_error_set(ROPEKIT_NULL_POINTER, "%s: magnitude = NULL", api);
    if (rotary_dim < 2 || rotary_dim % 2)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT, "%s: rotary_dim = %lld: must be even, >= 2",
                            api, (long long)rotary_dim);
    if (row < 0 || row >= max_positions)
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: row = %lld: must be in [0, max_positions = %lld)", api,
                            (long long)row, (long long)max_positions);
    ropekit_status st = rk_check_scaling(scaling, rotary_dim, api);
    if (st != ROPEKIT_OK)
        return st;
    /* the set rk_table_freqs_make (rope_tables.c) gives the row */
    const bool long_set = rk_scaling_two_sets(scaling)
                              ? row >= scaling->original_max_position
                              : rk_scaling_uses_long_factors(scaling, max_positions);
    const double m = rk_scaling_set_magnitude(scaling, long_set);
    if (!isfinite(m))
        return rk_error_set(ROPEKIT_INVALID_ARGUMENT,
                            "%s: magnitude = %g: the scaling parameters give no finite magnitude",
                            api, m);
    *magnitude = m;
    return ROPEKIT_OK;
}
