"""rope_with_sin_cos_cache on batched token dims ([B, S] positions; [B, S, H*D] and
[B, S, H, D] query/key, Hugging Face's [B, H, S, D] passed as its transpose) and with
offsets: bit for bit the call on the same tokens flattened to [T] with positions +
offsets; forward, backward and autograd; the vLLM-style modules' offsets argument; and
the new argument errors, with nothing written."""
import pytest
import torch

import ropekit.torch  # noqa: F401
from conftest import assert_unchanged, make, snapshot
from ropekit.torch import MRotaryEmbedding, RotaryEmbedding

ops = torch.ops.ropekit
B, S, HQ, HK, HS, ROT, M = 2, 5, 4, 2, 32, 24, 50
SECTIONS = [4, 4, 4]


def _qk(layout, heads, dtype, seed):
    if layout == "flat":
        return make((B, S, heads * HS), dtype, seed)
    if layout == "split":
        return make((B, S, heads, HS), dtype, seed)
    if layout == "hf":  # [B, H, S, D] memory, as Hugging Face keeps it
        return make((B, heads, S, HS), dtype, seed).transpose(1, 2)
    if layout == "strided":
        return make((B, 2 * S, heads * HS + 8), dtype, seed)[:, ::2, 3:3 + heads * HS]
    raise AssertionError(layout)


def _tokens(kind, rows, hi, seed):
    g = torch.Generator().manual_seed(seed)
    lead = (rows,) if rows else ()
    if kind == "dense":
        return torch.randint(0, hi, lead + (B, S), generator=g)
    if kind == "per_batch":  # one value per batch: a zero stride
        return torch.randint(0, hi, lead + (B, 1), generator=g).expand(lead + (B, S))
    raise AssertionError(kind)


def _flat(t):
    return t.reshape(B * S, -1)


def _flat_call(pos, off, q, k, cache, is_neox, sections):
    fpos = pos + (off if off is not None else 0)
    fpos = fpos.reshape(len(sections), B * S) if sections else fpos.reshape(B * S)
    kw = dict(mrope_section=sections) if sections else {}
    return ops.rope_with_sin_cos_cache(fpos, _flat(q), _flat(k), cache, HS, is_neox, **kw)


@pytest.mark.parametrize("layout", ["flat", "split", "hf", "strided"])
@pytest.mark.parametrize("off_kind", [None, "dense", "per_batch"])
@pytest.mark.parametrize("mrope", [False, True], ids=["rope", "mrope"])
@pytest.mark.parametrize("backward", [False, True], ids=["fwd", "bwd"])
def test_batched_equals_flattened(layout, off_kind, mrope, backward):
    dtype = torch.bfloat16 if mrope else torch.float32
    q, k = _qk(layout, HQ, dtype, 1), _qk(layout, HK, dtype, 2)
    rows = len(SECTIONS) if mrope else 0
    pos = _tokens("dense", rows, M // 2, 3)
    off = _tokens(off_kind, 0, M // 2, 4) if off_kind else None
    cache = make((M, ROT), dtype, 5)
    sections = SECTIONS if mrope else None
    op = ops.rope_with_sin_cos_cache_backward if backward else ops.rope_with_sin_cos_cache
    kw = dict(mrope_section=sections) if sections else {}
    qo, ko = op(pos, q, k, cache, HS, True, offsets=off, **kw)
    assert qo.shape == q.shape and ko.shape == k.shape
    if backward:
        fq, fk = ops.rope_with_sin_cos_cache_backward(
            (pos + (off if off is not None else 0)).reshape(*((rows,) if rows else ()), B * S),
            _flat(q), _flat(k), cache, HS, True, **kw)
    else:
        fq, fk = _flat_call(pos, off, q, k, cache, True, sections)
    assert torch.equal(_flat(qo), fq) and torch.equal(_flat(ko), fk)


def test_int32_offsets_and_positions():
    q = _qk("split", HQ, torch.float32, 6)
    pos, off = _tokens("dense", 0, M // 2, 7), _tokens("per_batch", 0, M // 2, 8)
    cache = make((M, ROT), torch.float32, 9)
    a = ops.rope_with_sin_cos_cache(pos, q, None, cache, HS, False, offsets=off)[0]
    b = ops.rope_with_sin_cos_cache(pos.int(), q, None, cache, HS, False, offsets=off.int())[0]
    assert torch.equal(a, b)


def test_autograd_through_offsets_and_batched_views():
    q = _qk("hf", HQ, torch.float64, 10).float().requires_grad_()
    k = _qk("flat", HK, torch.float64, 11).float().requires_grad_()
    pos, off = _tokens("dense", 0, M // 2, 12), _tokens("per_batch", 0, M // 2, 13)
    cache = make((M, ROT), torch.float32, 14)
    qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, HS, True, offsets=off)
    gq, gk = torch.randn_like(qo), torch.randn_like(ko)
    torch.autograd.backward((qo, ko), (gq, gk))
    want_q, want_k = ops.rope_with_sin_cos_cache_backward(pos, gq, gk, cache, HS, True,
                                                          offsets=off)
    assert torch.equal(q.grad, want_q) and torch.equal(k.grad, want_k)
    # a rotation's gradient is its transpose: <R x, g> == <x, R^T g>
    lhs = (qo.double() * gq.double()).sum()
    rhs = (q.detach().double() * want_q.double()).sum()
    assert torch.allclose(lhs, rhs, rtol=1e-5)


def test_gradcheck_with_offsets():
    q = make((B, S, 2, HS), torch.float64, 15).float().requires_grad_()
    pos, off = _tokens("dense", 0, M // 2, 16), _tokens("per_batch", 0, M // 2, 17)
    cache = make((M, ROT), torch.float32, 18)

    def f(x):
        return ops.rope_with_sin_cos_cache(pos, x, None, cache, HS, False, offsets=off)[0]

    assert torch.autograd.gradcheck(f, (q,), eps=1e-2, atol=1e-2, rtol=1e-2)


def test_modules_take_offsets():
    rot = RotaryEmbedding(HS, ROT, M, 10000.0, True)
    q, k = _qk("split", HQ, torch.float32, 19), _qk("flat", HK, torch.float32, 20)
    pos, off = _tokens("dense", 0, M // 2, 21), _tokens("per_batch", 0, M // 2, 22)
    qo, ko = rot(pos, q, k, offsets=off)
    wq, wk = rot(pos + off, q, k)
    assert torch.equal(qo, wq) and torch.equal(ko, wk)
    assert torch.equal(rot(pos, q, k)[0], rot(pos, q, k, None)[0])
    mrot = MRotaryEmbedding(HS, ROT, M, 10000.0, True, mrope_section=SECTIONS)
    mpos = _tokens("dense", 3, M // 2, 23)
    qo, _ = mrot(mpos, q, None, offsets=off)
    assert torch.equal(qo, mrot(mpos + off, q, None)[0])


def _error_inputs():
    q, k = make((B, S, HQ * HS), torch.float32, 24), make((B, S, HK, HS), torch.float32, 25)
    pos = _tokens("dense", 0, M // 2, 26)
    return pos, q, k, make((M, ROT), torch.float32, 27)


# The library's messages (the op named in place of its C function's), and its statuses as
# exceptions: every broken rule here is ROPEKIT_INVALID_ARGUMENT, a ValueError.
ERRORS = [
    ("key batch", lambda p, q, k, c: (p, q, k[:1], c, {}), ValueError,
     "keyIn shape[0] = 1: must equal queryIn shape[0] = 2 (token dims [B, S])"),
    ("key seq", lambda p, q, k, c: (p, q, k[:, :4], c, {}), ValueError,
     "keyIn shape[1] = 4: must equal queryIn shape[1] = 5"),
    ("query rank for [B, S]", lambda p, q, k, c: (p, q.reshape(B * S, -1), None, c, {}),
     ValueError, "queryIn shape = [10,128]: must be 3-D [B, S, H*headSize] or 4-D"),
    ("positions rank 3", lambda p, q, k, c: (p[..., None], q, k, c, {}), ValueError,
     "positions shape = [2,5,1]: must be [T] or [B, S] for rope"),
    ("positions seq", lambda p, q, k, c: (p[:, :4], q[:, :5], k, c, {}), ValueError,
     "positions shape = [2,4]: must be [2,5]"),
    ("offsets float", lambda p, q, k, c: (p, q, k, c, dict(offsets=p.float())), ValueError,
     "offsets dtype = 0: must be int64"),
    ("offsets shape", lambda p, q, k, c: (p, q, k, c, dict(offsets=p[:, 0])), ValueError,
     "offsets shape = [2]: must be [2,5], the token dims of positions"),
    ("offsets not a tensor", lambda p, q, k, c: (p, q, k, c, dict(offsets=[1, 2])),
     (TypeError, RuntimeError), "offsets"),
]


@pytest.mark.parametrize("what,make_args,exc,text", ERRORS, ids=[e[0] for e in ERRORS])
def test_argument_errors(what, make_args, exc, text):
    pos, q, k, cache, kw = make_args(*_error_inputs())
    before = snapshot(pos, q, k, cache)
    with pytest.raises(exc) as info:
        ops.rope_with_sin_cos_cache(pos, q, k, cache, HS, True, **kw)
    assert text in str(info.value), str(info.value)
    if exc is ValueError:
        assert str(info.value).startswith("ropekit.rope_with_sin_cos_cache: "), str(info.value)
    assert_unchanged(before, pos, q, k, cache)


def test_position_plus_offset_out_of_range_writes_nothing():
    pos, q, k, cache = _error_inputs()
    off = torch.zeros_like(pos)
    off[1, 3] = M - pos[1, 3]
    q2, k2 = q.clone(), k.clone()
    before = snapshot(q2, k2)
    with pytest.raises(IndexError) as info:
        ops.rotary_embedding(pos + off, q2, k2, HS, cache, True)
    assert "maxSeqLen" in str(info.value)
    with pytest.raises(IndexError) as info:
        ops.rope_with_sin_cos_cache(pos, q, k, cache, HS, True, offsets=off)
    assert "offsets[1][3]" in str(info.value)
    assert_unchanged(before, q2, k2)


def test_rotary_embedding_in_place_on_batched_views():
    q, k = _qk("hf", HQ, torch.float32, 28), _qk("split", HK, torch.float32, 29)
    pos = _tokens("dense", 0, M, 30)
    cache = make((M, ROT), torch.float32, 31)
    want_q, want_k = ops.rope_with_sin_cos_cache(pos, q, k, cache, HS, False)
    ops.rotary_embedding(pos, q, k, HS, cache, False)
    assert torch.equal(q, want_q) and torch.equal(k, want_k)
