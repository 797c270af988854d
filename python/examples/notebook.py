"""A research-notebook session with swapzap, as a script (each ``# %%`` is a notebook cell).

    pip install ./python pandas matplotlib
    python python/examples/notebook.py [--out DIR]

1. Quote the bundled request (``data/request.json``: 400 WETH to USDT) on the bundled snapshot
   (``data/snapshot.json``) and check the plan exactly.
2. Show the route as a table (a pandas DataFrame when pandas is installed).
3. Sweep the trade size with ``quote_batch`` and plot the output and the price impact against
   it (matplotlib), with the dual upper bound beside the output.
4. Write the route picture: ``route.svg`` (standalone) and ``route.dot`` (Graphviz).

In Jupyter, a ``Plan`` as the last expression of a cell draws its route by itself.
"""

# %%
from __future__ import annotations

import argparse
import json
from pathlib import Path

import swapzap

REPO = Path(__file__).resolve().parents[2]

ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
ap.add_argument("--out", type=Path, default=Path("."), help="folder for route.svg, route.dot and sweep.png")
args, _ = ap.parse_known_args()
args.out.mkdir(parents=True, exist_ok=True)

snap = swapzap.Snapshot.from_json((REPO / "data" / "snapshot.json").read_text())
request = json.loads((REPO / "data" / "request.json").read_text())
plan = snap.quote(request)
plan.verify(snap, request)  # every step re-simulated exactly; inputs, outputs and minimums checked
print(snap)
print(plan)

# %% The route as a table
tokens = {t["address"]: t for t in snap.tokens()}


def whole(amount: int, token: str) -> float:
    """Base units as whole tokens (a float, for display)."""
    return amount / 10 ** tokens[token]["decimals"]


rows = [
    {
        "pool": s["pool"],
        "swap": f"{tokens[s['token_in']]['symbol']} -> {tokens[s['token_out']]['symbol']}",
        "amount in": whole(s["amount_in"], s["token_in"]),
        "amount out": whole(s["amount_out"], s["token_out"]),
    }
    for s in plan.steps
    if s["kind"] == "swap"
]
try:
    import pandas as pd

    table = pd.DataFrame(rows)
    print(table.to_string(index=False, float_format=lambda x: f"{x:,.6f}"))
except ImportError:
    for r in rows:
        print(f"{r['pool']:<58} {r['swap']:<14} {r['amount in']:>20,.6f} {r['amount out']:>20,.6f}")
out = plan.outputs[0]
print(
    f"output {whole(out['amount'], out['token']):,.6f} {tokens[out['token']]['symbol']} "
    f"(min {whole(out['min_amount'], out['token']):,.6f}); within {plan.gap:.2e} of the bound; "
    f"price impact {100 * plan.price_impact:.4f} %"
)

# %% Output and price impact against trade size
base = int(request["inputTokens"][0]["amount"])
fractions = [2**k / 64 for k in range(0, 10)]  # 1/64 .. 8x of the bundled 400 WETH
sweep = []
for f in fractions:
    r = json.loads(json.dumps(request))
    r["inputTokens"][0]["amount"] = str(int(base * f))
    sweep.append(r)
plans = snap.quote_batch(sweep)  # in parallel, the same plans as one by one
sizes = [whole(int(r["inputTokens"][0]["amount"]), request["inputTokens"][0]["tokenAddress"]) for r in sweep]
outputs = [whole(p.amount_out, out["token"]) for p in plans]
bounds = [p.upper_bound / 10 ** tokens[out["token"]]["decimals"] for p in plans]
impact = [100 * p.price_impact for p in plans]
for s, o, i in zip(sizes, outputs, impact):
    print(f"{s:>10,.3f} WETH -> {o:>16,.2f} USDT   impact {i:.4f} %")
try:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4))
    ax1.plot(sizes, outputs, "o-", label="plan output")
    ax1.plot(sizes, bounds, "x--", label="upper bound")
    ax1.set(xscale="log", yscale="log", xlabel="WETH in", ylabel="USDT out", title="Output")
    ax1.legend()
    ax2.plot(sizes, impact, "o-")
    ax2.set(xscale="log", xlabel="WETH in", ylabel="price impact (%)", title="Price impact")
    fig.tight_layout()
    fig.savefig(args.out / "sweep.png", dpi=110)
    print(f"wrote {args.out / 'sweep.png'}")
except ImportError:
    print("matplotlib is not installed: pip install matplotlib for the plots")

# %% The route picture
(args.out / "route.svg").write_text(plan.to_svg())
(args.out / "route.dot").write_text(plan.to_dot())
print(f"wrote {args.out / 'route.svg'} and {args.out / 'route.dot'} (dot -Tpng route.dot -o route.png)")
plan  # noqa: B018  (in a notebook: the route picture)
