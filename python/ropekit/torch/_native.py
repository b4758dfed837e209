"""Calls into libropekit's native API on torch tensors' own memory and strides."""
import ctypes
import os
import threading

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
DTYPES = {torch.float32: 0, torch.float16: 1, torch.bfloat16: 27, torch.float64: 11,
          torch.int64: 9}
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
    detail = _np_native.last_error()
    # the library's message usually names the function already
    message = detail if detail.startswith(f"{api}:") else f"{api}: {detail}"
    cls = _ERRORS.get(int(status), RuntimeError)
    err = cls(message)
    raise err from RopekitError(status, message, api)


# Threads follow torch.get_num_threads() unless the user set ropekit's own count
# (ropekit.set_num_threads, or ROPEKIT_NUM_THREADS, which the library reads once).
_synced_threads = None
_env_threads = bool(os.environ.get("ROPEKIT_NUM_THREADS"))


def _sync_threads():
    global _synced_threads
    if _env_threads or _np_native.threads_set_by_user():
        _synced_threads = None
        return
    n = torch.get_num_threads()
    if n != _synced_threads:
        _set_num_threads(n)
        _synced_threads = n


# Prepared calls: the argument checks run once per layout (dtypes, shapes, strides, the
# op's scalars); later calls with the same layout only set the data pointers of the
# ctypes descriptors made then. Per thread, as the descriptors are rewritten per call.
_MAX_PREPARED = 256
_local = threading.local()


def _layout(t):
    return None if t is None else (t.dtype, t.shape, t.stride(), t.is_cpu)


def _prepared(key, make):
    cache = getattr(_local, "calls", None)
    if cache is None:
        cache = _local.calls = {}
    call = cache.get(key)
    if call is None:
        call = make()
        if len(cache) >= _MAX_PREPARED:
            cache.clear()
        cache[key] = call
    return call


def _bind(descs, tensors):
    for d, t in zip(descs, tensors):
        if d is not None:
            d.data = t.data_ptr()


def partial_rotary_(op_key, x, r1, r2, check, backward):
    """Rotates x[..., start:end] in place (ropekit_partial_rotary). check() validates the
    arguments and returns (mode id, start, end, no-op); it runs once per layout. Returns
    whether anything was written."""

    def make():
        mode, start, end, noop = check()
        descs = (describe(x), describe(r1), describe(r2))
        return descs, tuple(ctypes.byref(d) for d in descs), (mode, start, end, int(backward)), noop

    descs, refs, args, noop = _prepared(("pr", backward, op_key, _layout(x), _layout(r1),
                                         _layout(r2)), make)
    if noop:
        return False
    _bind(descs, (x, r1, r2))
    _sync_threads()
    status = _partial_rotary(*refs, *args)
    if status:
        _raise(status, "ropekit_partial_rotary")
    return True


def rope(op_key, positions, q_in, k_in, cache, q_out, k_out, check, offsets=None):
    """ropekit_rope: q_out/k_out may be q_in/k_in (in place); k_in None: query only;
    offsets None: none. check() validates the arguments and returns (head_size, is_neox,
    sections, cache_mode); it runs once per layout."""
    tensors = (positions, q_in, k_in, cache, q_out, k_out, offsets)

    def make():
        head_size, is_neox, sections, cache_mode = check()
        cfg, keep = _config(head_size, 0 if is_neox else 1, sections, cache_mode)
        descs = tuple(None if t is None else describe(t) for t in tensors)
        if descs[6] is not None:
            cfg.offsets = ctypes.pointer(descs[6])
        refs = tuple(None if d is None else ctypes.byref(d) for d in descs[:6])
        return descs, refs + (ctypes.byref(cfg),), (cfg, keep)

    q_lay, k_lay = _layout(q_in), _layout(k_in)
    key = ("rope", op_key, _layout(positions), q_lay, k_lay, _layout(cache),
           q_lay if q_out is q_in else _layout(q_out), k_lay if k_out is k_in else _layout(k_out),
           _layout(offsets))
    descs, refs, _ = _prepared(key, make)
    _bind(descs, tensors)
    _sync_threads()
    status = _rope(*refs)
    if status:
        _raise(status, "ropekit_rope")
