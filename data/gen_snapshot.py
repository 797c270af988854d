#!/usr/bin/env python3
"""Generate the bundled example snapshot (data/snapshot.json) and request (data/request.json).

A made-up but realistic Base-like market (chain 8453): hub tokens WETH/USDC/USDT/DAI/WBTC,
a few long-tail tokens, pools over uniswap-v2, sushiswap, aerodrome (volatile and stable) and
curve (a 3pool and a 2pool). Addresses are derived from a hash of a label: they are not real
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


def cp(source, a, b, usd_depth, fee_num=3, fee_den=1000):
    half = fee_num / fee_den / 2
    dev = rng.uniform(-half, half) * 0.9
    pid = "%s:%s" % (source, addr("pool:%s:%s:%s" % (source, a, b)))
    pools.append(dict(id=pid, source=source, kind="constant_product",
                      tokens=[tok[a]["address"], tok[b]["address"]],
                      reserves=[raw(a, usd_depth / 2), raw(b, usd_depth / 2, dev)],
                      fee=dict(num=str(fee_num), den=str(fee_den))))


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
