"""Shared test machinery: input generation, memory layouts, and the three per-case
checks of the conformance suite:
  (a) SPEC section 6 bound against golden.py (float64),
  (b) elements outside the slice (and memory outside the view) bit-identical,
  (c) bit-exact agreement with emulate.py's float32 model (NaN: NaN-ness only).
"""
import numpy as np

import emulate
import golden
import ropekit
from emulate import BF16, F16, F32

DTYPES = (F32, F16, BF16)
MODES = (0, 1, 2, 3)
MODE_NAMES = ("half", "interleave", "quarter", "interleave-half")
RTOL = {F32: 1e-5, F16: 1e-3, BF16: 8e-3}
ACLNN_FWD_PAIRS = ((F16, F16), (BF16, BF16), (F32, F32), (F16, F32), (BF16, F32))
ALL_PAIRS = tuple((x, c) for x in DTYPES for c in DTYPES)

_SPECIAL_X = {
    F32: [np.nan, np.inf, -np.inf, 0.0, -0.0, 2.0 ** -149, -3 * 2.0 ** -149, 2.0 ** -130,
          2.0 ** -126, -1.5 * 2.0 ** -126, 3e38, -3e38, 1e-20],
    F16: [np.nan, np.inf, -np.inf, 0.0, -0.0, 2.0 ** -24, -3 * 2.0 ** -24, 2.0 ** -15,
          2.0 ** -14, 60000.0, -65504.0, 1e-3],
    BF16: [np.nan, np.inf, -np.inf, 0.0, -0.0, 2.0 ** -133, -3 * 2.0 ** -133, 2.0 ** -127,
           2.0 ** -126, 3e38, -3e38, 1e-20],
}
# (signaling NaN bits, sign bit) per dtype
_SIGNALING_NAN = {F32: (np.uint32(0x7F800001), 0x80000000), F16: (np.uint16(0x7C01), 0x8000),
                  BF16: (np.uint16(0x7F81), 0x8000)}
# |cos|, |sin| <= 1 or non-finite, so no finite float32 product overflows (the float64
# reference and the float32 model then agree on which results are inf or NaN).
_SPECIAL_CS = {
    F32: [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0 ** -149, 2.0 ** -140, 2.0 ** -126],
    F16: [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0 ** -24, 2.0 ** -20, 2.0 ** -14],
    BF16: [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0 ** -133, 2.0 ** -130,
           2.0 ** -126],
}


def values(rng, shape, dtype, role="x", specials=0.0):
    """Random storage array of `dtype` (uint16 bits for bf16). role "x": normal(0, 2);
    role "cs": uniform(-1, 1). `specials` is the fraction replaced by NaN, inf,
    subnormal, signed zero and extreme values of that dtype."""
    shape = tuple(shape)
    if role == "x":
        f = rng.standard_normal(shape) * 2.0
    else:
        f = rng.uniform(-1.0, 1.0, shape)
    if specials:
        pool = np.array((_SPECIAL_X if role == "x" else _SPECIAL_CS)[dtype])
        pick = rng.random(shape) < specials
        f = np.where(pick, pool[rng.integers(0, len(pool), shape)], f)
    with np.errstate(all="ignore"):
        out = emulate.narrow(f.astype(np.float32), dtype)
    if specials:
        # Signaling NaNs (either sign) go in as raw bits: arithmetic must turn them into
        # NaNs, and copies outside the slice must keep them bit for bit.
        pattern = _SIGNALING_NAN[dtype]
        pick = rng.random(shape) < specials / 8
        sign = np.where(rng.random(shape) < 0.5, pattern[1], 0).astype(pattern[0].dtype)
        b = emulate.bits(out, dtype).reshape(shape)
        b[...] = np.where(pick, pattern[0] | sign, b)
        out = b.view(out.dtype).reshape(shape)
    return out


# ---- memory layouts of x: (base buffer, view of it) -------------------------------

X_LAYOUTS = ("contiguous", "colstride", "padded", "transposed", "reversed")


def _view(base, layout, ndim):
    if layout == "contiguous":
        return base
    if layout == "colstride":
        return base[..., ::2]
    if layout == "padded":
        return base[..., 1:-2]
    if layout == "transposed":
        return np.swapaxes(base, 0, ndim - 2) if ndim >= 3 else base
    if layout == "reversed":
        return base[::-1, ..., ::-1]
    raise ValueError(layout)


def _base_shape(shape, layout):
    shape = list(shape)
    if layout == "colstride":
        shape[-1] *= 2
    elif layout == "padded":
        shape[-1] += 3
    elif layout == "transposed" and len(shape) >= 3:
        shape[0], shape[-2] = shape[-2], shape[0]
    return tuple(shape)


def x_buffer(rng, shape, dtype, layout, specials=0.0):
    """Returns (base, view, index_view): `view` has `shape` and the given layout inside
    `base`, which is filled with random bytes; `index_view` maps view elements to flat
    positions in base (so memory outside the view can be checked)."""
    base_shape = _base_shape(shape, layout)
    base = values(rng, base_shape, dtype, "x")
    view = _view(base, layout, len(shape))
    assert view.shape == tuple(shape), (view.shape, shape)
    view[...] = values(rng, shape, dtype, "x", specials)
    index_view = _view(np.arange(base.size).reshape(base_shape), layout, len(shape))
    return base, view, index_view


CS_LAYOUTS = ("contiguous", "expanded", "strided", "reversed")


def cs_arrays(rng, shape, dtype, layout="contiguous", specials=0.0, expand_to=None):
    """cos and sin storage arrays of `shape` with the given layout. "expanded" makes
    zero-stride views (np.broadcast_to) of shape `expand_to` from `shape`."""
    out = []
    for _ in range(2):
        a = values(rng, shape, dtype, "cs", specials)
        if layout == "expanded":
            a = np.broadcast_to(a, expand_to)
        elif layout == "strided":
            big = np.zeros(a.shape[:-1] + (a.shape[-1] * 3,), a.dtype)
            big[..., 1::3] = a
            a = big[..., 1::3]
        elif layout == "reversed":
            a = np.ascontiguousarray(a[..., ::-1])[..., ::-1]
        out.append(a)
    return out


# ---- checks ------------------------------------------------------------------------

def _where(mask, limit=5):
    idx = np.argwhere(mask)[:limit]
    return [tuple(int(i) for i in row) for row in idx]


def check_bound(x_in, x_out, x_dtype, cos, sin, cs_dtype, mode, start, end, backward):
    """(a) SPEC section 6 bound against the float64 reference on the rotated slice."""
    with np.errstate(invalid="ignore"):  # widening a signaling NaN raises "invalid"
        x64 = emulate.widen(x_in, x_dtype).astype(np.float64)
        c64 = emulate.widen(cos, cs_dtype).astype(np.float64)
        s64 = emulate.widen(sin, cs_dtype).astype(np.float64)
        out = emulate.widen(x_out, x_dtype).astype(np.float64)[..., start:end]
    ref, mag = golden.rotate(x64, c64, s64, mode, start, end, backward)
    ref, mag = ref[..., start:end], mag[..., start:end]
    rtol, atol = RTOL[x_dtype], emulate.SUBNORMAL_ULP[x_dtype]
    nan_o, nan_r = np.isnan(out), np.isnan(ref)
    bad = nan_o != nan_r
    assert not bad.any(), f"NaN positions differ at {_where(bad)}"
    inf_r = np.isinf(ref)
    bad = inf_r & (out != ref)
    assert not bad.any(), f"reference inf not matched at {_where(bad)}"
    fin = ~nan_r & ~inf_r
    with np.errstate(all="ignore"):
        err = np.abs(out - ref)
        limit = rtol * mag + atol
        overflowed = (np.isinf(out) & (np.sign(out) == np.sign(ref))
                      & (np.abs(ref) + limit >= emulate.OVERFLOW_AT[x_dtype]))
    bad = fin & ~((err <= limit) | overflowed)
    if bad.any():
        w = _where(bad)
        detail = [(i, out[i], ref[i], mag[i]) for i in w]
        raise AssertionError(f"{int(bad.sum())} elements outside the SPEC 6 bound "
                             f"(index, out, ref, mag): {detail}")


def check_outside(x_in, x_out, x_dtype, start, end):
    """(b) elements of x outside [start, end) are bit-identical to the input."""
    bi, bo = emulate.bits(x_in, x_dtype), emulate.bits(x_out, x_dtype)
    for sl in (np.s_[..., :start], np.s_[..., end:]):
        bad = bi[sl] != bo[sl]
        assert not bad.any(), f"element outside the slice changed at {_where(bad)}"


def check_model(x_in, x_out, x_dtype, cos, sin, cs_dtype, mode, start, end, backward):
    """(c) bit-exact agreement with the float32 numeric model (NaN: NaN-ness only)."""
    exp = emulate.rotate(x_in, x_dtype, cos, sin, cs_dtype, mode, start, end, backward)
    eb, ob = emulate.bits(exp, x_dtype), emulate.bits(x_out, x_dtype)
    en = np.isnan(emulate.widen(exp, x_dtype))
    on = np.isnan(emulate.widen(x_out, x_dtype))
    bad = (en != on) | (~en & (eb != ob))
    if x_dtype == BF16:  # SPEC 1 rule 4: a rotated bf16 NaN is a quiet NaN
        quiet = (ob & 0x0040) != 0
        bad[..., start:end] |= on[..., start:end] & ~quiet[..., start:end]
    if bad.any():
        w = _where(bad)
        detail = [(i, hex(int(ob[i])), hex(int(eb[i]))) for i in w]
        raise AssertionError(f"{int(bad.sum())} elements differ from the float32 model "
                             f"(index, got bits, expected bits): {detail}")


def check_all(x_in, x_out, x_dtype, cos, sin, cs_dtype, mode, start, end, backward):
    """Checks (a), (b) and (c) of one finished case."""
    x_in, x_out = np.ascontiguousarray(x_in), np.ascontiguousarray(x_out)
    check_outside(x_in, x_out, x_dtype, start, end)
    check_model(x_in, x_out, x_dtype, cos, sin, cs_dtype, mode, start, end, backward)
    check_bound(x_in, x_out, x_dtype, cos, sin, cs_dtype, mode, start, end, backward)


def check_memory(base_before, base_after, index_view):
    """Memory of the base buffer outside the view is unchanged."""
    outside = np.ones(base_before.size, bool)
    outside[index_view.ravel()] = False
    b0 = base_before.reshape(-1).view(np.uint8 if base_before.itemsize == 1 else
                                      {2: np.uint16, 4: np.uint32}[base_before.itemsize])
    b1 = base_after.reshape(-1).view(b0.dtype)
    bad = outside & (b0 != b1)
    assert not bad.any(), f"memory outside the view changed at flat {_where(bad)}"


def native_case(rng, x_dtype, cs_dtype, mode, backward, x_shape, cs_shape, start, end,
                x_layout="contiguous", cs_layout="contiguous", specials=0.0):
    """Builds one random case, runs ropekit.partial_rotary on it and applies all checks.
    Returns (x_before, x_after, cos, sin) for further comparisons."""
    base, x, index_view = x_buffer(rng, x_shape, x_dtype, x_layout, specials)
    expand_to = None
    if cs_layout == "expanded":
        expand_to = tuple(cs_shape)
        cs_shape = tuple(1 for _ in cs_shape[:-1]) + (cs_shape[-1],)
    cos, sin = cs_arrays(rng, cs_shape, cs_dtype, cs_layout, specials, expand_to)
    base_before, x_before = base.copy(), x.copy()
    ropekit.partial_rotary(x, cos, sin, MODE_NAMES[mode], start, end, backward,
                           x_dtype=x_dtype, cs_dtype=cs_dtype)
    check_memory(base_before, base, index_view)
    check_all(x_before, x, x_dtype, cos, sin, cs_dtype, mode, start, end, backward)
    return x_before, x.copy(), cos, sin
