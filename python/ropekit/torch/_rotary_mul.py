"""torch.ops.ropekit.rotary_mul (RotaryPositionEmbedding, torch_npu's npu_rotary_mul) and
torch.ops.ropekit.apply_rotary_pos_emb (ApplyRotaryPosEmb, torch_npu's
npu_apply_rotary_pos_emb): schemas, CPU kernels, fake kernels and autograd.

rotary_mul rotates the whole last dim out of place: the CPU kernel is the library's
ropekit_partial_rotary_out over [0, D) into empty_like(input); rotary_mul_backward is the
same call with the backward direction (the gradient of the input). The gradients of r1
and r2 (cos and sin) are cos_sin_grad's. apply_rotary_pos_emb rotates query and key in
place with one cos/sin (ropekit_apply_rotary). Both fake kernels ask the library's plan
creation for the same call on the tensors' layouts (_native), so eager, fake and C agree
on every rule and message."""
import ctypes

import torch

from .. import _abi
from .._lib import bind
from . import _args, _native
from ._args import concrete
from ._ops import _LIB, _fake, _impl, _needs_grad, _written, ops

_TP = _native._TP
_PLAN = _native._PLAN
_OUT_ARGS = [_TP, _TP, _TP, _TP, ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_int]
_partial_rotary_out = bind("ropekit_partial_rotary_out", ctypes.c_int, _OUT_ARGS)
_partial_rotary_out_plan = bind("ropekit_partial_rotary_out_plan_create", ctypes.c_int,
                                _OUT_ARGS + [_PLAN])
_AR_ARGS = [_TP, _TP, _TP, _TP, ctypes.c_int, ctypes.c_int]
_apply_rotary = bind("ropekit_apply_rotary", ctypes.c_int, _AR_ARGS)
_apply_rotary_plan = bind("ropekit_apply_rotary_plan_create", ctypes.c_int, _AR_ARGS + [_PLAN])
_CODE = ctypes.POINTER(ctypes.c_int32)
_cann_rpe_plan = bind("ropekit_cann_rotary_position_embedding_plan_create", ctypes.c_int,
                      [_TP, _TP, _TP, ctypes.c_int64, _TP, _PLAN, _CODE])
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
        descs = tuple(_native.describe(t) for t in tensors)
        return descs, tuple(ctypes.byref(d) for d in descs)

    descs, refs = _native._prepared(key + tuple(_native._layout(t) for t in tensors), make)
    _native._bind(descs, tensors)
    _native._sync_threads()
    status = fn(*refs, *args)
    if status:
        _native._raise(status, api, op)


def _plan(op, fn, api, tensors, package="ropekit"):
    """The fake kernels' (and front-ends') validation: fn(descriptors of the tensors'
    layouts, &plan) makes a plan, destroyed at once; a layout with a size that has no hint
    is left to the CPU kernel."""
    descs = tuple(_native.describe_layout(t) for t in tensors)
    if None in descs:
        return
    plan = ctypes.c_void_p()
    status = fn(*(ctypes.byref(d) for d in descs), ctypes.byref(plan))
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


def _permute_in(x, rotary_mode):
    """The input in the output's pairing: interleave-half reads x interleaved and writes the
    half layout (spec §15.2); the other modes read x where they write."""
    if rotary_mode == "interleave-half":
        return torch.cat((x[..., 0::2], x[..., 1::2]), dim=-1)
    return x


def _rotate(y, rotary_mode):
    """rotate(y) of y = x*cos + rotate(x)*sin in the output's layout: the partner of each
    element, negated for the first of its pair (spec §3.3)."""
    if rotary_mode == "interleave":
        return torch.stack((-y[..., 1::2], y[..., 0::2]), dim=-1).flatten(-2)
    if rotary_mode == "quarter":
        q = y.unflatten(-1, (2, 2, -1))
        return torch.cat((-q[..., 1:, :], q[..., :1, :]), dim=-2).flatten(-3)
    h = y.shape[-1] // 2
    return torch.cat((-y[..., h:], y[..., :h]), dim=-1)


def cos_sin_grad(grad, x, r1, r2, rotary_mode, need_r1=True, need_r2=True):
    """(dr1, dr2) of out = rotary_mul(x, r1, r2): out = r1 * P(x) + r2 * rotate(P(x)), P the
    mode's input permutation, so dr1 = sum(grad * P(x)) and dr2 = sum(grad * rotate(P(x)))
    over the dims r1 and r2 are broadcast along, accumulated in float32 (float64 when any
    input is float64) and returned in r1's and r2's dtypes. (rotary_mul_backward's own
    gradient in r1, r2 is this with x the incoming gradient of its output.)"""
    wide = torch.float64 if torch.float64 in (grad.dtype, x.dtype, r1.dtype) else torch.float32
    g, px = grad.to(wide), _permute_in(x.to(wide), rotary_mode)
    dr1 = (g * px).sum_to_size(r1.shape).to(r1.dtype) if need_r1 else None
    dr2 = (g * _rotate(px, rotary_mode)).sum_to_size(r2.shape).to(r2.dtype) if need_r2 else None
    return dr1, dr2


def _rotary_setup(ctx, inputs, output):
    """Saves x (for the gradients of r1 and r2: the input, or the incoming gradient of
    rotary_mul_backward's output) only when one of them is needed."""
    x, r1, r2 = inputs[:3]
    ctx.rotary_mode = inputs[3] if len(inputs) > 3 else "half"
    ctx.cs = ctx.needs_input_grad[1] or ctx.needs_input_grad[2]
    ctx.save_for_backward(x if ctx.cs else None, r1, r2)


def _rotary_mul_grad(ctx, grad):
    x, r1, r2 = ctx.saved_tensors
    need = ctx.needs_input_grad
    dx = ops.rotary_mul_backward(grad, r1, r2, ctx.rotary_mode) if need[0] else None
    dr1, dr2 = (cos_sin_grad(grad, x, r1, r2, ctx.rotary_mode, need[1], need[2]) if ctx.cs
                else (None, None))
    return dx, dr1, dr2, None


def _rotary_mul_backward_grad(ctx, grad):
    """rotary_mul_backward(g) = R^T g is linear in g, whose gradient is R grad; in r1, r2:
    <grad, R^T g> = <R grad, g>, cos_sin_grad with the roles of g and x taken by g and grad."""
    g, r1, r2 = ctx.saved_tensors
    need = ctx.needs_input_grad
    dg = ops.rotary_mul(grad, r1, r2, ctx.rotary_mode) if need[0] else None
    dr1, dr2 = (cos_sin_grad(g, grad, r1, r2, ctx.rotary_mode, need[1], need[2]) if ctx.cs
                else (None, None))
    return dg, dr1, dr2, None


torch.library.register_autograd("ropekit::rotary_mul", _rotary_mul_grad,
                                setup_context=_rotary_setup, lib=_LIB)
torch.library.register_autograd("ropekit::rotary_mul_backward", _rotary_mul_backward_grad,
                                setup_context=_rotary_setup, lib=_LIB)


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
