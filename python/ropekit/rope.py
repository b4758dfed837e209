"""Rope with a cos/sin cache (RopeWithSinCosCache; vLLM's rotary_embedding) on the native
face: ropekit_rope and ropekit_rope_plan_create / ropekit_rope_execute.

Tokens are [T] or batched [B, S] (the token dims, given by positions' rank): positions
are int64 [T] or [B, S] (rope), [m, T] or [m, B, S] (mrope with m sections); query/key
are the token dims followed by [H*head_size] or [H, head_size], numpy arrays of any
strides (q and k views into a fused qkv buffer, a [B, H, S, D] array transposed to
[B, S, H, D]). The cache is [max_positions, rotary_dim] with cos in the first half of
each row and sin in the second. Optional offsets (int64, positions' token dims, any
strides) are added to the positions to pick the cache rows. The first rotary_dim
elements of every head are rotated (NeoX or GPT-J pairing), the rest copied bit for bit.
"""
import ctypes

import numpy as np

from . import _abi, _types
from ._lib import bind
from ._structs import structure
from ._tensor import RopekitTensor, element_strides, tensor_of
from .native import _check


_RopeConfig = structure("ropekit_rope_config", "struct ropekit_rope_config.",
                        {"ropekit_tensor": RopekitTensor})


_TP = ctypes.POINTER(RopekitTensor)
_rope = bind("ropekit_rope", ctypes.c_int, [_TP, _TP, _TP, _TP, _TP, _TP,
                                             ctypes.POINTER(_RopeConfig)])
_plan_create = bind("ropekit_rope_plan_create", ctypes.c_int,
                    [_TP, _TP, _TP, _TP, _TP, _TP, ctypes.POINTER(_RopeConfig),
                     ctypes.POINTER(ctypes.c_void_p)])
_execute = bind("ropekit_rope_execute", ctypes.c_int,
                [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                 ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p])
_execute_offsets = bind("ropekit_rope_execute_offsets", ctypes.c_int,
                       [ctypes.c_void_p] * 8)
_plan_destroy = bind("ropekit_plan_destroy", None, [ctypes.c_void_p])
_plan_describe = bind("ropekit_plan_describe", ctypes.c_size_t,
                      [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t])


def _config(head_size, style, sections, cache_mode):
    """(config struct, keep-alive of the sections buffer)."""
    cfg = _RopeConfig()
    cfg.head_size = int(head_size)
    cfg.style = _types.style_id(style)
    cfg.cache_mode = int(cache_mode)
    buf = None
    if sections is not None:
        values = [int(v) for v in sections]
        buf = (ctypes.c_int64 * max(len(values), 1))(*values)
        cfg.sections = ctypes.cast(buf, ctypes.POINTER(ctypes.c_int64))
        cfg.num_sections = len(values)
    return cfg, buf


def _positions(positions, name="positions"):
    """positions (or offsets) as an int64 numpy array (a view when it already is one)."""
    arr = np.asarray(positions)
    if arr.dtype != np.int64:
        if arr.dtype.kind not in "iu":
            raise TypeError(f"{name}: integer values required, got numpy {arr.dtype}")
        arr = arr.astype(np.int64)
    return arr


def _side(arr_in, arr_out, x_dtype, name):
    """Resolves one (input, output) pair: output None means in place. Returns
    (input, output, dtype id) or (None, None, None) when the input is None."""
    if arr_in is None:
        if arr_out is not None:
            raise ValueError(f"{name}_out given without {name}")
        return None, None, None
    if not isinstance(arr_in, np.ndarray):
        raise TypeError(f"{name} must be a numpy array")
    if arr_out is None:
        arr_out = arr_in
    if not isinstance(arr_out, np.ndarray):
        raise TypeError(f"{name}_out must be a numpy array (it is written)")
    if not arr_out.flags.writeable:
        raise ValueError(f"{name}_out is read-only" if arr_out is not arr_in else
                         f"{name} is read-only; pass {name}_out or a writable array "
                         "(the default is in place)")
    ident = _types.dtype_id(arr_in, x_dtype, name)
    if _types.dtype_id(arr_out, x_dtype if x_dtype is not None else ident,
                       f"{name}_out") != ident:
        raise TypeError(f"{name}_out must have {name}'s dtype")
    return arr_in, arr_out, ident


def _tensors(positions, query, key, cos_sin_cache, query_out, key_out, x_dtype, cache_dtype,
             offsets=None):
    """Resolves arguments into (arrays, tensor descriptors) in C order: positions, query,
    key, cache, query_out, key_out, offsets (None for absent)."""
    pos = _positions(positions)
    off = None if offsets is None else _positions(offsets, "offsets")
    if query is None and key is None:
        raise ValueError("query and key are both None: nothing to rotate")
    q, qo, qd = _side(query, query_out, x_dtype, "query")
    k, ko, kd = _side(key, key_out, x_dtype, "key")
    if qd is not None and kd is not None and qd != kd:
        raise TypeError("query and key must have one dtype")
    xd = qd if qd is not None else kd
    cache = np.asarray(cos_sin_cache)
    if cache_dtype is None and cache.dtype == np.uint16 and xd == _types.BF16:
        cache_dtype = _types.BF16  # bfloat16 bits, like query/key
    cd = _types.dtype_id(cache, cache_dtype, "cos_sin_cache")
    arrays = (pos, q, k, cache, qo, ko, off)
    ids = (_types.I64, xd, xd, cd, xd, xd, _types.I64)
    names = ("positions", "query", "key", "cos_sin_cache", "query_out", "key_out", "offsets")
    tensors = tuple(None if a is None else tensor_of(a, d, n)
                    for a, d, n in zip(arrays, ids, names))
    return arrays, tensors


def _ptr(t):
    return None if t is None else ctypes.byref(t)


def _config_with_offsets(head_size, style, sections, cache_mode, offsets_tensor):
    cfg, keep = _config(head_size, style, sections, cache_mode)
    if offsets_tensor is not None:
        cfg.offsets = ctypes.pointer(offsets_tensor)
    return cfg, keep


def rope(positions, query, key, cos_sin_cache, *, head_size, style="neox", sections=None,
         cache_mode=_abi.ROPEKIT_MROPE_SECTIONED, query_out=None, key_out=None, x_dtype=None,
         cache_dtype=None, offsets=None):
    """Rotates query and key with rows of cos_sin_cache selected by positions
    (ropekit_rope).

    positions: int64 [T] or [B, S] (rope), or [m, T] / [m, B, S] for mrope with m
    sections. query, key: the token dims ([T] or [B, S]) then [H*head_size] or
    [H, head_size], any strides; either may be None (key-only or query-only). offsets:
    None, or integers shaped like positions' token dims (any strides, e.g. one per batch
    with stride 0) added to every position row. cos_sin_cache: [max_positions,
    rotary_dim]. style: "neox" (rotate-half)
    or "gptj" (interleaved). sections: None for rope, else the mrope section sizes
    (summing to rotary_dim / 2; a first value of 0 means plain rope). cache_mode
    (ropekit_rope_cache_mode): 0 sectioned, 1 Qwen3-VL's interleaving (3 sections), 2
    ERNIE-4.5-VL's [h w h w ... t t t] (sections (h, w, t), h == w), 3 openPangu-VL's
    interleaving (2 or 3 sections). query_out/key_out: None rotates in place.
    x_dtype names the query/key type (needed for bfloat16 bits in uint16 arrays);
    cache_dtype the cache's (it may differ; a uint16 cache is bfloat16 when query/key
    are; float64 query/key go with a float64 cache only, and are computed in double).
    Returns (query_out, key_out). Raises RopekitError on failure, with nothing written
    (ROPEKIT_OUT_OF_RANGE for a position + offset outside [0, max_positions)).
    """
    arrays, tensors = _tensors(positions, query, key, cos_sin_cache, query_out, key_out,
                               x_dtype, cache_dtype, offsets)
    cfg, keep = _config_with_offsets(head_size, style, sections, cache_mode, tensors[6])
    status = _rope(*(_ptr(t) for t in tensors[:6]), ctypes.byref(cfg))
    del keep
    _check(status, "ropekit_rope")
    return arrays[4], arrays[5]


class RopePlan:
    """A planned rope (ropekit_rope_plan_create): validated once for the shapes, strides
    and dtypes of the arrays given, then run on arrays of exactly that layout with
    execute(). A plan made with offsets is executed with offsets of their layout
    (ropekit_rope_execute_offsets). Use as a context manager or call close() to free it
    early."""

    def __init__(self, positions, query, key, cos_sin_cache, *, head_size, style="neox",
                 sections=None, cache_mode=_abi.ROPEKIT_MROPE_SECTIONED, query_out=None,
                 key_out=None, x_dtype=None, cache_dtype=None, offsets=None):
        self._handle = None
        arrays, tensors = _tensors(positions, query, key, cos_sin_cache, query_out, key_out,
                                   x_dtype, cache_dtype, offsets)
        self._layout = [self._layout_of(a) for a in arrays]
        self._in_place = (query is not None and query_out is None,
                          key is not None and key_out is None)
        self._x_dtype, self._cache_dtype = x_dtype, cache_dtype
        cfg, keep = _config_with_offsets(head_size, style, sections, cache_mode, tensors[6])
        handle = ctypes.c_void_p(None)
        status = _plan_create(*(_ptr(t) for t in tensors[:6]), ctypes.byref(cfg),
                              ctypes.byref(handle))
        del keep
        _check(status, "ropekit_rope_plan_create")
        self._handle = handle.value

    @staticmethod
    def _layout_of(arr):
        if arr is None:
            return None
        return arr.shape, tuple(element_strides(arr, "array")), arr.dtype

    def execute(self, positions, query, key, cos_sin_cache, query_out=None, key_out=None,
                offsets=None):
        """Runs the plan on these arrays (same layouts as at planning; outputs None means
        in place when the plan was made in place; offsets exactly when planned with
        them). Returns (query_out, key_out)."""
        if not self._handle:
            raise ValueError("the plan is closed")
        if query_out is None and self._in_place[0]:
            query_out = query
        if key_out is None and self._in_place[1]:
            key_out = key
        pos = _positions(positions)
        off = None if offsets is None else _positions(offsets, "offsets")
        arrays = (pos, query, key, np.asarray(cos_sin_cache), query_out, key_out, off)
        names = ("positions", "query", "key", "cos_sin_cache", "query_out", "key_out", "offsets")
        for a, want, name in zip(arrays, self._layout, names):
            if (a is None) != (want is None):
                raise ValueError(f"{name}: {'missing' if a is None else 'not planned'}")
            if a is not None and self._layout_of(a) != want:
                raise ValueError(f"{name}: shape/strides/dtype {self._layout_of(a)} differ "
                                 f"from the planned {want}")
        for a, name in ((query_out, "query_out"), (key_out, "key_out")):
            if a is not None and not a.flags.writeable:
                raise ValueError(f"{name} is read-only")
        data = [None if a is None else a.ctypes.data for a in arrays]
        if off is None:
            _check(_execute(self._handle, *data[:6]), "ropekit_rope_execute")
        else:
            _check(_execute_offsets(self._handle, data[0], data[6], *data[1:6]),
                   "ropekit_rope_execute_offsets")
        return query_out, key_out

    def describe(self):
        """The library's one-line description of the plan."""
        if not self._handle:
            return "closed"
        n = _plan_describe(self._handle, None, 0)
        buf = ctypes.create_string_buffer(n + 1)
        _plan_describe(self._handle, buf, n + 1)
        return buf.value.decode()

    def close(self):
        """Frees the plan (idempotent)."""
        if self._handle:
            _plan_destroy(self._handle)
            self._handle = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()


def rope_plan(positions, query, key, cos_sin_cache, **kwargs):
    """RopePlan(...): plans a rope for these layouts (see rope for the arguments)."""
    return RopePlan(positions, query, key, cos_sin_cache, **kwargs)
