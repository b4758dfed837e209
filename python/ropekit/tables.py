"""Cos/sin tables (include/ropekit/ropekit.h, "Cos/sin tables"): the RopeWithSinCosCache
cache, InplacePartialRotaryMul's coefficient rows and the inverse frequencies, with the
rope scaling variants (linear, dynamic NTK, YaRN, Llama-3).

Angles are computed by the library in double precision and each stored value is rounded
once to the requested dtype (float64 tables hold the double values themselves). bfloat16
tables come back as uint16 arrays of raw bits.
"""
import ctypes
import dataclasses
from typing import Optional

import numpy as np

from . import _types
from ._lib import bind
from .native import _check

# ropekit_rope_scaling_type
SCALING_TYPES = {"none": 0, "linear": 1, "dynamic": 2, "dynamic_ntk": 2, "yarn": 3,
                 "llama3": 4}
_SCALING_NAMES = {0: "none", 1: "linear", 2: "dynamic", 3: "yarn", 4: "llama3"}


class _ScalingStruct(ctypes.Structure):
    """struct ropekit_rope_scaling."""

    _fields_ = [
        ("type", ctypes.c_int),
        ("factor", ctypes.c_double),
        ("original_max_position", ctypes.c_int64),
        ("beta_fast", ctypes.c_double),
        ("beta_slow", ctypes.c_double),
        ("extrapolation_factor", ctypes.c_double),
        ("attn_factor", ctypes.c_double),
        ("low_freq_factor", ctypes.c_double),
        ("high_freq_factor", ctypes.c_double),
    ]


_SP = ctypes.POINTER(_ScalingStruct)
_defaults = bind("ropekit_rope_scaling_defaults", None, [_SP, ctypes.c_int])
_inv_freq = bind("ropekit_rope_inv_freq", ctypes.c_int,
                 [ctypes.c_void_p, ctypes.c_int64, ctypes.c_double, ctypes.c_int64, _SP])
_cache_build = bind("ropekit_cos_sin_cache_build", ctypes.c_int,
                    [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                     ctypes.c_double, _SP])
_coeffs_build = bind("ropekit_rotary_coeffs_build", ctypes.c_int,
                     [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64,
                      ctypes.c_int64, ctypes.c_int, ctypes.c_double, _SP])

_FIELDS = ("factor", "original_max_position", "beta_fast", "beta_slow",
           "extrapolation_factor", "attn_factor", "low_freq_factor", "high_freq_factor")


@dataclasses.dataclass
class RopeScaling:
    """A rope scaling description (struct ropekit_rope_scaling).

    type: "none", "linear", "dynamic" (dynamic NTK; "dynamic_ntk" too), "yarn" or
    "llama3" (or the numeric ropekit_rope_scaling_type). Fields left None take the
    library's defaults for the type (ropekit_rope_scaling_defaults: factor 1,
    original_max_position 8192, beta_fast 32, beta_slow 1, extrapolation_factor 1,
    attn_factor 1, low_freq_factor 1, high_freq_factor 4).
    """

    type: object = "none"
    factor: Optional[float] = None
    original_max_position: Optional[int] = None
    beta_fast: Optional[float] = None
    beta_slow: Optional[float] = None
    extrapolation_factor: Optional[float] = None
    attn_factor: Optional[float] = None
    low_freq_factor: Optional[float] = None
    high_freq_factor: Optional[float] = None

    def resolved(self):
        """A copy with every None field replaced by the library default of its type and
        `type` given by name (ids without a name are kept as ints)."""
        st = _struct_of(self)
        values = {f: getattr(st, f) for f in _FIELDS}
        values["original_max_position"] = int(values["original_max_position"])
        return RopeScaling(type=_SCALING_NAMES.get(st.type, st.type), **values)


def scaling_type_id(kind):
    """Maps a scaling type name to its ropekit_rope_scaling_type id; ints pass through
    unchanged (the library validates them)."""
    if isinstance(kind, str):
        key = kind.lower()
        if key not in SCALING_TYPES:
            raise ValueError(f"scaling type {kind!r}: must be one of none, linear, dynamic, "
                             "yarn, llama3")
        return SCALING_TYPES[key]
    if isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
        return int(kind)
    raise TypeError(f"scaling type {kind!r}: must be a string or an int")


def rope_scaling_defaults(kind):
    """The library defaults of scaling type `kind` as a fully filled RopeScaling."""
    return RopeScaling(type=kind).resolved()


def _as_scaling(scaling):
    """None, a RopeScaling, or a dict of RopeScaling fields ("type" or "rope_type" names
    the type) -> RopeScaling or None."""
    if scaling is None or isinstance(scaling, RopeScaling):
        return scaling
    if isinstance(scaling, dict):
        args = dict(scaling)
        if "rope_type" in args:
            if "type" in args:
                raise ValueError("scaling: give 'type' or 'rope_type', not both")
            args["type"] = args.pop("rope_type")
        unknown = set(args) - set(_FIELDS) - {"type"}
        if unknown:
            raise ValueError(f"scaling: unknown field(s) {sorted(unknown)}; known: type, "
                             f"{', '.join(_FIELDS)}")
        return RopeScaling(**args)
    raise TypeError("scaling must be None, a RopeScaling or a dict")


def _struct_of(scaling):
    """Builds the C struct: library defaults of the type, then the given fields."""
    st = _ScalingStruct()
    _defaults(ctypes.byref(st), scaling_type_id(scaling.type))
    for f in _FIELDS:
        v = getattr(scaling, f)
        if v is not None:
            setattr(st, f, int(v) if f == "original_max_position" else float(v))
    return st


def _scaling_arg(scaling):
    """(pointer argument, keep-alive) for a scaling description (None -> NULL)."""
    scaling = _as_scaling(scaling)
    if scaling is None:
        return None, None
    st = _struct_of(scaling)
    return ctypes.byref(st), st


def inv_freq(rotary_dim, base=10000.0, max_positions=0, scaling=None):
    """The rotary_dim / 2 inverse frequencies after scaling (ropekit_rope_inv_freq), as
    float64. max_positions matters for dynamic NTK only."""
    h = int(rotary_dim) // 2 if int(rotary_dim) > 0 else 0
    out = np.zeros(max(h, 1), np.float64)
    ptr, keep = _scaling_arg(scaling)
    _check(_inv_freq(out.ctypes.data, int(rotary_dim), float(base), int(max_positions), ptr),
           "ropekit_rope_inv_freq")
    del keep
    return out[:h]


def _storage(dtype):
    ident = _types.float_dtype_id(dtype, "dtype")
    return ident, _types.STORAGE.get(ident, np.dtype(np.uint8))


def cos_sin_cache(max_positions, rotary_dim, base=10000.0, dtype="f32", scaling=None):
    """RopeWithSinCosCache's cache (ropekit_cos_sin_cache_build): a [max_positions,
    rotary_dim] array with cos(p * inv_freq) in columns [0, rotary_dim/2) and sin in the
    rest (YaRN scales both by its mscale). dtype "f32", "f16", "bf16" (uint16 bits) or "f64"."""
    ident, storage = _storage(dtype)
    m, r = int(max_positions), int(rotary_dim)
    out = np.zeros((max(m, 0), max(r, 0)), storage)
    ptr, keep = _scaling_arg(scaling)
    _check(_cache_build(out.ctypes.data, ident, m, r, float(base), ptr),
           "ropekit_cos_sin_cache_build")
    del keep
    return out


def rotary_coeffs(num_positions, length, mode="interleave", base=10000.0, dtype="f32",
                  scaling=None):
    """InplacePartialRotaryMul's coefficient rows (ropekit_rotary_coeffs_build): (cos, sin),
    each [num_positions, length], laid out for `mode` with each frequency on both members
    of its pair (interleave [c0 c0 c1 c1 ..]; half and interleave-half [c0 c1 .. | c0 c1
    ..]; quarter: two half-layout blocks of length/2 holding frequencies 0..length/4-1 and
    length/4..length/2-1)."""
    ident, storage = _storage(dtype)
    n, L = int(num_positions), int(length)
    cos = np.zeros((max(n, 0), max(L, 0)), storage)
    sin = np.zeros_like(cos)
    ptr, keep = _scaling_arg(scaling)
    _check(_coeffs_build(cos.ctypes.data, sin.ctypes.data, ident, n, L, _types.mode_id(mode),
                         float(base), ptr), "ropekit_rotary_coeffs_build")
    del keep
    return cos, sin
