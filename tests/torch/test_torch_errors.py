"""Bad inputs: every op raises the exception torch users expect, with a message naming
the argument, its value and the rule, and leaves every tensor byte-identical."""
import pytest
import torch

import ropekit.torch as rt
from ropekit.torch import _args
from conftest import assert_unchanged, snapshot

ops = torch.ops.ropekit


def _pr():
    return torch.randn(2, 3, 4, 16), torch.randn(2, 3, 1, 8), torch.randn(2, 3, 1, 8)


# The library's rules and messages (ropekit.<op> in place of its C function's name; the
# native face calls grad_output "x" and r1, r2 "cos", "sin"); ValueError is its
# ROPEKIT_INVALID_ARGUMENT. The conversion errors (mode name, two slice values) are
# Python's. test_torch_rules.py goes through every rule, eager against fake.
PR_CASES = [
    # (name, mutate(x, c, s) -> args, kwargs, exception, message pieces)
    ("float64 x, float32 cos", lambda x, c, s: ((x.double(), c, s), {}), ValueError,
     ["(x, cos) dtypes = (f64, f32): float64 goes with float64 only"]),
    ("float64 cos, float32 x", lambda x, c, s: ((x, c.double(), s.double()), {}), ValueError,
     ["(x, cos) dtypes = (f32, f64): float64 goes with float64 only"]),
    ("integer x", lambda x, c, s: ((x.to(torch.int32), c, s), {}), ValueError,
     ["x dtype = 3: must be float32, float16, bfloat16 or float64"]),
    ("r2 dtype", lambda x, c, s: ((x, c, s.half()), {}), ValueError,
     ["sin dtype = f16: must equal cos dtype f32"]),
    ("mode", lambda x, c, s: ((x, c, s), {"rotary_mode": "sideways"}), ValueError,
     ["rotary_mode = 'sideways': must be 'half', 'interleave', 'quarter' or 'interleave-half'"]),
    ("slice size", lambda x, c, s: ((x, c, s), {"partial_slice": [0, 8, 1]}), ValueError,
     ["partial_slice = [0, 8, 1]", "must have 2 values"]),
    ("slice range", lambda x, c, s: ((x, c, s), {"partial_slice": [8, 20]}), ValueError,
     ["slice = [8, 20): must satisfy 0 <= start <= end <= D = 16"]),
    ("rank 0", lambda x, c, s: ((torch.tensor(1.0), c, s), {}), ValueError,
     ["x rank = 0: needs at least one dimension"]),
    ("shapes differ", lambda x, c, s: ((x, c, s[:1]), {}), ValueError,
     ["sin shape = [1,3,1,8]: must equal cos shape [2,3,1,8]"]),
    ("cos longer than slice", lambda x, c, s: ((x, c, s), {"partial_slice": [0, 6]}),
     ValueError, ["cos last dim = 8: must equal the slice length 6"]),
    ("odd slice", lambda x, c, s: ((x, c[..., :7], s[..., :7]), {"partial_slice": [0, 7]}),
     ValueError, ["slice length end - start = 7: must be a multiple of 2 in interleave mode"]),
    ("quarter slice", lambda x, c, s: ((x, c[..., :6], s[..., :6]),
                                       {"partial_slice": [0, 6], "rotary_mode": "quarter"}),
     ValueError, ["must be a multiple of 4 in quarter mode"]),
    ("broadcast", lambda x, c, s: ((x, torch.randn(3, 3, 1, 8), torch.randn(3, 3, 1, 8)), {}),
     ValueError, ["cos shape = [3,3,1,8]: dim 0 is 3, must be 1 or x's 2 (x shape [2,3,4,16])"]),
    ("cos rank above x", lambda x, c, s: ((x[0, 0], c, s), {}), ValueError,
     ["cos rank = 4: must be in [1, rank of x = 2]"]),
    ("not a tensor", lambda x, c, s: ((x, [1.0], s), {}), (RuntimeError, TypeError), ["r1"]),
]


@pytest.mark.parametrize("case", PR_CASES, ids=[c[0] for c in PR_CASES])
@pytest.mark.parametrize("op", ["partial_rotary_mul", "inplace_partial_rotary_mul",
                                "inplace_partial_rotary_mul_backward"])
def test_partial_rotary_bad_inputs(case, op):
    _, mutate, exc, pieces = case
    args, kwargs = mutate(*_pr())
    kwargs = {"partial_slice": [0, 8], **kwargs}
    before = snapshot(*args)
    with pytest.raises(exc) as info:
        getattr(ops, op)(*args, **kwargs)
    for piece in pieces:
        assert piece in str(info.value), (piece, str(info.value))
    if exc is ValueError:
        assert str(info.value).startswith(f"ropekit.{op}: "), str(info.value)
    assert_unchanged(before, *args)


def _rope():
    return (torch.tensor([0, 3, 5]), torch.randn(3, 4 * 32), torch.randn(3, 2 * 32),
            torch.randn(8, 16))


ROPE_CASES = [
    ("positions float", lambda p, q, k, c: (p.float(), q, k, c, 32, True, {}), ValueError,
     ["positions dtype = 0: must be int64"]),
    ("float64 query, float32 cache", lambda p, q, k, c: (p, q.double(), k.double(), c, 32, True,
                                                         {}), ValueError,
     ["cosSinCache dtype = f32: float64 goes with float64 only (queryIn dtype = f64)"]),
    ("float64 cache, float32 query", lambda p, q, k, c: (p, q, k, c.double(), 32, True, {}),
     ValueError, ["cosSinCache dtype = f64: float64 goes with float64 only"]),
    ("float64 key", lambda p, q, k, c: (p, q, k.double(), c, 32, True, {}), ValueError,
     ["keyIn dtype = 11: must equal queryIn's dtype"]),
    ("key dtype", lambda p, q, k, c: (p, q, k.half(), c, 32, True, {}), ValueError,
     ["keyIn dtype = 1: must equal queryIn's dtype"]),
    ("head size", lambda p, q, k, c: (p, q, k, c, 0, True, {}), ValueError,
     ["headSize = 0: must be >= 1"]),
    ("query rank", lambda p, q, k, c: (p, q.reshape(3, 4, 4, 8), k, c, 32, True, {}), ValueError,
     ["queryIn shape = [3,4,4,8]: must be 2-D [T, H*headSize] or 3-D [T, H, headSize]"]),
    ("hidden not multiple", lambda p, q, k, c: (p, q[:, :100], k, c, 32, True, {}), ValueError,
     ["queryIn shape[1] = 100: must be a multiple of headSize 32"]),
    ("tokens differ", lambda p, q, k, c: (p, q, k[:2], c, 32, True, {}), ValueError,
     ["keyIn shape[0] = 2: must equal queryIn's numTokens 3"]),
    ("odd rotary dim", lambda p, q, k, c: (p, q, k, c[:, :15], 32, True, {}), ValueError,
     ["rotaryDim (cosSinCache shape[1]) = 15: must be even, >= 2 and <= headSize 32"]),
    ("rotary dim above head size", lambda p, q, k, c: (p, q, k, torch.randn(8, 48), 32, True,
                                                       {}), ValueError,
     ["rotaryDim (cosSinCache shape[1]) = 48"]),
    ("positions shape", lambda p, q, k, c: (p[:2], q, k, c, 32, True, {}), ValueError,
     ["positions shape = [2]: must be [numTokens] = [3] for rope"]),
    ("sections sum", lambda p, q, k, c: (p.expand(3, 3), q, k, c, 32, True,
                                         {"mrope_section": [2, 2, 2]}), ValueError,
     ["mropeSection = [2,2,2]: 2 * sum (sum = 6) must equal rotaryDim 16"]),
    ("cache mode", lambda p, q, k, c: (p, q, k, c, 32, True, {"cache_mode": 4}), ValueError,
     ["cacheMode = 4: must be 0 (sectioned)"]),
    ("ERNIE needs h == w", lambda p, q, k, c: (p.expand(3, 3), q, k, c, 32, True,
                                               {"mrope_section": [3, 2, 3], "cache_mode": 2}),
     ValueError, ["mropeSection = [3,2,3]: ERNIE-4.5-VL mrope needs 3 sections (h, w, t) with "
                  "h == w"]),
    ("openPangu needs 2 or 3", lambda p, q, k, c: (p.expand(4, 3), q, k, c, 32, True,
                                                   {"mrope_section": [2, 2, 2, 2],
                                                    "cache_mode": 3}),
     ValueError, ["openPangu-VL interleaved mrope needs 2 sections (h, w) or 3"]),
    ("interleaved needs 3", lambda p, q, k, c: (p.expand(2, 3), q, k, c, 32, True,
                                                {"mrope_section": [4, 4], "cache_mode": 1}),
     ValueError, ["interleaved mrope needs 3 sections"]),
    ("position out of range", lambda p, q, k, c: (torch.tensor([0, 3, 8]), q, k, c, 32, True,
                                                  {}), IndexError,
     ["positions[0][2] = 8", "maxSeqLen = 8"]),
]


@pytest.mark.parametrize("case", ROPE_CASES, ids=[c[0] for c in ROPE_CASES])
def test_rope_bad_inputs(case):
    _, mutate, exc, pieces = case
    p, q, k, c, hs, neox, kw = mutate(*_rope())
    before = snapshot(p, q, k, c)
    with pytest.raises(exc) as info:
        ops.rope_with_sin_cos_cache(p, q, k, c, hs, neox, **kw)
    for piece in pieces:
        assert piece in str(info.value), (piece, str(info.value))
    if exc in (ValueError, IndexError):
        assert str(info.value).startswith("ropekit.rope_with_sin_cos_cache: "), str(info.value)
    assert_unchanged(before, p, q, k, c)
    if not kw:  # vLLM's in-place op: the same checks, nothing written
        with pytest.raises(exc):
            ops.rotary_embedding(p, q, k, hs, c, neox)
        assert_unchanged(before, p, q, k, c)


def test_fake_kernels_reject_the_same_inputs():
    x, c, s = _pr()
    with torch.device("meta"):
        xm, cm, sm = torch.empty_like(x, device="meta"), torch.empty_like(c), torch.empty_like(s)
    with pytest.raises(ValueError, match=r"slice = \[8, 20\)"):
        ops.partial_rotary_mul(xm, cm, sm, partial_slice=[8, 20])
    assert ops.partial_rotary_mul(xm, cm, sm, partial_slice=[0, 8]).device.type == "meta"


def test_other_devices_are_named(monkeypatch):
    # No accelerator here: with meta tensors refused, the device check is the one that fires.
    monkeypatch.setattr(_args, "FAKE_DEVICES", ("cpu",))
    x = torch.empty(2, 3, 4, 16, device="meta")
    with pytest.raises(RuntimeError, match="x device = meta: ropekit runs on the CPU"):
        ops.partial_rotary_mul(x, x[..., :8], x[..., :8], partial_slice=[0, 8])
    with pytest.raises(RuntimeError, match="positions device = meta: ropekit runs on the CPU"):
        ops.rope_with_sin_cos_cache(torch.zeros(2, dtype=torch.long, device="meta"),
                                    x.reshape(2, -1), None, x.reshape(-1, 16), 16, True)


def test_overlapping_in_place_output_is_rejected():
    x = torch.randn(1, 1, 1, 16).expand(2, 3, 4, 16)  # many indices, one address
    c = torch.randn(2, 3, 1, 16)
    with pytest.raises(ValueError, match="overlap"):
        ops.inplace_partial_rotary_mul(x, c, c, partial_slice=[0, 16])


def test_module_rejects_unknown_scaling():
    with pytest.raises(ValueError, match="rope_scaling type = 'ntk-by-parts'"):
        rt.RotaryEmbedding(64, 64, 128, 10000.0, True, rope_scaling={"rope_type": "ntk-by-parts"})


def test_checks_run_again_for_new_arguments():
    # a valid call prepares the layout; the same tensors with a bad slice still fail
    x, c, s = _pr()
    ops.inplace_partial_rotary_mul(x, c, s, partial_slice=[0, 8])
    before = snapshot(x)
    with pytest.raises(ValueError, match=r"cos last dim = 8: must equal the slice length 6"):
        ops.inplace_partial_rotary_mul(x, c, s, partial_slice=[0, 6])
    assert_unchanged(before, x)
