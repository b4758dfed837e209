"""torch.ops.ropekit.rope_with_sin_cos_cache, its backward and vLLM's rotary_embedding
against vLLM's forward_native written in float64: NeoX and GPT-J, rope and mrope
(sectioned and Qwen3-VL interleaved), partial rotary dims, GQA, 2-D and 3-D layouts,
fused qkv views, int32 positions, query-only calls, empty inputs."""
import pytest
import torch

import ropekit.torch  # noqa: F401
import refs
from conftest import DTYPES, make

ops = torch.ops.ropekit


def _cache(positions, rot, dtype, seed=5):
    return make((positions, rot), dtype, seed)


def _check(x, got, positions, cache, head_size, is_neox, sections=None, cache_mode=0):
    want, mag = refs.rope(positions, x, cache, head_size, is_neox, sections, cache_mode)
    rot = cache.shape[1]
    keep = torch.zeros((x.shape[0], x.numel() // x.shape[0] // head_size, head_size),
                       dtype=torch.bool)
    keep[..., rot:] = True
    refs.assert_close(got, want, mag, x.dtype, passthrough=(keep.reshape(x.shape), x))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: str(d).split(".")[-1])
@pytest.mark.parametrize("is_neox", [True, False], ids=["neox", "gptj"])
@pytest.mark.parametrize("rot", [128, 64, 32])
def test_rope_styles_dtypes_and_rotary_dims(dtype, is_neox, rot):
    t, hq, hk, hs = 9, 4, 2, 128
    q, k = make((t, hq * hs), dtype, 1), make((t, hk * hs), dtype, 2)
    cache = _cache(64, rot, dtype)
    pos = torch.randint(0, 64, (t,))
    qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, hs, is_neox)
    _check(q, qo, pos, cache, hs, is_neox)
    _check(k, ko, pos, cache, hs, is_neox)


@pytest.mark.parametrize("sections,cache_mode", [([16, 24, 24], 0), ([8, 12, 12], 0),
                                                 ([24, 20, 20], 1), ([16, 16, 16, 16], 0),
                                                 ([10, 22], 0), ([16, 24, 24], 1)])
@pytest.mark.parametrize("is_neox", [True, False], ids=["neox", "gptj"])
def test_mrope_sections_and_interleaved(sections, cache_mode, is_neox):
    t, hs = 7, 128
    rot = 2 * sum(sections)
    q, k = make((t, 3, hs), torch.float32, 3), make((t, 1, hs), torch.float32, 4)
    cache = _cache(100, rot, torch.float32)
    pos = torch.randint(0, 100, (len(sections), t))
    qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, hs, is_neox, mrope_section=sections,
                                         cache_mode=cache_mode)
    _check(q, qo, pos, cache, hs, is_neox, sections, cache_mode)
    _check(k, ko, pos, cache, hs, is_neox, sections, cache_mode)


def test_section_list_starting_with_zero_is_plain_rope():
    q = make((3, 256), torch.float32, 5)
    cache = _cache(16, 64, torch.float32)
    pos = torch.tensor([1, 5, 9])
    a, _ = ops.rope_with_sin_cos_cache(pos, q, None, cache, 128, True, mrope_section=[0, 0, 0])
    b, _ = ops.rope_with_sin_cos_cache(pos, q, None, cache, 128, True)
    assert torch.equal(a, b)


def test_cache_dtype_differs_from_query_and_int32_positions():
    q, k = make((5, 2 * 64), torch.bfloat16, 6), make((5, 64), torch.bfloat16, 7)
    cache = _cache(32, 64, torch.float32)
    pos = torch.randint(0, 32, (5,), dtype=torch.int32)
    qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, 64, False)
    _check(q, qo, pos, cache, 64, False)
    _check(k, ko, pos, cache, 64, False)


def test_fused_qkv_views_in_place():
    t, hq, hk, hs = 6, 4, 2, 64
    qkv = make((t, (hq + 2 * hk) * hs), torch.float16, 8)
    before = qkv.clone()
    q, k = qkv[:, :hq * hs], qkv[:, hq * hs:(hq + hk) * hs]
    assert not q.is_contiguous()
    cache = _cache(40, 32, torch.float16)
    pos = torch.randint(0, 40, (t,))
    want_q, want_k = ops.rope_with_sin_cos_cache(pos, q, k, cache, hs, True)
    ops.rotary_embedding(pos, q, k, hs, cache, True)
    assert torch.equal(q, want_q) and torch.equal(k, want_k)
    assert torch.equal(qkv[:, (hq + hk) * hs:], before[:, (hq + hk) * hs:]), "v was written"
    _check(before[:, :hq * hs], q, pos, cache, hs, True)


def test_query_only_and_3d_layout():
    q = make((4, 8, 64), torch.float32, 9)
    cache = _cache(10, 64, torch.float32)
    pos = torch.tensor([0, 3, 9, 1])
    qo, ko = ops.rope_with_sin_cos_cache(pos, q, None, cache, 64, True)
    assert ko is None
    _check(q, qo, pos, cache, 64, True)
    q2 = q.clone()
    ops.rotary_embedding(pos, q2, None, 64, cache, True)
    assert torch.equal(q2, qo)


def test_empty_token_batch():
    q, k = torch.empty((0, 128)), torch.empty((0, 64))
    cache = _cache(8, 64, torch.float32)
    qo, ko = ops.rope_with_sin_cos_cache(torch.empty(0, dtype=torch.int64), q, k, cache, 64,
                                         True)
    assert qo.shape == (0, 128) and ko.shape == (0, 64)


@pytest.mark.parametrize("is_neox", [True, False], ids=["neox", "gptj"])
def test_backward_op_rotates_back(is_neox):
    # rotations by real angles: the backward (the transpose) is the inverse rotation
    t, hs = 5, 64
    ang = torch.rand(20, 16, dtype=torch.float64) * 6.0
    cache = torch.cat((ang.cos(), ang.sin()), dim=1).float()
    pos = torch.randint(0, 20, (t,))
    q = make((t, 2 * hs), torch.float32, 10)
    qo, _ = ops.rope_with_sin_cos_cache(pos, q, None, cache, hs, is_neox)
    back, _ = ops.rope_with_sin_cos_cache_backward(pos, qo, None, cache, hs, is_neox)
    assert torch.allclose(back, q, atol=1e-5)
    g = make((t, 2 * hs), torch.float32, 11)
    gq, _ = ops.rope_with_sin_cos_cache_backward(pos, g, None, cache, hs, is_neox)
    x0 = torch.zeros(t, 2 * hs, dtype=torch.float64, requires_grad=True)
    out, _ = refs.rope(pos, x0, cache, hs, is_neox)
    (want,) = torch.autograd.grad(out, x0, g.double())
    assert torch.allclose(gq.double(), want, atol=1e-6)


def test_positions_out_of_range_write_nothing():
    q = make((3, 64), torch.float32, 12)
    cache = _cache(8, 64, torch.float32)
    qc = q.clone()
    with pytest.raises(IndexError, match=r"positions\[0\]\[2\] = 8"):
        ops.rotary_embedding(torch.tensor([1, 2, 8]), qc, None, 64, cache, True)
    assert torch.equal(qc, q)


def test_backward_follows_a_modified_or_new_cache():
    # the negated cache kept between backward calls must follow the cache itself
    pos = torch.tensor([0, 1, 2])
    g = make((3, 64), torch.float32, 20)
    cache = make((4, 32), torch.float32, 21)
    first, _ = ops.rope_with_sin_cos_cache_backward(pos, g, None, cache, 64, True)
    with torch.no_grad():
        cache.mul_(0.5)  # same tensor, new contents
    second, _ = ops.rope_with_sin_cos_cache_backward(pos, g, None, cache, 64, True)
    want, _ = ops.rope_with_sin_cos_cache_backward(pos, g, None, cache.clone(), 64, True)
    assert torch.equal(second, want) and not torch.equal(first, second)
