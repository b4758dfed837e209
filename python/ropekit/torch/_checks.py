"""Argument checks shared by the CPU and the fake (meta) kernels of ropekit's torch ops,
so eager calls and graph capture reject the same inputs with the same messages. Each
message names the op, the argument, its value and the rule. The library checks again
what needs the data (overlapping memory, position values)."""
import torch

from .._types import MODES

FLOATS = (torch.float32, torch.float16, torch.bfloat16, torch.float64)
MAX_RANK = 8
# Devices a kernel may see: real CPU tensors, and meta/fake tensors while tracing.
_DEVICES = ("cpu", "meta")


def _fail(exc, op, what, rule):
    raise exc(f"ropekit.{op}: {what}: {rule}")


def tensor(op, name, t):
    if not isinstance(t, torch.Tensor):
        _fail(TypeError, op, f"{name} = {type(t).__name__}", "must be a torch.Tensor")
    if t.device.type not in _DEVICES:
        _fail(RuntimeError, op, f"{name} device = {t.device}",
              "ropekit runs on the CPU; move the tensor with .cpu()")


def float_tensor(op, name, t):
    tensor(op, name, t)
    if t.dtype not in FLOATS:
        _fail(TypeError, op, f"{name} dtype = {t.dtype}",
              "must be torch.float32, torch.float16, torch.bfloat16 or torch.float64")


def _float64_pairing(op, name, t, data_name, data):
    """float64 is computed in double, so it pairs only with float64 (the library's rule)."""
    if (t.dtype == torch.float64) != (data.dtype == torch.float64):
        _fail(TypeError, op, f"{name} dtype = {t.dtype}",
              f"float64 goes with float64 only ({data_name} dtype = {data.dtype})")


def _int_list(op, name, value, length=None):
    try:
        out = [int(v) for v in value]
    except TypeError:
        _fail(TypeError, op, f"{name} = {value!r}", "must be a list of ints")
    if any(isinstance(v, bool) for v in value):
        _fail(TypeError, op, f"{name} = {value!r}", "must be a list of ints")
    if length is not None and len(out) != length:
        _fail(ValueError, op, f"{name} = {value!r}", f"must have {length} values")
    return out


def partial_rotary(op, x, r1, r2, rotary_mode, partial_slice, x_name="x"):
    """Checks InplacePartialRotaryMul's arguments (the native face's domain: every mode,
    rank 1-8, x and cos/sin of any float types (float64 only with float64), cos/sin
    broadcast right-aligned).
    Returns (mode id, start, end, no-op)."""
    float_tensor(op, x_name, x)
    float_tensor(op, "r1", r1)
    float_tensor(op, "r2", r2)
    if r2.dtype != r1.dtype:
        _fail(TypeError, op, f"r2 dtype = {r2.dtype}", f"must equal r1's ({r1.dtype})")
    _float64_pairing(op, "r1", r1, x_name, x)
    if not isinstance(rotary_mode, str) or rotary_mode not in MODES:
        _fail(ValueError, op, f"rotary_mode = {rotary_mode!r}",
              "must be 'half', 'interleave', 'quarter' or 'interleave-half'")
    mode = MODES[rotary_mode]
    start, end = _int_list(op, "partial_slice", partial_slice, 2)
    if not 1 <= x.dim() <= MAX_RANK:
        _fail(ValueError, op, f"{x_name} rank = {x.dim()}", f"must be 1 to {MAX_RANK}")
    d = x.shape[-1]
    if not 0 <= start <= end <= d:
        _fail(ValueError, op, f"partial_slice = [{start}, {end}]",
              f"must satisfy 0 <= start <= end <= {x_name}.shape[-1] = {d}")
    if tuple(r1.shape) != tuple(r2.shape):
        _fail(ValueError, op, f"r2 shape = {list(r2.shape)}",
              f"must equal r1's {list(r1.shape)}")
    if not 1 <= r1.dim() <= x.dim():
        _fail(ValueError, op, f"r1 rank = {r1.dim()}",
              f"must be 1 to {x_name}'s rank {x.dim()}")
    length = end - start
    if length == 0 or x.numel() == 0 or r1.numel() == 0:
        return mode, start, end, True
    if r1.shape[-1] != length:
        _fail(ValueError, op, f"r1 shape = {list(r1.shape)}",
              f"its last dim must be the slice length end - start = {length}")
    multiple = 4 if rotary_mode == "quarter" else 2
    if length % multiple:
        _fail(ValueError, op, f"partial_slice = [{start}, {end}]",
              f"its length must be a multiple of {multiple} in mode {rotary_mode!r}")
    lead = x.dim() - r1.dim()
    for k in range(r1.dim() - 1):
        if r1.shape[k] not in (1, x.shape[lead + k]):
            _fail(ValueError, op, f"r1 shape = {list(r1.shape)}",
                  f"dim {k} must be 1 or {x_name}'s {x.shape[lead + k]} (broadcast over "
                  f"{x_name} shape {list(x.shape)}, right-aligned)")
    return mode, start, end, False


def _token_dims(op, positions, mrope_section):
    """How many token dims ([T] or [B, S]) positions' rank gives, after mrope's section
    row."""
    mrope = mrope_section is not None and len(mrope_section) > 0 and mrope_section[0] != 0
    dims = positions.dim() - (1 if mrope else 0)
    if dims not in (1, 2):
        _fail(ValueError, op, f"positions shape = {list(positions.shape)}",
              "must be [sections, tokens] or [sections, batch, seq] (mrope)" if mrope else
              "must be [tokens] or [batch, seq] (rope)")
    return dims


def _qk_layout(op, name, t, q_name, tokens, head_size):
    dims = len(tokens)
    if t.dim() not in (dims + 1, dims + 2):
        _fail(ValueError, op, f"{name} shape = {list(t.shape)}",
              "must be 2-D [tokens, heads * head_size] or 3-D [tokens, heads, head_size]"
              if dims == 1 else "must be 3-D [batch, seq, heads * head_size] or 4-D "
              "[batch, seq, heads, head_size] (positions have token dims [batch, seq])")
    if list(t.shape[:dims]) != tokens:
        _fail(ValueError, op, f"{name} shape = {list(t.shape)}",
              f"must have {q_name}'s {tokens[0]} tokens in dim 0" if dims == 1 else
              f"must have {q_name}'s [batch, seq] = {tokens} in dims 0 and 1")
    if t.dim() == dims + 1 and t.shape[dims] % head_size:
        _fail(ValueError, op, f"{name} shape = {list(t.shape)}",
              f"dim {dims} must be a multiple of head_size = {head_size}")
    if t.dim() == dims + 2 and t.shape[dims + 1] != head_size:
        _fail(ValueError, op, f"{name} shape = {list(t.shape)}",
              f"dim {dims + 1} must be head_size = {head_size}")


# ropekit_rope_cache_mode: sectioned, Qwen3-VL, ERNIE-4.5-VL, openPangu-VL
CACHE_MODES = (0, 1, 2, 3)


def rope(op, positions, query, key, cache, head_size, is_neox, mrope_section, cache_mode,
         q_name="query", k_name="key", offsets=None):
    """Checks RopeWithSinCosCache's arguments (the native face's domain: token dims [T] or
    [B, S] from positions' rank, query/key of those dims followed by [H*hs] or [H, hs] of
    one float type, any float cache type (float64 only with float64 query/key), rotary
    dim any even number up to head_size, any mrope sections summing to rotary_dim / 2 in
    the layout cache_mode names, offsets shaped like the token dims). Returns (sections or
    None)."""
    tensor(op, "positions", positions)
    if positions.dtype not in (torch.int64, torch.int32):
        _fail(TypeError, op, f"positions dtype = {positions.dtype}",
              "must be torch.int64 or torch.int32")
    float_tensor(op, q_name, query)
    if key is not None:
        float_tensor(op, k_name, key)
        if key.dtype != query.dtype:
            _fail(TypeError, op, f"{k_name} dtype = {key.dtype}",
                  f"must equal {q_name}'s ({query.dtype})")
    float_tensor(op, "cos_sin_cache", cache)
    if offsets is not None:
        tensor(op, "offsets", offsets)
        if offsets.dtype not in (torch.int64, torch.int32):
            _fail(TypeError, op, f"offsets dtype = {offsets.dtype}",
                  "must be torch.int64 or torch.int32")
    _float64_pairing(op, "cos_sin_cache", cache, q_name, query)
    if isinstance(head_size, bool) or not isinstance(head_size, int) or head_size < 1:
        _fail(ValueError, op, f"head_size = {head_size!r}", "must be a positive int")
    if not isinstance(is_neox, bool):
        _fail(TypeError, op, f"is_neox = {is_neox!r}", "must be a bool")
    dims = _token_dims(op, positions, mrope_section)
    tokens = list(query.shape[:dims])
    for name, t in ((q_name, query), (k_name, key)):
        if t is not None:
            _qk_layout(op, name, t, q_name, tokens, head_size)
    if cache.dim() != 2:
        _fail(ValueError, op, f"cos_sin_cache shape = {list(cache.shape)}",
              "must be 2-D [max_position, rotary_dim]")
    rot = cache.shape[1]
    if rot < 2 or rot % 2 or rot > head_size:
        _fail(ValueError, op, f"cos_sin_cache shape = {list(cache.shape)}",
              f"rotary_dim (dim 1) must be even, at least 2 and at most head_size = {head_size}")
    if cache_mode not in CACHE_MODES or isinstance(cache_mode, bool):
        _fail(ValueError, op, f"cache_mode = {cache_mode!r}",
              "must be 0 (sectioned), 1 (Qwen3-VL), 2 (ERNIE-4.5-VL) or 3 (openPangu-VL)")
    sections = None
    if mrope_section is not None:
        sections = _int_list(op, "mrope_section", mrope_section)
        if sections and sections[0] == 0:
            sections = None  # CANN: a section list starting with 0 asks for plain rope
        elif not sections or any(s < 0 for s in sections):
            _fail(ValueError, op, f"mrope_section = {list(mrope_section)}",
                  "must be non-negative values, the first one positive (or None)")
        elif 2 * sum(sections) != rot:
            _fail(ValueError, op, f"mrope_section = {sections}",
                  f"must sum to rotary_dim / 2 = {rot // 2}")
        elif cache_mode == 1 and len(sections) != 3:
            _fail(ValueError, op, f"mrope_section = {sections}",
                  "cache_mode 1 (interleaved mrope) needs exactly 3 sections")
        elif cache_mode == 2 and (len(sections) != 3 or sections[0] != sections[1]):
            _fail(ValueError, op, f"mrope_section = {sections}",
                  "cache_mode 2 (ERNIE-4.5-VL) needs 3 sections (h, w, t) with h == w")
        elif cache_mode == 3 and len(sections) not in (2, 3):
            _fail(ValueError, op, f"mrope_section = {sections}",
                  "cache_mode 3 (openPangu-VL) needs 2 sections (h, w) or 3 (t, h, w)")
    want = tokens if sections is None else [len(sections)] + tokens
    if list(positions.shape) != want:
        dims_name = "tokens" if dims == 1 else "batch, seq"
        form = f"rope: [{dims_name}]" if sections is None else f"mrope: [sections, {dims_name}]"
        _fail(ValueError, op, f"positions shape = {list(positions.shape)}",
              f"must be {want} ({form})")
    if offsets is not None and list(offsets.shape) != tokens:
        _fail(ValueError, op, f"offsets shape = {list(offsets.shape)}",
              f"must be {tokens}, the token dims of positions")
    return sections
