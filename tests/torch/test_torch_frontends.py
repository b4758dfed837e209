"""Front-ends on the examples of their originals' documentation: CANN's
cann_ops_transformer (single op, graph mode), FlashInfer's cos/sin-cache RoPE,
torch_npu's npu_mrope, and vLLM-style RotaryEmbedding / MRotaryEmbedding with every
rope_scaling type, against float64 references (the operators': refs.py; the scaled
frequencies: tests/reference/rope_frequencies.py)."""
import numpy as np
import pytest
import torch

import ropekit.torch as rt
import refs
import rope_frequencies as freqs
from cann_ops_transformer.ops import inplace_partial_rotary_mul
from conftest import make

# ---- CANN's cann_ops_transformer, examples from its torch API doc (device -> cpu) ----


def test_cann_single_op_example():
    B, S, N, D = 2, 32, 8, 128
    slice_start, slice_end = 0, 64
    x = torch.randn(B, S, N, D, device="cpu", dtype=torch.float16)
    r1 = torch.randn(B, S, 1, slice_end - slice_start, device="cpu", dtype=torch.float16)
    r2 = torch.randn(B, S, 1, slice_end - slice_start, device="cpu", dtype=torch.float16)
    x0 = x.clone()
    inplace_partial_rotary_mul(x, r1, r2, rotary_mode="interleave",
                               partial_slice=[slice_start, slice_end])
    want, mag = refs.partial_rotary(x0, r1, r2, "interleave", slice_start, slice_end)
    keep = torch.zeros_like(x, dtype=torch.bool)
    keep[..., slice_end:] = True
    refs.assert_close(x, want, mag, x.dtype, passthrough=(keep, x0))


def test_cann_graph_mode_example():
    # CANN compiles with torchair's NPU backend; on the CPU the default backend.
    torch._dynamo.reset()
    B, S, N, D = 2, 32, 8, 128
    slice_start, slice_end = 0, 64

    class InplacePartialRotaryMulModel(torch.nn.Module):
        def forward(self, x, r1, r2):
            inplace_partial_rotary_mul(x, r1, r2, rotary_mode="interleave",
                                       partial_slice=[slice_start, slice_end])
            return x

    model = torch.compile(InplacePartialRotaryMulModel(), dynamic=False)
    x = torch.randn(B, S, N, D, device="cpu", dtype=torch.float16)
    r1 = torch.randn(B, S, 1, slice_end - slice_start, device="cpu", dtype=torch.float16)
    r2 = torch.randn(B, S, 1, slice_end - slice_start, device="cpu", dtype=torch.float16)
    want = x.clone()
    inplace_partial_rotary_mul(want, r1, r2, rotary_mode="interleave",
                               partial_slice=[slice_start, slice_end])
    output = model(x, r1, r2)
    assert torch.equal(output, want) and torch.equal(x, want)


@pytest.mark.parametrize("call,match", [
    (lambda x, c: inplace_partial_rotary_mul(x[0], c[0], c[0], partial_slice=[0, 8]),
     "must be 4-D"),
    (lambda x, c: inplace_partial_rotary_mul(torch.zeros(1, 1, 1, 1026), c, c,
                                             partial_slice=[0, 8]), "must be <= 1024"),
    (lambda x, c: inplace_partial_rotary_mul(x.double(), c.double(), c.double(),
                                             partial_slice=[0, 8]),
     "xRef dtype = 11: must be float32, float16 or bfloat16"),  # CANN has no float64
    (lambda x, c: inplace_partial_rotary_mul(x, c, c, rotary_mode="half", partial_slice=[0, 8]),
     "only 1 \\(interleave\\) is supported"),
    (lambda x, c: inplace_partial_rotary_mul(x, c, c, partial_slice=[0, 8, 9]),
     "must have 2 values"),
    (lambda x, c: rt.ops.inplace_partial_rotary_mul(x, c, c, partial_slice=[0, 9]),
     "slice length"),
])
def test_cann_documented_checks(call, match):
    x, c = torch.randn(1, 2, 2, 16), torch.zeros(1, 2, 1, 8)  # a rotation would zero x
    x0 = x.clone()
    with pytest.raises(ValueError, match=match):
        call(x, c)
    assert torch.equal(x, x0)  # refused before anything is written


def test_cann_backward_needs_contiguous_tensors():
    from cann_ops_transformer import inplace_partial_rotary_mul_backward
    g = torch.zeros(1, 2, 16, 2).transpose(2, 3)
    c = torch.zeros(1, 2, 1, 8)
    with pytest.raises(ValueError, match="must be contiguous"):
        inplace_partial_rotary_mul_backward(g, c, c, partial_slice=[0, 8])


# ---- FlashInfer ----


def _flashinfer_cache(max_seq_len, rotary_dim, base=10000.0):
    inv_freq = 1.0 / (base ** (torch.arange(0, rotary_dim, 2, dtype=torch.float64) / rotary_dim))
    angles = torch.outer(torch.arange(max_seq_len, dtype=torch.float64), inv_freq)
    return torch.cat((angles.cos(), angles.sin()), dim=-1).float()


@pytest.mark.parametrize("is_neox", [True, False])
def test_flashinfer_apply_rope_with_cos_sin_cache(is_neox):
    nnz, num_q_heads, num_k_heads, head_size, rotary_dim = 33, 32, 8, 128, 64
    positions = torch.randint(0, 4096, (nnz,), dtype=torch.int32)
    query = torch.randn(nnz, num_q_heads * head_size, dtype=torch.bfloat16)
    key = torch.randn(nnz, num_k_heads * head_size, dtype=torch.bfloat16)
    cos_sin_cache = _flashinfer_cache(4096, rotary_dim)
    q, k = rt.apply_rope_with_cos_sin_cache(positions, query, key, head_size, cos_sin_cache,
                                            is_neox=is_neox)
    for x, got in ((query, q), (key, k)):
        want, mag = refs.rope(positions, x, cos_sin_cache, head_size, is_neox)
        refs.assert_close(got, want, mag, x.dtype)
    q2, k2 = query.clone(), key.clone()
    rt.apply_rope_with_cos_sin_cache_inplace(positions, q2, k2, head_size, cos_sin_cache,
                                             is_neox=is_neox)
    assert torch.equal(q2, q) and torch.equal(k2, k)


# ---- torch_npu npu_mrope ----


@pytest.mark.parametrize("rotary_mode", ["half", "interleave"])
@pytest.mark.parametrize("cache_mode", ["default", "interleave"])
def test_npu_mrope(rotary_mode, cache_mode):
    num_tokens, head_size, mrope_section = 16, 128, [16, 24, 24]
    positions = torch.randint(0, 128, (3, num_tokens))
    query = make((num_tokens, 4 * head_size), torch.float16, 1)
    key = make((num_tokens, 1 * head_size), torch.float16, 2)
    cos_sin_cache = make((128, head_size), torch.float16, 3)
    q, k = rt.npu_mrope(positions, query, key, cos_sin_cache, head_size,
                        mrope_section=mrope_section, rotary_mode=rotary_mode,
                        cache_mode=cache_mode)
    mode = 0 if cache_mode == "default" else 1
    for x, got in ((query, q), (key, k)):
        want, mag = refs.rope(positions, x, cos_sin_cache, head_size, rotary_mode == "half",
                              mrope_section, mode)
        refs.assert_close(got, want, mag, x.dtype)
    # rope mode: 1-D positions
    q1, _ = rt.npu_mrope(positions[0], query, key, cos_sin_cache, head_size)
    want, mag = refs.rope(positions[0], query, cos_sin_cache, head_size, True)
    refs.assert_close(q1, want, mag, query.dtype)


def test_npu_mrope_rejects_unknown_modes():
    args = (torch.zeros(2, dtype=torch.int64), torch.zeros(2, 64), torch.zeros(2, 64),
            torch.zeros(4, 64), 64)
    with pytest.raises(ValueError, match="rotary_mode = 'quarter'"):
        rt.npu_mrope(*args, rotary_mode="quarter")
    with pytest.raises(ValueError, match="cache_mode = 'x'"):
        rt.npu_mrope(*args, cache_mode="x")


# ---- vLLM-style modules with Hugging Face rope_scaling ----


def _reference_cache(rot, max_position, base, scaling):
    """The cache of each rope_scaling type, the rows transformers/vLLM give it."""
    kind = (scaling or {}).get("rope_type", (scaling or {}).get("type", "default"))
    inv, mscale, t = freqs.inv_freq(rot, base), 1.0, np.arange(max_position, dtype=np.float64)
    if kind == "linear":
        f = scaling["factor"]
        t = np.arange(int(max_position * f), dtype=np.float64) / f
    elif kind == "dynamic":
        f = scaling["factor"]
        max_len = int(max_position * f)
        inv = freqs.inv_freq(rot, freqs.dynamic_ntk_base(rot, base, f, max_len, max_position))
        t = np.arange(max_len, dtype=np.float64)
    elif kind == "yarn":
        f, orig = scaling["factor"], scaling["original_max_position_embeddings"]
        inv = freqs.yarn_inv_freq(rot, base, f, orig, scaling.get("beta_fast", 32),
                                  scaling.get("beta_slow", 1))
        mscale = freqs.yarn_mscale(f) * scaling.get("attn_factor", 1.0)
        t = np.arange(int(orig * f), dtype=np.float64)
    elif kind == "llama3":
        inv = freqs.llama3_inv_freq(rot, base, scaling["factor"], scaling["low_freq_factor"],
                                    scaling["high_freq_factor"],
                                    scaling["original_max_position_embeddings"])
    angles = torch.from_numpy(np.outer(t, inv))
    return torch.cat((angles.cos() * mscale, angles.sin() * mscale), dim=-1)


SCALINGS = [None, {"rope_type": "linear", "factor": 4.0}, {"type": "dynamic", "factor": 2.0},
            {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 2048,
             "beta_fast": 32, "beta_slow": 1},
            {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
             "high_freq_factor": 4.0, "original_max_position_embeddings": 1024}]


@pytest.mark.parametrize("scaling", SCALINGS,
                         ids=lambda s: (s or {}).get("rope_type", (s or {}).get("type", "none")))
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16],
                         ids=lambda d: str(d).split(".")[-1])
def test_rotary_embedding_with_rope_scaling(scaling, dtype):
    head_size, rotary_dim, max_position = 128, 64, 2048
    emb = rt.RotaryEmbedding(head_size, rotary_dim, max_position, 10000.0, True,
                             rope_scaling=scaling, dtype=dtype)
    want_cache = _reference_cache(rotary_dim, max_position, 10000.0, scaling)
    assert emb.cos_sin_cache.shape == want_cache.shape
    tol = 1e-6 if dtype == torch.float32 else 8e-3
    assert torch.allclose(emb.cos_sin_cache.double(), want_cache, atol=tol, rtol=0)
    positions = torch.randint(0, emb.cos_sin_cache.shape[0], (12,))
    query = make((12, 8 * head_size), dtype, 4)
    key = make((12, 2 * head_size), dtype, 5)
    q, k = emb(positions, query, key)
    for x, got in ((query, q), (key, k)):
        want, mag = refs.rope(positions, x, emb.cos_sin_cache, head_size, True)
        refs.assert_close(got, want, mag, dtype)


@pytest.mark.parametrize("interleaved", [False, True])
def test_mrotary_embedding_qwen_vl(interleaved):
    head_size, section = 128, [24, 20, 20] if interleaved else [16, 24, 24]
    scaling = {"rope_type": "default", "mrope_section": section,
               "mrope_interleaved": interleaved}
    emb = rt.MRotaryEmbedding(head_size, head_size, 4096, 1000000.0, True, rope_scaling=scaling)
    positions = torch.randint(0, 4096, (3, 10))
    query, key = make((10, 28 * head_size), torch.float32, 6), make((10, 4 * head_size),
                                                                     torch.float32, 7)
    q, k = emb(positions, query, key)
    for x, got in ((query, q), (key, k)):
        want, mag = refs.rope(positions, x, emb.cos_sin_cache, head_size, True, section,
                              1 if interleaved else 0)
        refs.assert_close(got, want, mag, torch.float32)
    q1, _ = emb(positions[0], query, key)  # text only
    want, mag = refs.rope(positions[0], query, emb.cos_sin_cache, head_size, True)
    refs.assert_close(q1, want, mag, torch.float32)
