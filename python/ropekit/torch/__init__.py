"""ropekit for PyTorch: CANN's RoPE operators as torch custom ops on the CPU.

Importing this module registers the ops in torch.ops.ropekit (see docs/torch.md):

- inplace_partial_rotary_mul / inplace_partial_rotary_mul_backward: CANN's schemas, in
  place; partial_rotary_mul / partial_rotary_mul_backward: the functional forms;
- rope_with_sin_cos_cache / rope_with_sin_cos_cache_backward: RopeWithSinCosCache V1/V2
  (rope and mrope, NeoX and GPT-J), out of place;
- rotary_embedding: vLLM's in-place op with its exact schema;
- rotary_mul / rotary_mul_backward: RotaryPositionEmbedding (torch_npu's npu_rotary_mul),
  out of place over the whole last dim;
- rotary_mul_grad: RotaryPositionEmbeddingGrad (the input's gradient and cos/sin's in
  one call), the backward of rotary_mul and interleave_rope;
- interleave_rope: InterleaveRope (torch_npu's npu_interleave_rope), rotary_mul in
  interleave-half mode;
- apply_rotary_pos_emb: ApplyRotaryPosEmb (torch_npu's npu_apply_rotary_pos_emb), query
  and key in place.

Every op works in eager mode, under autograd, in torch.compile and in torch.export.
"""
import os as _os

import torch as _torch

from .. import _abi
from . import _ops, _rotary_mul
from ..tables import cache_from_sin_cos
from ._extension import extension_loaded, load_extension
from .frontends import (apply_rope_with_cos_sin_cache, apply_rope_with_cos_sin_cache_inplace,
                        npu_mrope)
from .modules import (MRotaryEmbedding, RotaryEmbedding, cos_sin_cache,
                      cos_sin_cache_from_inv_freq, llama4_vision_rope, rope_from_config,
                      scaling_from_config)

ops = _torch.ops.ropekit


def inplace_partial_rotary_mul(x, r1, r2, *, rotary_mode="interleave", partial_slice=None):
    """Rotates x[..., start:end] in place with cos r1 and sin r2 (CANN's
    aclnnInplacePartialRotaryMul). partial_slice None is [0, 0]: a no-op, as in CANN."""
    ops.inplace_partial_rotary_mul(x, r1, r2, rotary_mode=rotary_mode,
                                   partial_slice=list(partial_slice or (0, 0)))


def inplace_partial_rotary_mul_backward(grad_output, r1, r2, *, rotary_mode="interleave",
                                        partial_slice=None):
    """The gradient of inplace_partial_rotary_mul, in place on grad_output."""
    ops.inplace_partial_rotary_mul_backward(grad_output, r1, r2, rotary_mode=rotary_mode,
                                            partial_slice=list(partial_slice or (0, 0)))


def partial_rotary_mul(x, r1, r2, *, rotary_mode="interleave", partial_slice=None):
    """inplace_partial_rotary_mul out of place: returns the rotated copy of x."""
    return ops.partial_rotary_mul(x, r1, r2, rotary_mode=rotary_mode,
                                  partial_slice=list(partial_slice or (0, 0)))


def rope_with_sin_cos_cache(positions, query, key, cos_sin_cache, head_size, is_neox=True, *,
                            mrope_section=None, cache_mode=_abi.ROPEKIT_MROPE_SECTIONED):
    """RopeWithSinCosCache(V2): rotated (query, key) from a [max_position, rotary_dim]
    cos/sin cache indexed by positions ([T] for rope, [sections, T] for mrope)."""
    return ops.rope_with_sin_cos_cache(positions, query, key, cos_sin_cache, head_size,
                                       is_neox, mrope_section=mrope_section,
                                       cache_mode=cache_mode)


def rotary_embedding(positions, query, key, head_size, cos_sin_cache, is_neox):
    """vLLM's rotary_embedding: rotates query and key (may be None) in place."""
    ops.rotary_embedding(positions, query, key, head_size, cos_sin_cache, is_neox)


__all__ = ["ops", "inplace_partial_rotary_mul", "inplace_partial_rotary_mul_backward",
           "partial_rotary_mul", "rope_with_sin_cos_cache", "rotary_embedding",
           "apply_rope_with_cos_sin_cache", "apply_rope_with_cos_sin_cache_inplace",
           "npu_mrope", "RotaryEmbedding", "MRotaryEmbedding", "cos_sin_cache",
           "scaling_from_config", "rope_from_config", "cache_from_sin_cos", "load_extension",
           "extension_loaded", "cos_sin_cache_from_inv_freq", "llama4_vision_rope"]

# ROPEKIT_TORCH_EXTENSION=1: load the C++ kernels at import (load_extension()).
if _os.environ.get("ROPEKIT_TORCH_EXTENSION") == "1":
    load_extension()
