"""torch.ops.ropekit.interleave_rope (InterleaveRope) and ropekit.torch_npu.npu_interleave_rope:
results against DeepSeek-V2's MLA rotary as its modeling code writes it (the interleaved
head viewed as [D/2, 2], transposed, then rotate_half), in plain torch in float64, for
every dtype, several D and broadcasts; autograd (gradcheck and gradgradcheck in float64,
cos and sin requiring grad; the coefficient gradients against autograd through the
reference); opcheck, torch.compile(fullgraph=True) and torch.export; the eager, fake and C
messages of refused calls alike; and npu_interleave_rope refusing, with aclnnInterleaveRope's
message, each kind of call CANN refuses while torch.ops.ropekit takes the superset."""
import pytest
import torch

import refs
import ropekit.torch  # noqa: F401
from conftest import DTYPES, assert_unchanged, make, snapshot
from test_torch_graph import _loss
from test_torch_rotary_mul import c_rotary_mul
from test_torch_rules import _check
from ropekit import torch_npu
from ropekit.torch import _args

ops = torch.ops.ropekit


# ---- DeepSeek-V2's apply_rotary_pos_emb (modeling_deepseek.py), plain torch ----


def _rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


def _deinterleave(q):
    """view(..., D/2, 2).transpose(-1, -2): the even elements first, then the odd ones."""
    *lead, d = q.shape
    return q.view(*lead, d // 2, 2).transpose(-1, -2).reshape(*lead, d)


def deepseek_rope(q, cos, sin):
    """q [..., D] interleaved, de-interleaved, then q * cos + rotate_half(q) * sin; cos and
    sin broadcast to q."""
    q = _deinterleave(q)
    return q * cos + _rotate_half(q) * sin


def _reference(x, c, s):
    """(out, mag) in float64: mag = |q * cos| + |rotate_half(q) * sin| for tolerances."""
    x, c, s = x.double(), c.double(), s.double()
    q = _deinterleave(x)
    return deepseek_rope(x, c, s), (q * c).abs() + (_rotate_half(q) * s).abs()


def _deepseek_cos_sin(seq, d, dtype, base=10000.0):
    """DeepSeekV2RotaryEmbedding's tables: [S, D], the frequencies repeated (cat)."""
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    freqs = torch.outer(torch.arange(seq, dtype=torch.float64), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos().to(dtype), emb.sin().to(dtype)


# ---- results ----


@pytest.mark.parametrize("dtype", DTYPES + [torch.float64])
@pytest.mark.parametrize("d", [64, 32, 128])
def test_matches_deepseek_mla(dtype, d):
    b, n, seq = 2, 3, 5
    x = make((b, n, seq, d), dtype, 1)
    cos, sin = _deepseek_cos_sin(seq, d, dtype)
    pos = torch.tensor([[4, 0, 2, 1, 3], [0, 1, 2, 3, 4]])
    c, s = cos[pos].unsqueeze(1), sin[pos].unsqueeze(1)  # [B, 1, S, D], as DeepSeek indexes
    before = snapshot(x, c, s)
    out = ops.interleave_rope(x, c, s)
    assert out.dtype == dtype and out.shape == x.shape
    want, mag = _reference(x, c, s)
    refs.assert_close(out, want, mag, dtype)
    assert_unchanged(before, x, c, s)  # out of place
    assert torch.equal(out, ops.rotary_mul(x, c, s, "interleave-half"))


@pytest.mark.parametrize("cs_shape", [(2, 1, 1, 16), (1, 1, 5, 16), (5, 16), (16,),
                                      (2, 3, 5, 16)], ids=["B11D", "11SD", "SD", "D", "BNSD"])
def test_broadcasts_and_ranks_of_the_superset(cs_shape):
    x = make((2, 3, 5, 16), torch.float32, 2)
    c, s = make(cs_shape, torch.float32, 3), make(cs_shape, torch.float32, 4)
    want, mag = _reference(x, c, s)
    refs.assert_close(ops.interleave_rope(x, c, s), want, mag, torch.float32)
    # rank 3 and a strided view
    x3 = make((4, 6, 32), torch.bfloat16, 5).transpose(0, 1)
    c3 = make((6, 1, 32), torch.bfloat16, 6)
    want, mag = _reference(x3, c3, c3)
    refs.assert_close(ops.interleave_rope(x3, c3, c3), want, mag, torch.bfloat16)


def test_mixed_dtypes():
    x = make((2, 4, 3, 64), torch.bfloat16, 7)
    c, s = make((2, 1, 3, 64), torch.float32, 8), make((2, 1, 3, 64), torch.float32, 9)
    out = ops.interleave_rope(x, c, s)
    assert out.dtype == torch.bfloat16
    want, mag = _reference(x, c, s)
    refs.assert_close(out, want, mag, torch.bfloat16)


# ---- autograd ----


@pytest.mark.parametrize("cs_shape", [(2, 1, 1, 8), (3, 8)], ids=["B11D", "SD"])
def test_gradcheck(cs_shape):
    x = make((2, 2, 3, 8), torch.float64, 10).requires_grad_()
    c = make(cs_shape, torch.float64, 11).requires_grad_()
    s = make(cs_shape, torch.float64, 12).requires_grad_()
    assert torch.autograd.gradcheck(ops.interleave_rope, (x, c, s))
    assert torch.autograd.gradgradcheck(ops.interleave_rope, (x, c, s))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_gradients_match_autograd_of_the_reference(dtype):
    """dx, dcos, dsin against autograd through DeepSeek's code in float64 (dcos, dsin summed
    over N and the broadcast B); and float32 close to the same code's autograd in float32."""
    x = make((3, 4, 5, 64), dtype, 13).requires_grad_()
    c = make((1, 1, 5, 64), dtype, 14).requires_grad_()
    s = make((1, 1, 5, 64), dtype, 15).requires_grad_()
    g = make((3, 4, 5, 64), dtype, 16)
    ops.interleave_rope(x, c, s).backward(g)
    x64, c64, s64 = (t.detach().double().requires_grad_() for t in (x, c, s))
    deepseek_rope(x64, c64, s64).backward(g.double())
    tol = 1e-5 if dtype == torch.float32 else 8e-3
    for got, want in ((x.grad, x64.grad), (c.grad, c64.grad), (s.grad, s64.grad)):
        assert got.dtype == dtype and got.shape == want.shape
        assert torch.allclose(got.double(), want, rtol=tol, atol=tol * want.abs().max())
    if dtype == torch.float32:
        x2, c2, s2 = (t.detach().clone().requires_grad_() for t in (x, c, s))
        deepseek_rope(x2, c2, s2).backward(g)
        for a, b in ((x, x2), (c, c2), (s, s2)):
            torch.testing.assert_close(a.grad, b.grad, rtol=1e-5, atol=1e-5)


def test_x_saved_only_when_coefficients_need_grad():
    x = make((1, 2, 3, 8), torch.float32, 17).requires_grad_()
    c = make((1, 1, 3, 8), torch.float32, 18)
    y = ops.interleave_rope(x, c, c)
    assert all(t is not x for t in y.grad_fn.saved_tensors if t is not None)
    y.backward(torch.ones_like(y))
    want, mag = refs.partial_rotary_backward(torch.ones_like(y), c, c, "interleave-half", 0, 8)
    refs.assert_close(x.grad, want, mag, torch.float32)


# ---- the rules of the superset: eager, fake and C say the same ----


def _ir(x=None, c=None, s=None):
    x = make((2, 3, 4, 16), torch.float32, 19) if x is None else x
    c = make((2, 1, 4, 16), torch.float32, 20) if c is None else c
    return (x, c, c.clone() if s is None else s), {}


IR_OPS = ("interleave_rope",)
IR_CASES = [
    ("X_DTYPE", "int32 x", IR_OPS, lambda: _ir(torch.zeros(2, 3, 4, 16, dtype=torch.int32)),
     "x dtype = 3", False),
    ("CS_SHAPE", "sin shape", IR_OPS, lambda: _ir(s=make((1, 1, 4, 16), torch.float32, 21)),
     "sin shape = [1,1,4,16]: must equal cos shape [2,1,4,16]", False),
    ("L_MULTIPLE", "odd D", IR_OPS,
     lambda: _ir(make((2, 3, 4, 7), torch.float32, 22), make((2, 1, 4, 7), torch.float32, 23)),
     "must be a multiple of 2 in interleave-half mode", False),
    ("BROADCAST", "cos dim 1", IR_OPS, lambda: _ir(c=make((2, 2, 4, 16), torch.float32, 24)),
     "dim 1 is 2, must be 1 or x's 3", False),
    ("CS_LEN", "cos last dim", IR_OPS, lambda: _ir(c=make((2, 1, 4, 8), torch.float32, 25)),
     "must equal the slice length 16", False),
]


@pytest.mark.parametrize("op,case", [pytest.param(op, c, id=f"{c[0]}-{c[1]}")
                                     for c in IR_CASES for op in c[2]])
def test_interleave_rope_rule(op, case):
    _check(op, case, lambda _op, x, c, s: c_rotary_mul("rotary_mul", x, c, s,
                                                        "interleave-half"))


def test_other_devices_are_named(monkeypatch):
    # no accelerator here: with meta tensors refused, the device check is the one that fires
    monkeypatch.setattr(_args, "FAKE_DEVICES", ("cpu",))
    x = torch.empty(2, 3, 4, 16, device="meta")
    with pytest.raises(RuntimeError, match="ropekit.interleave_rope: x device = meta: ropekit "
                                           "runs on the CPU"):
        ops.interleave_rope(x, x[:, :1], x[:, :1])
    with pytest.raises(RuntimeError, match="ropekit.rotary_mul_grad: grad_output device = meta"):
        ops.rotary_mul_grad(x, x[:, :1], x[:, :1], x)


# ---- graph capture ----


def _inputs(grad, dtype=torch.float32):
    x = make((2, 4, 3, 64), dtype, 26).requires_grad_(grad)
    c = make((2, 1, 3, 64), dtype, 27).requires_grad_(grad)
    s = make((2, 1, 3, 64), dtype, 28).requires_grad_(grad)
    return x, c, s


def test_opcheck():
    torch.library.opcheck(ops.interleave_rope.default, _inputs(True))


class MLARope(torch.nn.Module):
    """q_pe and k_pe of MLA through the op, then a product of the two."""

    def forward(self, q, k, c, s):
        qo, ko = ops.interleave_rope(q, c, s), ops.interleave_rope(k, c, s)
        return qo, ko, qo @ ko.transpose(-1, -2)


def _mla_inputs(grad):
    q, c, s = _inputs(grad)
    k = make((2, 1, 3, 64), torch.float32, 29).requires_grad_(grad)
    return q, k, c, s


def test_compile_fullgraph_forward_and_backward_match_eager():
    torch._dynamo.reset()
    m = MLARope()
    eager_in, comp_in = _mla_inputs(True), _mla_inputs(True)
    eager = m(*eager_in)
    _loss(eager).backward()
    outs = torch.compile(m, fullgraph=True)(*comp_in)
    _loss(outs).backward()
    for a, b in zip(eager[:2], outs[:2]):
        assert torch.equal(a, b)
    torch.testing.assert_close(eager[2], outs[2])
    for a, b in zip(eager_in, comp_in):
        torch.testing.assert_close(a.grad, b.grad, rtol=1e-5, atol=1e-5)


def test_export_keeps_the_op_one_node():
    m = MLARope()
    ep = torch.export.export(m, _mla_inputs(False))
    targets = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
    assert targets.count("ropekit.interleave_rope.default") == 2, targets
    for a, b in zip(m(*_mla_inputs(False)), ep.module()(*_mla_inputs(False))):
        assert torch.equal(a, b)


# ---- ropekit.torch_npu.npu_interleave_rope: CANN's rules ----


def test_npu_interleave_rope_doc_example():
    x = make((32, 32, 1, 64), torch.float16, 30)
    cos, sin = make((32, 1, 1, 64), torch.float16, 31), make((32, 1, 1, 64), torch.float16, 32)
    out = torch_npu.npu_interleave_rope(x, cos, sin)
    want, mag = _reference(x, cos, sin)
    refs.assert_close(out, want, mag, torch.float16)
    assert torch.equal(out, ops.interleave_rope(x, cos, sin))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16])
def test_npu_interleave_rope_with_deepseek_tables(dtype):
    x = make((2, 16, 7, 64), dtype, 33).requires_grad_()
    cos, sin = _deepseek_cos_sin(7, 64, dtype)
    c, s = cos.expand(2, 1, 7, 64).contiguous(), sin.expand(2, 1, 7, 64).contiguous()
    out = torch_npu.npu_interleave_rope(x, c, s)
    want, mag = _reference(x.detach(), c, s)
    refs.assert_close(out, want, mag, dtype)
    out.sum().backward()
    assert x.grad is not None and x.grad.dtype == dtype


def _base(dtype=torch.float16, x=(2, 4, 3, 64), cs=(2, 1, 3, 64)):
    return make(x, dtype, 34), make(cs, dtype, 35), make(cs, dtype, 36)


# (case id, inputs, message piece, whether torch.ops.ropekit takes the call)
REFUSALS = [
    ("x dtype", lambda: _base(torch.float32), "x dtype = 0: must be float16 or bfloat16", True),
    ("cos dtype", lambda: (lambda x, c, s: (x, c.bfloat16(), s.bfloat16()))(*_base()),
     "dtypes", True),
    ("sin dtype", lambda: (lambda x, c, s: (x, c, s.bfloat16()))(*_base()), "sin dtype", False),
    ("x rank", lambda: tuple(t[0] for t in _base()), "must be 4-D", True),
    ("D", lambda: _base(x=(2, 4, 3, 128), cs=(2, 1, 3, 128)), "D = 128: must be 64", True),
    ("cos N", lambda: _base(x=(2, 4, 3, 64), cs=(2, 4, 3, 64)), "dim 1 is 4, must be 1", True),
    ("cos B", lambda: _base(cs=(1, 1, 3, 64)), "dim 0 is 1, must be x's 2", True),
    ("cos S", lambda: _base(cs=(2, 1, 2, 64)), "dim 2 is 2, must be 1 or x's 3", False),
    ("cos D", lambda: _base(cs=(2, 1, 3, 32)), "cos last dim = 32", False),
    ("sin shape", lambda: (lambda x, c, s: (x, c, s[:, :, :1]))(*_base()), "sin shape", False),
    ("empty x", lambda: _base(x=(2, 4, 0, 64), cs=(2, 1, 1, 64)), "every dim must be > 0",
     True),
]


@pytest.mark.parametrize("make_inputs,piece,superset",
                         [pytest.param(r[1], r[2], r[3], id=r[0]) for r in REFUSALS])
def test_npu_interleave_rope_refuses_what_cann_refuses(make_inputs, piece, superset):
    x, c, s = make_inputs()
    before = snapshot(x, c, s)
    with pytest.raises(ValueError) as err:
        torch_npu.npu_interleave_rope(x, c, s)
    text = str(err.value)
    assert text.startswith("ropekit.torch_npu.npu_interleave_rope: "), text
    assert piece in text, (piece, text)
    assert_unchanged(before, x, c, s)
    if superset:
        want, mag = _reference(x, c, s)
        refs.assert_close(ops.interleave_rope(x, c, s), want, mag, x.dtype)
    else:
        with pytest.raises(ValueError, match="ropekit.interleave_rope: "):
            ops.interleave_rope(x, c, s)


def test_npu_interleave_rope_argument_types():
    x, c, s = _base()
    with pytest.raises(TypeError, match="ropekit.torch_npu.npu_interleave_rope: sin = list"):
        torch_npu.npu_interleave_rope(x, c, [0.0] * 64)


def test_npu_interleave_rope_under_torch_compile():
    torch._dynamo.reset()
    x, c, s = _base(torch.bfloat16)
    f = torch.compile(lambda x, c, s: torch_npu.npu_interleave_rope(x, c, s) * 2.0)
    assert torch.equal(f(x, c, s), torch_npu.npu_interleave_rope(x, c, s) * 2.0)
