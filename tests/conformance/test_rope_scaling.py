"""The scaling variants added to the table builders, the attention scaling query and the
Hugging Face config reader, against the float64 references of the published formulas
(tests/reference/rope_frequencies.py: longrope, ntk, alpha, yarn, linear), with how
ropekit's scaling fields combine them:

  longrope  ext = long_factor when the table has more rows than original, else
            short_factor; magnitude attention_factor, else the published one. Stacked
            (vLLM): rows [0, original) short at position p, rows [original, M) long at
            p - original.
  yarn      magnitude (attention_factor if > 0 else m(f, mscale) / m(f, mscale_all_dim))
            times attn_factor (DeepSeek-V2 for mscale)
  linear    inv_freq (HF view) = inv0 / f; the tables use inv0 at position p / f

Cos/sin entries are compared with the once-rounded float64 references under the window
of table_rounding.py.
"""
import ctypes
import math

import numpy as np
import pytest

import ropekit
import rope_frequencies as freqs
from ropekit import tables
from table_rounding import DTYPES, check_rounded, window

INVALID, NULL_POINTER = 2, 1

# Phi-3-vision-128k-instruct's published rope_scaling (type "su", head_dim 96): the same
# layout as Phi-3-mini-128k (48 values each, original 4096, max 131072).
PHI3_LONG = [
    1.0299999713897705, 1.0499999523162842, 1.0499999523162842, 1.0799999237060547,
    1.2299998998641968, 1.2299998998641968, 1.2999999523162842, 1.4499999284744263,
    1.5999999046325684, 1.6499998569488525, 1.8999998569488525, 2.859999895095825,
    3.68999981880188, 5.419999599456787, 5.489999771118164, 5.489999771118164,
    9.09000015258789, 11.579999923706055, 15.65999984741211, 15.769999504089355,
    15.789999961853027, 18.360000610351562, 21.989999771118164, 23.079999923706055,
    30.009998321533203, 32.35000228881836, 32.590003967285156, 35.56000518798828,
    39.95000457763672, 53.840003967285156, 56.20000457763672, 57.95000457763672,
    59.29000473022461, 59.77000427246094, 59.920005798339844, 61.190006256103516,
    61.96000671386719, 62.50000762939453, 63.3700065612793, 63.48000717163086,
    63.48000717163086, 63.66000747680664, 63.850006103515625, 64.08000946044922,
    64.760009765625, 64.80001068115234, 64.81001281738281, 64.81001281738281]
PHI3_SHORT = [
    1.05, 1.05, 1.05, 1.1, 1.1, 1.1, 1.2500000000000002, 1.2500000000000002,
    1.4000000000000004, 1.4500000000000004, 1.5500000000000005, 1.8500000000000008,
    1.9000000000000008] + [2.000000000000001] * 19 + [
    2.1000000000000005, 2.1000000000000005, 2.2, 2.3499999999999996, 2.3499999999999996,
    2.3499999999999996, 2.3499999999999996, 2.3999999999999995, 2.3999999999999995,
    2.6499999999999986, 2.6999999999999984, 2.8999999999999977, 2.9499999999999975,
    3.049999999999997, 3.049999999999997, 3.049999999999997]


# ---- the references (tests/reference/rope_frequencies.py) --------------------------

inv0, mscale, yarn_bounds = freqs.inv_freq, freqs.yarn_mscale, freqs.yarn_correction_range


def ref_yarn(R, base, sc):
    return freqs.yarn_inv_freq(R, base, sc["factor"], sc["original_max_position"],
                               sc.get("beta_fast", 32.0), sc.get("beta_slow", 1.0),
                               sc.get("truncate", True), sc.get("extrapolation_factor", 1.0))


def ref_yarn_magnitude(sc):
    """ropekit's (and vLLM's) YaRN magnitude: attention_factor when set, else
    m(f, mscale) / m(f, mscale_all_dim), times attn_factor."""
    f = sc["factor"]
    derived = sc.get("attention_factor") or (freqs.yarn_mscale(f, sc.get("mscale", 1.0)) /
                                             freqs.yarn_mscale(f, sc.get("mscale_all_dim", 0.0)))
    return derived * sc.get("attn_factor", 1.0)


def ref_longrope_magnitude(sc):
    if sc.get("attention_factor"):
        return sc["attention_factor"]
    return freqs.longrope_attention_factor(sc.get("factor", 1.0), sc["original_max_position"])


def ref_table(R, base, M, sc):
    """[(rows, positions, inv, magnitude)] pieces of a table of M rows, and the magnitude
    the scaling derives (ropekit_rope_attention_scaling's)."""
    kind = sc["type"]
    rows = np.arange(M)
    if kind == "longrope":
        mag = ref_longrope_magnitude(sc)
        orig = sc["original_max_position"]
        short = (freqs.longrope_inv_freq(R, base, sc["short_factor"]),
                 sc.get("short_mscale") or mag)
        long_ = (freqs.longrope_inv_freq(R, base, sc["long_factor"]),
                 sc.get("long_mscale") or mag)
        if sc.get("longrope_stacked"):
            split = min(orig, M)
            return [(rows[:split], rows[:split], *short),
                    (rows[split:], rows[split:] - split, *long_)], mag
        return [(rows, rows, *(long_ if M > orig else short))], mag
    if kind in ("yarn", "deepseek_yarn"):
        mag = ref_yarn_magnitude(sc)
        return [(rows, rows, ref_yarn(R, base, sc), mag)], mag
    if kind == "ntk":
        inv = freqs.ntk_inv_freq(R, base, sc["factor"], sc.get("mixed_b", 0.0))
        return [(rows, rows, inv, 1.0)], 1.0
    if kind == "dynamic_ntk_alpha":
        inv = freqs.inv_freq(R, freqs.ntk_alpha_base(R, base, sc["alpha"]))
        return [(rows, rows, inv, 1.0)], 1.0
    raise AssertionError(kind)


def check_table(cache, R, base, sc, dtype, what):
    pieces, _ = ref_table(R, base, cache.shape[0], sc)
    h = R // 2
    for rows, pos, inv, mag in pieces:
        angles = pos.astype(np.float64)[:, None] * inv[None, :]
        win = window(angles, mag)
        check_rounded(cache[rows, :h], np.cos(angles) * mag, win, dtype, f"{what} cos")
        check_rounded(cache[rows, h:], np.sin(angles) * mag, win, dtype, f"{what} sin")


def sc(kind, **fields):
    return dict(type=kind, **fields)


CONFIGS = {
    # name: (base, R, rows, scaling)
    "longrope-phi3-long": (10000.0, 96, 4200, sc("longrope", original_max_position=4096,
                                                 factor=32.0, short_factor=PHI3_SHORT,
                                                 long_factor=PHI3_LONG)),
    "longrope-phi3-short": (10000.0, 96, 4096, sc("longrope", original_max_position=4096,
                                                  factor=32.0, short_factor=PHI3_SHORT,
                                                  long_factor=PHI3_LONG)),
    "longrope-stacked": (10000.0, 96, 4096 + 300, sc("longrope", original_max_position=4096,
                                                     factor=32.0, short_factor=PHI3_SHORT,
                                                     long_factor=PHI3_LONG,
                                                     longrope_stacked=True)),
    "longrope-attention-factor": (1e6, 8, 64, sc("longrope", original_max_position=16,
                                                 attention_factor=1.25,
                                                 short_factor=[1, 2, 3, 4],
                                                 long_factor=[2, 4, 8, 16])),
    # vLLM's Phi-3-small: short rows unscaled, long rows by long_mscale
    "longrope-set-mscales-stacked": (10000.0, 96, 4096 + 300, sc(
        "longrope", original_max_position=4096, factor=32.0, short_factor=PHI3_SHORT,
        long_factor=PHI3_LONG, longrope_stacked=True, short_mscale=1.0,
        long_mscale=1.1902380714238083)),
    "longrope-long-mscale": (10000.0, 96, 4200, sc("longrope", original_max_position=4096,
                                                   factor=32.0, short_factor=PHI3_SHORT,
                                                   long_factor=PHI3_LONG, long_mscale=1.25,
                                                   short_mscale=0.5)),
    "longrope-short-mscale": (10000.0, 96, 4096, sc("longrope", original_max_position=4096,
                                                    attention_factor=1.1, short_factor=PHI3_SHORT,
                                                    long_factor=PHI3_LONG, short_mscale=0.5)),
    "ntk-fixed": (10000.0, 128, 2048, sc("ntk", factor=4.0)),
    "ntk-mixed": (10000.0, 64, 2048, sc("ntk", factor=8.0, mixed_b=0.75)),
    "alpha-hunyuan": (10000.0, 128, 4096, sc("dynamic_ntk_alpha", alpha=1000.0)),
    "yarn-no-truncate": (150000.0, 64, 8192, sc("yarn", factor=32.0,
                                                original_max_position=4096, truncate=False)),
    "yarn-attention-factor": (10000.0, 64, 4096, sc("yarn", factor=4.0,
                                                    original_max_position=1024,
                                                    attention_factor=0.9, attn_factor=1.5)),
    "yarn-mscale": (10000.0, 64, 8192, sc("yarn", factor=40.0, original_max_position=128,
                                          mscale=0.707, mscale_all_dim=1.0)),
    "deepseek-yarn": (10000.0, 64, 8192, sc("deepseek_yarn", factor=40.0,
                                            original_max_position=128, mscale=1.0,
                                            mscale_all_dim=0.8, attn_factor=1.1,
                                            beta_fast=32.0, beta_slow=1.0)),
}


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(CONFIGS))
def test_cache(name, dtype):
    base, R, M, scaling = CONFIGS[name]
    check_table(ropekit.cos_sin_cache(M, R, base, dtype, scaling), R, base, scaling, dtype, name)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_inv_freq_and_attention_scaling(name):
    base, R, M, scaling = CONFIGS[name]
    pieces, mag = ref_table(R, base, M, scaling)
    want = pieces[-1][2]  # stacked LongRoPE: the long rows' frequencies
    np.testing.assert_allclose(ropekit.inv_freq(R, base, M, scaling), want, rtol=1e-14)
    inv, divisor = ropekit.table_frequencies(R, base, M, scaling)
    np.testing.assert_allclose(inv, want, rtol=1e-14)
    assert divisor == 1.0
    assert ropekit.attention_scaling(R, scaling) == pytest.approx(mag, rel=1e-15)


@pytest.mark.parametrize("mode", ["half", "interleave", "quarter"])
def test_coefficient_rows_hold_the_cache_values(mode):
    base, R, M, scaling = CONFIGS["longrope-stacked"]
    cache = ropekit.cos_sin_cache(M, R, base, "f32", scaling)
    cos, sin = ropekit.rotary_coeffs(M, R, mode, base, "f32", scaling)
    h, q = R // 2, R // 4
    first = {"half": slice(0, h), "interleave": slice(0, R, 2), "quarter": None}[mode]
    if first is None:
        got_c = np.concatenate([cos[:, :q], cos[:, 2 * q:3 * q]], axis=1)
        got_s = np.concatenate([sin[:, :q], sin[:, 2 * q:3 * q]], axis=1)
    else:
        got_c, got_s = cos[:, first], sin[:, first]
    assert got_c.tobytes() == np.ascontiguousarray(cache[:, :h]).tobytes()
    assert got_s.tobytes() == np.ascontiguousarray(cache[:, h:]).tobytes()


# ---- edges of every ramp and switch --------------------------------------------------

def test_longrope_switches_after_original_max_position():
    base, R, _, scaling = CONFIGS["longrope-phi3-long"]
    short, long_ = inv0(R, base) / PHI3_SHORT, inv0(R, base) / PHI3_LONG
    np.testing.assert_allclose(ropekit.inv_freq(R, base, 4096, scaling), short, rtol=1e-14)
    np.testing.assert_allclose(ropekit.inv_freq(R, base, 4097, scaling), long_, rtol=1e-14)
    at = ropekit.cos_sin_cache(4096, R, base, "f32", scaling)
    above = ropekit.cos_sin_cache(4097, R, base, "f32", scaling)
    assert at[1].tobytes() != above[1].tobytes()  # row 1 differs once the table is long
    check_table(at, R, base, scaling, "f32", "at original")
    check_table(above, R, base, scaling, "f32", "above original")


def test_longrope_stacked_rows():
    base, R, M, scaling = CONFIGS["longrope-stacked"]
    cache = ropekit.cos_sin_cache(M, R, base, "f32", scaling)
    one = dict(scaling, longrope_stacked=False)
    short = ropekit.cos_sin_cache(4096, R, base, "f32", one)
    long_ = ropekit.cos_sin_cache(M - 4096 + 4097, R, base, "f32", one)  # > original: long
    assert cache[:4096].tobytes() == short.tobytes()
    assert cache[4096:].tobytes() == long_[:M - 4096].tobytes()
    # fewer rows than original: all short
    few = ropekit.cos_sin_cache(100, R, base, "f32", scaling)
    assert few.tobytes() == short[:100].tobytes()


@pytest.mark.parametrize("truncate", [True, False])
def test_yarn_correction_range_bounds(truncate):
    # base, original chosen so that both correction dims are fractional
    R, base, orig, f = 64, 150000.0, 4096, 32.0
    scaling = sc("yarn", factor=f, original_max_position=orig, truncate=truncate)
    low, high = yarn_bounds(R, base, orig, 32.0, 1.0, False)
    assert low % 1 and high % 1 and 0 < low < high < R // 2
    got = ropekit.inv_freq(R, base, 8192, scaling)
    extrapolated, interpolated = inv0(R, base), inv0(R, base) / f
    lo_in, hi_in = math.ceil(low), math.floor(high)  # first / last index inside the range
    assert got[lo_in - 1] == pytest.approx(extrapolated[lo_in - 1], rel=1e-15)
    assert got[hi_in + 1] == pytest.approx(interpolated[hi_in + 1], rel=1e-15)
    if truncate:  # the floored bound leaves index ceil(low) on the ramp
        assert not math.isclose(got[lo_in], extrapolated[lo_in], rel_tol=1e-9)
    for i in (lo_in, hi_in):
        assert interpolated[i] < got[i] < extrapolated[i]
    np.testing.assert_allclose(got, ref_yarn(R, base, scaling), rtol=1e-14)


def test_yarn_truncate_changes_only_the_ramp():
    base, R, M, scaling = CONFIGS["yarn-no-truncate"]
    a = ropekit.inv_freq(R, base, M, scaling)
    b = ropekit.inv_freq(R, base, M, dict(scaling, truncate=True))
    low, high = yarn_bounds(R, base, 4096, 32.0, 1.0, True)
    differ = np.nonzero(a != b)[0]
    assert differ.size and differ.min() >= low and differ.max() <= high


def test_llama3_wavelength_bounds_are_continuous():
    # high/low_freq_factor put both band edges exactly on a frequency's wavelength: the
    # value there is the same from either side (smooth = 1 at the high edge, 0 at the
    # low edge), so the result does not hang on which side float64 puts it.
    R, base, orig, f = 64, 10000.0, 8192, 8.0
    inv = inv0(R, base)
    wavelen = 2 * math.pi / inv
    k_hi, k_lo = 10, 20
    scaling = sc("llama3", factor=f, original_max_position=orig,
                 high_freq_factor=orig / wavelen[k_hi], low_freq_factor=orig / wavelen[k_lo])
    got = ropekit.inv_freq(R, base, 4096, scaling)
    np.testing.assert_allclose(got[:k_hi + 1], inv[:k_hi + 1], rtol=1e-12)
    np.testing.assert_allclose(got[k_lo:], inv[k_lo:] / f, rtol=1e-12)
    mid = slice(k_hi + 1, k_lo)
    assert ((got[mid] < inv[mid]) & (got[mid] > inv[mid] / f)).all()


def test_linear_views():
    R, base, f = 32, 10000.0, 8.0
    scaling = sc("linear", factor=f)
    np.testing.assert_allclose(ropekit.inv_freq(R, base, 0, scaling), inv0(R, base) / f,
                               rtol=1e-14)
    inv, divisor = ropekit.table_frequencies(R, base, 0, scaling)
    np.testing.assert_allclose(inv, inv0(R, base), rtol=1e-14)
    assert divisor == f
    assert ropekit.attention_scaling(R, scaling) == 1.0


def test_defaults_keep_the_old_yarn():
    # attention_factor 0, mscale 1, mscale_all_dim 0, truncate: the original formula
    R, base = 64, 10000.0
    scaling = sc("yarn", factor=4.0, original_max_position=1024, attn_factor=0.5)
    assert ropekit.attention_scaling(R, scaling) == (0.1 * math.log(4.0) + 1.0) * 0.5
    deepseek = dict(scaling, type="deepseek_yarn")
    assert ropekit.cos_sin_cache(256, R, base, "bf16", deepseek).tobytes() == \
        ropekit.cos_sin_cache(256, R, base, "bf16", scaling).tobytes()


# ---- parameter validation: a clear error, nothing written -----------------------------

BAD = [
    # (scaling fields, status, words the message must hold)
    (sc("longrope", short_factor=[1] * 3, long_factor=[1] * 4), INVALID,
     ["short_factor_count = 3", "rotary_dim / 2 = 4"]),
    (sc("longrope", short_factor=[1] * 4, long_factor=[1] * 5), INVALID, ["long_factor_count"]),
    (sc("longrope", short_factor=[1, 1, 0, 1], long_factor=[1] * 4), INVALID,
     ["short_factor[2] = 0", "finite and > 0"]),
    (sc("longrope", short_factor=[1] * 4, long_factor=[1, float("nan"), 1, 1]), INVALID,
     ["long_factor[1] = nan"]),
    (sc("longrope", short_factor=[1] * 4, long_factor=[1, 1, -2, 1]), INVALID,
     ["long_factor[2] = -2"]),
    (sc("longrope", short_factor=[1] * 4, long_factor=[1] * 4, short_mscale=-0.5),
     INVALID, ["short_mscale = -0.5", "long_mscale = 0", ">= 0"]),
    (sc("longrope", short_factor=[1] * 4, long_factor=[1] * 4, long_mscale=float("inf")),
     INVALID, ["long_mscale = inf", "finite"]),
    (sc("longrope", short_factor=[1] * 4, long_factor=[1] * 4, attention_factor=-1),
     INVALID, ["attention_factor = -1"]),
    (sc("longrope", short_factor=[1] * 4, long_factor=[1] * 4, factor=2.0,
        original_max_position=1), INVALID, ["original_max_position = 1", ">= 2"]),
    (sc("longrope", short_factor=[1] * 4, long_factor=[1] * 4, original_max_position=0),
     INVALID, ["original_max_position = 0"]),
    (sc("yarn", factor=2.0, attention_factor=float("inf")), INVALID, ["attention_factor"]),
    (sc("yarn", factor=2.0, attention_factor=-0.5), INVALID, ["attention_factor = -0.5"]),
    (sc("yarn", factor=2.0, mscale=-1.0), INVALID, ["mscale = -1"]),
    (sc("deepseek_yarn", factor=2.0, mscale_all_dim=float("nan")), INVALID,
     ["mscale_all_dim = nan"]),
    (sc("deepseek_yarn", factor=2.0, attn_factor=0.0), INVALID, ["attn_factor = 0"]),
    (sc("ntk", factor=2.0, mixed_b=-1.0), INVALID, ["mixed_b = -1"]),
    (sc("ntk", factor=0.0), INVALID, ["factor = 0"]),
    (sc("dynamic_ntk_alpha", alpha=0.0), INVALID, ["alpha = 0"]),
    (sc("dynamic_ntk_alpha", alpha=float("inf")), INVALID, ["alpha = inf"]),
]


def _c_struct(scaling):
    return tables._struct_of(tables._as_scaling(scaling))


@pytest.mark.parametrize("scaling,status,words", BAD, ids=lambda v: str(v)[:60])
def test_bad_parameters_write_nothing(scaling, status, words):
    st = _c_struct(scaling)
    R = 8
    buf = np.full((4, R), 7.0, np.float32)
    other = buf.copy()
    inv = np.full(R // 2, 3.0)
    divisor, mag = ctypes.c_double(5.0), ctypes.c_double(5.0)
    calls = {
        "ropekit_cos_sin_cache_build":
            lambda: tables._cache_build(buf.ctypes.data, 0, 4, R, 10000.0, ctypes.byref(st)),
        "ropekit_rotary_coeffs_build":
            lambda: tables._coeffs_build(buf.ctypes.data, other.ctypes.data, 0, 4, R, 0,
                                         10000.0, ctypes.byref(st)),
        "ropekit_rope_inv_freq":
            lambda: tables._inv_freq(inv.ctypes.data, R, 10000.0, 4, ctypes.byref(st)),
        "ropekit_rope_table_frequencies":
            lambda: tables._table_freqs(inv.ctypes.data, ctypes.addressof(divisor), R,
                                        10000.0, 4, ctypes.byref(st)),
        "ropekit_rope_attention_scaling":
            lambda: tables._attention_scaling(ctypes.addressof(mag), R, ctypes.byref(st)),
    }
    for api, call in calls.items():
        assert call() == status, api
        message = ropekit.last_error()
        assert message.startswith(api + ": "), message
        for w in words:
            assert w in message, message
    assert (buf == 7.0).all() and (other == 7.0).all() and (inv == 3.0).all()
    assert divisor.value == 5.0 and mag.value == 5.0


def test_null_factor_arrays():
    st = _c_struct(sc("longrope", short_factor=[1] * 4, long_factor=[1] * 4))
    st.long_factor = None
    buf = np.full((4, 8), 7.0, np.float32)
    assert tables._cache_build(buf.ctypes.data, 0, 4, 8, 10000.0, ctypes.byref(st)) == \
        NULL_POINTER
    assert "long_factor = NULL" in ropekit.last_error()
    assert (buf == 7.0).all()


def test_null_outputs_of_the_queries():
    assert tables._table_freqs(None, None, 8, 10000.0, 0, None) == NULL_POINTER
    inv = np.zeros(4)
    assert tables._table_freqs(inv.ctypes.data, None, 8, 10000.0, 0, None) == NULL_POINTER
    assert "position_divisor = NULL" in ropekit.last_error()
    assert tables._attention_scaling(None, 8, None) == NULL_POINTER
    with pytest.raises(ropekit.RopekitError):
        ropekit.attention_scaling(7)


def test_overflowing_attention_scaling_is_refused():
    with pytest.raises(ropekit.RopekitError, match="no finite magnitude"):
        ropekit.attention_scaling(8, sc("yarn", factor=2.0, attention_factor=1e300,
                                        attn_factor=1e300))


# ---- Hugging Face configs --------------------------------------------------------------

LLAMA31_8B = {"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32,
              "max_position_embeddings": 131072, "rope_theta": 500000.0,
              "rope_scaling": {"factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                               "original_max_position_embeddings": 8192,
                               "rope_type": "llama3"}}
QWEN25_YARN = {"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28,
               "max_position_embeddings": 32768, "rope_theta": 1000000.0,
               "rope_scaling": {"factor": 4.0, "original_max_position_embeddings": 32768,
                                "type": "yarn"}}
DEEPSEEK_V3 = {"model_type": "deepseek_v3", "hidden_size": 7168, "num_attention_heads": 128,
               "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "max_position_embeddings": 163840,
               "rope_theta": 10000,
               "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0,
                                "mscale_all_dim": 1.0, "original_max_position_embeddings": 4096,
                                "type": "yarn"}}
PHI3_128K = {"model_type": "phi3", "hidden_size": 3072, "num_attention_heads": 32,
             "max_position_embeddings": 131072, "original_max_position_embeddings": 4096,
             "rope_theta": 10000.0,
             "rope_scaling": {"long_factor": PHI3_LONG, "short_factor": PHI3_SHORT,
                              "type": "longrope"}}
GPT_OSS = {"model_type": "gpt_oss", "hidden_size": 2880, "num_attention_heads": 64,
           "head_dim": 64, "max_position_embeddings": 131072, "rope_theta": 150000,
           "rope_scaling": {"beta_fast": 32.0, "beta_slow": 1.0, "factor": 32.0,
                            "original_max_position_embeddings": 4096, "rope_type": "yarn",
                            "truncate": False}}
HUNYUAN = {"model_type": "hunyuan_v1_moe", "hidden_size": 4096, "num_attention_heads": 32,
           "head_dim": 128, "max_position_embeddings": 32768, "rope_theta": 10000.0,
           "rope_scaling": {"alpha": 1000.0, "beta_fast": 32, "beta_slow": 1, "factor": 1.0,
                            "mscale": 1.0, "mscale_all_dim": 1.0, "type": "dynamic"}}
GEMMA3 = {"model_type": "gemma3_text", "hidden_size": 2560, "num_attention_heads": 8,
          "head_dim": 256, "max_position_embeddings": 131072, "rope_theta": 1000000.0,
          "rope_scaling": {"factor": 8.0, "rope_type": "linear"}}


def _rows_near(found, positions, R, base, inv, mag, divisor=1.0):
    h = R // 2
    angles = (np.asarray(positions, np.float64) / divisor)[:, None] * inv[None, :]
    win = window(angles, mag)
    check_rounded(found.cache[positions, :h], np.cos(angles) * mag, win, "f32", "cos")
    check_rounded(found.cache[positions, h:], np.sin(angles) * mag, win, "f32", "sin")


def test_llama31_8b():
    found = ropekit.rope_from_config(LLAMA31_8B, max_positions=20000)
    assert (found.rotary_dim, found.head_dim, found.max_positions) == (128, 128, 20000)
    assert found.rope_type == "llama3" and found.is_neox_style
    assert found.attention_scaling == 1.0 and found.softmax_scale_factor == 1.0
    inv = inv0(128, 500000.0)
    wavelen = 2 * math.pi / inv
    smooth = (8192 / wavelen - 1) / 3
    want = np.where(wavelen < 2048, inv, np.where(wavelen > 8192, inv / 8,
                                                  (1 - smooth) * inv / 8 + smooth * inv))
    _rows_near(found, [0, 1, 8191, 8192, 19999], 128, 500000.0, want, 1.0)
    assert tables.scaling_from_rope_parameters(LLAMA31_8B["rope_scaling"], 131072)[1] == 131072


def test_qwen25_yarn():
    found = ropekit.rope_from_config(QWEN25_YARN, max_positions=40000)
    assert found.rotary_dim == 128 and found.is_neox_style
    assert found.attention_scaling == pytest.approx(0.1 * math.log(4.0) + 1.0, rel=1e-15)
    want = ref_yarn(128, 1e6, sc("yarn", factor=4.0, original_max_position=32768))
    _rows_near(found, [0, 5, 32767, 32768, 39999], 128, 1e6, want, found.attention_scaling)
    assert tables.scaling_from_rope_parameters(QWEN25_YARN["rope_scaling"], 32768)[1] == 131072


def test_deepseek_v3_yarn():
    found = ropekit.rope_from_config(DEEPSEEK_V3, max_positions=5000)
    assert (found.rotary_dim, found.is_neox_style) == (64, False)
    assert found.attention_scaling == 1.0  # mscale == mscale_all_dim
    assert found.softmax_scale_factor == pytest.approx((0.1 * math.log(40) + 1) ** 2)
    assert found.scaling.mscale == 1.0 and found.scaling.mscale_all_dim == 1.0
    want = ref_yarn(64, 10000.0, sc("yarn", factor=40.0, original_max_position=4096))
    _rows_near(found, [0, 1, 4095, 4096, 4999], 64, 10000.0, want, 1.0)
    assert tables.scaling_from_rope_parameters(DEEPSEEK_V3["rope_scaling"], 163840)[1] == 163840
    # vLLM's own name for it: mscale defaults 1 / 0 when absent
    params = dict(DEEPSEEK_V3["rope_scaling"], type="deepseek_yarn", mscale_all_dim=0.5)
    scaling, _ = tables.scaling_from_rope_parameters(params, 163840)
    assert scaling.type == "deepseek_yarn"
    assert ropekit.attention_scaling(64, scaling) == pytest.approx(
        mscale(40, 1.0) / mscale(40, 0.5), rel=1e-15)


def test_softmax_scale_and_row_magnitudes():
    # DeepSeek's softmax factor m(f, mscale_all_dim)^2 for the YaRN types only
    for kind in ("yarn", "deepseek_yarn"):
        s = sc(kind, factor=40.0, original_max_position=4096, mscale=0.707, mscale_all_dim=0.5)
        assert tables.softmax_scale(s) == pytest.approx(mscale(40, 0.5) ** 2, rel=1e-15)
    for s in (None, sc("linear", factor=4.0), sc("llama3", factor=8.0, mscale_all_dim=1.0)):
        assert tables.softmax_scale(s) == 1.0
    with pytest.raises(ropekit.RopekitError, match="ropekit_rope_softmax_scale: YaRN mscale"):
        tables.softmax_scale(sc("yarn", factor=4.0, mscale_all_dim=-1.0))
    # a stacked LongRoPE table: short rows, then long rows, each with its set's mscale
    s = sc("longrope", factor=4.0, original_max_position=8, short_factor=[1.0] * 4,
           long_factor=[2.0] * 4, longrope_stacked=True, short_mscale=0.9, long_mscale=1.2)
    cache = ropekit.cos_sin_cache(16, 8, dtype="f64", scaling=s)
    for row in (0, 7, 8, 15):
        assert tables.table_magnitude(8, 16, row, s) == (0.9 if row < 8 else 1.2)
    assert (cache[0, 0], cache[8, 0]) == (0.9, 1.2)  # cos(0) times the magnitude
    with pytest.raises(ropekit.RopekitError, match="row = 16: must be in"):
        tables.table_magnitude(8, 16, 16, s)


def test_yarn_mscale_needs_both_fields_in_transformers_semantics():
    params = {"type": "yarn", "factor": 8.0, "original_max_position_embeddings": 1024,
              "mscale": 0.707}
    scaling, _ = tables.scaling_from_rope_parameters(params, 8192)
    assert ropekit.attention_scaling(64, scaling) == pytest.approx(mscale(8.0, 1.0))
    params["attention_factor"] = 1.3  # replaces the mscale
    params["attn_factor"] = 2.0       # vLLM's multiplies
    scaling, _ = tables.scaling_from_rope_parameters(params, 8192)
    assert ropekit.attention_scaling(64, scaling) == pytest.approx(2.6)
    params = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 1024,
              "apply_yarn_scaling": False, "attn_factor": 0.5}
    scaling, _ = tables.scaling_from_rope_parameters(params, 8192)
    assert ropekit.attention_scaling(64, scaling) == 0.5


def test_phi3_128k_longrope():
    found = ropekit.rope_from_config(PHI3_128K)  # 131072 rows > 4096: long factors
    assert (found.rotary_dim, found.max_positions, found.rope_type) == (96, 131072, "longrope")
    mag = math.sqrt(1 + math.log(32.0) / math.log(4096))
    assert found.attention_scaling == pytest.approx(mag, rel=1e-15)
    _rows_near(found, [0, 1, 4096, 131071], 96, 10000.0, inv0(96, 10000.0) / PHI3_LONG, mag)
    short = ropekit.rope_from_config(PHI3_128K, max_positions=4096)
    _rows_near(short, [0, 1, 4095], 96, 10000.0, inv0(96, 10000.0) / PHI3_SHORT, mag)
    su = dict(PHI3_128K, rope_scaling=dict(PHI3_128K["rope_scaling"], type="su"))
    assert ropekit.rope_from_config(su, max_positions=64).cache.tobytes() == \
        ropekit.rope_from_config(PHI3_128K, max_positions=64).cache.tobytes()


def test_longrope_set_mscales_from_config():
    # vLLM reads short_mscale / long_mscale (Phi-3-small's rope_scaling has 1.0 and
    # 1.19...): each replaces the magnitude of its own rows
    config = dict(PHI3_128K, rope_scaling=dict(PHI3_128K["rope_scaling"], short_mscale=1.0,
                                               long_mscale=1.1902380714238083))
    long_ = ropekit.rope_from_config(config)
    assert long_.attention_scaling == 1.1902380714238083
    _rows_near(long_, [0, 1, 4096, 131071], 96, 10000.0, inv0(96, 10000.0) / PHI3_LONG,
               1.1902380714238083)
    short = ropekit.rope_from_config(config, max_positions=4096)
    assert short.attention_scaling == 1.0
    _rows_near(short, [0, 1, 4095], 96, 10000.0, inv0(96, 10000.0) / PHI3_SHORT, 1.0)
    assert short.scaling.short_mscale == 1.0 and short.scaling.resolved().long_mscale == \
        1.1902380714238083


def test_gpt_oss_yarn_without_truncation():
    found = ropekit.rope_from_config(GPT_OSS, max_positions=6000)
    assert found.rotary_dim == 64 and found.scaling.truncate is False
    assert found.attention_scaling == pytest.approx(0.1 * math.log(32) + 1, rel=1e-15)
    want = ref_yarn(64, 150000.0, sc("yarn", factor=32.0, original_max_position=4096,
                                     truncate=False))
    _rows_near(found, [0, 3, 4095, 5999], 64, 150000.0, want, found.attention_scaling)
    truncated = ref_yarn(64, 150000.0, sc("yarn", factor=32.0, original_max_position=4096))
    assert not np.allclose(want, truncated, rtol=1e-6)
    assert tables.scaling_from_rope_parameters(GPT_OSS["rope_scaling"], 131072)[1] == 131072


def test_hunyuan_dynamic_alpha():
    found = ropekit.rope_from_config(HUNYUAN, max_positions=3000)
    assert found.scaling.type == "dynamic_ntk_alpha" and found.attention_scaling == 1.0
    _rows_near(found, [0, 1, 2999], 128, 10000.0,
               inv0(128, 10000.0 * 1000.0 ** (128 / 126)), 1.0)
    assert tables.scaling_from_rope_parameters(HUNYUAN["rope_scaling"], 32768)[1] == 32768


def test_gemma3_linear():
    found = ropekit.rope_from_config(GEMMA3, max_positions=3000)
    assert found.rotary_dim == 256 and found.scaling.factor == 8.0
    _rows_near(found, [0, 7, 2999], 256, 1e6, inv0(256, 1e6), 1.0, divisor=8.0)
    assert tables.scaling_from_rope_parameters(GEMMA3["rope_scaling"], 131072)[1] == 1048576


def test_rope_parameters_spelling_and_partial_rotary():
    # transformers v5: rope_parameters carries rope_theta and partial_rotary_factor
    config = {"model_type": "glm", "hidden_size": 4096, "num_attention_heads": 32,
              "max_position_embeddings": 4096,
              "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0,
                                  "partial_rotary_factor": 0.5}}
    found = ropekit.rope_from_config(config)
    assert (found.rotary_dim, found.max_positions, found.scaling) == (64, 4096, None)
    assert found.cache.tobytes() == ropekit.cos_sin_cache(4096, 64, 10000.0).tobytes()
    # one entry per layer type
    config["rope_parameters"] = {
        "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
        "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0}}
    with pytest.raises(ValueError, match="layer_type"):
        ropekit.rope_from_config(config)
    full = ropekit.rope_from_config(config, max_positions=64, layer_type="full_attention")
    assert full.base == 1e6 and full.scaling.type == "linear"


def test_mrope_sections_are_reported():
    config = {"model_type": "qwen2_vl", "hidden_size": 3584, "num_attention_heads": 28,
              "max_position_embeddings": 32768, "rope_theta": 1000000.0,
              "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]}}
    found = ropekit.rope_from_config(config, max_positions=16)
    assert found.mrope_section == [16, 24, 24] and not found.mrope_interleaved
    assert found.scaling is None


def test_unknown_rope_type_lists_the_known_ones():
    with pytest.raises(ValueError) as info:
        ropekit.rope_from_config({"head_dim": 64, "rope_scaling": {"rope_type": "ntk-by-parts"}})
    message = str(info.value)
    assert "'ntk-by-parts'" in message
    for known in tables.ROPE_TYPES:
        assert known in message
    with pytest.raises(ValueError, match="needs 'factor'"):
        ropekit.rope_from_config({"head_dim": 64, "rope_scaling": {"rope_type": "linear"}})


def test_no_truncate_must_be_0_or_1():
    """The struct's no_truncate (RopeScaling.truncate negated) is a flag: 2 is refused."""
    st = ropekit.tables._struct_of(ropekit.RopeScaling("yarn", factor=2.0))
    st.no_truncate = 2
    out = np.full(4, -1.0)
    status = ropekit.tables._inv_freq(out.ctypes.data, 8, 10000.0, 0, ctypes.byref(st))
    assert status == INVALID
    assert "no_truncate = 2" in ropekit.last_error() and "0 or 1" in ropekit.last_error()
    assert (out == -1.0).all()


def test_zeroed_appended_fields_keep_the_old_tables():
    """A struct whose appended fields are zero (filled field by field, without the
    defaults) builds the tables it built before they existed: YaRN truncated, mscale 1."""
    st = ropekit.tables._struct_of(ropekit.RopeScaling("yarn", factor=8.0,
                                                       original_max_position=512))
    ctypes.memset(ctypes.addressof(st) + type(st).no_truncate.offset, 0,
                  ctypes.sizeof(st) - type(st).no_truncate.offset)
    got = np.zeros((64, 32), np.float32)
    assert ropekit.tables._cache_build(got.ctypes.data, 0, 64, 32, 10000.0,
                                       ctypes.byref(st)) == 0
    want = ropekit.cos_sin_cache(64, 32, 10000.0, "f32",
                                 {"type": "yarn", "factor": 8.0, "original_max_position": 512})
    assert got.tobytes() == want.tobytes()
    scale = np.abs(got[5, :16] + 1j * got[5, 16:]).mean()
    assert abs(scale - (0.1 * np.log(8.0) + 1)) < 1e-6
