"""python -m ropekit.torch.bench: ropekit's torch ops against torch written the way users
write RoPE (vLLM's forward_native, a slice update for the partial op), in eager mode and
under torch.compile, on the `ropekit bench` workloads.

For every workload, dtype and thread count they are timed in interleaved rounds (median
of the per-call times of each). "ropekit" is what a user calls: vLLM's in-place
rotary_embedding for rope (W1, W2), the functional op for mrope (W5), CANN's in-place
ops for the partial rotary workloads (P1, P2, G2); for rope the functional op is timed
too ("functional": it allocates its outputs, as eager and compiled torch do). GB/s counts
the bytes the operation must move (as `ropekit bench` does); speed-ups are eager /
ropekit and compiled / ropekit. Last, the decode step W1 through vLLM's in-place op: the
time of one call from Python, the dispatcher included.
"""
import argparse
import json
import statistics
import sys
import time

import torch

from . import ops

# (id, what, kind, params); sizes as in `ropekit bench` (bench/workloads.c).
WORKLOADS = {
    "W1": ("decode 64 tok, 32/8 heads, hs 128", "rope", dict(t=64, hq=32, hk=8, hs=128, rot=128,
                                                             maxpos=8192)),
    "W2": ("prefill 4096 tok, 32/8 heads", "rope", dict(t=4096, hq=32, hk=8, hs=128, rot=128,
                                                        maxpos=8192)),
    "W5": ("mrope 4096 tok, 28/4 heads [16,24,24]", "mrope",
           dict(t=4096, hq=28, hk=4, hs=128, rot=128, maxpos=8192, sections=[16, 24, 24])),
    "P1": ("x [96,1,1,512] slice [448,512)", "pr", dict(x=(96, 1, 1, 512), cs=(96, 1, 1, 64),
                                                        start=448, end=512)),
    "P2": ("x [4,4096,32,128] slice [0,128)", "pr", dict(x=(4, 4096, 32, 128),
                                                         cs=(4, 4096, 1, 128), start=0,
                                                         end=128)),
    "G2": ("gradient of P2", "grad", dict(x=(4, 4096, 32, 128), cs=(4, 4096, 1, 128), start=0,
                                          end=128)),
}
DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}


# ---- torch as users write it ----


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def forward_native(positions, query, key, cache, head_size, is_neox):
    """vLLM's RotaryEmbedding.forward_native (rope)."""
    cos, sin = cache.index_select(0, positions).chunk(2, dim=-1)
    return _apply(query, cos, sin, head_size, is_neox), _apply(key, cos, sin, head_size, is_neox)


def mrope_forward_native(positions, query, key, cache, head_size, is_neox, sections):
    """vLLM's MRotaryEmbedding.forward_native: section k of the coefficients from the
    cache row of position row k."""
    cos, sin = cache[positions].chunk(2, dim=-1)  # [3, T, R/2]
    cos = torch.cat([m[i] for i, m in enumerate(cos.split(sections, dim=-1))], dim=-1)
    sin = torch.cat([m[i] for i, m in enumerate(sin.split(sections, dim=-1))], dim=-1)
    return _apply(query, cos, sin, head_size, is_neox), _apply(key, cos, sin, head_size, is_neox)


def _apply(x, cos, sin, head_size, is_neox):
    shape = x.shape
    x = x.view(shape[0], -1, head_size)
    rot = cos.shape[-1] * 2
    xr, xp = x[..., :rot], x[..., rot:]
    c, s = cos.unsqueeze(-2).to(x.dtype), sin.unsqueeze(-2).to(x.dtype)
    if is_neox:
        x1, x2 = xr.chunk(2, dim=-1)
        out = torch.cat((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1)
    else:
        x1, x2 = xr[..., ::2], xr[..., 1::2]
        out = torch.stack((x1 * c - x2 * s, x2 * c + x1 * s), dim=-1).flatten(-2)
    return torch.cat((out, xp), dim=-1).reshape(shape)


def rotate_pairs(x):
    return torch.stack((-x[..., 1::2], x[..., ::2]), dim=-1).flatten(-2)


def partial_rotary_slice_update(x, cos, sin, start, end):
    """The partial op as a slice update: x[..., start:end] = v*cos + rot(v)*sin."""
    v = x[..., start:end]
    x[..., start:end] = v * cos + rotate_pairs(v) * sin
    return x


def partial_rotary_grad_slice_update(g, cos, sin, start, end):
    """Its gradient (the transpose): w = g*cos + rot^T(g*sin)."""
    v = g[..., start:end]
    gs = v * sin
    g[..., start:end] = v * cos + torch.stack((gs[..., 1::2], -gs[..., ::2]), dim=-1).flatten(-2)
    return g


# ---- the cases ----


class Case:
    """Inputs of one workload and dtype, and the three ways to run it."""

    def __init__(self, wid, dtype):
        self.wid, self.dtype = wid, dtype
        _, kind, p = WORKLOADS[wid]
        self.kind, self.p = kind, p
        g = torch.Generator().manual_seed(1)
        if kind in ("rope", "mrope"):
            m = len(p["sections"]) if kind == "mrope" else 1
            self.positions = torch.randint(0, p["maxpos"], (m, p["t"]) if m > 1 else (p["t"],),
                                           generator=g)
            self.q = torch.randn(p["t"], p["hq"] * p["hs"], generator=g).to(dtype)
            self.k = torch.randn(p["t"], p["hk"] * p["hs"], generator=g).to(dtype)
            ang = torch.rand(p["maxpos"], p["rot"] // 2, generator=g, dtype=torch.float64)
            self.cache = torch.cat((ang.cos(), ang.sin()), dim=1).to(dtype)
            heads = p["hq"] + p["hk"]
            xs = torch.finfo(dtype).bits // 8
            self.bytes = p["t"] * (2 * heads * p["hs"] * xs + p["rot"] * xs + 8 * m)
        else:
            self.x = torch.randn(p["x"], generator=g).to(dtype)
            # a rotation: both members of a pair share an angle (repeated calls keep x's
            # magnitude, so timing never drifts into subnormal arithmetic)
            half = p["cs"][:-1] + (p["cs"][-1] // 2,)
            ang = torch.rand(half, generator=g, dtype=torch.float64).repeat_interleave(2, -1)
            self.cos, self.sin = ang.cos().to(dtype), ang.sin().to(dtype)
            rows = self.x.numel() // p["x"][-1]
            length = p["end"] - p["start"]
            xs = torch.finfo(dtype).bits // 8
            self.bytes = 2 * rows * length * xs + 2 * self.cos.numel() * xs

    def ropekit(self):
        """What a user of the workload calls: vLLM's in-place op for rope, the functional
        op for mrope (vLLM's mrope path is torch code), CANN's in-place ops for the
        partial rotary workloads."""
        p = self.p
        if self.kind == "rope":
            return lambda: ops.rotary_embedding(self.positions, self.q, self.k, p["hs"],
                                                self.cache, True)
        if self.kind == "mrope":
            return lambda: ops.rope_with_sin_cos_cache(self.positions, self.q, self.k,
                                                       self.cache, p["hs"], True,
                                                       mrope_section=p["sections"])
        op = (ops.inplace_partial_rotary_mul if self.kind == "pr" else
              ops.inplace_partial_rotary_mul_backward)
        slc = [p["start"], p["end"]]
        return lambda: op(self.x, self.cos, self.sin, rotary_mode="interleave",
                          partial_slice=slc)

    def ropekit_functional(self):
        """The out-of-place op for rope (None elsewhere): the outputs eager and compiled
        torch allocate too."""
        p = self.p
        if self.kind != "rope":
            return None
        return lambda: ops.rope_with_sin_cos_cache(self.positions, self.q, self.k, self.cache,
                                                   p["hs"], True)

    def eager_fn(self):
        p = self.p
        if self.kind == "rope":
            return (lambda pos, q, k, c: forward_native(pos, q, k, c, p["hs"], True),
                    (self.positions, self.q, self.k, self.cache))
        if self.kind == "mrope":
            return (lambda pos, q, k, c: mrope_forward_native(pos, q, k, c, p["hs"], True,
                                                              p["sections"]),
                    (self.positions, self.q, self.k, self.cache))
        fn = partial_rotary_slice_update if self.kind == "pr" else partial_rotary_grad_slice_update
        return ((lambda x, c, s: fn(x, c, s, p["start"], p["end"])),
                (self.x, self.cos, self.sin))


def _time(fn, budget_s, min_runs=3):
    fn()
    samples, start = [], time.perf_counter()
    while len(samples) < min_runs or time.perf_counter() - start < budget_s:
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return samples


def measure(case, threads, budget_s, rounds, compiled):
    torch.set_num_threads(threads)
    fn, args = case.eager_fn()
    runs = {"ropekit": case.ropekit(), "eager": lambda: fn(*args),
            "compiled": lambda: compiled(*args)}
    if case.ropekit_functional():
        runs["ropekit_functional"] = case.ropekit_functional()
    samples = {k: [] for k in runs}
    for _ in range(rounds):
        for name, run in runs.items():
            samples[name] += _time(run, budget_s / rounds)
    med = {k: statistics.median(v) for k, v in samples.items()}
    return {
        "id": case.wid, "dtype": str(case.dtype).split(".")[-1], "threads": threads,
        "bytes": case.bytes,
        **{f"{k}_us": v * 1e6 for k, v in med.items()},
        **{f"{k}_gbps": case.bytes / v / 1e9 for k, v in med.items()},
        "vs_eager": med["eager"] / med["ropekit"], "vs_compiled": med["compiled"] / med["ropekit"],
        "functional_vs_compiled": (med["compiled"] / med["ropekit_functional"]
                                   if "ropekit_functional" in med else None),
    }


def decode_call(threads, budget_s):
    """W1 through vLLM's in-place op from Python: the per-call time, dispatcher included."""
    torch.set_num_threads(threads)
    case = Case("W1", torch.float32)
    p = case.p
    call = lambda: ops.rotary_embedding(case.positions, case.q, case.k, p["hs"], case.cache,
                                        True)
    samples = _time(call, budget_s)
    return statistics.median(samples) * 1e6


def markdown(results, decode):
    """The results as the table of docs/torch.md."""
    lines = ["| id | dtype | threads | ropekit us | GB/s | eager us | x eager | compiled us "
             "| x compiled | functional us | functional x compiled |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in results:
        fn = r.get("ropekit_functional_us")
        fn_cells = f"{fn:.1f} | {r['functional_vs_compiled']:.1f}x" if fn else " | "
        lines.append(f"| {r['id']} | {r['dtype']} | {r['threads']} | {r['ropekit_us']:.1f} "
                     f"| {r['ropekit_gbps']:.1f} | {r['eager_us']:.1f} | {r['vs_eager']:.1f}x "
                     f"| {r['compiled_us']:.1f} | {r['vs_compiled']:.1f}x | {fn_cells} |")
    lines.append("")
    for n, us in decode.items():
        lines.append(f"W1 f32 through `torch.ops.ropekit.rotary_embedding` (one call from Python), "
                     f"{n} thread(s): {us:.1f} us per call")
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ropekit.torch.bench", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--workloads", default=",".join(WORKLOADS))
    ap.add_argument("--dtypes", default=",".join(DTYPES))
    ap.add_argument("--threads", type=int, default=torch.get_num_threads(),
                    help="largest thread count (runs 1 and this)")
    ap.add_argument("--budget", type=float, default=1.0, help="seconds per measurement")
    ap.add_argument("--quick", action="store_true", help="short measurements")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table (docs/torch.md)")
    a = ap.parse_args(argv)
    budget = 0.15 if a.quick else a.budget
    threads = sorted({1, a.threads})
    results = []
    for wid in a.workloads.split(","):
        for dname in a.dtypes.split(","):
            case = Case(wid, DTYPES[dname])
            fn, _ = case.eager_fn()
            torch._dynamo.reset()
            compiled = torch.compile(fn, fullgraph=True)
            for n in threads:
                r = measure(case, n, budget, 3, compiled)
                results.append(r)
                if not a.json and not a.markdown:
                    extra = (f"  functional {r['ropekit_functional_us']:10.1f} us"
                             if "ropekit_functional_us" in r else "")
                    print(f"{r['id']:3} {r['dtype']:9} thr {n}: ropekit {r['ropekit_us']:10.1f} us "
                          f"({r['ropekit_gbps']:6.1f} GB/s)  eager {r['eager_us']:10.1f} us "
                          f"({r['vs_eager']:5.1f}x)  compiled {r['compiled_us']:10.1f} us "
                          f"({r['vs_compiled']:5.1f}x){extra}", flush=True)
    decode = {n: decode_call(n, budget) for n in threads}
    if a.markdown:
        print(markdown(results, decode))
    elif a.json:
        json.dump({"torch": torch.__version__, "results": results,
                   "decode_call_us": decode}, sys.stdout, indent=1)
        print()
    else:
        for n, us in decode.items():
            print(f"W1 f32 through torch.ops.ropekit.rotary_embedding, {n} thread(s): "
                  f"{us:.1f} us per call")
    return 0


if __name__ == "__main__":
    sys.exit(main())
