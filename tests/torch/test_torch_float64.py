"""float64 through the torch ops: computed in double by the library, so
torch.autograd.gradcheck and gradgradcheck pass at their default tolerances for every op
(functional, CANN's in place, vLLM's rotary_embedding), every rotary mode and rope
style, rope and mrope; the values match the float64 references; float64 pairs with
float64 only. Runs with the Python kernels and again with the C++ ones (CMakeLists)."""
import pytest
import torch

import ropekit.torch  # noqa: F401
from ropekit.torch import _ops, extension_loaded
from conftest import make
import refs

ops = torch.ops.ropekit
F64 = torch.float64
MODES = ("half", "interleave", "quarter", "interleave-half")
ROPES = [(None, 0), ([2, 3, 3], 0), ([2, 3, 3], 1)]  # rope, mrope, interleaved mrope


def _pr(seed, x_shape=(2, 3, 2, 12), cs_shape=(3, 1, 8)):
    x = make(x_shape, F64, seed, -2.0, 2.0).requires_grad_()
    return x, make(cs_shape, F64, seed + 1), make(cs_shape, F64, seed + 2)


@pytest.mark.parametrize("mode", MODES)
def test_partial_rotary_gradcheck(mode):
    x, c, s = _pr(10 + MODES.index(mode))
    kw = dict(rotary_mode=mode, partial_slice=[2, 10])
    for name in ("partial_rotary_mul", "partial_rotary_mul_backward"):
        f = lambda t, op=getattr(ops, name): op(t, c, s, **kw)  # noqa: E731
        assert torch.autograd.gradcheck(f, (x,))
        assert torch.autograd.gradgradcheck(f, (x,))

    def inplace(t, op):
        y = t * 1.0
        op(y, c, s, **kw)
        return y

    for op in (ops.inplace_partial_rotary_mul, ops.inplace_partial_rotary_mul_backward):
        assert torch.autograd.gradcheck(lambda t, op=op: inplace(t, op), (x,))
        assert torch.autograd.gradgradcheck(lambda t, op=op: inplace(t, op), (x,))


def _rope_inputs(seed, sections):
    q = make((4, 2 * 16), F64, seed, -2.0, 2.0).requires_grad_()
    k = make((4, 1, 16), F64, seed + 1, -2.0, 2.0).requires_grad_()
    cache = make((9, 16), F64, seed + 2)
    g = torch.Generator().manual_seed(seed)
    pos = torch.randint(0, 9, (4,) if sections is None else (len(sections), 4), generator=g)
    return pos, q, k, cache


@pytest.mark.parametrize("sections,cache_mode", ROPES, ids=("rope", "mrope", "mrope1"))
@pytest.mark.parametrize("neox", (True, False), ids=("neox", "gptj"))
def test_rope_gradcheck(neox, sections, cache_mode):
    pos, q, k, cache = _rope_inputs(20 + neox + 2 * ROPES.index((sections, cache_mode)),
                                    sections)
    kw = dict(mrope_section=sections, cache_mode=cache_mode)
    for name in ("rope_with_sin_cos_cache", "rope_with_sin_cos_cache_backward"):
        f = lambda a, b, op=getattr(ops, name): op(pos, a, b, cache, 16, neox, **kw)  # noqa
        assert torch.autograd.gradcheck(f, (q, k))
        assert torch.autograd.gradgradcheck(f, (q, k))
    if sections is None:  # vLLM's in-place op (plain rope)
        def rotary_embedding(a, b):
            a, b = a * 1.0, b * 1.0
            ops.rotary_embedding(pos, a, b, 16, cache, neox)
            return a, b

        assert torch.autograd.gradcheck(rotary_embedding, (q, k))
        assert torch.autograd.gradgradcheck(rotary_embedding, (q, k))


@pytest.mark.parametrize("mode", MODES)
def test_partial_rotary_values(mode):
    x, c, s = _pr(30, (3, 4, 2, 40), (4, 1, 12))
    x = x.detach()
    xs = x[..., ::2]  # a strided view: every other column
    for backward in (False, True):
        name = "partial_rotary_mul_backward" if backward else "partial_rotary_mul"
        got = getattr(ops, name)(xs, c, s, rotary_mode=mode, partial_slice=[6, 18])
        ref = refs.partial_rotary_backward if backward else refs.partial_rotary
        want, mag = ref(xs, c, s, mode, 6, 18)
        mask = torch.ones_like(xs, dtype=torch.bool)
        mask[..., 6:18] = False
        refs.assert_close(got, want, mag, F64, passthrough=(mask, xs))
        y = xs.clone()  # in place gives the functional result
        getattr(ops, "inplace_" + name)(y, c, s, rotary_mode=mode, partial_slice=[6, 18])
        assert torch.equal(y.view(torch.int64), got.view(torch.int64))


@pytest.mark.parametrize("sections,cache_mode", ROPES, ids=("rope", "mrope", "mrope1"))
@pytest.mark.parametrize("neox", (True, False), ids=("neox", "gptj"))
def test_rope_values(neox, sections, cache_mode):
    hs, rot = 24, 16  # a pass-through tail
    g = torch.Generator().manual_seed(40)
    pos = torch.randint(0, 9, (5,) if sections is None else (3, 5), generator=g)
    qkv = make((5, 4 * hs), F64, 41, -2.0, 2.0)
    q, k = qkv[:, :2 * hs], qkv[:, 2 * hs:3 * hs]  # views of a fused buffer
    cache = make((9, rot), F64, 42)
    qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, hs, neox, mrope_section=sections,
                                         cache_mode=cache_mode)
    for got, x in ((qo, q), (ko, k)):
        want, mag = refs.rope(pos, x, cache, hs, neox, sections, cache_mode)
        mask = torch.zeros(x.shape[0], x.shape[1] // hs, hs, dtype=torch.bool)
        mask[..., rot:] = True
        refs.assert_close(got, want, mag, F64, passthrough=(mask.reshape(x.shape), x))
    if sections is None:
        a, b = q.clone(), k.clone()
        ops.rotary_embedding(pos, a, b, hs, cache, neox)
        assert torch.equal(a, qo) and torch.equal(b, ko)


def test_float64_pairs_with_float64_only():
    # the library's rule and message; its status, ROPEKIT_INVALID_ARGUMENT, is a ValueError
    x, c, s = _pr(50)
    x = x.detach()
    for args, piece in (((x, c.float(), s.float()), "(x, cos) dtypes = (f64, f32)"),
                        ((x.float(), c, s), "(x, cos) dtypes = (f32, f64)")):
        with pytest.raises(ValueError, match="float64 goes with float64 only") as info:
            ops.partial_rotary_mul(*args, partial_slice=[2, 10])
        assert piece in str(info.value)
    pos, q, k, cache = _rope_inputs(51, None)
    q, k = q.detach(), k.detach()
    for args, piece in (((q, k, cache.float()), "cosSinCache dtype = f32"),
                        ((q.float(), k.float(), cache), "cosSinCache dtype = f64")):
        with pytest.raises(ValueError, match="float64 goes with float64 only") as info:
            ops.rope_with_sin_cos_cache(pos, *args, 16, True)
        assert piece in str(info.value)


@pytest.mark.skipif(not extension_loaded(), reason="the C++ kernels are not loaded")
def test_cpp_kernels_take_float64():
    """The C++ kernels run float64 themselves and give the Python kernels' bytes."""
    x, c, s = _pr(60)
    x = x.detach()
    kw = dict(rotary_mode="interleave-half", partial_slice=[2, 10])
    assert torch.equal(ops.partial_rotary_mul(x, c, s, **kw),
                       _ops.CPU_KERNELS["partial_rotary_mul"](x, c, s, **kw))
    pos, q, k, cache = _rope_inputs(61, [2, 3, 3])
    kw = dict(mrope_section=[2, 3, 3], cache_mode=1)
    got = ops.rope_with_sin_cos_cache(pos, q.detach(), k.detach(), cache, 16, False, **kw)
    want = _ops.CPU_KERNELS["rope_with_sin_cos_cache"](pos, q.detach(), k.detach(), cache, 16,
                                                       False, **kw)
    assert all(torch.equal(a, b) for a, b in zip(got, want))


def test_rotary_embedding_module_float64():
    rope = ropekit.torch.RotaryEmbedding(32, 16, 64, 10000.0, True, dtype=F64)
    assert rope.cos_sin_cache.dtype == F64
    pos = torch.tensor([0, 5, 63])
    q = make((3, 2 * 32), F64, 70).requires_grad_()
    assert torch.autograd.gradcheck(lambda a: rope(pos, a)[0], (q,))
