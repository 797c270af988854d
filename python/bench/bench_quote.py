"""How much the Python binding adds to a quote, and how `quote_batch` scales.

    python bench/bench_quote.py [--runs 200] [--batch 192]

1. For a few public instances of ../shared/routing: the median time of ``snap.quote(request)``
   from Python against the median of the same quote from Rust (the ``time_quote`` example of
   this crate, which takes the same path: parse, ``RouteRequest::from_body``,
   ``route::quote``), measured the same way on the same machine.
2. ``quote_batch`` of BATCH requests (trade sizes swept on the 400-pool instance) against the
   same requests quoted one by one from Python.

A timing script, not a test: run it on a quiet machine and report the load (it prints
``os.getloadavg()``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import time
from pathlib import Path

import swapzap

HERE = Path(__file__).resolve().parent
PYTHON_DIR = HERE.parent
REPO = PYTHON_DIR.parent
SHARED = Path(os.environ.get("SWAPZAP_SHARED", REPO.parent / "shared"))
INSTANCES = ["pub-00-single-t5-p10", "pub-07-single-t25-p100", "pub-10-multiinput-t50-p300", "pub-11-single-t60-p400"]


def python_median_ns(snap: swapzap.Snapshot, request: dict, runs: int) -> int:
    snap.quote(request)
    times = []
    for _ in range(runs):
        t = time.perf_counter_ns()
        snap.quote(request)
        times.append(time.perf_counter_ns() - t)
    return int(statistics.median(times))


def time_quote(*args: str) -> list:
    """JSON lines of the Rust timing example."""
    subprocess.run(["cargo", "build", "--quiet", "--release", "--example", "time_quote"], cwd=PYTHON_DIR, check=True)
    exe = PYTHON_DIR / "target" / "release" / "examples" / "time_quote"
    out = subprocess.run([str(exe), *args], check=True, capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def rust_medians(paths, runs: int) -> dict:
    return {Path(d["instance"]).stem: d for d in time_quote(str(runs), *map(str, paths))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--batch", type=int, default=192)
    a = ap.parse_args()
    print(f"load average before: {os.getloadavg()}")
    paths = [SHARED / "routing" / "instances" / f"{n}.json" for n in INSTANCES]
    rust = rust_medians(paths, a.runs)
    print(f"{'instance':<28} {'python us':>10} {'rust us':>10} {'route us':>10} {'added us':>9} {'added %':>8}")
    for p in paths:
        inst = json.loads(p.read_text())
        snap = swapzap.Snapshot.from_dict(inst["snapshot"])
        # interleave: Python, then the Rust figure of the same run of the machine
        py = python_median_ns(snap, inst["request"], a.runs)
        rs = rust[p.stem]["body_ns"]
        added = py - rs
        print(
            f"{p.stem:<28} {py / 1e3:>10.1f} {rs / 1e3:>10.1f} {rust[p.stem]['route_ns'] / 1e3:>10.1f} "
            f"{added / 1e3:>9.1f} {100.0 * added / rs:>7.1f}%"
        )
    # batch scaling on the 400-pool instance: trade sizes 1/64 .. 3x of the instance's amount
    inst = json.loads(paths[-1].read_text())
    snap = swapzap.Snapshot.from_dict(inst["snapshot"])
    base = int(inst["request"]["inputTokens"][0]["amount"])
    reqs = []
    for k in range(a.batch):
        r = json.loads(json.dumps(inst["request"]))
        r["inputTokens"][0]["amount"] = str(base * (k + 1) // 64 + 1)
        reqs.append(r)
    seq, par, seq_cores, par_cores = [], [], [], []
    for _ in range(5):
        # CPU seconds of this process per wall second: how many cores it actually got
        t, c = time.perf_counter(), time.process_time()
        one = [snap.quote(r) for r in reqs]
        seq.append(time.perf_counter() - t)
        seq_cores.append((time.process_time() - c) / seq[-1])
        t, c = time.perf_counter(), time.process_time()
        many = snap.quote_batch(reqs)
        par.append(time.perf_counter() - t)
        par_cores.append((time.process_time() - c) / par[-1])

    assert [p.to_dict() for p in many] == [p.to_dict() for p in one]
    s, b = statistics.median(seq), statistics.median(par)
    print(
        f"Python quote_batch of {a.batch} requests ({inst['name']}): one by one {s * 1e3:.1f} ms, "
        f"quote_batch {b * 1e3:.1f} ms, speed-up {s / b:.2f}x on {os.cpu_count()} cores (median of 5); "
        f"the process got {statistics.median(seq_cores):.2f} cores one by one, "
        f"{statistics.median(par_cores):.2f} batched"
    )
    (r,) = time_quote("batch", str(a.batch), str(paths[-1]))
    rs, rb = r["sequential_ns"] / 1e6, r["batch_ns"] / 1e6
    print(f"Rust   route::quote_batch, the same requests: one by one {rs:.1f} ms, batch {rb:.1f} ms, "
          f"speed-up {rs / rb:.2f}x")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
