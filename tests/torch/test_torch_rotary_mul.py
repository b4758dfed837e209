"""torch.ops.ropekit.rotary_mul (RotaryPositionEmbedding) and apply_rotary_pos_emb
(ApplyRotaryPosEmb): results against the float64 references (refs.py) for every mode and
dtype pair, autograd (gradcheck and gradgradcheck in float64, with r1 and r2 broadcast and
requiring grad; the in-place rules of apply_rotary_pos_emb), rotary_mul_grad (the one
library call the backward of both ops makes: its results, gradcheck and gradgradcheck, its
rules), the rules through the eager op, the fake kernel and the C library, opcheck,
torch.compile(fullgraph=True) and torch.export."""
import ctypes

import pytest
import torch

import refs
import ropekit.torch  # noqa: F401
from conftest import DTYPE_PAIRS, assert_unchanged, make, snapshot
from test_torch_graph import _loss
from test_torch_rules import UNREACHABLE, _c_failure, _check, _desc, _rules
from ropekit import _abi
from ropekit._lib import bind
from ropekit._tensor import RopekitTensor

ops = torch.ops.ropekit
MODES = ["half", "interleave", "quarter", "interleave-half"]
_TP = ctypes.POINTER(RopekitTensor)


def _ref(x, c, s, mode):
    return refs.partial_rotary(x, c, s, mode, 0, x.shape[-1])


# ---- results ----


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("xd,cd", DTYPE_PAIRS + [(torch.float64, torch.float64)])
def test_rotary_mul_matches_reference(mode, xd, cd):
    x = make((2, 5, 3, 16), xd, 1)
    c, s = make((1, 5, 1, 16), cd, 2), make((1, 5, 1, 16), cd, 3)
    before = snapshot(x, c, s)
    out = ops.rotary_mul(x, c, s, mode)
    assert out.dtype == xd and out.shape == x.shape
    want, mag = _ref(x, c, s, mode)
    refs.assert_close(out, want, mag, xd)
    assert_unchanged(before, x, c, s)  # out of place: the input is read only


@pytest.mark.parametrize("mode", MODES)
def test_rotary_mul_backward_is_the_transpose(mode):
    g = make((2, 5, 3, 16), torch.float32, 4)
    c, s = make((2, 5, 1, 16), torch.float32, 5), make((2, 5, 1, 16), torch.float32, 6)
    want, mag = refs.partial_rotary_backward(g, c, s, mode, 0, 16)
    refs.assert_close(ops.rotary_mul_backward(g, c, s, mode), want, mag, torch.float32)


def test_rotary_mul_strided_views_and_layouts():
    # a BNSD view of BSND memory, with cos [1, 1, S, D]; and SBND with cos [S, 1, 1, D]
    base = make((2, 7, 4, 32), torch.float32, 7)
    x = base.transpose(1, 2)
    c, s = make((1, 1, 7, 32), torch.float32, 8), make((1, 1, 7, 32), torch.float32, 9)
    want, mag = _ref(x, c, s, "half")
    refs.assert_close(ops.rotary_mul(x, c, s), want, mag, torch.float32)
    x2 = make((7, 2, 4, 32), torch.float32, 10)
    c2 = make((7, 1, 1, 32), torch.float32, 11)
    want, mag = _ref(x2, c2, c2, "interleave")
    refs.assert_close(ops.rotary_mul(x2, c2, c2, "interleave"), want, mag, torch.float32)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float64])
def test_apply_rotary_pos_emb_in_place(mode, dtype):
    q, k = make((2, 6, 4, 16), dtype, 12), make((2, 6, 2, 16), dtype, 13)  # GQA: Nk < Nq
    c, s = make((2, 6, 1, 16), dtype, 14), make((2, 6, 1, 16), dtype, 15)
    q0, k0 = q.clone(), k.clone()
    vq, vk = q._version, k._version
    assert ops.apply_rotary_pos_emb(q, k, c, s, "BSND", mode) is None
    assert q._version > vq and k._version > vk
    for got, x0 in ((q, q0), (k, k0)):
        want, mag = _ref(x0, c, s, mode)
        refs.assert_close(got, want, mag, dtype)
        # the same bytes as the out-of-place op (spec §14.2)
        assert torch.equal(got, ops.rotary_mul(x0, c, s, mode))


def test_apply_rotary_pos_emb_layouts_are_shapes():
    # SBND and BNSD: the layout is read from the shapes; the name only has to be one
    for layout, qs, cs in (("SBND", (6, 2, 4, 16), (6, 2, 1, 16)),
                           ("BNSD", (2, 4, 6, 16), (2, 1, 6, 16)), ("TND", (6, 4, 16), (6, 1, 16))):
        q, k = make(qs, torch.float32, 16), make(qs, torch.float32, 17)
        c = make(cs, torch.float32, 18)
        q0, k0 = q.clone(), k.clone()
        ops.apply_rotary_pos_emb(q, k, c, c, layout)
        assert torch.equal(q, ops.rotary_mul(q0, c, c)) and torch.equal(k, ops.rotary_mul(k0, c, c))


# ---- autograd ----


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("cs_shape", [(1, 5, 1, 8), (2, 5, 3, 8), (5, 1, 8), (8,)],
                         ids=["1S1D", "BSND", "rank3", "D"])
def test_gradcheck_input_and_coefficients(mode, cs_shape):
    x = make((2, 5, 3, 8), torch.float64, 19).requires_grad_()
    c = make(cs_shape, torch.float64, 20).requires_grad_()
    s = make(cs_shape, torch.float64, 21).requires_grad_()
    fn = lambda a, b, d: ops.rotary_mul(a, b, d, mode)  # noqa: E731
    assert torch.autograd.gradcheck(fn, (x, c, s))
    assert torch.autograd.gradgradcheck(fn, (x, c, s))
    bw = lambda a, b, d: ops.rotary_mul_backward(a, b, d, mode)  # noqa: E731
    assert torch.autograd.gradcheck(bw, (x, c, s))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_coefficient_gradients_match_reference(mode, dtype):
    """dr1, dr2 against autograd through the float64 reference (summed over the broadcast
    B and N), accumulated wide: float32 and bfloat16 inputs give the float64 sums rounded."""
    x = make((3, 5, 4, 16), dtype, 22).requires_grad_()
    c = make((1, 5, 1, 16), dtype, 23).requires_grad_()
    s = make((1, 5, 1, 16), dtype, 24).requires_grad_()
    g = make((3, 5, 4, 16), dtype, 25)
    ops.rotary_mul(x, c, s, mode).backward(g)
    x64, c64, s64 = (t.detach().double().requires_grad_() for t in (x, c, s))
    _ref(x64, c64, s64, mode)[0].backward(g.double())
    for got, want in ((c.grad, c64.grad), (s.grad, s64.grad)):
        assert got.dtype == dtype
        tol = 1e-5 if dtype == torch.float32 else 8e-3
        assert torch.allclose(got.double(), want, rtol=tol, atol=tol * want.abs().max()), mode
    want_dx, mag = refs.partial_rotary_backward(g, c, s, mode, 0, 16)
    refs.assert_close(x.grad, want_dx, mag, dtype)


@pytest.mark.parametrize("mode", MODES)
def test_rotary_mul_grad_matches_reference(mode):
    """One call: dx = the backward rotation of dy; dr1, dr2 the float64 sums, over the
    broadcast B and N, of autograd through the float64 reference; no input: dx only."""
    dy, x = make((3, 5, 2, 16), torch.float32, 40), make((3, 5, 2, 16), torch.float32, 41)
    c, s = make((1, 5, 1, 16), torch.float32, 42), make((1, 5, 1, 16), torch.float32, 43)
    before = snapshot(dy, x, c, s)
    dx, dc, ds = ops.rotary_mul_grad(dy, c, s, x, mode)
    assert_unchanged(before, dy, x, c, s)
    want_dx, mag = refs.partial_rotary_backward(dy, c, s, mode, 0, 16)
    refs.assert_close(dx, want_dx, mag, torch.float32)
    x64, c64, s64 = (t.double().requires_grad_() for t in (x, c, s))
    _ref(x64, c64, s64, mode)[0].backward(dy.double())
    for got, want in ((dc, c64.grad), (ds, s64.grad)):
        assert got.dtype == torch.float32 and got.shape == want.shape
        assert torch.allclose(got.double(), want, rtol=1e-6, atol=1e-6 * want.abs().max())
    only = ops.rotary_mul_grad(dy, c, s, None, mode)
    assert only[1] is None and only[2] is None
    assert torch.equal(only[0], dx) and torch.equal(dx, ops.rotary_mul_backward(dy, c, s, mode))


class _Recorder(torch.utils._python_dispatch.TorchDispatchMode):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        self.calls.append((str(func), args))
        return func(*args, **(kwargs or {}))


@pytest.mark.parametrize("coefficients", [True, False], ids=["dr", "dx-only"])
def test_backward_is_one_rotary_mul_grad(coefficients):
    x = make((2, 3, 4, 8), torch.float32, 44).requires_grad_()
    c = make((1, 3, 1, 8), torch.float32, 45).requires_grad_(coefficients)
    s = make((1, 3, 1, 8), torch.float32, 46).requires_grad_(coefficients)
    y, g = ops.rotary_mul(x, c, s, "half"), make((2, 3, 4, 8), torch.float32, 47)
    with _Recorder() as rec:
        y.backward(g)
    calls = [(name, args) for name, args in rec.calls if name.startswith("ropekit.")]
    assert [name for name, _ in calls] == ["ropekit.rotary_mul_grad.default"]
    args = calls[0][1]
    forward_input = args[3] if len(args) > 3 else None  # a default may be left out
    assert (forward_input is x) if coefficients else forward_input is None
    assert not any(n.startswith(("aten.mul", "aten.sum")) for n, _ in rec.calls), rec.calls
    assert x.grad is not None and (c.grad is not None) == coefficients


def test_apply_rotary_pos_emb_backward_is_rotary_mul_grad():
    """Under autograd the in-place op is rotary_mul on query and key: its backward is one
    rotary_mul_grad for each (npu_apply_rotary_pos_emb's path too)."""
    q0 = make((1, 3, 4, 8), torch.float32, 52).requires_grad_()
    k0 = make((1, 3, 2, 8), torch.float32, 53).requires_grad_()
    c = make((1, 3, 1, 8), torch.float32, 54).requires_grad_()
    s = make((1, 3, 1, 8), torch.float32, 55).requires_grad_()
    q, k = q0.clone(), k0.clone()
    ops.apply_rotary_pos_emb(q, k, c, s)
    gq, gk = make(q.shape, torch.float32, 56), make(k.shape, torch.float32, 57)
    with _Recorder() as rec:
        torch.autograd.backward([q, k], [gq, gk])
    assert [n for n, _ in rec.calls if n.startswith("ropekit.")] == \
        ["ropekit.rotary_mul_grad.default"] * 2
    c64, s64 = c.detach().double().requires_grad_(), s.detach().double().requires_grad_()
    loss = sum((_ref(x.detach(), c64, s64, "half")[0] * g.double()).sum()
               for x, g in ((q0, gq), (k0, gk)))
    loss.backward()
    for got, want in ((c.grad, c64.grad), (s.grad, s64.grad)):
        assert torch.allclose(got.double(), want, rtol=1e-6, atol=1e-6 * want.abs().max())


@pytest.mark.parametrize("mode", ["half", "interleave-half"])
def test_rotary_mul_grad_gradcheck(mode):
    dy = make((2, 3, 2, 8), torch.float64, 48).requires_grad_()
    c = make((1, 3, 1, 8), torch.float64, 49).requires_grad_()
    s = make((1, 3, 1, 8), torch.float64, 50).requires_grad_()
    x = make((2, 3, 2, 8), torch.float64, 51).requires_grad_()
    fn = lambda a, b, d, e: ops.rotary_mul_grad(a, b, d, e, mode)  # noqa: E731
    assert torch.autograd.gradcheck(fn, (dy, c, s, x))
    assert torch.autograd.gradgradcheck(fn, (dy, c, s, x))
    dx_only = lambda a, b, d: ops.rotary_mul_grad(a, b, d, None, mode)[0]  # noqa: E731
    assert torch.autograd.gradcheck(dx_only, (dy, c, s))


def test_x_saved_only_when_coefficients_need_grad():
    x = torch.randn(1, 3, 2, 8, requires_grad=True)
    c = torch.randn(1, 3, 1, 8)
    y = ops.rotary_mul(x, c, c)
    assert all(t is not x for t in y.grad_fn.saved_tensors if t is not None)
    c.requires_grad_()
    y = ops.rotary_mul(x, c, c)
    y.sum().backward()
    assert x.grad is not None and c.grad is not None


def test_apply_rotary_pos_emb_autograd():
    """Under autograd the in-place op is rotary_mul on query and key copied back: grads
    reach the tensors query and key came from, and cos and sin; a leaf is refused."""
    q0 = make((2, 6, 4, 16), torch.float64, 26).requires_grad_()
    k0 = make((2, 6, 2, 16), torch.float64, 27).requires_grad_()
    c = make((2, 6, 1, 16), torch.float64, 28).requires_grad_()
    s = make((2, 6, 1, 16), torch.float64, 29).requires_grad_()

    def fn(q0, k0, c, s):
        q, k = q0 * 1.0, k0 * 1.0
        ops.apply_rotary_pos_emb(q, k, c, s, "BSND", "quarter")
        return q, k

    assert torch.autograd.gradcheck(fn, (q0, k0, c, s))
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        ops.apply_rotary_pos_emb(q0, k0, c, s)
    # the validation runs before any copy: a refused call writes nothing
    q, k = q0 * 1.0, k0 * 1.0
    before = snapshot(q, k)
    with pytest.raises(ValueError, match="ropekit.apply_rotary_pos_emb: .*must equal"):
        ops.apply_rotary_pos_emb(q, k, c[..., :8], s[..., :8])
    assert_unchanged(before, q, k)


# ---- the rules: the eager op, the fake kernel and the C library say the same ----

_OUT_ARGS = [_TP, _TP, _TP, _TP, ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_int]
_c_out = bind("ropekit_partial_rotary_out", ctypes.c_int, _OUT_ARGS)
_c_apply = bind("ropekit_apply_rotary", ctypes.c_int, [_TP] * 4 + [ctypes.c_int] * 2)
_MODE_IDS = {name: v for v, name in _abi.ropekit_rotary_mode_names.items()}


def c_rotary_mul(op, x, r1, r2, rotary_mode="half"):
    out = torch.empty_like(x)
    direction = _abi.ROPEKIT_BACKWARD if op.endswith("backward") else _abi.ROPEKIT_FORWARD
    descs = [_desc(t) for t in (x, r1, r2, out)]
    status = _c_out(*(ctypes.byref(d) for d in descs), _MODE_IDS[rotary_mode], 0,
                    x.shape[-1] if x.dim() else 0, direction)
    return _c_failure(status, "ropekit_partial_rotary_out")


def c_apply(op, q, k, c, s, layout="BSND", rotary_mode="half"):
    descs = [_desc(t) for t in (q, k, c, s)]
    status = _c_apply(*(ctypes.byref(d) for d in descs), _MODE_IDS[rotary_mode],
                      _abi.ROPEKIT_FORWARD)
    return _c_failure(status, "ropekit_apply_rotary")


def _x(*shape, dtype=torch.float32):
    return make(shape, dtype, 30)


def _rm(x=None, c=None, s=None, mode="half"):
    x = _x(2, 3, 4, 16) if x is None else x
    c = _x(1, 3, 1, 16) if c is None else c
    return (x, c, c.clone() if s is None else s, mode), {}


RM_OPS = ("rotary_mul", "rotary_mul_backward")
# (rule, case id, ops, make, message piece, needs data)
RM_CASES = [
    ("LAYOUT", "input rank 9", RM_OPS, lambda: _rm(_x(1, 1, 1, 1, 1, 1, 1, 2, 16)),
     "x rank = 9: must be in [0, 8]", False),
    ("X_DTYPE", "int32 input", RM_OPS, lambda: _rm(torch.zeros(2, 3, 4, 16, dtype=torch.int32)),
     "x dtype = 3: must be float32, float16, bfloat16 or float64", False),
    ("CS_DTYPE", "sin dtype", RM_OPS, lambda: _rm(s=_x(1, 3, 1, 16, dtype=torch.float16)),
     "sin dtype = f16: must equal cos dtype f32", False),
    ("DTYPE_PAIR", "float64 input", RM_OPS, lambda: _rm(_x(2, 3, 4, 16, dtype=torch.float64)),
     "float64 goes with float64 only", False),
    ("RANK", "input rank 0", RM_OPS, lambda: _rm(torch.tensor(1.0)),
     "x rank = 0: needs at least one dimension", False),
    ("CS_SHAPE", "sin shape", RM_OPS, lambda: _rm(s=_x(2, 3, 1, 16)),
     "sin shape = [2,3,1,16]: must equal cos shape [1,3,1,16]", False),
    ("CS_LEN", "cos shorter than D", RM_OPS, lambda: _rm(c=_x(1, 3, 1, 8)),
     "must equal the slice length 16", False),
    ("L_MULTIPLE", "odd D", RM_OPS, lambda: _rm(_x(2, 3, 4, 7), _x(1, 3, 1, 7)),
     "must be a multiple of 2 in half mode", False),
    ("L_MULTIPLE", "quarter", RM_OPS, lambda: _rm(_x(2, 3, 4, 6), _x(1, 3, 1, 6), mode="quarter"),
     "must be a multiple of 4 in quarter mode", False),
    ("BROADCAST", "cos dim 0", RM_OPS, lambda: _rm(c=_x(3, 3, 1, 16)),
     "cos shape = [3,3,1,16]: dim 0 is 3, must be 1 or x's 2", False),
]


_c_grad = bind("ropekit_partial_rotary_grad", ctypes.c_int,
               [_TP] * 7 + [ctypes.c_int, ctypes.c_int64, ctypes.c_int64])


def c_rotary_grad(op, dy, r1, r2, x=None, rotary_mode="half"):
    outs = [torch.empty_like(dy)] + ([None, None] if x is None
                                     else [r1.new_empty(r1.shape), r2.new_empty(r2.shape)])
    descs = [None if t is None else _desc(t) for t in (dy, r1, r2, x, *outs)]
    status = _c_grad(*(None if d is None else ctypes.byref(d) for d in descs),
                     _MODE_IDS[rotary_mode], 0, dy.shape[-1] if dy.dim() else 0)
    return _c_failure(status, "ropekit_partial_rotary_grad")


def _rg(fwd=None, **kw):
    """rotary_mul_grad's (grad_output, r1, r2, input, mode): _rm's, and a forward input."""
    (dy, c, s, mode), _ = _rm(**kw)
    return (dy, c, s, _x(*dy.shape) if fwd is None else fwd, mode), {}


RG_OPS = ("rotary_mul_grad",)
RG_CASES = [
    ("FWD_X_SHAPE", "input shape", RG_OPS, lambda: _rg(_x(2, 3, 1, 16)), "x shape", False),
    ("FWD_X_DTYPE", "input dtype", RG_OPS, lambda: _rg(_x(2, 3, 4, 16, dtype=torch.float16)),
     "x dtype", False),
    ("BROADCAST", "cos dim 0", RG_OPS, lambda: _rg(c=_x(3, 3, 1, 16)), "dim 0 is 3", False),
    ("L_MULTIPLE", "odd D", RG_OPS, lambda: _rg(_x(2, 3, 4, 7), x=_x(2, 3, 4, 7), c=_x(1, 3, 1, 7)),
     "multiple of 2", False),
]


@pytest.mark.parametrize("op,case", [pytest.param(op, c, id=f"{c[0]}-{c[1]}")
                                     for c in RG_CASES for op in c[2]])
def test_rotary_mul_grad_rule(op, case):
    _check(op, case, c_rotary_grad)


def _ar(q=None, k=None, c=None, s=None, layout="BSND", mode="half"):
    q = _x(2, 3, 4, 16) if q is None else q
    k = _x(2, 3, 2, 16) if k is None else k
    c = _x(2, 3, 1, 16) if c is None else c
    return (q, k, c, c.clone() if s is None else s, layout, mode), {}


AR_OPS = ("apply_rotary_pos_emb",)
AR_CASES = [
    ("LAYOUT", "key rank 9", AR_OPS, lambda: _ar(k=_x(1, 1, 1, 1, 1, 1, 2, 3, 16)),
     "key rank = 9: must be in [0, 8]", False),
    ("Q_DTYPE", "int32 query", AR_OPS, lambda: _ar(torch.zeros(2, 3, 4, 16, dtype=torch.int32)),
     "query dtype = 3", False),
    ("DTYPE", "float64 key", AR_OPS, lambda: _ar(k=_x(2, 3, 2, 16, dtype=torch.float64)),
     "key", False),
    ("RANK", "cos rank above query", AR_OPS, lambda: _ar(_x(4, 16), _x(4, 16)), "cos rank", False),
    ("CS_SHAPE", "sin shape", AR_OPS, lambda: _ar(s=_x(1, 3, 1, 16)), "sin shape", False),
    ("CS_DIMS", "cos last dim", AR_OPS, lambda: _ar(c=_x(2, 3, 1, 8)), "must equal cos last dim",
     False),
    ("D_MULTIPLE", "quarter", AR_OPS,
     lambda: _ar(_x(2, 3, 4, 6), _x(2, 3, 2, 6), _x(2, 3, 1, 6), mode="quarter"), "quarter", False),
    ("BROADCAST", "cos dim 1", AR_OPS, lambda: _ar(c=_x(2, 2, 1, 16)), "dim 1", False),
    ("OVERLAP", "key is the query", AR_OPS, lambda: (lambda q: _ar(q, q))(_x(2, 3, 4, 16)),
     "overlaps", True),
    ("OVERLAP", "query overlaps itself", AR_OPS, lambda: _ar(_x(2, 3, 1, 16).expand(2, 3, 4, 16)),
     "two elements share one address", False),
]


# Rules no call of these ops can break, and why (beyond test_torch_rules' reasons).
RM_UNREACHABLE = {
    **{r: UNREACHABLE["partial_rotary"][r] for r in ("NULL", "DATA_NULL", "MODE", "SLICE_SIZE",
                                                     "CS_LEN_EXCEEDS_D", "MAX_D", "D_EVEN",
                                                     "NO_MEMORY")},
    "OUT_DTYPE": "out is the op's own, empty_like(input)",
    "OUT_SHAPE": "out is the op's own, empty_like(input)",
    "SLICE_RANGE": "the op's slice is [0, D)",
    "OVERLAP": "out is a fresh tensor and the input is only read",
    "EMPTY_X": "checked only under InterleaveRope's policy, which these ops do not use",
    "D_VALUE": "checked only under InterleaveRope's policy, which these ops do not use",
}
AR_UNREACHABLE = {
    "NULL": "the schema takes four tensors; torch refuses None itself",
    "DATA_NULL": "a torch tensor with elements has data",
    "MODE": "the op takes mode names, converted in Python (_args); every name is a native mode",
    "EMPTY": "aclnn only (the native face rotates an empty query or key as nothing)",
    "LAYOUT_VALUE": "aclnn only (the native face reads the layout from the shapes)",
    "QK_SHAPE": "aclnn only", "D_VALUE": "aclnn only", "CS_N": "aclnn only",
    "NO_MEMORY": "not an argument rule: the library's allocation failing",
}


@pytest.mark.parametrize("header,macro,cases,unreachable", [
    ("partial_rotary/rules.h", "RK_PR_RULES", RM_CASES, RM_UNREACHABLE),
    ("apply_rotary/rules.h", "RK_AR_RULES", AR_CASES, AR_UNREACHABLE)], ids=["pr", "ar"])
def test_every_rule_is_covered(header, macro, cases, unreachable):
    rules = set(_rules(header, macro))
    covered = {c[0] for c in cases}
    assert not covered & set(unreachable)
    assert covered | set(unreachable) == rules, sorted(rules ^ (covered | set(unreachable)))


@pytest.mark.parametrize("op,case", [pytest.param(op, c, id=f"{c[0]}-{c[1]}-{op}")
                                     for c in RM_CASES for op in c[2]])
def test_rotary_mul_rule(op, case):
    _check(op, case, c_rotary_mul)


@pytest.mark.parametrize("op,case", [pytest.param(op, c, id=f"{c[0]}-{c[1]}-{op}")
                                     for c in AR_CASES for op in c[2]])
def test_apply_rotary_rule(op, case):
    _check(op, case, c_apply)


@pytest.mark.parametrize("call,exc,match", [
    (lambda: ops.rotary_mul(torch.zeros(2, 8), torch.zeros(8), torch.zeros(8), "neox"),
     ValueError, r"ropekit.rotary_mul: rotary_mode = 'neox': must be 'half', 'interleave', "
                 r"'quarter' or 'interleave-half'"),
    (lambda: ops.apply_rotary_pos_emb(*_ar(layout="BHSD")[0]), ValueError,
     r"ropekit.apply_rotary_pos_emb: layout = 'BHSD': must be 'BSND', 'BSH', 'SBND', 'BNSD' "
     r"or 'TND'"),
])
def test_conversions(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


# ---- graph capture ----


def _rm_inputs(grad):
    x = make((2, 5, 3, 16), torch.float32, 31).requires_grad_(grad)
    c = make((1, 5, 1, 16), torch.float32, 32).requires_grad_(grad)
    s = make((1, 5, 1, 16), torch.float32, 33).requires_grad_(grad)
    return x, c, s


@pytest.mark.parametrize("name,args", [
    ("rotary_mul", lambda: _rm_inputs(True) + ("interleave",)),
    ("rotary_mul_backward", lambda: _rm_inputs(True) + ("quarter",)),
    ("rotary_mul_grad", lambda: _rm_inputs(True) + (make((2, 5, 3, 16), torch.float32, 35),
                                                    "interleave")),
    ("rotary_mul_grad", lambda: _rm_inputs(True) + (None, "interleave-half")),
    ("apply_rotary_pos_emb", lambda: _ar()[0]),
    ("apply_rotary_pos_emb", lambda: _ar(mode="interleave-half")[0]),
])
def test_opcheck(name, args):
    torch.library.opcheck(getattr(ops, name).default, args())


class Block(torch.nn.Module):
    """Both ops in one module: rotary_mul on q with trained cos/sin, then the in-place op."""

    def forward(self, q, k, c, s):
        qo = ops.rotary_mul(q, c, s, "half")
        q2, k2 = qo * 1.0, k * 1.0
        ops.apply_rotary_pos_emb(q2, k2, c.expand(2, 5, 1, 16), s.expand(2, 5, 1, 16), "BSND",
                                 "interleave")
        return qo, q2, k2


def _block_inputs(grad):
    q, c, s = _rm_inputs(grad)
    k = make((2, 5, 2, 16), torch.float32, 34).requires_grad_(grad)
    return q, k, c, s


def test_compile_fullgraph_forward_and_backward_match_eager():
    torch._dynamo.reset()
    m = Block()
    eager_in, comp_in = _block_inputs(True), _block_inputs(True)
    eager = m(*eager_in)
    _loss(eager).backward()
    outs = torch.compile(m, fullgraph=True)(*comp_in)
    _loss(outs).backward()
    for a, b in zip(eager, outs):
        assert torch.equal(a, b)
    for a, b in zip(eager_in[:2], comp_in[:2]):  # the library's backward rotation
        assert torch.equal(a.grad, b.grad)
    for a, b in zip(eager_in[2:], comp_in[2:]):  # sums over B and N: inductor's order
        assert torch.allclose(a.grad, b.grad, rtol=1e-5, atol=1e-5)


def test_compile_dynamic_shapes():
    from torch._dynamo.testing import CompileCounter
    torch._dynamo.reset()
    counter = CompileCounter()
    f = torch.compile(lambda x, c: ops.rotary_mul(x, c, c, "interleave-half"), fullgraph=True,
                      dynamic=True, backend=counter)
    for t in (3, 6, 9):
        x, c = make((t, 4, 16), torch.float32, t), make((t, 1, 16), torch.float32, t + 1)
        assert torch.equal(f(x, c), ops.rotary_mul(x, c, c, "interleave-half"))
    assert counter.frame_count == 1


def test_export_keeps_each_op_one_node():
    m = Block()
    ep = torch.export.export(m, _block_inputs(False))
    targets = [str(n.target) for n in ep.graph.nodes if n.op == "call_function"]
    for name in ("rotary_mul", "apply_rotary_pos_emb"):
        assert targets.count(f"ropekit.{name}.default") == 1, (name, targets)
    for a, b in zip(m(*_block_inputs(False)), ep.module()(*_block_inputs(False))):
        assert torch.equal(a, b)
