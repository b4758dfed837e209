"""bfloat16 as raw bits in numpy uint16 arrays (numpy has no bfloat16 type)."""
import numpy as np


def bf16_from_f32(a):
    """Rounds float32 values to bfloat16 with round-to-nearest-even and returns the
    bits as a uint16 array of the same shape. Overflow gives +-inf; a NaN stays a
    quiet NaN with its sign (never rounds into inf)."""
    bits = np.ascontiguousarray(a, dtype=np.float32).view(np.uint32).astype(np.uint64)
    is_nan = (bits & 0x7FFFFFFF) > 0x7F800000
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
    quiet = (bits >> 16) | 0x0040
    return np.where(is_nan, quiet, rounded).astype(np.uint16)


def bf16_to_f32(bits):
    """Widens bfloat16 bits (a uint16 array) exactly to float32."""
    b = np.ascontiguousarray(bits, dtype=np.uint16)
    return (b.astype(np.uint32) << 16).view(np.float32)
