/* Fuzz target: the native table builders (ropekit_rope_inv_freq,
 * ropekit_cos_sin_cache_build, ropekit_rotary_coeffs_build, ropekit_cos_sin_cache_from_inv_freq)
 * with any sizes, dtypes, bases, scaling parameters, frequencies and magnitudes (NaN, inf,
 * huge, negative).
 *
 * Oracle: a rejected call returns an error with a message and writes nothing; an accepted
 * call writes only finite values; without scaling (and with linear scaling) every value is
 * within one rounding of cos/sin of the float64 angle; the coefficient rows hold the cache's
 * values in the mode's pair layout (each frequency on both members of its pair); the
 * builder of given frequencies, fed the scaling's own (position divisor 1) and magnitude,
 * builds the cache's bytes. When the
 * table would not fit the arena the call is made only if its size overflows, with a
 * one-element buffer: the library must refuse it, or ASan reports the write. */
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_arena.h"
#include "fuzz_check.h"
#include "fuzz_input.h"
#include "testkit/half_bits.h"
#include "ropekit/ropekit.h"

/* The first six twice, float64 in the place of the second 5: a byte picks entry b % 12, so
 * every input found before float64 was valid still decodes to its old dtype (or float64
 * where it read 5). */
static const int64_t kDtypes[] = {ROPEKIT_F32, ROPEKIT_F16, ROPEKIT_BF16, ROPEKIT_I64,  5,
                                  -1,          ROPEKIT_F32, ROPEKIT_F16,  ROPEKIT_BF16, ROPEKIT_I64,
                                  ROPEKIT_F64, -1};

/* LongRoPE's factor arrays: room for the widest table the harness builds (len <= 130, so
 * at most 65 frequencies) and for a count one too large. */
static double g_short_factor[68], g_long_factor[68];

/* The scaling types and fields added later (LongRoPE, NTK, dynamic NTK alpha, DeepSeek
 * YaRN; no_truncate, attention_factor, mscale, mscale_all_dim, mixed_b, alpha, the
 * LongRoPE arrays and their short_mscale / long_mscale), decoded only when bit 64 of
 * `which` is set. */
static void read_scaling_extension(fz_input *in, ropekit_rope_scaling *sc) {
    static const int64_t kTypes[] = {
        ROPEKIT_SCALING_LONGROPE,      ROPEKIT_SCALING_NTK,  ROPEKIT_SCALING_DYNAMIC_NTK_ALPHA,
        ROPEKIT_SCALING_DEEPSEEK_YARN, ROPEKIT_SCALING_YARN, 9};
    ropekit_rope_scaling_type type =
        (ropekit_rope_scaling_type)fz_pick(in, kTypes, sizeof kTypes / sizeof kTypes[0]);
    const ropekit_rope_scaling kept = *sc;
    ropekit_rope_scaling_defaults(
        sc, (int)type <= ROPEKIT_SCALING_DEEPSEEK_YARN ? type : ROPEKIT_SCALING_NONE);
    sc->type = type;
    sc->factor = kept.factor;
    sc->original_max_position = kept.original_max_position;
    uint8_t which = fz_u8(in);
    if (which & 1)
        sc->no_truncate = (int32_t)fz_range(in, 0, 2);
    if (which & 2)
        sc->attention_factor = fz_double(in, -0.5, 4.0);
    if (which & 4) {
        sc->mscale = fz_double(in, 0.0, 2.0);
        sc->mscale_all_dim = fz_double(in, 0.0, 2.0);
    }
    if (which & 8)
        sc->mixed_b = fz_double(in, 0.0, 4.0);
    if (which & 16)
        sc->alpha = fz_double(in, -1.0, 2000.0);
    if (which & 32) {
        const int64_t n = fz_range(in, 0, 66);
        for (int64_t i = 0; i <= n; i++) {
            g_short_factor[i] = fz_double(in, -0.5, 80.0);
            g_long_factor[i] = fz_double(in, -0.5, 80.0);
        }
        sc->short_factor = fz_bool(in) ? g_short_factor : NULL;
        sc->long_factor = g_long_factor;
        sc->short_factor_count = n;
        sc->long_factor_count = fz_bool(in) ? n : fz_int(in, 0, 66); /* maybe extreme */
        sc->longrope_stacked = (int32_t)fz_range(in, 0, 2);
    }
    if (which & 64) {
        sc->short_mscale = fz_double(in, -0.5, 4.0);
        sc->long_mscale = fz_bool(in) ? fz_double(in, -0.5, 4.0) : 0.0;
    }
}

static void read_scaling(fz_input *in, ropekit_rope_scaling *sc) {
    ropekit_rope_scaling_type type = (ropekit_rope_scaling_type)fz_range(in, -1, 5);
    ropekit_rope_scaling_defaults(
        sc, (int)type >= 0 && type <= ROPEKIT_SCALING_LLAMA3 ? type : ROPEKIT_SCALING_NONE);
    sc->type = type;
    uint8_t which = fz_u8(in); /* which fields leave their defaults */
    if (which & 1)
        sc->factor = fz_double(in, 0.25, 64.0);
    if (which & 2)
        sc->original_max_position = fz_int(in, -2, 1 << 17);
    if (which & 4) {
        sc->beta_fast = fz_double(in, 0.5, 64.0);
        sc->beta_slow = fz_double(in, 0.5, 4.0);
    }
    if (which & 8)
        sc->extrapolation_factor = fz_double(in, 0.0, 2.0);
    if (which & 16)
        sc->attn_factor = fz_double(in, 0.0, 4.0);
    if (which & 32) {
        sc->low_freq_factor = fz_double(in, 0.5, 4.0);
        sc->high_freq_factor = fz_double(in, 1.0, 8.0);
    }
    if (which & 64)
        read_scaling_extension(in, sc);
}

/* The bytes of a rows x len table of `dtype`, or 0 when that overflows size_t. */
static size_t table_bytes(int64_t rows, int64_t len, size_t elem) {
    if (rows < 0 || len < 0)
        return 0;
    uint64_t r = (uint64_t)rows, l = (uint64_t)len;
    if (l != 0 && r > SIZE_MAX / l)
        return 0;
    if (elem != 0 && r * l > SIZE_MAX / elem)
        return 0;
    return (size_t)(r * l * elem);
}

static double load(const uint8_t *base, int64_t index, ropekit_dtype dtype) {
    return tk_load(base + (size_t)index * ropekit_dtype_size(dtype), dtype);
}

static void expect_rejected(fz_arena *a, ropekit_status st, const char *api) {
    FZ_CHECK(st != ROPEKIT_OK, "%s accepted a table it cannot have been given room for", api);
    FZ_CHECK(ropekit_last_error()[0] != '\0', "%s failed (%s) without a message", api,
             ropekit_status_name(st));
    int changed = fz_changed(a);
    FZ_CHECK(changed < 0, "%s failed (%s: %s) but changed buffer %d", api, ropekit_status_name(st),
             ropekit_last_error(), changed);
}

/* Half an ulp of 1 in the dtype, doubled: the room of one rounding of a value <= 1 plus
 * the float64 angle's own error. */
static double unit_tolerance(ropekit_dtype dtype) {
    return dtype == ROPEKIT_F64   ? ldexp(1.0, -52)
           : dtype == ROPEKIT_F32 ? ldexp(1.0, -23)
           : dtype == ROPEKIT_F16 ? ldexp(1.0, -10)
                                  : ldexp(1.0, -7);
}

static void check_inv_freq(fz_input *in, const ropekit_rope_scaling *sc, double base) {
    fz_arena a;
    fz_arena_init(&a);
    int64_t dim = fz_int(in, -2, 512);
    int64_t max_positions = fz_int(in, -1, 1 << 20);
    if (dim / 2 > (int64_t)(FZ_ARENA_LIMIT / sizeof(double))) {
        fz_arena_free(&a); /* a valid size this arena cannot hold */
        return;
    }
    size_t bytes = dim > 0 ? (size_t)(dim / 2) * sizeof(double) : 0;
    double *inv = (double *)fz_alloc(&a, bytes);
    if (!inv) {
        fz_arena_free(&a);
        return;
    }
    for (size_t i = 0; i < bytes / sizeof(double); ++i)
        inv[i] = -7.0;
    fz_snapshot(&a);
    ropekit_status st = ropekit_rope_inv_freq(inv, dim, base, max_positions, sc);
    if (st != ROPEKIT_OK) {
        FZ_CHECK(ropekit_last_error()[0] != '\0', "inv_freq failed without a message");
        FZ_CHECK(fz_changed(&a) < 0, "inv_freq failed (%s) but wrote", ropekit_last_error());
    } else {
        for (int64_t i = 0; i < dim / 2; ++i)
            FZ_CHECK(isfinite(inv[i]), "inv_freq[%lld] = %g (dim %lld, base %g)", (long long)i,
                     inv[i], (long long)dim, base);
    }
    fz_arena_free(&a);
}

/* The cache of the frequencies and magnitude the scaling builder used, perhaps with one
 * frequency and the magnitude replaced by fuzzed values. Read after every older field, so
 * older inputs decode as before. */
static void check_given(fz_input *in, fz_arena *a, const uint8_t *cache, ropekit_status cache_st,
                        uint8_t *given, ropekit_dtype dtype, int64_t rows, int64_t len, double base,
                        const ropekit_rope_scaling *scaling) {
    static const double kOdd[] = {NAN, INFINITY, -INFINITY, 1e308, 1e39, 65520.0, 0.0, -1.0};
    enum { kMaxPairs = 65 }; /* len <= 130 */
    if (len > 2 * kMaxPairs)
        return; /* the library would read more frequencies than this array holds */
    const int64_t h = len >= 2 ? len / 2 : 1;
    double inv[kMaxPairs], divisor = 0, magnitude = 1;
    for (int64_t i = 0; i < h; ++i)
        inv[i] = 1.0 / (double)(i + 1);
    /* a stacked LongRoPE table longer than original_max_position has two frequency sets,
     * which one given set cannot give */
    const bool two_sets = scaling && scaling->type == ROPEKIT_SCALING_LONGROPE &&
                          scaling->longrope_stacked && rows > scaling->original_max_position;
    const bool derived =
        ropekit_rope_table_frequencies(inv, &divisor, len, base, rows, scaling) == ROPEKIT_OK &&
        ropekit_rope_attention_scaling(&magnitude, len, scaling) == ROPEKIT_OK && divisor == 1.0 &&
        !two_sets;
    /* a one-set LongRoPE table's rows have their set's mscale when it is > 0 */
    if (derived && scaling && scaling->type == ROPEKIT_SCALING_LONGROPE) {
        const double set_mscale =
            rows > scaling->original_max_position ? scaling->long_mscale : scaling->short_mscale;
        if (set_mscale > 0)
            magnitude = set_mscale;
    }
    const uint8_t change = fz_u8(in);
    if (change & 1)
        inv[fz_range(in, 0, (int)h - 1)] =
            fz_bool(in) ? kOdd[fz_range(in, 0, 7)] : fz_double(in, -1e6, 1e6);
    if (change & 2)
        magnitude = fz_bool(in) ? kOdd[fz_range(in, 0, 7)] : fz_double(in, 0.0, 1e5);
    fz_snapshot(a);
    ropekit_status st =
        ropekit_cos_sin_cache_from_inv_freq(given, dtype, rows, len, inv, magnitude);
    if (st != ROPEKIT_OK) {
        expect_rejected(a, st, "ropekit_cos_sin_cache_from_inv_freq");
        return;
    }
    for (int64_t i = 0; i < rows * len; ++i)
        FZ_CHECK(isfinite(load(given, i, dtype)), "given-frequency value %lld not finite",
                 (long long)i);
    if (derived && !(change & 3) && cache_st == ROPEKIT_OK)
        FZ_CHECK(memcmp(given, cache, (size_t)(rows * len) * ropekit_dtype_size(dtype)) == 0,
                 "the scaling's frequencies and magnitude give another cache");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_input in = {data, size};
    ropekit_rope_scaling sc;
    read_scaling(&in, &sc);
    const bool scaled = fz_bool(&in);
    const ropekit_rope_scaling *scaling = scaled ? &sc : NULL;
    const double base = fz_bool(&in) ? 10000.0 : fz_double(&in, 1.0001, 1e6);
    const ropekit_dtype dtype =
        (ropekit_dtype)fz_pick(&in, kDtypes, sizeof kDtypes / sizeof kDtypes[0]);
    const int64_t rows = fz_int(&in, -1, 64);
    const int64_t len = fz_int(&in, -2, 130);
    const int64_t mode = fz_range(&in, -1, 4);
    const size_t elem = tk_dtype_is_float(dtype) ? ropekit_dtype_size(dtype) : 4;

    FZ_TRACE("scaling %s type %d factor %g orig %lld beta %g/%g extrap %g attn %g low/high %g/%g; "
             "base %g dtype %d rows %lld len %lld mode %lld",
             scaled ? "on" : "off", (int)sc.type, sc.factor, (long long)sc.original_max_position,
             sc.beta_fast, sc.beta_slow, sc.extrapolation_factor, sc.attn_factor,
             sc.low_freq_factor, sc.high_freq_factor, base, (int)dtype, (long long)rows,
             (long long)len, (long long)mode);
    check_inv_freq(&in, scaling, base);

    fz_arena a;
    fz_arena_init(&a);
    size_t bytes = table_bytes(rows, len, elem);
    bool overflows = rows > 0 && len > 0 && bytes == 0;
    bool too_large = bytes > FZ_ARENA_LIMIT / 4;
    if (too_large && !overflows) {
        fz_arena_free(&a);
        return 0; /* a valid size this arena cannot hold */
    }
    size_t room = overflows ? elem : bytes;
    uint8_t *cache = (uint8_t *)fz_alloc(&a, room);
    uint8_t *cos_rows = (uint8_t *)fz_alloc(&a, room);
    uint8_t *sin_rows = (uint8_t *)fz_alloc(&a, room);
    uint8_t *given = (uint8_t *)fz_alloc(&a, room);
    FZ_CHECK(cache && cos_rows && sin_rows && given, "arena exhausted by %zu bytes", room);
    memset(cache, 0xa5, room);
    memset(cos_rows, 0xa5, room);
    memset(sin_rows, 0xa5, room);
    memset(given, 0xa5, room);
    fz_snapshot(&a);

    ropekit_status st = ropekit_cos_sin_cache_build(cache, dtype, rows, len, base, scaling);
    if (overflows) {
        expect_rejected(&a, st, "ropekit_cos_sin_cache_build");
    } else if (st != ROPEKIT_OK) {
        expect_rejected(&a, st, "ropekit_cos_sin_cache_build");
    } else {
        FZ_CHECK(tk_dtype_is_float(dtype), "cache built in dtype %d", (int)dtype);
        const int64_t h = len / 2;
        const bool plain =
            !scaling || sc.type == ROPEKIT_SCALING_NONE || sc.type == ROPEKIT_SCALING_LINEAR;
        for (int64_t p = 0; p < rows; ++p)
            for (int64_t f = 0; f < h; ++f) {
                double c = load(cache, p * len + f, dtype), s = load(cache, p * len + h + f, dtype);
                FZ_CHECK(isfinite(c) && isfinite(s), "cache[%lld][%lld] = (%g, %g), %s",
                         (long long)p, (long long)f, c, s, scaling ? "scaled" : "unscaled");
                if (!plain)
                    continue;
                double pos = scaling && sc.type == ROPEKIT_SCALING_LINEAR ? p / sc.factor : p;
                double angle = pos * pow(base, -2.0 * (double)f / (double)len);
                double tol = unit_tolerance(dtype) + 1e-12 * fabs(angle);
                FZ_CHECK(fabs(c - cos(angle)) <= tol && fabs(s - sin(angle)) <= tol,
                         "cache[%lld][%lld] = (%.9g, %.9g), cos/sin of %.17g = (%.9g, %.9g)",
                         (long long)p, (long long)f, c, s, angle, cos(angle), sin(angle));
            }
    }

    fz_snapshot(&a); /* the cache as built: the coefficient call must leave it */
    ropekit_status cst = ropekit_rotary_coeffs_build(cos_rows, sin_rows, dtype, rows, len,
                                                     (ropekit_rotary_mode)mode, base, scaling);
    if (overflows || cst != ROPEKIT_OK) {
        expect_rejected(&a, cst, "ropekit_rotary_coeffs_build");
    } else {
        FZ_CHECK(mode >= 0 && mode <= 3 && tk_dtype_is_float(dtype), "coefficients for mode %lld",
                 (long long)mode);
        for (int64_t i = 0; i < rows * len; ++i)
            FZ_CHECK(isfinite(load(cos_rows, i, dtype)) && isfinite(load(sin_rows, i, dtype)),
                     "coefficient %lld not finite", (long long)i);
        /* half and interleave rows hold the cache's frequencies, each on both pair slots */
        if (st == ROPEKIT_OK &&
            (mode == ROPEKIT_ROTARY_HALF || mode == ROPEKIT_ROTARY_INTERLEAVE)) {
            const int64_t h = len / 2;
            for (int64_t p = 0; p < rows; ++p)
                for (int64_t f = 0; f < h; ++f) {
                    int64_t x = mode == ROPEKIT_ROTARY_HALF ? f : 2 * f;
                    int64_t y = mode == ROPEKIT_ROTARY_HALF ? f + h : 2 * f + 1;
                    double c = load(cache, p * len + f, dtype);
                    double s = load(cache, p * len + h + f, dtype);
                    FZ_CHECK(load(cos_rows, p * len + x, dtype) == c &&
                                 load(cos_rows, p * len + y, dtype) == c &&
                                 load(sin_rows, p * len + x, dtype) == s &&
                                 load(sin_rows, p * len + y, dtype) == s,
                             "coefficients of position %lld frequency %lld differ from the cache",
                             (long long)p, (long long)f);
                }
        }
    }
    check_given(&in, &a, cache, overflows ? ROPEKIT_INVALID_ARGUMENT : st, given, dtype, rows, len,
                base, scaling);
    fz_arena_free(&a);
    return 0;
}
