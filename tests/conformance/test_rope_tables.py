"""The cos/sin table builders (ropekit_cos_sin_cache_build, ropekit_rotary_coeffs_build,
ropekit_rope_inv_freq) against the float64 references of each rope scaling variant's
published formula (tests/reference/rope_frequencies.py):

  base      inv_freq[i] = base^(-2i/R), i in [0, R/2); angle = p * inv_freq[i]
  linear    angle = (p / factor) * inv_freq[i]                 (position interpolation)
  dynamic   for max_positions > original: base' = base * (factor * max_positions /
            original - (factor - 1)) ** (R / (R - 2)); inv_freq from base'   (NTK)
  yarn      correction_dim(n) = R ln(original / (2 pi n)) / (2 ln base);
            low = max(floor(cd(beta_fast)), 0), high = min(ceil(cd(beta_slow)), R - 1)
            (high += 0.001 when equal); ramp(i) = clip((i - low) / (high - low), 0, 1);
            mask = (1 - ramp) * extrapolation_factor;
            inv_freq = inv_freq / factor * (1 - mask) + inv_freq * mask;
            cos and sin scaled by (0.1 ln(factor) + 1 if factor > 1 else 1) * attn_factor
  llama3    wavelen = 2 pi / inv_freq; below original / high_freq_factor unchanged; above
            original / low_freq_factor divided by factor; between, smooth = (original /
            wavelen - low) / (high - low) and inv_freq = (1 - smooth) inv_freq / factor
            + smooth inv_freq

Each stored value must be the float64 value rounded once (RNE) to the table's dtype,
up to the float64 evaluation window explained in table_rounding.py.
"""
import ctypes
import math

import numpy as np
import pytest

import ropekit
import rope_frequencies as freqs
from ropekit._lib import bind

from table_rounding import (BF16, DTYPES, F16, F32, bits_of, check_rounded, lib_bits,
                            round_once, window as _window)

INVALID, NULL_POINTER = 2, 1


# ---- the references (tests/reference/rope_frequencies.py) --------------------------

def ref_inv_freq(R, base, max_positions, sc):
    """float64 inverse frequencies after scaling (sc: dict or None)."""
    kind = sc["type"] if sc else "none"
    if kind == "dynamic":
        base = freqs.dynamic_ntk_base(R, base, sc["factor"], max_positions,
                                      sc["original_max_position"])
    if kind == "yarn":
        return freqs.yarn_inv_freq(R, base, sc["factor"], sc["original_max_position"],
                                   sc["beta_fast"], sc["beta_slow"],
                                   extrapolation_factor=sc["extrapolation_factor"])
    if kind == "llama3":
        return freqs.llama3_inv_freq(R, base, sc["factor"], sc["low_freq_factor"],
                                     sc["high_freq_factor"], sc["original_max_position"])
    return freqs.inv_freq(R, base)


def ref_mscale(sc):
    if not sc or sc["type"] != "yarn":
        return 1.0
    return freqs.yarn_mscale(sc["factor"]) * sc["attn_factor"]


def ref_angles(num_positions, R, base, sc, max_positions=None):
    """[P, R/2] float64 angles of positions 0..P-1."""
    inv = ref_inv_freq(R, base, num_positions if max_positions is None else max_positions,
                       sc)
    p = np.arange(num_positions, dtype=np.float64)
    if sc and sc["type"] == "linear":
        p = p / sc["factor"]
    return p[:, None] * inv[None, :]


# ---- configurations ----------------------------------------------------------------

def scaling(kind, **fields):
    """A full scaling dict: the documented defaults, then `fields`."""
    sc = dict(type=kind, factor=1.0, original_max_position=8192, beta_fast=32.0,
              beta_slow=1.0, extrapolation_factor=1.0, attn_factor=1.0, low_freq_factor=1.0,
              high_freq_factor=4.0)
    sc.update(fields)
    return sc


CONFIGS = {
    # name: (base, R, max_positions, scaling or None)
    "plain-10k-R128": (10000.0, 128, 4096, None),
    "plain-1e6-R64": (1e6, 64, 2048, None),
    "plain-500k-R128-16k": (500000.0, 128, 16384, None),
    "plain-small-base-R2": (1.5, 2, 300, None),
    "plain-R6": (10.0, 6, 1000, None),
    "linear-4": (10000.0, 64, 4096, scaling("linear", factor=4.0)),
    "linear-0.5": (10000.0, 32, 1024, scaling("linear", factor=0.5)),
    "dynamic-2x": (10000.0, 128, 4096, scaling("dynamic", factor=2.0,
                                                original_max_position=2048)),
    "dynamic-not-longer": (10000.0, 128, 2048, scaling("dynamic", factor=2.0,
                                                        original_max_position=2048)),
    "dynamic-3.5-1e6": (1e6, 64, 10000, scaling("dynamic", factor=3.5,
                                                 original_max_position=1000)),
    "yarn-4": (10000.0, 128, 16384, scaling("yarn", factor=4.0, original_max_position=4096,
                                            beta_fast=32.0, beta_slow=1.0)),
    "yarn-custom": (1e6, 64, 8192, scaling("yarn", factor=8.0, original_max_position=2048,
                                           beta_fast=16.0, beta_slow=2.0,
                                           extrapolation_factor=0.5, attn_factor=0.8)),
    "yarn-below-1": (10000.0, 64, 512, scaling("yarn", factor=0.5,
                                               original_max_position=4096)),
    "yarn-low-equals-high": (10000.0, 128, 64, scaling("yarn", factor=2.0,
                                                       original_max_position=6)),
    "llama3.1-8b": (500000.0, 128, 8192, scaling("llama3", factor=8.0, low_freq_factor=1.0,
                                                 high_freq_factor=4.0,
                                                 original_max_position=8192)),
    "llama3-custom": (10000.0, 64, 4096, scaling("llama3", factor=4.0, low_freq_factor=2.0,
                                                 high_freq_factor=8.0,
                                                 original_max_position=1024)),
}


def test_yarn_degenerate_config_really_is_degenerate():
    # The "yarn-low-equals-high" entry exercises the high += 0.001 branch.
    assert freqs.yarn_correction_range(128, 10000.0, 6) == (0, 0.001)


def test_llama3_config_uses_all_three_bands():
    base, R, _, sc = CONFIGS["llama3.1-8b"]
    wavelen = 2 * math.pi / freqs.inv_freq(R, base)
    assert (wavelen < 8192 / 4).any() and (wavelen > 8192).any()
    assert ((wavelen >= 8192 / 4) & (wavelen <= 8192)).any()


@pytest.mark.parametrize("name", list(CONFIGS))
def test_inv_freq(name):
    # inv_freq is the Hugging Face / vLLM view (angle = p * inv_freq: linear scaling
    # divides the frequencies); table_frequencies gives what the tables use (linear:
    # unscaled frequencies and the factor as the positions' divisor).
    base, R, M, sc = CONFIGS[name]
    table = ref_inv_freq(R, base, M, sc)
    divisor = sc["factor"] if sc and sc["type"] == "linear" else 1.0
    got = ropekit.inv_freq(R, base, M, sc)
    assert got.shape == table.shape == (R // 2,)
    np.testing.assert_allclose(got, table / divisor, rtol=1e-14, atol=0)
    got_table, got_divisor = ropekit.tables.table_frequencies(R, base, M, sc)
    np.testing.assert_allclose(got_table, table, rtol=1e-14, atol=0)
    assert got_divisor == divisor


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", list(CONFIGS))
def test_cos_sin_cache(name, dtype):
    base, R, M, sc = CONFIGS[name]
    cache = ropekit.cos_sin_cache(M, R, base, dtype, sc)
    assert cache.shape == (M, R)
    angles = ref_angles(M, R, base, sc)
    m = ref_mscale(sc)
    window = _window(angles, m)
    h = R // 2
    check_rounded(cache[:, :h], np.cos(angles) * m, window, dtype, f"{name} cos")
    check_rounded(cache[:, h:], np.sin(angles) * m, window, dtype, f"{name} sin")


def _layout(vals, mode):
    """[P, h] per-frequency values -> [P, 2h] rows laid out for the rotary mode."""
    h = vals.shape[1]
    if mode == "interleave":
        out = np.empty((vals.shape[0], 2 * h))
        out[:, 0::2] = vals
        out[:, 1::2] = vals
        return out
    if mode in ("half", "interleave-half"):
        return np.concatenate([vals, vals], axis=1)
    q = h // 2
    return np.concatenate([vals[:, :q], vals[:, :q], vals[:, q:], vals[:, q:]], axis=1)


COEFF_CONFIGS = ["plain-10k-R128", "linear-4", "dynamic-2x", "yarn-custom", "llama3-custom",
                 "plain-R6"]


@pytest.mark.parametrize("mode", ["half", "interleave", "quarter", "interleave-half"])
@pytest.mark.parametrize("name", COEFF_CONFIGS)
def test_rotary_coeffs(name, mode):
    base, L, P, sc = CONFIGS[name]
    if mode == "quarter" and L % 4:
        L += 2  # quarter needs a multiple of 4
    for dtype in DTYPES:
        cos, sin = ropekit.rotary_coeffs(P, L, mode, base, dtype, sc)
        assert cos.shape == sin.shape == (P, L)
        angles = ref_angles(P, L, base, sc)
        m = ref_mscale(sc)
        window = _layout(_window(angles, m), mode)
        check_rounded(cos, _layout(np.cos(angles) * m, mode), window, dtype, f"{name} cos")
        check_rounded(sin, _layout(np.sin(angles) * m, mode), window, dtype, f"{name} sin")
        # the same numbers as the rope cache (one computation, laid out twice)
        cache = ropekit.cos_sin_cache(P, L, base, dtype, sc)
        h = L // 2
        assert _layout_bits(cache[:, :h], mode, dtype).tobytes() == lib_bits(cos, dtype) \
            .tobytes()
        assert _layout_bits(cache[:, h:], mode, dtype).tobytes() == lib_bits(sin, dtype) \
            .tobytes()


def _layout_bits(vals, mode, dtype):
    b = lib_bits(vals, dtype)
    return _layout(b.astype(np.float64), mode).astype(b.dtype)


def test_trivial_scalings_equal_none():
    # linear with factor 1, and dynamic NTK when max_positions <= original, leave the
    # table bit-identical to the unscaled one.
    for dtype in DTYPES:
        plain = ropekit.cos_sin_cache(3000, 64, 10000.0, dtype)
        same = [ropekit.cos_sin_cache(3000, 64, 10000.0, dtype, {"type": "linear"}),
                ropekit.cos_sin_cache(3000, 64, 10000.0, dtype,
                                      ropekit.RopeScaling("dynamic", factor=4.0,
                                                          original_max_position=3000))]
        for t in same:
            assert t.tobytes() == plain.tobytes()


def test_first_row_and_unit_magnitudes():
    # Row 0 is cos 0 = 1 and sin 0 = 0 exactly (times mscale for YaRN).
    for name, (base, R, M, sc) in CONFIGS.items():
        for dtype in DTYPES:
            t = ropekit.cos_sin_cache(min(M, 4), R, base, dtype, sc)
            first = round_once(np.full(R // 2, ref_mscale(sc)), dtype)
            assert lib_bits(t[0, :R // 2], dtype).tolist() == bits_of(first, dtype).tolist()
            assert not lib_bits(t[0, R // 2:], dtype).any(), name


# ---- the Python scaling description ----------------------------------------------------

def test_scaling_defaults_and_description():
    d = ropekit.rope_scaling_defaults("yarn")
    assert d == ropekit.RopeScaling("yarn", 1.0, 8192, 32.0, 1.0, 1.0, 1.0, 1.0, 4.0,
                                    truncate=True, attention_factor=0.0, mscale=0.0,
                                    mscale_all_dim=0.0, mixed_b=0.0, alpha=1.0,
                                    longrope_stacked=False, short_mscale=0.0, long_mscale=0.0)
    assert ropekit.RopeScaling("llama3", factor=8.0).resolved().high_freq_factor == 4.0
    assert ropekit.RopeScaling("dynamic_ntk").resolved().type == "dynamic"
    a = ropekit.cos_sin_cache(64, 16, 500.0, "f32", {"rope_type": "yarn", "factor": 3.0,
                                                    "original_max_position": 16})
    b = ropekit.cos_sin_cache(64, 16, 500.0, "f32", ropekit.RopeScaling(
        "yarn", factor=3.0, original_max_position=16))
    assert a.tobytes() == b.tobytes()
    with pytest.raises(ValueError):
        ropekit.cos_sin_cache(8, 8, scaling={"type": "yarn", "scale": 2.0})
    with pytest.raises(ValueError):
        ropekit.cos_sin_cache(8, 8, scaling={"type": "ntk-by-parts"})
    with pytest.raises(TypeError):
        ropekit.cos_sin_cache(8, 8, scaling=2.0)


# ---- argument errors ---------------------------------------------------------------

BAD_ARGS = [
    # (max_positions, rotary_dim, base, scaling) rejected with ROPEKIT_INVALID_ARGUMENT
    (8, 7, 10000.0, None),
    (8, 0, 10000.0, None),
    (8, -4, 10000.0, None),
    (8, 8, 1.0, None),
    (8, 8, 0.5, None),
    (8, 8, -10000.0, None),
    (8, 8, float("nan"), None),
    (8, 8, float("inf"), None),
    (-1, 8, 10000.0, None),
    (8, 8, 10000.0, scaling("linear", factor=0.0)),
    (8, 8, 10000.0, scaling("linear", factor=-2.0)),
    (8, 8, 10000.0, scaling("linear", factor=float("nan"))),
    (8, 8, 10000.0, scaling("dynamic", factor=0.0)),
    (8, 8, 10000.0, scaling("yarn", factor=-1.0)),
    (8, 8, 10000.0, scaling("llama3", factor=0.0)),
    (8, 8, 10000.0, scaling("dynamic", factor=2.0, original_max_position=0)),
    (8, 8, 10000.0, scaling("yarn", factor=2.0, original_max_position=-5)),
    (8, 8, 10000.0, scaling("llama3", factor=2.0, original_max_position=0)),
    (8, 2, 10000.0, scaling("dynamic", factor=2.0, original_max_position=4)),
    (8, 8, 10000.0, scaling("yarn", factor=2.0, beta_fast=0.0)),
    (8, 8, 10000.0, scaling("yarn", factor=2.0, beta_slow=-1.0)),
    (8, 8, 10000.0, scaling("llama3", factor=2.0, low_freq_factor=0.0)),
    (8, 8, 10000.0, scaling("llama3", factor=2.0, high_freq_factor=-4.0)),
    (8, 8, 10000.0, scaling(9, factor=2.0)),
    (8, 8, 10000.0, scaling(-1, factor=2.0)),
]


@pytest.mark.parametrize("M,R,base,sc", BAD_ARGS, ids=str)
def test_builder_argument_errors(M, R, base, sc):
    for build in (lambda: ropekit.cos_sin_cache(M, R, base, "f32", sc),
                  lambda: ropekit.rotary_coeffs(M, R, "half", base, "bf16", sc)):
        with pytest.raises(ropekit.RopekitError) as info:
            build()
        assert info.value.status == INVALID, info.value
    if M >= 0:
        with pytest.raises(ropekit.RopekitError) as info:
            ropekit.inv_freq(R, base, M, sc)
        assert info.value.status == INVALID


def test_linear_ignores_original_max_position():
    t = ropekit.cos_sin_cache(16, 8, 100.0, "f32",
                              scaling("linear", factor=2.0, original_max_position=0))
    u = ropekit.cos_sin_cache(16, 8, 100.0, "f32", scaling("linear", factor=2.0))
    assert t.tobytes() == u.tobytes()


class _Scaling(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("factor", ctypes.c_double),
                ("original_max_position", ctypes.c_int64), ("beta_fast", ctypes.c_double),
                ("beta_slow", ctypes.c_double), ("extrapolation_factor", ctypes.c_double),
                ("attn_factor", ctypes.c_double), ("low_freq_factor", ctypes.c_double),
                ("high_freq_factor", ctypes.c_double), ("no_truncate", ctypes.c_int32),
                ("attention_factor", ctypes.c_double), ("mscale", ctypes.c_double),
                ("mscale_all_dim", ctypes.c_double), ("mixed_b", ctypes.c_double),
                ("alpha", ctypes.c_double), ("short_factor", ctypes.c_void_p),
                ("long_factor", ctypes.c_void_p), ("short_factor_count", ctypes.c_int64),
                ("long_factor_count", ctypes.c_int64), ("longrope_stacked", ctypes.c_int32)]


_SP = ctypes.POINTER(_Scaling)
_cache = bind("ropekit_cos_sin_cache_build", ctypes.c_int,
              [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_double,
               _SP])
_coeffs = bind("ropekit_rotary_coeffs_build", ctypes.c_int,
               [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                ctypes.c_int, ctypes.c_double, _SP])
_inv = bind("ropekit_rope_inv_freq", ctypes.c_int,
            [ctypes.c_void_p, ctypes.c_int64, ctypes.c_double, ctypes.c_int64, _SP])


def test_c_api_null_buffers_and_bad_enums():
    buf = np.full((4, 8), 7.0, np.float32)
    other = buf.copy()
    assert _cache(None, 0, 4, 8, 10000.0, None) == NULL_POINTER
    assert _coeffs(None, other.ctypes.data, 0, 4, 8, 1, 10000.0, None) == NULL_POINTER
    assert _coeffs(buf.ctypes.data, None, 0, 4, 8, 1, 10000.0, None) == NULL_POINTER
    assert _inv(None, 8, 10000.0, 0, None) == NULL_POINTER
    assert "NULL" in ropekit.last_error()
    # zero rows need no buffer
    assert _cache(None, 0, 0, 8, 10000.0, None) == 0
    assert _coeffs(None, None, 0, 0, 8, 0, 10000.0, None) == 0
    # dtype and mode outside the enums; quarter needs a multiple of 4
    assert _cache(buf.ctypes.data, 9, 4, 8, 10000.0, None) == INVALID
    assert _cache(buf.ctypes.data, 2, 4, 8, 10000.0, None) == INVALID
    for mode in (-1, 4):
        assert _coeffs(buf.ctypes.data, other.ctypes.data, 0, 4, 8, mode, 10000.0,
                       None) == INVALID
    assert _coeffs(buf.ctypes.data, other.ctypes.data, 0, 4, 6, 2, 10000.0, None) == INVALID
    # a failed call writes nothing
    assert (buf == 7.0).all() and (other == 7.0).all()
    bad = _Scaling(1, -1.0, 8192, 32.0, 1.0, 1.0, 1.0, 1.0, 4.0, 0, 0.0, 0.0, 0.0, 0.0, 1.0)
    assert _cache(buf.ctypes.data, 0, 4, 8, 10000.0, ctypes.byref(bad)) == INVALID
    assert (buf == 7.0).all()
    inv = np.full(4, 3.0)
    assert _inv(inv.ctypes.data, 8, 1.0, 0, None) == INVALID
    assert (inv == 3.0).all()
