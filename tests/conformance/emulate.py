"""Bit-exact emulation of SPEC section 1's numeric model in numpy float32, plus the
dtype conversions the tests need (independent of the ropekit binding).

Model: widen every operand exactly to float32, form each product as one float32
multiply (RNE), combine two products with one float32 add or subtract, round the
float32 result once to the output dtype (RNE). Elements outside the slice are copied.

The rotation is expressed through pairs here (a different formulation from golden.py):
each mode maps pair k to input positions (ia, ib), coefficient positions (cp, cr) and
output positions (oa, ob); the forward is [oa; ob] = [[c[cp], -s[cp]], [s[cr], c[cr]]]
[a; b] and the backward is its transpose [[c[cp], s[cr]], [-s[cp], c[cr]]].
"""
import numpy as np

F32, F16, BF16 = "f32", "f16", "bf16"
STORAGE = {F32: np.float32, F16: np.float16, BF16: np.uint16}
# Smallest positive subnormal of each type: the absolute tolerance of SPEC section 6.
SUBNORMAL_ULP = {F32: 2.0 ** -149, F16: 2.0 ** -24, BF16: 2.0 ** -133}
# Smallest magnitude that rounds to infinity under RNE.
OVERFLOW_AT = {F32: 2.0 ** 128 * (1 - 2.0 ** -25), F16: 65520.0,
               BF16: 2.0 ** 128 * (1 - 2.0 ** -9)}


def to_bf16_bits(f32):
    """Own RNE float32 -> bfloat16 on the bits (NaN -> a quiet NaN)."""
    a = np.asarray(f32, dtype=np.float32)
    u = np.ascontiguousarray(a).view(np.uint32).reshape(a.shape)
    lower = u & np.uint32(0xFFFF)
    upper = u >> np.uint32(16)
    round_up = (lower > 0x8000) | ((lower == 0x8000) & ((upper & np.uint32(1)) == 1))
    out = upper + round_up  # only a NaN's upper half can be 0xFFFF; NaNs are replaced
    nan = (u & np.uint32(0x7FFFFFFF)) > np.uint32(0x7F800000)
    out = np.where(nan, upper | np.uint32(0x40), out)
    return out.astype(np.uint16)


def from_bf16_bits(bits):
    """Exact bfloat16 bits -> float32."""
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def narrow(f32, dtype):
    """float32 values -> storage array of `dtype` with RNE (numpy's float16 cast is RNE)."""
    f32 = np.asarray(f32, dtype=np.float32)
    with np.errstate(all="ignore"):
        if dtype == F32:
            return f32.copy()
        if dtype == F16:
            return f32.astype(np.float16)
    return to_bf16_bits(f32)


def widen(stored, dtype):
    """Storage array of `dtype` -> exact float32 values."""
    if dtype == BF16:
        return from_bf16_bits(stored)
    with np.errstate(invalid="ignore"):  # a signaling NaN stays a NaN
        return np.asarray(stored).astype(np.float32)


def bits(stored, dtype):
    """The raw bit patterns of a storage array, as unsigned integers."""
    a = np.ascontiguousarray(stored)
    return a.view(np.uint32) if dtype == F32 else a.view(np.uint16)


def pair_maps(mode, L, backward):
    """Index arrays (ia, ib, cp, cr, oa, ob) of the pairs of one rotated vector."""
    h, q = L // 2, L // 4
    if mode == 0:
        p = np.arange(h)
        r = p + h
    elif mode == 1:
        p = np.arange(0, L, 2)
        r = p + 1
    elif mode == 2:
        p = np.concatenate([np.arange(q), np.arange(2 * q, 3 * q)])
        r = p + q
    elif mode == 3:
        j = np.arange(h)
        inter, half = (2 * j, 2 * j + 1), (j, j + h)
        src, dst = (half, inter) if backward else (inter, half)
        return src[0], src[1], half[0], half[1], dst[0], dst[1]
    else:
        raise ValueError(mode)
    return p, r, p, r, p, r


def rotate(x, x_dtype, cos, sin, cs_dtype, mode, start, end, backward=False):
    """Expected storage array of x after the op, under the numeric model. x, cos, sin
    are storage arrays (uint16 for bf16); cos/sin broadcast to x's leading dims."""
    out = np.array(x, copy=True)
    L = end - start
    if L == 0 or x.size == 0 or cos.size == 0:
        return out
    xv = widen(x[..., start:end], x_dtype)
    lead = xv.shape[:-1]
    c = np.broadcast_to(widen(cos, cs_dtype), lead + (L,))
    s = np.broadcast_to(widen(sin, cs_dtype), lead + (L,))
    ia, ib, cp, cr, oa, ob = pair_maps(mode, L, backward)
    a, b = xv[..., ia], xv[..., ib]
    res = np.empty_like(xv)
    with np.errstate(all="ignore"):
        if not backward:
            p1, p2 = a * c[..., cp], b * s[..., cp]
            p3, p4 = b * c[..., cr], a * s[..., cr]
            res[..., oa] = p1 - p2
            res[..., ob] = p3 + p4
        else:
            p1, p2 = a * c[..., cp], b * s[..., cr]
            p3, p4 = b * c[..., cr], a * s[..., cp]
            res[..., oa] = p1 + p2
            res[..., ob] = p3 - p4
    assert res.dtype == np.float32
    out[..., start:end] = narrow(res, x_dtype)
    return out
