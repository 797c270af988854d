//! The bound of zap-ins whose inputs include LP tokens of other pools (`zap::zap_in`'s
//! `upper_bound`, the burned pools bounded as a whole): on generated markets (LP tokens of
//! constant-product, fee-on V2, solidly volatile and stable and Curve pools, alone, with a plain
//! token or with a target coin, into constant-product, solidly and Curve 2- and 3-coin targets;
//! every third market with prices off by more than the fees) no plan found otherwise mints more
//! than the bound: the zap's own plan; every other way to burn (proportional, one coin into each
//! coin of a Curve pool) followed by the router's plans at a grid of output mixes (its swaps
//! through the target replayed); and a brute force over splits of every routed token across the
//! direct pools into the target's coins (the burned pool on its state after the burn among
//! them), each simulated exactly and finished by the exact single-pool optimum.

use crate::zap_routed::{
    addr, after_fee, f, grid_mix, int, market_graph, mint_after, pool_at, quantiles,
    replay_on_target, splits, BoundTally, Rng,
};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use swapzap::graph::PoolGraph;
use swapzap::pool::Pool;
use swapzap::route::{self, RouteRequest};
use swapzap::units::{PoolId, TokenId};
use swapzap::zap::{self, ZapOptions};
use swapzap::U256;

/// Pool families of the targets and of the burned pools.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Fam {
    Cp,
    /// constant product with the V2 protocol fee on (`k_last` below `k`)
    CpFeeOn,
    Volatile,
    Stable,
    Curve2,
    Curve3,
}

impl Fam {
    fn pegged(self) -> bool {
        matches!(self, Fam::Stable | Fam::Curve2 | Fam::Curve3)
    }
}

/// The snapshot entry of a pool of family `fam` with id number `k` on `toks` (address number,
/// decimals), reserves `res` (raw), drawing its parameters from `r`.
pub(crate) fn pool_json(fam: Fam, k: u32, toks: &[(u32, u32)], res: &[f64], r: &mut Rng) -> Value {
    let id = addr(k);
    let tokens: Vec<String> = toks.iter().map(|t| addr(t.0)).collect();
    let reserves: Vec<String> = res.iter().map(|x| int(*x)).collect();
    let sq = (res[0] * res[1]).sqrt();
    match fam {
        Fam::Cp | Fam::CpFeeOn => {
            let mut v = json!({"id": format!("uniswap-v2:{id}"), "source": "uniswap-v2",
                "kind": "constant_product", "tokens": tokens, "reserves": reserves,
                "fee": {"num": "3", "den": "1000"}, "total_supply": int(sq * r.log(0.1, 10.0))});
            if fam == Fam::CpFeeOn {
                // k grew by up to 5 % since the last mint or burn
                v["fee_on"] = json!(true);
                v["k_last"] = json!(int(res[0] * res[1] / r.log(1.0001, 1.05)));
            }
            v
        }
        Fam::Volatile | Fam::Stable => {
            json!({"id": format!("aerodrome:{id}"), "source": "aerodrome", "kind": "solidly",
            "tokens": tokens, "reserves": reserves, "stable": fam == Fam::Stable,
            "fee_bps": if fam == Fam::Stable { "5" } else { "30" },
            "decimals": toks.iter().map(|t| t.1).collect::<Vec<_>>(),
            "total_supply": int(sq * r.log(0.1, 10.0))})
        }
        Fam::Curve2 | Fam::Curve3 => {
            let value: f64 = res
                .iter()
                .zip(toks)
                .map(|(x, t)| x / 10f64.powi(t.1 as i32))
                .sum();
            json!({"id": format!("curve:{id}"), "source": "curve", "kind": "stableswap",
            "tokens": tokens, "reserves": reserves,
            "a": int(r.log(10.0, 2000.0) * 100.0), "a_precision": "100", "fee": int(r.log(1e6, 4e7)),
            "lp_token": addr(k + 1000), "total_supply": int(value * 1e18 * r.log(0.5, 2.0)),
            "variant": if k % 2 == 0 { "classic" } else { "ng" }})
        }
    }
}

/// One generated market and zap-in.
pub(crate) struct Case {
    pub(crate) g: PoolGraph,
    target: PoolId,
    pub(crate) lp: TokenId,
    coins: Vec<TokenId>,
    /// the burned pool and its LP token
    src: PoolId,
    pub(crate) inputs: Vec<(TokenId, U256)>,
    /// the direct pools from the plain tokens (A, X) into the target's coins
    direct: Vec<(PoolId, TokenId, TokenId)>,
}

pub(crate) fn arbitrage(seed: u64) -> bool {
    seed % 3 == 0
}

/// Tokens: 0 A (18 decimals, worth 2000), 1..=n the target's coins (coin 2 with 6 decimals),
/// 9 X (worth 1 beside a pegged burned pool, else 3). Pools: the target (100); the burned pool
/// (200) on (coin 1, coin 2) or (coin 1, X); uniswap-v2 / aerodrome pools A/coin_k, X/coin_k,
/// A/X and coin_1/coin_2 (101..). Inputs: a share of the burned pool's supply, with A (one case
/// in two) or coin 1 (one in five).
pub(crate) fn case(seed: u64, t: Fam, s: Fam) -> Case {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5eed | 1);
    for _ in 0..4 {
        r.next();
    }
    let n = if t == Fam::Curve3 { 3 } else { 2 };
    let dec = |k: u32| if k == 2 { 6u32 } else { 18 };
    let unit = |k: u32| 10f64.powi(dec(k) as i32);
    let spread = if arbitrage(seed) { 1.0 } else { 0.1 };
    // prices in coin-1 units: coins 1..=n, then A, then X
    let mut price: BTreeMap<u32, f64> = BTreeMap::new();
    for k in 1..=n {
        let p = if k == 1 {
            1.0
        } else if t.pegged() {
            1.0 + 0.004 * (r.unit() - 0.5)
        } else {
            r.log(0.05, 20.0)
        };
        price.insert(k, p);
    }
    price.insert(0, 2000.0);
    price.insert(
        9,
        if s.pegged() {
            1.0 + 0.004 * (r.unit() - 0.5)
        } else {
            3.0
        },
    );
    let bal = |k: u32, value: f64, noise: f64| value / price[&k] * unit(k) * noise;
    let mut tokens = vec![json!({"address": addr(0), "symbol": "A", "decimals": 18})];
    for k in 1..=n {
        tokens.push(json!({"address": addr(k), "symbol": format!("C{k}"), "decimals": dec(k)}));
    }
    tokens.push(json!({"address": addr(9), "symbol": "X", "decimals": 18}));
    let mut pools = Vec::new();
    // the target
    let depth = r.log(1e5, 1e8);
    let ttoks: Vec<(u32, u32)> = (1..=n).map(|k| (k, dec(k))).collect();
    let tres: Vec<f64> = (1..=n)
        .map(|k| {
            bal(
                k,
                depth / f64::from(n),
                1.0 + spread * 0.03 * (r.unit() - 0.5),
            )
        })
        .collect();
    pools.push(pool_json(t, 100, &ttoks, &tres, &mut r));
    // the burned pool: on two target coins when both are pegged to each other or the pool is
    // not a stable one, else on coin 1 and X
    let on_coins = seed % 2 == 0 && (t.pegged() || !s.pegged());
    let spair = if on_coins { [1, 2] } else { [1, 9] };
    let sdepth = r.log(1e5, 1e8);
    let stoks: Vec<(u32, u32)> = spair.iter().map(|k| (*k, dec(*k))).collect();
    let sres: Vec<f64> = spair
        .iter()
        .map(|k| bal(*k, sdepth / 2.0, 1.0 + spread * 0.03 * (r.unit() - 0.5)))
        .collect();
    pools.push(pool_json(s, 200, &stoks, &sres, &mut r));
    // direct pools
    let mut pairs: Vec<(u32, u32)> = Vec::new();
    for k in 1..=n {
        pairs.push((0, k));
        pairs.push((9, k));
    }
    pairs.push((0, 9));
    pairs.push((1, 2));
    for (i, (a, b)) in pairs.iter().enumerate() {
        let v = r.log(1e5, 3e7);
        let noise = 1.0 + spread * 0.02 * (r.unit() - 0.5);
        let fam = if *b == 2 && *a == 0 {
            Fam::Volatile
        } else {
            Fam::Cp
        };
        let res = [bal(*a, v, 1.0), bal(*b, v, noise)];
        pools.push(pool_json(
            fam,
            101 + i as u32,
            &[(*a, dec(*a)), (*b, dec(*b))],
            &res,
            &mut r,
        ));
    }
    let g = market_graph(json!(tokens), json!(pools));
    let tok = |k: u32| g.token_id(&addr(k)).unwrap();
    let pid = |k: u32| pool_at(&g, k);
    let (target, src) = (pid(100), pid(200));
    let coins: Vec<TokenId> = (1..=n).map(tok).collect();
    let direct: Vec<(PoolId, TokenId, TokenId)> = pairs
        .iter()
        .enumerate()
        .filter(|(_, (a, b))| (*a == 0 || *a == 9) && *b != 9)
        .map(|(i, (a, b))| (pid(101 + i as u32), tok(*a), tok(*b)))
        .collect();
    let mut inputs = crate::zap_lp_meta::lp_share_inputs(&g, src, pid(101), tok(0), seed, &mut r);
    if seed % 5 == 0 {
        inputs.push((
            tok(1),
            U256::from_dec_str(&int(tres[0] * r.log(1e-4, 0.1))).unwrap(),
        ));
    }
    let lp = g.lp_token(target).unwrap();
    Case {
        g,
        target,
        lp,
        coins,
        src,
        inputs,
        direct,
    }
}

/// The ways to burn the LP input: proportionally, and for a Curve pool one coin into each coin.
/// Each gives the coins received and the pool's state after.
fn burns(c: &Case, lp_amount: U256) -> Vec<(Vec<(TokenId, U256)>, Pool)> {
    let info = c.g.pool(c.src).unwrap();
    let mut out = Vec::new();
    if let Ok((amounts, after)) = info.pool.burn(lp_amount) {
        out.push((
            info.tokens
                .iter()
                .copied()
                .zip(amounts.iter().copied())
                .collect(),
            after,
        ));
    }
    for (i, t) in info.tokens.iter().enumerate() {
        if let Ok((a, after)) = info.pool.burn_one(lp_amount, i) {
            out.push((vec![(*t, a)], after));
        }
    }
    out
}

/// The holdings after the fee and a burn: target coins and other tokens.
fn after_burn(c: &Case, got: &[(TokenId, U256)]) -> BTreeMap<TokenId, U256> {
    let mut hold: BTreeMap<TokenId, U256> = BTreeMap::new();
    for (t, a) in c.inputs.iter().skip(1) {
        *hold.entry(*t).or_default() += after_fee(*a);
    }
    for (t, a) in got {
        *hold.entry(*t).or_default() += *a;
    }
    hold.retain(|_, a| !a.is_zero());
    hold
}

/// The exact optimum on the target from target-coin holdings, on `state`.
fn finish(c: &Case, state: &Pool, hold: &BTreeMap<TokenId, U256>) -> U256 {
    let held: Vec<U256> = c
        .coins
        .iter()
        .map(|t| hold.get(t).copied().unwrap_or_default())
        .collect();
    mint_after(state, &held).unwrap_or_default()
}

/// The best mint over every burn and the router's plans of what is not a target coin at the
/// output mixes of a quarter grid (its swaps through the target replayed).
fn burn_and_route(c: &Case, lp_amount: U256) -> U256 {
    let mut best = U256::zero();
    for (got, after) in burns(c, lp_amount) {
        let mut g = c.g.clone();
        g.set_pool_state(c.src, after).unwrap();
        let hold = after_burn(c, &got);
        let external: Vec<(TokenId, U256)> = hold
            .iter()
            .filter(|(t, _)| !c.coins.contains(t))
            .map(|(t, a)| (*t, *a))
            .collect();
        let base = g.pool(c.target).unwrap().pool.clone();
        if external.is_empty() {
            best = best.max(finish(c, &base, &hold));
            continue;
        }
        for s in splits(c.coins.len(), 4) {
            let props = grid_mix(&c.coins, &s, 4);
            let Ok(plan) = route::quote(&g, &RouteRequest::new(external.clone(), props)) else {
                continue;
            };
            let Some(state) = replay_on_target(&g, c.target, &base, &plan) else {
                continue;
            };
            let mut h = hold.clone();
            for o in &plan.outputs {
                *h.entry(o.token).or_default() += o.amount;
            }
            best = best.max(finish(c, &state, &h));
        }
    }
    best
}

/// The best mint of a brute force: every burn, then each token that is not a target coin split
/// over its direct pools into the target's coins (and the burned pool, on its state after the
/// burn, where it trades that token for a target coin) on a grid of `units` parts, simulated
/// in order on the states reached.
fn brute_force(c: &Case, lp_amount: U256, units: usize) -> U256 {
    let mut best = U256::zero();
    for (got, after) in burns(c, lp_amount) {
        let hold = after_burn(c, &got);
        let ext: Vec<(TokenId, U256)> = hold
            .iter()
            .filter(|(t, _)| !c.coins.contains(t))
            .map(|(t, a)| (*t, *a))
            .collect();
        let src_tokens = c.g.pool(c.src).unwrap().tokens.clone();
        let legs: Vec<Vec<(PoolId, TokenId, TokenId)>> = ext
            .iter()
            .map(|(t, _)| {
                let mut l: Vec<_> = c.direct.iter().filter(|d| d.1 == *t).copied().collect();
                if src_tokens.contains(t) {
                    for o in &src_tokens {
                        if c.coins.contains(o) {
                            l.push((c.src, *t, *o));
                        }
                    }
                }
                l
            })
            .collect();
        let per: Vec<Vec<Vec<usize>>> = legs.iter().map(|l| splits(l.len(), units)).collect();
        // every combination of one split per token
        let mut idx = vec![0usize; per.len()];
        loop {
            let mut states: BTreeMap<PoolId, Pool> = BTreeMap::new();
            states.insert(c.src, after.clone());
            let mut h: BTreeMap<TokenId, U256> = hold
                .iter()
                .filter(|(t, _)| c.coins.contains(t))
                .map(|(t, a)| (*t, *a))
                .collect();
            let mut ok = true;
            for (ti, (t, total)) in ext.iter().enumerate() {
                let s = &per[ti][idx[ti]];
                let mut given = U256::zero();
                for (li, parts) in s.iter().enumerate() {
                    let last = s.iter().rposition(|p| *p > 0) == Some(li);
                    let amt = if last {
                        *total - given
                    } else {
                        *total * U256::from(*parts) / U256::from(units)
                    };
                    given += amt;
                    if amt.is_zero() {
                        continue;
                    }
                    let (p, from, to) = legs[ti][li];
                    debug_assert_eq!(from, *t);
                    let st = states
                        .get(&p)
                        .cloned()
                        .unwrap_or_else(|| c.g.pool(p).unwrap().pool.clone());
                    let i = c.g.coin_index(p, from).unwrap();
                    let j = c.g.coin_index(p, to).unwrap();
                    match st.swap(i, j, amt) {
                        Ok((o, next)) => {
                            states.insert(p, next);
                            *h.entry(to).or_default() += o;
                        }
                        Err(_) => ok = false,
                    }
                }
            }
            if ok {
                let base = c.g.pool(c.target).unwrap().pool.clone();
                best = best.max(finish(c, &base, &h));
            }
            // next combination
            let mut k = 0;
            while k < idx.len() {
                idx[k] += 1;
                if idx[k] < per[k].len() {
                    break;
                }
                idx[k] = 0;
                k += 1;
            }
            if k == idx.len() {
                break;
            }
        }
    }
    best
}

/// The bound of zap-ins with LP inputs of other pools, on generated markets: above the zap's
/// own plan, every other burn followed by the router at other mixes, and a brute force over
/// splits; its tightness (bound / the plan's mint, bound / the best found) per family pair.
#[test]
#[allow(clippy::print_stderr)] // the tightness table
fn lp_input_zap_bound_is_above_every_plan_found_otherwise() {
    let mut table = String::new();
    let mut all: [Vec<f64>; 2] = Default::default();
    let mut all_best = Vec::new();
    let mut count = 0;
    let mut checked = crate::zap_lp_meta::Checked::default();
    for s in [
        Fam::Cp,
        Fam::CpFeeOn,
        Fam::Volatile,
        Fam::Stable,
        Fam::Curve2,
    ] {
        for (t, cases) in [
            (Fam::Cp, 6),
            (Fam::Volatile, 4),
            (Fam::Stable, 4),
            (Fam::Curve2, 4),
            (Fam::Curve3, 3),
        ] {
            let mut ratio = Vec::new();
            let mut to_best = Vec::new();
            for seed in 0..cases {
                let c = case(seed + 1, t, s);
                let name = format!("{s:?} into {t:?} seed {seed}");
                let lp_amount = after_fee(c.inputs[0].1);
                let units = if c.inputs.len() > 1 { 6 } else { 12 };
                let Some((b, minted, others)) = checked.zap(&c.g, &c.inputs, c.lp, &name, || {
                    brute_force(&c, lp_amount, units).max(burn_and_route(&c, lp_amount))
                }) else {
                    continue;
                };
                if minted.is_zero() {
                    continue;
                }
                let best = others.max(minted);
                ratio.push(b / f(minted));
                all[usize::from(arbitrage(seed + 1))].push(b / f(minted));
                to_best.push(b / f(best));
                all_best.push(b / f(best));
                count += 1;
            }
            if ratio.is_empty() {
                continue;
            }
            let (med, max) = quantiles(&mut ratio);
            let (bmed, bmax) = quantiles(&mut to_best);
            table.push_str(&format!(
                "{s:?} LP into {t:?}: {} cases, bound/mint median {med:.6} max {max:.6}; bound/best found median {bmed:.6} max {bmax:.6}\n",
                ratio.len()
            ));
        }
    }
    for (k, name) in [(0, "consistent"), (1, "arbitrage")] {
        let (med, max) = quantiles(&mut all[k]);
        table.push_str(&format!(
            "all {name}: {} cases, bound/mint median {med:.6} max {max:.6}\n",
            all[k].len()
        ));
    }
    let (med, max) = quantiles(&mut all_best);
    table.push_str(&format!(
        "all: {count} cases, bound/best found median {med:.6} max {max:.6}\n"
    ));
    eprintln!("{table}");
    checked.assert_sound(usize::MAX);
}

/// Zap-ins with LP inputs on the first twelve public routing instances: the LP of every
/// constant-product, solidly and Curve pool with a supply (a hundredth of its supply) into the
/// LP of up to three other such pools. Every plan verifies and stays
/// within its bound; how many have a bound, and the tightness, are printed.
#[test]
#[allow(clippy::print_stderr)] // the tightness figures
fn lp_input_zap_bound_holds_on_the_routing_instances() {
    let mut tally = BoundTally::default();
    let mut failed = 0;
    let lp_pool = |p: &swapzap::graph::PoolInfo| {
        !p.pool.total_supply().is_zero()
            && matches!(
                p.pool,
                Pool::ConstantProduct(_) | Pool::Solidly(_) | Pool::StableSwap(_)
            )
    };
    for k in 0..12 {
        let name = crate::zap::plans::instance_name(k);
        let g = crate::zap::plans::graph(&name);
        let pools: Vec<PoolId> = (0..g.pools().len())
            .map(|i| PoolId(i as u32))
            .filter(|p| lp_pool(g.pool(*p).unwrap()) && g.lp_token(*p).is_ok())
            .collect();
        for (si, src) in pools.iter().enumerate() {
            let src_lp = g.lp_token(*src).unwrap();
            let supply = g.pool(*src).unwrap().pool.total_supply();
            // up to three targets, spread over the list
            let step = (pools.len() / 3).max(1);
            for tgt in pools.iter().skip(si % step).step_by(step).take(3) {
                if tgt == src {
                    continue;
                }
                let lp = g.lp_token(*tgt).unwrap();
                for share in [100u32] {
                    let a = supply / U256::from(share);
                    if a.is_zero() {
                        continue;
                    }
                    let Ok(z) = zap::zap_in(&g, &[(src_lp, a)], lp, &ZapOptions::default()) else {
                        failed += 1;
                        continue;
                    };
                    tally.add(&g, &z.plan, || {
                        format!(
                            "{name} {} LP into {}",
                            g.pool(*src).unwrap().id,
                            g.pool(*tgt).unwrap().id
                        )
                    });
                }
            }
        }
    }
    assert!(tally.planned >= 50, "{} planned", tally.planned);
    eprintln!(
        "{} LP-input zap-ins on pub-00..11 ({failed} failed to plan), {} without a bound; {}",
        tally.planned,
        tally.no_bound,
        tally.summary()
    );
}
