"""Conformance of RopeWithSinCosCache (SPEC sections 5, 6, 8) on ropekit's native face
and aclnn face (V1 and V2), against golden_rope.py (float64) and emulate_rope.py
(bit-exact float32 model). Every case is randomized with a fixed seed; rope_cases.py
holds the case builder and the checks."""
import numpy as np
import pytest

import checks
import emulate
import emulate_rope
import golden_rope
import ropekit
import ropekit.aclnn
import rope_cases
from cases import rng_for
from emulate import BF16, F16, F32
from rope_cases import DTYPES, LAYOUTS, WHITELIST, RopeCase, run_case

STYLES = (True, False)  # NeoX, GPT-J
ALL_PAIRS = tuple((x, c) for x in DTYPES for c in DTYPES)


@pytest.fixture(params=ropekit.native.ISAS)
def isa(request):
    """Runs the test with plans capped at each instruction set the CPU has."""
    isas = ropekit.native.ISAS
    if isas.index(request.param) > isas.index(ropekit.detected_isa()):
        pytest.skip(f"CPU lacks {request.param}")
    previous = ropekit.active_isa()
    ropekit.set_max_isa(request.param)
    yield request.param
    ropekit.set_max_isa(previous)


def _style_id(neox):
    return "neox" if neox else "gptj"


# ---- the references themselves -------------------------------------------------------

SPEC_SELECTIONS = [
    # (sections, cache_mode, h): the SPEC 5.3 examples, written out
    ((16, 24, 24), 0, 64, [0] * 16 + [1] * 24 + [2] * 24),
    ((16, 16, 16, 16), 0, 64, [0] * 16 + [1] * 16 + [2] * 16 + [3] * 16),
    ((24, 20, 20), 0, 64, [0] * 24 + [1] * 20 + [2] * 20),
    ((11, 11, 10), 0, 32, [0] * 11 + [1] * 11 + [2] * 10),
    ((24, 20, 20), 1, 64, [1 if j % 3 == 1 and j <= 58 else 2 if j % 3 == 2 and j <= 59 else 0
                           for j in range(64)]),
    ((16, 24, 24), 1, 64, [(0, 1, 2)[j % 3] for j in range(64)]),
]


@pytest.mark.parametrize("sections,mode,h,expected", SPEC_SELECTIONS, ids=str)
def test_reference_selections_match_spec_examples(sections, mode, h, expected):
    assert golden_rope.section_rows(h, sections, mode) == (expected, True)
    rows, mrope = emulate_rope.source_rows(h, sections, mode)
    assert mrope and rows.tolist() == expected
    # [24,20,20] interleaved: rows 1 at 1,4,..,58, rows 2 at 2,5,..,59, row 0 at 60..63
    if sections == (24, 20, 20) and mode == 1:
        assert expected[58] == 1 and expected[59] == 2 and expected[60:] == [0] * 4


def test_reference_small_example():
    # One token, head [1, 2, 3, 4], R = 4, cos = [0.5, 0.25], sin = [0.75, 1]:
    # NeoX pairs (0,2), (1,3): [1*.5-3*.75, 2*.25-4*1, 3*.5+1*.75, 4*.25+2*1]
    # GPT-J pairs (0,1), (2,3): [1*.5-2*.75, 2*.5+1*.75, 3*.25-4*1, 4*.25+3*1]
    cache = np.array([[0.5, 0.25, 0.75, 1.0]])
    x = np.array([[1.0, 2.0, 3.0, 4.0]])
    neox, _ = golden_rope.rope([0], x, cache, 4, True)
    gptj, _ = golden_rope.rope([0], x, cache, 4, False)
    np.testing.assert_array_equal(neox, [[-1.75, -3.5, 2.25, 3.0]])
    np.testing.assert_array_equal(gptj, [[-1.0, 1.75, -3.25, 4.0]])
    for neox_style, want in ((True, neox), (False, gptj)):
        got = emulate_rope.rope([0], x.astype(np.float32), F32, cache.astype(np.float32), F32,
                                4, neox_style)
        np.testing.assert_array_equal(got, want)
        q = x.astype(np.float32)
        ropekit.rope(np.array([0]), q, None, cache.astype(np.float32), head_size=4,
                     style=_style_id(neox_style))
        np.testing.assert_array_equal(q, want)


# ---- every dtype x style x whitelisted section list x cache mode, both faces ----------

def _whitelist_cases():
    out = []
    for sec in WHITELIST:
        for mode in ((0, 1) if len(sec) == 3 else (0,)):
            out.append((sec, mode))
    return out


@pytest.mark.parametrize("sections,cache_mode", _whitelist_cases(), ids=str)
@pytest.mark.parametrize("neox", STYLES, ids=("neox", "gptj"))
@pytest.mark.parametrize("x_dt", DTYPES)
def test_mrope_whitelist_both_faces(x_dt, neox, sections, cache_mode):
    rng = rng_for("mrope-wl", x_dt, neox, sections, cache_mode)
    R = 2 * sum(sections)
    # R == headSize, and R < headSize (pass-through); GQA head counts; in and out of place
    for k, (hs, hq, hk, inplace) in enumerate(((R, 4, 2, True), (2 * R, 3, 1, False))):
        case = RopeCase(T=int(rng.integers(5, 40)), hq=hq, hk=hk, head_size=hs, R=R,
                        M=int(rng.integers(8, 300)), x_dt=x_dt, neox=neox, sections=sections,
                        cache_mode=cache_mode, inplace=inplace,
                        layout=("contiguous", "fused")[k])
        assert rope_cases.aclnn_versions(case), case  # CANN accepts all of these
        run_case(rng, case)


@pytest.mark.parametrize("neox", STYLES, ids=("neox", "gptj"))
@pytest.mark.parametrize("x_dt", DTYPES)
def test_rope_both_faces(x_dt, neox):
    rng = rng_for("rope", x_dt, neox)
    for hs, R, hq, hk, sections, cache_mode in ((64, 64, 1, 1, None, 0),
                                                (128, 64, 8, 2, None, 0),
                                                (128, 128, 2, 6, [0, 0, 0], 0),
                                                (96, 32, 3, 3, None, 1),  # V2 ignores it
                                                (256, 128, 2, 1, [0, 0, 0, 0], 0)):
        for inplace in (True, False):
            case = RopeCase(T=int(rng.integers(1, 30)), hq=hq, hk=hk, head_size=hs, R=R,
                            M=int(rng.integers(1, 100)), x_dt=x_dt, neox=neox,
                            sections=sections, cache_mode=cache_mode, inplace=inplace)
            assert rope_cases.aclnn_versions(case)
            run_case(rng, case)


# ---- native face: every (q/k, cache) dtype pair ----------------------------------------

@pytest.mark.parametrize("x_dt,cs_dt", ALL_PAIRS)
def test_native_dtype_pairs(x_dt, cs_dt):
    rng = rng_for("pairs", x_dt, cs_dt)
    for neox in STYLES:
        for sections, mode, R in ((None, 0, 40), ((3, 5, 2), 0, 20), ((4, 3, 3), 1, 20)):
            case = RopeCase(T=11, hq=3, hk=2, head_size=R + 6, R=R, M=33, x_dt=x_dt,
                            cs_dt=cs_dt, neox=neox, sections=sections, cache_mode=mode,
                            inplace=neox)
            run_case(rng, case)


# ---- native face: arbitrary sections ---------------------------------------------------

ARBITRARY = [
    ((8,), 0),                    # one section: positions [1, T]
    ((3, 5), 0),
    ((1, 1, 1, 1, 1, 1, 2), 0),   # seven sections
    ((4, 0, 4), 0),               # an empty middle section
    ((5, 3, 0), 0),
    ((2,) * 16, 0),               # ROPEKIT_ROPE_MAX_SECTIONS
    ((2, 5, 1), 1),               # interleaved, s1 larger than h / 3
    ((10, 1, 1), 1),
    ((1, 0, 9), 1),
    ((6, 6, 6), 1),
    ((7, 7, 7, 11), 0),
    ((0, 5, 5), 0),               # first section 0: plain rope
    ((0, 1), 1),                  # plain rope: cache mode ignored
]


@pytest.mark.parametrize("sections,cache_mode", ARBITRARY, ids=str)
def test_native_arbitrary_sections(sections, cache_mode):
    rng = rng_for("arbitrary", sections, cache_mode)
    R = 2 * sum(sections) if sections[0] > 0 else 24
    for k, neox in enumerate(STYLES):
        x_dt, cs_dt = ALL_PAIRS[(len(sections) * 2 + k + cache_mode) % 9]
        case = RopeCase(T=int(rng.integers(3, 25)), hq=2, hk=3, head_size=R + 2 * k + 1, R=R,
                        M=int(rng.integers(2, 60)), x_dt=x_dt, cs_dt=cs_dt, neox=neox,
                        sections=sections, cache_mode=cache_mode, inplace=bool(k),
                        layout=LAYOUTS[(len(sections) + k) % len(LAYOUTS)])
        run_case(rng, case)


def test_aclnn_rejects_what_native_accepts():
    rng = rng_for("acl-reject")
    # Non-whitelisted sections: 161002 on both versions; the native face accepts them.
    case = RopeCase(T=6, hq=2, hk=1, head_size=64, R=64, M=20, sections=(8, 8, 16))
    inputs = rope_cases.make_inputs(rng, case)
    for version in (1, 2):
        work = rope_cases.clone(inputs)
        res = rope_cases.run_aclnn(version, case, work)
        assert res.workspace == 161002, res
        assert work["q"][0].tobytes() == inputs["q"][0].tobytes()
    run_case(rng, case)
    # Four sections with cacheMode 1: V2 rejects at tiling (561002); native too (needs 3).
    case = RopeCase(T=6, hq=2, hk=1, head_size=128, R=128, M=20,
                    sections=(16, 16, 16, 16), cache_mode=1)
    inputs = rope_cases.make_inputs(rng, case)
    assert rope_cases.run_aclnn(2, case, rope_cases.clone(inputs)).workspace == 561002
    with pytest.raises(ropekit.RopekitError) as info:
        rope_cases.run_native(case, rope_cases.clone(inputs))
    assert info.value.status == 2
    # V2 cacheMode outside {0, 1}: 161002, even in rope mode.
    case = RopeCase(T=4, hq=1, hk=1, head_size=32, R=32, M=8, cache_mode=2)
    inputs = rope_cases.make_inputs(rng, case)
    assert rope_cases.run_aclnn(2, case, rope_cases.clone(inputs)).workspace == 161002
    # Different cache dtype (161002) and misaligned head size (561002): native accepts.
    for kwargs, code in ((dict(x_dt=F16, cs_dt=F32, head_size=64, R=64), 161002),
                         (dict(x_dt=BF16, head_size=48, R=48), 561002),
                         (dict(x_dt=F32, head_size=40, R=32), 561002)):
        case = RopeCase(T=5, hq=2, hk=2, M=9, **kwargs)
        inputs = rope_cases.make_inputs(rng, case)
        for version in (1, 2):
            assert rope_cases.run_aclnn(version, case, rope_cases.clone(inputs)).workspace \
                == code, (kwargs, version)
        run_case(rng, case)


# ---- rotary dims and head sizes: SIMD bodies and tails, every ISA ----------------------

ROTARY_DIMS = list(range(2, 42, 2)) + [46, 62, 64, 66, 94, 126, 128, 130, 192, 256]


@pytest.mark.parametrize("R", ROTARY_DIMS)
def test_rotary_dims(R, isa):
    rng = rng_for("rotary-dim", R)
    for k, neox in enumerate(STYLES):
        x_dt, cs_dt = ALL_PAIRS[(R // 2 + 4 * k) % 9]
        extra = (0, 1, 2, 7, 16)[(R // 2 + k) % 5]
        case = RopeCase(T=5, hq=3, hk=1, head_size=R + extra, R=R, M=9, x_dt=x_dt,
                        cs_dt=cs_dt, neox=neox, inplace=bool((R // 2) % 2))
        run_case(rng, case, faces=("native",))
        if R % 6 == 0:  # mrope with three sections (sectioned and interleaved)
            h = R // 2
            sec = (h - 2 * (h // 3), h // 3, h // 3)
            for mode in (0, 1):
                run_case(rng, RopeCase(T=4, hq=2, hk=2, head_size=R + extra, R=R, M=7,
                                       x_dt=x_dt, cs_dt=cs_dt, neox=neox, sections=sec,
                                       cache_mode=mode), faces=("native",))


def test_mrope_wide_rotary_dim():
    # h > 2048 coefficients of float32: the gathered cos/sin rows leave the stack
    # (per-task heap scratch), with several tasks on two threads.
    rng = rng_for("wide-mrope")
    try:
        ropekit.set_num_threads(2)
        for sections, mode, x_dt in (((1000, 1025, 25), 0, F32), ((700, 700, 651), 1, BF16)):
            R = 2 * sum(sections)
            run_case(rng, RopeCase(T=9, hq=2, hk=1, head_size=R + 4, R=R, M=11, x_dt=x_dt,
                                   cs_dt=F32, neox=mode == 0, sections=sections,
                                   cache_mode=mode, inplace=mode == 1),
                     faces=("native",))
    finally:
        ropekit.set_num_threads(0)


# ---- memory layouts --------------------------------------------------------------------

OUT_LAYOUTS = ("contiguous", "padded", "colstride", "fused")

@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("inplace", (True, False), ids=("inplace", "outofplace"))
def test_layouts(layout, inplace):
    rng = rng_for("layout", layout, inplace)
    for i, (x_dt, neox, sections, mode) in enumerate((
            (F32, True, None, 0), (BF16, False, None, 0), (F16, True, (16, 24, 24), 1),
            (BF16, True, (8, 12, 12), 0), (F32, False, (16, 16, 16, 16), 0),
            (F16, False, (11, 11, 10), 1))):
        R = 2 * sum(sections) if sections else 64
        case = RopeCase(T=13, hq=4, hk=2, head_size=max(R, 64) + (64 if i % 2 else 0), R=R,
                        M=31, x_dt=x_dt, neox=neox, sections=sections, cache_mode=mode,
                        layout=layout, inplace=inplace,
                        out_layout=OUT_LAYOUTS[(i + 1) % 4],
                        cache_layout=rope_cases.CACHE_LAYOUTS[(i + len(layout)) % 4],
                        strided_positions=bool(i % 2))
        run_case(rng, case)


# ---- numbers of tokens -----------------------------------------------------------------

@pytest.mark.parametrize("T", [1, 2, 3, 5, 8, 15, 16, 17, 63, 64, 65, 255, 1000, 4097])
def test_num_tokens(T):
    rng = rng_for("tokens", T)
    x_dt = DTYPES[T % 3]
    run_case(rng, RopeCase(T=T, hq=2, hk=1, head_size=64, R=64, M=T + 3, x_dt=x_dt,
                           neox=bool(T % 2)))
    run_case(rng, RopeCase(T=T, hq=1, hk=1, head_size=128, R=128, M=max(T // 2, 1),
                           x_dt=x_dt, neox=not T % 2, sections=(24, 20, 20),
                           cache_mode=T % 2, inplace=False))


def test_num_tokens_131073():
    # The largest cases, with small heads: native mrope (3 position rows, interleaved)
    # on f16 with a bf16 cache, and plain rope on f32 over a 131073-row cache through
    # the native face (out of place) and both aclnn versions.
    rng = rng_for("tokens-131073")
    T = 131073
    run_case(rng, RopeCase(T=T, hq=1, hk=1, head_size=10, R=6, M=4096, x_dt=F16,
                           cs_dt=BF16, neox=False, sections=(1, 1, 1), cache_mode=1),
             faces=("native",))
    run_case(rng, RopeCase(T=T, hq=1, hk=1, head_size=16, R=16, M=T, x_dt=F32, neox=True,
                           inplace=False))


# ---- special values -------------------------------------------------------------------

@pytest.mark.parametrize("x_dt,cs_dt", ALL_PAIRS)
def test_special_values(x_dt, cs_dt, isa):
    rng = rng_for("special", x_dt, cs_dt)
    for neox in STYLES:
        for sections, mode, R in ((None, 0, 32), ((4, 6, 6), 1, 32), ((8, 4, 4), 0, 32)):
            case = RopeCase(T=9, hq=3, hk=2, head_size=48 if x_dt == F32 else 64, R=R, M=12,
                            x_dt=x_dt, cs_dt=cs_dt, neox=neox, sections=sections,
                            cache_mode=mode, specials=0.3, cache_specials=0.2,
                            inplace=neox)
            run_case(rng, case)
    # Whole tensors of NaN, inf or -inf (as in CANN's test inputs), on the aclnn face too.
    for fill in (np.nan, np.inf, -np.inf):
        case = RopeCase(T=3, hq=1, hk=1, head_size=64, R=64, M=4, x_dt=x_dt, cs_dt=cs_dt)
        inputs = rope_cases.make_inputs(rng, case)
        inputs["q"][1][...] = emulate.narrow(np.full(inputs["q"][1].shape, fill, np.float32),
                                             x_dt)
        work = rope_cases.clone(inputs)
        rope_cases.run_native(case, work)
        rope_cases.check_side(case, inputs["positions"], inputs["q"][1], work["q"][1],
                              inputs["cache"])
        rope_cases.check_side(case, inputs["positions"], inputs["k"][1], work["k"][1],
                              inputs["cache"])
        if fill != fill:
            assert np.isnan(emulate.widen(work["q"][1], x_dt)).all()
        if x_dt == cs_dt:
            acl = rope_cases.clone(inputs)
            assert rope_cases.run_aclnn(2, case, acl).ok
            assert acl["q"][0].tobytes() == work["q"][0].tobytes()
            assert acl["k"][0].tobytes() == work["k"][0].tobytes()


# ---- thread count and instruction set independence -----------------------------------

THREAD_CASES = [
    dict(T=3001, hq=8, hk=2, head_size=128, R=128, M=4000, x_dt=F32, neox=True),
    dict(T=2049, hq=4, hk=4, head_size=128, R=64, M=512, x_dt=BF16, neox=False,
         sections=(16, 8, 8), cache_mode=1),
    dict(T=1537, hq=6, hk=1, head_size=80, R=64, M=700, x_dt=F16, cs_dt=F32, neox=True,
         sections=(8, 8, 8, 8), layout="fused"),
]


def _run_bytes(case, inputs):
    work = rope_cases.clone(inputs)
    rope_cases.run_native(case, work)
    return b"".join(b.tobytes() for b in rope_cases._bases(work))


@pytest.mark.parametrize("spec", range(len(THREAD_CASES)))
def test_thread_count_independent(spec):
    case = RopeCase(**THREAD_CASES[spec])
    rng = rng_for("threads", spec)
    inputs = rope_cases.make_inputs(rng, case)
    outs = []
    try:
        for threads in (1, 2, 0):
            ropekit.set_num_threads(threads)
            outs.append(_run_bytes(case, inputs))
    finally:
        ropekit.set_num_threads(0)
    assert outs[0] == outs[1], "1 vs 2 threads differ"
    assert outs[0] == outs[2], "1 thread vs the default differ"
    run_case(rng, case, faces=("native",))


def test_isa_caps_identical():
    rng = rng_for("isa")
    best = ropekit.native.ISAS.index(ropekit.detected_isa())
    previous = ropekit.active_isa()
    cases = []
    for i, (x_dt, cs_dt) in enumerate(ALL_PAIRS):
        for neox in STYLES:
            for sections, mode, R in ((None, 0, 64), ((6, 5, 5), 1, 32), ((9, 14, 9), 0, 64),
                                      (None, 0, 26)):
                case = RopeCase(T=37, hq=3, hk=2, head_size=R + (i % 3) * 5, R=R, M=50,
                                x_dt=x_dt, cs_dt=cs_dt, neox=neox, sections=sections,
                                cache_mode=mode, specials=0.05, cache_specials=0.02,
                                layout=("contiguous", "fused", "3d")[i % 3])
                cases.append((case, rope_cases.make_inputs(rng, case)))
    results = []
    try:
        for level in range(best + 1):
            ropekit.set_max_isa(level)
            results.append([_run_bytes(c, inp) for c, inp in cases])
    finally:
        ropekit.set_max_isa(previous)
    for level, outs in enumerate(results[1:], 1):
        for k, (a, b) in enumerate(zip(results[0], outs)):
            assert a == b, f"ISA {ropekit.native.ISAS[level]} differs from scalar: {cases[k][0]}"


# ---- no-op, query-only, key-only -------------------------------------------------------

@pytest.mark.parametrize("sections", [None, (8, 4, 4)], ids=("rope", "mrope"))
def test_zero_tokens_is_native_noop(sections):
    rng = rng_for("T0", sections)
    case = RopeCase(T=0, hq=2, hk=1, head_size=32, R=32, M=5, sections=sections)
    pos = np.zeros((3, 0) if sections else (0,), np.int64)
    q = checks.values(rng, (0, 64), F32)
    k = checks.values(rng, (0, 32), F32)
    cache = checks.values(rng, (5, 32), F32, "cs")
    qo, ko = np.empty_like(q), np.empty_like(k)
    ropekit.rope(pos, q, k, cache, head_size=32, sections=sections)
    ropekit.rope(pos, q, k, cache, head_size=32, sections=sections, query_out=qo, key_out=ko)
    ropekit.rope(pos, None, k.reshape(0, 1, 32), cache, head_size=32, sections=sections)
    # Validation still runs before the no-op exit.
    with pytest.raises(ropekit.RopekitError) as info:
        ropekit.rope(pos, q, k, cache, head_size=16, sections=sections)
    assert info.value.status == 2
    # The aclnn face rejects empty inputs (SPEC 5.5 row 5).
    for version in (1, 2):
        assert rope_cases.run_aclnn(version, case, {"positions": pos, "q": (q, q),
                                                    "k": (k, k), "cache": cache}) \
            .workspace == 161002


@pytest.mark.parametrize("x_dt", DTYPES)
def test_query_only_and_key_only(x_dt):
    rng = rng_for("one-side", x_dt)
    for neox in STYLES:
        for sections, mode in ((None, 0), ((8, 12, 12), 1), ((16, 8, 8), 0)):
            full = RopeCase(T=10, hq=3, hk=2, head_size=96, R=64, M=20, x_dt=x_dt, neox=neox,
                            sections=sections, cache_mode=mode)
            inputs = rope_cases.make_inputs(rng, full)
            both = rope_cases.clone(inputs)
            rope_cases.run_native(full, both)
            for drop in ("q", "k"):
                one = rope_cases.clone(inputs)
                one[drop] = None
                rope_cases.run_native(full, one)
                keep = "k" if drop == "q" else "q"
                assert one[keep][0].tobytes() == both[keep][0].tobytes()
                # out of place, the other side absent
                out = np.empty_like(np.ascontiguousarray(inputs[keep][1]))
                solo = rope_cases.clone(inputs)
                kwargs = {"query_out": out} if keep == "q" else {"key_out": out}
                ropekit.rope(solo["positions"], solo["q"][1] if keep == "q" else None,
                             solo["k"][1] if keep == "k" else None, solo["cache"],
                             head_size=96, style=_style_id(neox), sections=sections,
                             cache_mode=mode, x_dtype=x_dt, **kwargs)
                assert out.tobytes() == np.ascontiguousarray(both[keep][1]).tobytes()
                assert solo[keep][0].tobytes() == inputs[keep][0].tobytes()


def test_in_place_equals_out_of_place():
    rng = rng_for("inplace-vs-out")
    for x_dt in DTYPES:
        case = RopeCase(T=21, hq=5, hk=3, head_size=64, R=48, M=40, x_dt=x_dt,
                        sections=(8, 8, 8), cache_mode=1, layout="fused")
        inputs = rope_cases.make_inputs(rng, case)
        a = rope_cases.clone(inputs)
        rope_cases.run_native(case, a)
        b = rope_cases.clone(inputs)
        outs = rope_cases.fresh_outputs(rng, case, inputs)
        rope_cases.run_native(case, b, outs)
        for side in ("q", "k"):
            assert np.ascontiguousarray(a[side][1]).tobytes() == outs[side].tobytes()


# ---- out-of-range positions -------------------------------------------------------------

BAD_POSITIONS = [-1, "M", "M+100", 2 ** 62, -2 ** 63]


@pytest.mark.parametrize("bad", BAD_POSITIONS, ids=str)
@pytest.mark.parametrize("sections,mode", [(None, 0), ((16, 24, 24), 1),
                                           ((16, 16, 16, 16), 0)], ids=str)
def test_out_of_range_positions(bad, sections, mode):
    rng = rng_for("oob", bad, sections, mode)
    R = 2 * sum(sections) if sections else 64
    M = 17
    value = {"M": M, "M+100": M + 100}.get(bad, bad)
    for x_dt in (F32, BF16):
        case = RopeCase(T=6, hq=2, hk=1, head_size=R, R=R, M=M, x_dt=x_dt, sections=sections,
                        cache_mode=mode)
        inputs = rope_cases.make_inputs(rng, case)
        pos = inputs["positions"].copy()
        # the bad value sits in the last row, last token: every other value is valid
        pos[(-1,) * pos.ndim] = value
        inputs["positions"] = pos
        for inplace in (True, False):
            work = rope_cases.clone(inputs)
            outs = None if inplace else rope_cases.fresh_outputs(rng, case, inputs)
            before_outs = None if inplace else {s: v.copy() for s, v in outs.items()}
            with pytest.raises(ropekit.RopekitError) as info:
                rope_cases.run_native(case, work, outs)
            assert info.value.status == rope_cases.OUT_OF_RANGE
            # the message names the first bad (row, token, value)
            where = f"positions[{case.rows - 1}][{case.T - 1}] = {value}"
            assert where in ropekit.last_error(), ropekit.last_error()
            assert work["q"][0].tobytes() == inputs["q"][0].tobytes()
            assert work["k"][0].tobytes() == inputs["k"][0].tobytes()
            if outs is not None:
                for s in ("q", "k"):
                    assert outs[s].tobytes() == before_outs[s].tobytes()
            for version in rope_cases.aclnn_versions(case):
                work = rope_cases.clone(inputs)
                outs = None if inplace else rope_cases.fresh_outputs(rng, case, inputs)
                before_outs = None if inplace else {s: v.copy() for s, v in outs.items()}
                res = rope_cases.run_aclnn(version, case, work, outs)
                assert (res.workspace, res.launch, res.sync) == \
                    (0, 0, rope_cases.ACL_RT_AICORE_EXCEPTION), res
                assert where in res.message, res
                assert work["q"][0].tobytes() == inputs["q"][0].tobytes()
                assert work["k"][0].tobytes() == inputs["k"][0].tobytes()
                if outs is not None:
                    for s in ("q", "k"):
                        assert outs[s].tobytes() == before_outs[s].tobytes()


def test_every_position_row_is_checked():
    # Row 1 feeds no coefficient (its section is empty) but its values are still checked.
    rng = rng_for("oob-unused-row")
    case = RopeCase(T=5, hq=1, hk=1, head_size=16, R=16, M=9, sections=(4, 0, 4))
    inputs = rope_cases.make_inputs(rng, case)
    ok = rope_cases.clone(inputs)
    pos = inputs["positions"].copy()
    pos[1] = rng.integers(0, case.M, case.T)
    ok["positions"] = pos
    a = rope_cases.run_native(case, ok)[0].copy()
    pos2 = pos.copy()
    pos2[1] = (pos2[1] + 3) % case.M  # row 1 does not change the result
    again = rope_cases.clone(inputs)
    again["positions"] = pos2
    assert rope_cases.run_native(case, again)[0].tobytes() == a.tobytes()
    pos2[1, 2] = case.M
    bad = rope_cases.clone(inputs)
    bad["positions"] = pos2
    with pytest.raises(ropekit.RopekitError) as info:
        rope_cases.run_native(case, bad)
    assert info.value.status == rope_cases.OUT_OF_RANGE
    assert bad["q"][0].tobytes() == inputs["q"][0].tobytes()


# ---- plans ------------------------------------------------------------------------------

def test_plan_reuse_matches_one_shot():
    rng = rng_for("plan")
    case = RopeCase(T=33, hq=4, hk=2, head_size=128, R=96, M=64, x_dt=BF16, cs_dt=F32,
                    sections=(16, 16, 16), cache_mode=1, layout="fused")
    first = rope_cases.make_inputs(rng, case)
    plan_in = rope_cases.clone(first)
    with ropekit.RopePlan(plan_in["positions"], plan_in["q"][1], plan_in["k"][1],
                          plan_in["cache"], head_size=128, sections=(16, 16, 16),
                          cache_mode=1, x_dtype=BF16, cache_dtype=F32) as plan:
        assert "mrope" in plan.describe()
        for k in range(3):
            data = first if k == 0 else rope_cases.make_inputs(rng, case)
            a, b = rope_cases.clone(data), rope_cases.clone(data)
            plan.execute(a["positions"], a["q"][1], a["k"][1], a["cache"])
            rope_cases.run_native(case, b)
            assert a["q"][0].tobytes() == b["q"][0].tobytes()
        bad = rope_cases.clone(first)
        pos = bad["positions"].copy()
        pos[1, 3] = case.M
        with pytest.raises(ropekit.RopekitError) as info:
            plan.execute(pos, bad["q"][1], bad["k"][1], bad["cache"])
        assert info.value.status == rope_cases.OUT_OF_RANGE
        assert bad["q"][0].tobytes() == first["q"][0].tobytes()
        with pytest.raises(ValueError):  # a different layout than planned
            plan.execute(bad["positions"], np.ascontiguousarray(bad["q"][1]), bad["k"][1],
                         bad["cache"])


# ---- the binding's argument handling and native validation -------------------------

def test_binding_argument_handling():
    rng = rng_for("binding")
    pos = np.arange(4, dtype=np.int64)
    cache = checks.values(rng, (8, 16), F32, "cs")
    q = checks.values(rng, (4, 32), F32)
    k = checks.values(rng, (4, 16), F32)
    # positions of another integer type are converted; float positions are refused
    a, b = q.copy(), q.copy()
    ropekit.rope(pos.astype(np.int32), a, None, cache, head_size=16)
    ropekit.rope(pos, b, None, cache, head_size=16)
    assert a.tobytes() == b.tobytes()
    with pytest.raises(TypeError):
        ropekit.rope(pos.astype(np.float32), q.copy(), None, cache, head_size=16)
    with pytest.raises(ValueError):
        ropekit.rope(pos, None, None, cache, head_size=16)
    with pytest.raises(ValueError):
        ropekit.rope(pos, None, k, cache, head_size=16, query_out=q.copy())
    with pytest.raises(ValueError):  # default in place needs a writable array
        ropekit.rope(pos, np.broadcast_to(q, q.shape), None, cache, head_size=16)
    with pytest.raises(TypeError):  # uint16 needs x_dtype="bf16"
        ropekit.rope(pos, q.view(np.uint16), None, cache, head_size=16)
    with pytest.raises(TypeError):
        ropekit.rope(pos, q.copy(), k.astype(np.float16), cache, head_size=16)
    with pytest.raises(ValueError):
        ropekit.rope(pos, q.copy(), None, cache, head_size=16, style="rotate")
    # style ids and aliases
    a, b = q.copy(), q.copy()
    ropekit.rope(pos, a, None, cache, head_size=16, style="gpt-j")
    ropekit.rope(pos, b, None, cache, head_size=16, style=1)
    assert a.tobytes() == b.tobytes()
    # bf16 query with a bf16 cache: the uint16 cache takes the query's type
    qb = emulate.narrow(q, BF16)
    cb = emulate.narrow(cache, BF16)
    a, b = qb.copy(), qb.copy()
    ropekit.rope(pos, a, None, cb, head_size=16, x_dtype="bf16")
    ropekit.rope(pos, b, None, cb, head_size=16, x_dtype="bf16", cache_dtype="bf16")
    assert a.tobytes() == b.tobytes()


NATIVE_ERRORS = [
    # (description, case fields, override) rejected with ROPEKIT_INVALID_ARGUMENT
    ("rotary dim above head size", dict(head_size=16, R=32), None),
    ("odd rotary dim", dict(head_size=16, R=15), None),
    ("hidden not a multiple of head size", dict(head_size=24, R=16), "q_width"),
    ("sections do not sum to R/2", dict(R=32, head_size=32, sections=(4, 4, 4)), None),
    ("cache mode 1 with 2 sections", dict(R=32, head_size=32, sections=(8, 8),
                                          cache_mode=1), None),
    ("cache mode 4", dict(R=32, head_size=32, sections=(8, 4, 4), cache_mode=4), None),
    ("negative section", dict(R=32, head_size=32, sections=(10, 8, -2)), None),
    ("rope positions [1, T]", dict(R=32, head_size=32), "pos_2d"),
    ("mrope positions [T]", dict(R=32, head_size=32, sections=(8, 4, 4)), "pos_1d"),
    ("key tokens differ", dict(R=32, head_size=32), "k_tokens"),
    ("output partially overlaps input", dict(R=32, head_size=32), "overlap"),
]


@pytest.mark.parametrize("what,fields,override", NATIVE_ERRORS, ids=[e[0] for e in
                                                                      NATIVE_ERRORS])
def test_native_validation_errors(what, fields, override):
    rng = rng_for("native-err", what)
    T = 6
    case = RopeCase(T=T, hq=2, hk=1, M=10, **fields)
    R, hs = case.R, case.head_size
    rows = len(case.sections) if case.mrope else 1
    pos = rng.integers(0, 10, (rows, T)) if case.mrope else rng.integers(0, 10, T)
    if override == "pos_2d":
        pos = pos.reshape(1, T)
    if override == "pos_1d":
        pos = pos[0]
    q = checks.values(rng, (T, 2 * hs + (8 if override == "q_width" else 0)), F32)
    k = checks.values(rng, (T + (1 if override == "k_tokens" else 0), hs), F32)
    cache = checks.values(rng, (10, R), F32, "cs")
    before = (q.copy(), k.copy())
    qo = None
    if override == "overlap":
        buf = checks.values(rng, (T, 3 * hs), F32)
        q, qo = buf[:, :2 * hs], buf[:, hs:]
        before = (buf.copy(), k.copy())
    with pytest.raises(ropekit.RopekitError) as info:
        ropekit.rope(pos, q, k, cache, head_size=hs, sections=case.sections,
                     cache_mode=case.cache_mode, query_out=qo)
    assert info.value.status == 2, info.value
    assert ropekit.last_error()
    after = (buf if override == "overlap" else q, k)
    for x, y in zip(before, after):
        assert x.tobytes() == y.tobytes()


def test_native_cross_aliasing_rejected():
    # An output may only be exactly its own input: an output that is the other side's
    # input or output is refused, and nothing is written.
    rng = rng_for("cross-alias")
    pos = np.arange(4, dtype=np.int64)
    cache = checks.values(rng, (8, 16), F32, "cs")
    a, b, c = (checks.values(rng, (4, 16), F32) for _ in range(3))
    saved = [x.copy() for x in (a, b, c)]
    for kwargs in (dict(query_out=b, key_out=c), dict(query_out=c, key_out=c),
                   dict(query_out=c, key_out=a), dict(query_out=b, key_out=a)):
        with pytest.raises(ropekit.RopekitError) as info:
            ropekit.rope(pos, a, b, cache, head_size=16, **kwargs)
        assert info.value.status == 2
        assert "overlaps" in ropekit.last_error()
        for x, y in zip((a, b, c), saved):
            assert x.tobytes() == y.tobytes()
    # two inputs may share memory (only outputs are constrained)
    qo, ko = np.empty_like(a), np.empty_like(a)
    ropekit.rope(pos, a, a, cache, head_size=16, query_out=qo, key_out=ko)
    assert qo.tobytes() == ko.tobytes()


# ---- float64 (native face only) -------------------------------------------------------

def _same_f64(got, ref):
    """Bit for bit, except that a NaN need only be a NaN."""
    return (got.view(np.uint64) == ref.view(np.uint64)) | (np.isnan(got) & np.isnan(ref))


@pytest.mark.parametrize("sections,cache_mode", [(None, 0), ((4, 6, 6), 0), ((4, 6, 6), 1)],
                         ids=("rope", "mrope", "mrope-interleaved"))
@pytest.mark.parametrize("neox", STYLES, ids=("neox", "gptj"))
def test_native_float64_is_golden(neox, sections, cache_mode):
    """float64 query/key and cache are computed in double, one rounding per product and
    per sum, as golden_rope.py computes: the results are its bit for bit. query [T, 3, 40]
    and key [T, 40] are views of one fused buffer (rotary_dim 32 < head_size); in place
    and out of place."""
    rng = rng_for("f64", neox, sections, cache_mode)
    T, hs, R, M = 9, 40, 32, 60
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 5e-324, 1e300])
    qkv = rng.standard_normal((T, 5 * hs)) * 2.0
    qkv = np.where(rng.random(qkv.shape) < 0.02, specials[rng.integers(0, 6, qkv.shape)], qkv)
    cache = rng.uniform(-1.0, 1.0, (M, R))
    rows = 1 if sections is None else len(sections)
    positions = rng.integers(0, M, (rows, T)) if sections else rng.integers(0, M, T)
    before = qkv.copy()
    for inplace in (True, False):
        work = before.copy()
        q, k = work[:, :3 * hs].reshape(T, 3, hs), work[:, 3 * hs:4 * hs]
        outs = (None, None) if inplace else (np.full_like(q, -7.0), np.full_like(k, -7.0))
        qo, ko = ropekit.rope(positions, q, k, cache, head_size=hs,
                              style="neox" if neox else "gptj", sections=sections,
                              cache_mode=cache_mode, query_out=outs[0], key_out=outs[1])
        for got, x in ((qo, before[:, :3 * hs]), (ko, before[:, 3 * hs:4 * hs])):
            ref, _ = golden_rope.rope(positions, x, cache, hs, neox, sections, cache_mode)
            got = np.ascontiguousarray(got).reshape(ref.shape)
            bad = ~_same_f64(got, ref)
            assert not bad.any(), f"{int(bad.sum())} float64 results differ from golden"
        # the v part of the buffer, and every input out of place, stay as they were
        untouched = work[:, 4 * hs:] if inplace else work
        original = before[:, 4 * hs:] if inplace else before
        assert np.array_equal(untouched.view(np.uint64), original.view(np.uint64))


def test_float64_pairs_only_with_float64_and_not_on_aclnn():
    rng = rng_for("f64-reject")
    positions = np.arange(4)
    q64 = rng.standard_normal((4, 32))
    cache64 = rng.uniform(-1.0, 1.0, (8, 32))
    for q, cache in ((q64, cache64.astype(np.float32)), (q64.astype(np.float32), cache64)):
        with pytest.raises(ropekit.RopekitError, match="float64 goes with float64 only"):
            ropekit.rope(positions, q.copy(), None, cache, head_size=32)
    # CANN has no float64: both aclnn versions refuse it as a dtype error, nothing written
    before = q64.copy()
    for version in (1, 2):
        args = (positions, q64, q64.copy(), cache64, None, 32, True)
        res = (ropekit.aclnn.rope_with_sin_cos_cache(*args) if version == 1 else
               ropekit.aclnn.rope_with_sin_cos_cache_v2(*args[:7], 0))
        assert res.workspace == 161002, res
        assert "queryIn dtype = 11: must be float32, float16 or bfloat16" in res.message, res
        assert np.array_equal(q64.view(np.uint64), before.view(np.uint64))
