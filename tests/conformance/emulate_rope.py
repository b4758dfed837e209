"""Bit-exact float32 emulation of RopeWithSinCosCache under SPEC section 1's numeric
model, following the kernel order of SPEC 5.4 (a formulation independent of
golden_rope.py and of the ropekit binding):

  widen the rotated part of each head exactly to float32; GPT-J de-interleaves it into
  half layout [x1 | x2]; out = [x1 | x2] * [c | c] + [-x2 | x1] * [s | s] with each
  product one float32 multiply and one float32 add; GPT-J re-interleaves; RNE to the
  output dtype. Elements past rotaryDim are copied bit for bit. Every NaN result is
  stored as the canonical quiet NaN (float32 0x7fc00000, float16 0x7e00, bfloat16
  0x7fc0), the library's documented choice.

Conversions come from emulate.py.
"""
import numpy as np

import emulate
from emulate import BF16, F16, F32

CANONICAL_NAN = {F32: 0x7FC00000, F16: 0x7E00, BF16: 0x7FC0}


def _pangu_rows(sec):
    """openPangu-VL: per step, among rows with budget left (the previous row excluded
    while another remains), the lowest (used / budget, row); with 3 sections row 0's
    budget is t - 1 and a row 0 closes the sequence."""
    budget = np.array([sec[0] - 1, sec[1], sec[2]] if len(sec) == 3 else [sec[0], sec[1], 0])
    used = np.zeros(3, np.int64)
    out, prev = [], -1
    for _ in range(int(budget.sum())):
        keys = sorted((used[k] / budget[k], k) for k in range(3) if used[k] < budget[k])
        pick = next((k for _, k in keys if k != prev), keys[0][1])
        used[pick] += 1
        out.append(pick)
        prev = pick
    if len(sec) == 3:
        out.append(0)
    return np.asarray(out, np.int64)


def source_rows(h, sections, cache_mode):
    """Vectorized SPEC 5.3 selector: (rows [h] of position-row indices, is_mrope)."""
    j = np.arange(h)
    if sections is None or len(sections) == 0 or sections[0] <= 0:
        return np.zeros(h, np.int64), False
    sec = np.asarray(sections, np.int64)
    if cache_mode == 0:
        ends = np.cumsum(sec)                 # section k ends (exclusive) at ends[k]
        return np.searchsorted(ends, j, side="right").astype(np.int64), True
    if cache_mode == 2:                       # ERNIE-4.5-VL: [h w h w ... t t t]
        return np.where(j < sec[0] + sec[1], 1 + j % 2, 0).astype(np.int64), True
    if cache_mode == 3:
        return _pangu_rows(sec), True
    rows = np.zeros(h, np.int64)
    rows[(j % 3 == 1) & (j // 3 < sec[1])] = 1
    rows[(j % 3 == 2) & (j // 3 < sec[2])] = 2
    return rows, True


def gathered(positions, cache, cache_dtype, sections, cache_mode):
    """float32 (cos, sin) of every token: [T, h] each."""
    cache32 = emulate.widen(np.ascontiguousarray(cache), cache_dtype)
    h = cache32.shape[1] // 2
    rows, mrope = source_rows(h, sections, cache_mode)
    pos = np.asarray(positions, np.int64)
    pos2 = pos if mrope else pos.reshape(1, -1)
    p = pos2[rows, :].T                       # [T, h]: cache row of coefficient j
    j = np.arange(h)[None, :]
    return cache32[p, j], cache32[p, h + j]


def rope(positions, x, x_dtype, cache, cache_dtype, head_size, neox, sections=None,
         cache_mode=0):
    """Expected storage array (shape of x) after rotating x (query or key) in float32."""
    x = np.ascontiguousarray(x)
    T = x.shape[0]
    out = x.copy()
    heads_out = out.reshape(T, -1, head_size)
    R = np.asarray(cache).shape[1]
    h = R // 2
    if T == 0 or heads_out.shape[1] == 0:
        return out
    c, s = gathered(positions, cache, cache_dtype, sections, cache_mode)
    rot = emulate.widen(heads_out[..., :R], x_dtype)             # [T, H, R] float32
    if not neox:
        rot = np.concatenate([rot[..., 0::2], rot[..., 1::2]], axis=-1)
    cc = np.concatenate([c, c], axis=-1)[:, None, :]
    ss = np.concatenate([s, s], axis=-1)[:, None, :]
    swapped = np.concatenate([-rot[..., h:], rot[..., :h]], axis=-1)
    with np.errstate(all="ignore"):
        res = rot * cc + swapped * ss
    assert res.dtype == np.float32
    if not neox:
        inter = np.empty_like(res)
        inter[..., 0::2], inter[..., 1::2] = res[..., :h], res[..., h:]
        res = inter
    nan = np.isnan(res)
    stored = emulate.narrow(res, x_dtype)
    b = emulate.bits(stored, x_dtype).reshape(res.shape)
    b[nan] = CANONICAL_NAN[x_dtype]
    heads_out[..., :R] = b.view(stored.dtype)
    return out
