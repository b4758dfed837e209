"""The gradient (backward) of the partial-rotary operator, checked two independent
ways for all four modes, with broadcast cos/sin and partial slices:
  1. against golden.py's float64 backward formula (SPEC 4.2), with the SPEC 6 bound,
     the float32 model and untouched memory outside the slice (checks.check_all);
  2. through the adjoint identity <forward(x), g> = <x, backward(g)>: the op is linear
     in x, so its gradient must be its transpose."""
import numpy as np
import pytest

import checks
import golden
import ropekit
import ropekit.aclnn as aclnn
from cases import aclnn_case, rng_for
from checks import ALL_PAIRS, MODES, MODE_NAMES, F32

U32 = 2.0 ** -24  # unit roundoff of float32

GRAD_CASES = [
    # x shape, cos/sin shape, start, end, x layout, cos/sin layout
    ((2, 3, 4, 32), (2, 3, 4, 32), 0, 32, "contiguous", "contiguous"),
    ((2, 3, 4, 40), (1, 3, 1, 16), 8, 24, "contiguous", "contiguous"),
    ((3, 2, 5, 29), (3, 1, 1, 20), 5, 25, "padded", "expanded"),
    ((2, 4, 3, 24), (1, 1, 3, 8), 16, 24, "transposed", "strided"),
    ((4, 2, 2, 48), (2, 1, 48), 0, 48, "reversed", "reversed"),
    ((5, 36), (36,), 0, 36, "colstride", "contiguous"),
]


@pytest.mark.parametrize("case", range(len(GRAD_CASES)))
@pytest.mark.parametrize("mode", MODES)
def test_backward_matches_golden(mode, case):
    x_shape, cs_shape, start, end, x_layout, cs_layout = GRAD_CASES[case]
    rng = rng_for("grad-golden", mode, case)
    for i, (x_dt, cs_dt) in enumerate(ALL_PAIRS):
        if (i + case) % 3:
            continue  # every pair appears across the cases, three per case
        checks.native_case(rng, x_dt, cs_dt, mode, True, x_shape, cs_shape, start, end,
                           x_layout=x_layout, cs_layout=cs_layout)


@pytest.mark.parametrize("mode", MODES)
def test_golden_backward_is_transpose_of_forward(mode):
    # The reference itself: build both float64 matrices column by column.
    rng = rng_for("golden-T", mode)
    L = 12 if mode != 2 else 16
    c, s = rng.uniform(-1, 1, L), rng.uniform(-1, 1, L)
    eye = np.eye(L)
    fwd = np.stack([golden.forward(eye[k], c, s, mode, 0, L)[0] for k in range(L)], axis=1)
    bwd = np.stack([golden.backward(eye[k], c, s, mode, 0, L)[0] for k in range(L)], axis=1)
    np.testing.assert_array_equal(bwd, fwd.T)


def _adjoint_gap(mode, x, g, cos, sin, start, end):
    """Runs forward(x) and backward(g) in float32 through ropekit and returns
    (<F x, g> - <x, B g>, tolerance, <x, F g> - <F x, g>) in float64."""
    y, w = x.copy(), g.copy()
    ropekit.partial_rotary(y, cos, sin, MODE_NAMES[mode], start, end, backward=False)
    ropekit.partial_rotary(w, cos, sin, MODE_NAMES[mode], start, end, backward=True)
    x64, g64, y64, w64 = (a.astype(np.float64) for a in (x, g, y, w))
    lhs, rhs = np.sum(y64 * g64), np.sum(x64 * w64)
    # Tolerance. Each float32 output element is fl(fl(p1) +- fl(p2)), so it is within
    # 2u(1+u) * (|p1| + |p2|) of the exact value (u = 2^-24: two rounded products, one
    # rounded sum). Summed against the other vector this bounds each inner product's
    # error by 2u(1+u) * sum(|g| * magF) (resp. sum(|x| * magB)), where mag is golden's
    # |p1| + |p2|. The exact inner products are equal, so |lhs - rhs| is at most the sum
    # of both bounds; the float64 accumulation adds ~n * 2^-53 relative, covered by the
    # 1e-12 term. A factor 1.5 of slack keeps the check sharp (a wrong transpose misses
    # by O(1) relative, far above u).
    c64, s64 = cos.astype(np.float64), sin.astype(np.float64)
    _, mag_f = golden.forward(x64, c64, s64, mode, start, end)
    _, mag_b = golden.backward(g64, c64, s64, mode, start, end)
    tol = 1.5 * 2 * U32 * (1 + U32) * (np.sum(np.abs(g64) * mag_f) + np.sum(np.abs(x64) * mag_b))
    tol += 1e-12 * (np.sum(np.abs(y64 * g64)) + np.sum(np.abs(x64 * w64)))
    # Negative control: forward used in place of the backward must break the identity.
    wrong = g.copy()
    ropekit.partial_rotary(wrong, cos, sin, MODE_NAMES[mode], start, end, backward=False)
    return lhs - rhs, tol, np.sum(x64 * wrong.astype(np.float64)) - lhs


ADJOINT_CASES = [
    ((2, 3, 4, 64), (2, 3, 4, 64), 0, 64),
    ((2, 3, 4, 64), (1, 3, 1, 32), 16, 48),
    ((3, 5, 2, 50), (3, 1, 1, 24), 7, 31),
    ((4, 2, 3, 40), (1, 1, 3, 40), 0, 40),
    ((2, 4, 2, 36), (4, 1, 16), 20, 36),
    ((8, 128), (128,), 0, 128),
]


@pytest.mark.parametrize("case", range(len(ADJOINT_CASES)))
@pytest.mark.parametrize("mode", MODES)
def test_adjoint_identity(mode, case):
    x_shape, cs_shape, start, end = ADJOINT_CASES[case]
    rng = rng_for("adjoint", mode, case)
    x = rng.standard_normal(x_shape).astype(np.float32)
    g = rng.standard_normal(x_shape).astype(np.float32)
    cos = rng.uniform(-1, 1, cs_shape).astype(np.float32)
    sin = rng.uniform(-1, 1, cs_shape).astype(np.float32)
    gap, tol, control = _adjoint_gap(mode, x, g, cos, sin, start, end)
    assert abs(gap) <= tol, f"<Fx,g> - <x,Bg> = {gap:g} exceeds {tol:g}"
    assert abs(control) > 100 * tol, "negative control: forward passed as its own transpose"


@pytest.mark.parametrize("mode", MODES)
def test_adjoint_identity_long_rows(mode):
    # Rows longer than 4096 (interleave-half takes its heap-scratch path).
    rng = rng_for("adjoint-long", mode)
    x = rng.standard_normal((3, 2, 8200)).astype(np.float32)
    g = rng.standard_normal((3, 2, 8200)).astype(np.float32)
    cos = rng.uniform(-1, 1, (2, 8192)).astype(np.float32)
    sin = rng.uniform(-1, 1, (2, 8192)).astype(np.float32)
    gap, tol, control = _adjoint_gap(mode, x, g, cos, sin, 4, 8196)
    assert abs(gap) <= tol, f"<Fx,g> - <x,Bg> = {gap:g} exceeds {tol:g}"
    assert abs(control) > 100 * tol


def test_aclnn_grad_matches_native_and_golden():
    # The aclnn Grad entry point: mode 1, broadcast and partial slice, all 9 pairs.
    for i, (x_dt, cs_dt) in enumerate(ALL_PAIRS):
        rng = rng_for("aclnn-grad", x_dt, cs_dt)
        aclnn_case(rng, "grad", x_dt, cs_dt, (2, 3, 4, 40), (2, 1, 4, 24), 9, 33,
                   cs_layout=checks.CS_LAYOUTS[i % 4])


def test_aclnn_grad_rejects_other_modes():
    rng = rng_for("aclnn-grad-mode")
    for mode in (0, 2, 3):
        x = checks.values(rng, (1, 2, 2, 16), F32)
        cos, sin = checks.cs_arrays(rng, (1, 2, 2, 16), F32)
        before = x.copy()
        res = aclnn.inplace_partial_rotary_mul_grad(x, cos, sin, mode, [0, 16])
        assert res.workspace == 561002, res
        assert x.tobytes() == before.tobytes()
