"""Checks what one of CANN's aclnn RoPE example programs printed against a float64
reference of the inputs its source states.

usage: check_cann_aclnn_example.py EXAMPLE.cpp OUTPUT.txt

The example's source gives x, cos and sin (std::vector<float> xHostData = {...}, ...),
their shapes (xShape, cosShape = {...}) and the rotary mode (int64_t mode = m); a gradient
example (aclnnRotaryPositionEmbeddingGrad) gives dy (dyHostData, dyShape) instead of x and
prints dx. The reference rotates each row of x's last dim in float64 (SPEC §3.3's pairs,
run backward for dy: §4.2; cos/sin broadcast over x's leading dims where their dim is 1)
and every "result[i] is: v" line
must be within fp32's bound (SPEC §6: 1e-5 of the two products' magnitudes) plus the
printed precision (%f: 5e-7)."""
import re
import sys


def _vector(src, name):
    m = re.search(r"\b" + name + r"\s*=\s*\{([^}]*)\}", src)
    if not m:
        sys.exit(f"{name} not found in the example")
    return [float(v) for v in m.group(1).replace("\n", " ").split(",") if v.strip()]


def _pairs(mode, d):
    """(input a, input b, output a, output b) of each pair of a row of d elements."""
    h, q = d // 2, d // 4
    if mode == 0:
        return [(j, j + h, j, j + h) for j in range(h)]
    if mode == 1:
        return [(2 * i, 2 * i + 1, 2 * i, 2 * i + 1) for i in range(h)]
    if mode == 2:
        return [(b + j, b + j + q, b + j, b + j + q) for b in (0, 2 * q) for j in range(q)]
    if mode == 3:
        return [(2 * j, 2 * j + 1, j, j + h) for j in range(h)]
    sys.exit(f"mode {mode} is not a rotary mode")


def reference(x, c, s, xshape, cshape, mode, backward=False):
    d = xshape[-1]
    rows = len(x) // d
    out, mag = [0.0] * len(x), [0.0] * len(x)
    lead = xshape[:-1]
    for r in range(rows):
        idx, rem = [], r
        for ext in reversed(lead):
            idx.append(rem % ext)
            rem //= ext
        idx.reverse()
        cr = 0
        for k, ext in enumerate(cshape[:-1]):
            cr = cr * ext + (0 if ext == 1 else idx[k])
        v, cc, ss = x[r * d:(r + 1) * d], c[cr * d:(cr + 1) * d], s[cr * d:(cr + 1) * d]
        for ia, ib, oa, ob in _pairs(mode, d):
            if backward:  # dx[ia] = dy[oa] cos[oa] + dy[ob] sin[ob], dx[ib] likewise
                ga, gb = v[oa], v[ob]
                out[r * d + ia] = ga * cc[oa] + gb * ss[ob]
                out[r * d + ib] = gb * cc[ob] - ga * ss[oa]
                mag[r * d + ia] = abs(ga * cc[oa]) + abs(gb * ss[ob])
                mag[r * d + ib] = abs(gb * cc[ob]) + abs(ga * ss[oa])
                continue
            a, b = v[ia], v[ib]
            out[r * d + oa] = a * cc[oa] - b * ss[oa]
            out[r * d + ob] = b * cc[ob] + a * ss[ob]
            mag[r * d + oa] = abs(a * cc[oa]) + abs(b * ss[oa])
            mag[r * d + ob] = abs(b * cc[ob]) + abs(a * ss[ob])
    return out, mag


def main():
    src = open(sys.argv[1], encoding="utf-8").read()
    printed = open(sys.argv[2], encoding="utf-8").read()
    backward = "dyHostData" in src
    first = "dy" if backward else "x"
    x, c, s = (_vector(src, n) for n in (first + "HostData", "cosHostData", "sinHostData"))
    xshape = [int(v) for v in _vector(src, first + "Shape")]
    cshape = [int(v) for v in _vector(src, "cosShape")]
    mode = int(re.search(r"int64_t\s+mode\s*=\s*(-?\d+)", src).group(1))
    want, mag = reference(x, c, s, xshape, cshape, mode, backward)
    got = {int(i): float(v) for i, v in re.findall(r"result\[(\d+)\] is: (\S+)", printed)}
    if sorted(got) != list(range(len(want))):
        sys.exit(f"printed {len(got)} results, want {len(want)}")
    bad = [i for i in range(len(want)) if abs(got[i] - want[i]) > 1e-5 * mag[i] + 5e-7]
    for i in bad[:5]:
        print(f"result[{i}] = {got[i]!r}, reference {want[i]!r}")
    print(f"{len(want) - len(bad)} of {len(want)} results match the float64 reference "
          f"(mode {mode}, {first} {xshape})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
