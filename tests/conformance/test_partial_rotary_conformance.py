"""Conformance of the partial-rotary operator (SPEC sections 3, 6, 8) on ropekit's
native face and aclnn face, against golden.py (float64) and emulate.py (bit-exact
float32 model). Every case is randomized with a fixed seed."""
import numpy as np
import pytest

import checks
import emulate
import golden
import ropekit
import ropekit.aclnn as aclnn
from cases import aclnn_case, rng_for
from checks import ACLNN_FWD_PAIRS, ALL_PAIRS, MODES, BF16, F16, F32

DIRECTIONS = (False, True)


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


def _l_for(mode, length):
    """Largest usable rotated length <= length for the mode (multiple of 2, or 4)."""
    m = 4 if mode == 2 else 2
    return length - length % m


# ---- every mode x direction x dtype pair (native face) ------------------------------

@pytest.mark.parametrize("x_dt,cs_dt", ALL_PAIRS)
@pytest.mark.parametrize("backward", DIRECTIONS)
@pytest.mark.parametrize("mode", MODES)
def test_native_mode_direction_dtype(mode, backward, x_dt, cs_dt):
    rng = rng_for("pairs", mode, backward, x_dt, cs_dt)
    k = MODES.index(mode) * 9 + checks.ALL_PAIRS.index((x_dt, cs_dt))
    # Full slice, contiguous x, cos/sin broadcast over batch and heads.
    checks.native_case(rng, x_dt, cs_dt, mode, backward, (2, 5, 3, 24), (1, 5, 1, 24), 0, 24)
    # Partial slice with an odd start inside a non-contiguous x, cos/sin in another layout.
    checks.native_case(rng, x_dt, cs_dt, mode, backward, (3, 4, 2, 37), (3, 4, 2, 16), 7, 23,
                       x_layout=checks.X_LAYOUTS[k % len(checks.X_LAYOUTS)],
                       cs_layout=checks.CS_LAYOUTS[k % len(checks.CS_LAYOUTS)])


# ---- aclnn face: allowed dtype combinations, mode 1 ---------------------------------

def _aclnn_shapes(op, x_dt, cs_dt):
    rng = rng_for("aclnn", op, x_dt, cs_dt)
    aclnn_case(rng, op, x_dt, cs_dt, (2, 4, 3, 64), (2, 4, 3, 64), 0, 64)
    aclnn_case(rng, op, x_dt, cs_dt, (1, 5, 2, 40), (1, 5, 1, 16), 8, 24)
    aclnn_case(rng, op, x_dt, cs_dt, (2, 3, 2, 34), (2, 1, 1, 18), 7, 25)
    aclnn_case(rng, op, x_dt, cs_dt, (2, 3, 4, 32), (1, 3, 4, 32), 0, 32,
               x_layout="padded", cs_layout="strided")
    aclnn_case(rng, op, x_dt, cs_dt, (3, 2, 4, 16), (3, 2, 4, 12), 2, 14,
               x_layout="reversed", cs_layout="expanded")
    aclnn_case(rng, op, x_dt, cs_dt, (3, 2, 4, 16), (3, 2, 4, 16), 0, 16,
               x_layout="transposed", cs_layout="reversed")


@pytest.mark.parametrize("x_dt,cs_dt", ACLNN_FWD_PAIRS)
def test_aclnn_forward_dtype_pairs(x_dt, cs_dt):
    _aclnn_shapes("forward", x_dt, cs_dt)


@pytest.mark.parametrize("x_dt,cs_dt", ALL_PAIRS)
def test_aclnn_grad_dtype_pairs(x_dt, cs_dt):
    _aclnn_shapes("grad", x_dt, cs_dt)


@pytest.mark.parametrize("x_dt,cs_dt", [p for p in ALL_PAIRS if p not in ACLNN_FWD_PAIRS])
def test_aclnn_forward_rejects_other_pairs(x_dt, cs_dt):
    rng = rng_for("reject", x_dt, cs_dt)
    x = checks.values(rng, (1, 2, 2, 8), x_dt)
    cos, sin = checks.cs_arrays(rng, (1, 2, 2, 8), cs_dt)
    before = x.copy()
    res = aclnn.inplace_partial_rotary_mul(x, cos, sin, 1, [0, 8], x_dtype=x_dt,
                                           cs_dtype=cs_dt)
    assert res.workspace == 161002, res
    assert np.array_equal(emulate.bits(x, x_dt), emulate.bits(before, x_dt))


# ---- broadcast patterns of 4-D cos/sin, and lower-rank cos/sin ----------------------

PATTERNS = [(b, s, n) for b in (True, False) for s in (True, False) for n in (True, False)]


@pytest.mark.parametrize("pattern", PATTERNS, ids=lambda p: "".join("BSN"[i] if k else "1"
                                                                      for i, k in enumerate(p)))
def test_broadcast_patterns(pattern):
    x_shape = (3, 4, 5, 20)
    cs_shape = tuple(d if keep else 1 for d, keep in zip(x_shape[:3], pattern)) + (16,)
    rng = rng_for("bcast", pattern)
    for i, (mode, backward) in enumerate((m, b) for m in MODES for b in DIRECTIONS):
        x_dt, cs_dt = ALL_PAIRS[(i * 4 + sum(pattern)) % 9]
        checks.native_case(rng, x_dt, cs_dt, mode, backward, x_shape, cs_shape, 2, 18,
                           cs_layout="expanded" if i % 3 == 0 else "contiguous")
    for op in ("forward", "grad"):
        for x_dt, cs_dt in ((F32, F32), (BF16, F32), (F16, F16)):
            aclnn_case(rng, op, x_dt, cs_dt, x_shape, cs_shape, 2, 18)


LOWER_RANK = [
    ((3, 4, 5, 16), (16,)),
    ((3, 4, 5, 16), (5, 16)),
    ((3, 4, 5, 16), (4, 1, 16)),
    ((3, 4, 5, 16), (1, 5, 16)),
    ((16,), (16,)),
    ((6, 16), (6, 16)),
    ((6, 16), (1, 16)),
    ((2, 1, 3, 2, 12), (3, 1, 12)),
    ((1, 2, 1, 2, 1, 2, 1, 8), (2, 1, 8)),
]


@pytest.mark.parametrize("x_shape,cs_shape", LOWER_RANK, ids=str)
def test_lower_rank_cos_sin(x_shape, cs_shape):
    rng = rng_for("rank", x_shape, cs_shape)
    L = cs_shape[-1]
    for mode in MODES:
        for backward in DIRECTIONS:
            x_dt, cs_dt = ALL_PAIRS[(mode * 2 + backward + len(cs_shape)) % 9]
            checks.native_case(rng, x_dt, cs_dt, mode, backward, x_shape, cs_shape,
                               x_shape[-1] - L, x_shape[-1])


# ---- slice positions ----------------------------------------------------------------

SLICES = {"start": (0, 16), "middle": (12, 28), "end": (24, 40), "odd_start": (7, 23),
          "odd_start_end": (23, 39), "whole": (0, 40)}


@pytest.mark.parametrize("where", list(SLICES))
def test_slice_positions(where):
    start, end = SLICES[where]
    rng = rng_for("slice", where)
    for mode in MODES:
        for backward in DIRECTIONS:
            x_dt, cs_dt = ALL_PAIRS[(mode + 3 * backward + start) % 9]
            checks.native_case(rng, x_dt, cs_dt, mode, backward, (2, 3, 2, 40),
                               (2, 1, 2, end - start), start, end)
    for op, (x_dt, cs_dt) in (("forward", (BF16, BF16)), ("grad", (F16, BF16))):
        aclnn_case(rng, op, x_dt, cs_dt, (2, 3, 2, 40), (1, 3, 1, end - start), start, end)


# ---- head sizes ---------------------------------------------------------------------

HEAD_SIZES = [2, 4, 6, 8, 10, 12, 16, 30, 32, 62, 64, 66, 96, 126, 128, 130, 192, 256, 258,
              510, 512, 768, 1000, 1022, 1024]


@pytest.mark.parametrize("d", HEAD_SIZES)
def test_head_sizes_both_faces(d):
    rng = rng_for("D", d)
    for mode in MODES:
        L = _l_for(mode, d)
        if L == 0:
            continue
        for backward in DIRECTIONS:
            x_dt, cs_dt = ALL_PAIRS[(d + mode * 2 + backward) % 9]
            checks.native_case(rng, x_dt, cs_dt, mode, backward, (1, 3, 2, d), (1, 3, 1, L),
                               d - L, d)
    x_dt, cs_dt = ACLNN_FWD_PAIRS[d % 5]
    aclnn_case(rng, "forward", x_dt, cs_dt, (1, 2, 3, d), (1, 2, 1, d), 0, d)
    x_dt, cs_dt = ALL_PAIRS[d % 9]
    aclnn_case(rng, "grad", x_dt, cs_dt, (1, 2, 3, d), (1, 1, 3, d), 0, d)


# D > 1024 (native face only); interleave-half rows longer than 4096 use heap scratch.
LONG = [(1026, 3), (1536, 3), (1536, 0), (2048, 2), (4096, 3), (4098, 3), (4100, 3),
        (4100, 1), (8200, 3), (8200, 0)]


@pytest.mark.parametrize("d,mode", LONG)
def test_long_rows_native(d, mode):
    rng = rng_for("long", d, mode)
    for backward in DIRECTIONS:
        for x_dt, cs_dt in ((F32, F32), (BF16, F16)):
            checks.native_case(rng, x_dt, cs_dt, mode, backward, (2, 3, 1, d), (1, 3, 1, d),
                               0, d)
    checks.native_case(rng, F16, F32, mode, False, (2, 2, 1, d + 6), (2, 1, 1, d), 3, d + 3,
                       x_layout="padded")
    checks.native_case(rng, BF16, BF16, mode, True, (2, 2, d), (d,), 0, d,
                       x_layout="colstride", cs_layout="strided")


def test_long_rows_many_tasks():
    # Enough rows that the work is split into many tasks, each with its own scratch.
    rng = rng_for("long-many")
    for backward in DIRECTIONS:
        checks.native_case(rng, F32, F32, 3, backward, (16, 4, 1, 8200), (1, 4, 1, 8200), 0,
                           8200)
        checks.native_case(rng, BF16, BF16, 3, backward, (24, 6, 1, 4100), (24, 1, 1, 4100),
                           0, 4100)


def test_aclnn_rejects_d_above_1024():
    rng = rng_for("big-D")
    x = checks.values(rng, (1, 1, 2, 1026), F32)
    cos, sin = checks.cs_arrays(rng, (1, 1, 1, 1026), F32)
    before = x.copy()
    for run in (aclnn.inplace_partial_rotary_mul, aclnn.inplace_partial_rotary_mul_grad):
        res = run(x, cos, sin, 1, [0, 1026])
        assert res.workspace in (161002, 561002), res
        assert np.array_equal(x.view(np.uint32), before.view(np.uint32))


# ---- empty tensors and empty slices (no-ops) ----------------------------------------

EMPTY = [
    ((0, 4, 2, 8), (1, 1, 1, 8), (0, 8)),
    ((2, 0, 2, 8), (2, 1, 2, 8), (0, 8)),
    ((2, 3, 4, 16), (2, 3, 4, 0), (0, 16)),
    ((2, 3, 4, 16), (0, 3, 4, 16), (0, 16)),
    ((2, 3, 4, 16), (1, 1, 1, 16), (0, 0)),
    ((2, 3, 4, 16), (1, 1, 1, 8), (5, 5)),
    ((2, 3, 4, 16), (1, 1, 1, 4), (16, 16)),
    ((2, 3, 4, 0), (1, 1, 1, 0), (0, 0)),
    ((0, 4, 2, 8), (3, 1, 1, 8), (0, 8)),  # empty x: no-op before the broadcast check
]


@pytest.mark.parametrize("x_shape,cs_shape,sl", EMPTY, ids=str)
def test_empty_is_noop(x_shape, cs_shape, sl):
    rng = rng_for("empty", x_shape, cs_shape, sl)
    for mode in MODES:
        for backward in DIRECTIONS:
            x = checks.values(rng, x_shape, F16)
            cos, sin = checks.cs_arrays(rng, cs_shape, F32)
            before = x.copy()
            ropekit.partial_rotary(x, cos, sin, mode, sl[0], sl[1], backward)
            assert x.tobytes() == before.tobytes()
    for run in (aclnn.inplace_partial_rotary_mul, aclnn.inplace_partial_rotary_mul_grad):
        x = checks.values(rng, x_shape, F16)
        cos, sin = checks.cs_arrays(rng, cs_shape, F16)
        before = x.copy()
        res = run(x, cos, sin, 1, list(sl))
        assert res.ok, res
        assert x.tobytes() == before.tobytes()


@pytest.mark.parametrize("slice_arg", [None, []], ids=["null", "size0"])
def test_aclnn_missing_slice_is_noop(slice_arg):
    rng = rng_for("noslice", slice_arg is None)
    for run in (aclnn.inplace_partial_rotary_mul, aclnn.inplace_partial_rotary_mul_grad):
        x = checks.values(rng, (2, 3, 4, 16), F32)
        cos, sin = checks.cs_arrays(rng, (2, 3, 4, 16), F32)
        before = x.copy()
        res = run(x, cos, sin, 1, slice_arg)
        assert res.ok, res
        assert x.tobytes() == before.tobytes()


# ---- NaN, inf, subnormal inputs ------------------------------------------------------

@pytest.mark.parametrize("x_dt,cs_dt", ALL_PAIRS)
def test_special_values(x_dt, cs_dt, isa):
    rng = rng_for("special", x_dt, cs_dt)
    for mode in MODES:
        for backward in DIRECTIONS:
            checks.native_case(rng, x_dt, cs_dt, mode, backward, (2, 3, 2, 24), (2, 3, 2, 16),
                               4, 20, specials=0.3)
    if (x_dt, cs_dt) in ACLNN_FWD_PAIRS:
        aclnn_case(rng, "forward", x_dt, cs_dt, (2, 3, 2, 24), (2, 3, 2, 16), 4, 20,
                   specials=0.3)
    aclnn_case(rng, "grad", x_dt, cs_dt, (2, 3, 2, 24), (2, 3, 2, 16), 4, 20, specials=0.3)


@pytest.mark.parametrize("x_dt", [F32, F16, BF16])
def test_subnormal_results(x_dt):
    # Normal inputs whose products and results fall into the subnormal range of the
    # output type (kept, never flushed to zero).
    rng = rng_for("subnormal", x_dt)
    tiny = {F32: 2.0 ** -120, F16: 2.0 ** -10, BF16: 2.0 ** -120}[x_dt]
    for mode in MODES:
        for backward in DIRECTIONS:
            x = emulate.narrow((rng.uniform(-1, 1, (2, 2, 2, 16)) * tiny).astype(np.float32),
                               x_dt)
            cos, sin = (emulate.narrow(rng.uniform(-2.0 ** -8, 2.0 ** -8, (2, 1, 2, 16))
                                       .astype(np.float32), F32) for _ in range(2))
            before = x.copy()
            ropekit.partial_rotary(x, cos, sin, mode, 0, 16, backward, x_dtype=x_dt)
            out = emulate.widen(x, x_dt)
            assert (np.abs(out[out != 0]) < {F32: 2.0 ** -126, F16: 2.0 ** -14,
                                             BF16: 2.0 ** -126}[x_dt]).any()
            checks.check_all(before, x, x_dt, cos, sin, F32, mode, 0, 16, backward)


# ---- thread-count independence --------------------------------------------------------

@pytest.mark.parametrize("x_dt,cs_dt,mode,backward",
                         [(F32, F32, 1, False), (BF16, F32, 3, True), (F16, F16, 0, False)])
def test_thread_count_independent(x_dt, cs_dt, mode, backward):
    rng = rng_for("threads", x_dt, cs_dt, mode, backward)
    x0 = checks.values(rng, (4, 512, 8, 128), x_dt)
    cos, sin = checks.cs_arrays(rng, (1, 512, 1, 128), cs_dt)
    outs = []
    try:
        for threads in (1, 2, 0):
            ropekit.set_num_threads(threads)
            x = x0.copy()
            ropekit.partial_rotary(x, cos, sin, mode, 0, 128, backward, x_dtype=x_dt,
                                   cs_dtype=cs_dt)
            outs.append(x)
    finally:
        ropekit.set_num_threads(0)
    assert outs[0].tobytes() == outs[1].tobytes(), "1 vs 2 threads differ"
    assert outs[0].tobytes() == outs[2].tobytes(), "1 thread vs default differ"
    if mode == 1 and (x_dt, cs_dt) in ACLNN_FWD_PAIRS:
        x = x0.copy()
        run = aclnn.inplace_partial_rotary_mul_grad if backward else \
            aclnn.inplace_partial_rotary_mul
        assert run(x, cos, sin, 1, [0, 128], x_dtype=x_dt, cs_dtype=cs_dt).ok
        assert x.tobytes() == outs[0].tobytes(), "aclnn face differs from the native face"
    checks.check_model(x0, outs[0], x_dt, cos, sin, cs_dt, mode, 0, 128, backward)


@pytest.mark.parametrize("pattern", PATTERNS[::3] + [(True, False, True)],
                         ids=lambda p: "".join("BSN"[i] if k else "1" for i, k in enumerate(p)))
def test_threads_with_broadcast_and_odd_extents(pattern):
    # Odd extents so tasks start and end in the middle of every leading dimension.
    x_shape = (3, 67, 7, 72)
    cs_shape = tuple(d if keep else 1 for d, keep in zip(x_shape[:3], pattern)) + (64,)
    rng = rng_for("threads-bcast", pattern)
    for mode in (1, 3):
        x0 = checks.values(rng, x_shape, F16)
        cos, sin = checks.cs_arrays(rng, cs_shape, BF16)
        outs = []
        try:
            for threads in (1, 2, 3):
                ropekit.set_num_threads(threads)
                x = x0.copy()
                ropekit.partial_rotary(x, cos, sin, mode, 5, 69, mode == 3, x_dtype=F16,
                                       cs_dtype=BF16)
                outs.append(x.tobytes())
        finally:
            ropekit.set_num_threads(0)
        assert outs[0] == outs[1] == outs[2]
        checks.check_all(x0, x, F16, cos, sin, BF16, mode, 5, 69, mode == 3)


# ---- rotated lengths and alignments (SIMD bodies and tails) -------------------------

LENGTHS = list(range(2, 72, 2)) + [94, 126, 130, 190, 258]


@pytest.mark.parametrize("L", LENGTHS)
def test_lengths_and_alignment(L, isa):
    rng = rng_for("len", L)
    start = (L // 2) % 5
    for mode in MODES:
        if mode == 2 and L % 4:
            continue
        for backward in DIRECTIONS:
            x_dt, cs_dt = ALL_PAIRS[(L + mode + 4 * backward) % 9]
            checks.native_case(rng, x_dt, cs_dt, mode, backward, (3, L + start + 1), (L,),
                               start, start + L)


# ---- every instruction set gives the same bytes --------------------------------------

def test_isa_caps_identical():
    rng = rng_for("isa")
    best = ropekit.native.ISAS.index(ropekit.detected_isa())
    previous = ropekit.native.ISAS.index(ropekit.active_isa())
    cases = []
    for mode in MODES:
        for backward in DIRECTIONS:
            for x_dt, cs_dt in ALL_PAIRS:
                x = checks.values(rng, (3, 5, 2, 200), x_dt, specials=0.05)
                cos, sin = checks.cs_arrays(rng, (5, 1, 160), cs_dt, specials=0.05)
                cases.append((mode, backward, x_dt, cs_dt, x, cos, sin))
    results = []
    try:
        for isa in range(best + 1):
            ropekit.set_max_isa(isa)
            outs = []
            for mode, backward, x_dt, cs_dt, x0, cos, sin in cases:
                x = x0.copy()
                ropekit.partial_rotary(x, cos, sin, mode, 24, 184, backward, x_dtype=x_dt,
                                       cs_dtype=cs_dt)
                outs.append(x.tobytes())
            results.append(outs)
    finally:
        ropekit.set_max_isa(previous)
    for isa, outs in enumerate(results[1:], 1):
        for k, (a, b) in enumerate(zip(results[0], outs)):
            assert a == b, f"ISA {isa} differs from scalar in case {cases[k][:4]}"


# ---- float conversions through the op: widening and RNE narrowing --------------------

def _conversion_inputs(rng):
    """float32 bit patterns: random ones plus every neighbourhood where rounding to
    float16/bfloat16 changes behaviour (subnormal steps, ties, overflow, NaN, inf)."""
    rand = rng.integers(0, 2 ** 32, 60000, dtype=np.uint64).astype(np.uint32)
    h = np.arange(0x0000, 0x7C01, 7, dtype=np.uint32)           # f16 magnitudes
    f16_edges = emulate.widen(h.astype(np.uint16).view(np.float16), F16).view(np.uint32)
    near = (f16_edges[:, None] + np.arange(-0x1001, 0x1002, 0x800, dtype=np.int64)[None, :])
    bf = (np.arange(0, 0x7F81, 3, dtype=np.uint32) << 16)
    near_bf = bf[:, None].astype(np.int64) + np.array([-0x8001, -0x8000, -1, 0, 1, 0x7FFF,
                                                       0x8000, 0x8001])[None, :]
    fixed = np.array([0x477FEFFF, 0x477FF000, 0x477FE000, 0x33000000, 0x33000001, 0x387FFFFF,
                      0x38800000, 0x7F7FFFFF, 0x7F7F7FFF, 0x7F7F8000, 0x7FC00000, 0x7F800001,
                      0x00000001, 0x00400000, 0x80000000, 0x7F800000], np.int64)
    allv = np.concatenate([rand.astype(np.int64), near.ravel(), near_bf.ravel(), fixed])
    allv = allv[(allv >= 0) & (allv < 2 ** 32)].astype(np.uint32)
    return np.concatenate([allv, allv | np.uint32(0x80000000)]).view(np.float32)


@pytest.mark.parametrize("x_dt", [F16, BF16, F32])
def test_conversion_sweep(x_dt):
    # x = [1, 0] pairs, cos = [r, 0], sin = [0, r] (f32 coefficients) make the interleave
    # outputs fl(r - 0) and fl(0 + r) = r (up to the sign of a zero), so the op must
    # round every float32 value r to x's dtype exactly as RNE does.
    rng = rng_for("conv", x_dt)
    r = _conversion_inputs(rng)
    n = r.size
    one_zero = np.tile(np.array([1.0, 0.0], np.float32), n)
    x = emulate.narrow(one_zero, x_dt).reshape(1, 2 * n)
    cos = np.zeros(2 * n, np.float32)
    sin = np.zeros(2 * n, np.float32)
    cos[0::2] = r
    sin[1::2] = r
    before = x.copy()
    ropekit.partial_rotary(x, cos, sin, 1, 0, 2 * n, x_dtype=x_dt)
    checks.check_model(before, x, x_dt, cos, sin, F32, 1, 0, 2 * n, False)


@pytest.mark.parametrize("cs_dt", [F16, BF16])
def test_widening_every_value(cs_dt):
    # f32 x = [1, 0], every 16-bit pattern as cos (even lanes) and sin (odd lanes):
    # the outputs are the exact float32 widenings.
    bits16 = np.arange(65536, dtype=np.uint16)
    coef = bits16.view(np.float16) if cs_dt == F16 else bits16
    n = bits16.size
    x = np.tile(np.array([1.0, 0.0], np.float32), n).reshape(1, 2 * n)
    cos = np.zeros(2 * n, coef.dtype)
    sin = np.zeros(2 * n, coef.dtype)
    cos[0::2] = coef
    sin[1::2] = coef
    before = x.copy()
    ropekit.partial_rotary(x, cos, sin, 1, 0, 2 * n, cs_dtype=cs_dt)
    checks.check_model(before, x, F32, cos, sin, cs_dt, 1, 0, 2 * n, False)
    wide = emulate.widen(coef, cs_dt)
    ok = ~np.isnan(wide)
    assert np.array_equal(x[0, 0::2][ok].view(np.uint32), wide[ok].view(np.uint32))
    assert np.isnan(x[0, 0::2][~ok]).all()


# ---- aclnn face: order of checks around the no-op exit -------------------------------

def test_aclnn_noop_and_check_order():
    rng = rng_for("order")
    fwd, grad = aclnn.inplace_partial_rotary_mul, aclnn.inplace_partial_rotary_mul_grad
    # Grad does not check D parity (only L); forward requires D even.
    aclnn_case(rng, "grad", F32, F16, (2, 3, 2, 37), (2, 3, 1, 16), 7, 23)
    x = checks.values(rng, (2, 3, 2, 37), F32)
    cos, sin = checks.cs_arrays(rng, (2, 3, 1, 16), F32)
    assert fwd(x, cos, sin, 1, [7, 23]).workspace == 161002
    # Empty slice is a no-op even when D > 1024 ...
    big = checks.values(rng, (1, 1, 2, 2000), F16)
    cb, sb = checks.cs_arrays(rng, (1, 1, 1, 8), F16)
    for run in (fwd, grad):
        before = big.copy()
        assert run(big, cb, sb, 1, [4, 4]).ok
        assert big.tobytes() == before.tobytes()
    # ... but the slice range is checked before the no-op exit.
    assert fwd(big, cb, sb, 1, [2001, 2001]).workspace == 161002
    assert grad(big, cb, sb, 1, [2001, 2001]).workspace == 561002
    # Grad: cos.shape[3] <= D is checked even for a no-op; forward: no-op.
    x = checks.values(rng, (1, 2, 2, 16), F32)
    cos, sin = checks.cs_arrays(rng, (1, 2, 2, 20), F32)
    assert grad(x, cos, sin, 1, [0, 0]).workspace == 561002
    assert fwd(x, cos, sin, 1, [0, 0]).ok


# ---- float64 (native face only) -------------------------------------------------------

_F64_SPECIALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, -2.0 ** -1022, 1e300])


def _f64_values(rng, shape, role):
    """float64 values (normal(0, 2) for x, uniform(-1, 1) for cos/sin), 2% special."""
    f = rng.standard_normal(shape) * 2.0 if role == "x" else rng.uniform(-1.0, 1.0, shape)
    return np.where(rng.random(shape) < 0.02,
                    _F64_SPECIALS[rng.integers(0, len(_F64_SPECIALS), shape)], f)


def _same_f64(got, ref):
    """Bit for bit, except that a NaN need only be a NaN."""
    return (got.view(np.uint64) == ref.view(np.uint64)) | (np.isnan(got) & np.isnan(ref))


@pytest.mark.parametrize("backward", DIRECTIONS)
@pytest.mark.parametrize("mode", MODES)
def test_native_float64_is_golden(mode, backward):
    """float64 is computed in double, one rounding per product and per sum, as golden.py
    computes: the results are golden's bit for bit. x is every other column of its buffer,
    cos/sin zero-stride views broadcast over the batch."""
    rng = rng_for("f64", mode, backward)
    base = _f64_values(rng, (3, 4, 2, 74), "x")
    before = base.copy()
    x = base[..., ::2]
    cos, sin = (np.broadcast_to(_f64_values(rng, (4, 1, 16), "cs"), (3, 4, 2, 16))
                for _ in range(2))
    ropekit.partial_rotary(x, cos, sin, mode, 7, 23, backward)
    ref, _ = golden.rotate(before[..., ::2], cos, sin, mode, 7, 23, backward)
    bad = ~_same_f64(x, ref)
    assert not bad.any(), f"{int(bad.sum())} float64 results differ from golden, e.g. at " \
                          f"{checks._where(bad)}"
    assert np.array_equal(base[..., 1::2].view(np.uint64), before[..., 1::2].view(np.uint64))


def test_float64_pairs_only_with_float64_and_not_on_aclnn():
    rng = rng_for("f64-reject")
    x64 = _f64_values(rng, (1, 2, 2, 8), "x")
    c64, s64 = _f64_values(rng, (1, 2, 2, 8), "cs"), _f64_values(rng, (1, 2, 2, 8), "cs")
    c32, s32 = c64.astype(np.float32), s64.astype(np.float32)
    before = x64.copy()
    for x, c, s in ((x64, c32, s32), (x64.astype(np.float32), c64, s64)):
        with pytest.raises(ropekit.RopekitError, match="float64 goes with float64 only"):
            ropekit.partial_rotary(x, c, s, 1, 0, 8)
    # CANN has no float64: the aclnn faces refuse it as a dtype error, x untouched
    for run in (aclnn.inplace_partial_rotary_mul, aclnn.inplace_partial_rotary_mul_grad):
        for c, s in ((c64, s64), (c32, s32)):
            res = run(x64, c, s, 1, [0, 8])
            assert res.workspace == 161002, res
            assert "dtype = 11: must be float32, float16 or bfloat16" in res.message, res
            assert np.array_equal(x64.view(np.uint64), before.view(np.uint64))
