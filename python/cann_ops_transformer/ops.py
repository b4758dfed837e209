"""cann_ops_transformer.ops: CANN's signatures, defaults and documented checks, then
torch.ops.ropekit (autograd, torch.compile and torch.export come with the ops)."""
import torch

import ropekit.torch  # noqa: F401  (registers torch.ops.ropekit)
from ropekit._abi import ROPEKIT_CANN_PARTIAL_ROTARY_MAX_D as _MAX_D  # CANN's largest D


def _fail(exc, op, what, rule):
    raise exc(f"cann_ops_transformer.{op}: {what}: {rule}")


def _check(op, x, r1, r2, partial_slice, x_name, backward):
    """CANN's documented restrictions (torchapi_inplace_partial_rotary_mul.md and its
    binding): x 4-D with 0 < D <= 1024 and D even; r1, r2 4-D; a 2-value slice; and for
    the backward the slice range and contiguous tensors. ropekit's op checks the rest."""
    for name, t in ((x_name, x), ("r1", r1), ("r2", r2)):
        if not isinstance(t, torch.Tensor):
            _fail(TypeError, op, f"{name} = {type(t).__name__}", "must be a torch.Tensor")
        if t.dim() != 4:
            _fail(ValueError, op, f"{name} shape = {list(t.shape)}", "must be 4-D (B, S, N, D)")
    d = x.shape[-1]
    if d > _MAX_D or d % 2:
        _fail(ValueError, op, f"{x_name} shape = {list(x.shape)}",
              f"the last dim D must be even and at most {_MAX_D}")
    values = [0, 0] if partial_slice is None else list(partial_slice)
    if len(values) != 2:
        _fail(ValueError, op, f"partial_slice = {partial_slice!r}", "must have 2 values")
    start, end = (int(v) for v in values)
    if backward:
        if not (0 <= start <= end <= d):
            _fail(ValueError, op, f"partial_slice = [{start}, {end}]",
                  f"must satisfy 0 <= start <= end <= D = {d}")
        for name, t in ((x_name, x), ("r1", r1), ("r2", r2)):
            if not t.is_contiguous():
                _fail(ValueError, op, f"{name} strides = {list(t.stride())}",
                      "must be contiguous")
    return [start, end]


def inplace_partial_rotary_mul(x, r1, r2, *, rotary_mode="interleave", partial_slice=None):
    """Rotates x[..., start:end] in place with cos r1 and sin r2 (aclnnInplacePartialRotaryMul).
    partial_slice None means [0, 0], a no-op (CANN's default). Returns None."""
    slc = _check("inplace_partial_rotary_mul", x, r1, r2, partial_slice, "x", False)
    torch.ops.ropekit.inplace_partial_rotary_mul(x, r1, r2, rotary_mode=rotary_mode,
                                                 partial_slice=slc)


def inplace_partial_rotary_mul_backward(grad_output, r1, r2, *, rotary_mode="interleave",
                                        partial_slice=None):
    """The gradient, in place on grad_output (aclnnInplacePartialRotaryMulGrad)."""
    slc = _check("inplace_partial_rotary_mul_backward", grad_output, r1, r2, partial_slice,
                 "grad_output", True)
    torch.ops.ropekit.inplace_partial_rotary_mul_backward(grad_output, r1, r2,
                                                          rotary_mode=rotary_mode,
                                                          partial_slice=slc)
