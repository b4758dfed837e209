"""Conformance of the native face's own mrope layouts, cache modes 2 (ERNIE-4.5-VL,
sections (h, w, t): [h w h w ... t t t]) and 3 (openPangu-VL's greedy interleaving of
2 or 3 sections), against golden_rope.py (float64) and emulate_rope.py (bit-exact
float32 model): selections written out, every dtype pair and style, odd sections, [T]
and [B, S] tokens, and the section rules (nothing written). The aclnn face keeps
CANN's cacheMode 0 and 1."""
import numpy as np
import pytest

import checks
import emulate
import emulate_rope
import golden_rope
import ropekit
import rope_cases
from cases import rng_for
from emulate import BF16, F16, F32
from rope_cases import DTYPES, LAYOUTS, RopeCase, run_case

ERNIE, PANGU = 2, 3
ALL_PAIRS = tuple((x, c) for x in DTYPES for c in DTYPES)

SELECTIONS = [
    # (sections, cache_mode, expected rows), written out from the models' definitions
    ((22, 22, 20), ERNIE, [1, 2] * 22 + [0] * 20),     # ERNIE-4.5-VL's published sizes
    ((3, 3, 1), ERNIE, [1, 2, 1, 2, 1, 2, 0]),
    ((1, 1, 0), ERNIE, [1, 2]),
    # t - 1 = 0 slots of row 0, then rows 1, 2 alternate, closing with the forced t
    ((1, 1, 1), PANGU, [1, 2, 0]),
    ((3, 2, 2), PANGU, [0, 1, 2, 0, 1, 2, 0]),
    # ratios 1/3, 0, 0 after the first t: rows 1 and 2 while t waits, then 1/3 < 1/2
    ((4, 1, 2), PANGU, [0, 1, 2, 0, 2, 0, 0]),
    ((2, 5), PANGU, [0, 1, 0, 1, 1, 1, 1]),            # two sections: rows 0 and 1
    ((5, 0), PANGU, [0] * 5),
    # openPangu-VL's [24, 20, 20]: 23 t slots among 40 h/w ones
    ((24, 20, 20), PANGU, [int(c) for c in
                           "0120120120120120120120102012012012012012012010201201201201201200"]),
]


@pytest.mark.parametrize("sections,mode,expected", SELECTIONS, ids=str)
def test_reference_selections(sections, mode, expected):
    h = sum(sections)
    assert golden_rope.section_rows(h, sections, mode) == (expected, True)
    rows, mrope = emulate_rope.source_rows(h, sections, mode)
    assert mrope and rows.tolist() == expected


def test_references_agree_on_every_small_pangu_config():
    for a in range(1, 9):
        for b in range(0, 9):
            for c in (None,) + tuple(range(0, 9)):
                sec = (a, b) if c is None else (a, b, c)
                rows, _ = emulate_rope.source_rows(sum(sec), sec, PANGU)
                assert golden_rope.pangu_rows(sec) == rows.tolist(), sec


CASES = [
    # (sections, cache_mode)
    ((22, 22, 20), ERNIE),
    ((3, 3, 1), ERNIE),
    ((5, 5, 7), ERNIE),
    ((1, 1, 0), ERNIE),                # no temporal coefficients
    ((11, 11, 10), ERNIE),
    ((24, 20, 20), PANGU),
    ((16, 24, 24), PANGU),
    ((1, 5, 4), PANGU),                # a single t: only the forced last one
    ((7, 2, 3), PANGU),
    ((1, 1, 1), PANGU),
    ((3, 3), PANGU),                   # two sections (h, w)
    ((2, 7), PANGU),
    ((9, 0), PANGU),
]


@pytest.mark.parametrize("sections,cache_mode", CASES, ids=str)
def test_layouts_every_style_and_dtype(sections, cache_mode):
    rng = rng_for("mrope-layouts", sections, cache_mode)
    R = 2 * sum(sections)
    for k in range(4):
        neox = k % 2 == 0
        x_dt, cs_dt = ALL_PAIRS[(3 * k + len(sections) + cache_mode) % len(ALL_PAIRS)]
        case = RopeCase(T=int(rng.integers(3, 20)), hq=3, hk=2, head_size=R + (0, 1, 6, 3)[k],
                        R=R, M=int(rng.integers(2, 40)), x_dt=x_dt, cs_dt=cs_dt, neox=neox,
                        sections=sections, cache_mode=cache_mode, inplace=k < 2,
                        layout=LAYOUTS[(k + len(sections)) % len(LAYOUTS)])
        run_case(rng, case, faces=("native",))


def test_special_values():
    rng = rng_for("mrope-layouts-specials")
    for sections, mode in (((6, 6, 4), ERNIE), ((6, 5, 5), PANGU), ((9, 7), PANGU)):
        for neox in (True, False):
            run_case(rng, RopeCase(T=9, hq=2, hk=1, head_size=2 * sum(sections) + 2,
                                   R=2 * sum(sections), M=12, x_dt=BF16, cs_dt=F16, neox=neox,
                                   sections=sections, cache_mode=mode, specials=0.2,
                                   cache_specials=0.1), faces=("native",))


B, S, HS = 3, 5, 40


@pytest.mark.parametrize("sections,cache_mode", [((6, 6, 6), ERNIE), ((7, 6, 5), PANGU),
                                                 ((10, 8), PANGU)], ids=str)
@pytest.mark.parametrize("x_dt", [F32, BF16])
def test_batched_positions(sections, cache_mode, x_dt):
    """[m, B, S] positions with [B, S, H, D] views (Hugging Face's [B, H, S, D] memory
    among them) against the float32 model on the tokens flattened."""
    rng = rng_for("mrope-layouts-batched", sections, cache_mode, x_dt)
    m, R = len(sections), 2 * sum(sections)
    cache = checks.values(rng, (30, R), F32, "cs")
    pos = rng.integers(0, 30, (m, B, S))
    for neox in (True, False):
        q = checks.values(rng, (B, 4, S, HS), F32).transpose(0, 2, 1, 3)   # [B, S, H, D]
        k = checks.values(rng, (B, S, 2 * HS), F32)
        if x_dt == BF16:
            q, k = emulate.narrow(q, BF16), emulate.narrow(k, BF16)
        flat_pos = pos.reshape(m, B * S)
        want_q = emulate_rope.rope(flat_pos, np.array(q).reshape(B * S, -1), x_dt, cache, F32,
                                   HS, neox, sections, cache_mode)
        want_k = emulate_rope.rope(flat_pos, k.reshape(B * S, -1), x_dt, cache, F32, HS, neox,
                                   sections, cache_mode)
        qo = np.zeros(q.shape, q.dtype)
        got_q, got_k = ropekit.rope(pos, q, k.copy(), cache, head_size=HS,
                                    style="neox" if neox else "gptj", sections=sections,
                                    cache_mode=cache_mode, query_out=qo, x_dtype=x_dt,
                                    cache_dtype=F32)
        assert np.ascontiguousarray(got_q).reshape(B * S, -1).tobytes() == want_q.tobytes()
        assert np.ascontiguousarray(got_k).reshape(B * S, -1).tobytes() == want_k.tobytes()


def test_thread_count_independent():
    rng = rng_for("mrope-layouts-threads")
    T, R = 900, 44
    q = checks.values(rng, (T, 6 * 48), F32)
    cache = checks.values(rng, (50, R), F32, "cs")
    try:
        for sections, mode in (((8, 8, 6), ERNIE), ((8, 7, 7), PANGU), ((12, 10), PANGU)):
            pos = rng.integers(0, 50, (len(sections), T))
            outs = []
            for threads in (1, 2, 0):
                ropekit.set_num_threads(threads)
                out = np.zeros_like(q)
                ropekit.rope(pos, q, None, cache, head_size=48, sections=sections,
                             cache_mode=mode, query_out=out)
                outs.append(out.tobytes())
            assert outs[0] == outs[1] == outs[2], (sections, mode)
    finally:
        ropekit.set_num_threads(0)


INVALID = [
    # (sections, cache_mode, words of the message)
    ((4, 3, 5), ERNIE, "ERNIE-4.5-VL mrope needs 3 sections (h, w, t) with h == w"),
    ((6, 6), ERNIE, "ERNIE-4.5-VL"),
    ((3, 3, 3, 3), ERNIE, "ERNIE-4.5-VL"),
    ((12,), PANGU, "openPangu-VL interleaved mrope needs 2 sections (h, w) or 3 (t, h, w)"),
    ((3, 3, 3, 3), PANGU, "openPangu-VL"),
    ((4, 4, 4), 4, "must be 0 (sectioned), 1 (Qwen3-VL), 2 (ERNIE-4.5-VL) or 3 (openPangu-VL)"),
    ((4, 4, 4), -1, "cacheMode = -1"),
    ((4, 4, 3), ERNIE, "2 * sum (sum = 11) must equal rotaryDim 24"),
]


@pytest.mark.parametrize("sections,cache_mode,words", INVALID, ids=str)
def test_invalid_sections_write_nothing(sections, cache_mode, words):
    rng = rng_for("mrope-layouts-invalid", sections, cache_mode)
    T, R = 5, 24
    pos = rng.integers(0, 10, (len(sections), T))
    q = checks.values(rng, (T, 2 * R), F32)
    k = checks.values(rng, (T, R), F32)
    cache = checks.values(rng, (10, R), F32, "cs")
    before = (q.tobytes(), k.tobytes())
    for plan in (False, True):
        with pytest.raises(ropekit.RopekitError) as info:
            kw = dict(head_size=R, sections=sections, cache_mode=cache_mode)
            if plan:
                ropekit.RopePlan(pos, q, k, cache, **kw)
            else:
                ropekit.rope(pos, q, k, cache, **kw)
        assert info.value.status == 2, info.value
        assert words in ropekit.last_error(), ropekit.last_error()
        assert (q.tobytes(), k.tobytes()) == before


@pytest.mark.parametrize("cache_mode", [ERNIE, PANGU])
def test_aclnn_v2_keeps_cann_cache_modes(cache_mode):
    """V2 refuses cacheMode 2 and 3 (161002, before anything else) on sections the
    native face takes."""
    rng = rng_for("mrope-layouts-aclnn", cache_mode)
    case = RopeCase(T=4, hq=1, hk=1, head_size=64, R=64, M=8, sections=(11, 11, 10),
                    cache_mode=cache_mode)
    inputs = rope_cases.make_inputs(rng, case)
    work = rope_cases.clone(inputs)
    res = rope_cases.run_aclnn(2, case, work)
    assert res.workspace == 161002, res
    assert f"cacheMode = {cache_mode}: must be 0 (sectioned) or 1 (Qwen3-VL)" in res.message, res
    assert work["q"][0].tobytes() == inputs["q"][0].tobytes()
    run_case(rng, case, faces=("native",))
