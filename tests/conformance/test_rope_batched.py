"""The native rope's batched token dims ([B, S] positions; [B, S, H*D] and [B, S, H, D]
query/key of any strides, Hugging Face's [B, H, S, D] as a permuted view) and offsets,
through the Python binding: bit for bit the [T] call on the same tokens flattened, with
positions + offsets precomputed, on every thread count; and the binding's errors."""
import numpy as np
import pytest

import checks
import emulate
import ropekit
from cases import rng_for
from emulate import BF16, F32

B, S, HQ, HK, HS, R, M = 3, 7, 4, 2, 32, 24, 40
SECTIONS = (4, 4, 4)


def _qk(rng, layout, heads, x_dt):
    """(the array handed to the library, as [B, S, ...]) for one layout."""
    if layout == "flat":
        a = checks.values(rng, (B, S, heads * HS), F32)
    elif layout == "split":
        a = checks.values(rng, (B, S, heads, HS), F32)
    elif layout == "hf":  # [B, H, S, D] memory
        a = checks.values(rng, (B, heads, S, HS), F32).transpose(0, 2, 1, 3)
    elif layout == "strided":  # every other token of a longer, wider buffer
        a = checks.values(rng, (B, 2 * S, heads * HS + 8), F32)[:, ::2, 4:4 + heads * HS]
    else:
        raise AssertionError(layout)
    return emulate.narrow(a, BF16) if x_dt == BF16 else a


def _tokens(rng, kind, rows, hi):
    """Positions or offsets [B, S] (rows: [rows, B, S]) of a layout."""
    lead = (rows,) if rows else ()
    if kind == "dense":
        return rng.integers(0, hi, lead + (B, S))
    if kind == "per_seq":  # one row shared by every batch
        return np.broadcast_to(rng.integers(0, hi, lead + (1, S)), lead + (B, S))
    if kind == "per_batch":  # one value per batch
        return np.broadcast_to(rng.integers(0, hi, lead + (B, 1)), lead + (B, S))
    raise AssertionError(kind)


def _flat(a, heads):
    """A contiguous [B*S, H*D] copy."""
    return np.array(a, order="C").reshape(B * S, heads * HS)


def _check_against_flat(rng, layout, pos_kind, off_kind, mrope, neox, x_dt, in_place):
    rows = len(SECTIONS) if mrope else 0
    q, k = _qk(rng, layout, HQ, x_dt), _qk(rng, layout, HK, x_dt)
    pos = _tokens(rng, pos_kind, rows, M // 2 if off_kind else M)
    off = _tokens(rng, off_kind, 0, M // 2) if off_kind else None
    cache = checks.values(rng, (M, R), F32, "cs")
    kw = dict(head_size=HS, style="neox" if neox else "gptj",
              sections=SECTIONS if mrope else None, x_dtype=x_dt, cache_dtype=F32)
    fq, fk = _flat(q, HQ), _flat(k, HK)
    fpos = (pos + (off if off is not None else 0)).reshape((rows, B * S) if rows else B * S)
    ropekit.rope(np.ascontiguousarray(fpos), fq, fk, cache, **kw)
    if in_place:
        got_q, got_k = ropekit.rope(pos, q, k, cache, offsets=off, **kw)
    else:
        qo, ko = np.zeros_like(q), np.zeros_like(k)
        got_q, got_k = ropekit.rope(pos, q, k, cache, offsets=off, query_out=qo, key_out=ko,
                                    **kw)
    assert _flat(got_q, HQ).tobytes() == fq.tobytes()
    assert _flat(got_k, HK).tobytes() == fk.tobytes()


@pytest.mark.parametrize("layout", ["flat", "split", "hf", "strided"])
@pytest.mark.parametrize("pos_kind", ["dense", "per_seq"])
@pytest.mark.parametrize("off_kind", [None, "dense", "per_batch"])
@pytest.mark.parametrize("mrope", [False, True])
def test_batched_equals_flattened(layout, pos_kind, off_kind, mrope):
    rng = rng_for("batched", layout, pos_kind, off_kind, mrope)
    for neox, x_dt, in_place in ((True, F32, False), (False, BF16, True)):
        _check_against_flat(rng, layout, pos_kind, off_kind, mrope, neox, x_dt, in_place)


def test_offsets_on_flat_tokens():
    """[T] tokens with [T] offsets (stride 0: one offset for all) equal positions + offset."""
    rng = rng_for("flat-offsets")
    T = 11
    q = checks.values(rng, (T, HQ * HS), F32)
    pos = rng.integers(0, M // 2, T)
    cache = checks.values(rng, (M, R), F32, "cs")
    want = q.copy()
    ropekit.rope(pos + 5, want, None, cache, head_size=HS)
    got = q.copy()
    ropekit.rope(pos, got, None, cache, head_size=HS, offsets=np.broadcast_to(5, (T,)))
    assert got.tobytes() == want.tobytes()


def test_batched_thread_count_independent():
    rng = rng_for("batched-threads")
    b, s, h = 4, 500, 8
    q = checks.values(rng, (b, h, s, HS), F32).transpose(0, 2, 1, 3)
    pos = rng.integers(0, M // 2, (b, s))
    off = np.broadcast_to(rng.integers(0, M // 2, (b, 1)), (b, s))
    cache = checks.values(rng, (M, R), F32, "cs")
    outs = []
    try:
        for threads in (1, 2, 0):
            ropekit.set_num_threads(threads)
            out = np.zeros((b, s, h, HS), np.float32)
            ropekit.rope(pos, q, None, cache, head_size=HS, offsets=off, query_out=out)
            outs.append(out.tobytes())
    finally:
        ropekit.set_num_threads(0)
    assert outs[0] == outs[1] == outs[2]


def test_plan_with_offsets():
    rng = rng_for("plan-offsets")
    q = _qk(rng, "hf", HQ, F32)
    pos = _tokens(rng, "dense", 0, M // 2)
    off = _tokens(rng, "per_batch", 0, M // 2)
    cache = checks.values(rng, (M, R), F32, "cs")
    one_shot = np.zeros_like(q)
    ropekit.rope(pos, q, None, cache, head_size=HS, offsets=off, query_out=one_shot)
    out = np.zeros_like(q)
    with ropekit.RopePlan(pos, q, None, cache, head_size=HS, offsets=off,
                          query_out=out) as plan:
        text = plan.describe()
        assert f"token_dims=[{B},{S}]" in text and " offsets" in text, text
        plan.execute(pos, q, None, cache, query_out=out, offsets=off)
        assert out.tobytes() == one_shot.tobytes()
        with pytest.raises(ValueError):  # planned with offsets: they are required
            plan.execute(pos, q, None, cache, query_out=out)


ERRORS = [
    # (what, override) rejected with ROPEKIT_INVALID_ARGUMENT, nothing written
    ("key batch differs", "k_batch"),
    ("key sequence differs", "k_seq"),
    ("positions [B, S+1]", "pos_seq"),
    ("positions of rank 3 for rope", "pos_rank"),
    ("query of rank 2 for [B, S] positions", "q_rank"),
    ("offsets [B]", "off_rank"),
    ("offsets [B, S-1]", "off_seq"),
    ("output overlaps the offsets", "off_overlap"),
]


@pytest.mark.parametrize("what,override", ERRORS, ids=[e[0] for e in ERRORS])
def test_batched_validation_errors(what, override):
    rng = rng_for("batched-err", what)
    q = checks.values(rng, (B, S, HQ * HS), F32)
    k = checks.values(rng, (B, S - 1 if override == "k_seq" else S, HK * HS), F32)
    if override == "k_batch":
        k = checks.values(rng, (B + 1, S, HK * HS), F32)
    if override == "q_rank":
        q = q.reshape(B * S, HQ * HS)
    pos = rng.integers(0, M // 2, (B, S + 1) if override == "pos_seq" else (B, S))
    if override == "pos_rank":
        pos = pos.reshape(B, S, 1)
    off = rng.integers(0, M // 2, (B,) if override == "off_rank" else
                       (B, S - 1) if override == "off_seq" else (B, S))
    cache = checks.values(rng, (M, R), F32, "cs")
    qo = None
    if override == "off_overlap":  # the offsets stored in query_out's buffer
        qo = checks.values(rng, (B, S, HQ * HS), F32)
        off = qo.reshape(-1).view(np.int64)[:B * S].reshape(B, S)
        off[...] = 1
    before = [x.copy() for x in (q, k, pos, off) + ((qo,) if qo is not None else ())]
    with pytest.raises(ropekit.RopekitError) as info:
        ropekit.rope(pos, q, k, cache, head_size=HS, offsets=off, query_out=qo)
    assert info.value.status == 2, info.value
    assert ropekit.last_error()
    for x, y in zip(before, (q, k, pos, off) + ((qo,) if qo is not None else ())):
        assert x.tobytes() == y.tobytes()


@pytest.mark.parametrize("bad", ["above", "below", "overflow"])
def test_position_plus_offset_out_of_range(bad):
    rng = rng_for("batched-range", bad)
    q = checks.values(rng, (B, S, HQ, HS), F32)
    pos = rng.integers(0, M // 2, (B, S))
    off = rng.integers(0, M // 2, (B, S))
    if bad == "above":
        off[2, 6] = M - pos[2, 6]
    elif bad == "below":
        off[1, 0] = -pos[1, 0] - 1
    else:
        pos[0, 3], off[0, 3] = np.iinfo(np.int64).max, 1
    cache = checks.values(rng, (M, R), F32, "cs")
    before = q.copy()
    with pytest.raises(ropekit.RopekitError) as info:
        ropekit.rope(pos, q, None, cache, head_size=HS, offsets=off)
    assert info.value.status == 4
    assert "offsets" in ropekit.last_error()
    assert q.tobytes() == before.tobytes()
