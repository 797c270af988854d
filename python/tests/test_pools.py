"""The contract-executed vectors of ../shared/vectors through `swapzap.Pool`.

Each record's pool state is written in the snapshot schema (what `Pool.from_dict` reads) and
its op is run through the bindings; the expected values are the EVM's. Ops the snapshot schema
or the Pool API cannot express are counted as not applicable (pair `swap` with a chosen output
and `quote` of Uniswap V2, V2 mint/burn with the protocol fee on, Curve `calc_token_amount`,
`calc_withdraw_one_coin` and `remove_liquidity_imbalance`)."""

from __future__ import annotations

import collections

import pytest

import swapzap
from conftest import read_jsonl, shared

TOKENS = [f"0x{k:040x}" for k in range(1, 9)]
POOL_ID = "0x" + "ab" * 20


def ints(xs):
    return [int(x) for x in xs]


def snapshot_pool(family: str, p: dict) -> dict:
    source, kind = {
        "uniswap_v2": ("uniswap-v2", "constant_product"),
        "solidly": ("aerodrome", "solidly"),
    }.get(family, ("curve", "stableswap"))
    reserves = p.get("reserves", p.get("balances"))
    pool = {"id": f"{source}:{POOL_ID}", "source": source, "kind": kind, "tokens": TOKENS[: len(reserves)],
            "reserves": reserves, "total_supply": p.get("total_supply", "0")}
    if family == "uniswap_v2":
        pool["fee"] = {"num": p["fee"], "den": p["fee_denominator"]}
    elif family == "solidly":
        assert p["fee_denominator"] == "10000"
        pool.update(stable=p["stable"], fee_bps=p["fee"], decimals=ints(p["decimals"]))
    else:
        assert p["fee_denominator"] == "10000000000"
        pool.update(a=str(int(p["A"]) * int(p["A_precision"])), a_precision=p["A_precision"], fee=p["fee"],
                    rates=p["rates"], admin_fee=p["admin_fee"])
        if p["variant"] == "ng":
            pool.update(variant="ng", offpeg_fee_multiplier=p.get("offpeg_fee_multiplier", "0"))
    return pool


def run(v: dict):
    """What the bindings give for a record: a dict of the expect fields it can check, or
    "revert" for a SwapzapError, or None when the op is not applicable."""
    fam, p, op = v["family"], v["pool"], v["op"]
    name = op["name"]
    if fam == "uniswap_v2" and name in ("mint", "burn") and p.get("fee_on") and p.get("k_last", "0") != "0":
        return None
    try:
        pool = swapzap.Pool.from_dict(snapshot_pool(fam, p), decimals=ints(p.get("decimals", ["18"] * len(p.get("reserves", p.get("balances", []))))))
        state = lambda s: (  # noqa: E731
            {"reserves_after" if fam != "curve_stableswap" and fam != "curve_stableswap_ng" else "balances_after": s.balances,
             "total_supply_after": s.total_supply}
        )
        if name in ("get_amount_out",):
            t = int(op["token_in"])
            return {"amount_out": pool.amount_out(t, 1 - t, int(op["amount_in"]))}
        if name == "get_amount_in" and fam == "uniswap_v2":
            t = int(op["token_in"])
            want = int(op["amount_out"])
            contract = pool.get_amount_in(t, 1 - t, want)
            try:
                least = pool.amount_in(t, 1 - t, want)
            except swapzap.SwapzapError as e:
                # where getAmountOut itself overflows at such inputs there is no least input
                assert e.code in (1000, 2000, 2001), e
                return {"amount_in": contract}
            # the least input reaches the output and one less does not (where getAmountOut does
            # not overflow at that size); getAmountIn is never below it
            assert least <= contract
            try:
                reached = pool.amount_out(t, 1 - t, least)
            except swapzap.SwapzapError as e:
                assert e.code == 1000 or e.code == 2000, e
                return {"amount_in": contract}
            assert reached >= want
            assert least == 1 or pool.amount_out(t, 1 - t, least - 1) < want
            return {"amount_in": contract}
        if name == "get_dy":
            return {"amount_out": pool.amount_out(int(op["i"]), int(op["j"]), int(op["dx"]))}
        if name == "exchange":
            out, after = pool.swap(int(op["i"]), int(op["j"]), int(op["dx"]))
            return {"amount_out": out, **state(after)}
        if name in ("mint", "add_liquidity"):
            minted, after = pool.deposit(ints(op["amounts"]))
            assert pool.mint(ints(op["amounts"])) == minted
            return {"minted": minted, **state(after)}
        if name in ("burn", "remove_liquidity"):
            lp = int(op["liquidity"] if "liquidity" in op else op["amount"])
            amounts, after = pool.withdraw(lp)
            assert pool.burn(lp) == amounts
            return {"amounts_out": amounts, **state(after)}
        if name == "remove_liquidity_one_coin":
            out, after = pool.burn_one(int(op["amount"]), int(op["i"]))
            return {"amount_out": out, **state(after)}
        return None
    except swapzap.SwapzapError as e:
        assert isinstance(e.code, int) and 1000 <= e.code < 6000
        return "revert"


def compare(v: dict, got) -> bool:
    e = v["expect"]
    if e.get("revert"):
        return got == "revert"
    if got == "revert":
        return False
    for k, g in got.items():
        if k not in e:
            continue
        want = ints(e[k]) if isinstance(e[k], list) else int(e[k])
        if g != want:
            return False
    return True


FILES = ["uniswap_v2.jsonl", "solidly.jsonl", "curve_stableswap.jsonl", "curve_stableswap_ng.jsonl"]


@pytest.mark.parametrize("name", FILES)
def test_vectors_through_pool(name):
    counts = collections.Counter()
    failed = []
    for v in read_jsonl(shared("vectors", name)):
        got = run(v)
        if got is None:
            counts["not applicable"] += 1
            continue
        if compare(v, got):
            counts["passed"] += 1
        else:
            failed.append((v["id"], v["op"]["name"], got, v["expect"]))
    print(f"{name}: {counts['passed']} passed, {len(failed)} failed, {counts['not applicable']} not applicable")
    assert not failed, failed[:5]
    assert counts["passed"] > 500
