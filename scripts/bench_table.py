#!/usr/bin/env python3
"""Turns `ropekit bench --json` output into the Markdown tables of the README.

Usage: python3 scripts/bench_table.py bench.json [[label=]conditions.json ...]

From the first run (a plain `ropekit bench --json`):
- bandwidth: one row per workload, style and dtype pair: GB/s of the native face at 1
  thread and at the largest thread count, and at that thread count the copy and touch
  baselines of the same run, the operation's share of each (paired per round), the
  scalar path and the SIMD gain over it;
- faces: the same rows through the aclnn face (GetWorkspaceSize + execute + sync) beside
  the native face, in place and out of place, at 1 and N threads: time, the aclnn/native
  ratio (paired per round), p90/median, the library's CPU in the 10 ms after a call, and
  the targets the row misses.
From each further run (e.g. with --host-openmp, --host-parallel-for or --neighbour): one
row per workload, style, dtype and thread count under that run's conditions, named by
the run's options or by the label given before '='.
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def rows_by_config(data):
    rows, order = {}, []
    for r in data["results"]:
        key = (r["id"], r["style"], r["x_dtype"], r["cs_dtype"])
        if key not in rows:
            rows[key] = {}
            order.append(key)
        rows[key][r["threads"]] = r
    return rows, order


def missed(r):
    names = [t["name"] for t in r.get("targets", []) if not t["met"]]
    return ", ".join(names) if names else "met"


def bandwidth_table(data):
    top = data["max_threads"]
    rows, order = rows_by_config(data)
    print(f"| id | style | x/cs | 1 thr GB/s | {top} thr GB/s | copy GB/s | % copy "
          "| touch GB/s | % touch | scalar GB/s | SIMD gain |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for key in order:
        one, full = rows[key].get(1), rows[key].get(top)
        if one is None or full is None:
            continue
        wid, style, xd, cd = key
        scalar = full.get("scalar_gbps", 0.0)
        touch = full.get("touch_gbps", 0.0)
        def pct(base, share):
            return f"{100 * share:.0f}%" if base > 0 else ""
        scalar_cell = f"{scalar:.2f}" if scalar > 0 else ""
        gain = f"{full['gbps'] / scalar:.1f}x" if scalar > 0 else ""
        print(f"| {wid} | {style} | {xd}/{cd} | {one['gbps']:.1f} | {full['gbps']:.1f} "
              f"| {full['copy_gbps']:.1f} | {pct(full['copy_gbps'], full['copy_ratio'])} "
              f"| {touch:.1f} | {pct(touch, full['touch_ratio'])} | {scalar_cell} | {gain} |")


def us(face, key="median_us"):
    return f"{face[key]:.2f}" if face else ""


def ratio(face):
    return f"{face['vs_native']:.2f}x" if face else ""


def faces_table(data):
    top = data["max_threads"]
    rows, order = rows_by_config(data)
    print(f"| id | style | x/cs | native 1 thr us | aclnn 1 thr us | aclnn/native "
          f"| native {top} thr us | aclnn {top} thr us | aclnn/native | aclnn {top}/1 thr "
          f"| aclnn p90/median | out of place aclnn/native | out of place % copy "
          f"| CPU after a call, ms | targets |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for key in order:
        one, full = rows[key].get(1), rows[key].get(top)
        if one is None or full is None:
            continue
        f1, fn = one.get("faces", {}), full.get("faces", {})
        a1, an = f1.get("aclnn"), fn.get("aclnn")
        oop = fn.get("aclnn_oop")
        scale = f"{an['median_us'] / a1['median_us']:.2f}x" if a1 and an else ""
        steady = f"{an['p90_us'] / an['median_us']:.2f}" if an else ""
        after = max(f.get("after_max_ms", 0.0) for f in fn.values()) if fn else 0.0
        oop_copy = f"{100 * oop['copy_ratio']:.0f}%" if oop and oop["copy_ratio"] > 0 else ""
        wid, style, xd, cd = key
        targets = "; ".join(x for x in (missed(one), missed(full)) if x != "met") or "met"
        print(f"| {wid} | {style} | {xd}/{cd} | {us(f1.get('native'))} | {us(a1)} | {ratio(a1)} "
              f"| {us(fn.get('native'))} | {us(an)} | {ratio(an)} | {scale} | {steady} "
              f"| {ratio(oop)} | {oop_copy} | {after:.3f} | {targets} |")


def condition_name(data):
    if "label" in data:
        return data["label"]
    parts = []
    if data.get("host_openmp"):
        parts.append("host OpenMP regions between calls")
    if data.get("host_parallel_for"):
        parts.append("on the host's OpenMP threads")
    if data.get("neighbour"):
        parts.append("a busy neighbour process")
    return ", ".join(parts) or "plain"


def conditions_table(runs):
    print("| conditions | id | style | x/cs | thr | native us | aclnn us | aclnn p90 us "
          "| aclnn vs 1 thr | targets |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---|")
    for data in runs:
        rows, order = rows_by_config(data)
        for key in order:
            for threads in sorted(rows[key]):
                r = rows[key][threads]
                faces = r.get("faces", {})
                a, one = faces.get("aclnn"), rows[key].get(1, {}).get("faces", {}).get("aclnn")
                scale = f"{a['median_us'] / one['median_us']:.2f}x" if a and one else ""
                wid, style, xd, cd = key
                print(f"| {condition_name(data)} | {wid} | {style} | {xd}/{cd} | {threads} "
                      f"| {us(faces.get('native'))} | {us(a)} | {us(a, 'p90_us')} | {scale} "
                      f"| {missed(r)} |")


def main(paths):
    main_run = load(paths[0])
    print("Bandwidth (native face, plan made once, in place):\n")
    bandwidth_table(main_run)
    print("\nFaces (the aclnn round trip beside the native face):\n")
    faces_table(main_run)
    if len(paths) > 1:
        print("\nUnder other conditions:\n")
        runs = []
        for arg in paths[1:]:
            label, _, path = arg.rpartition("=")
            data = load(path)
            if label:
                data["label"] = label
            runs.append(data)
        conditions_table(runs)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
