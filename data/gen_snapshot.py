#!/usr/bin/env python3
"""Generate the bundled example snapshot (data/snapshot.json) and request (data/request.json).

A made-up but realistic Base-like market (chain 8453): hub tokens WETH/USDC/USDT/DAI/WBTC,
a few long-tail tokens, pools over uniswap-v2, sushiswap, aerodrome (volatile and stable),
curve (a 3pool and a 2pool) and a uniswap-v3 concentrated-liquidity WETH/USDC pool. Addresses are derived from a hash of a label: they are not real
contracts. Each pool's price deviates from the reference price by less than half its fee.
Deterministic (fixed seed). Run from the repo root: python3 data/gen_snapshot.py
"""
import hashlib
import json
import math
import random

rng = random.Random(20261121)


def addr(label):
    return "0x" + hashlib.sha256(label.encode()).hexdigest()[:40]


TOKENS = [  # symbol, decimals, USD price
    ("WETH", 18, 3150.0), ("USDC", 6, 1.0), ("USDT", 6, 1.0), ("DAI", 18, 1.0),
    ("WBTC", 8, 64000.0), ("LINK", 18, 14.2), ("AERO", 18, 1.15), ("DEGEN", 18, 0.0093),
    ("BRETT", 18, 0.087), ("TOSHI", 18, 0.00021),
]
tok = {s: dict(address=addr("token:" + s), symbol=s, decimals=d, price=p) for s, d, p in TOKENS}
pools = []


def raw(sym, usd, dev=0.0):
    t = tok[sym]
    return str(int(usd * (1.0 + dev) / t["price"] * 10 ** t["decimals"]))


def supply(pool):
    """A two-coin pool's LP supply, consistent with its reserves: isqrt(r0 * r1), the supply of
    a pair whose liquidity only ever moved in proportion (the first mint's 1000-unit lock is
    part of it). Without a supply the library refuses LP operations on the pool."""
    r0, r1 = (int(x) for x in pool["reserves"])
    pool["total_supply"] = str(math.isqrt(r0 * r1))


def cp(source, a, b, usd_depth, fee_num=3, fee_den=1000):
    half = fee_num / fee_den / 2
    dev = rng.uniform(-half, half) * 0.9
    pid = "%s:%s" % (source, addr("pool:%s:%s:%s" % (source, a, b)))
    pools.append(dict(id=pid, source=source, kind="constant_product",
                      tokens=[tok[a]["address"], tok[b]["address"]],
                      reserves=[raw(a, usd_depth / 2), raw(b, usd_depth / 2, dev)],
                      fee=dict(num=str(fee_num), den=str(fee_den))))
    supply(pools[-1])


def solidly(a, b, usd_depth, stable, fee_bps):
    half = fee_bps / 1e4 / 2
    dev = rng.uniform(-half, half) * 0.9 if not stable else 0.0
    kind = "stable" if stable else "volatile"
    pid = "aerodrome:%s" % addr("pool:aerodrome:%s:%s:%s" % (kind, a, b))
    skew = rng.uniform(0.97, 1.03) if stable else 1.0  # stable pools: slightly unbalanced
    pools.append(dict(id=pid, source="aerodrome", kind="solidly",
                      tokens=[tok[a]["address"], tok[b]["address"]],
                      reserves=[raw(a, usd_depth / 2 * skew), raw(b, usd_depth / 2 / skew, dev)],
                      stable=stable, fee_bps=str(fee_bps),
                      decimals=[tok[a]["decimals"], tok[b]["decimals"]]))
    supply(pools[-1])


def curve(name, syms, usd_depth, A, fee):
    n = len(syms)
    pid = "curve:%s" % addr("pool:curve:" + name)
    bal = [raw(s, usd_depth / n * rng.uniform(0.9, 1.1)) for s in syms]
    pools.append(dict(id=pid, source="curve", kind="stableswap",
                      tokens=[tok[s]["address"] for s in syms], reserves=bal,
                      a=str(A * 100), a_precision="100", fee=str(fee),
                      rates=[str(10 ** (36 - tok[s]["decimals"])) for s in syms],
                      lp_token=addr("lp:curve:" + name),
                      total_supply=str(int(usd_depth * 0.98 * 10 ** 18))))


cp("uniswap-v2", "WETH", "USDC", 42e6)
cp("uniswap-v2", "WETH", "USDT", 11e6)
cp("uniswap-v2", "WETH", "DAI", 5.5e6)
cp("uniswap-v2", "WBTC", "WETH", 18e6)
cp("uniswap-v2", "LINK", "WETH", 4.2e6)
cp("uniswap-v2", "DEGEN", "WETH", 1.4e6)
cp("uniswap-v2", "USDC", "USDT", 2.2e6)
cp("uniswap-v2", "TOSHI", "WETH", 0.6e6)
cp("sushiswap", "WETH", "USDC", 7.5e6)
cp("sushiswap", "WBTC", "WETH", 2.8e6)
cp("sushiswap", "LINK", "USDC", 0.45e6)
cp("sushiswap", "BRETT", "WETH", 0.8e6)
cp("sushiswap", "WBTC", "USDC", 1.9e6)
solidly("WETH", "USDC", 26e6, False, 5)
solidly("AERO", "WETH", 6.2e6, False, 30)
solidly("AERO", "USDC", 3.9e6, False, 30)
solidly("BRETT", "WETH", 2.1e6, False, 30)
solidly("DEGEN", "AERO", 0.3e6, False, 100)
solidly("TOSHI", "AERO", 0.15e6, False, 100)
solidly("USDC", "DAI", 5.2e6, True, 5)
solidly("USDC", "USDT", 3.1e6, True, 5)
curve("3pool", ["DAI", "USDC", "USDT"], 160e6, 2000, 1000000)
curve("2pool", ["USDC", "USDT"], 32e6, 500, 4000000)



def sqrt_ratio_at_tick(t):
    """Uniswap V3 TickMath.getSqrtRatioAtTick: Q128 factors round(2^128 / sqrt(1.0001^(2^i))),
    floored products, inverted for t > 0, Q128 -> Q96 rounding up."""
    from decimal import Decimal, getcontext
    getcontext().prec = 120
    ratio = 1 << 128
    for i in range(20):
        if abs(t) >> i & 1:
            f = int((Decimal(2) ** 128 / (Decimal("1.0001") ** (2 ** i)).sqrt()).to_integral_value())
            ratio = ratio * f >> 128
    if t > 0:
        ratio = ((1 << 256) - 1) // ratio
    return (ratio >> 32) + (1 if ratio % (1 << 32) else 0)


def cl(source, a, b, usd_depth, fee, spacing, width, bands=8):
    """A concentrated-liquidity pool (token0 = a): `bands` nested ranges of `width` ticks each
    side of the price, about usd_depth of virtual reserves in total."""
    half = fee / 1e6 / 2
    dev = rng.uniform(-half, half) * 0.9
    ta, tb = tok[a], tok[b]
    price = ta["price"] / tb["price"] * 10 ** (tb["decimals"] - ta["decimals"]) * (1 + dev)
    tick = math.floor(math.log(price) / math.log(1.0001))
    sqrt_p = sqrt_ratio_at_tick(tick) + 1
    liq = int(usd_depth / 2 * math.sqrt(price) * 10 ** ta["decimals"] / ta["price"])
    band = liq // bands
    base = tick // spacing * spacing
    ticks = [dict(index=str(base - k * width), liquidity_net=str(band)) for k in range(bands, 0, -1)]
    ticks += [dict(index=str(base + k * width), liquidity_net=str(-band)) for k in range(1, bands + 1)]
    pid = "%s:%s" % (source, addr("pool:%s:%s:%s:%d" % (source, a, b, fee)))
    pools.append(dict(id=pid, source=source, kind="concentrated_liquidity",
                      tokens=[ta["address"], tb["address"]],
                      sqrt_price_x96=str(sqrt_p), tick=str(tick), liquidity=str(band * bands),
                      fee=str(fee), tick_spacing=str(spacing), ticks=ticks))


# A WETH/USDC Uniswap V3 pool (0.05 %, spacing 10), bands of 200 ticks (about 2 % each).
cl("uniswap-v3", "WETH", "USDC", 60e6, 500, 10, 200)

snapshot = dict(chain_id=8453,
                tokens=[dict(address=t["address"], symbol=t["symbol"], decimals=t["decimals"])
                        for t in tok.values()],
                pools=pools)
request = dict(chainId=8453,
               inputTokens=[dict(tokenAddress=tok["WETH"]["address"], amount=str(400 * 10 ** 18))],
               outputTokens=[dict(tokenAddress=tok["USDT"]["address"], proportion=1)],
               slippageLimitPercent=0.5,
               # addr("user:example") in its EIP-55 form: the spec requires a checksummed userAddr
               # (Python's hashlib has no Keccak-256, so the checksum is spelled out here)
               userAddr="0x31Ad0fB76c7b4AAd8Afc25dA1eCC71afF19808Db")
assert request["userAddr"].lower() == addr("user:example")
with open("data/snapshot.json", "w") as f:
    json.dump(snapshot, f, indent=1)
    f.write("\n")
with open("data/request.json", "w") as f:
    json.dump(request, f, indent=1)
    f.write("\n")
print("wrote data/snapshot.json (%d tokens, %d pools) and data/request.json"
      % (len(snapshot["tokens"]), len(pools)))
