"""Independent float64 reference for InplacePartialRotaryMul and its gradient.

Written directly from SPEC section 3.3 (forward) and 4.2 (backward) with numpy float64.
It shares no code with the ropekit Python binding or with the float32 emulation.

Inputs are float64 arrays holding the (already dtype-rounded) values: x [..., D],
cos/sin [..., L] broadcastable to x's leading dimensions (numpy's right-aligned rules).
Each function returns (out, mag): out is x with x[..., start:end] replaced by the
rotated values, mag holds |term1| + |term2| of every rotated element (0 elsewhere),
the magnitude SPEC section 6 scales its tolerance by.
"""
import numpy as np

HALF, INTERLEAVE, QUARTER, INTERLEAVE_HALF = 0, 1, 2, 3


def _terms(v, c, s, mode, backward):
    """Returns the two float64 terms (t1, t2) of every output element of one rotated
    slice (last axis length L); the output is t1 + t2."""
    L = v.shape[-1]
    h, q = L // 2, L // 4
    t1 = np.empty_like(v)
    t2 = np.empty_like(v)
    if mode == INTERLEAVE and not backward:
        # u[2i] = v[2i]c[2i] - v[2i+1]s[2i]; u[2i+1] = v[2i+1]c[2i+1] + v[2i]s[2i+1]
        t1[..., 0::2] = v[..., 0::2] * c[..., 0::2]
        t2[..., 0::2] = -(v[..., 1::2] * s[..., 0::2])
        t1[..., 1::2] = v[..., 1::2] * c[..., 1::2]
        t2[..., 1::2] = v[..., 0::2] * s[..., 1::2]
    elif mode == INTERLEAVE:
        # w[2i] = c[2i]g[2i] + s[2i+1]g[2i+1]; w[2i+1] = c[2i+1]g[2i+1] - s[2i]g[2i]
        t1[..., 0::2] = c[..., 0::2] * v[..., 0::2]
        t2[..., 0::2] = s[..., 1::2] * v[..., 1::2]
        t1[..., 1::2] = c[..., 1::2] * v[..., 1::2]
        t2[..., 1::2] = -(s[..., 0::2] * v[..., 0::2])
    elif mode == HALF and not backward:
        # u[j] = v[j]c[j] - v[j+h]s[j]; u[j+h] = v[j+h]c[j+h] + v[j]s[j+h]
        t1[..., :h] = v[..., :h] * c[..., :h]
        t2[..., :h] = -(v[..., h:] * s[..., :h])
        t1[..., h:] = v[..., h:] * c[..., h:]
        t2[..., h:] = v[..., :h] * s[..., h:]
    elif mode == HALF:
        # w[j] = c[j]g[j] + s[j+h]g[j+h]; w[j+h] = c[j+h]g[j+h] - s[j]g[j]
        t1[..., :h] = c[..., :h] * v[..., :h]
        t2[..., :h] = s[..., h:] * v[..., h:]
        t1[..., h:] = c[..., h:] * v[..., h:]
        t2[..., h:] = -(s[..., :h] * v[..., :h])
    elif mode == QUARTER:
        # Two independent rotate-half blocks: [0, 2q) and [2q, 4q).
        for b in (0, 2 * q):
            lo, hi = slice(b, b + q), slice(b + q, b + 2 * q)
            if not backward:
                t1[..., lo] = v[..., lo] * c[..., lo]
                t2[..., lo] = -(v[..., hi] * s[..., lo])
                t1[..., hi] = v[..., hi] * c[..., hi]
                t2[..., hi] = v[..., lo] * s[..., hi]
            else:
                t1[..., lo] = c[..., lo] * v[..., lo]
                t2[..., lo] = s[..., hi] * v[..., hi]
                t1[..., hi] = c[..., hi] * v[..., hi]
                t2[..., hi] = -(s[..., lo] * v[..., lo])
    elif mode == INTERLEAVE_HALF and not backward:
        # e[j] = v[2j], o[j] = v[2j+1]; u[j] = e c[j] - o s[j]; u[j+h] = o c[j+h] + e s[j+h]
        e, o = v[..., 0::2], v[..., 1::2]
        t1[..., :h] = e * c[..., :h]
        t2[..., :h] = -(o * s[..., :h])
        t1[..., h:] = o * c[..., h:]
        t2[..., h:] = e * s[..., h:]
    elif mode == INTERLEAVE_HALF:
        # w[2j] = c[j]g[j] + s[j+h]g[j+h]; w[2j+1] = c[j+h]g[j+h] - s[j]g[j]
        t1[..., 0::2] = c[..., :h] * v[..., :h]
        t2[..., 0::2] = s[..., h:] * v[..., h:]
        t1[..., 1::2] = c[..., h:] * v[..., h:]
        t2[..., 1::2] = -(s[..., :h] * v[..., :h])
    else:
        raise ValueError(f"mode {mode}")
    return t1, t2


def rotate(x, cos, sin, mode, start, end, backward=False):
    """Reference rotation of x[..., start:end] (forward, or the gradient when
    backward). Returns (out, mag) as float64 arrays shaped like x."""
    x = np.asarray(x, dtype=np.float64)
    out = x.copy()
    mag = np.zeros_like(x)
    L = end - start
    if L == 0 or x.size == 0:
        return out, mag
    v = x[..., start:end]
    c = np.broadcast_to(np.asarray(cos, dtype=np.float64), v.shape)
    s = np.broadcast_to(np.asarray(sin, dtype=np.float64), v.shape)
    with np.errstate(all="ignore"):
        t1, t2 = _terms(v, c, s, mode, backward)
        out[..., start:end] = t1 + t2
        mag[..., start:end] = np.abs(t1) + np.abs(t2)
    return out, mag


def forward(x, cos, sin, mode, start, end):
    """SPEC 3.3 forward in float64; see rotate."""
    return rotate(x, cos, sin, mode, start, end, backward=False)


def backward(g, cos, sin, mode, start, end):
    """SPEC 4.2 gradient in float64; see rotate."""
    return rotate(g, cos, sin, mode, start, end, backward=True)
