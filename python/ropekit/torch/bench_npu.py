"""python -m ropekit.torch.bench_npu: ropekit.torch_npu's calls against (a) the small-op
torch code torch_npu's documentation gives as their equivalent, in eager mode, and (b) a
copy of the bytes the call writes (Tensor.copy_ into preallocated tensors), in the same run.

Rows: npu_rotary_mul on x [4, 4096, 32, 128] with r1, r2 [1, 4096, 1, 128] (forward, and
forward plus the backward of x), npu_apply_rotary_pos_emb in place on q [1, 4096, 32, 128]
and k [1, 4096, 8, 128], npu_interleave_rope on x [1, 64, 4096, 64] with cos, sin
[1, 1, 4096, 64]. Each is timed in process CPU time (time.process_time: every thread's
time, so a 2-thread run that keeps both cores busy counts both), median of interleaved
rounds. "x eager" is eager / ropekit, "x copy" ropekit / copy (1.0: as cheap as moving the
bytes once). For the out-of-place calls, "fresh copy" copies into a tensor allocated per
call (torch.empty_like(x).copy_(x)), as the call allocates its output: large fresh
tensors come from the system with their page faults each time.
"""
import argparse
import statistics
import sys
import time

import torch

from .. import torch_npu

DTYPES = {"f32": torch.float32, "bf16": torch.bfloat16}


# ---- torch_npu's documented equivalents ----


def rotary_mul_half(x, r1, r2):
    """npu_rotary_mul's "half" mode as its documentation writes it."""
    x1, x2 = torch.chunk(x, 2, -1)
    x_new = torch.cat((-x2, x1), dim=-1)
    return r1 * x + r2 * x_new


def _rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(q, k, cos, sin):
    """npu_apply_rotary_pos_emb's equivalent: q * cos + rotate_half(q) * sin, and for k."""
    return q * cos + _rotate_half(q) * sin, k * cos + _rotate_half(k) * sin


def interleave_rope(x, cos, sin):
    """npu_interleave_rope's formula: x viewed [..., D/2, 2], transposed, then rotate-half."""
    b, n, s, d = x.shape
    q = x.view(b, n, s, d // 2, 2).transpose(-1, -2).reshape(b, n, s, d)
    return q * cos + _rotate_half(q) * sin


# ---- the rows ----


def _rand(shape, dtype, g):
    return torch.randn(shape, generator=g).to(dtype)


def _cos_sin(shape, dtype, g):
    """A rotation in the half layout (elements j and j + D/2 share an angle): repeated
    in-place calls keep q's magnitude."""
    ang = torch.rand(shape[:-1] + (shape[-1] // 2,), generator=g, dtype=torch.float64)
    ang = torch.cat((ang, ang), dim=-1)
    return ang.cos().to(dtype), ang.sin().to(dtype)


def _fresh(*tensors):
    return lambda: [torch.empty_like(t).copy_(t) for t in tensors]


def rows(dtype, seq=4096):
    """(name, ropekit, eager, copy, fresh copy) callables of each row for one dtype; seq is
    S (4096 in the rows measured, smaller for a smoke run)."""
    g = torch.Generator().manual_seed(1)
    out = []
    x = _rand((4, seq, 32, 128), dtype, g)
    r1, r2 = _cos_sin((1, seq, 1, 128), dtype, g)
    dst = torch.empty_like(x)
    out.append(("npu_rotary_mul fwd", lambda: torch_npu.npu_rotary_mul(x, r1, r2),
                lambda: rotary_mul_half(x, r1, r2), lambda: dst.copy_(x), _fresh(x)))

    xg = x.clone().requires_grad_()
    grad = _rand(x.shape, dtype, g)
    dst2 = torch.empty_like(x)

    def fwd_bwd(fn):
        def run():
            fn(xg, r1, r2).backward(grad)
            xg.grad = None
        return run

    out.append(("npu_rotary_mul fwd+bwd", fwd_bwd(torch_npu.npu_rotary_mul),
                fwd_bwd(rotary_mul_half), lambda: (dst.copy_(x), dst2.copy_(grad)),
                _fresh(x, grad)))

    q, k = _rand((1, seq, 32, 128), dtype, g), _rand((1, seq, 8, 128), dtype, g)
    cos, sin = _cos_sin((1, seq, 1, 128), dtype, g)
    q0, k0 = q.clone(), k.clone()
    out.append(("npu_apply_rotary_pos_emb", lambda: torch_npu.npu_apply_rotary_pos_emb(
        q, k, cos, sin, "BSND"), lambda: apply_rotary_pos_emb(q, k, cos, sin),
        lambda: (q.copy_(q0), k.copy_(k0)), None))

    if dtype != torch.float32:  # CANN's InterleaveRope takes float16 and bfloat16 only
        xi = _rand((1, 64, seq, 64), dtype, g)
        ci, si = _cos_sin((1, 1, seq, 64), dtype, g)
        dsti = torch.empty_like(xi)
        out.append(("npu_interleave_rope", lambda: torch_npu.npu_interleave_rope(xi, ci, si),
                    lambda: interleave_rope(xi, ci, si), lambda: dsti.copy_(xi),
                    _fresh(xi)))
    return out


def _cpu_time(fn):
    t0 = time.process_time()
    fn()
    return time.process_time() - t0


def measure(row, threads, rounds):
    torch.set_num_threads(threads)
    name, *fns = row
    fns = [fn for fn in fns if fn is not None]
    for fn in fns:  # warm-up: first-touch page faults, plans, prepared calls
        fn()
    samples = [[] for _ in fns]
    for _ in range(rounds):
        for i, fn in enumerate(fns):
            samples[i].append(_cpu_time(fn))
    rk, eager, copy, *fresh = (statistics.median(s) * 1e3 for s in samples)
    return {"row": name, "threads": threads, "ropekit_ms": rk, "eager_ms": eager,
            "copy_ms": copy, "x_eager": eager / rk, "x_copy": rk / copy,
            "fresh_ms": fresh[0] if fresh else None,
            "x_fresh": rk / fresh[0] if fresh else None}


def _cell(v, fmt, unit=""):
    return "" if v is None else f"{v:{fmt}}{unit}"


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m ropekit.torch.bench_npu", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dtypes", default=",".join(DTYPES))
    ap.add_argument("--threads", default="1,2", help="thread counts, comma separated")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--seq", type=int, default=4096, help="S of every row (smoke runs: less)")
    a = ap.parse_args(argv)
    print("| call | dtype | threads | ropekit CPU ms | eager CPU ms | x eager | copy CPU ms "
          "| x copy | fresh copy CPU ms | x fresh copy |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for dname in a.dtypes.split(","):
        for row in rows(DTYPES[dname], a.seq):
            for n in (int(t) for t in a.threads.split(",")):
                r = measure(row, n, a.rounds)
                print(f"| {r['row']} | {dname} | {n} | {r['ropekit_ms']:.1f} "
                      f"| {r['eager_ms']:.1f} | {r['x_eager']:.1f}x | {r['copy_ms']:.1f} "
                      f"| {r['x_copy']:.2f}x | {_cell(r['fresh_ms'], '.1f')} "
                      f"| {_cell(r['x_fresh'], '.2f', 'x')} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
