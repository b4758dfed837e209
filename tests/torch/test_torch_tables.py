"""ropekit.torch's table front-ends with the newer rope types: rope_from_config, and
RotaryEmbedding built from rope_scaling dicts of every type, against the float64
references of the published formulas (tests/reference/rope_frequencies.py): longrope's
long factors (the cache has more rows than original), mixed ntk, Hunyuan's alpha (rows
max_position), yarn with a fractional correction range (truncate False).
"""
import numpy as np
import pytest
import torch

import ropekit
import ropekit.torch as rt
import refs
import rope_frequencies as freqs
from conftest import make

R, BASE, MAX_POSITION = 64, 10000.0, 2048
SHORT = [1.0 + 0.05 * i for i in range(R // 2)]
LONG = [1.0 + 0.9 * i for i in range(R // 2)]


def _inv(values):
    return torch.from_numpy(values)


CASES = {
    # name: (rope_scaling, rows, inv, magnitude)
    "longrope": ({"rope_type": "longrope", "short_factor": SHORT, "long_factor": LONG,
                  "original_max_position_embeddings": 256},
                 MAX_POSITION, _inv(freqs.longrope_inv_freq(R, BASE, LONG)),
                 freqs.longrope_attention_factor(MAX_POSITION / 256, 256)),
    "ntk-mixed": ({"rope_type": "ntk", "factor": 4.0, "mixed_b": 0.5}, MAX_POSITION,
                  _inv(freqs.ntk_inv_freq(R, BASE, 4.0, 0.5)), 1.0),
    "dynamic-alpha": ({"type": "dynamic", "alpha": 100.0}, MAX_POSITION,
                      _inv(freqs.inv_freq(R, freqs.ntk_alpha_base(R, BASE, 100.0))), 1.0),
    "yarn-no-truncate": ({"rope_type": "yarn", "factor": 8.0,
                          "original_max_position_embeddings": 512, "truncate": False},
                         4096, _inv(freqs.yarn_inv_freq(R, BASE, 8.0, 512, truncate=False)),
                         freqs.yarn_mscale(8.0)),
}

@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16],
                         ids=lambda d: str(d).split(".")[-1])
def test_rotary_embedding_with_newer_rope_types(name, dtype):
    scaling, rows, inv, mag = CASES[name]
    head_size = 128
    emb = rt.RotaryEmbedding(head_size, R, MAX_POSITION, BASE, True, rope_scaling=scaling,
                             dtype=dtype)
    angles = torch.outer(torch.arange(rows, dtype=torch.float64), inv)
    want = torch.cat((angles.cos() * mag, angles.sin() * mag), dim=-1)
    assert emb.cos_sin_cache.shape == want.shape
    tol = 2e-6 if dtype == torch.float32 else 8e-3
    assert torch.allclose(emb.cos_sin_cache.double(), want, atol=tol, rtol=0)
    positions = torch.randint(0, rows, (9,))
    query, key = make((9, 4 * head_size), dtype, 1), make((9, 2 * head_size), dtype, 2)
    q, k = emb(positions, query, key)
    for x, got in ((query, q), (key, k)):
        expect, m = refs.rope(positions, x, emb.cos_sin_cache, head_size, True)
        refs.assert_close(got, expect, m, dtype)


@pytest.mark.parametrize("dtype,name", [(torch.float32, "f32"), (torch.float16, "f16"),
                                        (torch.bfloat16, "bf16")])
def test_rope_from_config_as_torch(dtype, name):
    config = {"model_type": "qwen2", "hidden_size": 1024, "num_attention_heads": 16,
              "max_position_embeddings": 1024, "rope_theta": 1e6,
              "rope_scaling": {"type": "yarn", "factor": 4.0,
                               "original_max_position_embeddings": 1024}}
    found = rt.rope_from_config(config, dtype=dtype)
    plain = ropekit.rope_from_config(config, dtype=name)
    assert found.cache.dtype == dtype and tuple(found.cache.shape) == (4096, 64)
    assert found.cache.view(torch.int16).numpy().tobytes() == \
        np.ascontiguousarray(plain.cache).tobytes()
    assert found.attention_scaling == plain.attention_scaling == pytest.approx(
        freqs.yarn_mscale(4.0))
    with pytest.raises(TypeError, match="rope_from_config"):
        rt.rope_from_config(config, dtype=torch.int32)
    wide = rt.rope_from_config(config, dtype=torch.float64)
    assert wide.cache.dtype == torch.float64
    assert torch.allclose(wide.cache.float(), found.cache.float(), rtol=0, atol=1e-2)


def test_scaling_from_config_is_the_tables_mapping():
    for scaling, _, _, _ in CASES.values():
        assert rt.scaling_from_config(scaling, MAX_POSITION) == \
            ropekit.tables.scaling_from_rope_parameters(scaling, MAX_POSITION)
    with pytest.raises(ValueError, match="must be one of .*longrope"):
        rt.scaling_from_config({"rope_type": "ntk-by-parts"}, 128)


_NAMES = {torch.float32: "f32", torch.float16: "f16", torch.bfloat16: "bf16",
          torch.float64: "f64"}


def _bytes(t):
    return t.reshape(-1).view(torch.uint8).numpy().tobytes()


@pytest.mark.parametrize("dtype", list(_NAMES), ids=lambda d: str(d).split(".")[-1])
def test_cos_sin_cache_from_inv_freq_as_torch(dtype):
    inv = _inv(freqs.inv_freq(R, BASE)) / 3.0
    cache = rt.cos_sin_cache_from_inv_freq(300, inv, dtype=dtype, magnitude=0.5)
    assert cache.dtype == dtype and tuple(cache.shape) == (300, R)
    plain = ropekit.cos_sin_cache_from_inv_freq(300, inv.numpy(), _NAMES[dtype], 0.5)
    assert _bytes(cache) == np.ascontiguousarray(plain).tobytes()
    # a float32 tensor is read as the float64 values it holds; a list works too
    as_f32 = rt.cos_sin_cache_from_inv_freq(300, inv.float(), dtype=dtype, magnitude=0.5)
    listed = rt.cos_sin_cache_from_inv_freq(300, inv.float().tolist(), dtype=dtype,
                                            magnitude=0.5)
    assert _bytes(as_f32) == _bytes(listed)
    angles = torch.outer(torch.arange(300, dtype=torch.float64), inv)
    want = torch.cat((angles.cos(), angles.sin()), dim=-1) * 0.5
    tol = {torch.float64: 1e-15, torch.float32: 3e-8}.get(dtype, 2e-3)
    assert torch.allclose(cache.double(), want, rtol=0, atol=tol)


def test_cos_sin_cache_from_inv_freq_errors():
    with pytest.raises(TypeError, match="cos_sin_cache_from_inv_freq"):
        rt.cos_sin_cache_from_inv_freq(8, [1.0], dtype=torch.int32)
    with pytest.raises(ropekit.RopekitError, match="inv_freq 0 = nan: must be finite"):
        rt.cos_sin_cache_from_inv_freq(8, torch.tensor([float("nan")]))
    with pytest.raises(ropekit.RopekitError, match="magnitude = 0: must be finite, > 0"):
        rt.cos_sin_cache_from_inv_freq(8, [1.0], magnitude=0.0)


@pytest.mark.parametrize("dtype", list(_NAMES), ids=lambda d: str(d).split(".")[-1])
def test_llama4_vision_rope_as_torch(dtype):
    from model_cases import BY_NAME, llama4_vision_reference
    c = BY_NAME["Llama 4 (vision)"].config
    d = c["hidden_size"] // c["num_attention_heads"]
    vis = rt.llama4_vision_rope(c["image_size"], c["patch_size"], d, c["rope_theta"], dtype)
    plain = ropekit.llama4_vision_rope(c["image_size"], c["patch_size"], d, c["rope_theta"],
                                       _NAMES[dtype])
    assert vis.cache.dtype == dtype and _bytes(vis.cache) == \
        np.ascontiguousarray(plain.cache).tobytes()
    assert vis.positions.dtype == torch.int64 and tuple(vis.positions.shape) == (2, 577)
    assert torch.equal(vis.positions, torch.from_numpy(plain.positions))
    assert (vis.mrope_section, vis.head_dim, vis.is_neox_style, vis.cache_mode) == \
        ([22, 22], 88, False, 0)
    if dtype != torch.float64:
        return
    # float64 end to end: the op against HF's complex product, to double rounding
    q, k = make((2, 577, 3, d), dtype, 3), make((2, 577, 1, d), dtype, 4)
    positions = vis.positions[:, None].expand(-1, 2, -1)
    got = torch.ops.ropekit.rope_with_sin_cos_cache(
        positions, q, k, vis.cache, vis.head_dim, vis.is_neox_style,
        mrope_section=vis.mrope_section, cache_mode=vis.cache_mode)
    for g, w in zip(got, llama4_vision_reference(c, q, k)):
        torch.testing.assert_close(g, w, rtol=1e-13, atol=1e-13)
    with pytest.raises(ValueError, match="head_dim = 90: must be a multiple of 4"):
        rt.llama4_vision_rope(336, 14, 90)
