"""`Snapshot.zap`: zap bodies on the bundled snapshot give the plans of the `zap` example (the
library's `zap_in` / `zap_out` / `lp_to_lp` called from Rust), and they verify."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import REPO


def example_plan(exe, body: dict, tmp_path) -> dict:
    """The `zap` example's plan (`--json`) for a zap body on the bundled snapshot."""
    path = tmp_path / "zap-request.json"
    path.write_text(json.dumps(body))
    snapshot = REPO / "data" / "snapshot.json"  # the example takes --snapshot and --request together
    out = subprocess.run(
        [str(exe), "--snapshot", str(snapshot), "--request", str(path), "--json"],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def tokens(bundled):
    return {t["symbol"]: t["address"] for t in bundled.tokens() if t["lp_of"] is None}


def lp_of(bundled, pool) -> str:
    return next(t["address"] for t in bundled.tokens() if t["lp_of"] == pool["id"])


def body(inputs, outputs):
    return {
        "chainId": 8453,
        "inputTokens": [{"tokenAddress": t, "amount": str(a)} for t, a in inputs],
        "outputTokens": [{"tokenAddress": t, "proportion": p} for t, p in outputs],
        "slippageLimitPercent": 0.5,
    }


def test_zaps_match_the_rust_example(bundled, tokens, zap_example, tmp_path):
    pools = bundled.pools()
    target = next(p for p in pools if p["kind"] == "constant_product"
                  and {tokens["WETH"], tokens["USDC"]} <= set(p["tokens"]))
    curve = next(p for p in pools if p["kind"] == "stableswap")
    lp, curve_lp = lp_of(bundled, target), lp_of(bundled, curve)

    zin_body = body([(tokens["WBTC"], 50_000_000), (tokens["DAI"], 7000 * 10**18)], [(lp, 1)])
    zin = bundled.zap(zin_body)
    zin.verify(bundled, zin_body)
    assert [o["token"] for o in zin.outputs] == [lp] and zin.amount_out > 0
    assert zin.to_dict()["zap_fee"]["rate_bps"] == 1
    half = zin.amount_out // 2
    zout_body = body([(lp, half)], [(tokens["USDT"], 1)])
    zout2_body = body([(lp, half)], [(tokens["WETH"], 0.3), (tokens["DAI"], 0.7)])
    l2l_body = body([(lp, half)], [(curve_lp, 1)])
    bundled_zap = json.loads((REPO / "data" / "zap-request.json").read_text())
    bodies = [zin_body, zout_body, zout2_body, l2l_body, bundled_zap]
    plans = []
    for b in bodies:
        plan = bundled.zap(b)
        plan.verify(bundled, b)
        plans.append(plan.to_dict())
    assert {s["kind"] for s in plans[3]["steps"]} >= {"burn", "mint"}  # LP-to-LP burns and mints
    if zap_example is None:
        pytest.skip("the zap example is not available (no cargo)")
    for b, plan in zip(bodies, plans):
        assert example_plan(zap_example, b, tmp_path) == plan


def test_zap_with_gas(bundled, tokens):
    body = json.loads((REPO / "data" / "zap-request.json").read_text())
    plan = bundled.zap(body, gas_price=1e-9)
    plan.verify(bundled, body)
    assert plan.gas_price == 1e-9
