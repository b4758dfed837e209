"""Seeded random property test of the torch ops and their front-ends (the ropekit.torch
wrappers, cann_ops_transformer, vLLM's rotary_embedding, FlashInfer's and torch_npu's
signatures, the RotaryEmbedding modules): random modes, dtypes, shapes, slices,
broadcasts, positions, sections and memory layouts, and invalid inputs.

Valid calls match the float64 references of refs.py within its tolerances, leave their
inputs alone (functional forms), give the same bits when repeated and for the same values
in another layout (padded, strided, permuted, expanded), and their autograd gradient is
the backward op's result. Invalid calls raise ValueError, TypeError, RuntimeError (torch's
schema) or IndexError (a position out of range) with a message, and change no input.
Case i is drawn from its own seed: `-k "case_17"` replays one; ROPEKIT_TORCH_FUZZ_SEED and
ROPEKIT_TORCH_FUZZ_CASES draw other cases."""
import os
import random

import pytest
import torch

import ropekit.torch as rt
import refs
from cann_ops_transformer import ops as cann
from ropekit._types import MODES as MODE_IDS
from ropekit.torch import _native
from conftest import DTYPES

ops = torch.ops.ropekit
CASES = int(os.environ.get("ROPEKIT_TORCH_FUZZ_CASES", 300))
SEED = int(os.environ.get("ROPEKIT_TORCH_FUZZ_SEED", 0x5EED))
MODES = ["half", "interleave", "quarter", "interleave-half"]
ERRORS = (ValueError, TypeError, RuntimeError, IndexError)
MAX_ELEMS = 1 << 13


# ---- helpers ----


def _bits(t):
    t = t.detach().contiguous()
    if t.dtype.is_floating_point:
        return t.view({2: torch.int16, 4: torch.int32, 8: torch.int64}[t.element_size()])
    return t


def _same_bits(a, b):
    return tuple(a.shape) == tuple(b.shape) and torch.equal(_bits(a), _bits(b))


def snapshot(*tensors):
    """The values' bits of every tensor (any layout; None and non-tensors kept as None)."""
    return [_bits(t).clone() if isinstance(t, torch.Tensor) else None for t in tensors]


def assert_unchanged(before, *tensors):
    for b, t in zip(before, tensors):
        if isinstance(t, torch.Tensor):
            assert torch.equal(b, _bits(t)), "an input tensor was modified"


def _values(rng, shape, dtype, scale=1.0):
    g = torch.Generator().manual_seed(rng.getrandbits(31))
    return ((torch.rand(shape, generator=g, dtype=torch.float64) * 2 - 1) * scale).to(dtype)


def _restride(rng, t):
    """The same values in another memory layout: inside a wider buffer, every other
    element of a dim, or dims stored in another order. The gaps hold NaN (floats) or a
    huge position (ints), so reading them shows."""
    if t.dim() == 0 or t.numel() == 0:
        return t.clone()
    fill = float("nan") if t.is_floating_point() else torch.iinfo(t.dtype).max
    kind = rng.randrange(3)
    if kind == 0:
        pad = rng.randint(1, 5)
        off = rng.randint(0, pad)
        base = torch.full(tuple(t.shape[:-1]) + (t.shape[-1] + pad,), fill, dtype=t.dtype)
        view = base[..., off:off + t.shape[-1]]
    elif kind == 1:
        k = rng.randrange(t.dim())
        shape = list(t.shape)
        shape[k] *= 2
        base = torch.full(shape, fill, dtype=t.dtype)
        index = [slice(None)] * t.dim()
        index[k] = slice(rng.randrange(2), None, 2)
        view = base[tuple(index)]
    else:
        perm = list(range(t.dim()))
        rng.shuffle(perm)
        view = torch.full([t.shape[p] for p in perm], fill,
                          dtype=t.dtype).permute([perm.index(i) for i in range(t.dim())])
    view.copy_(t)
    return view


def _expect_error(what, call, *inputs):
    before = snapshot(*inputs)
    try:
        call()
    except ERRORS as e:
        words = str(e).split(": ")
        assert str(e).strip(), f"{what}: {type(e).__name__} without a message"
        assert len(words) < 2 or words[0] != words[1], f"{what}: message repeats {words[0]!r}"
    else:
        pytest.fail(f"{what}: no exception")
    assert_unchanged(before, *inputs)


# ---- InplacePartialRotaryMul[Grad] ----


class PR:
    """A problem: mode, slice and x, cos, sin."""

    def __init__(self, rng):
        self.mode = rng.choice(MODES)
        multiple = 4 if self.mode == "quarter" else 2
        xd, cd = rng.choice(DTYPES), rng.choice(DTYPES)
        self.rank = rng.randint(1, 5)
        d = rng.choice([rng.randint(1, 40), rng.randint(1, 40), rng.choice([64, 128, 130])])
        length = multiple * rng.randint(0 if rng.random() < 0.05 else 1, d // multiple) \
            if d >= multiple else 0
        self.start = rng.randint(0, d - length)
        self.end = self.start + length
        shape = [rng.choice([1, 1, 2, 3, 4, 5]) for _ in range(self.rank - 1)] + [d]
        while len(shape) > 1 and torch.Size(shape).numel() > MAX_ELEMS:
            shape[shape.index(max(shape[:-1]))] //= 2
        if self.rank > 1 and rng.random() < 0.03:
            shape[rng.randrange(self.rank - 1)] = 0
        crank = rng.randint(1, self.rank)
        lead = shape[self.rank - crank:self.rank - 1]
        cshape = [n if rng.random() < 0.5 else 1 for n in lead] + [length]
        self.x = _values(rng, shape, xd, rng.choice([1.0, 4.0]))
        self.c, self.s = _values(rng, cshape, cd), _values(rng, cshape, cd)
        self.backward = rng.random() < 0.5
        self.kw = dict(rotary_mode=self.mode, partial_slice=[self.start, self.end])

    def cann_ok(self):
        """Whether CANN's operator takes the case (its rules are the aclnn tests' to check;
        here the front-end's results are compared with the other faces')."""
        if self.x.dim() != 4 or self.c.dim() != 4:
            return False
        try:
            _native.check_cann_partial_rotary("cann", "fuzz", self.x, self.c, self.s,
                                              MODE_IDS[self.mode], self.start, self.end,
                                              self.backward)
        except (ValueError, NotImplementedError, IndexError):
            return False
        return True

    def faces(self):
        faces = ["op", "inplace", "wrapper", "wrapper_inplace"]
        return faces + ["cann"] if self.cann_ok() else faces


def _pr_call(face, pr, x, c, s):
    """Runs the face on (x, c, s); in-place faces work on x itself. Returns the result."""
    b, kw = pr.backward, pr.kw
    if face == "op":
        return (ops.partial_rotary_mul_backward if b else ops.partial_rotary_mul)(x, c, s, **kw)
    if face == "wrapper" and not b:
        return rt.partial_rotary_mul(x, c, s, **kw)
    if face == "wrapper":
        return ops.partial_rotary_mul_backward(x, c, s, **kw)
    fn = {"inplace": (ops.inplace_partial_rotary_mul, ops.inplace_partial_rotary_mul_backward),
          "wrapper_inplace": (rt.inplace_partial_rotary_mul,
                              rt.inplace_partial_rotary_mul_backward),
          "cann": (cann.inplace_partial_rotary_mul, cann.inplace_partial_rotary_mul_backward)}
    fn[face][b](x, c, s, **kw)
    return x


def _pr_run(face, pr, x, c, s):
    """Calls the face (in-place ones on a copy with x's layout); checks the inputs are kept."""
    inplace = face in ("inplace", "wrapper_inplace", "cann")
    before = snapshot(x, c, s)
    out = _pr_call(face, pr, _copy_layout(x) if inplace else x, c, s)
    assert_unchanged(before, x, c, s)
    return out


def _copy_layout(x):
    """A copy of x's whole storage, viewed with x's shape, strides and offset."""
    n = x.untyped_storage().nbytes() // x.element_size()
    flat = torch.empty(0, dtype=x.dtype).set_(x.untyped_storage(), 0, (n,), (1,)).clone()
    return flat.as_strided(x.shape, x.stride(), x.storage_offset())


def _pr_check(pr, out):
    ref = refs.partial_rotary_backward if pr.backward else refs.partial_rotary
    want, mag = ref(pr.x, pr.c, pr.s, pr.mode, pr.start, pr.end)
    keep = torch.ones_like(pr.x, dtype=torch.bool)
    keep[..., pr.start:pr.end] = False
    refs.assert_close(out, want, mag, pr.x.dtype, passthrough=(keep, pr.x))


def _pr_autograd(rng, face, pr):
    """x.grad through the op (or the in-place op on a copy of x) is the opposite op's
    result on the incoming gradient, bit for bit."""
    g = _values(rng, pr.x.shape, pr.x.dtype)
    x = pr.x.clone().requires_grad_()
    if face in ("inplace", "wrapper_inplace", "cann"):
        y = x * 1.0
        _pr_call(face, pr, y, pr.c, pr.s)
    else:
        y = _pr_call(face, pr, x, pr.c, pr.s)
    y.backward(g)
    inverse = ops.partial_rotary_mul if pr.backward else ops.partial_rotary_mul_backward
    assert _same_bits(x.grad, inverse(g, pr.c, pr.s, **pr.kw)), "autograd != backward op"


def _pr_valid(rng):
    pr = PR(rng)
    face = rng.choice(pr.faces())
    out = _pr_run(face, pr, pr.x, pr.c, pr.s)
    _pr_check(pr, out)
    assert _same_bits(_pr_run(face, pr, pr.x, pr.c, pr.s), out), "not deterministic"
    strict = face == "cann" and pr.backward  # CANN's backward wants contiguous tensors
    if not strict:
        x, c, s = _restride(rng, pr.x), _restride(rng, pr.c), _restride(rng, pr.s)
        assert _same_bits(_pr_run(face, pr, x, c, s), out), "layout changes the result"
    if face != "cann" and pr.c.dim() == pr.x.dim() and pr.c.numel() > 0:
        full = list(pr.x.shape[:-1]) + [pr.c.shape[-1]]  # broadcast == expanded (stride 0)
        ce, se = pr.c.expand(full), pr.s.expand(full)
        assert _same_bits(_pr_run(face, pr, pr.x, ce, se), out), "expanded cos/sin differ"
    if pr.x.numel() and rng.random() < 0.4:
        _pr_autograd(rng, face, pr)
    return f"pr {face} {pr.mode} {'bwd' if pr.backward else 'fwd'}"


def _pr_mutations(pr):
    """(name, args, kwargs, faces) of invalid calls derived from the problem."""
    x, c, s, kw = pr.x, pr.c, pr.s, pr.kw
    d, length = x.shape[-1], pr.end - pr.start
    multiple = 4 if pr.mode == "quarter" else 2
    out = [("float64 x", (x.double(), c, s), kw),
           ("int x", (x.to(torch.int32), c, s), kw),
           ("r2 dtype", (x, c, s.double() if s.dtype != torch.float32 else s.half()), kw),
           ("mode", (x, c, s), {**kw, "rotary_mode": "sideways"}),
           ("slice past D", (x, c, s), {**kw, "partial_slice": [pr.start, d + 2]}),
           ("negative start", (x, c, s), {**kw, "partial_slice": [-2, pr.end]}),
           ("reversed slice", (x, c, s), {**kw, "partial_slice": [pr.end + 2, pr.end]}),
           ("r2 shape", (x, c, s.new_zeros(list(s.shape[:-1]) + [s.shape[-1] + 2])), kw),
           ("rank 0 x", (x.sum(), c, s), kw),
           ("cos rank above x", (x, c.reshape((1,) * (x.dim() + 1 - c.dim()) + tuple(c.shape)),
                                 s.reshape((1,) * (x.dim() + 1 - s.dim()) + tuple(s.shape))),
            kw),
           ("not a tensor", (x, [1.0], s), kw)]
    if length > 0 and x.numel() > 0:
        wide = (torch.cat((c, c[..., :multiple]), -1), torch.cat((s, s[..., :multiple]), -1))
        out.append(("cos longer than the slice", (x,) + wide, kw))
        if pr.start + length + 1 <= d:
            odd = (torch.cat((c, c[..., :1]), -1), torch.cat((s, s[..., :1]), -1))
            out.append(("slice length", (x,) + odd,
                        {**kw, "partial_slice": [pr.start, pr.end + 1]}))
        lead = x.dim() - c.dim()
        for k in range(c.dim() - 1):
            if x.shape[lead + k] > 0:
                shape = list(c.shape)
                shape[k] = x.shape[lead + k] + 1
                out.append(("broadcast", (x, c.new_zeros(shape), s.new_zeros(shape)), kw))
                break
        if x.dim() >= 2 and x.shape[-2] > 1:  # rows on top of each other: in place only
            shape, stride = list(x.shape), list(x.stride())
            stride[-2] = 0
            out.append(("overlapping x", (x.clone().as_strided(shape, stride), c, s), kw, True))
    return out


def _pr_invalid(rng):
    pr = PR(rng)
    mutations = _pr_mutations(pr)
    name, args, kwargs, *inplace_only = rng.choice(mutations)
    faces = ["inplace", "wrapper_inplace"] if inplace_only else pr.faces()
    face = rng.choice([f for f in faces if f != "cann"])
    bad = PR.__new__(PR)
    bad.backward, bad.kw = pr.backward, kwargs
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    _expect_error(f"{name} ({face})", lambda: _pr_call(face, bad, *args), *tensors)
    if pr.cann_ok():  # CANN's front-end: 4-D (the aclnn rules), contiguous for the backward
        x3 = pr.x[0]
        _expect_error("cann 3-D x",
                      lambda: cann.inplace_partial_rotary_mul(x3, pr.c, pr.s, **pr.kw),
                      x3, pr.c, pr.s)
        xt = pr.x.transpose(0, 1)
        if not xt.is_contiguous():
            _expect_error("cann strided backward",
                          lambda: cann.inplace_partial_rotary_mul_backward(xt, pr.c, pr.s,
                                                                           **pr.kw),
                          xt, pr.c, pr.s)
    return f"pr invalid {name} {face}"


# ---- RopeWithSinCosCache ----


def _split(rng, h, n):
    """n sections summing to h, the first positive."""
    if n == 1:
        return [h]
    cuts = sorted(rng.randint(0, h - 1) for _ in range(n - 1))
    return [cuts[0] + 1] + [b - a for a, b in zip(cuts, cuts[1:])] + [h - 1 - cuts[-1]]


class Rope:
    def __init__(self, rng, plain=False):
        dt = rng.choice(DTYPES)
        cd = dt if rng.random() < 0.5 else rng.choice(DTYPES)
        self.is_neox = rng.random() < 0.5
        self.hs = rng.choice([rng.randint(2, 80), 64, 128])
        rot = 2 * rng.randint(1, self.hs // 2)
        self.sections, self.cache_mode = None, 0
        if not plain and rng.random() < 0.45:
            n = rng.choice([1, 2, 3, 3, 3, 4])
            self.sections = _split(rng, rot // 2, n)
            self.cache_mode = rng.randrange(2) if n == 3 else 0
        t = rng.choice([0, rng.randint(1, 6), rng.randint(1, 6), rng.randint(7, 40)])
        hq, hk = rng.randint(1, 4), rng.randint(1, 4)
        while t > 1 and t * (hq + hk) * self.hs > MAX_ELEMS:
            t //= 2
        self.max_pos = rng.randint(1, 50)
        rows = len(self.sections) if self.sections else None
        pos = torch.randint(0, self.max_pos, (rows, t) if rows else (t,),
                            generator=torch.Generator().manual_seed(rng.getrandbits(31)))
        self.pos = pos.to(torch.int32) if rng.random() < 0.3 else pos
        self.q = self._qk(rng, t, hq, dt)
        self.k = self._qk(rng, t, hk, dt) if rng.random() < 0.8 else None
        self.cache = _values(rng, (self.max_pos, rot), cd)
        self.backward = rng.random() < 0.3

    def _qk(self, rng, t, heads, dt):
        return _values(rng, (t, heads, self.hs) if rng.random() < 0.3 else
                       (t, heads * self.hs), dt, rng.choice([1.0, 4.0]))

    def faces(self):
        if self.backward:
            return ["op"]
        if self.sections is None:
            return ["op", "rotary_embedding", "flashinfer", "flashinfer_inplace", "npu_mrope",
                    "module"]
        return ["op", "npu_mrope", "module"]

    def kw(self):
        return dict(mrope_section=self.sections, cache_mode=self.cache_mode)


def _rope_call(face, r, pos, q, k, cache):
    """Runs the face; in-place faces rotate q and k themselves. Returns (q, k) results."""
    if face == "op":
        fn = ops.rope_with_sin_cos_cache_backward if r.backward else ops.rope_with_sin_cos_cache
        return fn(pos, q, k, cache, r.hs, r.is_neox, **r.kw())
    if face == "rotary_embedding":
        ops.rotary_embedding(pos, q, k, r.hs, cache, r.is_neox)
        return q, k
    if face == "flashinfer":
        return rt.apply_rope_with_cos_sin_cache(pos, q, k, r.hs, cache, r.is_neox)
    if face == "flashinfer_inplace":
        rt.apply_rope_with_cos_sin_cache_inplace(pos, q, k, r.hs, cache, r.is_neox)
        return q, k
    if face == "npu_mrope":
        return rt.npu_mrope(pos, q, k, cache, r.hs, mrope_section=r.sections,
                            rotary_mode="half" if r.is_neox else "interleave",
                            cache_mode="interleave" if r.cache_mode else "default")
    m = (rt.MRotaryEmbedding(r.hs, cache.shape[1], r.max_pos, 10000.0, r.is_neox,
                             dtype=cache.dtype, mrope_section=r.sections,
                             mrope_interleaved=bool(r.cache_mode)) if r.sections else
         rt.RotaryEmbedding(r.hs, cache.shape[1], r.max_pos, 10000.0, r.is_neox,
                            dtype=cache.dtype))
    m.cos_sin_cache = cache  # the problem's own table (any values)
    return m(pos, q, k)


def _rope_run(face, r, pos, q, k, cache):
    inplace = face in ("rotary_embedding", "flashinfer_inplace")
    before = snapshot(pos, q, k, cache)
    if inplace:
        q, k = _copy_layout(q), _copy_layout(k) if k is not None else None
    out = _rope_call(face, r, pos, q, k, cache)
    if not inplace:
        assert_unchanged(before, pos, q, k, cache)
    return out


def _rope_check(r, x, got):
    assert tuple(got.shape) == tuple(x.shape)
    if x.shape[0] == 0:
        return
    cache = r.cache
    if r.backward:  # the transpose: the rotation by (cos, -sin)
        cache = cache.clone()
        cache[:, cache.shape[1] // 2:].neg_()
    want, mag = refs.rope(r.pos, x, cache, r.hs, r.is_neox, r.sections, r.cache_mode)
    keep = torch.zeros((x.shape[0], x.numel() // x.shape[0] // r.hs, r.hs), dtype=torch.bool)
    keep[..., cache.shape[1]:] = True
    refs.assert_close(got, want, mag, x.dtype, passthrough=(keep.reshape(x.shape), x))


def _rope_autograd(rng, face, r):
    gq = _values(rng, r.q.shape, r.q.dtype)
    gk = _values(rng, r.k.shape, r.k.dtype) if r.k is not None else None
    q = r.q.clone().requires_grad_()
    k = r.k.clone().requires_grad_() if r.k is not None else None
    if face in ("rotary_embedding", "flashinfer_inplace"):
        qo, ko = q * 1.0, k * 1.0 if k is not None else None
        _rope_call(face, r, r.pos, qo, ko, r.cache)
    else:
        qo, ko = _rope_call(face, r, r.pos, q, k, r.cache)
    loss = (qo * gq).sum() + ((ko * gk).sum() if k is not None else 0)
    loss.backward()
    inverse = ops.rope_with_sin_cos_cache if r.backward else ops.rope_with_sin_cos_cache_backward
    want_q, want_k = inverse(r.pos, gq, gk, r.cache, r.hs, r.is_neox, **r.kw())
    assert _same_bits(q.grad, want_q), "autograd != backward op (query)"
    if k is not None:
        assert _same_bits(k.grad, want_k), "autograd != backward op (key)"


def _rope_valid(rng):
    r = Rope(rng)
    face = rng.choice(r.faces())
    qo, ko = _rope_run(face, r, r.pos, r.q, r.k, r.cache)
    _rope_check(r, r.q, qo)
    assert (ko is None) == (r.k is None)
    if r.k is not None:
        _rope_check(r, r.k, ko)
    q2, k2 = _rope_run(face, r, r.pos, r.q, r.k, r.cache)
    assert _same_bits(q2, qo) and (k2 is None or _same_bits(k2, ko)), "not deterministic"
    pos, cache = _restride(rng, r.pos), _restride(rng, r.cache)
    q, k = _restride(rng, r.q), _restride(rng, r.k) if r.k is not None else None
    q3, k3 = _rope_run(face, r, pos, q, k, cache)
    assert _same_bits(q3, qo) and (k3 is None or _same_bits(k3, ko)), "layout changes results"
    if r.q.shape[0] and face not in ("module", "npu_mrope") and rng.random() < 0.4:
        _rope_autograd(rng, face, r)
    return f"rope {face} {'mrope' if r.sections else 'rope'} {'bwd' if r.backward else 'fwd'}"


def _rope_mutations(r):
    """(name, face, kwargs overriding the problem's call) of invalid calls."""
    pos, q, k, cache, hs = r.pos, r.q, r.k, r.cache, r.hs
    t, rot = q.shape[0], cache.shape[1]
    out = [("float positions", dict(pos=pos.float())),
           ("positions shape", dict(pos=torch.cat((pos, pos), dim=-1) if t else
                                    torch.zeros(pos.shape[:-1] + (1,), dtype=pos.dtype))),
           ("head_size 0", dict(hs=0)), ("negative head_size", dict(hs=-hs)),
           ("head_size True", dict(hs=True)),
           ("1-D query", dict(q=q.reshape(-1))),
           ("cache 3-D", dict(cache=cache.unsqueeze(0))),
           ("odd rotary dim", dict(cache=torch.cat((cache, cache[:, :1]), 1))),
           ("rotary dim above head_size", dict(cache=torch.cat((cache,) * (hs // rot + 1), 1)
                                               [:, :2 * (hs // 2) + 2])),
           ("cache_mode 4", dict(cache_mode=4)),
           ("not a tensor", dict(q=q.tolist()))]
    if t:
        q2 = q.reshape(t, -1)
        out.append(("query columns", dict(q=torch.cat((q2, q2[:, :1]), 1))))
    if k is not None:
        other = torch.float16 if k.dtype != torch.float16 else torch.float32
        out.append(("key dtype", dict(k=k.to(other))))
        out.append(("key tokens", dict(k=torch.cat((k, k[:1])) if t else
                                       torch.zeros((1,) + k.shape[1:], dtype=k.dtype))))
    if r.sections:
        out.append(("sections sum", dict(sections=r.sections + [1])))
        out.append(("negative section", dict(sections=r.sections[:1] + [-1] + r.sections[1:])))
        if len(r.sections) != 3:
            out.append(("cache_mode 1 sections", dict(cache_mode=1)))
    if t and q.numel():
        for bad in (r.max_pos, -1, 1 << 40):
            p = pos.clone()
            p.view(-1)[p.numel() // 2] = bad if pos.dtype == torch.int64 else min(bad, 2**31 - 1)
            out.append((f"position {bad}", dict(pos=p)))
    return out


def _rope_invalid(rng):
    r = Rope(rng)
    name, change = rng.choice(_rope_mutations(r))
    faces = [f for f in r.faces() if f not in ("module",)]
    face = rng.choice(faces)
    bad = Rope.__new__(Rope)
    bad.__dict__.update(r.__dict__)
    bad.hs = change.get("hs", r.hs)
    bad.sections = change.get("sections", r.sections)
    bad.cache_mode = change.get("cache_mode", r.cache_mode)
    args = [change.get(n, getattr(r, n)) for n in ("pos", "q", "k", "cache")]
    if face == "npu_mrope" and "cache_mode" in change:
        face = "op"  # npu_mrope spells it as a string
    if face in ("rotary_embedding", "flashinfer", "flashinfer_inplace") and (
            "sections" in change or "cache_mode" in change):
        face = "op"  # these have no sections or cache mode
    tensors = [a for a in args if isinstance(a, torch.Tensor)]
    _expect_error(f"{name} ({face})", lambda: _rope_call(face, bad, *args), *tensors)
    if face == "op" and r.q.shape[0] > 1 and rng.random() < 0.5:  # overlapping in place
        q = r.q.clone()
        qq = q.as_strided(q.shape, (0,) + q.stride()[1:])
        pos = r.pos if r.sections is None else r.pos[0]
        _expect_error("overlapping query",
                      lambda: ops.rotary_embedding(pos, qq, None, r.hs, r.cache, r.is_neox), q)
    if rng.random() < 0.3:
        _expect_error("npu_mrope rotary_mode",
                      lambda: rt.npu_mrope(r.pos, r.q, r.k, r.cache, r.hs,
                                           mrope_section=r.sections, rotary_mode="sideways"),
                      *[t for t in (r.pos, r.q, r.k, r.cache) if t is not None])
    return f"rope invalid {name} {face}"


KINDS = [(_pr_valid, 35), (_rope_valid, 35), (_pr_invalid, 15), (_rope_invalid, 15)]


@pytest.mark.parametrize("case", range(CASES), ids=lambda i: f"case_{i}")
def test_random_case(case):
    rng = random.Random(SEED * 100003 + case)
    kind = rng.choices([k for k, _ in KINDS], weights=[w for _, w in KINDS])[0]
    kind(rng)
