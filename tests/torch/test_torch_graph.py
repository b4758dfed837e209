"""Graph capture: opcheck of every op (schema, fake kernel, autograd registration,
aliasing), torch.compile(fullgraph=True) forward and backward matching eager,
torch.export keeping each op one node (also after save and load in a fresh process),
torch.fx, and TorchScript trace/script; batched [B, S] tokens with offsets as well."""
import os
import subprocess
import sys

import pytest
import torch

import ropekit.torch  # noqa: F401
from conftest import make

ops = torch.ops.ropekit
PR_KW = dict(rotary_mode="interleave", partial_slice=[2, 10])


def _pr_inputs(grad=False):
    x = make((2, 3, 4, 12), torch.float32, 1)
    c, s = make((2, 3, 1, 8), torch.float32, 2), make((2, 3, 1, 8), torch.float32, 3)
    return x.requires_grad_(grad), c, s


def _rope_inputs(grad=False):
    pos = torch.tensor([3, 0, 7, 1, 5])
    q = make((5, 4 * 32), torch.float32, 4).requires_grad_(grad)
    k = make((5, 2 * 32), torch.float32, 5).requires_grad_(grad)
    return pos, q, k, make((8, 16), torch.float32, 6)


OPCHECKS = {
    "partial_rotary_mul": lambda: (_pr_inputs(True), PR_KW),
    "partial_rotary_mul_backward": lambda: (_pr_inputs(True), PR_KW),
    "inplace_partial_rotary_mul": lambda: (_pr_inputs(False), PR_KW),
    "inplace_partial_rotary_mul_backward": lambda: (_pr_inputs(False), PR_KW),
    "rope_with_sin_cos_cache": lambda: (_rope_inputs(True) + (32, True), {}),
    "rope_with_sin_cos_cache_backward": lambda: (_rope_inputs(True) + (32, False), {}),
    "rotary_embedding": lambda: ((lambda p, q, k, c: (p, q, k, 32, c, True))(
        *_rope_inputs(False)), {}),
}


@pytest.mark.parametrize("name", sorted(OPCHECKS))
def test_opcheck(name):
    args, kwargs = OPCHECKS[name]()
    torch.library.opcheck(getattr(ops, name).default, args, kwargs)


def test_opcheck_mrope_and_query_only():
    pos, q, _, _ = _rope_inputs(True)
    cache = make((8, 32), torch.float32, 7)
    torch.library.opcheck(ops.rope_with_sin_cos_cache.default,
                          (torch.randint(0, 8, (3, 5)), q, None, cache, 32, True),
                          dict(mrope_section=[4, 6, 6], cache_mode=1))


def _batched_inputs(grad=False):
    """[B, S] tokens: a Hugging Face [B, H, S, D] query as its transpose, a flat-heads key,
    offsets with one value per batch (a zero stride)."""
    pos = torch.tensor([[3, 0, 7], [1, 5, 2]])
    off = torch.tensor([[0], [4]]).expand(2, 3)
    q = make((2, 4, 3, 32), torch.float32, 8).transpose(1, 2).requires_grad_(grad)
    k = make((2, 3, 2 * 32), torch.float32, 9).requires_grad_(grad)
    return pos, off, q, k, make((12, 16), torch.float32, 10)


@pytest.mark.parametrize("name", ["rope_with_sin_cos_cache", "rope_with_sin_cos_cache_backward"])
def test_opcheck_batched_with_offsets(name):
    pos, off, q, k, cache = _batched_inputs(True)
    torch.library.opcheck(getattr(ops, name).default, (pos, q, k, cache, 32, True),
                          dict(offsets=off))
    torch.library.opcheck(getattr(ops, name).default,
                          (torch.randint(0, 8, (3, 2, 3)), q, None, cache, 32, False),
                          dict(offsets=off, mrope_section=[2, 3, 3]))


class BatchedModel(torch.nn.Module):
    """The functional op on [B, S] tokens with offsets, then vLLM's in-place op."""

    def forward(self, pos, off, q, k, cache):
        qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, 32, True, offsets=off)
        q2 = qo * 1.0
        ops.rotary_embedding(pos, q2, None, 32, cache, False)
        return qo, ko, q2


def test_batched_compile_and_export_match_eager():
    torch._dynamo.reset()
    m = BatchedModel()
    eager_in, comp_in = _batched_inputs(True), _batched_inputs(True)
    eager = m(*eager_in)
    _loss(eager).backward()
    outs = torch.compile(m, fullgraph=True)(*comp_in)
    _loss(outs).backward()
    for a, b in zip(eager, outs):
        assert torch.equal(a, b)
    for i in (2, 3):
        assert torch.equal(eager_in[i].grad, comp_in[i].grad)
    ep = torch.export.export(m, _batched_inputs(False))
    targets = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
    assert targets.count("ropekit.rope_with_sin_cos_cache.default") == 1, targets
    for a, b in zip(m(*_batched_inputs(False)), ep.module()(*_batched_inputs(False))):
        assert torch.equal(a, b)


class Model(torch.nn.Module):
    """Every op in one module: in place and functional."""

    def forward(self, x, c, s, pos, q, k, cache):
        y = x * 1.0
        ops.inplace_partial_rotary_mul(y, c, s, **PR_KW)
        z = ops.partial_rotary_mul(y, c, s, rotary_mode="half", partial_slice=[0, 8])
        qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, 32, True)
        q2, k2 = q * 1.0, k * 1.0
        ops.rotary_embedding(pos, q2, k2, 32, cache, False)
        return z, qo, ko, q2, k2


def _model_inputs(grad):
    x, c, s = _pr_inputs(grad)
    pos, q, k, cache = _rope_inputs(grad)
    return x, c, s, pos, q, k, cache


def _loss(outs):
    return sum((o * (i + 1)).sum() for i, o in enumerate(outs))


def test_compile_fullgraph_forward_and_backward_match_eager():
    torch._dynamo.reset()
    m = Model()
    eager_in, comp_in = _model_inputs(True), _model_inputs(True)
    eager = m(*eager_in)
    _loss(eager).backward()
    compiled = torch.compile(m, fullgraph=True)
    outs = compiled(*comp_in)
    _loss(outs).backward()
    for a, b in zip(eager, outs):
        assert torch.equal(a, b)
    for i in (0, 4, 5):
        assert torch.equal(eager_in[i].grad, comp_in[i].grad)
    with torch.no_grad():  # the in-place ops in place, without autograd
        for a, b in zip(m(*_model_inputs(False)), compiled(*_model_inputs(False))):
            assert torch.equal(a, b)


def test_export_keeps_each_op_one_node(tmp_path):
    m = Model()
    inputs = _model_inputs(False)
    ep = torch.export.export(m, inputs)
    targets = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
    for name in ("inplace_partial_rotary_mul", "partial_rotary_mul", "rope_with_sin_cos_cache",
                 "rotary_embedding"):
        assert sum(t == f"ropekit.{name}.default" for t in targets) == 1, (name, targets)
    for a, b in zip(m(*_model_inputs(False)), ep.module()(*_model_inputs(False))):
        assert torch.equal(a, b)
    # saved, then loaded and run in a fresh interpreter
    path = tmp_path / "model.pt2"
    torch.export.save(ep, str(path))
    want = [o for o in m(*_model_inputs(False))]
    torch.save(want, str(tmp_path / "want.pt"))
    script = (
        "import sys, torch, ropekit.torch\n"
        f"sys.path.insert(0, {os.path.dirname(__file__)!r})\n"
        "from test_torch_graph import _model_inputs\n"
        f"ep = torch.export.load({str(path)!r})\n"
        "got = ep.module()(*_model_inputs(False))\n"
        f"want = torch.load({str(tmp_path / 'want.pt')!r})\n"
        "assert all(torch.equal(a, b) for a, b in zip(got, want))\n"
        "print('reloaded ok')\n")
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         env=os.environ.copy(), timeout=300)
    assert run.returncode == 0 and "reloaded ok" in run.stdout, run.stderr[-2000:]


def test_fx_traces_call_function_nodes():
    gm = torch.fx.symbolic_trace(Model())
    targets = {str(n.target) for n in gm.graph.nodes if n.op == "call_function"}
    for name in ("inplace_partial_rotary_mul", "partial_rotary_mul", "rope_with_sin_cos_cache",
                 "rotary_embedding"):
        assert f"ropekit.{name}" in targets, targets
    for a, b in zip(Model()(*_model_inputs(False)), gm(*_model_inputs(False))):
        assert torch.equal(a, b)


def test_torchscript_trace_and_script():
    def f(x, c, s):
        return ops.partial_rotary_mul(x, c, s, rotary_mode="interleave", partial_slice=[2, 10])

    x, c, s = _pr_inputs(False)
    traced = torch.jit.trace(f, (x, c, s))
    assert torch.equal(traced(x, c, s), f(x, c, s))

    @torch.jit.script
    def g(pos: torch.Tensor, q: torch.Tensor, cache: torch.Tensor):
        return torch.ops.ropekit.rope_with_sin_cos_cache(pos, q, None, cache, 32, True)[0]

    pos, q, _, cache = _rope_inputs(False)
    assert torch.equal(g(pos, q, cache), ops.rope_with_sin_cos_cache(pos, q, None, cache, 32,
                                                                     True)[0])


# ---- dynamic shapes: the fake kernels validate with the sizes' hints, adding no guard ----


class DynamicModel(torch.nn.Module):
    """A partial rotary over [T, 16] rows and a rope over T tokens."""

    def forward(self, x, c, pos, q, k, cache):
        y = ops.partial_rotary_mul(x, c, c, rotary_mode="half", partial_slice=[4, 12])
        qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, 32, True)
        return y, qo, ko


def _dynamic_inputs(t, k_tokens=None, seed=0):
    g = torch.Generator().manual_seed(seed)
    return (torch.randn(t, 16, generator=g), torch.randn(t, 8, generator=g),
            torch.randint(0, 8, (t,), generator=g), torch.randn(t, 4 * 32, generator=g),
            torch.randn(t if k_tokens is None else k_tokens, 2 * 32, generator=g),
            torch.randn(8, 16, generator=g))


def test_dynamic_compile_checks_without_guards():
    from torch._dynamo.testing import CompileCounter
    torch._dynamo.reset()
    counter = CompileCounter()
    m = DynamicModel()
    compiled = torch.compile(m, fullgraph=True, dynamic=True, backend=counter)
    for t in (3, 5, 9):
        inputs = _dynamic_inputs(t, seed=t)
        for a, b in zip(compiled(*inputs), m(*inputs)):
            assert torch.equal(a, b)
    assert counter.frame_count == 1  # one graph for every token count: nothing specialized
    # a size that breaks a rule is refused while tracing, with the eager message
    with pytest.raises(ValueError) as eager:
        m(*_dynamic_inputs(4, k_tokens=3))
    with pytest.raises(Exception) as traced:
        compiled(*_dynamic_inputs(4, k_tokens=3))
    assert repr(eager.value) in str(traced.value)


def test_export_with_dynamic_tokens():
    m = DynamicModel()
    t, tk = torch.export.Dim("t", min=2), torch.export.Dim("tk", min=2)
    shapes = ({0: t}, {0: t}, {0: t}, {0: t}, {0: tk}, None)
    ep = torch.export.export(m, _dynamic_inputs(5), dynamic_shapes=shapes)
    for n in (3, 11):
        inputs = _dynamic_inputs(n, seed=n)
        for a, b in zip(ep.module()(*inputs), m(*inputs)):
            assert torch.equal(a, b)
    # query and key tokens stay independent dims (the fake kernel guarded nothing); the CPU
    # kernel refuses a mismatch when the program runs, with the library's message
    with pytest.raises(ValueError, match=r"ropekit.rope_with_sin_cos_cache: keyIn shape\[0\] = 3: "
                                         r"must equal queryIn's numTokens 4"):
        ep.module()(*_dynamic_inputs(4, k_tokens=3))


def test_data_dependent_sizes_are_checked_when_run():
    # sizes without a hint (from nonzero) cannot be described to the library: the fake
    # kernel lets the call pass and gives outputs of those sizes
    from torch._subclasses.fake_tensor import FakeTensorMode
    from torch.fx.experimental.symbolic_shapes import ShapeEnv
    with FakeTensorMode(shape_env=ShapeEnv()):
        n = torch.nonzero(torch.randn(10)).shape[0]
        x, c = torch.empty(n, 16), torch.empty(n, 8)
        assert ops.partial_rotary_mul(x, c, c, partial_slice=[0, 8]).shape == (n, 16)
        pos, q = torch.zeros(n, dtype=torch.long), torch.empty(n, 64)
        qo, ko = ops.rope_with_sin_cos_cache(pos, q, None, torch.empty(8, 16), 32, True)
        assert qo.shape == (n, 64) and ko is None
