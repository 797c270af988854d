//! Gas on markets whose routes are long chains: a request with a gas model never nets less
//! than the same request under any hop cap, also past the 6 hops of the default working set.

use num_rational::Ratio;
use proptest::prelude::*;
use swapzap::graph::PoolGraph;
use swapzap::plan::Plan;
use swapzap::route::{self, GasModel, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::units::TokenId;
use swapzap::U256;

/// A market of x·y = k pools (0.3 %, both reserves `depth` whole tokens of 18 decimals): one
/// chain of `len` pools from token 0 to token 1 per entry of `chains` (its own intermediate
/// tokens), and one direct pool of depth `direct`.
pub fn chain_market(chains: &[(usize, u64)], direct: u64) -> PoolGraph {
    let addr = |k: usize| format!("0x{k:040x}");
    let pool = |id: usize, a: usize, b: usize, depth: u64| {
        format!(
            r#"{{ "id": "uniswap-v2:{}", "source": "uniswap-v2", "kind": "constant_product",
              "fee": {{ "num": "3", "den": "1000" }}, "tokens": ["{}", "{}"],
              "reserves": ["{depth}000000000000000000", "{depth}000000000000000000"] }}"#,
            addr(1000 + id),
            addr(a + 1),
            addr(b + 1)
        )
    };
    let mut n_tokens = 2;
    let mut pools = Vec::new();
    for &(len, depth) in chains {
        let mut prev = 0;
        for k in 0..len {
            let next = if k + 1 == len {
                1
            } else {
                n_tokens += 1;
                n_tokens - 1
            };
            pools.push(pool(pools.len(), prev, next, depth));
            prev = next;
        }
    }
    pools.push(pool(pools.len(), 0, 1, direct));
    let tokens: Vec<String> = (0..n_tokens)
        .map(|k| {
            format!(
                r#"{{ "address": "{}", "symbol": "T{k}", "decimals": 18 }}"#,
                addr(k + 1)
            )
        })
        .collect();
    let snap: Snapshot = serde_json::from_str(&format!(
        r#"{{ "chain_id": 1, "tokens": [{}], "pools": [{}] }}"#,
        tokens.join(","),
        pools.join(",")
    ))
    .unwrap();
    PoolGraph::from_snapshot(&snap).unwrap()
}

/// `whole` tokens of token 0 to token 1, with a gas price at which one typical 60k-gas step
/// costs `cost` of the gas-free plan's output.
fn gas_request(g: &PoolGraph, whole: u64, cost: f64) -> Option<(RouteRequest, Plan)> {
    let amount = U256::exp10(18) * whole;
    let mut req = RouteRequest::new(
        vec![(TokenId(0), amount)],
        vec![(TokenId(1), Ratio::from_integer(1))],
    );
    let free = route::quote(g, &req).ok()?;
    req.gas = Some(GasModel::typical(cost * free.value / 60_000.0));
    let net = route::quote(g, &req).unwrap();
    net.verify(g).unwrap();
    Some((req, net))
}

/// The first hop cap from 1 to `caps` under which `req` (quoted) nets more than `net`, with
/// what it nets there (a value that does not compare, NaN, counts as more); `None` when none
/// does.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // NaN must count as a failure
pub fn cap_netting_more(
    g: &PoolGraph,
    req: &RouteRequest,
    net: f64,
    caps: usize,
) -> Option<(usize, f64)> {
    (1..=caps).find_map(|h| {
        let mut capped = req.clone();
        capped.max_hops = Some(h);
        let c = route::quote(g, &capped).ok()?;
        (!(net >= c.value)).then_some((h, c.value))
    })
}

/// Chains of 7, 9 and 7 hops beside a shallow direct pool, a step costing 2 % of the output:
/// the request capped at 7 to 9 hops takes the deeper 7-hop chain alone and nets 1.3 % more
/// than the request did when it compared itself with the caps up to 6 only (its leg drops kept
/// the direct pool beside that chain; the single path looks 6 hops far without a cap). Now
/// the caps run to the 9 hops where the working set stops growing.
#[test]
fn gas_plan_nets_at_least_a_seven_hop_cap() {
    let g = chain_market(&[(7, 44_384), (9, 18_782), (7, 94_401)], 1_690);
    let (req, net) = gas_request(&g, 1_000, 0.02).unwrap();
    let mut capped = req.clone();
    capped.max_hops = Some(7);
    let seven = route::quote(&g, &capped).unwrap();
    // the 7-hop chain alone: 7 steps
    assert_eq!(seven.steps.len(), 7, "{:?}", seven.steps);
    assert!(
        net.value >= seven.value,
        "cap 7 nets {} > {}",
        seven.value,
        net.value
    );
    // the request's plan is that chain too (the direct pool's step does not pay)
    assert_eq!(net.steps, seven.steps);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, failure_persistence: None, ..ProptestConfig::default() })]

    /// With a gas model, a request on a market of two or three chains of 5 to 14 hops beside
    /// a direct pool never nets less than the same request capped at any of 1 to 24 hops.
    #[test]
    fn gas_plans_never_net_less_than_any_hop_cap(
        chains in proptest::collection::vec((5usize..15, 1_000u64..100_000), 2..4),
        direct in 100u64..10_000,
        whole in 100u64..20_000,
        cost in 0.002f64..0.03,
    ) {
        let g = chain_market(&chains, direct);
        let Some((req, net)) = gas_request(&g, whole, cost) else {
            return Ok(());
        };
        let more = cap_netting_more(&g, &req, net.value, 24);
        prop_assert!(more.is_none(), "(cap, net) {:?} nets more than {}", more, net.value);
    }
}

/// Exact-out with a gas model where the plans net of gas, at the input cap, deliver less than
/// wanted but a plan of more steps delivers it: chains of 12 and 10 hops beside a direct pool,
/// a step costing 0.5 % of the output, and 99.9 % of what the gas-free plan of the cap
/// delivers wanted. The plan is the least input of the gas-free plans (valid for the request,
/// gas priced with its model), not error 4006; with 1e-5 less input no plan delivers it.
#[test]
fn exact_out_with_gas_takes_more_steps_rather_than_failing() {
    use swapzap::plan::PlanRequest;
    let g = chain_market(&[(12, 6_189), (10, 89_622)], 2_976);
    let cap = U256::exp10(18) * 20_000;
    let mut req = RouteRequest::new(
        vec![(TokenId(0), cap)],
        vec![(TokenId(1), Ratio::from_integer(1))],
    );
    let free = route::quote(&g, &req).unwrap();
    let got = free.outputs[0].amount;
    req.gas = Some(GasModel::typical(0.005 * free.value / 60_000.0));
    let netted = route::quote(&g, &req).unwrap();
    let wanted = got - got / 1000;
    // the plan net of gas at the cap is short of it
    assert!(netted.outputs[0].amount < wanted);
    req.exact_out = Some(wanted);
    let p = route::quote(&g, &req).unwrap();
    p.verify(&g).unwrap();
    let spent = p.inputs[0].amount;
    // within the cap, at least the wanted amount, its gas units, price and net value as the
    // request's gas model says
    let want = PlanRequest::swap(&req);
    p.verify_request(&g, &want).unwrap();
    // and not for a lower cap or a larger wanted amount
    let mut low = want.clone();
    low.inputs[0].1 = spent - 1;
    let e = p.verify_request(&g, &low).unwrap_err();
    assert!(
        format!("{e}").contains("spends more than the request allows"),
        "{e}"
    );
    let mut more = want.clone();
    more.exact_out = Some(p.outputs[0].amount + 1);
    let e = p.verify_request(&g, &more).unwrap_err();
    assert!(format!("{e}").contains("below the wanted amount"), "{e}");
    assert!(p.outputs[0].amount >= wanted && spent <= cap);
    assert!(p.gas_units > 0 && p.gas_price == req.gas.map(|m| m.gas_price));
    // minimal to 1e-5: less input gives less than wanted, with gas or without
    let mut less = req.clone();
    less.exact_out = None;
    less.inputs[0].1 = spent - spent / 100_000 - 1;
    for gas in [req.gas, None] {
        less.gas = gas;
        let under = route::quote(&g, &less).unwrap().outputs[0].amount;
        assert!(under < wanted, "{under} >= {wanted}");
    }
}

/// Two outputs with a gas model: the hop caps' plans are compared at the request's own prices
/// (several outputs are valued at mid prices found within a hop cap), so the plan kept is
/// worth no more than its bound and answers its request. Before, the plan of the 1-hop cap
/// was kept at its own cap's prices: worth 9877372 against the bound 9877358.9, and
/// `verify_request` refused the router's own plan.
#[test]
fn two_output_gas_plans_are_valued_at_the_requests_prices() {
    use crate::routing::route_gen;
    use swapzap::plan::PlanRequest;
    let seed = 350_957;
    let mut m = route_gen::market(seed, 8, 20);
    route_gen::add_cl_pools(&mut m, seed, 3);
    let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
    let usd = 5936.17;
    let amount = U256::from_dec_str(&format!(
        "{:.0}",
        usd / m.prices[0] * 10f64.powi(i32::from(m.decimals[0]))
    ))
    .unwrap();
    let mut req = RouteRequest::new(
        vec![(TokenId(0), amount)],
        vec![
            (TokenId(4), Ratio::new(1, 3)),
            (TokenId(1), Ratio::new(2, 3)),
        ],
    );
    req.gas = Some(GasModel::typical(1e-3));
    let plan = route::quote(&g, &req).unwrap();
    let bound = plan.upper_bound.unwrap();
    assert!(
        plan.value <= bound,
        "value {} above the bound {bound}",
        plan.value
    );
    plan.verify_request(&g, &PlanRequest::swap(&req)).unwrap();
}

/// Gas plans on small generated markets (one input, one output, gas prices from a hundred
/// thousandth to a hundredth of the output per 150 k gas) pass `route::verify_quote`, whose
/// price impact is the plan's outputs at the request's own mid prices. Before, a plan kept
/// from a hop cap carried the price impact at that cap's mid prices (a 1-hop cap prices the
/// input by its direct pools only).
#[test]
fn gas_plans_from_hop_caps_carry_the_requests_price_impact() {
    use crate::routing::route_gen;
    let (mut checked, mut capped) = (0, 0);
    for seed in 0..60u64 {
        let m = route_gen::market(9_000 + seed, 10, 30);
        let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
        let (ti, to) = ((seed % 10) as usize, ((seed / 10 + 3) % 10) as usize);
        if ti == to {
            continue;
        }
        let usd = 10f64.powf(2.0 + (seed % 5) as f64);
        let amount = U256::from_dec_str(&format!(
            "{:.0}",
            usd / m.prices[ti] * 10f64.powi(i32::from(m.decimals[ti]))
        ))
        .unwrap();
        let mut req = RouteRequest::new(
            vec![(TokenId(ti as u32), amount)],
            vec![(TokenId(to as u32), Ratio::from_integer(1))],
        );
        let Ok(free) = route::quote(&g, &req) else {
            continue;
        };
        let out = free.outputs[0].amount.to_string().parse::<f64>().unwrap();
        for share in [1e-5, 1e-4, 1e-3, 1e-2] {
            req.gas = Some(GasModel::typical(out * share / 150_000.0));
            let Ok(plan) = route::quote(&g, &req) else {
                continue;
            };
            route::verify_quote(&g, &req, &plan)
                .unwrap_or_else(|e| panic!("seed {seed}, gas share {share}: {e}"));
            checked += 1;
            if plan.steps.len() < free.steps.len() {
                capped += 1;
            }
        }
    }
    assert!(
        checked >= 150 && capped >= 20,
        "{checked} checked, {capped} with fewer steps"
    );
}
