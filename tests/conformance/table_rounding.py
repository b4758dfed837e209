"""Rounding model shared by the table tests: RNE of float64 values to each table dtype,
done on a grid independently of numpy's and the library's casts, and the comparison of a
library table with once-rounded float64 references: each stored value must be the
float64 value rounded once (RNE) to the table's dtype.

Why a tolerance at all: the library and this test evaluate the same real numbers with
different float64 operations (1 / pow(base, x) against base ** -x, the scaling formulas
in another order, and two different libm cos/sin implementations). Their float64 results
can differ by a few units in the last place, magnified by the angle (|angle| up to
max_positions). Where the exact value lies that close to a rounding boundary of the
output type, the two float64 values may round to neighbouring outputs. So an entry
matches when the library's value is the once-rounded value of some number within
delta = mscale * (|angle| * 2^-46 + 2^-50) of the reference (about 64 float64 ulps of
the angle and of the result); everywhere else the match is exact. The number of entries
that needed the window is also bounded, so a systematic error cannot hide in it.
"""
import numpy as np

F32, F16, BF16 = "f32", "f16", "bf16"
DTYPES = (F32, F16, BF16)
# (mantissa bits, minimum normal exponent, maximum exponent) of each format
FORMATS = {F32: (23, -126, 127), F16: (10, -14, 15), BF16: (7, -126, 127)}


def round_once(v, dtype):
    """RNE of float64 values to `dtype`, returned as float64 (inf on overflow)."""
    mant, emin, emax = FORMATS[dtype]
    v = np.asarray(v, np.float64)
    _, e = np.frexp(v)                     # |v| in [2^(e-1), 2^e)
    lead = np.maximum(e - 1, emin)         # subnormals share the spacing of 2^emin
    ulp = np.ldexp(1.0, lead - mant)
    with np.errstate(over="ignore", invalid="ignore"):
        r = np.rint(v / ulp) * ulp         # exact scaling by a power of two; rint is RNE
        biggest = (2.0 - 2.0 ** -mant) * 2.0 ** emax
        r = np.where(np.abs(r) > biggest, np.copysign(np.inf, v), r)
    return r


def bits_of(rounded, dtype):
    """Bit patterns of values that are exactly representable in `dtype`."""
    if dtype == F32:
        return rounded.astype(np.float32).view(np.uint32)
    if dtype == F16:
        return rounded.astype(np.float16).view(np.uint16)
    return (rounded.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def widen_bits(b, dtype):
    """float64 values of bit patterns of `dtype` (exact)."""
    if dtype == F32:
        return b.view(np.float32).astype(np.float64)
    if dtype == F16:
        return b.view(np.float16).astype(np.float64)
    return (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def lib_bits(arr, dtype):
    return np.ascontiguousarray(arr).view(np.uint32 if dtype == F32 else np.uint16)


def check_rounded(got, exact, window, dtype, what):
    """got (library storage array) == RNE(exact) everywhere, except entries whose exact
    value lies within `window` of a rounding boundary, which may take the rounding of
    any value in [exact - window, exact + window]. Returns the number of entries that
    needed the window."""
    got_bits = lib_bits(got, dtype)
    want = bits_of(round_once(exact, dtype), dtype)
    differ = got_bits != want
    if not differ.any():
        return 0
    # rounding is monotonic: the roundings of [exact - window, exact + window] are the
    # representable values between the roundings of its two ends
    lo = round_once(exact - window, dtype)
    hi = round_once(exact + window, dtype)
    got_val = widen_bits(got_bits, dtype)
    bad = differ & ~((got_val >= lo) & (got_val <= hi))
    if bad.any():
        idx = [tuple(int(k) for k in w) for w in np.argwhere(bad)[:5]]
        detail = [(i, hex(int(got_bits[i])), hex(int(want[i])), float(exact[i])) for i in idx]
        raise AssertionError(f"{what}: {int(bad.sum())} values not the once-rounded float64 "
                             f"value (index, got, want, exact): {detail}")
    n = int(differ.sum())
    assert n <= max(2, exact.size // 1000), f"{what}: {n} near-boundary differences"
    return n


def window(angles, mscale):
    """The float64 evaluation window of values of magnitude mscale at these angles."""
    return mscale * (np.abs(angles) * 2.0 ** -46 + 2.0 ** -50)
