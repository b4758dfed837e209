"""nn.Modules in the manner of vLLM's rotary embeddings, with caches from ropekit's table
builders (ropekit.cos_sin_cache) and the rotation from torch.ops.ropekit."""
import numpy as np
import torch

from .. import _abi, _types, tables, vision
from ._args import fail as _fail
from ._native import DTYPES as _DTYPES
from ._ops import ops

# the library's name ("f32", "f16", "bf16", "f64") of each torch dtype a table may have
_TORCH_TO_NAME = {t: _types.NAMES[_DTYPES[t]] for t in (torch.float32, torch.float16,
                                                        torch.bfloat16, torch.float64)}
# ropekit_rope_cache_mode values, each with its enumerator's name ("sectioned", "qwen3_vl",
# "ernie_vl", "pangu_vl")
_CACHE_MODES = {value: name[len("ROPEKIT_MROPE_"):].lower()
                for name, value in _abi.ropekit_rope_cache_mode.items()}
_CACHE_MODE_LIST = " or ".join(", ".join(f"{v} ({n})" for v, n in _CACHE_MODES.items())
                               .rsplit(", ", 1))


def scaling_from_config(rope_scaling, max_position):
    """Maps a Hugging Face `rope_scaling` / `rope_parameters` dict (as vLLM takes it) to
    (ropekit scaling, cache positions), with ropekit.tables.scaling_from_rope_parameters
    (every type and key it documents). mrope keys (mrope_section, mrope_interleaved) are
    ignored here."""
    try:
        return tables.scaling_from_rope_parameters(rope_scaling, max_position)
    except ValueError as err:
        _fail(ValueError, "RotaryEmbedding", "rope_scaling", str(err))


def _to_torch(cache, dtype):
    if dtype == torch.bfloat16:  # uint16 bits
        return torch.from_numpy(cache.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(cache)


def _dtype_name(dtype, op):
    if dtype not in _TORCH_TO_NAME:
        _fail(TypeError, op, f"dtype = {dtype}",
              "must be torch.float32, torch.float16, torch.bfloat16 or torch.float64")
    return _TORCH_TO_NAME[dtype]


def rope_from_config(config, max_positions=None, dtype=torch.float32, layer_type=None):
    """ropekit.tables.rope_from_config with the cache as a torch tensor of `dtype`
    (torch.float32, torch.float16 or torch.bfloat16): a RopeFromConfig holding the
    [positions, rotary_dim] cache, the attention scaling baked into it, rotary_dim, the
    NeoX style, the base, the scaling and any mrope sections of the config."""
    name = _dtype_name(dtype, "rope_from_config")
    found = tables.rope_from_config(config, max_positions, name, layer_type)
    found.cache = _to_torch(found.cache, dtype)
    return found


def cos_sin_cache(rotary_dim, max_position, base, rope_scaling=None, dtype=torch.float32):
    """A [positions, rotary_dim] RopeWithSinCosCache cache as a torch tensor (cos in the
    first half of each row, sin in the second), built by the library in double precision
    and rounded once to dtype."""
    name = _dtype_name(dtype, "RotaryEmbedding")
    scaling, positions = scaling_from_config(rope_scaling, max_position)
    return _to_torch(tables.cos_sin_cache(positions, rotary_dim, base, name, scaling), dtype)


def cos_sin_cache_from_inv_freq(max_positions, inv_freq, dtype=torch.float32, magnitude=1.0):
    """ropekit.cos_sin_cache_from_inv_freq as a torch tensor: [max_positions, 2 *
    len(inv_freq)], cos | sin of position * inv_freq (a tensor, read as float64, or a
    sequence) times magnitude, rounded once to dtype."""
    name = _dtype_name(dtype, "cos_sin_cache_from_inv_freq")
    if isinstance(inv_freq, torch.Tensor):
        inv_freq = inv_freq.detach().to("cpu", torch.float64).numpy()
    return _to_torch(tables.cos_sin_cache_from_inv_freq(max_positions, inv_freq, name, magnitude),
                     dtype)


def llama4_vision_rope(image_size, patch_size, head_dim, theta=10000.0, dtype=torch.float32):
    """ropekit.llama4_vision_rope with torch tensors: a VisionRope whose cache is a tensor
    of dtype and whose positions are an int64 tensor [2, patches + 1]."""
    name = _dtype_name(dtype, "llama4_vision_rope")
    found = vision.llama4_vision_rope(image_size, patch_size, head_dim, theta, name)
    found.cache = _to_torch(found.cache, dtype)
    found.positions = torch.from_numpy(found.positions)
    return found


class RotaryEmbedding(torch.nn.Module):
    """vLLM's RotaryEmbedding (get_rope) on ropekit: forward(positions, query, key,
    offsets=None) returns rotated copies of query and key. positions are [T] or [B, S];
    query/key those token dims then [H * head_size] or [H, head_size] (any strides; key
    may be None); offsets (vLLM's long-context path) are added to the positions, shaped
    like them. The cache is a buffer `cos_sin_cache` [positions, rotary_dim]."""

    def __init__(self, head_size, rotary_dim, max_position, base, is_neox_style,
                 rope_scaling=None, dtype=torch.float32):
        super().__init__()
        self.head_size = int(head_size)
        self.rotary_dim = int(rotary_dim)
        self.max_position = int(max_position)
        self.base = float(base)
        self.is_neox_style = bool(is_neox_style)
        self.rope_scaling = dict(rope_scaling) if rope_scaling else None
        self.register_buffer("cos_sin_cache",
                             cos_sin_cache(self.rotary_dim, self.max_position, self.base,
                                           self.rope_scaling, dtype), persistent=False)

    def forward(self, positions, query, key=None, offsets=None):
        return ops.rope_with_sin_cos_cache(positions, query, key, self.cos_sin_cache,
                                           self.head_size, self.is_neox_style, offsets=offsets)

    def extra_repr(self):
        return (f"head_size={self.head_size}, rotary_dim={self.rotary_dim}, "
                f"max_position={self.max_position}, base={self.base}, "
                f"is_neox_style={self.is_neox_style}, rope_scaling={self.rope_scaling}")


class MRotaryEmbedding(RotaryEmbedding):
    """vLLM's MRotaryEmbedding (Qwen2-VL, Qwen2.5-VL, Qwen3-VL), and with cache_mode its
    Ernie4_5_VLRotaryEmbedding and MRotaryEmbeddingInterleaved (openPangu-VL):
    forward(positions [3, T] (temporal, height, width rows; [2, T] for openPangu's two
    sections) or [T], query, key, offsets=None; [B, S] token dims as in RotaryEmbedding,
    the offsets added to every row). mrope_section splits rotary_dim / 2 into the rows'
    sections (e.g. [16, 24, 24]; ERNIE-4.5-VL's order is (h, w, t)); mrope_interleaved
    (Qwen3-VL) takes the rows round-robin (RopeWithSinCosCacheV2 cacheMode 1). cache_mode
    (0 to 3, ropekit_rope_cache_mode) names the layout outright: 2 ERNIE-4.5-VL's
    [h w h w ... t t t], 3 openPangu-VL's interleaving. The sections and the interleaving
    may also come from rope_scaling, as in the models' configs; rope_type "openpangu"
    there means cache_mode 3."""

    def __init__(self, head_size, rotary_dim, max_position, base, is_neox_style,
                 rope_scaling=None, dtype=torch.float32, mrope_section=None,
                 mrope_interleaved=None, cache_mode=None):
        super().__init__(head_size, rotary_dim, max_position, base, is_neox_style, rope_scaling,
                         dtype)
        cfg = self.rope_scaling or {}
        section = mrope_section if mrope_section is not None else cfg.get("mrope_section")
        if not section:
            _fail(ValueError, "MRotaryEmbedding", "mrope_section = None",
                  "give the sections (here or in rope_scaling['mrope_section'])")
        self.mrope_section = [int(s) for s in section]
        interleaved = (mrope_interleaved if mrope_interleaved is not None else
                       cfg.get("mrope_interleaved", False))
        if cache_mode is None:
            pangu = tables.rope_type_of(cfg) == "openpangu"
            cache_mode = (_abi.ROPEKIT_MROPE_PANGU_VL if pangu else
                          _abi.ROPEKIT_MROPE_QWEN3_VL if interleaved else
                          _abi.ROPEKIT_MROPE_SECTIONED)
        if cache_mode not in _CACHE_MODES or isinstance(cache_mode, bool):
            _fail(ValueError, "MRotaryEmbedding", f"cache_mode = {cache_mode!r}",
                  f"must be {_CACHE_MODE_LIST}")
        self.cache_mode = cache_mode

    def forward(self, positions, query, key=None, offsets=None):
        if positions.dim() == 1:  # text only: plain rope
            return super().forward(positions, query, key, offsets)
        return ops.rope_with_sin_cos_cache(positions, query, key, self.cos_sin_cache,
                                           self.head_size, self.is_neox_style, offsets=offsets,
                                           mrope_section=self.mrope_section,
                                           cache_mode=self.cache_mode)
