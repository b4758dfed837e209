"""Element types and rotary modes: names, numeric ids and numpy storage types. The ids
and the library's names of them come from the headers (_abi); the other names accepted
here (numpy's, torch's, "gpt-j") are this package's own vocabulary for them."""
import numpy as np

from . import _abi

# ropekit_dtype values (equal to CANN's aclDataType numbers). F64 (ACL_DOUBLE) is taken
# by the native face only, and only with F64 coefficients.
F32, F16, BF16, F64 = _abi.ROPEKIT_F32, _abi.ROPEKIT_F16, _abi.ROPEKIT_BF16, _abi.ROPEKIT_F64
I64 = _abi.ROPEKIT_I64  # positions of the rope operator

# numpy storage type of each float dtype id: bf16 lives in uint16 arrays as raw bits.
STORAGE = {F32: np.dtype(np.float32), F16: np.dtype(np.float16), BF16: np.dtype(np.uint16),
           F64: np.dtype(np.float64)}
# the library's name of each float dtype ("f32", "f16", "bf16", "f64")
NAMES = {ident: _abi.ropekit_dtype_names[ident] for ident in STORAGE}
_ALIASES = {"float32": F32, "float": F32, "fp32": F32, "float16": F16, "half": F16,
            "fp16": F16, "bfloat16": BF16, "float64": F64, "double": F64, "fp64": F64}
_DTYPE_NAMES = {**{name: ident for ident, name in NAMES.items()}, **_ALIASES}
# the dtype id of each numpy float type (bfloat16 has none: uint16 needs a name)
_NUMPY_IDS = {np.dtype(np.float32): F32, np.dtype(np.float16): F16,
              np.dtype(np.float64): F64}

# ropekit_rotary_mode by the library's names ("half", "interleave", ...)
MODES = {name: value for value, name in sorted(_abi.ropekit_rotary_mode_names.items())}
# ropekit_rope_style: NeoX (rotate-half) and GPT-J (interleaved) pairing, by the
# enumerators' names ("neox", "gptj"), and "gpt-j"
STYLES = {name[len("ROPEKIT_ROPE_"):].lower(): value
          for name, value in _abi.ropekit_rope_style.items()}
STYLES["gpt-j"] = STYLES["gptj"]


def _numpy_id(np_dt, what):
    ident = _NUMPY_IDS.get(np.dtype(np_dt))
    if ident is None:
        raise ValueError(f"{what}: numpy dtype {np.dtype(np_dt)} has no ropekit element type")
    return ident


def dtype_id(arr, dtype, what):
    """Resolves the element type of numpy array `arr`: `dtype` (a name such as "bf16",
    an id, or a numpy float32/float16/float64 type) if given, else inferred from arr.dtype
    (float32, float16 or float64; uint16 needs an explicit "bf16"). Checks that arr's
    storage type fits and returns the ropekit_dtype id."""
    if dtype is None:
        if arr.dtype in _NUMPY_IDS:
            return _NUMPY_IDS[arr.dtype]
        if arr.dtype == np.uint16:
            raise TypeError(f"{what}: uint16 array: pass the dtype 'bf16' for bfloat16 bits")
        raise TypeError(f"{what}: numpy dtype {arr.dtype} is not float32, float16, float64 or "
                        "uint16 (bfloat16 bits)")
    if isinstance(dtype, str):
        key = dtype.lower()
        if key not in _DTYPE_NAMES:
            raise ValueError(f"{what}: unknown dtype name {dtype!r}")
        ident = _DTYPE_NAMES[key]
    elif isinstance(dtype, (int, np.integer)) and not isinstance(dtype, bool):
        ident = int(dtype)
        if ident not in STORAGE:
            ids = ", ".join(f"{i} ({n})" for i, n in NAMES.items())
            raise ValueError(f"{what}: dtype id {ident} is not one of {ids}")
    else:
        ident = _numpy_id(dtype, what)
    if arr.dtype != STORAGE[ident]:
        raise TypeError(f"{what}: {NAMES[ident]} data must be stored as numpy "
                        f"{STORAGE[ident]}, got {arr.dtype}")
    return ident


def mode_id(mode):
    """Maps a rotary mode name ("half", "interleave", "quarter", "interleave-half") to
    its id; integers pass through unchanged (the library validates them)."""
    if isinstance(mode, str):
        if mode not in MODES:
            ids = ", ".join(str(v) for v in MODES.values())
            raise ValueError(f"rotary mode {mode!r}: must be one of {', '.join(MODES)} "
                             f"(or {ids})")
        return MODES[mode]
    if isinstance(mode, (int, np.integer)) and not isinstance(mode, bool):
        return int(mode)
    raise TypeError(f"rotary mode {mode!r}: must be a string or an int")


def float_dtype_id(dtype, what):
    """Resolves a dtype given by name ("f32", "bf16", "f64", ...), id or numpy float type
    to a ropekit_dtype id of a float type (used where no array exists yet)."""
    if isinstance(dtype, str):
        key = dtype.lower()
        if key not in _DTYPE_NAMES:
            raise ValueError(f"{what}: unknown dtype name {dtype!r}")
        return _DTYPE_NAMES[key]
    if isinstance(dtype, (int, np.integer)) and not isinstance(dtype, bool):
        return int(dtype)  # the library validates ids
    return _numpy_id(dtype, what)


def style_id(style):
    """Maps a rope style ("neox" or "gptj"; also "gpt-j") to its ropekit_rope_style id;
    integers pass through unchanged (the library validates them)."""
    if isinstance(style, str):
        key = style.lower()
        if key not in STYLES:
            ids = "/".join(str(v) for v in sorted(set(STYLES.values())))
            raise ValueError(f"rope style {style!r}: must be 'neox' or 'gptj' (or {ids})")
        return STYLES[key]
    if isinstance(style, (int, np.integer)) and not isinstance(style, bool):
        return int(style)
    raise TypeError(f"rope style {style!r}: must be a string or an int")
