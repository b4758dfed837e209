"""bfloat16 as raw bits in numpy uint16 arrays (numpy has no bfloat16 type), converted by
the library (ropekit_f32_to_bf16_array / ropekit_bf16_to_f32_array), so these round as the
operators round their results."""
import ctypes

import numpy as np

from ._lib import bind

_to_bf16 = bind("ropekit_f32_to_bf16_array", None,
                [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t])
_from_bf16 = bind("ropekit_bf16_to_f32_array", None,
                  [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t])


def bf16_from_f32(a):
    """Rounds float32 values to bfloat16 with round-to-nearest-even and returns the
    bits as a uint16 array of the same shape. Overflow gives +-inf; a NaN stays a
    quiet NaN with its sign (never rounds into inf)."""
    src = np.ascontiguousarray(a, dtype=np.float32)
    out = np.empty(src.shape, np.uint16)
    _to_bf16(out.ctypes.data, src.ctypes.data, src.size)
    return out


def bf16_to_f32(bits):
    """Widens bfloat16 bits (a uint16 array) exactly to float32."""
    src = np.ascontiguousarray(bits, dtype=np.uint16)
    out = np.empty(src.shape, np.float32)
    _from_bf16(out.ctypes.data, src.ctypes.data, src.size)
    return out
