"""docs/models.md, row by row: for every model family, the ropekit calls of its row
reproduce the model's own rope (model_cases.py: its published config and a float64
reference written in its Hugging Face idiom) on random queries and keys at short and
long positions, and rope_from_config reads the config as the row says (rotary dim,
style, attention scaling, the softmax factor, mrope sections and their layout).

The calls: the cache from ropekit.torch.rope_from_config(config), then
torch.ops.ropekit.rope_with_sin_cos_cache on HF's q, k [B, H, S, D] viewed as
[B, S, H, D] with position ids [B, S] ([3, B, S] for mrope); DeepSeek-V3's output is
reordered as HF returns it (evens | odds of each head's rotated part). Rows whose rope
that path cannot express (OWN_CALL_CASES: Llama 4's vision rope) run their own
documented call, the case's ropekit_call, on the tensors HF rotates."""
import re
import zlib
from pathlib import Path

import pytest
import torch

import ropekit
import ropekit.torch as rt
from model_cases import BY_NAME, CASES, OWN_CALL_CASES, gptj_sincos_table

DOC = Path(__file__).resolve().parents[2] / "docs" / "models.md"
B, H, S = 2, 2, 5


def doc_rows():
    """Model names of the table in docs/models.md (first column, without the checkpoint)."""
    names = []
    for line in DOC.read_text().splitlines():
        m = re.match(r"^\| ([^|]+?) \(`[^`]+`\) \|", line)
        if m:
            names.append(m.group(1).strip())
    return names


def test_every_documented_row_is_a_case_and_every_case_a_row():
    documented, cases = doc_rows(), [c.name for c in CASES + OWN_CALL_CASES]
    assert documented, "no table rows found in docs/models.md"
    assert sorted(documented) == sorted(cases), (
        f"only in docs/models.md: {sorted(set(documented) - set(cases))}; "
        f"only in model_cases.py: {sorted(set(cases) - set(documented))}")


def positions_for(case, regime, gen):
    """Position ids [B, S] (mrope: [3, B, S]) and the cache rows they need. short: below
    the original context (and 2048); long: up to twice it (LongRoPE's long factors)."""
    original = int(case.config.get("original_max_position_embeddings") or
                   (case.config.get("rope_scaling") or {}).get(
                       "original_max_position_embeddings") or 2048)
    rows = min(original, 2048) if regime == "short" else 2 * original
    shape = (3, B, S) if case.mrope_section else (B, S)
    pos = torch.randint(0, rows, shape, generator=gen)
    pos.view(-1)[0] = rows - 1  # the last row of the table is always used
    return pos, rows


def ropekit_rotate(case, found, q, k, pos):
    """The row's ropekit calls on HF-layout q, k [B, H, S, D] (float32): the documented
    call on the [B, S, H, D] views, no copy."""
    kw = {}
    if found.mrope_section:
        kw = dict(mrope_section=found.mrope_section, cache_mode=found.mrope_cache_mode)
    qo, ko = torch.ops.ropekit.rope_with_sin_cos_cache(
        pos, q.transpose(1, 2), k.transpose(1, 2), found.cache, found.head_dim,
        found.is_neox_style, **kw)
    qo, ko = qo.transpose(1, 2), ko.transpose(1, 2)
    if case.output_deinterleaved:  # HF's DeepSeek-V3 returns evens | odds
        r = found.rotary_dim
        qo, ko = (torch.cat((x[..., 0:r:2], x[..., 1:r:2], x[..., r:]), dim=-1)
                  for x in (qo, ko))
    return qo, ko


@pytest.mark.parametrize("regime", ["short", "long"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_row_reproduces_the_model(case, regime):
    gen = torch.Generator().manual_seed(zlib.crc32(f"{case.name} {regime}".encode()))
    pos, rows = positions_for(case, regime, gen)
    found = rt.rope_from_config(case.config, max_positions=rows)
    assert found.rotary_dim == case.rotary_dim
    assert found.head_dim == case.head_dim
    assert found.is_neox_style == (case.style == "neox")
    assert found.attention_scaling == pytest.approx(case.attention_scaling, rel=1e-12)
    assert found.softmax_scale_factor == pytest.approx(case.softmax_scale_factor, rel=1e-12)
    assert found.mrope_section == case.mrope_section
    assert found.mrope_interleaved == case.mrope_interleaved
    assert found.mrope_cache_mode == case.mrope_cache_mode
    assert tuple(found.cache.shape) == (rows, case.rotary_dim)

    d = case.head_dim
    q = torch.randn(B, H, S, d, generator=gen)
    k = torch.randn(B, H, S, d, generator=gen)
    want_q, want_k = case.reference(q.double(), k.double(), pos)
    got_q, got_k = ropekit_rotate(case, found, q, k, pos)
    # float32 cos/sin (one rounding each) and float32 products against float64
    for got, want in ((got_q, want_q), (got_k, want_k)):
        torch.testing.assert_close(got.double(), want, rtol=2e-6, atol=2e-6)


@pytest.mark.parametrize("case", OWN_CALL_CASES, ids=[c.name for c in OWN_CALL_CASES])
def test_row_with_its_own_call(case):
    gen = torch.Generator().manual_seed(zlib.crc32(case.name.encode()))
    assert case.layout == "[B, S, H, D]"
    shape = (B, case.tokens(case.config), H, case.head_dim)
    q, k = torch.randn(*shape, generator=gen), torch.randn(*shape, generator=gen)
    want_q, want_k = case.reference(case.config, q.double(), k.double())
    got_q, got_k = case.ropekit_call(case.config, q, k)
    for got, want in ((got_q, want_q), (got_k, want_k)):
        assert got.shape == want.shape and got.dtype == torch.float32
        torch.testing.assert_close(got.double(), want, rtol=2e-6, atol=2e-6)


def test_gptj_with_hf_sin_cos_table():
    """GPT-J's own [2048, 64] sin | cos table (embed_positions), halves swapped once by
    cache_from_sin_cos, rotates as the model does."""
    case = BY_NAME["GPT-J"]
    gen = torch.Generator().manual_seed(7)
    found = rt.rope_from_config(case.config)
    hf_table = gptj_sincos_table(case.rope_parameters()[0], 2048)  # float64, sin first
    cache = ropekit.cache_from_sin_cos(hf_table).float()
    assert torch.equal(cache[:, :32], hf_table[:, 32:].float())
    torch.testing.assert_close(cache, found.cache, rtol=0, atol=2e-7)
    pos = torch.randint(0, 2048, (B, S), generator=gen)
    q = torch.randn(B, H, S, case.head_dim, generator=gen)
    k = torch.randn(B, H, S, case.head_dim, generator=gen)
    want_q, want_k = case.reference(q.double(), k.double(), pos)
    found.cache = cache
    got_q, got_k = ropekit_rotate(case, found, q, k, pos)
    torch.testing.assert_close(got_q.double(), want_q, rtol=2e-6, atol=2e-6)
    torch.testing.assert_close(got_k.double(), want_k, rtol=2e-6, atol=2e-6)
    with pytest.raises(ValueError, match="R even"):
        ropekit.cache_from_sin_cos(hf_table[:, :63])
