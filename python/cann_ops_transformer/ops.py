"""cann_ops_transformer.ops: CANN's signatures, defaults and documented checks, then
torch.ops.ropekit (autograd, torch.compile and torch.export come with the ops)."""
import torch

import ropekit.torch  # noqa: F401  (registers torch.ops.ropekit)
from ropekit.torch import _args, _native

_PACKAGE = "cann_ops_transformer"


def _fail(exc, op, what, rule):
    raise exc(f"{_PACKAGE}.{op}: {what}: {rule}")


def _check(op, x, r1, r2, rotary_mode, partial_slice, x_name, backward):
    """Refuses what CANN refuses, so that a call that fails on the NPU fails here too: the
    aclnn operator's own rules (4-D tensors, D even and at most 1024, the modes, dtypes,
    broadcast and slice CANN takes) asked of the library's CANN-rules plan, and the torch
    binding's (torchapi_inplace_partial_rotary_mul.md): for the backward the slice range
    and contiguous tensors. Returns the slice as [start, end]."""
    devices = _args.CPU_DEVICES if all(t.device.type == "cpu" for t in (x, r1, r2)
                                       if isinstance(t, torch.Tensor)) else _args.FAKE_DEVICES
    values = [0, 0] if partial_slice is None else partial_slice
    try:
        mode, start, end = _args.partial_rotary(op, x, r1, r2, rotary_mode, values, x_name,
                                                devices)
    except (TypeError, ValueError, RuntimeError) as e:  # the same checks, CANN's package named
        raise type(e)(str(e).replace("ropekit.", f"{_PACKAGE}.", 1)) from None
    if backward:
        d = x.shape[-1] if x.dim() else 0
        if not (0 <= start <= end <= d):
            _fail(ValueError, op, f"partial_slice = [{start}, {end}]",
                  f"must satisfy 0 <= start <= end <= D = {d}")
        for name, t in ((x_name, x), ("r1", r1), ("r2", r2)):
            if not t.is_contiguous():
                _fail(ValueError, op, f"{name} strides = {list(t.stride())}",
                      "must be contiguous")
    _native.check_cann_partial_rotary(_PACKAGE, op, x, r1, r2, mode, start, end, backward)
    return [start, end]


def inplace_partial_rotary_mul(x, r1, r2, *, rotary_mode="interleave", partial_slice=None):
    """Rotates x[..., start:end] in place with cos r1 and sin r2 (aclnnInplacePartialRotaryMul).
    partial_slice None means [0, 0], a no-op (CANN's default). Returns None."""
    slc = _check("inplace_partial_rotary_mul", x, r1, r2, rotary_mode, partial_slice, "x", False)
    torch.ops.ropekit.inplace_partial_rotary_mul(x, r1, r2, rotary_mode=rotary_mode,
                                                 partial_slice=slc)


def inplace_partial_rotary_mul_backward(grad_output, r1, r2, *, rotary_mode="interleave",
                                        partial_slice=None):
    """The gradient, in place on grad_output (aclnnInplacePartialRotaryMulGrad)."""
    slc = _check("inplace_partial_rotary_mul_backward", grad_output, r1, r2, rotary_mode,
                 partial_slice, "grad_output", True)
    torch.ops.ropekit.inplace_partial_rotary_mul_backward(grad_output, r1, r2,
                                                          rotary_mode=rotary_mode,
                                                          partial_slice=slc)
