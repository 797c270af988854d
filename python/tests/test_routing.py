"""Every public routing instance of ../shared/routing through `Snapshot.quote`: the plan
verifies, equals what the `quote` example prints with `--json`, and passes `score.py`; batch
quotes equal sequential ones."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import swapzap
from conftest import SHARED, shared

INSTANCES = sorted((SHARED / "routing" / "instances").glob("pub-*.json"))


def load(path: Path):
    inst = json.loads(path.read_text())
    return inst, swapzap.Snapshot.from_dict(inst["snapshot"])


def test_there_are_public_instances():
    assert len(INSTANCES) == 30, shared("routing", "instances")


@pytest.mark.parametrize("path", INSTANCES, ids=lambda p: p.stem)
def test_instance_plan_verifies_and_scores(path, quote_example):
    inst, snap = load(path)
    plan = snap.quote(inst["request"])
    plan.verify(snap, inst["request"])
    d = plan.to_dict()
    assert d == json.loads(plan.to_json()) == json.loads(plan.to_json(pretty=False))
    # the plan's properties are the dict's, amounts as ints
    assert plan.outputs == [
        {"token": o["token"], "amount": int(o["amount"]), "min_amount": int(o["min_amount"])} for o in d["outputs"]
    ]
    assert plan.amount_out == int(d["outputs"][0]["amount"])
    assert len(plan) == len(d["steps"]) == len(plan.steps)
    assert plan.upper_bound is not None and plan.upper_bound >= plan.value > 0
    assert plan.bound_max_hops is None and plan.gas_price is None  # a bound over every plan
    assert 0 <= plan.gap < 1e-3
    # the bound's rounding part: within it, in the dict, and the float gap is the rest
    s = plan.rounding_slack
    assert s is not None and 0 <= s <= plan.upper_bound and d["rounding_slack"] == s
    f = plan.upper_bound - s
    assert plan.float_gap == pytest.approx((f - plan.value) / f, rel=1e-9, abs=1e-15)
    # the quote example on the same instance prints the same plan
    if quote_example is not None:
        out = subprocess.run(
            [str(quote_example), "--instance", str(path), "--json"], check=True, capture_output=True, text=True
        ).stdout
        assert json.loads(out) == d
        assert out.rstrip("\n") == plan.to_json()
    # the exact scorer passes it
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(d, f)
    r = subprocess.run(
        [sys.executable, str(shared("routing", "tools", "score.py")), str(path), f.name, "--json"],
        capture_output=True,
        text=True,
    )
    Path(f.name).unlink()
    assert r.returncode == 0, r.stdout + r.stderr
    score = json.loads(r.stdout)
    assert score["pass"] and not score["problems"]
    assert score["ratio"] >= 0.999


def test_batch_equals_sequential():
    reqs, snaps = [], []
    inst, snap = load(INSTANCES[11])  # 400 pools
    base = inst["request"]
    amount = int(base["inputTokens"][0]["amount"])
    for k in range(1, 25):
        r = json.loads(json.dumps(base))
        r["inputTokens"][0]["amount"] = str(amount * k // 8 + 1)
        reqs.append(r)
    one_by_one = [snap.quote(r).to_dict() for r in reqs]
    batch = snap.quote_batch(reqs)
    assert [p.to_dict() for p in batch] == one_by_one
    # options apply the same way
    assert [p.to_dict() for p in snap.quote_batch(reqs[:4], max_hops=2)] == [
        snap.quote(r, max_hops=2).to_dict() for r in reqs[:4]
    ]


def test_batch_reports_bad_requests():
    inst, snap = load(INSTANCES[0])
    good = inst["request"]
    bad = json.loads(json.dumps(good))
    bad["inputTokens"][0]["amount"] = "0"
    with pytest.raises(swapzap.SwapzapError) as e:
        snap.quote_batch([good, bad])
    assert e.value.code == 3020
    mixed = snap.quote_batch([good, bad, good], return_exceptions=True)
    assert isinstance(mixed[1], swapzap.SwapzapError) and mixed[1].code == 3020
    assert mixed[0].to_dict() == mixed[2].to_dict() == snap.quote(good).to_dict()


def test_dicts_and_json_text_read_the_same(bundled, bundled_request):
    text = json.dumps(bundled_request)
    assert bundled.quote(text).to_dict() == bundled.quote(bundled_request).to_dict()
    as_tuples = dict(bundled_request, inputTokens=tuple(bundled_request["inputTokens"]))
    assert bundled.quote(as_tuples).to_dict() == bundled.quote(bundled_request).to_dict()
    inst = json.loads(INSTANCES[5].read_text())
    a = swapzap.Snapshot.from_dict(inst["snapshot"])
    b = swapzap.Snapshot.from_json(json.dumps(inst["snapshot"]))
    assert a.quote(inst["request"]).to_dict() == b.quote(inst["request"]).to_dict()
    assert a.pools() == b.pools() and a.tokens() == b.tokens()


SINGLE = [p for p in INSTANCES if "-single-" in p.name][:4]


@pytest.mark.parametrize("path", SINGLE, ids=lambda p: p.stem)
def test_exact_out(path, quote_example):
    inst, snap = load(path)
    full = snap.quote(inst["request"])
    wanted = full.amount_out // 2
    plan = snap.quote(inst["request"], exact_out=wanted)
    plan.verify(snap, inst["request"], exact_out=wanted)
    spent = plan.inputs[0]["amount"]
    assert plan.amount_out >= wanted and spent < int(inst["request"]["inputTokens"][0]["amount"])
    # an exact-in quote of what it spends delivers the same; 1e-6 less of the input does not reach it
    again = json.loads(json.dumps(inst["request"]))
    again["inputTokens"][0]["amount"] = str(spent)
    assert snap.quote(again).amount_out == plan.amount_out
    again["inputTokens"][0]["amount"] = str(spent - spent // 10**6 - 1)
    assert snap.quote(again).amount_out < wanted
    with pytest.raises(swapzap.SwapzapError) as e:  # a plan for less than it spends
        full.verify(snap, inst["request"], exact_out=full.amount_out + 1)
    assert e.value.code == 4014 and "below the wanted amount" in str(e.value)
    if quote_example is not None:
        out = subprocess.run(
            [str(quote_example), "--instance", str(path), "--json", "--exact-out", str(wanted)],
            check=True, capture_output=True, text=True,
        ).stdout
        assert json.loads(out) == plan.to_dict()
    assert [p.to_dict() for p in snap.quote_batch([inst["request"]] * 2, exact_out=wanted)] == [plan.to_dict()] * 2


def test_exact_out_errors(bundled, bundled_request):
    out = bundled.quote(bundled_request).amount_out
    for bad, code in ((out * 10, 4006), (0, 4010), (-1, 4010), (2**256, 4010), ("5", 4010)):
        with pytest.raises(swapzap.SwapzapError) as e:
            bundled.quote(bundled_request, exact_out=bad)
        assert e.value.code == code, bad


def test_options_change_the_plan_as_in_rust(bundled, bundled_request):
    plan = bundled.quote(bundled_request)
    one_hop = bundled.quote(bundled_request, max_hops=1)
    assert one_hop.bound_max_hops == 1
    assert all(s["token_in"] == plan.inputs[0]["token"] for s in one_hop.steps)
    assert one_hop.amount_out <= plan.amount_out
    one_hop.verify(bundled, bundled_request, max_hops=1)
    with pytest.raises(swapzap.SwapzapError) as e:  # its bound is over one-hop plans only
        one_hop.verify(bundled, bundled_request)
    assert e.value.code == 4014 and "bound_max_hops" in str(e.value)
    with pytest.raises(swapzap.SwapzapError) as e:  # the full plan's second hops are beyond
        plan.verify(bundled, bundled_request, max_hops=1)
    assert e.value.code == 4014 and "hop limit" in str(e.value)
    priced = bundled.quote(bundled_request, gas_price=1e-6)
    assert priced.gas_units > 0 and priced.gas_price == 1e-6
    priced.verify(bundled, bundled_request)


def test_snapshot_tables(bundled):
    tokens = bundled.tokens()
    pools = bundled.pools()
    assert len(pools) == 24 and len(tokens) == 34
    lp = [t for t in tokens if t["lp_of"] is not None]
    assert {t["lp_of"] for t in lp} <= {p["id"] for p in pools}
    assert bundled.chain_id == 8453
    assert "uniswap-v2" in bundled.sources
    # a pool of the snapshot prices as the same pool built from its dict
    p = pools[0]
    a = bundled.pool(p["id"])
    b = swapzap.Pool.from_dict(p, decimals=[next(t["decimals"] for t in tokens if t["address"] == x) for x in p["tokens"]])
    amount = int(p["reserves"][0]) // 100
    assert a.amount_out(0, 1, amount) == b.amount_out(p["tokens"][0], p["tokens"][1], amount) > 0


def test_a_pool_reverting_in_simulation_is_listed_in_excluded():
    """A V2 pair at the uint112 edge, priced like its neighbour, reverts when the plan sends it
    WETH (the reserve would pass uint112): the quote goes on without it and `Plan.excluded`
    names it with the revert, as the plan's dict does."""
    weth, usdc, usdt = (f"0x{'0' * 38}{x}" for x in ("a1", "b2", "c3"))

    def pair(addr, a, b, reserves=("1000000000000000000000", "3000000000000")):
        return {"id": f"uniswap-v2:{addr}", "source": "uniswap-v2", "kind": "constant_product",
                "tokens": [a, b], "reserves": list(reserves), "fee": {"num": "3", "den": "1000"}}

    r0 = 2**112 - 1 - 1000
    edge = f"0x{'0' * 36}1002"
    snap = swapzap.Snapshot.from_dict({
        "chain_id": 1,
        "tokens": [{"address": weth, "symbol": "WETH", "decimals": 18},
                   {"address": usdc, "symbol": "USDC", "decimals": 6},
                   {"address": usdt, "symbol": "USDT", "decimals": 6}],
        "pools": [pair(f"0x{'0' * 36}1001", weth, usdc),
                  pair(edge, weth, usdc, (str(r0), str(r0 * 3_000_000_000 // 10**18))),
                  pair(f"0x{'0' * 36}1003", weth, usdt)],
    })
    plan = snap.quote({
        "chainId": 1,
        "inputTokens": [{"tokenAddress": weth, "amount": str(10**18)}],
        "outputTokens": [{"tokenAddress": usdc, "proportion": 1}],
        "slippageLimitPercent": 0.5,
        "userAddr": "0x31Ad0fB76c7b4AAd8Afc25dA1eCC71afF19808Db",
    })
    assert [x["pool"] for x in plan.excluded] == [f"uniswap-v2:{edge}"]
    assert plan.excluded == plan.to_dict()["excluded"]
    assert all(s["pool"] != f"uniswap-v2:{edge}" for s in plan.steps)
    # 1 WETH into the plain pair alone: getAmountOut(1e18, 1000e18, 3e12)
    x = 10**18 * 997
    assert plan.amount_out >= x * 3_000_000_000_000 // (10**21 * 1000 + x)
