"""Case machinery of the RopeWithSinCosCache conformance tests: random inputs in several
memory layouts, the native and aclnn runs, and the per-case checks:
  (a) SPEC section 6 bound against golden_rope.py (float64) on rotated elements,
  (b) pass-through elements (past rotaryDim) bit-identical to the input,
  (c) bit-exact agreement with emulate_rope.py (NaN results: the canonical quiet NaN),
  (d) memory outside the output views (and, out of place, the inputs) unchanged,
  (e) the aclnn face (V1 and/or V2, where CANN's rules accept the case) leaves the same
      bytes as the native face.
"""
import dataclasses
from typing import Optional, Sequence

import numpy as np

import checks
import emulate
import emulate_rope
import golden_rope
import ropekit
import ropekit.aclnn as aclnn
from emulate import BF16, F16, F32

DTYPES = (F32, F16, BF16)
RTOL = {F32: 1e-5, F16: 1e-3, BF16: 8e-3}
WHITELIST = ((16, 24, 24), (8, 12, 12), (24, 20, 20), (11, 11, 10), (16, 16, 16, 16))
# q/k layouts: 2-D ones go to the aclnn face too; "3d" and "heads" are [T, H, headSize].
LAYOUTS = ("contiguous", "fused", "colstride", "reversed", "3d", "heads")
CACHE_LAYOUTS = ("contiguous", "padded", "colstride", "reversed")
ACL_RT_AICORE_EXCEPTION = 507015
OUT_OF_RANGE = 4


@dataclasses.dataclass
class RopeCase:
    """One randomized RopeWithSinCosCache problem."""

    T: int = 7
    hq: int = 2
    hk: int = 1
    head_size: int = 64
    R: int = 64
    M: int = 50
    x_dt: str = F32
    cs_dt: Optional[str] = None           # None: same as x_dt
    neox: bool = True
    sections: Optional[Sequence[int]] = None
    cache_mode: int = 0
    layout: str = "contiguous"
    cache_layout: str = "contiguous"
    strided_positions: bool = False
    inplace: bool = True
    out_layout: str = "contiguous"        # out of place: contiguous, padded, colstride, fused
    specials: float = 0.0                 # fraction of NaN/inf/subnormal/extreme inputs
    cache_specials: float = 0.0
    query: bool = True
    key: bool = True

    def __post_init__(self):
        if self.cs_dt is None:
            self.cs_dt = self.x_dt

    @property
    def mrope(self):
        return self.sections is not None and len(self.sections) > 0 and self.sections[0] > 0

    @property
    def rows(self):
        return len(self.sections) if self.mrope else 1

    @property
    def style(self):
        return "neox" if self.neox else "gptj"


# ---- inputs ----------------------------------------------------------------------------

def _x_view(rng, case, heads):
    """(base, view) of one of query/key in the case's layout; view is [T, heads*hs] or
    [T, heads, hs]; base is filled with random bytes of the dtype."""
    T, hs, dt = case.T, case.head_size, case.x_dt
    width = heads * hs
    lay = case.layout
    if lay == "contiguous":
        base = checks.values(rng, (T, width), dt)
        view = base
    elif lay == "colstride":
        base = checks.values(rng, (T, 2 * width + 1), dt)
        view = base[:, 1::2]
    elif lay == "reversed":
        base = checks.values(rng, (T, width), dt)
        view = base[::-1]
    elif lay == "3d":
        base = checks.values(rng, (T, heads, hs + 3), dt)
        view = base[:, :, 1:hs + 1]
    elif lay == "heads":
        base = checks.values(rng, (heads, T, hs), dt)
        view = base.transpose(1, 0, 2)
    else:
        raise ValueError(lay)
    return base, view


def make_inputs(rng, case):
    """Returns a dict with positions, cache, and per side ('q', 'k') the base buffer and
    the input view (None for an absent side). The fused layout shares one base."""
    T, R, M = case.T, case.R, case.M
    # positions: uniform in [0, M) with 0 and M-1 forced in (first and last token).
    pos = rng.integers(0, M, (case.rows, T), dtype=np.int64)
    if T:
        pos[:, 0] = 0
        pos[:, -1] = M - 1
        if T > 4:
            pos[rng.integers(0, case.rows), T // 2] = M - 1
    if not case.mrope:
        pos = pos[0]
    if case.strided_positions:
        # every other element, backwards (negative stride), rows 2T apart
        big = np.full(pos.shape[:-1] + (2 * T,), -7, np.int64)
        big[..., ::-2] = pos
        pos = big[..., ::-2]
    cache = checks.values(rng, (M, R), case.cs_dt, "cs", case.cache_specials)
    if case.cache_layout == "padded":
        big = checks.values(rng, (M, R + 5), case.cs_dt, "cs")
        big[:, 2:R + 2] = cache
        cache = big[:, 2:R + 2]
    elif case.cache_layout == "colstride":
        big = checks.values(rng, (M, 2 * R), case.cs_dt, "cs")
        big[:, ::2] = cache
        cache = big[:, ::2]
    elif case.cache_layout == "reversed":
        cache = np.ascontiguousarray(cache[::-1, ::-1])[::-1, ::-1]
    out = {"positions": pos, "cache": cache}
    if case.layout == "fused":
        hs = case.head_size
        base = checks.values(rng, (T, (case.hq + 2 * case.hk) * hs), case.x_dt)
        q = base[:, :case.hq * hs]
        k = base[:, case.hq * hs:(case.hq + case.hk) * hs]
        q[...] = checks.values(rng, q.shape, case.x_dt, "x", case.specials)
        k[...] = checks.values(rng, k.shape, case.x_dt, "x", case.specials)
        out["q"] = (base, q) if case.query else None
        out["k"] = (base, k) if case.key else None
        return out
    for side, heads, present in (("q", case.hq, case.query), ("k", case.hk, case.key)):
        if not present:
            out[side] = None
            continue
        base, view = _x_view(rng, case, heads)
        view[...] = checks.values(rng, view.shape, case.x_dt, "x", case.specials)
        out[side] = (base, view)
    return out


def fresh_outputs(rng, case, inputs):
    """Output views for an out-of-place run, in case.out_layout, inside base buffers of
    random bytes (so copies and untouched memory are both checked). The bases are kept
    under "q_base" and "k_base"."""
    outs = {}
    if case.out_layout == "fused" and inputs["q"] is not None and inputs["k"] is not None:
        # both outputs in one [T, (hq + hk) hs + 3] buffer, query first
        T, hs = case.T, case.head_size
        base = checks.values(rng, (T, (case.hq + case.hk) * hs + 3), case.x_dt)
        for side, lo, hi in (("q", 0, case.hq * hs), ("k", case.hq * hs,
                                                      (case.hq + case.hk) * hs)):
            view = base[:, lo:hi].reshape(inputs[side][1].shape)
            assert np.shares_memory(view, base)
            outs[side], outs[side + "_base"] = view, base
        return outs
    for side in ("q", "k"):
        outs[side] = outs[side + "_base"] = None
        if inputs[side] is None:
            continue
        shape = inputs[side][1].shape
        if case.out_layout == "padded":
            base = checks.values(rng, shape[:-1] + (shape[-1] + 4,), case.x_dt)
            view = base[..., 3:shape[-1] + 3]
        elif case.out_layout == "colstride":
            base = checks.values(rng, shape[:-1] + (2 * shape[-1],), case.x_dt)
            view = base[..., ::2]
        else:
            base = checks.values(rng, shape, case.x_dt)
            view = base
        outs[side], outs[side + "_base"] = view, base
    return outs


def clone(inputs):
    """Deep copy of make_inputs' dict that keeps the views' layouts (and the fused
    buffer shared between q and k)."""
    copies = {}
    out = {"positions": inputs["positions"], "cache": inputs["cache"]}
    for side in ("q", "k"):
        if inputs[side] is None:
            out[side] = None
            continue
        base, view = inputs[side]
        key = id(base)
        if key not in copies:
            copies[key] = base.copy()
        nb = copies[key]
        out[side] = (nb, _same_view(nb, base, view))
    return out


def _same_view(new_base, base, view):
    """The view of new_base (contiguous, same shape as base, any item size) that `view`
    is of `base`."""
    item = base.itemsize
    off = (view.__array_interface__["data"][0] - base.__array_interface__["data"][0]) // item
    assert 0 <= off < max(base.size, 1), "view outside its base"
    strides = tuple(st // item * new_base.itemsize for st in view.strides)
    return np.lib.stride_tricks.as_strided(new_base.reshape(-1)[off:], view.shape, strides)


def _bits(a, dt):
    return emulate.bits(np.ascontiguousarray(a), dt)


# ---- runs --------------------------------------------------------------------------

def run_native(case, inputs, outputs=None):
    """ropekit.rope on `inputs` (in place when outputs is None)."""
    q = inputs["q"][1] if inputs["q"] else None
    k = inputs["k"][1] if inputs["k"] else None
    qo = outputs["q"] if outputs else None
    ko = outputs["k"] if outputs else None
    return ropekit.rope(inputs["positions"], q, k, inputs["cache"], head_size=case.head_size,
                        style=case.style, sections=case.sections, cache_mode=case.cache_mode,
                        query_out=qo, key_out=ko, x_dtype=case.x_dt, cache_dtype=case.cs_dt)


def aclnn_versions(case):
    """The aclnn entry points (1, 2) that accept the case under CANN's rules (SPEC 5.5)."""
    if case.x_dt != case.cs_dt or not (case.query and case.key) or case.T == 0:
        return ()
    if case.cache_mode not in (0, 1):         # 2 and 3 are the native face's own
        return ()
    if case.layout in ("3d", "heads") or case.hq == 0 or case.hk == 0:
        return ()
    align = 16 if case.x_dt == F32 else 32
    if case.head_size % align or case.R % align or case.R > case.head_size:
        return ()
    if case.sections is not None:
        sec = tuple(case.sections)
        if len(sec) not in (3, 4) or min(sec) < 0:
            return ()
        if sec[0] > 0 and (sec not in WHITELIST or 2 * sum(sec) != case.R):
            return ()
    if not case.mrope or case.cache_mode == 0:
        return (1, 2)
    return (2,) if len(case.sections) == 3 else ()


def run_aclnn(version, case, inputs, outputs=None):
    """One aclnn entry point on `inputs`; returns the Result."""
    q, k = inputs["q"][1], inputs["k"][1]
    qo = outputs["q"] if outputs else None
    ko = outputs["k"] if outputs else None
    if version == 1:
        return aclnn.rope_with_sin_cos_cache(inputs["positions"], q, k, inputs["cache"],
                                             case.sections, case.head_size, case.neox, qo, ko,
                                             x_dtype=case.x_dt, cache_dtype=case.cs_dt)
    return aclnn.rope_with_sin_cos_cache_v2(inputs["positions"], q, k, inputs["cache"],
                                            case.sections, case.head_size, case.neox,
                                            case.cache_mode, qo, ko, x_dtype=case.x_dt,
                                            cache_dtype=case.cs_dt)


# ---- checks --------------------------------------------------------------------------

def _where(mask, limit=5):
    return [tuple(int(i) for i in row) for row in np.argwhere(mask)[:limit]]


def check_bound(case, positions, x_in, x_out, cache):
    """(a) SPEC 6 bound of the rotated elements against golden_rope."""
    with np.errstate(invalid="ignore"):
        x64 = emulate.widen(np.ascontiguousarray(x_in), case.x_dt).astype(np.float64)
        c64 = emulate.widen(np.ascontiguousarray(cache), case.cs_dt).astype(np.float64)
        out = emulate.widen(np.ascontiguousarray(x_out), case.x_dt).astype(np.float64)
    ref, mag = golden_rope.rope(positions, x64, c64, case.head_size, case.neox,
                                case.sections, case.cache_mode)
    T, hs, R = case.T, case.head_size, case.R
    out = out.reshape(T, -1, hs)[..., :R]
    ref = ref.reshape(T, -1, hs)[..., :R]
    mag = mag.reshape(T, -1, hs)[..., :R]
    nan_o, nan_r = np.isnan(out), np.isnan(ref)
    bad = nan_o != nan_r
    assert not bad.any(), f"NaN positions differ from the reference at {_where(bad)}"
    inf_r = np.isinf(ref)
    bad = inf_r & (out != ref)
    assert not bad.any(), f"reference inf not matched at {_where(bad)}"
    fin = ~nan_r & ~inf_r
    rtol, atol = RTOL[case.x_dt], emulate.SUBNORMAL_ULP[case.x_dt]
    with np.errstate(all="ignore"):
        err = np.abs(out - ref)
        limit = rtol * mag + atol
        overflowed = (np.isinf(out) & (np.sign(out) == np.sign(ref))
                      & (np.abs(ref) + limit >= emulate.OVERFLOW_AT[case.x_dt]))
    bad = fin & ~((err <= limit) | overflowed)
    if bad.any():
        w = _where(bad)
        raise AssertionError(f"{int(bad.sum())} rotated elements outside the SPEC 6 bound "
                             f"(index, out, ref, mag): "
                             f"{[(i, out[i], ref[i], mag[i]) for i in w]}")


def check_pass_through(case, x_in, x_out):
    """(b) elements past rotaryDim are the input's bits."""
    hs, R = case.head_size, case.R
    bi = _bits(x_in, case.x_dt).reshape(case.T, -1, hs)[..., R:]
    bo = _bits(x_out, case.x_dt).reshape(case.T, -1, hs)[..., R:]
    bad = bi != bo
    assert not bad.any(), f"pass-through element changed at {_where(bad)}"


def check_model(case, positions, x_in, x_out, cache):
    """(c) bit-exact agreement with the float32 emulation, NaNs included (canonical)."""
    exp = emulate_rope.rope(positions, x_in, case.x_dt, cache, case.cs_dt, case.head_size,
                            case.neox, case.sections, case.cache_mode)
    eb, ob = _bits(exp, case.x_dt), _bits(x_out, case.x_dt)
    bad = eb != ob
    if bad.any():
        w = _where(bad)
        raise AssertionError(f"{int(bad.sum())} elements differ from the float32 model "
                             f"(index, got bits, expected bits): "
                             f"{[(i, hex(int(ob[i])), hex(int(eb[i]))) for i in w]}")


def check_side(case, positions, x_in, x_out, cache):
    """(a), (b), (c) for one of query/key."""
    check_pass_through(case, x_in, x_out)
    check_model(case, positions, x_in, x_out, cache)
    check_bound(case, positions, x_in, x_out, cache)


def check_outside(before, after, views, dt):
    """(d) memory of `after` (a base buffer) outside `views` equals `before`."""
    outside = np.ones(after.size, bool)
    index = np.arange(after.size).reshape(after.shape)
    for v in views:
        outside[_same_view(index, after, v).ravel()] = False
    b0, b1 = _bits(before, dt).reshape(-1), _bits(after, dt).reshape(-1)
    bad = outside & (b0 != b1)
    assert not bad.any(), f"memory outside the outputs changed at flat {_where(bad)}"


def check_output_bases(before, outputs, sides, dt):
    """(d) for out-of-place outputs: each output base buffer is unchanged outside the
    output views it holds (the fused layout holds both)."""
    groups = {}
    for side in sides:
        base = outputs[side + "_base"]
        groups.setdefault(id(base), (base, before[side], []))[2].append(outputs[side])
    for base, base_before, views in groups.values():
        check_outside(base_before, base, views, dt)


def _sides(case, inputs):
    return [s for s in ("q", "k") if inputs[s] is not None]


def _bases(work):
    """Distinct base buffers of the q/k sides of a clone()d input dict."""
    seen = {}
    for side in ("q", "k"):
        if work[side] is not None:
            seen.setdefault(id(work[side][0]), work[side][0])
    return list(seen.values())


def run_case(rng, case, faces=("native", "aclnn")):
    """Builds, runs and checks one case on the native face (in place or out of place as
    the case says) and on every aclnn entry point that accepts it. Returns (inputs
    before, native outputs as contiguous copies)."""
    inputs = make_inputs(rng, case)
    sides = _sides(case, inputs)
    original = clone(inputs)
    work = clone(inputs)
    outputs = None if case.inplace else fresh_outputs(rng, case, inputs)
    out_before = None if outputs is None else {s: outputs[s + "_base"].copy()
                                                for s in sides}
    qo, ko = run_native(case, work, outputs)
    results = {"q": qo, "k": ko}
    pos, cache = inputs["positions"], inputs["cache"]
    for side in sides:
        if not case.inplace:
            assert results[side] is outputs[side]
        check_side(case, pos, original[side][1], results[side], cache)
    if case.inplace:
        for b_after, b_before in zip(_bases(work), _bases(original)):
            views = [work[s][1] for s in sides if work[s][0] is b_after]
            check_outside(b_before, b_after, views, case.x_dt)
    else:
        for b_after, b_before in zip(_bases(work), _bases(original)):
            assert b_after.tobytes() == b_before.tobytes(), "an out-of-place call wrote an input"
        check_output_bases(out_before, outputs, sides, case.x_dt)
    native = {s: np.ascontiguousarray(results[s]) for s in sides}
    if "aclnn" in faces:
        for version in aclnn_versions(case):
            acl = clone(inputs)
            acl_out = None if case.inplace else fresh_outputs(rng, case, inputs)
            acl_base_before = None if acl_out is None else {
                s: acl_out[s + "_base"].copy() for s in sides}
            res = run_aclnn(version, case, acl, acl_out)
            assert res.ok, (version, res)
            # (e) the same bytes everywhere: outputs, and the whole buffers around them
            for b_acl, b_native in zip(_bases(acl), _bases(work)):
                assert b_acl.tobytes() == b_native.tobytes(), \
                    f"aclnn V{version} buffers differ from the native face's"
            for side in sides:
                if acl_out is not None:
                    got = np.ascontiguousarray(acl_out[side])
                    assert got.tobytes() == native[side].tobytes(), \
                        f"aclnn V{version} differs from the native face ({side})"
            if acl_out is not None:
                check_output_bases(acl_base_before, acl_out, sides, case.x_dt)
    return original, native
