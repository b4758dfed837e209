"""torch.ops.ropekit.rotary_mul (RotaryPositionEmbedding, torch_npu's npu_rotary_mul),
torch.ops.ropekit.interleave_rope (InterleaveRope, torch_npu's npu_interleave_rope) and
torch.ops.ropekit.apply_rotary_pos_emb (ApplyRotaryPosEmb, torch_npu's
npu_apply_rotary_pos_emb): schemas, CPU kernels, fake kernels and autograd.

rotary_mul rotates the whole last dim out of place: the CPU kernel is the library's
ropekit_partial_rotary_out over [0, D) into empty_like(input); rotary_mul_backward is the
same call with the backward direction (the gradient of the input). interleave_rope is
rotary_mul in interleave-half mode. Their autograd is rotary_mul_grad
(RotaryPositionEmbeddingGrad): one ropekit_partial_rotary_grad call gives the gradient of
the input and, when r1 or r2 (cos, sin) needs one, theirs, summed in float64 over the dims
they broadcast along. apply_rotary_pos_emb rotates query and key in place with one cos/sin
(ropekit_apply_rotary). The fake kernels ask the library's plan creation for the same call
on the tensors' layouts (_native), so eager, fake and C agree on every rule and message."""
import ctypes

import torch

from .. import _abi
from .._lib import bind
from .._types import MODES
from . import _args, _native
from ._args import concrete
from ._ops import _LIB, _fake, _impl, _needs_grad, _written, ops

_TP = _native._TP
_PLAN = _native._PLAN
_OUT_ARGS = [_TP, _TP, _TP, _TP, ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_int]
_partial_rotary_out = bind("ropekit_partial_rotary_out", ctypes.c_int, _OUT_ARGS)
_partial_rotary_out_plan = bind("ropekit_partial_rotary_out_plan_create", ctypes.c_int,
                                _OUT_ARGS + [_PLAN])
# dy, cos, sin, x (NULL: no dcos/dsin), dx, dcos, dsin, mode, start, end
_GRAD_ARGS = [_TP] * 7 + [ctypes.c_int, ctypes.c_int64, ctypes.c_int64]
_partial_rotary_grad = bind("ropekit_partial_rotary_grad", ctypes.c_int, _GRAD_ARGS)
_partial_rotary_grad_plan = bind("ropekit_partial_rotary_grad_plan_create", ctypes.c_int,
                                 _GRAD_ARGS + [_PLAN])
_AR_ARGS = [_TP, _TP, _TP, _TP, ctypes.c_int, ctypes.c_int]
_apply_rotary = bind("ropekit_apply_rotary", ctypes.c_int, _AR_ARGS)
_apply_rotary_plan = bind("ropekit_apply_rotary_plan_create", ctypes.c_int, _AR_ARGS + [_PLAN])
_CODE = ctypes.POINTER(ctypes.c_int32)
_cann_rpe_plan = bind("ropekit_cann_rotary_position_embedding_plan_create", ctypes.c_int,
                      [_TP, _TP, _TP, ctypes.c_int64, _TP, _PLAN, _CODE])
_cann_ir_plan = bind("ropekit_cann_interleave_rope_plan_create", ctypes.c_int,
                     [_TP, _TP, _TP, _TP, _PLAN, _CODE])
_cann_apply_plan = bind("ropekit_cann_apply_rotary_plan_create", ctypes.c_int,
                        [ctypes.c_int, _TP, _TP, _TP, _TP, ctypes.c_int64, ctypes.c_char_p, _PLAN,
                         _CODE])

_DIRECTION = {False: _abi.ROPEKIT_FORWARD, True: _abi.ROPEKIT_BACKWARD}
# torch_npu's layout names (op-plugin's npu_apply_rotary_pos_emb) and CANN's numbers. The
# native face reads the layout from the shapes and strides (spec §14.2): the op takes the
# name for torch_npu's schema and refuses one that names no layout.
LAYOUTS = {"BSND": 1, "BSH": 1, "SBND": 2, "BNSD": 3, "TND": 4}
_LAYOUT_LIST = " or ".join(", ".join(repr(n) for n in LAYOUTS).rsplit(", ", 1))

SCHEMAS = {
    "rotary_mul": '(Tensor input, Tensor r1, Tensor r2, str rotary_mode="half") -> Tensor',
    "rotary_mul_backward": '(Tensor grad_output, Tensor r1, Tensor r2, str rotary_mode="half") '
                           "-> Tensor",
    # (grad of input, of r1, of r2): input None gives the first only
    "rotary_mul_grad": "(Tensor grad_output, Tensor r1, Tensor r2, Tensor? input=None, "
                       'str rotary_mode="half") -> (Tensor, Tensor?, Tensor?)',
    "interleave_rope": "(Tensor x, Tensor cos, Tensor sin) -> Tensor",
    "apply_rotary_pos_emb": "(Tensor(a!) query, Tensor(b!) key, Tensor cos, Tensor sin, "
                            'str layout="BSND", str rotary_mode="half") -> ()',
}
for _name, _schema in SCHEMAS.items():
    _LIB.define(_name + _schema)


def _last_dim(t):
    return t.shape[-1] if t.dim() else 0


# ---- the library's calls ----


def _call(op, key, fn, api, tensors, args):
    """fn(descriptors of tensors..., *args), prepared once per layout (_native): the CPU
    kernels' one-shot calls."""

    def make():
        descs = tuple(None if t is None else _native.describe(t) for t in tensors)
        return descs, tuple(None if d is None else ctypes.byref(d) for d in descs)

    descs, refs = _native._prepared(key + tuple(_native._layout(t) for t in tensors), make)
    _native._bind(descs, tensors)
    _native._sync_threads()
    status = fn(*refs, *args)
    if status:
        _native._raise(status, api, op)


def _plan(op, fn, api, tensors, package="ropekit"):
    """The fake kernels' (and front-ends') validation: fn(descriptors of the tensors'
    layouts, NULL for a None tensor, &plan) makes a plan, destroyed at once; a layout with
    a size that has no hint is left to the CPU kernel."""
    descs = tuple(None if t is None else _native.describe_layout(t) for t in tensors)
    if any(d is None and t is not None for d, t in zip(descs, tensors)):
        return
    plan = ctypes.c_void_p()
    status = fn(*(None if d is None else ctypes.byref(d) for d in descs), ctypes.byref(plan))
    if status:
        _native._raise(status, api, op, package)
    _native._plan_destroy(plan)


def _rotate_out(op, x, r1, r2, out, mode, backward):
    """out = x rotated over [0, D) (ropekit_partial_rotary_out)."""
    _call(op, ("rotary_out", op, mode, backward), _partial_rotary_out,
          "ropekit_partial_rotary_out", (x, r1, r2, out),
          (mode, 0, _last_dim(x), _DIRECTION[backward]))


def _check_rotate_out(op, x, r1, r2, out, mode, backward):
    d = concrete(_last_dim(x))
    if d is not None:
        _plan(op, lambda *a: _partial_rotary_out_plan(*a[:4], mode, 0, d, _DIRECTION[backward],
                                                      a[4]),
              "ropekit_partial_rotary_out_plan_create", (x, r1, r2, out))


def _rotary_grad(op, dy, r1, r2, x, dx, dcos, dsin, mode):
    """dx = dy rotated backward over [0, D); with x, dcos and dsin too
    (ropekit_partial_rotary_grad)."""
    _call(op, ("rotary_grad", op, mode), _partial_rotary_grad, "ropekit_partial_rotary_grad",
          (dy, r1, r2, x, dx, dcos, dsin), (mode, 0, _last_dim(dy)))


def _check_rotary_grad(op, dy, r1, r2, x, dx, dcos, dsin, mode):
    d = concrete(_last_dim(dy))
    if d is not None:
        _plan(op, lambda *a: _partial_rotary_grad_plan(*a[:7], mode, 0, d, a[7]),
              "ropekit_partial_rotary_grad_plan_create", (dy, r1, r2, x, dx, dcos, dsin))


def _apply(op, query, key, cos, sin, mode):
    _call(op, ("apply_rotary", op, mode), _apply_rotary, "ropekit_apply_rotary",
          (query, key, cos, sin), (mode, _abi.ROPEKIT_FORWARD))


def _check_apply(op, query, key, cos, sin, mode):
    _plan(op, lambda *a: _apply_rotary_plan(*a[:4], mode, _abi.ROPEKIT_FORWARD, a[4]),
          "ropekit_apply_rotary_plan_create", (query, key, cos, sin))


def _cann_api(which):
    return _abi.ropekit_cann_op_names[which] + "GetWorkspaceSize"


def check_cann_rotary_position_embedding(package, op, x, r1, r2, mode):
    """What aclnnRotaryPositionEmbedding would refuse, refused: its CANN-rules plan on the
    layouts of x, r1, r2 and an out like x's."""
    code = ctypes.c_int32()
    _plan(op, lambda dx, dc, ds, do, plan: _cann_rpe_plan(dx, dc, ds, mode, do, plan,
                                                          ctypes.byref(code)),
          _cann_api(_abi.ROPEKIT_CANN_ROTARY_POSITION_EMBEDDING), (x, r1, r2, x), package)


def check_cann_interleave_rope(package, op, x, cos, sin):
    """What aclnnInterleaveRope would refuse, refused: its CANN-rules plan on the layouts of
    x, cos, sin and an out like x's."""
    code = ctypes.c_int32()
    _plan(op, lambda dx, dc, ds, do, plan: _cann_ir_plan(dx, dc, ds, do, plan, ctypes.byref(code)),
          _cann_api(_abi.ROPEKIT_CANN_INTERLEAVE_ROPE), (x, cos, sin, x), package)


def check_cann_apply_rotary(package, op, query, key, cos, sin, layout, rotary_mode):
    """What aclnnApplyRotaryPosEmbV2 (torch_npu's call) would refuse, refused: its CANN-rules
    plan with CANN's layout number and the mode string as given."""
    which, code = _abi.ROPEKIT_CANN_APPLY_ROTARY_POS_EMB_V2, ctypes.c_int32()
    _plan(op, lambda *a: _cann_apply_plan(which, *a[:4], layout, rotary_mode.encode(), a[4],
                                          ctypes.byref(code)),
          _cann_api(which), (query, key, cos, sin), package)


# ---- argument conversion (what C cannot be asked) ----


def _rotary_args(op, x, r1, r2, rotary_mode, x_name, devices):
    """(mode id): the tensors and the mode name, as partial rotary's conversion checks them."""
    mode, _, _ = _args.partial_rotary(op, x, r1, r2, rotary_mode, [0, 0], x_name, devices)
    return mode


def _apply_args(op, query, key, cos, sin, layout, rotary_mode, devices):
    for name, t in (("query", query), ("key", key), ("cos", cos), ("sin", sin)):
        _args.tensor(op, name, t, devices)
    if not isinstance(layout, str) or layout not in LAYOUTS:
        _args.fail(ValueError, op, f"layout = {layout!r}", f"must be {_LAYOUT_LIST}")
    mode, _, _ = _args.partial_rotary(op, query, cos, sin, rotary_mode, [0, 0], "query",
                                      devices)
    return mode


# ---- RotaryPositionEmbedding: rotary_mul and its backward ----


def _define_rotary_mul(name, backward, x_name):
    @_impl(name)
    def _(x, r1, r2, rotary_mode="half"):
        mode = _rotary_args(name, x, r1, r2, rotary_mode, x_name, _args.CPU_DEVICES)
        out = torch.empty_like(x)
        _rotate_out(name, x, r1, r2, out, mode, backward)
        return out

    @_fake(name)
    def _(x, r1, r2, rotary_mode="half"):
        mode = _rotary_args(name, x, r1, r2, rotary_mode, x_name, _args.FAKE_DEVICES)
        out = torch.empty_like(x)
        _check_rotate_out(name, x, r1, r2, out, mode, backward)
        return out


_define_rotary_mul("rotary_mul", False, "input")
_define_rotary_mul("rotary_mul_backward", True, "grad_output")


def _grad_args(op, dy, r1, r2, x, rotary_mode, devices):
    mode = _rotary_args(op, dy, r1, r2, rotary_mode, "grad_output", devices)
    if x is not None:
        _args.tensor(op, "input", x, devices)
    return mode


def _grad_outputs(dy, r1, r2, x):
    """dx like dy; dcos and dsin of r1's and r2's shapes and dtypes when x is given."""
    if x is None:
        return torch.empty_like(dy), None, None
    return torch.empty_like(dy), r1.new_empty(r1.shape), r2.new_empty(r2.shape)


@_impl("rotary_mul_grad")
def _(grad_output, r1, r2, input=None, rotary_mode="half"):  # noqa: A002 (the schema's name)
    op = "rotary_mul_grad"
    mode = _grad_args(op, grad_output, r1, r2, input, rotary_mode, _args.CPU_DEVICES)
    outs = _grad_outputs(grad_output, r1, r2, input)
    _rotary_grad(op, grad_output, r1, r2, input, *outs, mode)
    return outs


@_fake("rotary_mul_grad")
def _(grad_output, r1, r2, input=None, rotary_mode="half"):  # noqa: A002
    op = "rotary_mul_grad"
    mode = _grad_args(op, grad_output, r1, r2, input, rotary_mode, _args.FAKE_DEVICES)
    outs = _grad_outputs(grad_output, r1, r2, input)
    _check_rotary_grad(op, grad_output, r1, r2, input, *outs, mode)
    return outs


# ---- InterleaveRope: rotary_mul in interleave-half mode ----

_INTERLEAVE_HALF = "interleave-half"


def _interleave_args(x, cos, sin, devices):
    for name, t in (("x", x), ("cos", cos), ("sin", sin)):
        _args.tensor("interleave_rope", name, t, devices)
    return MODES[_INTERLEAVE_HALF]


@_impl("interleave_rope")
def _(x, cos, sin):
    mode = _interleave_args(x, cos, sin, _args.CPU_DEVICES)
    out = torch.empty_like(x)
    _rotate_out("interleave_rope", x, cos, sin, out, mode, False)
    return out


@_fake("interleave_rope")
def _(x, cos, sin):
    mode = _interleave_args(x, cos, sin, _args.FAKE_DEVICES)
    out = torch.empty_like(x)
    _check_rotate_out("interleave_rope", x, cos, sin, out, mode, False)
    return out


# ---- autograd ----


def _rotary_setup(ctx, inputs, output):
    """Saves x (for the gradients of r1 and r2: the input, or the incoming gradient of
    rotary_mul_backward's output) only when one of them is needed."""
    x, r1, r2 = inputs[:3]
    ctx.rotary_mode = inputs[3] if len(inputs) > 3 else "half"
    ctx.cs = ctx.needs_input_grad[1] or ctx.needs_input_grad[2]
    ctx.save_for_backward(x if ctx.cs else None, r1, r2)


def _rotary_mul_grad(ctx, grad):
    """One rotary_mul_grad: dx, and dr1, dr2 when r1 or r2 needs a gradient (x given)."""
    x, r1, r2 = ctx.saved_tensors
    need = ctx.needs_input_grad
    dx, dr1, dr2 = ops.rotary_mul_grad(grad, r1, r2, x if ctx.cs else None, ctx.rotary_mode)
    return (dx if need[0] else None, dr1 if need[1] else None, dr2 if need[2] else None, None)


def _rotary_mul_backward_grad(ctx, grad):
    """rotary_mul_backward(g) = R^T g is linear in g, whose gradient is R grad; in r1, r2:
    <grad, R^T g> = <R grad, g>, rotary_mul_grad's dr1, dr2 with g as the incoming gradient
    and grad as the forward input."""
    g, r1, r2 = ctx.saved_tensors
    need = ctx.needs_input_grad
    dg = ops.rotary_mul(grad, r1, r2, ctx.rotary_mode) if need[0] else None
    dr1 = dr2 = None
    if ctx.cs:
        _, dr1, dr2 = ops.rotary_mul_grad(g, r1, r2, grad, ctx.rotary_mode)
    return dg, dr1 if need[1] else None, dr2 if need[2] else None, None


def _interleave_setup(ctx, inputs, output):
    _rotary_setup(ctx, inputs, output)
    ctx.rotary_mode = _INTERLEAVE_HALF


def _interleave_rope_grad(ctx, grad):
    return _rotary_mul_grad(ctx, grad)[:3]


def _grad_setup(ctx, inputs, output):
    dy, r1, r2 = inputs[:3]
    x = inputs[3] if len(inputs) > 3 else None
    ctx.rotary_mode = inputs[4] if len(inputs) > 4 else "half"
    ctx.save_for_backward(dy, r1, r2, x)


def _rotary_mul_grad_grad(ctx, gdx, gdr1, gdr2):
    """rotary_mul_grad's own gradient (double backward of rotary_mul). Its outputs are
    dx = R^T dy and, with x, dr1 = sum(dy * P(x)), dr2 = sum(dy * rotate(P(x))) (P the
    mode's input permutation, sums over the broadcast dims). With R' the rotation by
    (gdr1, gdr2): <gdr1, dr1> + <gdr2, dr2> = <dy, R' x>, and <gdx, R^T dy> = <R gdx, dy>,
    so d dy = R gdx + R' x, d x = R'^T dy, and d r1, d r2 are rotary_mul_grad's own with
    gdx as the forward input."""
    dy, r1, r2, x = ctx.saved_tensors
    # the trailing defaults (input, rotary_mode) may be left out of the inputs
    given, mode = len(ctx.needs_input_grad), ctx.rotary_mode
    need = tuple(ctx.needs_input_grad) + (False,) * (5 - given)
    with_cs = x is not None and (gdr1 is not None or gdr2 is not None)
    if with_cs:
        gdr1 = torch.zeros_like(r1) if gdr1 is None else gdr1
        gdr2 = torch.zeros_like(r2) if gdr2 is None else gdr2
    d_dy = None
    if need[0]:
        parts = ([ops.rotary_mul(gdx, r1, r2, mode)] if gdx is not None else []) + (
            [ops.rotary_mul(x, gdr1, gdr2, mode)] if with_cs else [])
        d_dy = sum(parts[1:], parts[0]) if parts else None
    d_r1 = d_r2 = None
    if (need[1] or need[2]) and gdx is not None:
        _, d_r1, d_r2 = ops.rotary_mul_grad(dy, r1, r2, gdx, mode)
    d_x = ops.rotary_mul_backward(dy, gdr1, gdr2, mode) if need[3] and with_cs else None
    return (d_dy, d_r1 if need[1] else None, d_r2 if need[2] else None, d_x, None)[:given]


for _name, _setup, _backward in (("rotary_mul", _rotary_setup, _rotary_mul_grad),
                                 ("rotary_mul_backward", _rotary_setup,
                                  _rotary_mul_backward_grad),
                                 ("rotary_mul_grad", _grad_setup, _rotary_mul_grad_grad),
                                 ("interleave_rope", _interleave_setup, _interleave_rope_grad)):
    torch.library.register_autograd(f"ropekit::{_name}", _backward, setup_context=_setup,
                                    lib=_LIB)


# ---- ApplyRotaryPosEmb: query and key in place ----


@_impl("apply_rotary_pos_emb")
def _(query, key, cos, sin, layout="BSND", rotary_mode="half"):
    mode = _apply_args("apply_rotary_pos_emb", query, key, cos, sin, layout, rotary_mode,
                       _args.CPU_DEVICES)
    _apply("apply_rotary_pos_emb", query, key, cos, sin, mode)
    _written(query, key)


def _check_apply_rotary(query, key, cos, sin, layout, rotary_mode, devices):
    mode = _apply_args("apply_rotary_pos_emb", query, key, cos, sin, layout, rotary_mode,
                       devices)
    _check_apply("apply_rotary_pos_emb", query, key, cos, sin, mode)


@_fake("apply_rotary_pos_emb")
def _(query, key, cos, sin, layout="BSND", rotary_mode="half"):
    _check_apply_rotary(query, key, cos, sin, layout, rotary_mode, _args.FAKE_DEVICES)


@torch.library.impl("ropekit::apply_rotary_pos_emb", "Autograd", lib=_LIB)
def _(query, key, cos, sin, layout="BSND", rotary_mode="half"):
    """With a gradient needed, query and key are each rotary_mul'd (the same bytes as the
    one in-place call: spec §14.2) after the operator's own validation, and copied back:
    torch's in-place rules apply, as for the other in-place ops (_ops)."""
    if _needs_grad(query, key, cos, sin):
        _check_apply_rotary(query, key, cos, sin, layout, rotary_mode, _args.FAKE_DEVICES)
        # rotary_mul saves its input for the gradients of cos and sin: then it must be a
        # copy, as query and key are overwritten below
        keep = (torch.clone if _needs_grad(cos, sin) else (lambda t: t))
        q = ops.rotary_mul(keep(query), cos, sin, rotary_mode)
        k = ops.rotary_mul(keep(key), cos, sin, rotary_mode)
        query.copy_(q)
        key.copy_(k)
        return
    with torch._C._AutoDispatchBelowAutograd():
        ops.apply_rotary_pos_emb(query, key, cos, sin, layout, rotary_mode)
