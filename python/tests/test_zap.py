"""`Snapshot.zap`: zap bodies on the bundled snapshot give the plans of the `zap` example (the
library's `zap_in` / `zap_out` / `lp_to_lp` called from Rust), and they verify."""

from __future__ import annotations

import json
import subprocess

import pytest

from conftest import REPO


def example_plans(exe) -> dict:
    """Title -> plan dict of the `zap` example's output ("== TITLE (verified)" then JSON)."""
    out = subprocess.run([str(exe), str(REPO / "data" / "snapshot.json")], check=True, capture_output=True,
                         text=True).stdout
    plans = {}
    dec = json.JSONDecoder()
    pos = 0
    while (start := out.find("== ", pos)) >= 0:
        end = out.index("\n", start)
        title = out[start + 3 : end].removesuffix(" (verified)")
        plan, pos = dec.raw_decode(out, end + 1)
        plans[title] = plan
    return plans


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


def test_zaps_match_the_rust_example(bundled, tokens, zap_example):
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
    plans = {}
    for title, b in [
        ("zap-in WBTC + DAI -> WETH/USDC LP", zin_body),
        ("zap-out LP -> USDT", zout_body),
        ("zap-out LP -> WETH 30 % / DAI 70 %", zout2_body),
        ("LP-to-LP WETH/USDC LP -> Curve LP", l2l_body),
    ]:
        plan = bundled.zap(b)
        plan.verify(bundled, b)
        plans[title] = plan.to_dict()
    assert {s["kind"] for s in plans["LP-to-LP WETH/USDC LP -> Curve LP"]["steps"]} >= {"burn", "mint"}
    if zap_example is None:
        pytest.skip("the zap example is not available (no cargo)")
    assert example_plans(zap_example) == plans
