"""A thin ctypes path to ropekit's aclnn face (CANN's C API), for tests: the partial
rotary multiply (and its gradient) and RopeWithSinCosCache (V1 and V2).

Tensors are aclTensors over numpy buffers; the operators run through both phases
(GetWorkspaceSize, then the launch on the default stream) followed by
aclrtSynchronizeStream(NULL), and the status codes are returned rather than raised.
aclInit(NULL) runs once when this module is imported.
"""
import ctypes
from collections import namedtuple

import numpy as np

from . import _abi, _types
from ._lib import RopekitError, bind
from ._tensor import element_strides

ACL_FORMAT_ND = _abi.ACL_FORMAT_ND
_OK = _abi.ACLNN_SUCCESS

_I64P = ctypes.POINTER(ctypes.c_int64)
_acl_init = bind("aclInit", ctypes.c_int, [ctypes.c_char_p])
_recent = bind("aclGetRecentErrMsg", ctypes.c_char_p, [])
_create_tensor = bind("aclCreateTensor", ctypes.c_void_p,
                      [_I64P, ctypes.c_uint64, ctypes.c_int, _I64P, ctypes.c_int64,
                       ctypes.c_int, _I64P, ctypes.c_uint64, ctypes.c_void_p])
_destroy_tensor = bind("aclDestroyTensor", ctypes.c_int32, [ctypes.c_void_p])
_create_int_array = bind("aclCreateIntArray", ctypes.c_void_p, [_I64P, ctypes.c_uint64])
_destroy_int_array = bind("aclDestroyIntArray", ctypes.c_int32, [ctypes.c_void_p])
_sync = bind("aclrtSynchronizeStream", ctypes.c_int, [ctypes.c_void_p])
_PHASE1 = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p,
           ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_void_p)]
_PHASE2 = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_void_p, ctypes.c_void_p]
_ROPE1 = [ctypes.c_void_p] * 5 + [ctypes.c_int64, ctypes.c_bool]
_ROPE2 = [ctypes.c_void_p] * 2 + [ctypes.POINTER(ctypes.c_uint64),
                                  ctypes.POINTER(ctypes.c_void_p)]
_ROPE_OPS = {
    1: (bind("aclnnRopeWithSinCosCacheGetWorkspaceSize", ctypes.c_int32, _ROPE1 + _ROPE2),
        bind("aclnnRopeWithSinCosCache", ctypes.c_int32, _PHASE2)),
    2: (bind("aclnnRopeWithSinCosCacheV2GetWorkspaceSize", ctypes.c_int32,
             _ROPE1 + [ctypes.c_int64] + _ROPE2),
        bind("aclnnRopeWithSinCosCacheV2", ctypes.c_int32, _PHASE2)),
}
_OPS = {
    "forward": (bind("aclnnInplacePartialRotaryMulGetWorkspaceSize", ctypes.c_int32, _PHASE1),
                bind("aclnnInplacePartialRotaryMul", ctypes.c_int32, _PHASE2)),
    "grad": (bind("aclnnInplacePartialRotaryMulGradGetWorkspaceSize", ctypes.c_int32, _PHASE1),
             bind("aclnnInplacePartialRotaryMulGrad", ctypes.c_int32, _PHASE2)),
}

# Status of each step; a step that did not run is None. `message` is
# aclGetRecentErrMsg() after the first failing step ("" when all succeeded).
Result = namedtuple("Result", "workspace launch sync message")
Result.ok = property(lambda r: (r.workspace, r.launch, r.sync) == (_OK, _OK, _OK))


def recent_error():
    """aclGetRecentErrMsg() of the calling thread."""
    raw = _recent()
    return raw.decode("utf-8", "replace") if raw else ""


def _init():
    status = _acl_init(None)
    if status not in (_abi.ACL_SUCCESS, _abi.ACL_ERROR_REPEAT_INITIALIZE):
        raise RopekitError(status, recent_error(), "aclInit")


_init()


def _i64(values):
    values = [int(v) for v in values]
    return (ctypes.c_int64 * max(len(values), 1))(*values), len(values)


class AclTensor:
    """Owns one aclTensor handle; keeps the numpy buffer it points into alive."""

    def __init__(self, handle, buffer):
        self.handle = handle
        self.buffer = buffer

    def destroy(self):
        """Frees the handle (idempotent)."""
        if self.handle:
            _destroy_tensor(self.handle)
            self.handle = None

    def __del__(self):
        self.destroy()


def _dtype_of(arr, dtype):
    """aclDataType of a numpy array: int64 arrays (positions) are ACL_INT64 unless
    another type is named; floats as in partial_rotary."""
    if arr.dtype == np.int64 and dtype in (None, "i64", "int64", _types.I64):
        return _types.I64
    if (isinstance(dtype, (int, np.integer)) and not isinstance(dtype, bool)
            and int(dtype) not in _types.STORAGE):
        return int(dtype)  # any other aclDataType number, for validation tests
    return _types.dtype_id(arr, dtype, "tensor")


def create_tensor_raw(buffer, view_shape, dtype, strides, offset, storage_shape):
    """aclCreateTensor(view_shape, dtype, strides (elements; None = contiguous),
    offset (elements), ND, storage_shape, data of numpy `buffer`). Returns an AclTensor,
    or None when aclCreateTensor rejects the arguments. dtype is a name or id."""
    dims, ndim = _i64(view_shape)
    st = None if strides is None else _i64(strides)[0]
    sdims, sn = _i64(storage_shape)
    ident = dtype if isinstance(dtype, int) else _dtype_of(buffer, dtype)
    handle = _create_tensor(dims, ndim, ident, st, int(offset), ACL_FORMAT_ND, sdims, sn,
                            buffer.ctypes.data)
    return AclTensor(handle, buffer) if handle else None


def create_tensor(arr, dtype=None):
    """An aclTensor describing numpy view `arr` exactly: data = the lowest address the
    view touches, offset = the distance of arr's first element from it, strides in
    elements, storage = the 1-D span of elements the view covers. dtype as in
    partial_rotary (None infers float32/float16/float64; "bf16" for uint16 bits; the aclnn
    operators refuse float64 with CANN's codes)."""
    ident = _dtype_of(arr, dtype)
    strides = element_strides(arr, "tensor")
    lo = sum((n - 1) * s for n, s in zip(arr.shape, strides) if s < 0 and n > 0)
    hi = sum((n - 1) * s for n, s in zip(arr.shape, strides) if s > 0 and n > 0)
    if arr.size == 0:
        lo = hi = 0
    base = arr.ctypes.data + lo * arr.itemsize
    dims, ndim = _i64(arr.shape)
    st, _ = _i64(strides)
    sdims, sn = _i64([hi - lo + 1])
    handle = _create_tensor(dims, ndim, ident, st, -lo, ACL_FORMAT_ND, sdims, sn, base)
    if not handle:
        raise RopekitError(0, recent_error(), "aclCreateTensor")
    return AclTensor(handle, arr)


def int_array(values):
    """aclCreateIntArray(values); the caller destroys it with destroy_int_array."""
    buf, n = _i64(values)
    return _create_int_array(buf, n)


def destroy_int_array(handle):
    """aclDestroyIntArray."""
    if handle:
        _destroy_int_array(handle)


def run_tensors(op, x, cos, sin, rotary_mode=1, partial_slice=None, *, workspace_size_ptr=True,
                executor_ptr=True):
    """Runs op ("forward" or "grad") on AclTensor objects (or None for a NULL tensor).
    partial_slice: None passes a NULL aclIntArray, a sequence creates one (any length).
    Returns a Result of the status codes."""
    get_ws, launch = _OPS[op]
    arr = None if partial_slice is None else int_array(partial_slice)
    ws = ctypes.c_uint64(12345)
    ex = ctypes.c_void_p(None)
    try:
        status = get_ws(x.handle if x else None, cos.handle if cos else None,
                        sin.handle if sin else None, int(rotary_mode), arr,
                        ctypes.byref(ws) if workspace_size_ptr else None,
                        ctypes.byref(ex) if executor_ptr else None)
    finally:
        destroy_int_array(arr)
    if status != _OK:
        return Result(status, None, None, recent_error())
    workspace = np.empty(max(int(ws.value), 1), dtype=np.uint8)
    status = launch(workspace.ctypes.data if ws.value else None, ws.value, ex, None)
    if status != _OK:
        return Result(_OK, status, None, recent_error())
    status = _sync(None)
    return Result(_OK, _OK, status, recent_error() if status else "")


def _run(op, x, cos, sin, rotary_mode, partial_slice, x_dtype, cs_dtype):
    tx = create_tensor(x, x_dtype)
    tc = create_tensor(np.asarray(cos), cs_dtype)
    ts = create_tensor(np.asarray(sin), cs_dtype)
    try:
        return run_tensors(op, tx, tc, ts, _types.mode_id(rotary_mode), partial_slice)
    finally:
        for t in (tx, tc, ts):
            t.destroy()


def inplace_partial_rotary_mul(x, cos, sin, rotary_mode=1, partial_slice=None, *,
                               x_dtype=None, cs_dtype=None):
    """aclnnInplacePartialRotaryMul on numpy views x, cos, sin (x updated in place);
    partial_slice None passes NULL. Returns a Result of the status codes."""
    return _run("forward", x, cos, sin, rotary_mode, partial_slice, x_dtype, cs_dtype)


def inplace_partial_rotary_mul_grad(dy, cos, sin, rotary_mode=1, partial_slice=None, *,
                                    x_dtype=None, cs_dtype=None):
    """aclnnInplacePartialRotaryMulGrad on numpy views (dy becomes dx in place).
    Returns a Result of the status codes."""
    return _run("grad", dy, cos, sin, rotary_mode, partial_slice, x_dtype, cs_dtype)


# ---- RopeWithSinCosCache (V1 and V2) --------------------------------------------------

def run_rope_tensors(version, positions, query_in, key_in, cos_sin_cache, mrope_section,
                     head_size, is_neox_style, cache_mode, query_out, key_out, *,
                     workspace_size_ptr=True, executor_ptr=True):
    """Runs aclnnRopeWithSinCosCache (version 1; cache_mode is ignored) or
    aclnnRopeWithSinCosCacheV2 (version 2) on AclTensor objects (None for a NULL tensor).
    mrope_section: None passes a NULL aclIntArray, a sequence creates one. Returns a
    Result of the status codes (phase 1, launch, aclrtSynchronizeStream)."""
    get_ws, launch = _ROPE_OPS[version]
    arr = None if mrope_section is None else int_array(mrope_section)
    ws = ctypes.c_uint64(12345)
    ex = ctypes.c_void_p(None)
    handles = [t.handle if t else None for t in (positions, query_in, key_in, cos_sin_cache)]
    outs = [t.handle if t else None for t in (query_out, key_out)]
    mode = [] if version == 1 else [int(cache_mode)]
    try:
        status = get_ws(*handles, arr, int(head_size), bool(is_neox_style), *mode, *outs,
                        ctypes.byref(ws) if workspace_size_ptr else None,
                        ctypes.byref(ex) if executor_ptr else None)
    finally:
        destroy_int_array(arr)
    if status != _OK:
        return Result(status, None, None, recent_error())
    workspace = np.empty(max(int(ws.value), 1), dtype=np.uint8)
    status = launch(workspace.ctypes.data if ws.value else None, ws.value, ex, None)
    if status != _OK:
        return Result(_OK, status, None, recent_error())
    status = _sync(None)
    return Result(_OK, _OK, status, recent_error() if status else "")


def _rope(version, positions, query_in, key_in, cos_sin_cache, mrope_section, head_size,
          is_neox_style, cache_mode, query_out, key_out, x_dtype, cache_dtype):
    query_out = query_in if query_out is None else query_out
    key_out = key_in if key_out is None else key_out
    if cache_dtype is None and np.asarray(cos_sin_cache).dtype == np.uint16:
        cache_dtype = x_dtype
    tensors = [create_tensor(np.asarray(positions)), create_tensor(query_in, x_dtype),
               create_tensor(key_in, x_dtype),
               create_tensor(np.asarray(cos_sin_cache), cache_dtype),
               create_tensor(query_out, x_dtype), create_tensor(key_out, x_dtype)]
    try:
        return run_rope_tensors(version, *tensors[:4], mrope_section, head_size,
                                is_neox_style, cache_mode, *tensors[4:])
    finally:
        for t in tensors:
            t.destroy()


def rope_with_sin_cos_cache(positions, query_in, key_in, cos_sin_cache, mrope_section,
                            head_size, is_neox_style, query_out=None, key_out=None, *,
                            x_dtype=None, cache_dtype=None):
    """aclnnRopeWithSinCosCache on numpy views (positions int64; query/key/cache of one
    dtype, "bf16" for uint16 bits). query_out/key_out None write in place (the output
    tensor describes the input view). mrope_section None passes NULL. Returns a Result
    of the status codes; a position out of range shows as sync ==
    ACL_ERROR_RT_AICORE_EXCEPTION."""
    return _rope(1, positions, query_in, key_in, cos_sin_cache, mrope_section, head_size,
                 is_neox_style, 0, query_out, key_out, x_dtype, cache_dtype)


def rope_with_sin_cos_cache_v2(positions, query_in, key_in, cos_sin_cache, mrope_section,
                               head_size, is_neox_style, cache_mode, query_out=None,
                               key_out=None, *, x_dtype=None, cache_dtype=None):
    """aclnnRopeWithSinCosCacheV2 (V1 plus cacheMode: 0 sectioned, 1 interleaved mrope);
    see rope_with_sin_cos_cache. Returns a Result of the status codes."""
    return _rope(2, positions, query_in, key_in, cos_sin_cache, mrope_section, head_size,
                 is_neox_style, cache_mode, query_out, key_out, x_dtype, cache_dtype)
