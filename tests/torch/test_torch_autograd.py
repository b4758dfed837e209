"""Autograd of every op: CANN's training example as written, torch's in-place rules
(leaf error, version counter, saved tensors modified later), gradcheck and
gradgradcheck, the adjoint identity, and a shared incoming gradient left intact."""
import pytest
import torch

import ropekit.torch  # noqa: F401
from cann_ops_transformer.ops import inplace_partial_rotary_mul
from conftest import make

ops = torch.ops.ropekit
# float32 gradcheck: finite differences with eps 1e-3 see float32 rounding of ~1e-7
# relative in outputs of magnitude ~1, divided by eps.
GRADCHECK = dict(eps=1e-3, atol=2e-3, rtol=2e-3)


def test_cann_training_example_on_cpu():
    # CANN's torch API doc, "training mode", with device="npu" changed to "cpu".
    B, S, N, D = 2, 32, 8, 128
    slice_start, slice_end = 0, 64
    x = torch.randn(B, S, N, D, device="cpu", dtype=torch.float16, requires_grad=True)
    r1 = torch.randn(B, S, 1, slice_end - slice_start, device="cpu", dtype=torch.float16)
    r2 = torch.randn(B, S, 1, slice_end - slice_start, device="cpu", dtype=torch.float16)
    y = x * 1.0
    y.retain_grad()
    inplace_partial_rotary_mul(y, r1, r2, rotary_mode="interleave",
                               partial_slice=[slice_start, slice_end])
    loss = y.sum()
    loss.backward()
    assert y.grad.shape == x.shape and x.grad.shape == x.shape
    assert r1.grad is None and r2.grad is None
    assert torch.equal(y.grad, torch.ones_like(y))  # dL/dy of a sum
    # dL/dx = the backward rotation of ones: c + the pair's s with its sign
    ones = torch.ones_like(x)
    want = ops.partial_rotary_mul_backward(ones, r1, r2, rotary_mode="interleave",
                                           partial_slice=[0, 64])
    assert torch.equal(x.grad, want)
    assert torch.equal(x.grad[..., 64:], ones[..., 64:])


def test_leaf_requiring_grad_is_rejected():
    x = torch.randn(1, 2, 2, 8, requires_grad=True)
    c = torch.randn(1, 2, 1, 8)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        ops.inplace_partial_rotary_mul(x, c, c, partial_slice=[0, 8])
    q = torch.randn(2, 64, requires_grad=True)
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        ops.rotary_embedding(torch.tensor([0, 1]), q, None, 64, torch.randn(4, 64), True)


def test_version_counter_and_saved_tensor_checks():
    x = torch.randn(1, 2, 2, 8, requires_grad=True)
    c, s = torch.randn(1, 2, 1, 8), torch.randn(1, 2, 1, 8)
    y = x * 1.0
    v = y._version
    ops.inplace_partial_rotary_mul(y, c, s, partial_slice=[0, 8])
    assert y._version > v
    z = torch.no_grad()(lambda: y.clone())()
    w = y * 1.0
    ops.inplace_partial_rotary_mul(w, c, s, partial_slice=[0, 8])
    w2 = w * 1.0
    with torch.no_grad():
        c.mul_(2.0)  # a tensor saved for backward, modified afterwards
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        w2.sum().backward()
    v = z._version
    ops.inplace_partial_rotary_mul(z, c, s, partial_slice=[0, 8])  # no grad: in place
    assert z._version > v


def test_gradcheck_and_gradgradcheck():
    x = torch.randn(2, 3, 2, 12, requires_grad=True)
    c, s = torch.randn(2, 3, 1, 8), torch.randn(2, 3, 1, 8)
    for mode in ("interleave", "half", "quarter", "interleave-half"):
        f = lambda t: ops.partial_rotary_mul(t, c, s, rotary_mode=mode, partial_slice=[2, 10])
        assert torch.autograd.gradcheck(f, (x,), **GRADCHECK)
        assert torch.autograd.gradgradcheck(f, (x,), **GRADCHECK)
    q = torch.randn(3, 2 * 32, requires_grad=True)
    k = torch.randn(3, 32, requires_grad=True)
    cache = torch.randn(10, 16)
    pos = torch.tensor([1, 4, 9])
    for neox in (True, False):
        f = lambda a, b: ops.rope_with_sin_cos_cache(pos, a, b, cache, 32, neox)
        assert torch.autograd.gradcheck(f, (q, k), **GRADCHECK)
        assert torch.autograd.gradgradcheck(f, (q, k), **GRADCHECK)
    pos3 = torch.randint(0, 10, (3, 3))
    f = lambda a: ops.rope_with_sin_cos_cache(pos3, a, None, cache, 32, True,
                                              mrope_section=[2, 3, 3])[0]
    assert torch.autograd.gradcheck(f, (q,), **GRADCHECK)


def test_adjoint_identity():
    # <f(x), g> == <x, f_backward(g)> for the linear map f
    x, g = make((3, 4, 2, 32), torch.float32, 1), make((3, 4, 2, 32), torch.float32, 2)
    c, s = make((3, 4, 1, 24), torch.float32, 3), make((3, 4, 1, 24), torch.float32, 4)
    for mode in ("interleave", "half", "quarter", "interleave-half"):
        kw = dict(rotary_mode=mode, partial_slice=[4, 28])
        lhs = (ops.partial_rotary_mul(x, c, s, **kw).double() * g.double()).sum()
        rhs = (x.double() * ops.partial_rotary_mul_backward(g, c, s, **kw).double()).sum()
        assert torch.allclose(lhs, rhs, rtol=1e-5)
    q, gq = make((5, 3 * 64), torch.float32, 5), make((5, 3 * 64), torch.float32, 6)
    cache = make((16, 48), torch.float32, 7)
    pos = torch.randint(0, 16, (5,))
    fq, _ = ops.rope_with_sin_cos_cache(pos, q, None, cache, 64, False)
    bq, _ = ops.rope_with_sin_cos_cache_backward(pos, gq, None, cache, 64, False)
    assert torch.allclose((fq.double() * gq.double()).sum(), (q.double() * bq.double()).sum(),
                          rtol=1e-5)


def test_shared_incoming_gradient_is_not_written():
    # Two branches receive the same gradient tensor; the backward must not rotate it in
    # place (CANN's wrapper does when it is contiguous).
    x = torch.randn(1, 2, 2, 8, requires_grad=True)
    c, s = torch.randn(1, 2, 1, 8), torch.randn(1, 2, 1, 8)
    y = x * 1.0
    ops.inplace_partial_rotary_mul(y, c, s, partial_slice=[0, 8])
    other = x * 2.0
    g = torch.randn(1, 2, 2, 8)
    keep = g.clone()
    torch.autograd.backward([y, other], [g, g])
    assert torch.equal(g, keep), "the incoming gradient was modified"
    want = ops.partial_rotary_mul_backward(keep, c, s, partial_slice=[0, 8]) + 2.0 * keep
    assert torch.allclose(x.grad, want)


def test_in_place_rope_autograd():
    q = torch.randn(4, 2 * 32, requires_grad=True)
    k = torch.randn(4, 32, requires_grad=True)
    cache = torch.randn(8, 32)
    pos = torch.tensor([0, 2, 5, 7])
    a, b = q * 1.0, k * 1.0
    ops.rotary_embedding(pos, a, b, 32, cache, True)
    (a.sum() + 2 * b.sum()).backward()
    gq, gk = ops.rope_with_sin_cos_cache_backward(pos, torch.ones_like(q), 2 * torch.ones_like(k),
                                                  cache, 32, True)
    assert torch.equal(q.grad, gq) and torch.equal(k.grad, gk)
