//! The certificate's rounding slack against a brute force: on small markets of coarse-unit
//! tokens (8 decimals; a unit of the input is worth 2 of the middle tokens and 10 of the
//! output, as a WBTC unit is worth many of a 6-decimal token's) joined by solidly volatile
//! pools with fees of 5 to 1000 bps, every integer plan of up to three swaps that never sells
//! the output (each pool direction at most once, every amount from one unit to all that is
//! held, dust swaps below a fee's first unit included) is simulated exactly, and none may
//! deliver more than the quote's `upper_bound`. The dust swaps pay: on these markets the best
//! of them (the whole input through the 5 bps pool, whose fee rounds to nothing) beats the
//! quote's own plan, so the bound must count what integer rounding wins over the float curves.
#![allow(clippy::print_stderr, clippy::indexing_slicing)]

use serde_json::json;
use swapzap::graph::PoolGraph;
use swapzap::pool::Solidly;
use swapzap::route::{self, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::units::TokenId;
use swapzap::U256;

/// A deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The pools: token pair and fee in bps. Tokens: 0 the input, 3 the output, 1 and 2 between.
const POOLS: [(usize, usize, u32); 9] = [
    (0, 3, 5),
    (0, 3, 30),
    (0, 1, 100),
    (0, 1, 300),
    (1, 3, 100),
    (1, 3, 30),
    (0, 2, 1000),
    (2, 3, 30),
    (1, 2, 100),
];

/// Units of each token worth one unit of the input.
const UNITS: [f64; 4] = [1.0, 2.0, 2.0, 10.0];

/// Reserves of the pools of market `seed`: 1e9 units of the input's worth a side, the second
/// side off by up to 0.6 of the pool's fee either way (so dust swaps can pay, and some cycles
/// too).
fn reserves(seed: u64) -> Vec<[u64; 2]> {
    let mut r = Rng(seed);
    POOLS
        .iter()
        .map(|(a, b, bps)| {
            let off = (r.unit() - 0.5) * 1.2 * f64::from(*bps) / 1e4;
            [
                (1e9 * UNITS[*a]) as u64,
                (1e9 * UNITS[*b] * (1.0 + off)) as u64,
            ]
        })
        .collect()
}

fn addr(k: usize) -> String {
    format!("0x{:040x}", k + 1)
}

/// The market of `res`: solidly volatile pools, or (`cp`) x·y = k pools of the same fees.
fn graph(res: &[[u64; 2]], cp: bool) -> PoolGraph {
    let tokens: Vec<_> = (0..4)
        .map(|k| json!({"address": addr(k), "symbol": format!("C{k}"), "decimals": 8}))
        .collect();
    let pools: Vec<_> = POOLS
        .iter()
        .zip(res)
        .enumerate()
        .map(|(i, ((a, b, bps), r))| {
            let (tokens, reserves) = ([addr(*a), addr(*b)], [r[0].to_string(), r[1].to_string()]);
            if cp {
                json!({"id": format!("uniswap-v2:{}", addr(100 + i)), "source": "uniswap-v2",
                    "kind": "constant_product", "tokens": tokens, "reserves": reserves,
                    "fee": {"num": bps.to_string(), "den": "10000"}})
            } else {
                json!({"id": format!("aerodrome:{}", addr(100 + i)), "source": "aerodrome",
                    "kind": "solidly", "tokens": tokens, "reserves": reserves, "stable": false,
                    "fee_bps": bps.to_string(), "decimals": [8, 8],
                    "total_supply": "1000000000"})
            }
        })
        .collect();
    let snap: Snapshot =
        serde_json::from_value(json!({"chain_id": 8453, "tokens": tokens, "pools": pools}))
            .unwrap();
    PoolGraph::from_snapshot(&snap).unwrap()
}

/// The most of token 3 any plan of at most `depth` more swaps delivers from `hold` (each pool
/// direction at most once: `used`), simulated exactly on `pools`.
fn best(pools: &mut [Solidly], hold: &mut [u64; 4], used: &mut [bool], depth: usize) -> u64 {
    let mut top = hold[3];
    if depth == 0 {
        return top;
    }
    for (p, (a, b, _)) in POOLS.iter().enumerate() {
        for (dir, (ti, to)) in [(*a, *b), (*b, *a)].into_iter().enumerate() {
            let d = 2 * p + dir;
            // (plans that sell the output are left out: a subset of the plans is bounded too)
            if used[d] || hold[ti] == 0 || ti == 3 {
                continue;
            }
            used[d] = true;
            let i = usize::from(ti != POOLS[p].0);
            for x in 1..=hold[ti] {
                let Ok(y) = pools[p].amount_out(i, 1 - i, U256::from(x)) else {
                    continue;
                };
                if y.is_zero() {
                    continue;
                }
                let before = pools[p].clone();
                pools[p] = before.swap_exact(i, U256::from(x), y).unwrap();
                hold[ti] -= x;
                hold[to] += y.as_u64();
                top = top.max(best(pools, hold, used, depth - 1));
                hold[to] -= y.as_u64();
                hold[ti] += x;
                pools[p] = before;
            }
            used[d] = false;
        }
    }
    top
}

/// No integer plan of up to three swaps beats the bound, dust swaps included; on some markets
/// such a plan beats the quote's own plan (integer rounding pays), and on some it beats the
/// bound less its `rounding_slack`, the float curves' bound (the slack is needed).
#[test]
fn no_small_integer_plan_beats_the_bound_on_coarse_solidly_markets() {
    let (mut beats_plan, mut beats_float) = (0, 0);
    for seed in [3u64, 11] {
        let res = reserves(seed);
        let g = graph(&res, false);
        let amount = 24u64;
        let req = RouteRequest::new(
            vec![(TokenId(0), U256::from(amount))],
            vec![(TokenId(3), num_rational::Ratio::new(1, 1))],
        );
        let plan = route::quote(&g, &req).unwrap();
        plan.verify(&g).unwrap();
        let bound = plan.upper_bound.unwrap();
        let slack = plan.rounding_slack.unwrap();
        assert!(slack > 0.0 && slack <= bound, "seed {seed}: slack {slack}");
        let mut pools: Vec<Solidly> = POOLS
            .iter()
            .zip(&res)
            .map(|((_, _, bps), r)| {
                Solidly::new(
                    [U256::from(r[0]), U256::from(r[1])],
                    [8, 8],
                    false,
                    *bps,
                    U256::from(1_000_000_000u64),
                )
                .unwrap()
            })
            .collect();
        let mut hold = [amount, 0, 0, 0];
        let mut used = vec![false; 2 * POOLS.len()];
        let top = best(&mut pools, &mut hold, &mut used, 3);
        eprintln!(
            "seed {seed}: plan {} best of the brute force {top} bound {bound:.4} slack {slack:.4}",
            plan.value
        );
        assert!(top as f64 <= bound, "seed {seed}: {top} > bound {bound}");
        if top as f64 > plan.value {
            beats_plan += 1;
        }
        if top as f64 > bound - slack {
            beats_float += 1;
        }
    }
    assert!(
        beats_plan > 0,
        "no market where a dust plan beats the quote"
    );
    assert!(
        beats_float > 0,
        "no market where an integer plan beats the float curves' bound"
    );
}

/// x·y = k outputs are floors of the float curve, so integer rounding wins nothing against
/// it: on the same markets built of x·y = k pools the bound has no rounding slack, and the
/// float gap is the bound's gap.
#[test]
fn an_xyk_market_has_no_rounding_slack() {
    for seed in [3u64, 11] {
        let g = graph(&reserves(seed), true);
        let req = RouteRequest::new(
            vec![(TokenId(0), U256::from(1_000_000u64))],
            vec![(TokenId(3), num_rational::Ratio::new(1, 1))],
        );
        let plan = route::quote(&g, &req).unwrap();
        plan.verify(&g).unwrap();
        assert_eq!(plan.rounding_slack, Some(0.0), "seed {seed}");
        assert_eq!(plan.float_gap(), plan.bound_gap(), "seed {seed}");
        assert!(plan.upper_bound.unwrap() >= plan.value);
    }
}
