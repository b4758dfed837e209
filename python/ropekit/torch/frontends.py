"""Thin front-ends with the signatures of other libraries' RoPE entry points, over
torch.ops.ropekit (docs/torch.md maps each one to its original)."""
from .. import _abi
from ._args import fail as _fail
from ._ops import ops


def apply_rope_with_cos_sin_cache(positions, query, key, head_size, cos_sin_cache,
                                  is_neox=True):
    """FlashInfer's flashinfer.rope.apply_rope_with_cos_sin_cache: returns rotated copies
    of query [nnz, num_q_heads * head_size] and key [nnz, num_k_heads * head_size] from a
    [max_seq_len, rotary_dim] cache (cos in the first half, sin in the second; any float
    dtype). Head dims past rotary_dim are passed through."""
    return ops.rope_with_sin_cos_cache(positions, query, key, cos_sin_cache, head_size,
                                       bool(is_neox))


def apply_rope_with_cos_sin_cache_inplace(positions, query, key, head_size, cos_sin_cache,
                                          is_neox=True):
    """FlashInfer's apply_rope_with_cos_sin_cache_inplace: the same, in place."""
    ops.rotary_embedding(positions, query, key, head_size, cos_sin_cache, bool(is_neox))


# torch_npu's names: rotary_mode -> is_neox (NeoX pairs the halves, GPT-J interleaves),
# cache_mode -> ropekit_rope_cache_mode
_ROTARY_MODES = {"half": True, "interleave": False}
_CACHE_MODES = {"default": _abi.ROPEKIT_MROPE_SECTIONED, "interleave": _abi.ROPEKIT_MROPE_QWEN3_VL}


def npu_mrope(positions, query, key, cos_sin_cache, head_size, *, mrope_section=None,
              rotary_mode="half", cache_mode="default"):
    """torch_npu's npu_mrope (RopeWithSinCosCacheV2): rotary_mode "half" (NeoX) or
    "interleave" (GPT-J); cache_mode "default" (sectioned) or "interleave" (Qwen3-VL's
    interleaved mrope); positions [T] (rope) or [sections, T] (mrope). Returns rotated
    copies of (query, key)."""
    if rotary_mode not in _ROTARY_MODES:
        _fail(ValueError, "npu_mrope", f"rotary_mode = {rotary_mode!r}",
              "must be 'half' or 'interleave'")
    if cache_mode not in _CACHE_MODES:
        _fail(ValueError, "npu_mrope", f"cache_mode = {cache_mode!r}",
              "must be 'default' or 'interleave'")
    return ops.rope_with_sin_cos_cache(positions, query, key, cos_sin_cache, head_size,
                                       _ROTARY_MODES[rotary_mode], mrope_section=mrope_section,
                                       cache_mode=_CACHE_MODES[cache_mode])
