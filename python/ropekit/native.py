"""Bindings of the native C API (include/ropekit/ropekit.h)."""
import ctypes

import numpy as np

from . import _abi, _types
from ._lib import RopekitError, bind
from ._tensor import RopekitTensor, tensor_of

_TP = ctypes.POINTER(RopekitTensor)
_partial_rotary = bind("ropekit_partial_rotary", ctypes.c_int,
                       [_TP, _TP, _TP, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                        ctypes.c_int])
_last_error = bind("ropekit_last_error", ctypes.c_char_p, [])
_status_name = bind("ropekit_status_name", ctypes.c_char_p, [ctypes.c_int])
_set_num_threads = bind("ropekit_set_num_threads", ctypes.c_int, [ctypes.c_int])
_get_num_threads = bind("ropekit_get_num_threads", ctypes.c_int, [])
_version_string = bind("ropekit_version_string", ctypes.c_char_p, [])
_isa_active = bind("ropekit_get_active_isa", ctypes.c_int, [])
_isa_name = bind("ropekit_isa_name", ctypes.c_char_p, [ctypes.c_int])
_isa_detected = bind("ropekit_isa_detected", ctypes.c_int, [])
_set_max_isa = bind("ropekit_set_max_isa", ctypes.c_int, [ctypes.c_int])
# ropekit_isa values by the library's names ("scalar", "avx2", "avx512"), and the names in
# the order of the values
ISA_IDS = {name: value for value, name in sorted(_abi.ropekit_isa_names.items())}
ISAS = tuple(ISA_IDS)


def last_error():
    """Text of the calling thread's most recent ropekit failure ("" if none)."""
    return _last_error().decode("utf-8", "replace")


def status_name(status):
    """Symbolic name of a ropekit_status code, e.g. "ROPEKIT_INVALID_ARGUMENT"."""
    return _status_name(int(status)).decode()


def _check(status, api):
    """Raises RopekitError for a non-zero ropekit_status."""
    if status != _abi.ROPEKIT_OK:
        raise RopekitError(status, last_error(), api, status_name(status))


def version():
    """Version string of the loaded library."""
    return _version_string().decode()


def active_isa():
    """Name of the instruction set new plans use ("scalar", "avx2", "avx512")."""
    return _isa_name(_isa_active()).decode()


def detected_isa():
    """Name of the best instruction set the CPU and OS support."""
    return _isa_name(_isa_detected()).decode()


def set_max_isa(isa):
    """Caps the instruction set of plans made afterwards ("scalar", "avx2", "avx512"
    or 0-2). Results are bit-identical under every cap."""
    if isinstance(isa, str) and isa not in ISA_IDS:
        raise ValueError(f"isa {isa!r}: must be one of {', '.join(ISAS)}")
    ident = ISA_IDS[isa] if isinstance(isa, str) else int(isa)
    _check(_set_max_isa(ident), "ropekit_set_max_isa")


_threads_set_by_user = False
_threads_listeners = []


def set_num_threads(threads):
    """Caps the threads one operator call uses; 0 restores the default (ropekit.torch's
    ops then follow torch.get_num_threads() again)."""
    global _threads_set_by_user
    _check(_set_num_threads(int(threads)), "ropekit_set_num_threads")
    _threads_set_by_user = int(threads) != 0
    for listener in _threads_listeners:
        listener(_threads_set_by_user)


def on_threads_set(listener):
    """Calls listener(set_by_user) after every set_num_threads."""
    _threads_listeners.append(listener)


def threads_set_by_user():
    """True while a set_num_threads(n > 0) call is in effect."""
    return _threads_set_by_user


def get_num_threads():
    """Current per-call thread cap."""
    return int(_get_num_threads())


def partial_rotary(x, cos, sin, mode="interleave", start=0, end=None, backward=False, *,
                   x_dtype=None, cs_dtype=None):
    """Rotates x[..., start:end] in place (ropekit_partial_rotary).

    x: writable numpy array [..., D] of any strides (float32, float16, float64, or uint16
    holding bfloat16 bits with x_dtype="bf16"). cos, sin: numpy arrays of one shape [..., L]
    with L = end - start, broadcastable to x's leading dimensions (right-aligned, each
    dimension equal to x's or 1, missing ones count as 1); their type is cs_dtype or
    inferred the same way. mode: "half", "interleave", "quarter", "interleave-half" or
    0-3. end None means D. backward=True applies the gradient (the transpose). float64 x
    goes with float64 cos/sin only (computed in double); other pairs mix freely.
    Returns x. Raises RopekitError (status, message) if the library rejects the call.
    """
    if not isinstance(x, np.ndarray):
        raise TypeError("x must be a numpy array (it is updated in place)")
    if not x.flags.writeable:
        raise ValueError("x is read-only; it is updated in place")
    cos = np.asarray(cos)
    sin = np.asarray(sin)
    xd = _types.dtype_id(x, x_dtype, "x")
    cd = _types.dtype_id(cos, cs_dtype, "cs")
    sd = _types.dtype_id(sin, cs_dtype, "cs")
    if end is None:
        end = x.shape[-1] if x.ndim else 0
    tx, tc, ts = tensor_of(x, xd, "x"), tensor_of(cos, cd, "cos"), tensor_of(sin, sd, "sin")
    status = _partial_rotary(ctypes.byref(tx), ctypes.byref(tc), ctypes.byref(ts),
                             _types.mode_id(mode), int(start), int(end),
                             _abi.ROPEKIT_BACKWARD if backward else _abi.ROPEKIT_FORWARD)
    _check(status, "ropekit_partial_rotary")
    return x
