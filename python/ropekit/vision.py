"""Vision ropes that ropekit's mrope expresses: a 2-D rope over an image's patch grid is
mrope with one position row per axis of the grid, on a cos/sin table of the model's own
frequencies (tables.cos_sin_cache_from_inv_freq)."""
import dataclasses

import numpy as np

from . import _abi
from .tables import cos_sin_cache_from_inv_freq, inv_freq


@dataclasses.dataclass
class VisionRope:
    """The arguments of the rope call for an image's tokens.

    cache: [rows, head_dim] (cos | sin). positions: int64 [2, tokens], row 0 the x
    positions and row 1 the y positions of each token, in the model's token order.
    mrope_section: the frequencies each row drives (cache_mode 0: contiguous sections).
    The whole head rotates (rotary_dim = head_dim)."""

    cache: object
    positions: object
    mrope_section: list
    head_dim: int
    is_neox_style: bool = False
    cache_mode: int = _abi.ROPEKIT_MROPE_SECTIONED


def llama4_vision_rope(image_size, patch_size, head_dim, theta=10000.0, dtype="f32"):
    """Llama 4's vision rope (transformers' and vLLM's Llama4VisionRotaryEmbedding) as
    ropekit mrope.

    The image has n = image_size // patch_size patches a side, numbered row by row
    (token y * n + x), then one class token. With f_i = theta^(-2i / (head_dim / 2)) for
    i < head_dim / 4, pair j < head_dim / 4 of a patch (elements 2j, 2j + 1; GPT-J style)
    turns by (x + 1) f_j and pair head_dim / 4 + j by (y + 1) f_j; the class token does
    not turn. So the positions are [x + 1, y + 1] per patch and [0, 0] for the class
    token, the sections [head_dim / 4, head_dim / 4], and the table (rows 0..n) holds
    inv_freq = f | f. dtype: "f32", "f16", "bf16" (uint16 bits) or "f64"."""
    n, d = int(image_size) // int(patch_size), int(head_dim)
    if n < 1:
        raise ValueError(f"llama4_vision_rope: image_size // patch_size = {n}: must be >= 1")
    if d < 4 or d % 4:
        raise ValueError(f"llama4_vision_rope: head_dim = {d}: must be a multiple of 4")
    f = inv_freq(d // 2, theta)
    cache = cos_sin_cache_from_inv_freq(n + 1, np.concatenate([f, f]), dtype)
    patch = np.arange(n * n)
    positions = np.zeros((2, n * n + 1), np.int64)
    positions[0, :-1] = patch % n + 1
    positions[1, :-1] = patch // n + 1
    return VisionRope(cache, positions, [d // 4, d // 4], d)
