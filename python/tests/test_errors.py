"""Each kind of bad input raises `SwapzapError` (a `ValueError`) with the library's stable code,
and nothing else escapes."""

from __future__ import annotations

import copy
import json
import math
import pickle

import pytest

import swapzap
from conftest import REPO

WETH = "0x871a5bb9551428cbf417b18853b2088ddcf3ab3a"
USDT = "0xdfd3c19fc05f01668134ddc1ac095f04406fa41b"


def code_of(f, *args, **kw) -> int:
    with pytest.raises(swapzap.SwapzapError) as e:
        f(*args, **kw)
    err = e.value
    assert isinstance(err, ValueError)
    assert isinstance(err.code, int) and isinstance(err.detail, str) and err.detail
    assert isinstance(err.retryable, bool)
    assert err.retryable == (err.error_class == "retryable")
    assert err.http_status == {"validation": 400, "no-route": 422, "retryable": 503}[err.error_class]
    return err.code


def with_(d: dict, path, value) -> dict:
    d = copy.deepcopy(d)
    cur = d
    for k in path[:-1]:
        cur = cur[k]
    if value is KeyError:
        del cur[path[-1]]
    else:
        cur[path[-1]] = value
    return d


REQUEST_CASES = [
    # (what, change, code)
    ("unknown field", (["slipage"], 1), 3000),
    ("amount as a JSON number", (["inputTokens", 0, "amount"], 10**18), 3000),
    ("missing outputTokens", (["outputTokens"], KeyError), 3000),
    ("unsupported chain", (["chainId"], 0), 3001),
    ("another chain than the snapshot's", (["chainId"], 10), 3003),
    ("address format", (["inputTokens", 0, "tokenAddress"], "0x1234"), 3010),
    ("bad checksum", (["inputTokens", 0, "tokenAddress"], "0x871A5bb9551428cbf417b18853b2088ddcf3ab3a"), 3011),
    ("userAddr not checksummed", (["userAddr"], "0x31ad0fb76c7b4aad8afc25da1ecc71aff19808db"), 3012),
    ("base58 on EVM", (["inputTokens", 0, "tokenAddress"], "So11111111111111111111111111111111111111112"), 3010),
    ("zero amount", (["inputTokens", 0, "amount"], "0"), 3020),
    ("amount 2^256", (["inputTokens", 0, "amount"], str(2**256)), 3020),
    ("negative amount", (["inputTokens", 0, "amount"], "-5"), 3020),
    ("proportion above 1", (["outputTokens", 0, "proportion"], 1.5), 3030),
    ("proportions below 1", (["outputTokens", 0, "proportion"], 0.5), 3031),
    ("slippage above 50", (["slippageLimitPercent"], 51), 3040),
    ("no inputs", (["inputTokens"], []), 3050),
    ("no outputs", (["outputTokens"], []), 3051),
    ("input is output", (["outputTokens", 0, "tokenAddress"], WETH), 3056),
    ("unknown source", (["sourceWhitelist"], ["uniswap_v2x"]), 3060),
    ("empty whitelist", (["sourceWhitelist"], []), 3061),
    ("token not in the snapshot", (["outputTokens", 0, "tokenAddress"], "0x" + "12" * 20), 4002),
]


@pytest.mark.parametrize("what,change,code", REQUEST_CASES, ids=[c[0] for c in REQUEST_CASES])
def test_bad_requests(bundled, bundled_request, what, change, code):
    req = with_(bundled_request, *change)
    assert code_of(bundled.quote, req) == code
    assert code_of(bundled.quote_batch, [bundled_request, req]) == code
    assert code_of(bundled.validate, req) == code if code < 4000 else True


def test_requests_that_are_not_json(bundled, bundled_request):
    assert code_of(bundled.quote, "{not json") == 3000
    assert code_of(bundled.quote, {"chainId": object()}) == 3000
    assert code_of(bundled.quote, with_(bundled_request, ["slippageLimitPercent"], math.nan)) == 3000
    assert code_of(bundled.quote, [1, 2]) == 3000
    assert code_of(bundled.quote, {1: 2}) == 3000  # keys must be strings
    deep: list = []
    for _ in range(1000):
        deep = [deep]
    assert code_of(bundled.quote, dict(bundled_request, userAddr=deep)) == 3000
    assert code_of(bundled.quote, dict(bundled_request, chainId=2**70)) == 3000
    assert code_of(bundled.quote, dict(bundled_request, slippageLimitPercent=math.inf)) == 3000
    assert code_of(bundled.quote, None) == 3000
    assert code_of(bundled.quote_batch, 5) == 4010


def test_bad_options(bundled, bundled_request):
    for kw in ({"max_hops": 0}, {"max_hops": 33}, {"max_hops": -1}, {"max_hops": "2"}, {"max_hops": True}, {"gas_price": -1.0},
               {"gas_price": math.inf}, {"gas_price": math.nan}, {"gas_price": "x"}):
        assert code_of(bundled.quote, bundled_request, **kw) == 4010, kw


def test_no_route(bundled, bundled_request):
    # an LP token no pool trades: the graph holds it, no path reaches it
    lp = next(t["address"] for t in bundled.tokens() if t["lp_of"] is not None)
    req = with_(bundled_request, ["outputTokens", 0, "tokenAddress"], lp)
    assert code_of(bundled.quote, req) in (4000, 4003)


SNAPSHOT = json.loads((REPO / "data" / "snapshot.json").read_text())
SNAPSHOT_CASES = [
    ("not JSON", None, 3000),
    ("pool kind unknown", (["pools", 0, "kind"], "weighted"), 3000),
    ("bad token address", (["tokens", 0, "address"], "0xnothex"), 4033),
    ("duplicate token", (["tokens", 1, "address"], SNAPSHOT["tokens"][0]["address"]), 4030),
    ("bad reserve", (["pools", 0, "reserves", 0], "12x"), 4031),
    ("one coin", (["pools", 0, "tokens"], SNAPSHOT["pools"][0]["tokens"][:1]), 4032),
    ("pool coin not in the token table", (["pools", 0, "tokens", 0], "0x" + "34" * 20), 4002),
]


@pytest.mark.parametrize("what,change,code", SNAPSHOT_CASES, ids=[c[0] for c in SNAPSHOT_CASES])
def test_bad_snapshots(what, change, code):
    if change is None:
        assert code_of(swapzap.Snapshot.from_json, "{") == code
        assert code_of(swapzap.Snapshot.from_json, 5) == 4010
        return
    d = with_(SNAPSHOT, *change)
    assert code_of(swapzap.Snapshot.from_dict, d) == code
    assert code_of(swapzap.Snapshot.from_json, json.dumps(d)) == code


def pair(**kw) -> dict:
    p = {
        "id": "uniswap-v2:0x" + "ab" * 20,
        "source": "uniswap-v2",
        "kind": "constant_product",
        "tokens": ["0x" + "01" * 20, "0x" + "02" * 20],
        "reserves": ["1000000", "2000000"],
        "fee": {"num": "3", "den": "1000"},
    }
    p.update(kw)
    return p


def test_bad_pool_calls():
    pool = swapzap.Pool.from_dict(pair())
    a, b = pool.tokens
    assert pool.amount_out(a, b, 1000) == 1992  # Uniswap V2 getAmountOut, by hand
    assert code_of(pool.amount_out, a, b, -1) == 4010
    assert code_of(pool.amount_out, a, b, 1.5) == 4010
    assert code_of(pool.amount_out, a, b, "1000") == 4010
    assert code_of(pool.amount_out, a, b, True) == 4010
    assert code_of(pool.amount_out, a, "0x" + "03" * 20, 10) == 4002
    assert code_of(pool.amount_out, 0, 2, 10) == 4010
    assert code_of(pool.amount_out, a, a, 10) == 4010
    assert code_of(pool.amount_out, a, b, 0) == 2002  # the contract: INSUFFICIENT_INPUT_AMOUNT
    assert code_of(pool.amount_in, a, b, 2_000_000) == 2001  # the whole reserve cannot come out
    assert code_of(pool.mint, [1, 2, 3]) == 4010
    assert code_of(pool.mint, 5) == 4010
    assert code_of(pool.burn_one, 10, a) == 2000  # no one-coin withdrawal outside Curve
    assert code_of(swapzap.Pool.from_dict, pair(fee={"num": "1000", "den": "1000"})) == 4031
    assert code_of(swapzap.Pool.from_dict, pair(reserves=["1"])) == 4032
    assert code_of(swapzap.Pool.from_dict, pair(), decimals=[18]) == 4010
    assert code_of(swapzap.Pool.from_dict, pair(), decimals="x") == 4010
    assert code_of(swapzap.Pool.from_dict, {"id": 5}) == 3000


def test_unknown_pool_id(bundled):
    assert code_of(bundled.pool, "uniswap-v2:0x" + "99" * 20) == 4010
    assert code_of(bundled.pool, 7) == 4010


def test_zap_shapes(bundled, bundled_request):
    # a plain swap body is not a zap (5011); an LP among several outputs is not supported (5001)
    assert code_of(bundled.zap, bundled_request) == 5011
    lp = [t["address"] for t in bundled.tokens() if t["lp_of"] is not None]
    two = with_(bundled_request, ["outputTokens"], [{"tokenAddress": lp[0], "proportion": 0.5},
                                                    {"tokenAddress": lp[1], "proportion": 0.5}])
    assert code_of(bundled.zap, two) == 5001
    assert code_of(bundled.zap, bundled_request, gas_price=-1) == 4010


def test_verify_refuses_a_plan_for_another_request(bundled, bundled_request):
    plan = bundled.quote(bundled_request)
    other = with_(bundled_request, ["inputTokens", 0, "amount"], "1000")
    assert code_of(plan.verify, bundled, other) == 4014  # PlanMismatch naming the inputs
    looser = with_(bundled_request, ["slippageLimitPercent"], 1)
    assert code_of(plan.verify, bundled, looser) == 4014
    assert code_of(plan.verify, "snapshot", bundled_request) == 4010
    plan.verify(bundled, bundled_request)


def test_errors_pickle():
    e = swapzap.SwapzapError(3020, "amount", False, "validation", 400)
    f = pickle.loads(pickle.dumps(e))
    assert (f.code, f.detail, f.retryable, f.error_class, f.http_status) == (3020, "amount", False, "validation", 400)
