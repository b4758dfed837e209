#!/usr/bin/env python3
"""Turns `ropekit bench --json` output into the Markdown table of the README.

Usage: ropekit bench --json > bench.json && python3 scripts/bench_table.py bench.json

One row per workload, style and dtype pair: GB/s at 1 thread and at the largest thread
count, and at that thread count the copy and touch baselines of the same run, the
operation's share of each (copy_ratio and touch_ratio, paired per round, when the JSON
has them), the scalar path and the SIMD gain over it, and whether the README's target
for the row is met.
"""
import json
import sys


def main(path):
    with open(path) as f:
        data = json.load(f)
    top = data["max_threads"]
    rows = {}
    order = []
    for r in data["results"]:
        key = (r["id"], r["style"], r["x_dtype"], r["cs_dtype"])
        if key not in rows:
            rows[key] = {}
            order.append(key)
        rows[key][r["threads"]] = r

    print(f"| id | style | x/cs | 1 thr GB/s | {top} thr GB/s | copy GB/s | % copy "
          "| touch GB/s | % touch | scalar GB/s | SIMD gain | target |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for key in order:
        one, full = rows[key].get(1), rows[key].get(top)
        if one is None or full is None:
            continue
        wid, style, xd, cd = key
        target = {True: "met", False: "missed", None: ""}[full["target"]]
        if wid == "D1":  # latency, not bandwidth
            print(f"| {wid} | {style} | {xd}/{cd} | {one['median_us']:.2f} us "
                  f"| {full['median_us']:.2f} us | | | | | | | {target} |")
            continue
        def pct(base, ratio_key):
            if base <= 0:
                return ""
            return f"{100 * full.get(ratio_key, full['gbps'] / base):.0f}%"
        scalar = full.get("scalar_gbps", 0.0)
        scalar_cell = f"{scalar:.2f}" if scalar > 0 else ""
        gain = f"{full['gbps'] / scalar:.1f}x" if scalar > 0 else ""
        touch = full.get("touch_gbps", 0.0)
        print(f"| {wid} | {style} | {xd}/{cd} | {one['gbps']:.1f} | {full['gbps']:.1f} "
              f"| {full['copy_gbps']:.1f} | {pct(full['copy_gbps'], 'copy_ratio')} | {touch:.1f} "
              f"| {pct(touch, 'touch_ratio')} | {scalar_cell} | {gain} | {target} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
