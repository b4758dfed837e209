"""What the torch ops convert before the library sees their arguments: the only checks made
in Python. The library validates everything else (ranks, shapes, broadcast, strides,
dtypes, slices, modes, sections, cache modes, head sizes) with its own rules and messages,
for the CPU kernels and the fake kernels alike (_native). Left here is what C cannot be
asked: a non-tensor argument, a tensor on another device, a rotary mode string that names
no mode, a slice of other than two values, a scalar argument of the wrong Python type;
int32 positions and offsets are accepted and widened to int64, which the library reads.
Each message names the op, the argument, its value and the rule."""
import torch

from .._types import MODES

# Devices a kernel may see: real CPU tensors, and meta/fake tensors while tracing.
CPU_DEVICES = ("cpu",)
FAKE_DEVICES = ("cpu", "meta")
_MODE_LIST = " or ".join(", ".join(repr(m) for m in MODES).rsplit(", ", 1))
# int32 positions and offsets are widened to int64 for the library
INDEX_DTYPES = (torch.int64, torch.int32)


def fail(exc, op, what, rule):
    raise exc(f"ropekit.{op}: {what}: {rule}")


def concrete(v):
    """An int of v: itself, or a symbolic size's hint (the example value) without adding a
    guard; None for a size no hint is known for (data-dependent)."""
    if isinstance(v, torch.SymInt):
        node = v.node
        return int(node.hint) if node.has_hint() else None
    return int(v)


def tensor(op, name, t, devices):
    if not isinstance(t, torch.Tensor):
        fail(TypeError, op, f"{name} = {type(t).__name__}", "must be a torch.Tensor")
    if t.device.type not in devices:
        fail(RuntimeError, op, f"{name} device = {t.device}",
             "ropekit runs on the CPU; move the tensor with .cpu()")


def _is_int(v):
    return isinstance(v, (int, torch.SymInt)) and not isinstance(v, bool)


def integer(op, name, v):
    if not _is_int(v):
        fail(TypeError, op, f"{name} = {v!r}", "must be an int")
    return v


def int_list(op, name, value, length=None):
    try:
        values = list(value)
    except TypeError:
        values = None
    if values is None or not all(_is_int(v) for v in values):
        fail(TypeError, op, f"{name} = {value!r}", "must be a list of ints")
    if length is not None and len(values) != length:
        fail(ValueError, op, f"{name} = {value!r}", f"must have {length} values")
    return values


def partial_rotary(op, x, r1, r2, rotary_mode, partial_slice, x_name, devices):
    """InplacePartialRotaryMul's arguments as the library takes them: (mode id, start,
    end); start and end may be symbolic sizes while tracing."""
    for name, t in ((x_name, x), ("r1", r1), ("r2", r2)):
        tensor(op, name, t, devices)
    if not isinstance(rotary_mode, str) or rotary_mode not in MODES:
        fail(ValueError, op, f"rotary_mode = {rotary_mode!r}", f"must be {_MODE_LIST}")
    start, end = int_list(op, "partial_slice", partial_slice, 2)
    return MODES[rotary_mode], start, end


def rope(op, positions, query, key, cache, head_size, is_neox, mrope_section, cache_mode,
         offsets, names, devices):
    """RopeWithSinCosCache's arguments as the library takes them: (head_size, is_neox,
    sections or None, cache_mode). names: the query's and the key's argument names."""
    for name, t in (("positions", positions), (names[0], query), (names[1], key),
                    ("cos_sin_cache", cache), ("offsets", offsets)):
        if t is not None:  # only key and offsets are optional in the schemas
            tensor(op, name, t, devices)
    integer(op, "head_size", head_size)
    if not isinstance(is_neox, bool):
        fail(TypeError, op, f"is_neox = {is_neox!r}", "must be a bool")
    integer(op, "cache_mode", cache_mode)
    sections = None if mrope_section is None else int_list(op, "mrope_section", mrope_section)
    return head_size, is_neox, sections, cache_mode


def int64(t):
    """int32 positions and offsets widened to int64 (others are the library's to judge)."""
    return t.to(torch.int64) if t is not None and t.dtype == torch.int32 else t
