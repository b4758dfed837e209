"""Calls into libropekit's native API on torch tensors' own memory and strides."""
import ctypes
import os

import torch

from .. import native as _np_native
from .._lib import RopekitError, bind
from .._tensor import RopekitTensor
from ..rope import _config, _RopeConfig

_TP = ctypes.POINTER(RopekitTensor)
_partial_rotary = bind("ropekit_partial_rotary", ctypes.c_int,
                       [_TP, _TP, _TP, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                        ctypes.c_int])
_rope = bind("ropekit_rope", ctypes.c_int,
             [_TP, _TP, _TP, _TP, _TP, _TP, ctypes.POINTER(_RopeConfig)])
_set_num_threads = bind("ropekit_set_num_threads", ctypes.c_int, [ctypes.c_int])

# ropekit_dtype of each torch dtype the library takes.
DTYPES = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 27, torch.int64: 9}
# ropekit_status -> the exception torch users expect for it.
_ERRORS = {1: ValueError, 2: ValueError, 3: NotImplementedError, 4: IndexError,
           5: MemoryError}


def describe(t):
    """A RopekitTensor over tensor t's memory: data pointer (storage offset included),
    dtype, shape and strides in elements. The caller keeps t alive during the call."""
    r = RopekitTensor()
    r.data = t.data_ptr()
    r.dtype = DTYPES[t.dtype]
    n = t.dim()
    r.ndim = n
    if n:
        r.shape[:n] = t.shape
        r.strides[:n] = t.stride()
    return r


def _raise(status, api):
    """Raises the library's failure as the exception class torch users expect."""
    message = f"{api}: {_np_native.last_error()}"
    cls = _ERRORS.get(int(status), RuntimeError)
    err = cls(message)
    raise err from RopekitError(status, message, api)


# Threads follow torch.get_num_threads() unless the user set ropekit's own count
# (ropekit.set_num_threads or ROPEKIT_NUM_THREADS).
_synced_threads = None


def _sync_threads():
    global _synced_threads
    if _np_native.threads_set_by_user() or os.environ.get("ROPEKIT_NUM_THREADS"):
        _synced_threads = None
        return
    n = torch.get_num_threads()
    if n != _synced_threads:
        _set_num_threads(n)
        _synced_threads = n


def partial_rotary_(x, r1, r2, mode, start, end, backward):
    """Rotates x[..., start:end] in place (ropekit_partial_rotary)."""
    _sync_threads()
    tx, tc, ts = describe(x), describe(r1), describe(r2)
    status = _partial_rotary(ctypes.byref(tx), ctypes.byref(tc), ctypes.byref(ts), mode, start,
                             end, 1 if backward else 0)
    if status:
        _raise(status, "ropekit_partial_rotary")


def rope(positions, q_in, k_in, cache, q_out, k_out, head_size, is_neox, sections, cache_mode):
    """ropekit_rope: q_out/k_out may be q_in/k_in (in place); k_in None: query only."""
    _sync_threads()
    cfg, keep = _config(head_size, 0 if is_neox else 1, sections, cache_mode)
    tp, tc = describe(positions), describe(cache)
    tqi, tqo = describe(q_in), describe(q_out)
    tki = tko = None
    if k_in is not None:
        tki, tko = describe(k_in), describe(k_out)
    status = _rope(ctypes.byref(tp), ctypes.byref(tqi), ctypes.byref(tki) if tki else None,
                   ctypes.byref(tc), ctypes.byref(tqo), ctypes.byref(tko) if tko else None,
                   ctypes.byref(cfg))
    del keep
    if status:
        _raise(status, "ropekit_rope")
