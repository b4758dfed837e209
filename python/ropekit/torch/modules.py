"""nn.Modules in the manner of vLLM's rotary embeddings, with caches from ropekit's table
builders (ropekit.cos_sin_cache) and the rotation from torch.ops.ropekit."""
import numpy as np
import torch

from .. import tables
from ._checks import _fail
from ._ops import ops

_TORCH_TO_NAME = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
                  torch.float64: "f64"}


def scaling_from_config(rope_scaling, max_position):
    """Maps a Hugging Face `rope_scaling` dict (as vLLM takes it) to (ropekit scaling,
    cache positions). Types: default/none, linear, dynamic (NTK), yarn, llama3; keys as in
    transformers' configs (factor, original_max_position_embeddings, beta_fast, beta_slow,
    extrapolation_factor, attn_factor / attention_factor, low_freq_factor,
    high_freq_factor). mrope keys (mrope_section, mrope_interleaved) are ignored here."""
    if not rope_scaling:
        return None, max_position
    kind = rope_scaling.get("rope_type", rope_scaling.get("type", "default"))
    if kind in ("default", "none", "mrope"):
        return None, max_position
    factor = float(rope_scaling.get("factor", 1.0))
    original = int(rope_scaling.get("original_max_position_embeddings", max_position))
    if kind == "linear":
        return tables.RopeScaling("linear", factor=factor), int(max_position * factor)
    if kind == "dynamic":
        return (tables.RopeScaling("dynamic", factor=factor, original_max_position=max_position),
                int(max_position * factor))
    if kind == "yarn":
        attn = rope_scaling.get("attn_factor", rope_scaling.get("attention_factor", 1.0))
        return (tables.RopeScaling("yarn", factor=factor, original_max_position=original,
                                   beta_fast=float(rope_scaling.get("beta_fast", 32)),
                                   beta_slow=float(rope_scaling.get("beta_slow", 1)),
                                   extrapolation_factor=float(
                                       rope_scaling.get("extrapolation_factor", 1.0)),
                                   attn_factor=float(attn)),
                int(original * factor))
    if kind == "llama3":
        return (tables.RopeScaling("llama3", factor=factor, original_max_position=original,
                                   low_freq_factor=float(rope_scaling.get("low_freq_factor", 1)),
                                   high_freq_factor=float(
                                       rope_scaling.get("high_freq_factor", 4))),
                max_position)
    _fail(ValueError, "RotaryEmbedding", f"rope_scaling type = {kind!r}",
          "must be default, linear, dynamic, yarn or llama3")


def cos_sin_cache(rotary_dim, max_position, base, rope_scaling=None, dtype=torch.float32):
    """A [positions, rotary_dim] RopeWithSinCosCache cache as a torch tensor (cos in the
    first half of each row, sin in the second), built by the library in double precision
    and rounded once to dtype."""
    if dtype not in _TORCH_TO_NAME:
        _fail(TypeError, "RotaryEmbedding", f"dtype = {dtype}",
              "must be torch.float32, torch.float16, torch.bfloat16 or torch.float64")
    scaling, positions = scaling_from_config(rope_scaling, max_position)
    cache = tables.cos_sin_cache(positions, rotary_dim, base, _TORCH_TO_NAME[dtype], scaling)
    if dtype == torch.bfloat16:  # uint16 bits
        return torch.from_numpy(cache.view(np.int16)).view(torch.bfloat16)
    return torch.from_numpy(cache)


class RotaryEmbedding(torch.nn.Module):
    """vLLM's RotaryEmbedding (get_rope) on ropekit: forward(positions [T], query, key)
    returns rotated copies of query and key ([T, H * head_size] or [T, H, head_size]; key
    may be None). The cache is a buffer `cos_sin_cache` [positions, rotary_dim]."""

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

    def forward(self, positions, query, key=None):
        return ops.rope_with_sin_cos_cache(positions, query, key, self.cos_sin_cache,
                                           self.head_size, self.is_neox_style)

    def extra_repr(self):
        return (f"head_size={self.head_size}, rotary_dim={self.rotary_dim}, "
                f"max_position={self.max_position}, base={self.base}, "
                f"is_neox_style={self.is_neox_style}, rope_scaling={self.rope_scaling}")


class MRotaryEmbedding(RotaryEmbedding):
    """vLLM's MRotaryEmbedding (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): forward(positions [3, T]
    (text, height, width rows) or [T], query, key). mrope_section splits rotary_dim / 2
    into the rows' sections (e.g. [16, 24, 24]); mrope_interleaved (Qwen3-VL) takes the
    rows round-robin (RopeWithSinCosCacheV2 cacheMode 1). Both may also come from
    rope_scaling, as in the models' configs."""

    def __init__(self, head_size, rotary_dim, max_position, base, is_neox_style,
                 rope_scaling=None, dtype=torch.float32, mrope_section=None,
                 mrope_interleaved=None):
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
        self.cache_mode = 1 if interleaved else 0

    def forward(self, positions, query, key=None):
        if positions.dim() == 1:  # text only: plain rope
            return super().forward(positions, query, key)
        return ops.rope_with_sin_cos_cache(positions, query, key, self.cos_sin_cache,
                                           self.head_size, self.is_neox_style,
                                           mrope_section=self.mrope_section,
                                           cache_mode=self.cache_mode)
