#!/usr/bin/env python3
"""Runs the reorder benchmarks and prints a markdown table (DESIGN §10).

Usage: scripts/perf_report.py [--bench build/tests/bench/reorder_bench]
                              [--filter REGEX] [--repetitions N] [--json FILE]
                              [--problems FILE] [--cold]

--problems FILE adds rows of any shape and tag pair (reorder_bench's
format: "DIMS SDT:STAG>DDT:DTAG [scale] [s8s8]" per line, e.g.
"16x256x64x64 f32:nChw8c>f32:nchw"); with --filter=extra/ only those run.
--cold flushes each contender's source and destination out of the caches
before its timed call: memory-bound rows whatever the host's L3 holds.

Every row comes from one process run in which relayout, oneDNN and a
streaming copy of the same bytes are measured interleaved, iteration by
iteration (medians), so the ratios hold on a noisy machine even when the
absolute GB/s move. Needs only the Python standard library.
"""
import argparse
import json
import math
import os
import subprocess
import sys


def run(bench, flt, reps, problems, cold):
    cmd = [bench, "--benchmark_format=json"]
    if cold:
        cmd.append("--cold")
    if problems:
        cmd.append("--problems=" + problems)
    if flt:
        cmd.append("--benchmark_filter=" + flt)
    if reps > 1:
        cmd += ["--benchmark_repetitions=%d" % reps,
                "--benchmark_report_aggregates_only=true"]
    out = subprocess.run(cmd, check=True, stdout=subprocess.PIPE).stdout
    return json.loads(out)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=os.path.join(
        here, "..", "build", "tests", "bench", "reorder_bench"))
    ap.add_argument("--filter", default="")
    ap.add_argument("--repetitions", type=int, default=1)
    ap.add_argument("--json", help="read this benchmark JSON instead of running")
    ap.add_argument("--problems", help="extra problems, one per line (see above)")
    ap.add_argument("--cold", action="store_true",
                    help="flush src and dst out of the caches before each timed call")
    a = ap.parse_args()
    if a.json:
        with open(a.json) as f:
            data = json.load(f)
    else:
        data = run(a.bench, a.filter, a.repetitions, a.problems, a.cold)

    rows, lat, ratios, kern = [], [], [], []
    for b in data.get("benchmarks", []):
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = b["name"].split("/min_time")[0].replace("_median", "")
        label = b.get("label", "")
        if name.startswith("kernel/"):
            kern.append((name.replace("/real_time", ""), b["real_time"],
                         b.get("time_unit", "us"), b.get("GBps", 0) * 1e-9, label))
            continue
        if name.startswith("latency/"):
            # Manually timed latencies (latency/create/...) carry their
            # median as a counter: the mean of a shared machine has outliers.
            name = name.replace("/manual_time", "").replace("/real_time", "")
            lat.append((name, b["real_time"], b.get("time_unit", "us"),
                        b.get("median_us"), label))
            continue
        impl, _, dnnl_impl = label.partition(" | onednn ")
        impl = impl.split(" ", 1)[-1]
        x = b.get("dnnl_x")
        if x:
            ratios.append(x)
        rows.append((name, impl, b.get("MB", 0), b.get("rl_GBps", 0),
                     b.get("copy_pct", 0), b.get("dnnl_GBps"), x, dnnl_impl))

    print("| problem | relayout impl | MB moved | relayout GB/s | % of copy |"
          " oneDNN GB/s | relayout / oneDNN | oneDNN impl |")
    print("|---|---|---:|---:|---:|---:|---:|---|")
    for n, impl, mb, gb, pct, dgb, x, dimpl in rows:
        print("| %s | %s | %.0f | %.2f | %.0f%% | %s | %s | %s |" % (
            n, impl, mb, gb, pct,
            "%.2f" % dgb if dgb is not None else "-",
            "%.2fx" % x if x is not None else "-", dimpl or "-"))
    if ratios:
        g = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("\ngeomean relayout / oneDNN: %.2fx over %d problems; slowest: %.2fx"
              % (g, len(ratios), min(ratios)))
    if kern:
        print("\n| kernel family (in cache, manifest) | time | GB/s | impl |\n|---|---:|---:|---|")
        for n, t, u, g, label in kern:
            print("| %s | %.1f %s | %.1f | %s |" % (n, t, u, g, label))
    if lat:
        print("\n| latency | time (mean) | median | note |\n|---|---:|---:|---|")
        for n, t, u, med, label in lat:
            print("| %s | %.3f %s | %s | %s |" % (
                n, t, u, "%.3f us" % med if med is not None else "-", label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
