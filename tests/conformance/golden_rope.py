"""Independent float64 reference for RopeWithSinCosCache (SPEC sections 5.2-5.4).

Written from the SPEC text with numpy float64; it shares no code with the ropekit
binding or with the float32 emulation (emulate_rope.py).

Inputs hold values already rounded to their storage types, widened to float64:
positions int [T] (rope) or [m, T] (mrope), x [T, H*head_size] or [T, H, head_size],
cache [M, R]. rope() returns (out, mag): out is x with the first R elements of every
head rotated and the rest copied; mag holds |term1| + |term2| of each rotated element
(0 elsewhere), the magnitude SPEC section 6 scales its tolerance by.
"""
import numpy as np


def pangu_rows(sections):
    """openPangu-VL's interleaved mrope: a greedy sequence of position rows, one per
    coefficient. 2 sections (h, w): rows 0 and 1, h and w slots. 3 sections (t, h, w):
    t - 1 slots of row 0, h of row 1, w of row 2, then a final row 0. Each step takes a
    row with slots left, not the previous step's unless nothing else is left, the one
    least placed relative to its slots (placed / slots, as a float), lowest row on ties."""
    three = len(sections) == 3
    slots = [sections[0] - 1, sections[1], sections[2]] if three else \
        [sections[0], sections[1], 0]
    placed = [0, 0, 0]
    seq = []
    while len(seq) < sum(slots):
        open_rows = [k for k in range(3) if placed[k] < slots[k]]
        fresh = [k for k in open_rows if not seq or k != seq[-1]]
        k = min(fresh or open_rows, key=lambda k: (placed[k] / slots[k], k))
        placed[k] += 1
        seq.append(k)
    return seq + [0] if three else seq


def section_rows(h, sections=None, cache_mode=0):
    """SPEC 5.3: src(j) for j in [0, h): the position row feeding coefficient j, and
    whether the call is mrope. rope: all 0. cacheMode 0: section k covers
    [S_k, S_k + s_k). cacheMode 1 (3 sections): j % 3 == 1 and j // 3 < s1 -> 1,
    j % 3 == 2 and j // 3 < s2 -> 2, else 0. cacheMode 2 (ERNIE-4.5-VL, sections
    (h, w, t)): j < h + w -> 1 for even j, 2 for odd j; else 0. cacheMode 3:
    pangu_rows."""
    src = [0] * h
    mrope = sections is not None and len(sections) > 0 and sections[0] > 0
    if not mrope:
        return src, False
    if cache_mode == 0:
        start = 0
        for k, size in enumerate(sections):
            for j in range(start, min(start + size, h)):
                src[j] = k
            start += size
    elif cache_mode == 2:
        for j in range(h):
            src[j] = (1 + j % 2) if j < sections[0] + sections[1] else 0
    elif cache_mode == 3:
        src = pangu_rows(sections)
        assert len(src) == h
    else:
        s1, s2 = sections[1], sections[2]
        for j in range(h):
            if j % 3 == 1 and j // 3 < s1:
                src[j] = 1
            elif j % 3 == 2 and j // 3 < s2:
                src[j] = 2
    return src, True


def coefficients(positions, cache, sections=None, cache_mode=0):
    """c[t, j] = cache[pos_src(j)(t), j] and s[t, j] = cache[pos_src(j)(t), h + j]
    (float64 [T, h] each)."""
    cache = np.asarray(cache, dtype=np.float64)
    h = cache.shape[1] // 2
    positions = np.asarray(positions)
    src, mrope = section_rows(h, sections, cache_mode)
    rows = positions.reshape(1, -1) if not mrope else positions
    T = rows.shape[1]
    c = np.empty((T, h))
    s = np.empty((T, h))
    for j in range(h):
        p = rows[src[j]]
        c[:, j] = cache[p, j]
        s[:, j] = cache[p, h + j]
    return c, s


def rope(positions, x, cache, head_size, neox, sections=None, cache_mode=0):
    """Reference output of one of query/key (SPEC 5.4) and the per-element magnitudes."""
    x = np.asarray(x, dtype=np.float64)
    T = x.shape[0]
    heads = x.reshape(T, -1, head_size)
    out = heads.copy()
    mag = np.zeros_like(heads)
    R = np.asarray(cache).shape[1]
    h = R // 2
    if T == 0 or heads.shape[1] == 0:
        return out.reshape(x.shape), mag.reshape(x.shape)
    c, s = coefficients(positions, cache, sections, cache_mode)
    c, s = c[:, None, :], s[:, None, :]  # shared by every head of a token
    if neox:
        first, second = np.arange(h), np.arange(h) + h       # pairs (j, j + h)
    else:
        first, second = 2 * np.arange(h), 2 * np.arange(h) + 1  # pairs (2j, 2j + 1)
    a, b = heads[..., first], heads[..., second]
    with np.errstate(all="ignore"):
        # out[first] = a c - b s ; out[second] = b c + a s
        t1, t2 = a * c, -(b * s)
        t3, t4 = b * c, a * s
        out[..., first] = t1 + t2
        out[..., second] = t3 + t4
        mag[..., first] = np.abs(t1) + np.abs(t2)
        mag[..., second] = np.abs(t3) + np.abs(t4)
    return out.reshape(x.shape), mag.reshape(x.shape)
