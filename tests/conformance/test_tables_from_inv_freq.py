"""The table builders of caller-given frequencies (ropekit_cos_sin_cache_from_inv_freq,
ropekit_rotary_coeffs_from_inv_freq) against float64 references written here:

  cache[p, i] = m cos(p inv_freq[i]),  cache[p, R/2 + i] = m sin(p inv_freq[i])

for i < R/2 = len(inv_freq) and magnitude m, each value rounded once to the dtype (float64
tables: the float64 value itself, up to the evaluation window of table_rounding.py); the
coefficient rows hold the same values in each rotary mode's pair layout. Frequencies
derived from a base and a scaling, passed through these builders with the scaling's
magnitude, give the scaling builders' tables bit for bit. Every argument error is
refused with a message and nothing written.
"""
import ctypes

import numpy as np
import pytest

import ropekit
from ropekit._lib import bind

from table_rounding import DTYPES, check_rounded, lib_bits, window

INVALID, NULL_POINTER = 2, 1
ALL_DTYPES = DTYPES + ("f64",)
MODES = ("half", "interleave", "quarter", "interleave-half")

# name: (inv_freq, positions, magnitude)
FREQS = {
    "decreasing-32": (10000.0 ** (-np.arange(32) / 32.0), 4096, 1.0),
    "two-axes-22": (np.tile(10000.0 ** (-np.arange(22) / 22.0), 2), 25, 1.0),
    "mixed-signs-and-zero": (np.array([0.0, -1.0, 0.3, 2.5, -1e-4, 1e-9, 7.0, 0.0]), 1000, 1.0),
    "scaled-0.75": (np.linspace(1.0, 1e-3, 16), 2048, 0.75),
    "scaled-1.3": (np.geomspace(3.0, 1e-5, 12), 9000, 1.3),
    "one-pair": (np.array([0.5]), 300, 1.0),
}


def reference(inv, positions, magnitude):
    angles = np.arange(positions, dtype=np.float64)[:, None] * inv[None, :]
    return angles, np.cos(angles) * magnitude, np.sin(angles) * magnitude


def check_values(got, want, win, dtype, what):
    if dtype == "f64":
        assert got.dtype == np.float64
        bad = np.abs(got - want) > win
        assert not bad.any(), f"{what}: {int(bad.sum())} float64 values off"
    else:
        check_rounded(got, want, win, dtype, what)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", list(FREQS))
def test_cache(name, dtype):
    inv, positions, m = FREQS[name]
    cache = ropekit.cos_sin_cache_from_inv_freq(positions, inv, dtype, m)
    h = inv.size
    assert cache.shape == (positions, 2 * h)
    angles, cos, sin = reference(inv, positions, m)
    win = window(angles, m)
    check_values(cache[:, :h], cos, win, dtype, f"{name} cos")
    check_values(cache[:, h:], sin, win, dtype, f"{name} sin")


def _layout(vals, mode):
    """[P, h] per-frequency values -> [P, 2h] rows laid out for the rotary mode."""
    h = vals.shape[1]
    if mode == "interleave":
        return np.repeat(vals, 2, axis=1)
    if mode in ("half", "interleave-half"):
        return np.concatenate([vals, vals], axis=1)
    q = h // 2
    return np.concatenate([vals[:, :q], vals[:, :q], vals[:, q:], vals[:, q:]], axis=1)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", list(FREQS))
def test_rotary_coeffs(name, mode):
    inv, positions, m = FREQS[name]
    if mode == "quarter" and inv.size % 2:
        inv = np.append(inv, 0.01)  # quarter needs len a multiple of 4
    h = inv.size
    angles, cos_want, sin_want = reference(inv, positions, m)
    win = _layout(window(angles, m), mode)
    for dtype in ALL_DTYPES:
        cos, sin = ropekit.rotary_coeffs_from_inv_freq(positions, inv, mode, dtype, m)
        assert cos.shape == sin.shape == (positions, 2 * h)
        check_values(cos, _layout(cos_want, mode), win, dtype, f"{name} {mode} cos")
        check_values(sin, _layout(sin_want, mode), win, dtype, f"{name} {mode} sin")
        # the cache's values, laid out for the mode
        cache = lib_bits_any(ropekit.cos_sin_cache_from_inv_freq(positions, inv, dtype, m),
                             dtype)
        assert np.array_equal(lib_bits_any(cos, dtype), _layout(cache[:, :h], mode))
        assert np.array_equal(lib_bits_any(sin, dtype), _layout(cache[:, h:], mode))


def lib_bits_any(arr, dtype):
    return np.ascontiguousarray(arr).view(np.uint64) if dtype == "f64" else lib_bits(arr, dtype)


# ---- the scaling builders' tables, through the frequencies they report ------------------

def scaling(kind, **fields):
    return ropekit.RopeScaling(kind, **fields)


SHORT = [1.0 + 0.05 * i for i in range(32)]
LONG = [1.0 + 0.9 * i for i in range(32)]
DERIVED = {
    # name: (base, R, max_positions, scaling); every type whose position divisor is 1
    "none": (10000.0, 128, 4096, None),
    "dynamic": (10000.0, 64, 4096, scaling("dynamic", factor=2.0, original_max_position=2048)),
    "ntk-mixed": (10000.0, 64, 2048, scaling("ntk", factor=4.0, mixed_b=0.5)),
    "alpha": (10000.0, 128, 1024, scaling("dynamic_ntk_alpha", alpha=1000.0)),
    "yarn": (10000.0, 128, 16384, scaling("yarn", factor=4.0, original_max_position=4096)),
    "deepseek-yarn": (10000.0, 64, 8192, scaling("deepseek_yarn", factor=40.0,
                                                 original_max_position=4096, mscale=0.707,
                                                 mscale_all_dim=0.707)),
    "gpt-oss-yarn": (150000.0, 64, 8192, scaling("yarn", factor=32.0, original_max_position=4096,
                                                 truncate=False)),
    "llama3": (500000.0, 128, 8192, scaling("llama3", factor=8.0, original_max_position=8192)),
    "longrope-long": (10000.0, 64, 4096, scaling("longrope", factor=16.0,
                                                 original_max_position=256,
                                                 short_factor=SHORT, long_factor=LONG)),
    "longrope-short": (10000.0, 64, 200, scaling("longrope", factor=16.0,
                                                 original_max_position=256,
                                                 short_factor=SHORT, long_factor=LONG)),
}


@pytest.mark.parametrize("name", list(DERIVED))
def test_derived_frequencies_give_the_scaling_tables_bit_for_bit(name):
    base, R, M, sc = DERIVED[name]
    inv, divisor = ropekit.table_frequencies(R, base, M, sc)
    assert divisor == 1.0
    m = ropekit.attention_scaling(R, sc)
    if name == "none":  # the plain base formula, as the models' code writes it
        np.testing.assert_allclose(inv, 1.0 / base ** (np.arange(0, R, 2) / R), rtol=1e-15)
        assert np.array_equal(inv, ropekit.inv_freq(R, base))
    for dtype in ALL_DTYPES:
        want = ropekit.cos_sin_cache(M, R, base, dtype, sc)
        got = ropekit.cos_sin_cache_from_inv_freq(M, inv, dtype, m)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (name, dtype)
        # fewer rows: dynamic NTK's base and LongRoPE's factor set follow the row count
        few = ropekit.table_frequencies(R, base, 64, sc)[0]
        for mode in MODES:
            want_c, want_s = ropekit.rotary_coeffs(64, R, mode, base, dtype, sc)
            got_c, got_s = ropekit.rotary_coeffs_from_inv_freq(64, few, mode, dtype, m)
            assert got_c.tobytes() == want_c.tobytes() and got_s.tobytes() == want_s.tobytes()


# ---- argument errors ---------------------------------------------------------------

def _raises(call, status, match):
    with pytest.raises(ropekit.RopekitError, match=match) as info:  # re.search
        call()
    assert info.value.status == status, info.value


BAD = [
    # (max_positions, inv_freq, dtype, magnitude, message)
    (8, [], "f32", 1.0, "rotary_dim = 0: must be even, >= 2"),
    (-1, [1.0], "f32", 1.0, "positions = -1: must be >= 0"),
    (8, [1.0, float("nan")], "f32", 1.0, "inv_freq 1 = nan: must be finite"),
    (8, [float("-inf")], "bf16", 1.0, "inv_freq 0 = -inf: must be finite"),
    (0, [float("inf")], "f64", 1.0, "inv_freq 0 = inf: must be finite"),
    (10, [1.0, 1e308], "f64", 1.0, r"angle of position 9 = 9 \* 1e\+308: not finite \(inv_freq"),
    (8, [1.0], "f32", 0.0, "magnitude = 0: must be finite, > 0"),
    (8, [1.0], "f32", -1.0, "magnitude = -1: must be finite, > 0"),
    (8, [1.0], "f16", float("nan"), "magnitude = nan: must be finite, > 0"),
    (8, [1.0], "f64", float("inf"), "magnitude = inf: must be finite, > 0"),
    (8, [1.0], "f32", 1e39, r"cos/sin scaled by 1e\+39 \(magnitude\): larger than the largest f32"),
    (8, [1.0], "f16", 65520.0,
     r"cos/sin scaled by 65520 \(magnitude\): larger than the largest f16"),
    (0, [1.0], "bf16", 3.5e38,
     r"cos/sin scaled by 3.5e\+38 \(magnitude\): larger than the largest bf16"),
]


@pytest.mark.parametrize("M,inv,dtype,m,message", BAD, ids=[f"{b[2]}-{b[-1][:32]}" for b in BAD])
def test_argument_errors(M, inv, dtype, m, message):
    _raises(lambda: ropekit.cos_sin_cache_from_inv_freq(M, inv, dtype, m), INVALID,
            "ropekit_cos_sin_cache_from_inv_freq: " + message)
    _raises(lambda: ropekit.rotary_coeffs_from_inv_freq(M, inv, "half", dtype, m), INVALID,
            "ropekit_rotary_coeffs_from_inv_freq: " + message)


def test_limits_that_pass():
    # the largest finite magnitudes of each dtype, and angles just below overflow
    assert ropekit.cos_sin_cache_from_inv_freq(2, [1.0], "f16", 65504.0)[0, 0] != 0
    assert ropekit.cos_sin_cache_from_inv_freq(2, [1.0], "f32", 3.4e38).shape == (2, 2)
    assert ropekit.cos_sin_cache_from_inv_freq(2, [1.0], "f64", 1e300)[0, 0] == 1e300
    t = ropekit.cos_sin_cache_from_inv_freq(10, [1e307], "f64")
    assert np.isfinite(t).all()
    assert ropekit.cos_sin_cache_from_inv_freq(0, [1.0, 2.0], "f32").shape == (0, 4)


def test_python_argument_checks():
    with pytest.raises(ValueError, match="inv_freq shape = \\[2, 2\\]: must be one-dimensional"):
        ropekit.cos_sin_cache_from_inv_freq(4, [[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError):
        ropekit.cos_sin_cache_from_inv_freq(4, [1.0], "f8")
    with pytest.raises(ValueError):
        ropekit.rotary_coeffs_from_inv_freq(4, [1.0], "sideways")
    _raises(lambda: ropekit.rotary_coeffs_from_inv_freq(4, [1.0], 4), INVALID, "mode = 4")
    _raises(lambda: ropekit.rotary_coeffs_from_inv_freq(4, [1.0, 2.0, 3.0], "quarter"), INVALID,
            "len = 6: quarter mode needs a multiple of 4")


_cache = bind("ropekit_cos_sin_cache_from_inv_freq", ctypes.c_int,
              [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p,
               ctypes.c_double])
_coeffs = bind("ropekit_rotary_coeffs_from_inv_freq", ctypes.c_int,
               [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                ctypes.c_int, ctypes.c_void_p, ctypes.c_double])


def test_c_api_pointers_sizes_and_untouched_buffers():
    buf = np.full((4, 8), 7.0, np.float32)
    other = buf.copy()
    inv = np.array([1.0, 0.5, 0.25, 0.125])
    kept = inv.copy()
    b, o, i = buf.ctypes.data, other.ctypes.data, inv.ctypes.data
    calls = [
        (lambda: _cache(None, 0, 4, 8, i, 1.0), NULL_POINTER, "cache = NULL"),
        (lambda: _cache(b, 0, 4, 8, None, 1.0), NULL_POINTER, "inv_freq = NULL"),
        (lambda: _cache(None, 0, 0, 8, None, 1.0), NULL_POINTER, "inv_freq = NULL"),
        (lambda: _coeffs(None, o, 0, 4, 8, 1, i, 1.0), NULL_POINTER, "cos = NULL"),
        (lambda: _coeffs(b, None, 0, 4, 8, 1, i, 1.0), NULL_POINTER, "sin = NULL"),
        (lambda: _coeffs(b, o, 0, 4, 8, 1, None, 1.0), NULL_POINTER, "inv_freq = NULL"),
        (lambda: _cache(b, 0, 4, 7, i, 1.0), INVALID, "rotary_dim = 7: must be even, >= 2"),
        (lambda: _cache(b, 0, 4, 0, i, 1.0), INVALID, "rotary_dim = 0"),
        (lambda: _cache(b, 0, 4, -2, i, 1.0), INVALID, "rotary_dim = -2"),
        (lambda: _coeffs(b, o, 0, 4, 5, 0, i, 1.0), INVALID, "rotary_dim = 5"),
        (lambda: _cache(b, 9, 4, 8, i, 1.0), INVALID, "dtype = 9"),
        (lambda: _cache(b, 2, 4, 8, i, 1.0), INVALID, "dtype = 2"),
        (lambda: _cache(b, 0, 2, 1 << 62, i, 1.0), INVALID, "table size overflows"),
        (lambda: _coeffs(b, o, 0, 4, 8, -1, i, 1.0), INVALID, "mode = -1"),
    ]
    for call, status, message in calls:
        assert call() == status, message
        assert message in ropekit.last_error(), (message, ropekit.last_error())
        assert (buf == 7.0).all() and (other == 7.0).all(), message
        assert np.array_equal(inv, kept)
    # zero rows need no table buffer
    assert _cache(None, 0, 0, 8, i, 1.0) == 0
    assert _coeffs(None, None, 0, 0, 8, 0, i, 1.0) == 0
    # a good call after all that fills the table
    assert _cache(b, 0, 4, 8, i, 1.0) == 0
    assert buf[0].tolist() == [1.0] * 4 + [0.0] * 4
