"""Calls into libropekit's native API on torch tensors. The CPU kernels run the library's
one-shot calls on the tensors' own memory and strides; the fake kernels describe their
fake or meta tensors without data (shapes, strides, dtypes) and ask the library's plan
creation, which checks exactly what the one-shot calls check before they touch data, in
the same order. Either way a failure raises the library's message with the op's name in
place of the C function's: "ropekit.<op>: <param> = <value>: <rule>"."""
import ctypes
import os
import threading

import torch

from .. import _abi
from .. import native as _np_native
from .._lib import RopekitError, bind
from .._tensor import MAX_DIMS, RopekitTensor
from ..rope import _config, _RopeConfig
from ._args import concrete

_TP = ctypes.POINTER(RopekitTensor)
_CP = ctypes.POINTER(_RopeConfig)
_PLAN = ctypes.POINTER(ctypes.c_void_p)
_PR_ARGS = [_TP, _TP, _TP, ctypes.c_int, ctypes.c_int64, ctypes.c_int64, ctypes.c_int]
_partial_rotary = bind("ropekit_partial_rotary", ctypes.c_int, _PR_ARGS)
_partial_rotary_plan = bind("ropekit_partial_rotary_plan_create", ctypes.c_int,
                            _PR_ARGS + [_PLAN])
_rope = bind("ropekit_rope", ctypes.c_int, [_TP] * 6 + [_CP])
_rope_plan = bind("ropekit_rope_plan_create", ctypes.c_int, [_TP] * 6 + [_CP, _PLAN])
_cann_partial_rotary_plan = bind(
    "ropekit_cann_partial_rotary_plan_create", ctypes.c_int,
    [ctypes.c_int, _TP, _TP, _TP, ctypes.c_int64, ctypes.POINTER(ctypes.c_int64),
     ctypes.c_uint64, _PLAN, ctypes.POINTER(ctypes.c_int32)])
_plan_destroy = bind("ropekit_plan_destroy", None, [ctypes.c_void_p])
_set_num_threads = bind("ropekit_set_num_threads", ctypes.c_int, [ctypes.c_int])

# The number the library is given for each torch dtype: its ropekit_dtype for the types it
# takes, else the aclDataType number (ropekit_dtype's values are CANN's), so that the
# library itself refuses, say, an int32 x; ACL_DT_UNDEFINED for a type with no number.
_ACL_NAMES = {"int32": "ACL_INT32", "int16": "ACL_INT16", "int8": "ACL_INT8",
              "uint8": "ACL_UINT8", "uint16": "ACL_UINT16", "uint32": "ACL_UINT32",
              "uint64": "ACL_UINT64", "bool": "ACL_BOOL", "complex32": "ACL_COMPLEX32",
              "complex64": "ACL_COMPLEX64", "complex128": "ACL_COMPLEX128",
              "float8_e5m2": "ACL_FLOAT8_E5M2", "float8_e4m3fn": "ACL_FLOAT8_E4M3FN",
              "float8_e8m0fnu": "ACL_FLOAT8_E8M0"}
DTYPES = {torch.float32: _abi.ROPEKIT_F32, torch.float16: _abi.ROPEKIT_F16,
          torch.bfloat16: _abi.ROPEKIT_BF16, torch.float64: _abi.ROPEKIT_F64,
          torch.int64: _abi.ROPEKIT_I64,
          **{getattr(torch, t): getattr(_abi, a) for t, a in _ACL_NAMES.items()
             if hasattr(torch, t)}}
# ropekit_status -> the exception torch users expect for it.
_ERRORS = {_abi.ROPEKIT_NULL_POINTER: ValueError, _abi.ROPEKIT_INVALID_ARGUMENT: ValueError,
           _abi.ROPEKIT_UNSUPPORTED: NotImplementedError, _abi.ROPEKIT_OUT_OF_RANGE: IndexError,
           _abi.ROPEKIT_NO_MEMORY: MemoryError}
_FORWARD, _BACKWARD = _abi.ROPEKIT_FORWARD, _abi.ROPEKIT_BACKWARD
_NEOX, _GPTJ = _abi.ROPEKIT_ROPE_NEOX, _abi.ROPEKIT_ROPE_GPTJ


def describe(t):
    """A RopekitTensor over tensor t's memory: data pointer (storage offset included),
    dtype, shape and strides in elements. The caller keeps t alive during the call. A
    rank above the library's limit is described as such (the library refuses it)."""
    r = RopekitTensor()
    r.data = t.data_ptr()
    r.dtype = DTYPES.get(t.dtype, _abi.ACL_DT_UNDEFINED)
    n = t.dim()
    r.ndim = n
    k = min(n, MAX_DIMS)
    if k:
        r.shape[:k] = t.shape[:k]
        r.strides[:k] = t.stride()[:k]
    return r


def describe_layout(t):
    """A RopekitTensor of t's layout only (data NULL), for fake and meta tensors whose sizes
    may be symbolic: their hints are used, without a guard. None when a size has no hint
    (data-dependent): the CPU kernel checks such a call when it runs."""
    r = RopekitTensor()
    r.dtype = DTYPES.get(t.dtype, _abi.ACL_DT_UNDEFINED)
    n = t.dim()
    r.ndim = n
    for k in range(min(n, MAX_DIMS)):
        size, stride = concrete(t.shape[k]), concrete(t.stride()[k])
        if size is None or stride is None:
            return None
        r.shape[k], r.strides[k] = size, stride
    return r


def _raise(status, api, op, package="ropekit"):
    """Raises the library's failure as the exception class torch users expect, the op
    (package.op) named where the library names its C function."""
    detail = _np_native.last_error()
    prefix = f"{api}: "
    message = f"{package}.{op}: {detail[len(prefix):] if detail.startswith(prefix) else detail}"
    cls = _ERRORS.get(int(status), RuntimeError)
    raise cls(message) from RopekitError(status, detail, api, _np_native.status_name(status))


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


# Prepared calls: the argument conversion runs once per layout (dtypes, shapes, strides,
# the op's scalars); later calls with the same layout only set the data pointers of the
# ctypes descriptors made then. Per thread, as the descriptors are rewritten per call.
# The library validates every call (the rules are its own); a failed call prepares nothing
# new but raises its message each time.
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


# ---- InplacePartialRotaryMul ----


def partial_rotary_(op, op_key, x, r1, r2, convert, backward):
    """Rotates x[..., start:end] in place (ropekit_partial_rotary). convert() turns the
    op's arguments into (mode id, start, end); it runs once per layout."""

    def make():
        mode, start, end = convert()
        descs = (describe(x), describe(r1), describe(r2))
        args = (mode, start, end, _BACKWARD if backward else _FORWARD)
        return descs, tuple(ctypes.byref(d) for d in descs), args

    descs, refs, args = _prepared(("pr", backward, op_key, _layout(x), _layout(r1),
                                   _layout(r2)), make)
    _bind(descs, (x, r1, r2))
    _sync_threads()
    status = _partial_rotary(*refs, *args)
    if status:
        _raise(status, "ropekit_partial_rotary", op)


def check_partial_rotary(op, x, r1, r2, mode, start, end, backward):
    """The fake kernel's validation: ropekit_partial_rotary_plan_create on the layouts of
    x, r1, r2 (the plan is destroyed at once)."""
    descs = tuple(describe_layout(t) for t in (x, r1, r2))
    start, end = concrete(start), concrete(end)
    if None in descs or start is None or end is None:
        return
    plan = ctypes.c_void_p()
    status = _partial_rotary_plan(*(ctypes.byref(d) for d in descs), mode, start, end,
                                  _BACKWARD if backward else _FORWARD, ctypes.byref(plan))
    if status:
        _raise(status, "ropekit_partial_rotary_plan_create", op)
    _plan_destroy(plan)


def check_cann_partial_rotary(package, op, x, r1, r2, mode, start, end, backward):
    """What CANN's aclnnInplacePartialRotaryMul (or its gradient) would refuse, refused:
    ropekit_cann_partial_rotary_plan_create on the layouts of x, r1, r2 (the plan is
    destroyed at once). Sizes without a hint are left to the op's own check."""
    descs = tuple(describe_layout(t) for t in (x, r1, r2))
    start, end = concrete(start), concrete(end)
    if None in descs or start is None or end is None:
        return
    which = (_abi.ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL_GRAD if backward
             else _abi.ROPEKIT_CANN_INPLACE_PARTIAL_ROTARY_MUL)
    api = _abi.ropekit_cann_op_names[which] + "GetWorkspaceSize"
    slc = (ctypes.c_int64 * 2)(start, end)
    plan, code = ctypes.c_void_p(), ctypes.c_int32()
    status = _cann_partial_rotary_plan(which, *(ctypes.byref(d) for d in descs), mode, slc, 2,
                                       ctypes.byref(plan), ctypes.byref(code))
    if status:
        _raise(status, api, op, package)
    _plan_destroy(plan)


# ---- RopeWithSinCosCache ----


def _rope_config(head_size, is_neox, sections, cache_mode, offsets):
    """(config, keep-alive) of the library's rope config; None when a value has no hint."""
    head_size, cache_mode = concrete(head_size), concrete(cache_mode)
    if sections is not None:
        sections = [concrete(s) for s in sections]
    if head_size is None or cache_mode is None or (sections and None in sections):
        return None
    cfg, keep = _config(head_size, _NEOX if is_neox else _GPTJ, sections, cache_mode)
    if offsets is not None:
        cfg.offsets = ctypes.pointer(offsets)
    return cfg, (keep, offsets)


def rope(op, op_key, positions, q_in, k_in, cache, q_out, k_out, convert, offsets=None):
    """ropekit_rope: q_out/k_out may be q_in/k_in (in place); k_in None: query only;
    offsets None: none. convert() turns the op's scalars into (head_size, is_neox,
    sections, cache_mode); it runs once per layout."""
    tensors = (positions, q_in, k_in, cache, q_out, k_out, offsets)

    def make():
        head_size, is_neox, sections, cache_mode = convert()
        descs = tuple(None if t is None else describe(t) for t in tensors)
        cfg, keep = _rope_config(head_size, is_neox, sections, cache_mode, descs[6])
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
        _raise(status, "ropekit_rope", op)


def check_rope(op, positions, q_in, k_in, cache, q_out, k_out, head_size, is_neox, sections,
               cache_mode, offsets=None):
    """The fake kernel's validation (and the backward's, before it negates the cache):
    ropekit_rope_plan_create on the tensors' layouts (the plan is destroyed at once)."""
    descs = tuple(None if t is None else describe_layout(t)
                  for t in (positions, q_in, k_in, cache, q_out, k_out, offsets))
    if any(d is None and t is not None for d, t in
           zip(descs, (positions, q_in, k_in, cache, q_out, k_out, offsets))):
        return
    config = _rope_config(head_size, is_neox, sections, cache_mode, descs[6])
    if config is None:
        return
    plan = ctypes.c_void_p()
    status = _rope_plan(*(None if d is None else ctypes.byref(d) for d in descs[:6]),
                        ctypes.byref(config[0]), ctypes.byref(plan))
    if status:
        _raise(status, "ropekit_rope_plan_create", op)
    _plan_destroy(plan)
