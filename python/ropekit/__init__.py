"""ropekit for Python: numpy bindings of libropekit's rotary position embedding ops.

- partial_rotary: the native face of InplacePartialRotaryMul (every mode, dtype pair,
  rank, broadcast, strides).
- inplace_partial_rotary_mul / inplace_partial_rotary_mul_backward: CANN's Python API.
- rope / RopePlan: RopeWithSinCosCache on the native face (rope and mrope, NeoX and
  GPT-J, any sections and strides, query-only or key-only).
- cos_sin_cache, rotary_coeffs, inv_freq, table_frequencies, attention_scaling,
  RopeScaling: cos/sin tables with the rope scaling variants of transformers and vLLM;
  cos_sin_cache_from_inv_freq, rotary_coeffs_from_inv_freq: the same from the caller's
  frequencies; rope_from_config: the cache and rope facts of a Hugging Face config.json.
- llama4_vision_rope: Llama 4's 2-D vision rope as mrope arguments (VisionRope).
- bf16_from_f32 / bf16_to_f32: bfloat16 as uint16 bits.
- ropekit.aclnn (import explicitly): the CANN C API face, for tests.

The library is loaded from $ROPEKIT_LIBRARY, else found by ctypes.util.find_library.
"""
from ._lib import RopekitError, library_path
from .bf16 import bf16_from_f32, bf16_to_f32
from .cann import inplace_partial_rotary_mul, inplace_partial_rotary_mul_backward
from .native import (active_isa, detected_isa, get_num_threads, last_error, partial_rotary,
                     set_max_isa, set_num_threads, status_name, version)
from .rope import RopePlan, rope, rope_plan
from .tables import (RopeFromConfig, RopeScaling, attention_scaling, cache_from_sin_cos,
                     cos_sin_cache, cos_sin_cache_from_inv_freq, inv_freq,
                     rope_from_config, rope_scaling_defaults, rotary_coeffs,
                     rotary_coeffs_from_inv_freq, table_frequencies)
from .vision import VisionRope, llama4_vision_rope

__all__ = [
    "RopekitError", "library_path", "bf16_from_f32", "bf16_to_f32", "partial_rotary",
    "inplace_partial_rotary_mul", "inplace_partial_rotary_mul_backward", "set_num_threads",
    "get_num_threads", "last_error", "status_name", "version", "active_isa", "detected_isa",
    "set_max_isa", "rope", "rope_plan", "RopePlan", "cos_sin_cache", "rotary_coeffs",
    "inv_freq", "RopeScaling", "rope_scaling_defaults", "table_frequencies",
    "attention_scaling", "rope_from_config", "RopeFromConfig", "cache_from_sin_cos",
    "cos_sin_cache_from_inv_freq", "rotary_coeffs_from_inv_freq", "llama4_vision_rope",
    "VisionRope",
]
