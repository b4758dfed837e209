"""CANN's Python API for InplacePartialRotaryMul (cann_ops_transformer), on numpy.

Mirrors `inplace_partial_rotary_mul` and `inplace_partial_rotary_mul_backward` (SPEC
section 7) and runs them on ropekit's native face. Superset of CANN: rotary_mode
accepts all four modes ("half", "interleave", "quarter", "interleave-half"; CANN
accepts only "interleave"), every (x, r1/r2) dtype pair, cos/sin of lower rank, and
head sizes above 1024, and float64 x with float64 r1/r2. bfloat16 arrays are uint16 bits
with x_dtype/cs_dtype="bf16".
"""
import numpy as np

from .native import partial_rotary


def _slice_of(partial_slice):
    """None means [0, 0] (a no-op, as CANN's default); otherwise exactly two ints."""
    if partial_slice is None:
        return 0, 0
    values = list(partial_slice)
    if len(values) != 2:
        raise ValueError(f"partial_slice must hold 2 values [start, end], got {len(values)}")
    return int(values[0]), int(values[1])


def _check_4d(x, name):
    if not isinstance(x, np.ndarray) or x.ndim != 4:
        raise ValueError(f"{name} must be a 4-D numpy array, got "
                         f"{getattr(x, 'ndim', type(x).__name__)}-D")


def inplace_partial_rotary_mul(x, r1, r2, *, rotary_mode="interleave", partial_slice=None,
                               x_dtype=None, cs_dtype=None):
    """Rotates x[..., start:end] in place with cos r1 and sin r2 (forward). x is 4-D;
    partial_slice None is [0, 0], which changes nothing. Returns None."""
    _check_4d(x, "x")
    start, end = _slice_of(partial_slice)
    partial_rotary(x, r1, r2, rotary_mode, start, end, backward=False,
                   x_dtype=x_dtype, cs_dtype=cs_dtype)


def inplace_partial_rotary_mul_backward(grad_output, r1, r2, *, rotary_mode="interleave",
                                        partial_slice=None, x_dtype=None, cs_dtype=None):
    """Turns grad_output (dL/dy) into dL/dx in place. As in CANN, grad_output is 4-D,
    0 <= start <= end <= D, and grad_output, r1, r2 are C-contiguous. Returns None."""
    _check_4d(grad_output, "grad_output")
    start, end = _slice_of(partial_slice)
    d = grad_output.shape[-1]
    if start < 0 or end < 0 or start > end or end > d:
        raise ValueError(f"partial_slice [{start}, {end}] must satisfy "
                         f"0 <= start <= end <= D = {d}")
    for name, arr in (("grad_output", grad_output), ("r1", r1), ("r2", r2)):
        if not isinstance(arr, np.ndarray) or not arr.flags.c_contiguous:
            raise ValueError(f"{name} must be a C-contiguous numpy array")
    partial_rotary(grad_output, r1, r2, rotary_mode, start, end, backward=True,
                   x_dtype=x_dtype, cs_dtype=cs_dtype)
