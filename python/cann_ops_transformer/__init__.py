"""CANN's cann_ops_transformer Python API on the CPU, over ropekit's torch ops.

    from cann_ops_transformer.ops import inplace_partial_rotary_mul

runs CANN's examples with only the device changed ("npu" -> "cpu"). docs/torch.md
describes the mapping; all four rotary_mode strings are accepted (CANN: "interleave"
only).
"""
from .ops import inplace_partial_rotary_mul, inplace_partial_rotary_mul_backward

__all__ = ["inplace_partial_rotary_mul", "inplace_partial_rotary_mul_backward"]
