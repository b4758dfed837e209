"""Float64 references of the ops, written from their definitions in the torch idioms
users write (HF's rotate_half, vLLM's forward_native chunk/stack form, CANN's pairwise
interleave), independent of ropekit. Each returns (out, mag): mag = |term1| + |term2| of
the two products every rotated element sums, for tolerances."""
import torch

# |out - ref| <= RTOL[dtype] * mag + ATOL[dtype] for every rotated element (SPEC §6).
# float64 is computed in double: one rounding per product and sum, here and in ropekit.
RTOL = {torch.float32: 2e-6, torch.float16: 1e-3, torch.bfloat16: 8e-3, torch.float64: 2.0 ** -50}
ATOL = {torch.float32: 1e-30, torch.float16: 6e-8, torch.bfloat16: 1e-30, torch.float64: 1e-300}
_BITS = {2: torch.int16, 4: torch.int32, 8: torch.int64}


def rotate_half(x, sign=-1.0):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((sign * x2, x1), dim=-1)


def rotate_pairs(x, sign=-1.0):
    """CANN's interleave: pairs (2i, 2i+1) -> (-x[2i+1], x[2i])."""
    return torch.stack((sign * x[..., 1::2], x[..., 0::2]), dim=-1).flatten(-2)


def _rotated(v, mode, sign=-1.0):
    """(v, rot(v)) in the layout the coefficients index (the output layout); sign +1
    gives the same permutation without the negation (for magnitudes)."""
    if mode == "half":
        return v, rotate_half(v, sign)
    if mode == "interleave":
        return v, rotate_pairs(v, sign)
    if mode == "quarter":
        a, b = v.chunk(2, dim=-1)
        return v, torch.cat((rotate_half(a, sign), rotate_half(b, sign)), dim=-1)
    if mode == "interleave-half":  # DeepSeek: de-interleave, then rotate-half
        w = torch.cat((v[..., 0::2], v[..., 1::2]), dim=-1)
        return w, rotate_half(w, sign)
    raise ValueError(mode)


def _forward(x, c, s, mode, start, end, sign=-1.0):
    v = x[..., start:end]
    base, rot = _rotated(v, mode, sign)
    t1, t2 = base * c, rot * s
    out = x.clone()
    out[..., start:end] = t1 + t2
    return out, t1, t2


def partial_rotary(x, r1, r2, mode, start, end):
    """InplacePartialRotaryMul forward: x[..., start:end] -> v*c + rot(v)*s."""
    out, t1, t2 = _forward(x.double(), r1.double(), r2.double(), mode, start, end)
    mag = torch.zeros_like(out)
    mag[..., start:end] = t1.abs() + t2.abs()
    return out, mag


def partial_rotary_backward(g, r1, r2, mode, start, end):
    """The transpose of the forward, by reverse-mode differentiation of the reference;
    magnitudes by the same differentiation of the forward with |c|, |s| and no negation,
    applied to |g|."""
    g64 = g.double().detach()
    grads = []
    for coeff, sign, grad_in in ((lambda t: t.double(), -1.0, g64),
                                 (lambda t: t.double().abs(), 1.0, g64.abs())):
        x0 = torch.zeros_like(g64, requires_grad=True)
        out, _, _ = _forward(x0, coeff(r1), coeff(r2), mode, start, end, sign)
        grads.append(torch.autograd.grad(out, x0, grad_in)[0])
    mag = grads[1].clone()
    mag[..., :start] = 0
    mag[..., end:] = 0
    return grads[0], mag


def _pangu_rows(sections):
    """openPangu-VL's interleaved rows: a greedy walk over the rows' budgets (3 sections
    (t, h, w): t - 1, h, w, then one closing t; 2 sections (h, w): h, w), each step the row
    with budget left that has used the smallest share of it (lowest row on ties), never
    the previous step's row while another one has budget."""
    budget = list(sections[:1]) + list(sections[1:])
    closing = len(sections) == 3
    if closing:
        budget[0] -= 1
    used = [0] * len(budget)
    out = []
    for _ in range(sum(budget)):
        live = [r for r in range(len(budget)) if used[r] < budget[r]]
        choice = [r for r in live if not out or r != out[-1]] or live
        best = min(choice, key=lambda r: (used[r] / budget[r], r))
        used[best] += 1
        out.append(best)
    return out + [0] * closing


def _coefficients(cache, positions, sections, cache_mode):
    """Per-token cos, sin [T, R/2] (vLLM/CANN: the cache row of each token's position;
    mrope: section k of the row of position row k, Qwen3-VL's interleaving (mode 1),
    ERNIE-4.5-VL's (2) or openPangu-VL's (3))."""
    cache = cache.double()
    if sections is None:
        return cache[positions.long()].chunk(2, dim=-1)
    rows = [cache[positions[k].long()].chunk(2, dim=-1) for k in range(len(sections))]
    h = cache.shape[1] // 2
    if cache_mode == 0:
        bounds, acc = [], 0
        for s in sections:
            bounds.append((acc, acc + s))
            acc += s
        cos = torch.cat([rows[k][0][:, a:b] for k, (a, b) in enumerate(bounds)], dim=-1)
        sin = torch.cat([rows[k][1][:, a:b] for k, (a, b) in enumerate(bounds)], dim=-1)
        return cos, sin
    if cache_mode == 2:  # ERNIE-4.5-VL, sections (h, w, t): [h w h w ... t t t]
        src = [1 + j % 2 if j < sections[0] + sections[1] else 0 for j in range(h)]
    elif cache_mode == 3:
        src = _pangu_rows(sections)
    else:  # interleaved: j % 3 == 1 from row 1, j % 3 == 2 from row 2, while in range
        src = [0] * h
        for j in range(h):
            if j % 3 == 1 and j // 3 < sections[1]:
                src[j] = 1
            elif j % 3 == 2 and j // 3 < sections[2]:
                src[j] = 2
    cos = torch.stack([rows[src[j]][0][:, j] for j in range(h)], dim=-1)
    sin = torch.stack([rows[src[j]][1][:, j] for j in range(h)], dim=-1)
    return cos, sin


def rope(positions, x, cache, head_size, is_neox, sections=None, cache_mode=0):
    """vLLM's forward_native for one of query/key ([T, H*hs] or [T, H, hs])."""
    cos, sin = _coefficients(cache, positions, sections, cache_mode)
    shape = x.shape
    t = shape[0]
    x64 = x.double().reshape(t, -1, head_size)
    rot = cache.shape[1]
    xr, xp = x64[..., :rot], x64[..., rot:]
    c, s = cos.unsqueeze(-2), sin.unsqueeze(-2)
    if is_neox:
        x1, x2 = xr.chunk(2, dim=-1)
    else:
        x1, x2 = xr[..., ::2], xr[..., 1::2]
    o1, o2 = x1 * c - x2 * s, x2 * c + x1 * s
    m1 = (x1 * c).abs() + (x2 * s).abs()
    m2 = (x2 * c).abs() + (x1 * s).abs()
    if is_neox:
        out, mag = torch.cat((o1, o2), dim=-1), torch.cat((m1, m2), dim=-1)
    else:
        out = torch.stack((o1, o2), dim=-1).flatten(-2)
        mag = torch.stack((m1, m2), dim=-1).flatten(-2)
    out = torch.cat((out, xp), dim=-1).reshape(shape)
    mag = torch.cat((mag, torch.zeros_like(xp)), dim=-1).reshape(shape)
    return out, mag


def assert_close(got, want, mag, dtype, passthrough=None):
    """Rotated elements within RTOL*mag + ATOL of the float64 reference; elements that are
    not rotated (passthrough mask) bit-exact to the input `passthrough[1]`."""
    err = (got.double() - want).abs()
    bound = RTOL[dtype] * mag + ATOL[dtype] + (want.abs() * 2.0 ** -24 if dtype ==
                                                torch.float32 else 0)
    bad = err > bound
    if passthrough is not None:
        mask, original = passthrough
        bits = _BITS[got.element_size()]
        assert torch.equal(got[mask].view(bits), original[mask].view(bits)), \
            "pass-through not bit-exact"
        bad &= ~mask
    if bad.any():
        i = bad.nonzero()[0].tolist()
        raise AssertionError(f"{int(bad.sum())} elements out of tolerance; first at {i}: "
                             f"got {got[tuple(i)].item()!r}, want {want[tuple(i)].item()!r}, "
                             f"bound {bound[tuple(i)].item():.3g}")
