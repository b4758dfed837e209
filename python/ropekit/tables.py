"""Cos/sin tables (include/ropekit/ropekit.h, "Cos/sin tables"): the RopeWithSinCosCache
cache, InplacePartialRotaryMul's coefficient rows and the inverse frequencies, with the
rope scaling variants of transformers and vLLM (linear, dynamic NTK, NTK, dynamic NTK
alpha, YaRN, DeepSeek YaRN, Llama-3, LongRoPE) or the caller's own frequencies, the
attention scaling they bake into cos and sin, and rope_from_config, which reads all of it
from a model's config.json.

Angles are computed by the library in double precision and each stored value is rounded
once to the requested dtype (float64 tables hold the double values themselves). bfloat16
tables come back as uint16 arrays of raw bits.
"""
import ctypes
import dataclasses
from typing import Optional, Sequence

import numpy as np

from . import _abi, _types
from ._lib import bind
from ._structs import structure
from .native import _check

# ropekit_rope_scaling_type by the enumerators' names ("none", "linear", "dynamic_ntk",
# "yarn", ...) and "dynamic" (Hugging Face's name of dynamic NTK)
SCALING_TYPES = {name[len("ROPEKIT_SCALING_"):].lower(): value
                 for name, value in _abi.ropekit_rope_scaling_type.items()}
SCALING_TYPES["dynamic"] = SCALING_TYPES["dynamic_ntk"]
# the name RopeScaling.resolved() gives each type: the enumerator's, "dynamic" for
# dynamic NTK
_SCALING_NAMES = {value: name for name, value in SCALING_TYPES.items() if name != "dynamic_ntk"}

_DOUBLE_P = ctypes.POINTER(ctypes.c_double)
_ScalingStruct = structure("ropekit_rope_scaling", "struct ropekit_rope_scaling.")

_SP = ctypes.POINTER(_ScalingStruct)
_defaults = bind("ropekit_rope_scaling_defaults", None, [_SP, ctypes.c_int])
_inv_freq = bind("ropekit_rope_inv_freq", ctypes.c_int,
                 [ctypes.c_void_p, ctypes.c_int64, ctypes.c_double, ctypes.c_int64, _SP])
_table_freqs = bind("ropekit_rope_table_frequencies", ctypes.c_int,
                    [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_double,
                     ctypes.c_int64, _SP])
_attention_scaling = bind("ropekit_rope_attention_scaling", ctypes.c_int,
                          [ctypes.c_void_p, ctypes.c_int64, _SP])
_table_magnitude = bind("ropekit_rope_table_magnitude", ctypes.c_int,
                        [ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, _SP])
_softmax_scale = bind("ropekit_rope_softmax_scale", ctypes.c_int, [ctypes.c_void_p, _SP])
_cache_build = bind("ropekit_cos_sin_cache_build", ctypes.c_int,
                    [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                     ctypes.c_double, _SP])
_coeffs_build = bind("ropekit_rotary_coeffs_build", ctypes.c_int,
                     [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64,
                      ctypes.c_int64, ctypes.c_int, ctypes.c_double, _SP])
_cache_from_inv = bind("ropekit_cos_sin_cache_from_inv_freq", ctypes.c_int,
                       [ctypes.c_void_p, ctypes.c_int, ctypes.c_int64, ctypes.c_int64,
                        ctypes.c_void_p, ctypes.c_double])
_coeffs_from_inv = bind("ropekit_rotary_coeffs_from_inv_freq", ctypes.c_int,
                        [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int64,
                         ctypes.c_int64, ctypes.c_int, ctypes.c_void_p, ctypes.c_double])

# RopeScaling's truncate (the Hugging Face key) is the struct's no_truncate negated, so
# that zero is the struct's default
_STRUCT_FIELD = {"truncate": "no_truncate"}
_ARRAYS = ("short_factor", "long_factor")
# the struct's scalar fields, in its order, by RopeScaling's names: every field of the
# layout but the type, the factor arrays and their counts
_FIELDS = tuple({v: k for k, v in _STRUCT_FIELD.items()}.get(f, f)
                for f, ctype, _ in _abi.STRUCTS["ropekit_rope_scaling"][1]
                if f != "type" and not ctype.startswith("POINTER")
                and f not in tuple(a + "_count" for a in _ARRAYS))
_INT_FIELDS = {"original_max_position": int, "truncate": bool, "longrope_stacked": bool}


def _get_field(st, f):
    if f in _STRUCT_FIELD:
        return not getattr(st, _STRUCT_FIELD[f])
    return getattr(st, f)


def _set_field(st, f, v):
    if f in _STRUCT_FIELD:
        setattr(st, _STRUCT_FIELD[f], 0 if v else 1)
    else:
        setattr(st, f, int(v) if f in _INT_FIELDS else float(v))


@dataclasses.dataclass
class RopeScaling:
    """A rope scaling description (struct ropekit_rope_scaling).

    type: "none", "linear", "dynamic" (dynamic NTK; "dynamic_ntk" too), "yarn", "llama3",
    "longrope", "ntk", "dynamic_ntk_alpha" or "deepseek_yarn" (or the numeric
    ropekit_rope_scaling_type). Fields left None take the library's defaults for the type
    (ropekit_rope_scaling_defaults: factor 1, original_max_position 8192, beta_fast 32,
    beta_slow 1, extrapolation_factor 1, attn_factor 1, low_freq_factor 1,
    high_freq_factor 4, truncate True, attention_factor 0, mscale 0 (standing for 1),
    mscale_all_dim 0, mixed_b 0, alpha 1, longrope_stacked False, short_mscale 0,
    long_mscale 0).

    - yarn / deepseek_yarn: frequencies ramp between inv_freq / factor and inv_freq over
      the correction range of beta_fast, beta_slow at original_max_position (floored and
      ceiled unless truncate is False); cos and sin are scaled by (attention_factor if
      > 0 else mscale(factor, mscale or 1) / mscale(factor, mscale_all_dim)) * attn_factor,
      mscale(f, m) = 0.1 m ln f + 1 for f > 1, else 1.
    - longrope: short_factor and long_factor (rotary_dim / 2 divisors each); the table
      uses the long ones when it has more than original_max_position rows; cos and sin
      are scaled by attention_factor if > 0, else sqrt(1 + ln(factor) /
      ln(original_max_position)) for factor > 1; short_mscale / long_mscale > 0 replace
      that magnitude in the rows of their factors (vLLM's, Phi-3-small).
      longrope_stacked: vLLM's table, rows [0, original) short, then the long table from
      position 0 (index p + original).
    - ntk: base * factor and every frequency divided by factor^(2/R) (mixed_b 0), or
      frequency i divided by exp(ln(factor) (i+1)^b / (R/2)^b) (mixed_b = b > 0).
    - dynamic_ntk_alpha: base * alpha^(R / (R - 2)).
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
    truncate: Optional[bool] = None
    attention_factor: Optional[float] = None
    mscale: Optional[float] = None
    mscale_all_dim: Optional[float] = None
    mixed_b: Optional[float] = None
    alpha: Optional[float] = None
    short_factor: Optional[Sequence[float]] = None
    long_factor: Optional[Sequence[float]] = None
    longrope_stacked: Optional[bool] = None
    short_mscale: Optional[float] = None
    long_mscale: Optional[float] = None

    def resolved(self):
        """A copy with every None field replaced by the library default of its type and
        `type` given by name (ids without a name are kept as ints); the factor arrays
        become tuples (None when not given)."""
        st = _struct_of(self)
        values = {f: _INT_FIELDS.get(f, float)(_get_field(st, f)) for f in _FIELDS}
        for name in _ARRAYS:
            given = getattr(self, name)
            values[name] = None if given is None else tuple(float(v) for v in given)
        return RopeScaling(type=_SCALING_NAMES.get(st.type, st.type), **values)


_missing = set(_FIELDS) - {f.name for f in dataclasses.fields(RopeScaling)}
if _missing:  # a field the library has and RopeScaling does not
    raise ImportError(f"ropekit: RopeScaling lacks ropekit_rope_scaling's {sorted(_missing)}")


def scaling_type_id(kind):
    """Maps a scaling type name to its ropekit_rope_scaling_type id; ints pass through
    unchanged (the library validates them)."""
    if isinstance(kind, str):
        key = kind.lower()
        if key not in SCALING_TYPES:
            raise ValueError(f"scaling type {kind!r}: must be one of "
                             f"{', '.join(SCALING_TYPES)}")
        return SCALING_TYPES[key]
    if isinstance(kind, (int, np.integer)) and not isinstance(kind, bool):
        return int(kind)
    raise TypeError(f"scaling type {kind!r}: must be a string or an int")


def rope_scaling_defaults(kind):
    """The library defaults of scaling type `kind` as a fully filled RopeScaling."""
    return RopeScaling(type=kind).resolved()


_KNOWN_KEYS = ("type",) + _FIELDS + _ARRAYS


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
        unknown = set(args) - set(_KNOWN_KEYS)
        if unknown:
            raise ValueError(f"scaling: unknown field(s) {sorted(unknown)}; known: "
                             f"{', '.join(_KNOWN_KEYS)}")
        return RopeScaling(**args)
    raise TypeError("scaling must be None, a RopeScaling or a dict")


def _factor_array(values, name):
    arr = np.ascontiguousarray(np.asarray(values, dtype=np.float64).reshape(-1))
    if arr.ndim != 1:
        raise ValueError(f"scaling {name}: must be a sequence of numbers")
    return arr


def _struct_of(scaling):
    """Builds the C struct: library defaults of the type, then the given fields. The
    factor arrays it points to are kept alive by the struct (attribute _arrays)."""
    st = _ScalingStruct()
    _defaults(ctypes.byref(st), scaling_type_id(scaling.type))
    for f in _FIELDS:
        v = getattr(scaling, f)
        if v is not None:
            _set_field(st, f, v)
    st._arrays = []
    for name in _ARRAYS:
        values = getattr(scaling, name)
        if values is None:
            continue
        arr = _factor_array(values, name)
        st._arrays.append(arr)
        setattr(st, name, arr.ctypes.data_as(_DOUBLE_P) if arr.size else None)
        setattr(st, name + "_count", arr.size)
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
    float64, in the Hugging Face / vLLM view: angle = position * inv_freq (linear
    scaling: base^(-2i/R) / factor). max_positions matters for dynamic NTK (the base
    follows it) and longrope (long factors above original_max_position) only."""
    h = int(rotary_dim) // 2 if int(rotary_dim) > 0 else 0
    out = np.zeros(max(h, 1), np.float64)
    ptr, keep = _scaling_arg(scaling)
    _check(_inv_freq(out.ctypes.data, int(rotary_dim), float(base), int(max_positions), ptr),
           "ropekit_rope_inv_freq")
    del keep
    return out[:h]


def table_frequencies(rotary_dim, base=10000.0, max_positions=0, scaling=None):
    """(inv_freq, position_divisor) exactly as the table builders use them
    (ropekit_rope_table_frequencies): angle = (position / position_divisor) * inv_freq.
    position_divisor is the factor for linear scaling (inv_freq then unscaled) and 1
    otherwise."""
    h = int(rotary_dim) // 2 if int(rotary_dim) > 0 else 0
    out = np.zeros(max(h, 1), np.float64)
    divisor = ctypes.c_double(0.0)
    ptr, keep = _scaling_arg(scaling)
    _check(_table_freqs(out.ctypes.data, ctypes.addressof(divisor), int(rotary_dim),
                        float(base), int(max_positions), ptr), "ropekit_rope_table_frequencies")
    del keep
    return out[:h], divisor.value


def attention_scaling(rotary_dim, scaling=None):
    """The magnitude the tables bake into cos and sin (ropekit_rope_attention_scaling;
    transformers' attention_scaling): YaRN's mscale, LongRoPE's attention factor (rows of
    a set with short_mscale / long_mscale > 0 have that instead), else 1.0."""
    out = ctypes.c_double(0.0)
    ptr, keep = _scaling_arg(scaling)
    _check(_attention_scaling(ctypes.addressof(out), int(rotary_dim), ptr),
           "ropekit_rope_attention_scaling")
    del keep
    return out.value


def table_magnitude(rotary_dim, max_positions, row=0, scaling=None):
    """The magnitude of cos and sin in row `row` of a table of max_positions rows
    (ropekit_rope_table_magnitude): attention_scaling's, except in LongRoPE rows of a
    factor set with short_mscale / long_mscale > 0 (the long set for every row when
    max_positions > original_max_position, or in a stacked table from that row on)."""
    out = ctypes.c_double(0.0)
    ptr, keep = _scaling_arg(scaling)
    _check(_table_magnitude(ctypes.addressof(out), int(rotary_dim), int(max_positions), int(row),
                            ptr), "ropekit_rope_table_magnitude")
    del keep
    return out.value


def softmax_scale(scaling=None):
    """What DeepSeek-style models multiply their softmax scale by
    (ropekit_rope_softmax_scale): mscale(factor, mscale_all_dim)^2 for the YaRN types, 1
    for every other type and for None."""
    out = ctypes.c_double(0.0)
    ptr, keep = _scaling_arg(scaling)
    _check(_softmax_scale(ctypes.addressof(out), ptr), "ropekit_rope_softmax_scale")
    del keep
    return out.value


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


def cache_from_sin_cos(table):
    """A [positions, R] table of sin | cos (Hugging Face GPT-J's embed_positions, sine half
    first) as RopeWithSinCosCache's cos | sin cache: a new numpy array or torch tensor
    (whichever `table` is) with the two halves swapped."""
    r = table.shape[-1]
    if len(table.shape) != 2 or r % 2:
        raise ValueError(f"cache_from_sin_cos: table shape = {list(table.shape)}: must be "
                         "[positions, R] with R even")
    return table[:, list(range(r // 2, r)) + list(range(r // 2))]


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


def _given_inv_freq(inv_freq, op):
    arr = np.ascontiguousarray(np.asarray(inv_freq, dtype=np.float64))
    if arr.ndim != 1:
        raise ValueError(f"{op}: inv_freq shape = {list(arr.shape)}: must be one-dimensional")
    return arr


def cos_sin_cache_from_inv_freq(max_positions, inv_freq, dtype="f32", magnitude=1.0):
    """cos_sin_cache from the caller's frequencies (ropekit_cos_sin_cache_from_inv_freq):
    a [max_positions, 2 * len(inv_freq)] array with cos(p * inv_freq) | sin(p * inv_freq),
    both times magnitude, each value rounded once to dtype. inv_freq: float64 values (any
    sequence), finite; magnitude finite and > 0."""
    ident, storage = _storage(dtype)
    inv = _given_inv_freq(inv_freq, "cos_sin_cache_from_inv_freq")
    m, r = int(max_positions), 2 * inv.size
    out = np.zeros((max(m, 0), r), storage)
    _check(_cache_from_inv(out.ctypes.data, ident, m, r, inv.ctypes.data, float(magnitude)),
           "ropekit_cos_sin_cache_from_inv_freq")
    return out


def rotary_coeffs_from_inv_freq(num_positions, inv_freq, mode="interleave", dtype="f32",
                                magnitude=1.0):
    """rotary_coeffs from the caller's frequencies (ropekit_rotary_coeffs_from_inv_freq):
    (cos, sin), each [num_positions, 2 * len(inv_freq)] in the layout of `mode`, times
    magnitude."""
    ident, storage = _storage(dtype)
    inv = _given_inv_freq(inv_freq, "rotary_coeffs_from_inv_freq")
    n, L = int(num_positions), 2 * inv.size
    cos = np.zeros((max(n, 0), L), storage)
    sin = np.zeros_like(cos)
    _check(_coeffs_from_inv(cos.ctypes.data, sin.ctypes.data, ident, n, L, _types.mode_id(mode),
                            inv.ctypes.data, float(magnitude)),
           "ropekit_rotary_coeffs_from_inv_freq")
    return cos, sin


# ---- Hugging Face model configs ----------------------------------------------------
# One mapping from a config's rope_scaling / rope_parameters to a RopeScaling and the
# number of cache rows vLLM builds for it; ropekit.torch uses the same one.

def _get(params, key, default=None):
    """params[key], treating None as absent (configs spell "unset" both ways)."""
    value = params.get(key)
    return default if value is None else value


def _required(params, key, kind):
    if params.get(key) is None:
        raise ValueError(f"rope_scaling type = {kind!r}: needs {key!r}")
    return params[key]


def _no_scaling(params, max_position, config):
    return None, max_position


def _linear(params, max_position, config):
    factor = float(_required(params, "factor", "linear"))
    return RopeScaling("linear", factor=factor), int(max_position * factor)


def _dynamic(params, max_position, config):
    if params.get("alpha") is not None:  # Hunyuan: vLLM's DynamicNTKAlphaRotaryEmbedding
        return (RopeScaling("dynamic_ntk_alpha", alpha=float(params["alpha"])), max_position)
    factor = float(_required(params, "factor", "dynamic"))
    return (RopeScaling("dynamic", factor=factor, original_max_position=max_position),
            int(max_position * factor))


def _ntk(params, max_position, config):
    return (RopeScaling("ntk", factor=float(_required(params, "factor", "ntk")),
                        mixed_b=float(_get(params, "mixed_b", 0.0))), max_position)


def _yarn_fields(params, max_position):
    """The fields both YaRN flavours read; factor defaults to max_position / original."""
    original = int(_get(params, "original_max_position_embeddings", max_position))
    factor = float(_get(params, "factor", max_position / original))
    fields = dict(factor=factor, original_max_position=original,
                  beta_fast=float(_get(params, "beta_fast", 32)),
                  beta_slow=float(_get(params, "beta_slow", 1)),
                  extrapolation_factor=float(_get(params, "extrapolation_factor", 1.0)),
                  attn_factor=float(_get(params, "attn_factor", 1.0)),
                  truncate=bool(_get(params, "truncate", True)))
    if params.get("attention_factor") is not None:
        fields["attention_factor"] = float(params["attention_factor"])
    elif not _get(params, "apply_yarn_scaling", True):  # vLLM: attn_factor alone
        fields["attention_factor"] = 1.0
    return fields, int(original * factor)


def _yarn(params, max_position, config):
    fields, positions = _yarn_fields(params, max_position)
    # transformers uses mscale / mscale_all_dim only when both are set (and non-zero)
    if params.get("mscale") and params.get("mscale_all_dim"):
        fields.update(mscale=float(params["mscale"]),
                      mscale_all_dim=float(params["mscale_all_dim"]))
    return RopeScaling("yarn", **fields), positions


def _deepseek_yarn(params, max_position, config):
    fields, positions = _yarn_fields(params, max_position)
    fields.update(mscale=float(_get(params, "mscale", 1.0)),
                  mscale_all_dim=float(_get(params, "mscale_all_dim", 0.0)))
    return RopeScaling("deepseek_yarn", **fields), positions


def _llama3(params, max_position, config):
    return (RopeScaling("llama3", factor=float(_required(params, "factor", "llama3")),
                        original_max_position=int(_required(
                            params, "original_max_position_embeddings", "llama3")),
                        low_freq_factor=float(_get(params, "low_freq_factor", 1.0)),
                        high_freq_factor=float(_get(params, "high_freq_factor", 4.0))),
            max_position)


def _longrope(params, max_position, config):
    # Phi-3 keeps original_max_position_embeddings beside max_position_embeddings
    original = _get(params, "original_max_position_embeddings",
                    (config or {}).get("original_max_position_embeddings"))
    if original is None:
        raise ValueError("rope_scaling type = 'longrope': needs "
                         "'original_max_position_embeddings'")
    original = int(original)
    fields = dict(factor=float(_get(params, "factor", max_position / original)),
                  original_max_position=original,
                  short_factor=[float(v) for v in _required(params, "short_factor", "longrope")],
                  long_factor=[float(v) for v in _required(params, "long_factor", "longrope")])
    for key in ("attention_factor", "short_mscale", "long_mscale"):
        if params.get(key) is not None:
            fields[key] = float(params[key])
    return RopeScaling("longrope", **fields), max_position


# rope type (transformers' rope_type / type, vLLM's get_rope names) -> reader
ROPE_TYPES = {
    "default": _no_scaling, "none": _no_scaling, "mrope": _no_scaling, "openpangu": _no_scaling,
    "linear": _linear, "dynamic": _dynamic, "ntk": _ntk, "yarn": _yarn,
    "deepseek_yarn": _deepseek_yarn, "deepseek_llama_scaling": _deepseek_yarn,
    "llama3": _llama3, "longrope": _longrope, "su": _longrope,
}


def rope_type_of(params):
    """The rope type a rope_scaling / rope_parameters dict names ("default" if none)."""
    if not params:
        return "default"
    return params.get("rope_type", params.get("type")) or "default"


def scaling_from_rope_parameters(params, max_position, config=None):
    """(RopeScaling or None, cache rows) for a Hugging Face rope_scaling or
    rope_parameters dict of a model with max_position_embeddings = max_position. The
    rows are the cache length vLLM builds: linear and dynamic max_position * factor, YaRN
    original * factor, the others max_position. config (the whole model config) supplies
    keys some models keep outside the dict (Phi-3's original_max_position_embeddings).

    Types: default/none/mrope/openpangu, linear, dynamic (NTK by factor, or Hunyuan's alpha when
    "alpha" is given), ntk (factor, mixed_b), yarn (factor, original_max_position_
    embeddings, beta_fast, beta_slow, extrapolation_factor, attn_factor (multiplies),
    attention_factor (replaces the mscale), mscale and mscale_all_dim (used when both are
    set, as transformers does), truncate, apply_yarn_scaling), deepseek_yarn (vLLM:
    mscale default 1, mscale_all_dim default 0), llama3, longrope (or su; attention_factor,
    vLLM's short_mscale and long_mscale). An unknown
    type is a ValueError listing the known ones."""
    kind = rope_type_of(params)
    reader = ROPE_TYPES.get(str(kind).lower())
    if reader is None:
        raise ValueError(f"rope_scaling type = {kind!r}: must be one of "
                         f"{', '.join(ROPE_TYPES)}")
    return reader(params or {}, int(max_position), config)


# model types whose rotary embedding pairs adjacent elements (GPT-J style) in vLLM
# model_type values whose rope pairs (2j, 2j + 1) (GPT-J style, as vLLM sets
# is_neox_style=False for them); every other model type pairs (j, j + R/2)
GPTJ_STYLE_MODEL_TYPES = frozenset({"gptj", "deepseek_v2", "deepseek_v3", "kimi_k2", "llama4",
                                    "llama4_text", "glm", "glm4", "chatglm", "ernie4_5",
                                    "ernie4_5_moe", "ernie4_5_moe_vl", "ernie4_5_vl_moe",
                                    "ernie4_5_vl_moe_text"})

# model_type values with ERNIE-4.5-VL's 3-D rope (ropekit cache_mode 2): its own checkpoints'
# remote code and transformers' port
ERNIE_VL_MODEL_TYPES = frozenset({"ernie4_5_moe_vl", "ernie4_5_vl_moe", "ernie4_5_vl_moe_text"})
# model_type values whose mrope_interleaved means openPangu-VL's interleaving (cache_mode 3),
# as vLLM's openPangu models turn it into rope type "openpangu"
PANGU_MODEL_TYPES = frozenset({"PanguEmbedded"})


@dataclasses.dataclass
class RopeFromConfig:
    """What rope_from_config found and built.

    cache: [max_positions, rotary_dim] (cos | sin), rows = positions (stacked LongRoPE is
    not used here). attention_scaling: the magnitude baked into cos and sin (transformers'
    attention_scaling). softmax_scale_factor: what DeepSeek-style models multiply the
    softmax scale by (mscale(factor, mscale_all_dim)^2 when mscale_all_dim is set, else
    1). mrope_section / mrope_interleaved: the config's multimodal sections, if any;
    mrope_cache_mode: the layout they take (ropekit_rope_cache_mode: 0 sectioned, 1
    Qwen3-VL's interleaving, 2 ERNIE-4.5-VL's, 3 openPangu-VL's), the cache_mode argument of
    the rope ops."""

    cache: object
    rope_type: str
    scaling: Optional[RopeScaling]
    base: float
    head_dim: int
    rotary_dim: int
    max_positions: int
    is_neox_style: bool
    attention_scaling: float
    softmax_scale_factor: float
    mrope_section: Optional[list]
    mrope_interleaved: bool
    mrope_cache_mode: int = _abi.ROPEKIT_MROPE_SECTIONED


def _rope_parameters(config, layer_type):
    params = config.get("rope_parameters") or config.get("rope_scaling") or {}
    if params and rope_type_of(params) == "default" and "rope_theta" not in params and all(
            isinstance(v, dict) for v in params.values()):
        if layer_type is None or layer_type not in params:  # per-layer (transformers v5)
            raise ValueError(f"rope_parameters has one entry per layer type "
                             f"({', '.join(params)}): pass layer_type = {layer_type!r}")
        params = params[layer_type]
    return params


def _head_dim(config):
    for key in ("qk_rope_head_dim", "head_dim"):  # DeepSeek rotates qk_rope_head_dim
        if config.get(key):
            return int(config[key])
    hidden = config.get("hidden_size") or config.get("n_embd")  # GPT-J's names
    heads = config.get("num_attention_heads") or config.get("n_head")  # GPT-J, Falcon
    if hidden and heads:
        return int(hidden) // int(heads)
    raise ValueError("config: needs head_dim (or hidden_size and num_attention_heads)")


def _rotary_dim(config, params, head_dim):
    """Rotated elements of a head: GPT-J's rotary_dim, else head_dim times
    partial_rotary_factor (GPT-NeoX: rotary_pct)."""
    if config.get("rotary_dim"):
        rotary_dim = int(config["rotary_dim"])
        if not 0 < rotary_dim <= head_dim:
            raise ValueError(f"config: rotary_dim = {rotary_dim}: must be in (0, {head_dim}]")
        return rotary_dim
    partial = float(_get(params, "partial_rotary_factor",
                         _get(config, "partial_rotary_factor", config.get("rotary_pct", 1.0))))
    if not 0.0 < partial <= 1.0:
        raise ValueError(f"config: partial_rotary_factor = {partial}: must be in (0, 1]")
    return int(head_dim * partial)


def _softmax_scale_factor(params, scaling):
    """DeepSeek's softmax factor of a config: the library's, for the factor and
    mscale_all_dim the config gives (DeepSeek's modeling code reads them from the config
    whether or not its YaRN uses mscale_all_dim; an absent one counts as 1 and 0)."""
    if scaling is None:
        return softmax_scale(None)
    given = dataclasses.replace(scaling, factor=float(_get(params, "factor", 1.0)),
                                mscale_all_dim=float(_get(params, "mscale_all_dim", 0.0)))
    return softmax_scale(given)


def _mrope_layout(config, params, head_dim):
    """(sections or None, cache_mode) of a config's multimodal rope. ERNIE-4.5-VL: its
    mrope_section (h, w, t), or, in its own checkpoints' keys, rope_3d with freq_allocation
    t and h = w = (head_dim / 2 - t) / 2, as vLLM builds it."""
    section = _get(params, "mrope_section")
    model_type = config.get("model_type")
    if model_type in ERNIE_VL_MODEL_TYPES:
        if section is None and config.get("rope_3d"):
            t = int(config.get("freq_allocation", 20))
            section = [(head_dim // 2 - t) // 2] * 2 + [t]
        return section, _abi.ROPEKIT_MROPE_ERNIE_VL
    interleaved = bool(_get(params, "mrope_interleaved", False))
    if rope_type_of(params) == "openpangu" or (interleaved and model_type in PANGU_MODEL_TYPES):
        return section, _abi.ROPEKIT_MROPE_PANGU_VL
    return section, _abi.ROPEKIT_MROPE_QWEN3_VL if interleaved else _abi.ROPEKIT_MROPE_SECTIONED


def rope_from_config(config, max_positions=None, dtype="f32", layer_type=None):
    """The cos/sin cache of a Hugging Face model config dict (config.json).

    Reads rope_theta (also inside rope_parameters; GPT-NeoX's rotary_emb_base; default
    10000), the rotated head size (qk_rope_head_dim, head_dim, or hidden_size /
    num_attention_heads, also as GPT-J's n_embd / n_head) times partial_rotary_factor
    (GPT-NeoX's rotary_pct) or GPT-J's rotary_dim, max_position_embeddings (GPT-J's
    n_positions), model_type (GPT-J style for GPTJ_STYLE_MODEL_TYPES; the mrope layout,
    see _mrope_layout) and rope_scaling or rope_parameters (type or rope_type; see
    scaling_from_rope_parameters for the types and keys;
    layer_type picks one entry of per-layer rope_parameters). max_positions None builds
    the rows vLLM builds; give it to build fewer or more (dynamic NTK's base and
    LongRoPE's short/long choice follow it). Returns a RopeFromConfig."""
    params = _rope_parameters(config, layer_type)
    base = float(_get(params, "rope_theta",
                      _get(config, "rope_theta", config.get("rotary_emb_base", 10000.0))))
    head_dim = _head_dim(config)
    rotary_dim = _rotary_dim(config, params, head_dim)
    max_position = int(_get(config, "max_position_embeddings", config.get("n_positions", 2048)))
    scaling, rows = scaling_from_rope_parameters(params, max_position, config)
    rows = rows if max_positions is None else int(max_positions)
    section, cache_mode = _mrope_layout(config, params, head_dim)
    return RopeFromConfig(
        cache=cos_sin_cache(rows, rotary_dim, base, dtype, scaling),
        rope_type=str(rope_type_of(params)), scaling=scaling, base=base, head_dim=head_dim,
        rotary_dim=rotary_dim, max_positions=rows,
        is_neox_style=config.get("model_type") not in GPTJ_STYLE_MODEL_TYPES,
        attention_scaling=table_magnitude(rotary_dim, rows, 0, scaling),
        softmax_scale_factor=_softmax_scale_factor(params, scaling),
        mrope_section=None if section is None else [int(s) for s in section],
        mrope_interleaved=bool(_get(params, "mrope_interleaved", False)),
        mrope_cache_mode=cache_mode if section is not None else _abi.ROPEKIT_MROPE_SECTIONED)
