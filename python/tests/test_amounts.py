"""Python ints of any size in and out, exactly; 2^256 and above is an error, never a wrap."""

from __future__ import annotations

import pytest

import swapzap

MAX = 2**256 - 1


def pool(reserves, kind="constant_product", **kw) -> swapzap.Pool:
    p = {
        "id": f"{'curve' if kind == 'stableswap' else 'uniswap-v2'}:0x" + "ab" * 20,
        "source": "curve" if kind == "stableswap" else "uniswap-v2",
        "kind": kind,
        "tokens": [f"0x{k:040x}" for k in range(1, len(reserves) + 1)],
        "reserves": [str(r) for r in reserves],
    }
    p.update(kw)
    return swapzap.Pool.from_dict(p)


def cp_out(a: int, r_in: int, r_out: int) -> int:
    """Uniswap V2 getAmountOut in Python's unbounded ints."""
    return a * 997 * r_out // (r_in * 1000 + a * 997)


def volatile_out(a: int, r_in: int, r_out: int, bps: int) -> int:
    """Aerodrome volatile getAmountOut in Python's unbounded ints (fee off the input first)."""
    a -= a * bps // 10000
    return a * r_out // (r_in + a)


def test_large_amounts_are_exact():
    # a solidly volatile pool (no uint112 cap) with reserves far above 2^64: both conversion paths
    r0, r1 = 3 * 10**30, 7 * 10**35  # (the swap's K check needs r0 * r1 below 2^256)
    p = pool([r0, r1], kind="solidly", stable=False, fee_bps="30", decimals=[18, 18], total_supply=str(10**33))
    assert p.balances == [r0, r1] and p.total_supply == 10**33
    for a in (1000, 2**64 - 1, 2**64, 2**64 + 1, 10**27, 1234567890123456789012345678):
        assert p.amount_out(0, 1, a) == volatile_out(a, r0, r1, 30)
        out, after = p.swap(0, 1, a)
        assert out == volatile_out(a, r0, r1, 30)
        # the fee leaves the pool
        assert after.balances == [r0 + a - a * 30 // 10000, r1 - out]


def test_amounts_at_the_u256_boundary():
    p = pool([10**18, 10**18], fee={"num": "3", "den": "1000"})
    # 2^256 - 1 is an amount: the pool math may overflow (a pool error), but it is read exactly
    with pytest.raises(swapzap.SwapzapError) as e:
        p.amount_out(0, 1, MAX)
    assert e.value.code != 4010
    for bad in (2**256, 2**256 + 1, 2**300, -1, -(2**256)):
        with pytest.raises(swapzap.SwapzapError) as e:
            p.amount_out(0, 1, bad)
        assert e.value.code == 4010, bad
    with pytest.raises(swapzap.SwapzapError) as e:
        p.mint([2**256, 1])
    assert e.value.code == 4010


def test_reserves_at_the_boundary():
    # reserves are read exactly up to 2^256 - 1 and refused at 2^256
    for r in (2**255, MAX):
        p = pool([r, 10**18], kind="stableswap", a="20000", fee="4000000", rates=[str(10**18)] * 2)
        assert p.balances == [r, 10**18]
    with pytest.raises(swapzap.SwapzapError) as e:
        pool([2**256, 10**18], fee={"num": "3", "den": "1000"})
    assert e.value.code == 4031


def test_numpy_like_ints_are_accepted():
    class Index:
        def __init__(self, v):
            self.v = v

        def __index__(self):
            return self.v

    p = pool([10**18, 2 * 10**18], fee={"num": "3", "den": "1000"})
    assert p.amount_out(0, 1, Index(10**20)) == cp_out(10**20, 10**18, 2 * 10**18)
    assert p.amount_out(0, 1, Index(5)) == cp_out(5, 10**18, 2 * 10**18)


def test_request_amounts_at_the_boundary(bundled, bundled_request):
    req = dict(bundled_request)
    req["inputTokens"] = [dict(bundled_request["inputTokens"][0], amount=str(MAX))]
    with pytest.raises(swapzap.SwapzapError) as e:
        bundled.quote(req)
    assert e.value.code not in (3000, 3020)  # valid as an amount; the route cannot carry it
    req["inputTokens"] = [dict(bundled_request["inputTokens"][0], amount=str(2**256))]
    with pytest.raises(swapzap.SwapzapError) as e:
        bundled.quote(req)
    assert e.value.code == 3020
