"""ropekit.torch_npu: torch_npu's npu_rotary_mul and npu_apply_rotary_pos_emb on their
documentation's examples (device "npu" -> "cpu") against the float64 references, CANN's
refusals (the CANN-rules plans) where torch.ops.ropekit accepts, and a Llama-style
attention block written with torch_npu's calls, trained one optimizer step, against the
same block in plain torch."""
import math

import pytest
import torch

import refs
import ropekit.torch
from conftest import assert_unchanged, make, snapshot
from ropekit import torch_npu

ops = torch.ops.ropekit


def test_module_names():
    assert torch_npu.npu_mrope is ropekit.torch.npu_mrope
    assert set(torch_npu.__all__) == {"npu_rotary_mul", "npu_apply_rotary_pos_emb",
                                     "npu_interleave_rope", "npu_mrope"}


# ---- npu_rotary_mul ----


def test_npu_rotary_mul_doc_example():
    x = torch.rand(2, 2, 5, 128)
    r1 = torch.rand(1, 2, 1, 128)
    r2 = torch.rand(1, 2, 1, 128)
    out = torch_npu.npu_rotary_mul(x, r1, r2)
    want, mag = refs.partial_rotary(x, r1, r2, "half", 0, 128)
    refs.assert_close(out, want, mag, torch.float32)


@pytest.mark.parametrize("mode", ["half", "interleave"])
@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16])
@pytest.mark.parametrize("cs_shape", [(1, 6, 1, 64), (2, 6, 1, 64), (2, 6, 3, 64), (1, 1, 3, 64)])
def test_npu_rotary_mul_matches_reference(mode, dtype, cs_shape):
    x = make((2, 6, 3, 64), dtype, 1)
    c, s = make(cs_shape, dtype, 2), make(cs_shape, dtype, 3)
    out = torch_npu.npu_rotary_mul(x, c, s, mode)
    want, mag = refs.partial_rotary(x, c, s, mode, 0, 64)
    refs.assert_close(out, want, mag, dtype)
    assert torch.equal(out, ops.rotary_mul(x, c, s, mode))


def test_npu_rotary_mul_casts_coefficients_to_the_input_dtype():
    # op-plugin casts r1 and r2 to the input's dtype when the dtypes differ (CANN takes one)
    x = make((1, 4, 2, 32), torch.float16, 4)
    c, s = make((1, 4, 1, 32), torch.float32, 5), make((1, 4, 1, 32), torch.float32, 6)
    out = torch_npu.npu_rotary_mul(x, c, s)
    assert out.dtype == torch.float16
    assert torch.equal(out, ops.rotary_mul(x, c.half(), s.half()))
    # and the gradient reaches the float32 coefficients through the cast
    c.requires_grad_()
    torch_npu.npu_rotary_mul(x, c, s).sum().backward()
    assert c.grad.dtype == torch.float32


@pytest.mark.parametrize("args,mode,match", [
    (((2, 6, 64), (1, 6, 64)), "half", "x shape = \\[2,6,64\\]: must be 4-D"),
    (((1, 2, 2, 1026), (1, 2, 1, 1026)), "half", "x last dim D = 1026: must be <= 1024"),
    (((1, 2, 2, 30), (1, 2, 1, 30)), "quarter", "rotary_mode = 'quarter': must be 'half' or "
                                                "'interleave'"),
    (((2, 6, 3, 64), (1, 6, 3, 64)), "half", "broadcasts over dim 0 alone"),
    (((2, 6, 3, 64), (3, 6, 1, 64)), "half", "dim 0 is 3, must be 1 or x's 2"),
])
def test_npu_rotary_mul_refuses_what_cann_refuses(args, mode, match):
    xs, cs = args
    x, c = make(xs, torch.float32, 7), make(cs, torch.float32, 8)
    with pytest.raises(ValueError, match="ropekit.torch_npu.npu_rotary_mul: .*" + match):
        torch_npu.npu_rotary_mul(x, c, c, mode)
    if "broadcasts over" in match or "1024" in match:  # the superset takes these
        ops.rotary_mul(x, c, c, mode)


def test_npu_rotary_mul_float64_is_ropekit_only():
    x, c = make((1, 2, 2, 16), torch.float64, 9), make((1, 2, 1, 16), torch.float64, 10)
    with pytest.raises(ValueError, match="x dtype = 11: must be float32, float16 or bfloat16"):
        torch_npu.npu_rotary_mul(x, c, c)
    ops.rotary_mul(x, c, c)


def test_npu_rotary_mul_argument_types():
    x, c = torch.zeros(1, 2, 2, 16), torch.zeros(1, 2, 1, 16)
    with pytest.raises(TypeError, match="ropekit.torch_npu.npu_rotary_mul: r1 = list"):
        torch_npu.npu_rotary_mul(x, [0.0] * 16, c)
    with pytest.raises(TypeError, match="rotary_mode = 0: must be a str"):
        torch_npu.npu_rotary_mul(x, c, c, 0)


def test_npu_rotary_mul_under_torch_compile():
    torch._dynamo.reset()
    x, c, s = make((2, 6, 3, 64), torch.float32, 11), make((1, 6, 1, 64), torch.float32, 12), \
        make((1, 6, 1, 64), torch.float32, 13)
    f = torch.compile(lambda x, c, s: torch_npu.npu_rotary_mul(x, c, s, "interleave") * 2.0)
    assert torch.equal(f(x, c, s), torch_npu.npu_rotary_mul(x, c, s, "interleave") * 2.0)


# ---- npu_apply_rotary_pos_emb ----


def _apply_inputs(layout, dtype=torch.float32, b=2, s=5, nq=4, nk=2, d=128):
    shapes = {"BSND": ((b, s, nq, d), (b, s, nk, d), (b, s, 1, d)),
              "BSH": ((b, s, nq, d), (b, s, nk, d), (b, s, 1, d)),
              "SBND": ((s, b, nq, d), (s, b, nk, d), (s, b, 1, d)),
              "BNSD": ((b, nq, s, d), (b, nq, s, d), (b, 1, s, d))}[layout]
    return (make(shapes[0], dtype, 14), make(shapes[1], dtype, 15), make(shapes[2], dtype, 16),
            make(shapes[2], dtype, 17))


@pytest.mark.parametrize("layout", ["BSH", "BSND", "SBND", "BNSD"])
@pytest.mark.parametrize("mode", ["half", "interleave", "quarter"])
def test_npu_apply_rotary_pos_emb(layout, mode):
    q, k, c, s = _apply_inputs(layout, torch.bfloat16)
    q0, k0 = q.clone(), k.clone()
    out = torch_npu.npu_apply_rotary_pos_emb(q, k, c, s, layout, mode)
    assert out[0] is q and out[1] is k  # in place, the inputs returned
    for got, x0 in ((q, q0), (k, k0)):
        want, mag = refs.partial_rotary(x0, c, s, mode, 0, 128)
        refs.assert_close(got, want, mag, torch.bfloat16)


def test_npu_apply_rotary_pos_emb_default_layout_is_bsh():
    q, k, c, s = _apply_inputs("BSND")
    q2, k2 = q.clone(), k.clone()
    torch_npu.npu_apply_rotary_pos_emb(q, k, c, s)
    torch_npu.npu_apply_rotary_pos_emb(q2, k2, c, s, "anything")  # op-plugin: layout 1
    assert torch.equal(q, q2) and torch.equal(k, k2)


@pytest.mark.parametrize("change,match", [
    (lambda q, k, c, s: (q[..., :64], k[..., :64], c[..., :64], s[..., :64]), "D"),
    (lambda q, k, c, s: (q.double(), k.double(), c.double(), s.double()), "dtype"),
    (lambda q, k, c, s: (q, k.half(), c, s), "keyRef dtype = 1: must equal queryRef dtype f32"),
    (lambda q, k, c, s: (q, k, c[:1], s[:1]), "cos shape = \\[1,5,1,128\\]"),
    (lambda q, k, c, s: (q[0], k[0], c[0], s[0]), "4-D"),
])
def test_npu_apply_rotary_pos_emb_refuses_what_cann_refuses(change, match):
    q, k, c, s = change(*_apply_inputs("BSND"))
    before = snapshot(q, k)
    with pytest.raises(ValueError, match="ropekit.torch_npu.npu_apply_rotary_pos_emb: .*" + match):
        torch_npu.npu_apply_rotary_pos_emb(q, k, c, s)
    assert_unchanged(before, q, k)


def test_npu_apply_rotary_pos_emb_modes_and_layouts():
    q, k, c, s = _apply_inputs("BSND")
    with pytest.raises(ValueError, match="rotary_mode = 'interleave-half': must be 'half', "
                                         "'quarter' or 'interleave'"):
        torch_npu.npu_apply_rotary_pos_emb(q, k, c, s, "BSND", "interleave-half")
    with pytest.raises(ValueError, match="layout = 4: must be 1 \\(BSND\\), 2 \\(SBND\\), 3"):
        torch_npu.npu_apply_rotary_pos_emb(q, k, c, s, "TND")
    with pytest.raises(TypeError, match="layout = 1: must be a str"):
        torch_npu.npu_apply_rotary_pos_emb(q, k, c, s, 1)


# ---- a Llama-style attention block: torch_npu's calls against plain torch ----


def _rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def _rope_torch(x, cos, sin):
    return x * cos + _rotate_half(x) * sin


class Attention(torch.nn.Module):
    """Llama's attention on [B, S, hidden]: q, k, v projections, RoPE on q and k in BSND
    with cos/sin [1, S, 1, D], grouped-query causal attention, the output projection."""

    def __init__(self, rope, hidden=64, heads=4, kv_heads=2, dtype=torch.float32):
        super().__init__()
        self.rope, self.heads, self.kv_heads, self.d = rope, heads, kv_heads, hidden // heads
        self.q_proj = torch.nn.Linear(hidden, heads * self.d, bias=False, dtype=dtype)
        self.k_proj = torch.nn.Linear(hidden, kv_heads * self.d, bias=False, dtype=dtype)
        self.v_proj = torch.nn.Linear(hidden, kv_heads * self.d, bias=False, dtype=dtype)
        self.o_proj = torch.nn.Linear(heads * self.d, hidden, bias=False, dtype=dtype)

    def forward(self, x, cos, sin):
        b, s, _ = x.shape
        q = self.q_proj(x).view(b, s, self.heads, self.d)
        k = self.k_proj(x).view(b, s, self.kv_heads, self.d)
        v = self.v_proj(x).view(b, s, self.kv_heads, self.d)
        q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        rep = self.heads // self.kv_heads
        k, v = k.repeat_interleave(rep, dim=1), v.repeat_interleave(rep, dim=1)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.d)
        mask = torch.full((s, s), float("-inf"), dtype=x.dtype).triu(1)
        attn = torch.softmax(scores + mask, dim=-1) @ v
        return self.o_proj(attn.transpose(1, 2).reshape(b, s, -1))


def _cos_sin(s, d, dtype, base=10000.0):
    inv_freq = 1.0 / (base ** (torch.arange(0, d, 2, dtype=torch.float64) / d))
    emb = torch.outer(torch.arange(s, dtype=torch.float64), inv_freq)
    emb = torch.cat((emb, emb), dim=-1)
    return emb.cos().to(dtype)[None, :, None, :], emb.sin().to(dtype)[None, :, None, :]


# forward, gradient and updated-parameter tolerances (float64: a few ulps)
_TOL = {torch.float32: dict(rtol=1e-5, atol=1e-6), torch.float64: dict(rtol=1e-12, atol=1e-14)}


# CANN (so torch_npu, so ropekit.torch_npu) has no float64: the float64 block calls
# torch.ops.ropekit.rotary_mul, which has npu_rotary_mul's signature
_ROPES = {torch.float32: torch_npu.npu_rotary_mul, torch.float64: ops.rotary_mul}


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_llama_attention_trains_like_plain_torch(dtype):
    torch.manual_seed(0)
    ref = Attention(_rope_torch, dtype=dtype)
    npu = Attention(_ROPES[dtype], dtype=dtype)
    npu.load_state_dict(ref.state_dict())
    x = make((2, 12, 64), dtype, 18)
    target = make((2, 12, 64), dtype, 19)
    cos, sin = _cos_sin(12, 16, dtype)
    initial = {n: p.detach().clone() for n, p in ref.named_parameters()}
    results = []
    for model in (ref, npu):
        opt = torch.optim.SGD(model.parameters(), lr=0.5)
        out = model(x, cos, sin)
        loss = torch.nn.functional.mse_loss(out, target)
        opt.zero_grad()
        loss.backward()
        grads = {n: p.grad.clone() for n, p in model.named_parameters()}
        opt.step()
        params = {n: p.detach().clone() for n, p in model.named_parameters()}
        results.append((out.detach(), grads, params))
    (out_r, grads_r, params_r), (out_n, grads_n, params_n) = results
    tol = _TOL[dtype]
    torch.testing.assert_close(out_n, out_r, **tol)
    assert set(grads_n) == set(grads_r) == {"q_proj.weight", "k_proj.weight", "v_proj.weight",
                                            "o_proj.weight"}
    for name in grads_r:
        assert grads_r[name].abs().max() > 0, name  # every parameter is trained
        torch.testing.assert_close(grads_n[name], grads_r[name], **tol, msg=name)
        torch.testing.assert_close(params_n[name], params_r[name], **tol, msg=name)
        assert not torch.equal(params_n[name], initial[name]), name  # the step moved it


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
def test_llama_rope_with_trained_coefficients(dtype):
    # cos and sin requiring grad (npu_rotary_mul's dr1, dr2, summed over B and N)
    q = make((2, 12, 4, 16), dtype, 20).requires_grad_()
    cos, sin = (t.clone().requires_grad_() for t in _cos_sin(12, 16, dtype))
    q2, cos2, sin2 = (t.detach().clone().requires_grad_() for t in (q, cos, sin))
    g = make((2, 12, 4, 16), dtype, 21)
    _ROPES[dtype](q, cos, sin).backward(g)
    _rope_torch(q2, cos2, sin2).backward(g)
    for a, b in ((q, q2), (cos, cos2), (sin, sin2)):
        torch.testing.assert_close(a.grad, b.grad, **_TOL[dtype])


def test_bench_npu_baselines_compute_the_calls():
    # the benchmark's eager rows (torch_npu's documented small-op code) do the same work
    from ropekit.torch import bench_npu
    x, c, s = make((2, 6, 3, 64), torch.float32, 22), make((1, 6, 1, 64), torch.float32, 23), \
        make((1, 6, 1, 64), torch.float32, 24)
    torch.testing.assert_close(bench_npu.rotary_mul_half(x, c, s),
                               torch_npu.npu_rotary_mul(x, c, s))
    q, k, cq = make((1, 6, 4, 128), torch.float32, 25), make((1, 6, 2, 128), torch.float32, 26), \
        make((1, 6, 1, 128), torch.float32, 27)
    want = bench_npu.apply_rotary_pos_emb(q, k, cq, cq)
    torch_npu.npu_apply_rotary_pos_emb(q, k, cq, cq, "BSND")
    torch.testing.assert_close((q, k), want)
    xi, ci = make((2, 4, 3, 64), torch.float16, 28), make((2, 1, 3, 64), torch.float16, 29)
    # float16 (CANN's dtype) computed in float32 by the eager code: one rounding, as ropekit
    torch.testing.assert_close(bench_npu.interleave_rope(xi.float(), ci.float(), ci.float()).half(),
                               torch_npu.npu_interleave_rope(xi, ci, ci))
