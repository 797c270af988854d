//! The bound of zap-ins through routed legs (`route::weighted_output_bound` and the target's
//! tangent, `zap::zap_in`'s `upper_bound`): on generated markets (an input token routed into
//! constant-product, solidly volatile and stable, and Curve 2- and 3-coin targets, over direct,
//! two-hop and arbitrage legs) no plan found otherwise mints more than the bound: the zap's own
//! plan, plans of the router at other output mixes (its swaps through the target replayed on
//! the target), and a brute force over a grid of splits of the input across the legs, each
//! simulated exactly and finished by the exact single-pool optimum.

use serde_json::{json, Value};
use swapzap::graph::PoolGraph;
use swapzap::pool::Pool;
use swapzap::route::{self, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::units::{PoolId, TokenId};
use swapzap::zap::{self, zap_in_pool, ZapConfig, ZapOptions};
use swapzap::U256;

pub(crate) fn f(x: U256) -> f64 {
    x.to_string().parse().unwrap()
}

/// A small deterministic generator (xorshift), so the cases are the same every run.
pub(crate) struct Rng(pub(crate) u64);
impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    /// uniform in [0, 1)
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// log-uniform in [lo, hi]
    pub(crate) fn log(&mut self, lo: f64, hi: f64) -> f64 {
        lo * (hi / lo).powf(self.unit())
    }
}

pub(crate) fn addr(k: u32) -> String {
    format!("0x{:040x}", 0x1000 + k)
}

/// The graph of a market written as JSON (chain 8453): its tokens and pools.
pub(crate) fn market_graph(tokens: serde_json::Value, pools: serde_json::Value) -> PoolGraph {
    let snap: Snapshot =
        serde_json::from_value(json!({"chain_id": 8453, "tokens": tokens, "pools": pools}))
            .unwrap();
    PoolGraph::from_snapshot(&snap).unwrap()
}

/// The pool of such a market whose id ends with `addr(k)`.
pub(crate) fn pool_at(g: &PoolGraph, k: u32) -> PoolId {
    let at = g.pools().iter().position(|p| p.id.ends_with(&addr(k)));
    PoolId(u32::try_from(at.unwrap()).unwrap())
}

pub(crate) fn int(x: f64) -> String {
    format!("{:.0}", x.max(1.0))
}

/// The target families of the cases.
#[derive(Clone, Copy, Debug)]
enum Target {
    Cp,
    Volatile,
    Stable,
    Curve2,
    Curve3,
}

/// One generated market: the graph, the input, the target and the legs a brute force splits
/// the input over (each a list of (pool, from, to) hops).
struct Case {
    g: PoolGraph,
    input: TokenId,
    amount: U256,
    coins: Vec<TokenId>,
    target: PoolId,
    lp: TokenId,
    legs: Vec<Vec<(PoolId, TokenId, TokenId)>>,
}

/// Whether case `seed` is a market with arbitrage cycles (prices off by more than the fees).
fn arbitrage(seed: u64) -> bool {
    seed % 3 == 0
}

/// Tokens: 0 the input A (18 decimals), 1..=n the target's coins (coin 2 with 6 decimals), 9 an
/// intermediate M. Coins are worth about 1 unit of coin 1 each (pegged for the stable
/// families, spread for the others), A about 2000. Pools: the target; A/coin_k direct pools
/// (uniswap-v2 or aerodrome volatile); A/M and M/coin_2 (a two-hop leg); a uniswap-v2
/// coin_1/coin_2 pool off the target's price (an arbitrage leg).
fn case(seed: u64, t: Target) -> Case {
    let mut r = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    for _ in 0..4 {
        r.next();
    }
    let n = if matches!(t, Target::Curve3) { 3 } else { 2 };
    let dec = |k: usize| if k == 2 { 6u32 } else { 18 };
    let unit = |k: usize| 10f64.powi(dec(k) as i32);
    let pegged = matches!(t, Target::Stable | Target::Curve2 | Target::Curve3);
    // coin prices in coin-1 units
    let price: Vec<f64> = (1..=n)
        .map(|k| {
            if k == 1 {
                1.0
            } else if pegged {
                1.0 + 0.004 * (r.unit() - 0.5)
            } else {
                r.log(0.05, 20.0)
            }
        })
        .collect();
    let pa = 2000.0;
    // every third market has prices off by more than the fees (arbitrage cycles)
    let spread = if arbitrage(seed) { 1.0 } else { 0.1 };
    let mut tokens = vec![json!({"address": addr(0), "symbol": "A", "decimals": 18})];
    for k in 1..=n {
        tokens.push(
            json!({"address": addr(k as u32), "symbol": format!("C{k}"), "decimals": dec(k)}),
        );
    }
    tokens.push(json!({"address": addr(9), "symbol": "M", "decimals": 18}));
    let depth = r.log(1e5, 1e8); // value of the target in coin-1 units
    let mut pools: Vec<Value> = Vec::new();
    let bal = |k: usize, value: f64, noise: f64| value / price[k - 1] * unit(k) * noise;
    let tid = "target".to_string();
    let (tsrc, ttoks): (&str, Vec<String>) = ("tgt", (1..=n).map(|k| addr(k as u32)).collect());
    let tres: Vec<String> = (1..=n)
        .map(|k| {
            int(bal(
                k,
                depth / n as f64,
                1.0 + spread * 0.03 * (r.unit() - 0.5),
            ))
        })
        .collect();
    let target_json = match t {
        Target::Cp => {
            json!({"id": format!("{tsrc}:{}", addr(100)), "source": tsrc, "kind": "constant_product",
            "tokens": ttoks, "reserves": tres, "fee": {"num": "3", "den": "1000"},
            "total_supply": int(depth * 1e12 * r.log(0.1, 10.0))})
        }
        Target::Volatile | Target::Stable => {
            json!({"id": format!("{tsrc}:{}", addr(100)), "source": tsrc,
            "kind": "solidly", "tokens": ttoks, "reserves": tres, "stable": matches!(t, Target::Stable),
            "fee_bps": if matches!(t, Target::Stable) { "5" } else { "30" }, "decimals": [18, 6],
            "total_supply": int(depth * 1e12 * r.log(0.1, 10.0))})
        }
        Target::Curve2 | Target::Curve3 => {
            json!({"id": format!("{tsrc}:{}", addr(100)), "source": tsrc,
            "kind": "stableswap", "tokens": ttoks, "reserves": tres,
            "a": int(r.log(10.0, 2000.0) * 100.0), "a_precision": "100", "fee": int(r.log(1e6, 4e7)),
            "lp_token": addr(200), "total_supply": int(depth * 1e18 * r.log(0.5, 2.0)),
            "variant": if seed % 2 == 0 { "classic" } else { "ng" }})
        }
    };
    let _ = tid;
    pools.push(target_json);
    let mut next = 101u32;
    let mut cp = |pools: &mut Vec<Value>, a: usize, ra: f64, b: usize, rb: f64, volatile: bool| {
        let id = addr(next);
        next += 1;
        pools.push(if volatile {
            json!({"id": format!("aerodrome:{id}"), "source": "aerodrome", "kind": "solidly",
                "tokens": [addr(a as u32), addr(b as u32)], "reserves": [int(ra), int(rb)], "stable": false,
                "fee_bps": "20", "decimals": [if a == 2 {6} else {18}, if b == 2 {6} else {18}],
                "total_supply": int((ra * rb).sqrt())})
        } else {
            json!({"id": format!("uniswap-v2:{id}"), "source": "uniswap-v2", "kind": "constant_product",
                "tokens": [addr(a as u32), addr(b as u32)], "reserves": [int(ra), int(rb)],
                "fee": {"num": "3", "den": "1000"}, "total_supply": int((ra * rb).sqrt())})
        });
    };
    // A/coin_k: value v each side, the price off by up to ±1 %
    for k in 1..=n {
        let v = r.log(1e5, 3e7);
        let noise = 1.0 + spread * 0.02 * (r.unit() - 0.5);
        cp(&mut pools, 0, v / pa * 1e18, k, bal(k, v, noise), k == 2);
    }
    // A/M and M/coin_2 (M worth 3)
    let v = r.log(1e5, 1e7);
    cp(&mut pools, 0, v / pa * 1e18, 9, v / 3.0 * 1e18, false);
    let v2 = r.log(1e5, 1e7);
    cp(
        &mut pools,
        9,
        v2 / 3.0 * 1e18,
        2,
        bal(2, v2, 1.0 + spread * 0.02 * (r.unit() - 0.5)),
        false,
    );
    // coin_1/coin_2 off the target's price by up to ±2 %
    let v3 = r.log(1e4, 1e7);
    cp(
        &mut pools,
        1,
        bal(1, v3, 1.0),
        2,
        bal(2, v3, 1.0 + spread * 0.04 * (r.unit() - 0.5)),
        false,
    );
    let g = market_graph(json!(tokens), json!(pools));
    let tok = |k: u32| g.token_id(&addr(k)).unwrap();
    let pid = |k: u32| pool_at(&g, k);
    let target = pid(100);
    let lp = g.lp_token(target).unwrap();
    let coins: Vec<TokenId> = (1..=n as u32).map(tok).collect();
    let (a, m) = (tok(0), tok(9));
    let mut legs: Vec<Vec<(PoolId, TokenId, TokenId)>> = (1..=n as u32)
        .map(|k| vec![(pid(100 + k), a, tok(k))])
        .collect();
    let base = 101 + n as u32;
    legs.push(vec![(pid(base), a, m), (pid(base + 1), m, tok(2))]);
    // the input: a fraction of the A/coin_1 pool's A
    let ra: f64 = g.pool(pid(101)).unwrap().pool.balances()[0]
        .to_string()
        .parse()
        .unwrap();
    let amount = U256::from_dec_str(&int(ra * r.log(1e-4, 0.5))).unwrap();
    let _ = pid(base + 2);
    Case {
        g,
        input: a,
        amount,
        coins,
        target,
        lp,
        legs,
    }
}

/// What the zap's plan model mints from coin holdings `held` on the target's `state`: the
/// exact single-pool optimum. `None` when the mint reverts.
pub(crate) fn mint_after(state: &Pool, held: &[U256]) -> Option<U256> {
    if held.iter().all(U256::is_zero) {
        return Some(U256::zero());
    }
    zap_in_pool(state, held, &ZapConfig::exact())
        .ok()
        .map(|z| z.minted)
}

/// The input after the zap fee (what every plan of the zap starts from).
pub(crate) fn after_fee(a: U256) -> U256 {
    a - zap::zap_fee(a, zap::ZAP_FEE_BPS).unwrap()
}

/// The output mix of a grid point `s` (units of `1/units` per coin of `coins`), coins with
/// no share left out.
pub(crate) fn grid_mix(
    coins: &[TokenId],
    s: &[usize],
    units: u64,
) -> Vec<(TokenId, num_rational::Ratio<u64>)> {
    coins
        .iter()
        .zip(s)
        .filter(|(_, p)| **p > 0)
        .map(|(t, p)| (*t, num_rational::Ratio::new(*p as u64, units)))
        .collect()
}

/// Splits of `units` parts over `k` legs.
pub(crate) fn splits(k: usize, units: usize) -> Vec<Vec<usize>> {
    if k == 1 {
        return vec![vec![units]];
    }
    let mut out = Vec::new();
    for first in 0..=units {
        for mut rest in splits(k - 1, units - first) {
            rest.insert(0, first);
            out.push(rest);
        }
    }
    out
}

/// The best mint of a brute force over splits of the input across the legs (grid of `units`
/// parts), each leg simulated exactly on the snapshot's pools (the legs share no pool).
fn brute_force(c: &Case, units: usize) -> U256 {
    let total = after_fee(c.amount);
    let state = c.g.pool(c.target).unwrap().pool.clone();
    let mut best = U256::zero();
    for s in splits(c.legs.len(), units) {
        let mut held = vec![U256::zero(); c.coins.len()];
        let mut given = U256::zero();
        let mut ok = true;
        for (li, (leg, parts)) in c.legs.iter().zip(&s).enumerate() {
            // the last leg with a share takes the remainder, so the whole input is spent
            let last = s.iter().rposition(|p| *p > 0) == Some(li);
            let mut amt = if last {
                total - given
            } else {
                total * U256::from(*parts) / U256::from(units)
            };
            given += amt;
            if amt.is_zero() {
                continue;
            }
            for (p, ti, to) in leg {
                let pool = &c.g.pool(*p).unwrap().pool;
                let i = c.g.coin_index(*p, *ti).unwrap();
                let j = c.g.coin_index(*p, *to).unwrap();
                match pool.swap(i, j, amt) {
                    Ok((o, _)) => amt = o,
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
            }
            if !ok {
                break;
            }
            let to = leg.last().unwrap().2;
            let k = c.coins.iter().position(|t| *t == to).unwrap();
            held[k] += amt;
        }
        if !ok {
            continue;
        }
        if let Some(m) = mint_after(&state, &held) {
            best = best.max(m);
        }
    }
    best
}

/// The router plan `plan`'s swaps through `target` replayed in order on the target's `state`
/// (each must give the plan's amount): the state after them, `None` when one reverts.
pub(crate) fn replay_on_target(
    g: &PoolGraph,
    target: PoolId,
    state: &Pool,
    plan: &swapzap::plan::Plan,
) -> Option<Pool> {
    let mut state = state.clone();
    for st in &plan.steps {
        let (p, sold, bought) = st.as_swap().unwrap();
        if p == target {
            let i = g.coin_index(p, sold.token).unwrap();
            let j = g.coin_index(p, bought.token).unwrap();
            let (o, next) = state.swap(i, j, sold.amount).ok()?;
            assert_eq!(o, bought.amount);
            state = next;
        }
    }
    Some(state)
}

/// The best mint over router plans at other output mixes: the input routed by `route::quote`
/// into the coins at proportions on a grid, its swaps through the target replayed on the
/// target's state, then the exact single-pool optimum.
fn other_mixes(c: &Case) -> U256 {
    let n = c.coins.len();
    let mut best = U256::zero();
    for s in splits(n, 4) {
        let props = grid_mix(&c.coins, &s, 4);
        let req = RouteRequest::new(vec![(c.input, after_fee(c.amount))], props);
        let Ok(plan) = route::quote(&c.g, &req) else {
            continue;
        };
        let Some(state) =
            replay_on_target(&c.g, c.target, &c.g.pool(c.target).unwrap().pool, &plan)
        else {
            continue;
        };
        let mut held = vec![U256::zero(); n];
        for o in &plan.outputs {
            if let Some(k) = c.coins.iter().position(|t| *t == o.token) {
                held[k] += o.amount;
            }
        }
        if let Some(m) = mint_after(&state, &held) {
            best = best.max(m);
        }
    }
    best
}

/// How much less than the best plan of the mix grid and the brute force the zap may mint
/// (relative): the split search's budget and its resolution (see `zap::zap_in`'s docs).
const ZAP_SPLIT_TOLERANCE: f64 = 1e-4;

pub(crate) fn quantiles(v: &mut [f64]) -> (f64, f64) {
    v.sort_by(f64::total_cmp);
    (v[v.len() / 2], v[v.len() - 1])
}

/// The bound / mint ratios of a set of zap-ins as one line: how many, median, p90, max and
/// how many above 1.01.
fn ratio_summary(ratio: &mut [f64]) -> String {
    let (med, max) = quantiles(ratio);
    let p90 = ratio[ratio.len() * 9 / 10];
    let above = ratio.iter().filter(|r| **r > 1.01).count();
    format!(
        "bound/mint over {}: median {med:.6} p90 {p90:.6} max {max:.3e}, {above} above 1.01",
        ratio.len()
    )
}

/// Zap-in plans checked against their bound: how many were planned, how many had no bound,
/// and the bound / mint ratios of the others.
#[derive(Default)]
pub(crate) struct BoundTally {
    pub(crate) planned: usize,
    pub(crate) no_bound: usize,
    ratio: Vec<f64>,
}

impl BoundTally {
    /// Verifies `plan` exactly on `g` and counts it; when it has a bound, asserts the bound is
    /// not below the mint (`what` names the zap in the failure) and keeps bound / mint.
    pub(crate) fn add(
        &mut self,
        g: &PoolGraph,
        plan: &swapzap::plan::Plan,
        what: impl Fn() -> String,
    ) {
        plan.verify(g).unwrap();
        self.planned += 1;
        let m = plan.outputs[0].amount;
        let Some(b) = plan.upper_bound else {
            self.no_bound += 1;
            return;
        };
        assert!(b >= f(m), "{}: bound {b} below the mint {m}", what());
        if !m.is_zero() {
            self.ratio.push(b / f(m));
        }
    }

    /// [`ratio_summary`] of the ratios kept.
    pub(crate) fn summary(&self) -> String {
        ratio_summary(&mut self.ratio.clone())
    }
}

/// The routed bound on generated markets: above the zap's own plan, the router's plans at
/// other mixes and a brute force over splits of the input across the legs (exact simulation);
/// its tightness (bound / the plan's mint) by family.
#[test]
#[allow(clippy::print_stderr)] // the tightness table
fn routed_zap_bound_is_above_every_plan_found_otherwise() {
    let mut table = String::new();
    // bound / the plan's mint, and the best mint found / the plan's, per market kind
    let mut all: [Vec<f64>; 2] = Default::default();
    let mut misses = Vec::new();
    let mut all_beaten = 0;
    for (t, cases, units) in [
        (Target::Cp, 24, 20),
        (Target::Volatile, 24, 20),
        (Target::Stable, 24, 20),
        (Target::Curve2, 12, 10),
        (Target::Curve3, 9, 6),
    ] {
        let mut ratio: [Vec<f64>; 2] = Default::default();
        let mut to_best = Vec::new();
        let mut beaten = 0;
        let mut worst = 0.0f64;
        // router quotes and bound solves per zap
        let mut spent: [Vec<f64>; 2] = Default::default();
        for seed in 0..cases {
            let c = case(seed + 1, t);
            let z = zap::zap_in(&c.g, &[(c.input, c.amount)], c.lp, &ZapOptions::default())
                .unwrap_or_else(|e| panic!("{t:?} seed {seed}: {e}"));
            z.plan.verify(&c.g).unwrap();
            spent[0].push(f64::from(z.cost.router_quotes));
            spent[1].push(f64::from(z.cost.bound_solves));
            let minted = z.plan.outputs[0].amount;
            let b = z
                .plan
                .upper_bound
                .unwrap_or_else(|| panic!("{t:?} seed {seed}: no bound"));
            let brute = brute_force(&c, units);
            let mixes = other_mixes(&c);
            for (what, m) in [
                ("plan", minted),
                ("brute force", brute),
                ("other mixes", mixes),
            ] {
                assert!(
                    b >= f(m),
                    "{t:?} seed {seed}: bound {b} below the {what}'s mint {m} (plan {minted})"
                );
            }
            assert!(!minted.is_zero(), "{t:?} seed {seed}: nothing minted");
            let best = brute.max(mixes).max(minted);
            if best > minted {
                beaten += 1;
                let short = f(best) / f(minted) - 1.0;
                worst = worst.max(short);
                if short > ZAP_SPLIT_TOLERANCE {
                    misses.push(format!(
                        "{t:?} seed {seed}: plan {minted}, grid or brute force {best} (+{short:.3e})"
                    ));
                }
            }
            ratio[usize::from(arbitrage(seed + 1))].push(b / f(minted));
            to_best.push(b / f(best));
        }
        for (k, name) in [(0, "consistent"), (1, "arbitrage")] {
            let (med, max) = quantiles(&mut ratio[k]);
            table.push_str(&format!(
                "{t:?} {name}: {} cases, bound/mint median {med:.6} max {max:.6}\n",
                ratio[k].len()
            ));
            all[k].extend(ratio[k].iter().copied());
        }
        let (med, max) = quantiles(&mut to_best);
        table.push_str(&format!(
            "{t:?}: the plan beaten by another plan in {beaten} cases (by at most {worst:.3e}); bound/best found median {med:.6} max {max:.6}\n"
        ));
        let total: f64 = spent[0].iter().sum();
        let (qmed, qmax) = quantiles(&mut spent[0]);
        let (smed, smax) = quantiles(&mut spent[1]);
        table.push_str(&format!(
            "{t:?}: router quotes per zap median {qmed} max {qmax} (total {total}), bound solves median {smed} max {smax}\n"
        ));
        all_beaten += beaten;
    }
    for (k, name) in [(0, "consistent"), (1, "arbitrage")] {
        let (med, max) = quantiles(&mut all[k]);
        table.push_str(&format!(
            "all {name}: {} cases, median {med:.6} max {max:.6}\n",
            all[k].len()
        ));
    }
    table.push_str(&format!(
        "all: the plan beaten by another plan in {all_beaten} cases\n"
    ));
    eprintln!("{table}");
    assert!(
        misses.is_empty(),
        "the zap mints less than a grid or brute-force plan by more than {ZAP_SPLIT_TOLERANCE:e}:\n{}",
        misses.join("\n")
    );
}

/// Zap-ins that route, on the first twelve public routing instances: the instance's input (its
/// amount, and a hundredth of it) into every LP pool with a supply that does not hold it. Every
/// plan verifies and stays within its routed bound; the tightness (bound / mint) is printed.
#[test]
#[allow(clippy::print_stderr)] // the tightness figures
fn routed_zap_bound_holds_on_the_routing_instances() {
    let mut tally = BoundTally::default();
    for k in 0..12 {
        let name = crate::zap::plans::instance_name(k);
        let g = crate::zap::plans::graph(&name);
        let v: Value = serde_json::from_str(
            &std::fs::read_to_string(crate::shared().join("routing/instances").join(&name))
                .unwrap(),
        )
        .unwrap();
        let inp = &v["request"]["inputTokens"][0];
        let t = g
            .token_id(&inp["tokenAddress"].as_str().unwrap().to_lowercase())
            .unwrap();
        let amount = U256::from_dec_str(inp["amount"].as_str().unwrap()).unwrap();
        for (pi, info) in g.pools().iter().enumerate() {
            let p = PoolId(pi as u32);
            let Ok(lp) = g.lp_token(p) else { continue };
            if info.pool.total_supply().is_zero() || info.tokens.contains(&t) {
                continue;
            }
            if !matches!(
                info.pool,
                Pool::ConstantProduct(_) | Pool::Solidly(_) | Pool::StableSwap(_)
            ) {
                continue;
            }
            for a in [amount, amount / U256::from(100u32)] {
                let Ok(z) = zap::zap_in(&g, &[(t, a)], lp, &ZapOptions::default()) else {
                    continue;
                };
                tally.add(&g, &z.plan, || format!("{name} {}", info.id));
            }
        }
    }
    assert!(tally.planned >= 50, "{} planned", tally.planned);
    eprintln!(
        "{} routed zap-ins on pub-00..11, {} without a bound; {}",
        tally.planned,
        tally.no_bound,
        tally.summary()
    );
}

/// A mix seen: its split, the mint, the outputs delivered and the steps through other pools.
type SeenMix = (Vec<usize>, U256, Vec<U256>, Vec<String>);

/// Why some output mixes of a routed zap-in mint exactly the same (the split search's model
/// then finds the mint flat and stops): the router honours the mix, but delivers the
/// difference between two mixes through the target pool itself (the cheapest way from one coin
/// to the other), and the target's own optimal swap then redoes it. On the generated
/// two-coin markets, whenever two mixes of a quarter grid mint the same, their router plans
/// differ only in their swaps through the target: every other step is the same, while the
/// outputs follow each mix. Where the target keeps its fee (V2) the mints differ by the fee's
/// compounding; a solidly pool takes the fee out, so its swaps compose exactly.
#[test]
#[allow(clippy::print_stderr)] // the count of equal pairs
fn equal_mints_across_mixes_come_from_swaps_through_the_target() {
    let mut equal = 0;
    for (t, cases) in [
        (Target::Cp, 24),
        (Target::Volatile, 24),
        (Target::Stable, 24),
        (Target::Curve2, 12),
    ] {
        for seed in 0..cases {
            let c = case(seed + 1, t);
            let n = c.coins.len();
            // per mix: the mint, the outputs and the steps through other pools
            let mut seen: Vec<SeenMix> = Vec::new();
            for s in splits(n, 4) {
                let props = grid_mix(&c.coins, &s, 4);
                let req = RouteRequest::new(vec![(c.input, after_fee(c.amount))], props);
                let Ok(plan) = route::quote(&c.g, &req) else {
                    continue;
                };
                let state =
                    replay_on_target(&c.g, c.target, &c.g.pool(c.target).unwrap().pool, &plan)
                        .unwrap();
                let mut others: Vec<String> = plan
                    .steps
                    .iter()
                    .filter_map(|st| st.as_swap())
                    .filter(|(p, _, _)| *p != c.target)
                    .map(|(p, sold, bought)| format!("{p:?} {sold:?} {bought:?}"))
                    .collect();
                others.sort();
                let mut held = vec![U256::zero(); n];
                for o in &plan.outputs {
                    if let Some(k) = c.coins.iter().position(|t| *t == o.token) {
                        held[k] += o.amount;
                    }
                }
                let Some(m) = mint_after(&state, &held) else {
                    continue;
                };
                for (s2, m2, held2, others2) in &seen {
                    if *m2 == m && !m.is_zero() {
                        equal += 1;
                        assert_ne!(
                            held2, &held,
                            "{t:?} seed {seed}: {s2:?} and {s:?} deliver the same"
                        );
                        assert_eq!(
                            others2, &others,
                            "{t:?} seed {seed}: {s2:?} and {s:?} mint {m} both, through other routes"
                        );
                    }
                }
                seen.push((s, m, held, others));
            }
        }
    }
    eprintln!("{equal} pairs of mixes minting the same, each through the target");
    assert!(equal > 0);
}
