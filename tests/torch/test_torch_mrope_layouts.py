"""rope_with_sin_cos_cache with the native face's own mrope layouts, cache_mode 2
(ERNIE-4.5-VL, sections (h, w, t)) and 3 (openPangu-VL, 2 or 3 sections), against vLLM's
forward_native in float64 (refs.py): NeoX and GPT-J, every dtype, odd sections, [3, B, S]
positions with [B, S, H, D] views, the backward op and autograd, opcheck (schema and fake
kernel), MRotaryEmbedding taking the mode from its arguments or its rope_scaling, the
errors (nothing written), and npu_mrope keeping CANN's two modes."""
import pytest
import torch

import ropekit.torch as rt
import refs
from conftest import DTYPES, assert_unchanged, make, snapshot

ops = torch.ops.ropekit

LAYOUTS = [([22, 22, 20], 2), ([3, 3, 5], 2), ([1, 1, 0], 2),
           ([24, 20, 20], 3), ([1, 5, 4], 3), ([7, 2, 3], 3), ([6, 5], 3), ([9, 0], 3)]


def _check(x, got, pos, cache, hs, is_neox, sections, mode):
    want, mag = refs.rope(pos, x, cache, hs, is_neox, sections, mode)
    refs.assert_close(got, want, mag, x.dtype)


@pytest.mark.parametrize("sections,mode", LAYOUTS, ids=str)
@pytest.mark.parametrize("is_neox", [True, False], ids=["neox", "gptj"])
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: str(d).split(".")[-1])
def test_layouts(sections, mode, is_neox, dtype):
    t, rot = 6, 2 * sum(sections)
    hs = rot + 4
    q, k = make((t, 3, hs), dtype, 1), make((t, hs), dtype, 2)
    cache = make((40, rot), dtype, 3)
    pos = torch.randint(0, 40, (len(sections), t))
    qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, hs, is_neox, mrope_section=sections,
                                         cache_mode=mode)
    _check(q, qo, pos, cache, hs, is_neox, sections, mode)
    _check(k, ko, pos, cache, hs, is_neox, sections, mode)


@pytest.mark.parametrize("sections,mode", [([6, 6, 4], 2), ([6, 5, 5], 3), ([9, 7], 3)],
                         ids=str)
def test_batched_positions(sections, mode):
    """[m, B, S] positions, a Hugging Face [B, H, S, D] query as its transpose: the call on
    the tokens flattened."""
    b, s, hs, rot = 2, 5, 40, 2 * sum(sections)
    q = make((b, 4, s, hs), torch.float32, 4).transpose(1, 2)
    k = make((b, s, 2 * hs), torch.float32, 5)
    cache = make((30, rot), torch.float32, 6)
    pos = torch.randint(0, 30, (len(sections), b, s))
    qo, ko = ops.rope_with_sin_cos_cache(pos, q, k, cache, hs, False, mrope_section=sections,
                                         cache_mode=mode)
    flat = pos.reshape(len(sections), b * s)
    fq, fk = ops.rope_with_sin_cos_cache(flat, q.reshape(b * s, -1), k.reshape(b * s, -1),
                                         cache, hs, False, mrope_section=sections,
                                         cache_mode=mode)
    assert torch.equal(qo.reshape(b * s, -1), fq) and torch.equal(ko.reshape(b * s, -1), fk)
    _check(q.reshape(b * s, -1), fq, flat, cache, hs, False, sections, mode)


@pytest.mark.parametrize("sections,mode", [([4, 4, 8], 2), ([6, 5, 5], 3), ([9, 7], 3)],
                         ids=str)
def test_backward_and_autograd(sections, mode):
    t, rot = 5, 2 * sum(sections)
    ang = torch.rand(20, rot // 2, dtype=torch.float64) * 6.0
    cache = torch.cat((ang.cos(), ang.sin()), dim=1).float()
    pos = torch.randint(0, 20, (len(sections), t))
    kw = dict(mrope_section=sections, cache_mode=mode)
    q = make((t, 2 * rot), torch.float32, 7).requires_grad_(True)
    qo, _ = ops.rope_with_sin_cos_cache(pos, q, None, cache, rot, True, **kw)
    back, _ = ops.rope_with_sin_cos_cache_backward(pos, qo, None, cache, rot, True, **kw)
    assert torch.allclose(back, q, atol=1e-5)
    g = make((t, 2 * rot), torch.float32, 8)
    (gq,) = torch.autograd.grad(qo, q, g)
    x0 = torch.zeros(t, 2 * rot, dtype=torch.float64, requires_grad=True)
    out, _ = refs.rope(pos, x0, cache, rot, True, sections, mode)
    (want,) = torch.autograd.grad(out, x0, g.double())
    assert torch.allclose(gq.double(), want, atol=1e-6)


@pytest.mark.parametrize("sections,mode", [([4, 4, 8], 2), ([6, 5, 5], 3), ([9, 7], 3)],
                         ids=str)
def test_opcheck(sections, mode):
    rot = 2 * sum(sections)
    q = make((5, 2 * rot), torch.float32, 9).requires_grad_(True)
    k = make((5, rot), torch.float32, 10).requires_grad_(True)
    torch.library.opcheck(ops.rope_with_sin_cos_cache.default,
                          (torch.randint(0, 8, (len(sections), 5)), q, k,
                           make((8, rot), torch.float32, 11), rot, False),
                          dict(mrope_section=sections, cache_mode=mode))


def test_module_takes_the_mode():
    hs, rot, m = 48, 48, 64
    pos = torch.randint(0, m, (3, 7))
    q, k = make((7, 2 * hs), torch.float32, 12), make((7, hs), torch.float32, 13)
    ernie = rt.MRotaryEmbedding(hs, rot, m, 500000.0, False, mrope_section=[7, 7, 10],
                                cache_mode=2)
    pangu = rt.MRotaryEmbedding(hs, rot, m, 10000.0, True,
                                rope_scaling={"rope_type": "openpangu", "mrope_section": [8, 8, 8],
                                              "mrope_interleaved": True})
    assert (ernie.cache_mode, pangu.cache_mode) == (2, 3)
    for emb, sections, mode, neox in ((ernie, [7, 7, 10], 2, False), (pangu, [8, 8, 8], 3, True)):
        qo, ko = emb(pos, q, k)
        _check(q, qo, pos, emb.cos_sin_cache, hs, neox, sections, mode)
        _check(k, ko, pos, emb.cos_sin_cache, hs, neox, sections, mode)
    with pytest.raises(ValueError, match="cache_mode = 5"):
        rt.MRotaryEmbedding(hs, rot, m, 10000.0, True, mrope_section=[8, 8, 8], cache_mode=5)


def test_rope_from_config_names_the_mode():
    ernie = rt.rope_from_config({"model_type": "ernie4_5_moe_vl", "hidden_size": 2560,
                                 "num_attention_heads": 20, "max_position_embeddings": 64,
                                 "rope_theta": 500000, "rope_3d": True,
                                 "freq_allocation": 20})
    assert (ernie.mrope_section, ernie.mrope_cache_mode, ernie.is_neox_style) == \
        ([22, 22, 20], 2, False)
    pangu = rt.rope_from_config({"model_type": "PanguEmbedded", "head_dim": 128,
                                 "max_position_embeddings": 64,
                                 "rope_scaling": {"mrope_section": [24, 20, 20],
                                                  "mrope_interleaved": True}})
    assert (pangu.mrope_section, pangu.mrope_cache_mode, pangu.is_neox_style) == \
        ([24, 20, 20], 3, True)
    qwen = rt.rope_from_config({"model_type": "qwen3_vl", "head_dim": 128,
                                "max_position_embeddings": 64,
                                "rope_scaling": {"mrope_section": [24, 20, 20],
                                                 "mrope_interleaved": True}})
    assert qwen.mrope_cache_mode == 1


@pytest.mark.parametrize("sections,mode,words", [
    ([4, 3, 5], 2, "3 sections (h, w, t) with h == w"),
    ([6, 6], 2, "3 sections (h, w, t) with h == w"),
    ([3, 3, 3, 3], 3, "needs 2 sections (h, w) or 3 (t, h, w)"),
    ([12], 3, "needs 2 sections (h, w) or 3 (t, h, w)"),
])
def test_invalid_sections_write_nothing(sections, mode, words):
    q = make((4, 24), torch.float32, 14)
    cache = make((8, 24), torch.float32, 15)
    pos = torch.randint(0, 8, (len(sections), 4))
    before = snapshot(q)
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        ops.rope_with_sin_cos_cache(pos, q, None, cache, 24, True, mrope_section=sections,
                                    cache_mode=mode)
    with pytest.raises(ValueError, match=f"cacheMode = {mode} with"):
        rt.MRotaryEmbedding(24, 24, 8, 10000.0, True, mrope_section=sections,
                            cache_mode=mode)(pos, q, None)
    assert_unchanged(before, q)


def test_npu_mrope_keeps_cann_modes():
    pos = torch.randint(0, 8, (3, 4))
    q, cache = make((4, 64), torch.float16, 16), make((8, 64), torch.float16, 17)
    for mode in ("ernie", 2, "pangu"):
        with pytest.raises(ValueError, match="must be 'default' or 'interleave'"):
            rt.npu_mrope(pos, q, q, cache, 64, mrope_section=[11, 11, 10], cache_mode=mode)
