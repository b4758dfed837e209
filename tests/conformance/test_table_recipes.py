"""Ropes that are plain cos/sin tables used another way, as docs/models.md builds them,
against float64 references written here from the models' own code:

Llama 4's vision rope (transformers' Llama4VisionRotaryEmbedding and
vision_apply_rotary_emb): n = image_size // patch_size patches a side numbered row by
row, then a class token; f_i = theta^(-2i / (D/2)) for i < D/4; x and y angles (x + 1)
f_i and (y + 1) f_i are each repeated twice, concatenated, and every other one kept, the
class token's zeroed; q and k [B, S, H, D] multiply their consecutive pairs, as complex
numbers, by exp(i angle). ropekit.llama4_vision_rope gives the mrope arguments for it.

vLLM's DualChunkRotaryEmbedding (Qwen2.5-1M): with c = chunk_size, L = c - local_size and
inv_freq = 1 / base^(arange(0, R, 2) / R), five caches cat(cos, sin) of outer(t, inv_freq)
at t = arange(L) (q), min(arange(L) + L, c) (qc), arange(max_positions) % L (k),
arange(L) + L (qc_no_clamp) and arange(L) + c (q_inter): rows of one plain table.
"""
import numpy as np
import pytest

import ropekit

from table_rounding import DTYPES, check_rounded, window

ALL_DTYPES = DTYPES + ("f64",)


def check_values(got, want, win, dtype, what):
    if dtype == "f64":
        bad = np.abs(got - want) > win
        assert not bad.any(), f"{what}: {int(bad.sum())} float64 values off"
    else:
        check_rounded(got, want, win, dtype, what)


# ---- Llama 4 (vision) ------------------------------------------------------------------

def hf_freqs_ci(image_size, patch_size, head_dim, theta):
    """[patches + 1, D/2] complex128, in the steps of HF's Llama4VisionRotaryEmbedding."""
    idx = image_size // patch_size
    img_idx = np.arange(idx ** 2).reshape(idx ** 2, 1)
    img_idx = np.concatenate([img_idx, img_idx[:1]], axis=0)
    img_idx[-1, -1] = -2  # the class token
    frequencies_x = img_idx % idx
    frequencies_y = img_idx // idx
    freq_dim = head_dim // 2
    rope_freq = 1.0 / theta ** (np.arange(0, freq_dim, 2)[: freq_dim // 2] / freq_dim)
    freqs_x = np.repeat((frequencies_x + 1) * rope_freq[None, :], 2, axis=-1)
    freqs_y = np.repeat((frequencies_y + 1) * rope_freq[None, :], 2, axis=-1)
    freqs = np.concatenate([freqs_x, freqs_y], axis=-1)[..., ::2]
    freqs = np.where(img_idx < 0, 0.0, freqs)
    return np.cos(freqs) + 1j * np.sin(freqs), freqs


def hf_vision_apply(x, freqs_ci):
    """vision_apply_rotary_emb on x [B, S, H, D]: freqs_ci broadcast over batch and heads."""
    xc = x[..., 0::2] + 1j * x[..., 1::2]
    out = xc * freqs_ci[None, :, None, :]
    return np.stack([out.real, out.imag], axis=-1).reshape(x.shape)


VISION = {
    # name: (image_size, patch_size, head_dim, theta)
    "llama4-scout": (336, 14, 88, 10000.0),
    "odd-grid": (100, 14, 16, 100.0),       # 7 x 7, image not a multiple of the patch
    "one-patch": (14, 14, 4, 10000.0),
}


@pytest.mark.parametrize("name", list(VISION))
def test_llama4_vision_arguments(name):
    image, patch, d, theta = VISION[name]
    n = image // patch
    vis = ropekit.llama4_vision_rope(image, patch, d, theta, "f64")
    assert vis.positions.dtype == np.int64 and vis.positions.shape == (2, n * n + 1)
    assert vis.mrope_section == [d // 4, d // 4] and vis.cache_mode == 0
    assert vis.head_dim == d and vis.is_neox_style is False
    assert vis.cache.shape == (n + 1, d)
    _, freqs = hf_freqs_ci(image, patch, d, theta)
    # each half of the table's frequencies drives its own section from its own row
    f = 1.0 / theta ** (np.arange(0, d // 2, 2) / (d // 2))
    for row, section in ((0, slice(0, d // 4)), (1, slice(d // 4, d // 2))):
        np.testing.assert_allclose(vis.positions[row][:, None] * f[None, :], freqs[:, section],
                                   rtol=1e-15, atol=0)
    assert not vis.positions[:, -1].any()  # the class token: position 0, angle 0


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", list(VISION))
def test_llama4_vision_cache(name, dtype):
    image, patch, d, theta = VISION[name]
    n = image // patch
    vis = ropekit.llama4_vision_rope(image, patch, d, theta, dtype)
    f = 1.0 / theta ** (np.arange(0, d // 2, 2) / (d // 2))
    angles = np.arange(n + 1.0)[:, None] * np.concatenate([f, f])[None, :]
    win = window(angles, 1.0)
    check_values(vis.cache[:, : d // 2], np.cos(angles), win, dtype, f"{name} cos")
    check_values(vis.cache[:, d // 2:], np.sin(angles), win, dtype, f"{name} sin")


@pytest.mark.parametrize("dtype,rtol", [("f64", 1e-13), ("f32", 2e-6)])
@pytest.mark.parametrize("name", list(VISION))
def test_llama4_vision_rotation(name, dtype, rtol):
    image, patch, d, theta = VISION[name]
    rng = np.random.default_rng(len(name))
    vis = ropekit.llama4_vision_rope(image, patch, d, theta, dtype)
    b, s, h = 2, vis.positions.shape[1], 3
    x_type = np.float64 if dtype == "f64" else np.float32
    q = rng.standard_normal((b, s, h, d)).astype(x_type)
    k = rng.standard_normal((b, s, 1, d)).astype(x_type)
    positions = np.ascontiguousarray(np.broadcast_to(vis.positions[:, None], (2, b, s)))
    got_q, got_k = ropekit.rope(positions, q, k, vis.cache, head_size=d, style="gptj",
                                sections=vis.mrope_section, cache_mode=vis.cache_mode,
                                query_out=np.empty_like(q), key_out=np.empty_like(k))
    freqs_ci, _ = hf_freqs_ci(image, patch, d, theta)
    for got, x in ((got_q, q), (got_k, k)):
        want = hf_vision_apply(x.astype(np.float64), freqs_ci)
        np.testing.assert_allclose(got, want, rtol=rtol, atol=rtol)
        assert np.array_equal(got[:, -1], x[:, -1])  # the class token does not turn


def test_llama4_vision_errors():
    with pytest.raises(ValueError, match="head_dim = 6: must be a multiple of 4"):
        ropekit.llama4_vision_rope(336, 14, 6)
    with pytest.raises(ValueError, match="image_size // patch_size = 0"):
        ropekit.llama4_vision_rope(10, 14, 88)
    with pytest.raises(ropekit.RopekitError, match="base = 1: must be > 1"):
        ropekit.llama4_vision_rope(336, 14, 88, 1.0)


# ---- vLLM's dual-chunk rope --------------------------------------------------------------

def vllm_dual_chunk_caches(rotary_dim, max_positions, base, chunk_size, local_size):
    """DualChunkRotaryEmbedding._compute_cos_sin_cache, in float64."""
    inv_freq = 1.0 / base ** (np.arange(0, rotary_dim, 2) / rotary_dim)
    chunk_len = chunk_size - local_size
    q_t = np.arange(chunk_len, dtype=np.float64)
    qc_t = np.minimum(np.arange(chunk_len, dtype=np.float64) + chunk_len, chunk_size)
    k_t = np.arange(max_positions, dtype=np.float64) % chunk_len
    qc_no_clamp_t = np.arange(chunk_len, dtype=np.float64) + chunk_len
    q_inter_t = np.arange(chunk_len, dtype=np.float64) + chunk_size
    out = {}
    for name, t in (("q", q_t), ("qc", qc_t), ("k", k_t), ("qc_no_clamp", qc_no_clamp_t),
                    ("q_inter", q_inter_t)):
        freqs = np.outer(t, inv_freq)
        out[name] = (freqs, np.concatenate([np.cos(freqs), np.sin(freqs)], axis=-1))
    return out


def dual_chunk_rows(max_positions, chunk_size, local_size):
    """docs/models.md's recipe: the plain table's row of each row of the five caches."""
    chunk_len = chunk_size - local_size
    i = np.arange(chunk_len)
    return {"q": i, "qc": np.minimum(i + chunk_len, chunk_size),
            "k": np.arange(max_positions) % chunk_len, "qc_no_clamp": i + chunk_len,
            "q_inter": i + chunk_size}


DUAL = {
    # name: (rotary_dim, max_positions, base, chunk_size, local_size)
    "small": (32, 300, 10000.0, 64, 16),
    "clamped": (64, 500, 1e7, 100, 10),       # 2 L - 1 > c: qc clamps
    "unclamped": (16, 200, 10000.0, 60, 40),  # 2 L - 1 < c
}


@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("name", list(DUAL))
def test_dual_chunk_caches_are_rows_of_one_plain_table(name, dtype):
    R, M, base, c, local = DUAL[name]
    table = ropekit.cos_sin_cache(c + (c - local), R, base, dtype)
    want = vllm_dual_chunk_caches(R, M, base, c, local)
    for cache, rows in dual_chunk_rows(M, c, local).items():
        freqs, exact = want[cache]
        win = np.concatenate([window(freqs, 1.0)] * 2, axis=-1)
        check_values(table[rows], exact, win, dtype, f"{name} {cache}")


@pytest.mark.parametrize("name", list(DUAL))
def test_dual_chunk_rotation_at_remapped_positions(name):
    # vLLM's forward: each query and key gathers its cache at its position (q, qc,
    # qc_no_clamp, q_inter at p % L; k at p; the inter query at row L - 1 of qc for every
    # token). One plain table at the remapped positions gives the same bytes.
    R, M, base, c, local = DUAL[name]
    L = c - local
    rng = np.random.default_rng(7)
    t, h = 40, 2
    p = rng.integers(0, M, t)
    p[0], p[1] = M - 1, L - 1
    x = rng.standard_normal((t, h, R)).astype(np.float32)
    table = ropekit.cos_sin_cache(c + L, R, base)
    caches = {name_: table[rows] for name_, rows in dual_chunk_rows(M, c, local).items()}
    vllm_calls = [("q", p % L), ("qc", p % L), ("qc", np.full(t, L - 1)),
                  ("qc_no_clamp", p % L), ("q_inter", p % L), ("k", p)]
    remapped = [p % L, np.minimum(p % L + L, c), np.full(t, min(2 * L - 1, c)), p % L + L,
                p % L + c, p % L]
    for (cache, index), positions in zip(vllm_calls, remapped):
        want, _ = ropekit.rope(index.astype(np.int64), x, None, caches[cache], head_size=R,
                               query_out=np.empty_like(x))
        got, _ = ropekit.rope(positions.astype(np.int64), x, None, table, head_size=R,
                              query_out=np.empty_like(x))
        assert got.tobytes() == want.tobytes(), cache
