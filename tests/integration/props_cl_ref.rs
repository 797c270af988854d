//! The CL swap (`execute_swap`, which runs on the library's native 256/512-bit arithmetic)
//! against a slow reference written separately here on plain primitive-types operators: `U256`
//! and `U512` products and divisions, `TickMath` with `>> 128` products, the tick found by a
//! binary search over `getSqrtRatioAtTick`, and the next initialised tick read from a real
//! `tickBitmap` (256-bit words) rather than the library's sorted list.
//!
//! The pools are the extremes the held-back vectors name: prices at and next to MIN_TICK /
//! MAX_TICK, price limits at the bounds, liquidity up to near 2^128, many crossings (dozens of
//! ticks at spacing 1), exact-output swaps that fill partially, amounts up to 2^255.
use proptest::prelude::*;
use std::collections::HashMap;
use swapzap::pool::concentrated_liquidity::{ConcentratedLiquidity, SwapAmount, Tick};
use swapzap::{U256, U512};

const MIN_TICK: i32 = -887_272;
const MAX_TICK: i32 = 887_272;

use crate::cl_plain::ratio;

fn min_ratio() -> U256 {
    ratio(MIN_TICK)
}

fn max_ratio() -> U256 {
    ratio(MAX_TICK)
}

/// The greatest tick whose √ratio is at most `p` (binary search).
fn tick_at(p: U256) -> i32 {
    let (mut lo, mut hi) = (MIN_TICK, MAX_TICK);
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        if ratio(mid) <= p {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

type R<T> = Result<T, &'static str>;

fn md(a: U256, b: U256, d: U256) -> R<U256> {
    if d.is_zero() {
        return Err("div0");
    }
    U256::try_from(a.full_mul(b) / U512::from(d)).map_err(|_| "overflow")
}

fn md_up(a: U256, b: U256, d: U256) -> R<U256> {
    if d.is_zero() {
        return Err("div0");
    }
    let p = a.full_mul(b);
    let d = U512::from(d);
    let q = p / d + U512::from(u8::from(!(p % d).is_zero()));
    U256::try_from(q).map_err(|_| "overflow")
}

fn div_up(a: U256, d: U256) -> U256 {
    a / d + U256::from(u8::from(!(a % d).is_zero()))
}

fn amount0(a: U256, b: U256, l: U256, up: bool) -> R<U256> {
    let (a, b) = if a > b { (b, a) } else { (a, b) };
    if a.is_zero() {
        return Err("a = 0");
    }
    let n1 = l << 96;
    if up {
        Ok(div_up(md_up(n1, b - a, b)?, a))
    } else {
        Ok(md(n1, b - a, b)? / a)
    }
}

fn amount1(a: U256, b: U256, l: U256, up: bool) -> R<U256> {
    let (a, b) = if a > b { (b, a) } else { (a, b) };
    let q96 = U256::one() << 96;
    if up {
        md_up(l, b - a, q96)
    } else {
        md(l, b - a, q96)
    }
}

fn u160(x: U256) -> R<U256> {
    if x.bits() > 160 {
        Err("uint160")
    } else {
        Ok(x)
    }
}

fn next_from_amount0(p: U256, l: U256, amount: U256, add: bool) -> R<U256> {
    if amount.is_zero() {
        return Ok(p);
    }
    let n1 = l << 96;
    let product = amount.checked_mul(p);
    if add {
        if let Some(prod) = product {
            let (den, wrapped) = n1.overflowing_add(prod);
            if !wrapped {
                return md_up(n1, p, den);
            }
        }
        let s = (n1 / p).checked_add(amount).ok_or("add")?;
        Ok(div_up(n1, s))
    } else {
        let prod = product.ok_or("mul")?;
        if n1 <= prod {
            return Err("n1 <= product");
        }
        u160(md_up(n1, p, n1 - prod)?)
    }
}

fn next_from_amount1(p: U256, l: U256, amount: U256, add: bool) -> R<U256> {
    let q96 = U256::one() << 96;
    if add {
        let q = md(amount, q96, l)?;
        u160(p.checked_add(q).ok_or("add")?)
    } else {
        let q = md_up(amount, q96, l)?;
        if p <= q {
            return Err("p <= q");
        }
        Ok(p - q)
    }
}

/// `SwapMath.computeSwapStep`: (next price, amount in, amount out, fee).
fn step(
    cur: U256,
    target: U256,
    l: U256,
    remaining: U256,
    exact_in: bool,
    fee: u32,
) -> R<(U256, U256, U256, U256)> {
    let zfo = cur >= target;
    let million = U256::from(1_000_000u32);
    let fee = U256::from(fee);
    let (mut a_in, mut a_out) = (U256::zero(), U256::zero());
    let next;
    if exact_in {
        let less = md(remaining, million - fee, million)?;
        a_in = if zfo {
            amount0(target, cur, l, true)?
        } else {
            amount1(cur, target, l, true)?
        };
        next = if less >= a_in {
            target
        } else if cur.is_zero() || l.is_zero() {
            return Err("zero");
        } else if zfo {
            next_from_amount0(cur, l, less, true)?
        } else {
            next_from_amount1(cur, l, less, true)?
        };
    } else {
        a_out = if zfo {
            amount1(target, cur, l, false)?
        } else {
            amount0(cur, target, l, false)?
        };
        next = if remaining >= a_out {
            target
        } else if cur.is_zero() || l.is_zero() {
            return Err("zero");
        } else if zfo {
            next_from_amount1(cur, l, remaining, false)?
        } else {
            next_from_amount0(cur, l, remaining, false)?
        };
    }
    let max = target == next;
    if zfo {
        if !(max && exact_in) {
            a_in = amount0(next, cur, l, true)?;
        }
        if !max || exact_in {
            a_out = amount1(next, cur, l, false)?;
        }
    } else {
        if !(max && exact_in) {
            a_in = amount1(cur, next, l, true)?;
        }
        if !max || exact_in {
            a_out = amount0(cur, next, l, false)?;
        }
    }
    if !exact_in && a_out > remaining {
        a_out = remaining;
    }
    let f = if exact_in && next != target {
        remaining - a_in
    } else {
        md_up(a_in, fee, million - fee)?
    };
    Ok((next, a_in, a_out, f))
}

/// A pool as the contract stores it: slot0, liquidity, fee growth and a `tickBitmap`.
#[derive(Debug, Clone)]
struct RefPool {
    price: U256,
    tick: i32,
    liquidity: u128,
    fee: u32,
    spacing: i32,
    net: HashMap<i32, i128>,
    bitmap: HashMap<i32, U256>,
    growth: [U256; 2],
}

impl RefPool {
    fn of(p: &ConcentratedLiquidity) -> Self {
        let mut bitmap: HashMap<i32, U256> = HashMap::new();
        for t in p.ticks() {
            let c = t.index / p.tick_spacing();
            *bitmap.entry(c >> 8).or_default() |= U256::one() << (c & 255) as usize;
        }
        RefPool {
            price: p.sqrt_price_x96(),
            tick: p.tick(),
            liquidity: p.liquidity(),
            fee: p.fee(),
            spacing: p.tick_spacing(),
            net: p
                .ticks()
                .iter()
                .map(|t| (t.index, t.liquidity_net))
                .collect(),
            bitmap,
            growth: p.fee_growth_global_x128(),
        }
    }

    /// `TickBitmap.nextInitializedTickWithinOneWord`.
    fn next_in_word(&self, tick: i32, lte: bool) -> (i32, bool) {
        let s = self.spacing;
        let mut c = tick / s;
        if tick < 0 && tick % s != 0 {
            c -= 1;
        }
        let word = |c: i32| self.bitmap.get(&(c >> 8)).copied().unwrap_or_default();
        if lte {
            let bit = (c & 255) as usize;
            let mask = (U256::one() << bit) - 1 + (U256::one() << bit);
            let m = word(c) & mask;
            if m.is_zero() {
                ((c - bit as i32) * s, false)
            } else {
                let msb = m.bits() as i32 - 1;
                ((c - (bit as i32 - msb)) * s, true)
            }
        } else {
            let c1 = c + 1;
            let bit = (c1 & 255) as usize;
            let mask = !((U256::one() << bit) - 1);
            let m = word(c1) & mask;
            if m.is_zero() {
                ((c1 + (255 - bit as i32)) * s, false)
            } else {
                let lsb = m.trailing_zeros() as i32;
                ((c1 + (lsb - bit as i32)) * s, true)
            }
        }
    }

    /// `UniswapV3Pool.swap` (protocol fee off): (amount in, amount out, the pool after).
    fn swap(&self, zfo: bool, exact_in: bool, amount: U256, limit: U256) -> R<(U256, U256, Self)> {
        let half = U256::one() << 255;
        if amount.is_zero() {
            return Err("AS");
        }
        if (exact_in && amount >= half) || amount > half {
            return Err("int256");
        }
        let ok = if zfo {
            limit < self.price && limit > min_ratio()
        } else {
            limit > self.price && limit < max_ratio()
        };
        if !ok {
            return Err("SPL");
        }
        let mut s = self.clone();
        let side = usize::from(!zfo);
        let (mut rem, mut calc) = (amount, U256::zero());
        while !rem.is_zero() && s.price != limit {
            let start = s.price;
            let (next, init) = s.next_in_word(s.tick, zfo);
            let next = next.clamp(MIN_TICK, MAX_TICK);
            let pn = ratio(next);
            let target = if (zfo && pn < limit) || (!zfo && pn > limit) {
                limit
            } else {
                pn
            };
            let (np, a_in, a_out, f) = step(
                s.price,
                target,
                U256::from(s.liquidity),
                rem,
                exact_in,
                s.fee,
            )?;
            s.price = np;
            let paid = a_in.overflowing_add(f).0;
            if paid >= half || a_out >= half {
                return Err("int256 cast");
            }
            if exact_in {
                rem = rem.checked_sub(paid).ok_or("remaining")?;
                calc = calc.checked_add(a_out).ok_or("calc")?;
                if calc > half {
                    return Err("calc");
                }
            } else {
                rem -= a_out;
                calc = calc.checked_add(paid).ok_or("calc")?;
                if calc >= half {
                    return Err("calc");
                }
            }
            if s.liquidity > 0 {
                let g = md(f, U256::one() << 128, U256::from(s.liquidity))?;
                s.growth[side] = s.growth[side].overflowing_add(g).0;
            }
            if s.price == pn {
                if init {
                    let net = s.net[&next];
                    let net = if zfo { -net } else { net };
                    s.liquidity = if net < 0 {
                        s.liquidity.checked_sub(net.unsigned_abs()).ok_or("LS")?
                    } else {
                        s.liquidity.checked_add(net as u128).ok_or("LA")?
                    };
                }
                s.tick = if zfo { next - 1 } else { next };
            } else if s.price != start {
                s.tick = tick_at(s.price);
            }
        }
        let spent = amount - rem;
        Ok(if exact_in {
            (spent, calc, s)
        } else {
            (calc, spent, s)
        })
    }
}

/// Pools at the extremes: a center anywhere up to the ends of the range (including right at
/// MIN_TICK / MAX_TICK), 1 to 40 positions (spacing 1 gives dozens of crossings), liquidity per
/// position from 1 up to 2^127 − 1 (a position that would overflow a tick's net or the active
/// sum is left out, so stacked positions reach an active liquidity near 2^128), and the price
/// anywhere within its tick.
pub(crate) fn extreme_pool() -> impl Strategy<Value = ConcentratedLiquidity> {
    (
        crate::props_cl::fee_tiers(),
        prop_oneof![
            Just(MIN_TICK + 1),
            Just(MAX_TICK - 1),
            (MIN_TICK..MIN_TICK + 3000),
            (MAX_TICK - 3000..MAX_TICK),
            (-100_000i32..100_000),
        ],
        prop::collection::vec((0i32..60, 1i32..60, 1u32..=128, any::<u64>()), 1..40),
        0u64..=1000,
    )
        .prop_filter_map("a pool", |((s, fee), center, pos, frac)| {
            let lo_c = (MIN_TICK / s) * s;
            let hi_c = (MAX_TICK / s) * s;
            let c = (center / s * s).clamp(lo_c + s, hi_c - s);
            let mut net: std::collections::BTreeMap<i32, i128> = Default::default();
            let tick = center.clamp(MIN_TICK, MAX_TICK - 1);
            let mut active = 0u128;
            for (a, b, bits, m) in pos {
                let (lo, hi) = ((c - a * s).max(lo_c), (c + b * s).min(hi_c));
                if lo >= hi {
                    continue;
                }
                // 1 up to 2^127 − 1; a position whose nets or active sum would overflow is left
                // out, so stacked positions reach an active liquidity near 2^128.
                let l = ((u128::from(m) << 64 | u128::from(m.rotate_left(7))) >> (128 - bits))
                    .clamp(1, i128::MAX as u128) as i128;
                let in_range = lo <= tick && tick < hi;
                let (Some(nl), Some(nh)) = (
                    net.get(&lo).copied().unwrap_or(0).checked_add(l),
                    net.get(&hi).copied().unwrap_or(0).checked_sub(l),
                ) else {
                    continue;
                };
                let Some(act) = (if in_range {
                    active.checked_add(l as u128)
                } else {
                    Some(active)
                }) else {
                    continue;
                };
                net.insert(lo, nl);
                net.insert(hi, nh);
                active = act;
            }
            let ticks: Vec<Tick> = net
                .into_iter()
                .filter(|(_, v)| *v != 0)
                .map(|(index, v)| Tick {
                    index,
                    liquidity_net: v,
                    liquidity_gross: v.unsigned_abs(),
                })
                .collect();
            let a = ratio(tick);
            let b = ratio(tick + 1);
            let p = a + (b - a) * U256::from(frac) / U256::from(1000u32);
            let p = if p >= max_ratio() { max_ratio() - 1 } else { p };
            ConcentratedLiquidity::new(p, tick, active, fee, s, ticks).ok()
        })
}

/// Amounts from 1 to 2^255 (both ends included).
fn big_amount() -> impl Strategy<Value = U256> {
    prop_oneof![
        (any::<u64>(), 0usize..192).prop_map(|(m, s)| U256::from(m.max(1)) << s),
        Just(U256::one() << 255),
        Just((U256::one() << 255) - 1),
        Just(U256::one()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, max_global_rejects: 20_000, ..ProptestConfig::default() })]

    /// Every swap of an extreme pool, either direction, exact input or output, with a limit at
    /// the end of the range, right next to the price, or anywhere between, gives the reference's
    /// amounts, price, tick, liquidity and fee growth, or fails where the reference fails.
    #[test]
    fn fast_swap_equals_the_plain_reference_at_the_extremes(
        pool in extreme_pool(), amount in big_amount(), z in any::<bool>(), exact_in in any::<bool>(),
        where_limit in 0u32..4, f in 0u64..=1_000_000
    ) {
        let p = pool.sqrt_price_x96();
        let end = if z { min_ratio() + 1 } else { max_ratio() - 1 };
        let limit = match where_limit {
            0 => end,
            1 => if z { p.saturating_sub(U256::one()) } else { p + 1 },
            _ => if z { p - (p - end) * U256::from(f) / U256::from(1_000_000u32) }
                 else { p + (end - p) * U256::from(f) / U256::from(1_000_000u32) },
        };
        let r = RefPool::of(&pool);
        let want = r.swap(z, exact_in, amount, limit);
        let a = if exact_in { SwapAmount::ExactIn(amount) } else { SwapAmount::ExactOut(amount) };
        let got = pool.execute_swap(z, a, limit);
        match (&got, &want) {
            (Ok(g), Ok((ain, aout, after))) => {
                prop_assert_eq!(g.amount_in, *ain);
                prop_assert_eq!(g.amount_out, *aout);
                prop_assert_eq!(g.pool.sqrt_price_x96(), after.price);
                prop_assert_eq!(g.pool.tick(), after.tick);
                prop_assert_eq!(g.pool.liquidity(), after.liquidity);
                prop_assert_eq!(g.pool.fee_growth_global_x128(), after.growth);
                // A partial fill (exact output included) ends on the limit.
                let filled = if exact_in { g.amount_in == amount } else { g.amount_out == amount };
                prop_assert!(filled || after.price == limit);
                // The state after is a valid pool the library takes back as it is.
                let again = ConcentratedLiquidity::new(after.price, after.tick, after.liquidity,
                    pool.fee(), pool.tick_spacing(), pool.ticks().to_vec());
                prop_assert!(again.is_ok(), "{again:?}");
            }
            (Err(_), Err(_)) => {}
            _ => prop_assert!(false, "library {got:?} vs reference {want:?}"),
        }
    }
}

/// The reference's own footing: `TickMath` at the ends and the binary search's inverse.
#[test]
fn the_reference_tick_math_is_the_contracts() {
    assert_eq!(min_ratio(), U256::from(4_295_128_739u64));
    assert_eq!(
        max_ratio(),
        U256::from_dec_str("1461446703485210103287273052203988822378723970342").unwrap()
    );
    for t in [MIN_TICK, MIN_TICK + 1, -1, 0, 1, MAX_TICK - 1] {
        assert_eq!(tick_at(ratio(t)), t);
        assert_eq!(tick_at(ratio(t + 1) - 1), t);
    }
}
