#!/usr/bin/env python3
"""Generate data/snapshot-101.json and data/request-101.json: a small chain-101 market over the
three chain-101 families (Orca Whirlpools, Saber StableSwap, SPL Token Swap).

Deterministic: pool addresses come from a fixed seed. Token mints are the public mainnet mints of
wrapped SOL, USDC, USDT and mSOL (for readable output); the balances and positions are made up.
Run from the repo root: python3 data/gen_snapshot_101.py
"""
import json
import math
import random

B58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"


def b58(raw: bytes) -> str:
    n = int.from_bytes(raw, "big")
    s = ""
    while n:
        n, r = divmod(n, 58)
        s = B58[r] + s
    return "1" * (len(raw) - len(raw.lstrip(b"\0"))) + s


rng = random.Random(101)


def addr() -> str:
    return b58(bytes(rng.randrange(256) for _ in range(32)))


SOL = ("So11111111111111111111111111111111111111112", "SOL", 9)
USDC = ("EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", "USDC", 6)
USDT = ("Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB", "USDT", 6)
MSOL = ("mSoLzYCxHdYgdzU16g5QSh3i5K3z3KZK7ytfqcJm7So", "mSOL", 9)
TOKENS = [SOL, USDC, USDT, MSOL]
USD = {"SOL": 150.0, "USDC": 1.0, "USDT": 1.0, "mSOL": 180.0}

pools = []
NOW = 1_764_000_000  # the snapshot's time (unix seconds), carried as data


def spl(a, b, usd_depth, trade=(25, 10000), owner=(5, 10000)):
    ra = int(usd_depth / 2 / USD[a[1]] * 10 ** a[2])
    rb = int(usd_depth / 2 / USD[b[1]] * 10 ** b[2])
    pools.append({
        "id": "spl-token-swap:" + addr(),
        "source": "spl-token-swap",
        "kind": "spl_token_swap",
        "curve_type": "constant_product",
        "tokens": [a[0], b[0]],
        "reserves": [str(ra), str(rb)],
        "total_supply": str(int(math.isqrt(ra * rb))),
        "fees": {
            "trade_fee_numerator": str(trade[0]), "trade_fee_denominator": str(trade[1]),
            "owner_trade_fee_numerator": str(owner[0]), "owner_trade_fee_denominator": str(owner[1]),
            "owner_withdraw_fee_numerator": "0", "owner_withdraw_fee_denominator": "0",
            "host_fee_numerator": "20", "host_fee_denominator": "100",
        },
    })


def saber(a, b, usd_depth, amp_from, amp_to, ramp_left):
    ra = int(usd_depth * 0.52 * 10 ** a[2])
    rb = int(usd_depth * 0.48 * 10 ** b[2])
    pools.append({
        "id": "saber:" + addr(),
        "source": "saber",
        "kind": "saber_stableswap",
        "tokens": [a[0], b[0]],
        "reserves": [str(ra), str(rb)],
        "total_supply": str(ra + rb),
        "decimals": [a[2], b[2]],
        "initial_amp_factor": str(amp_from),
        "target_amp_factor": str(amp_to),
        "start_ramp_ts": str(NOW - 86_400),
        "stop_ramp_ts": str(NOW + ramp_left),
        "current_ts": str(NOW),
        "fees": {
            "admin_trade_fee_numerator": "50", "admin_trade_fee_denominator": "100",
            "admin_withdraw_fee_numerator": "50", "admin_withdraw_fee_denominator": "100",
            "trade_fee_numerator": "4", "trade_fee_denominator": "10000",
            "withdraw_fee_numerator": "0", "withdraw_fee_denominator": "10000",
        },
    })


def whirlpool(a, b, usd_depth, spacing, fee_rate, width_ticks):
    """Two positions around the price: a wide one and a narrow one three times as deep."""
    price = USD[a[1]] / USD[b[1]] * 10 ** b[2] / 10 ** a[2]  # raw B per raw A
    t = math.floor(math.log(price) / math.log(1.0001))
    sqrt_price = int(2 ** 64 * 1.0001 ** ((t + 0.5) / 2))
    span = 88 * spacing
    start0 = (t // span) * span
    starts = [start0 + k * span for k in range(-2, 3)]
    lo_all, hi_all = starts[0], starts[-1] + span - 1
    sp = sqrt_price / 2 ** 64
    ticks = {}
    liquidity = 0
    for width, share in ((width_ticks, 0.25), (width_ticks // 8, 0.75)):
        tl = max(((t - width) // spacing) * spacing, lo_all)
        tu = min(((t + width) // spacing + 1) * spacing, (hi_all // spacing) * spacing)
        spl_, spu = 1.0001 ** (tl / 2), 1.0001 ** (tu / 2)
        y = usd_depth * share / 2 / USD[b[1]] * 10 ** b[2]  # B side of the position, raw
        L = int(y / (sp - spl_))
        liquidity += L
        for idx, net in ((tl, L), (tu, -L)):
            ticks[idx] = ticks.get(idx, 0) + net
    arrays = []
    for s in starts:
        inside = sorted(i for i in ticks if s <= i < s + span)
        arrays.append({
            "start_tick_index": str(s),
            "ticks": [{"index": str(i), "liquidity_net": str(ticks[i]),
                       "liquidity_gross": str(abs(ticks[i]))} for i in inside],
        })
    pools.append({
        "id": "orca:" + addr(),
        "source": "orca",
        "kind": "orca_whirlpool",
        "tokens": [a[0], b[0]],
        "reserves": ["0", "0"],
        "sqrt_price": str(sqrt_price),
        "tick_current_index": str(t),
        "liquidity": str(liquidity),
        "fee_rate": str(fee_rate),
        "protocol_fee_rate": "1300",
        "tick_spacing": str(spacing),
        "tick_arrays": arrays,
    })


whirlpool(SOL, USDC, 40e6, 64, 3000, 4000)
whirlpool(SOL, USDT, 1.5e6, 8, 500, 1500)
whirlpool(MSOL, SOL, 10e6, 1, 100, 300)
saber(USDC, USDT, 30e6, 100, 200, 86_400)
spl(SOL, USDC, 6e6)
spl(MSOL, USDC, 3e6)
spl(SOL, USDT, 2e6, trade=(20, 10000), owner=(10, 10000))

snapshot = {
    "chain_id": 101,
    "tokens": [{"address": t[0], "symbol": t[1], "decimals": t[2]} for t in TOKENS],
    "pools": pools,
}
request = {
    "chainId": 101,
    "inputTokens": [{"tokenAddress": SOL[0], "amount": str(20000 * 10 ** 9)}],
    "outputTokens": [{"tokenAddress": USDT[0], "proportion": 1}],
    "slippageLimitPercent": 0.5,
    "userAddr": addr(),
}
with open("data/snapshot-101.json", "w") as f:
    json.dump(snapshot, f, indent=1)
    f.write("\n")
with open("data/request-101.json", "w") as f:
    json.dump(request, f, indent=1)
    f.write("\n")
