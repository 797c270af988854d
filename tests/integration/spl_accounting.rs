//! SPL Token Swap input accounting (issue 17): the program computes the output from the offered
//! input, then transfers from the user only `source_amount_swapped`, the least input giving
//! that output plus the fees. A plan's swap step spends exactly what the program takes; what it
//! leaves is shifted to another leg or refunded, and `Plan::verify` refuses a step that claims
//! more. Also the chain-101 zaps that go with it: SPL deposits of both coins, Saber's one-coin
//! withdrawal as a plan step.
use num_rational::Ratio;
use serde_json::Value;
use std::collections::BTreeMap;
use swapzap::error::RouteError;
use swapzap::graph::PoolGraph;
use swapzap::plan::{Output, Plan, PlanRequest, Step, TokenAmount};
use swapzap::pool::spl_token_swap::SplFees;
use swapzap::pool::Pool;
use swapzap::route::{self, RouteRequest};
use swapzap::service::request::QuoteRequest;
use swapzap::snapshot::Snapshot;
use swapzap::units::{PoolId, TokenId};
use swapzap::U256;

fn data(name: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(name);
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn graph() -> PoolGraph {
    let snap: Snapshot = serde_json::from_value(data("snapshot-101.json")).unwrap();
    PoolGraph::from_snapshot(&snap).unwrap()
}

const SOL: &str = "So11111111111111111111111111111111111111112";
const USDC: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
const USDT: &str = "Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB";

fn pool_id(g: &PoolGraph, prefix: &str) -> PoolId {
    PoolId(
        g.pools()
            .iter()
            .position(|p| p.id.starts_with(prefix))
            .unwrap() as u32,
    )
}

/// `spl-token-swap` 3.0.0's constant-product swap, written out here from the program's
/// description (not the library's code): both fees on the whole input, each at least one unit
/// when its numerator is non-zero; the new destination `ceil(k / (src + net))`, then the
/// least source that gives it. Returns `(amount_out, source_amount_swapped)`.
pub fn reference_swap(src: u128, dst: u128, fees: &SplFees, x: u128) -> Option<(u128, u128)> {
    let fee = |n: u64, d: u64| -> Option<u128> {
        if n == 0 || x == 0 {
            return Some(0);
        }
        Some(x.checked_mul(n.into())?.checked_div(d.into())?.max(1))
    };
    let fees_total =
        fee(fees.trade_fee_numerator, fees.trade_fee_denominator)?.checked_add(fee(
            fees.owner_trade_fee_numerator,
            fees.owner_trade_fee_denominator,
        )?)?;
    let net = x.checked_sub(fees_total)?;
    let k = src.checked_mul(dst)?;
    let b = src.checked_add(net)?;
    let q = k.checked_div(b)?;
    if q == 0 {
        return None;
    }
    let (new_dst, new_src) = if k.checked_rem(b)? == 0 {
        (q, b)
    } else {
        let q = q + 1;
        (q, k.div_ceil(q))
    };
    let out = dst - new_dst;
    (out > 0).then_some((out, new_src - src + fees_total))
}

/// Replays `plan` from its inputs with the program math: SPL steps through
/// [`reference_swap`] (the step must be taken whole), other steps through the pool types;
/// checks each step's output and conservation (inputs = step inputs + refunds per token, step
/// outputs = later step inputs + outputs + refunds).
fn replay_with_program_math(g: &PoolGraph, plan: &Plan) {
    let mut states: Vec<Pool> = g.pools().iter().map(|p| p.pool.clone()).collect();
    let mut hold: BTreeMap<TokenId, i128> = BTreeMap::new();
    let as_i = |a: &U256| i128::try_from(a.as_u128()).unwrap();
    for i in &plan.inputs {
        *hold.entry(i.token).or_default() += as_i(&i.amount);
    }
    for s in &plan.steps {
        let Some((pool, sold, bought)) = s.as_swap() else {
            panic!("swaps only: {s:?}")
        };
        let (i, j) = (
            g.coin_index(pool, sold.token).unwrap(),
            g.coin_index(pool, bought.token).unwrap(),
        );
        let st = &mut states[pool.index()];
        if let Pool::SplTokenSwap(p) = &*st {
            let b = p.balances();
            let (out, taken) = reference_swap(
                b[i].as_u128(),
                b[j].as_u128(),
                &p.fees(),
                sold.amount.as_u128(),
            )
            .unwrap();
            assert_eq!(
                U256::from(taken),
                sold.amount,
                "the program takes the step's input whole"
            );
            assert_eq!(U256::from(out), bought.amount);
        }
        let (o, next) = st.swap(i, j, sold.amount).unwrap();
        assert_eq!(o, bought.amount);
        *st = next;
        *hold.entry(sold.token).or_default() -= as_i(&sold.amount);
        *hold.entry(bought.token).or_default() += as_i(&bought.amount);
        assert!(hold[&sold.token] >= 0, "spends more than held");
    }
    for o in &plan.outputs {
        *hold.entry(o.token).or_default() -= as_i(&o.amount);
    }
    for r in &plan.refunds {
        *hold.entry(r.token).or_default() -= as_i(&r.amount);
    }
    assert!(hold.values().all(|h| *h == 0), "conservation: {hold:?}");
}

#[test]
fn reference_swap_agrees_with_the_pool_type_and_the_offer_is_taken_whole() {
    let g = graph();
    let mut short = 0;
    for k in 0..g.pools().len() {
        let Pool::SplTokenSwap(p) = &g.pools()[k].pool else {
            continue;
        };
        let b = [p.balances()[0].as_u128(), p.balances()[1].as_u128()];
        for i in 0..2 {
            for e in 0..16u32 {
                let x = 7u128.pow(e) + u128::from(e);
                let r = reference_swap(b[i], b[1 - i], &p.fees(), x);
                let s = p.swap_detailed(i, x).ok();
                assert_eq!(r, s.map(|s| (s.amount_out, s.source_amount_swapped)));
                let Some((out, taken)) = r else { continue };
                if taken < x {
                    short += 1;
                }
                // the offer the router makes: taken whole, paying at least as much
                let y = p.exact_offer(i, x).unwrap();
                let (out_y, taken_y) = reference_swap(b[i], b[1 - i], &p.fees(), y).unwrap();
                assert!(y <= x && taken_y == y && out_y >= out, "{x} -> {y}");
            }
        }
    }
    assert!(
        short > 10,
        "the program takes less than offered in typical swaps ({short})"
    );
}

#[test]
fn routes_through_spl_pools_balance_exactly_with_the_program_math() {
    let g = graph();
    let (sol, usdc, usdt) = (
        g.token_id(SOL).unwrap(),
        g.token_id(USDC).unwrap(),
        g.token_id(USDT).unwrap(),
    );
    // the bundled request (three families, SPL legs beside Whirlpool legs)
    let body: QuoteRequest = serde_json::from_value(data("request-101.json")).unwrap();
    let req = RouteRequest::from_body(&body, &g).unwrap();
    let plan = route::quote(&g, &req).unwrap();
    replay_with_program_math(&g, &plan);
    plan.verify_request(&g, &PlanRequest::swap(&req)).unwrap();
    // what SOL's two SPL legs would not take goes to its largest Whirlpool leg, which runs
    // last: nothing of the input is refunded
    let spl_sol_legs = plan
        .steps
        .iter()
        .filter(|s| {
            matches!(s, Step::Swap { pool, token_in, .. }
            if *token_in == sol && matches!(g.pool(*pool).unwrap().pool, Pool::SplTokenSwap(_)))
        })
        .count();
    assert_eq!(spl_sol_legs, 2);
    assert!(
        plan.refunds.iter().all(|r| r.token != sol),
        "{:?}",
        plan.refunds
    );
    // SPL pools only: single SPL legs and splits, sizes from dust to a tenth of the pool
    let mut refunded = 0;
    for (from, to) in [(sol, usdc), (usdc, sol), (sol, usdt)] {
        for amount in [3u64, 1_000, 123_456_789, 9_999_999_999, 2_000_000_000_000] {
            let mut req = RouteRequest::new(
                vec![(from, U256::from(amount))],
                vec![(to, Ratio::new(1, 1))],
            );
            req.source_whitelist = Some(vec!["spl-token-swap".into()]);
            let Ok(plan) = route::quote(&g, &req) else {
                continue;
            };
            assert!(plan
                .steps
                .iter()
                .all(|s| matches!(s, Step::Swap { pool, .. }
                if matches!(g.pool(*pool).unwrap().pool, Pool::SplTokenSwap(_)))));
            replay_with_program_math(&g, &plan);
            plan.verify_request(&g, &PlanRequest::swap(&req)).unwrap();
            refunded += plan.refunds.len();
            for r in &plan.refunds {
                assert!(
                    r.amount < U256::from(1000u32),
                    "a rounding remainder: {r:?}"
                );
            }
        }
    }
    assert!(
        refunded > 0,
        "some SPL-only plans leave a remainder to refund"
    );
}

#[test]
fn verify_refuses_a_step_claiming_the_whole_offer_and_accepts_the_refund() {
    let g = graph();
    let spl = pool_id(&g, "spl-token-swap:62YA83");
    let (sol, usdc) = (g.token_id(SOL).unwrap(), g.token_id(USDC).unwrap());
    let Pool::SplTokenSwap(p) = &g.pool(spl).unwrap().pool else {
        panic!()
    };
    let i = g.coin_index(spl, sol).unwrap();
    // an offer the program takes only part of
    let (x, s) = (1_000_000_000u128..)
        .map(|x| (x, p.swap_detailed(i, x).unwrap()))
        .find(|(x, s)| s.source_amount_swapped < *x)
        .unwrap();
    let step = |amount_in: u128, amount_out: u128| Step::Swap {
        pool: spl,
        token_in: sol,
        token_out: usdc,
        amount_in: U256::from(amount_in),
        amount_out: U256::from(amount_out),
    };
    let plan_of = |steps: Vec<Step>, out: u128, refunds: Vec<TokenAmount>| Plan {
        inputs: vec![TokenAmount {
            token: sol,
            amount: U256::from(x),
        }],
        steps,
        outputs: vec![Output {
            token: usdc,
            amount: U256::from(out),
            min_amount: U256::from(out),
        }],
        refunds,
        slippage: Ratio::new(0, 1),
        ..Plan::default()
    };
    // what the old plans said: the whole offer spent
    let claims_all = plan_of(vec![step(x, s.amount_out)], s.amount_out, vec![]);
    match claims_all.verify(&g) {
        Err(RouteError::InvalidPlan { step: Some(0), why }) => {
            assert_eq!(why, swapzap::error::PlanProblem::TakesLessThanAmountIn);
            assert!(why.to_string().contains("takes less"), "{why}");
        }
        other => panic!("{other:?}"),
    }
    // what the chain does: the taken amount, the rest refunded; the offer of exactly the
    // taken amount pays at least as much
    let taken = s.source_amount_swapped;
    let exact = p.swap_detailed(i, taken).unwrap();
    assert!(exact.amount_out >= s.amount_out);
    let refund = vec![TokenAmount {
        token: sol,
        amount: U256::from(x - taken),
    }];
    if exact.source_amount_swapped == taken {
        let ok = plan_of(
            vec![step(taken, exact.amount_out)],
            exact.amount_out,
            refund.clone(),
        );
        ok.verify(&g).unwrap();
        // and nothing else: a refund one unit larger or smaller fails
        for d in [x - taken + 1, x - taken - 1] {
            let bad = plan_of(
                vec![step(taken, exact.amount_out)],
                exact.amount_out,
                vec![TokenAmount {
                    token: sol,
                    amount: U256::from(d),
                }],
            );
            assert!(bad.verify(&g).is_err());
        }
    }
    // the router's single-pool plan for x is that plan
    let mut req = RouteRequest::new(vec![(sol, U256::from(x))], vec![(usdc, Ratio::new(1, 1))]);
    req.source_whitelist = Some(vec!["spl-token-swap".into()]);
    req.max_hops = Some(1);
    let plan = route::quote(&g, &req).unwrap();
    replay_with_program_math(&g, &plan);
    let [Step::Swap { amount_in, .. }] = plan.steps.as_slice() else {
        panic!("{:?}", plan.steps)
    };
    let offer = p.exact_offer(i, x).unwrap();
    assert_eq!(*amount_in, U256::from(offer));
    assert!(offer < x);
    assert_eq!(
        plan.refunds,
        vec![TokenAmount {
            token: sol,
            amount: U256::from(x - offer)
        }]
    );
}

#[test]
fn spl_zap_in_with_both_coins_deposits_both_and_verifies() {
    use swapzap::zap::{zap_in, zap_in_pool, ZapConfig, ZapOptions};
    let g = graph();
    let spl = pool_id(&g, "spl-token-swap:62YA83");
    let pool = g.pool(spl).unwrap().pool.clone();
    let Pool::SplTokenSwap(p) = &pool else {
        panic!()
    };
    let (r, t) = (
        [p.balances()[0].as_u128(), p.balances()[1].as_u128()],
        p.total_supply().as_u128(),
    );
    for amounts in [
        [50_000_000_000u128, 2_000_000_000],
        [1_000_000_000, 150_000_000],
        [3, 900_000_000_000],
        [777_777_777_777, 1],
    ] {
        let a = [U256::from(amounts[0]), U256::from(amounts[1])];
        let z = zap_in_pool(&pool, &a, &ZapConfig::default()).unwrap();
        // the direct DepositAllTokenTypes, from the program's formulas written out here
        let direct = (0..2).map(|k| amounts[k] * t / r[k]).min().unwrap();
        assert!(
            z.minted >= U256::from(direct),
            "{amounts:?}: {} < {direct}",
            z.minted
        );
        // swap all of one coin, then its single-sided deposit
        for (from, to) in [(0usize, 1usize), (1, 0)] {
            let Ok((taken, out, after)) = pool.swap_taken(from, to, a[from]) else {
                continue;
            };
            assert!(taken <= a[from]);
            let mut dep = [U256::zero(); 2];
            dep[to] = a[to] + out;
            if let Ok((m, _)) = after.mint(&dep) {
                assert!(z.minted >= m);
            }
        }
        // replay: the swap the program takes whole, then the deposit of exactly the coins it
        // takes: ceil(P·r/T) of each, both non-zero (or one coin single-sided)
        let mut st = pool.clone();
        let mut held = a;
        if let Some(s) = &z.swap {
            assert_eq!(
                st.exact_offer(s.from, s.to, s.amount_in).unwrap(),
                s.amount_in
            );
            let (o, next) = st.swap(s.from, s.to, s.amount_in).unwrap();
            assert_eq!(o, s.amount_out);
            held[s.from] -= s.amount_in;
            held[s.to] += o;
            st = next;
        }
        let (m, _) = st.mint(&z.deposit).unwrap();
        assert_eq!(m, z.minted);
        if z.deposit.iter().all(|d| !d.is_zero()) {
            let Pool::SplTokenSwap(q) = &st else { panic!() };
            let (rb, tb) = (q.balances(), q.total_supply());
            for (d, r) in z.deposit.iter().zip(rb) {
                assert_eq!(*d, (m * r + tb - 1) / tb, "ceil(P·r/T)");
            }
        }
        for (k, h) in held.iter().enumerate() {
            assert_eq!(z.deposit[k] + z.leftover[k], *h);
        }
    }
    // both coins through the plan-level zap: verified, and the mint takes both coins
    let (sol, usdc) = (g.token_id(SOL).unwrap(), g.token_id(USDC).unwrap());
    let lp = g.lp_token(spl).unwrap();
    let zp = zap_in(
        &g,
        &[
            (sol, U256::from(10_000_000_000u64)),
            (usdc, U256::from(1_500_000_000u64)),
        ],
        lp,
        &ZapOptions::default(),
    )
    .unwrap();
    zp.plan.verify(&g).unwrap();
    let Some(Step::Mint { amounts_in, .. }) = zp.plan.steps.last() else {
        panic!("{:?}", zp.plan.steps)
    };
    assert!(amounts_in.iter().all(|a| !a.is_zero()), "{amounts_in:?}");
    // a deposit of both coins the program would not take whole is refused
    let more = [amounts_in[0] + 1, amounts_in[1] + 1_000_000];
    assert!(pool.mint(&more).is_err());
}

#[test]
fn saber_zap_out_to_one_coin_withdraws_one_coin_when_that_pays_more() {
    use swapzap::zap::{zap_out, ZapOptions};
    let g = graph();
    let saber = pool_id(&g, "saber:");
    let usdt = g.token_id(USDT).unwrap();
    let lp = g.lp_token(saber).unwrap();
    let info = g.pool(saber).unwrap();
    let Pool::Saber(p) = &info.pool else { panic!() };
    let amount = info.pool.total_supply() / 100;
    let plan = zap_out(
        &g,
        &[(lp, amount)],
        &[(usdt, Ratio::new(1, 1))],
        &ZapOptions::default(),
    )
    .unwrap();
    plan.verify(&g).unwrap();
    let Step::BurnOne {
        lp_in,
        token_out,
        amount_out,
        ..
    } = &plan.steps[0]
    else {
        panic!("{:?}", plan.steps)
    };
    assert_eq!(*token_out, usdt);
    // the program's WithdrawOne: compute_withdraw_one's dy less the withdraw fee on it
    let i = g.coin_index(saber, usdt).unwrap();
    let (dy, _) = p.withdraw_one(lp_in.as_u64(), i).unwrap();
    let f = p.fees();
    let wfee = u128::from(dy) * u128::from(f.withdraw_fee_numerator)
        / u128::from(f.withdraw_fee_denominator);
    assert_eq!(amount_out.as_u128(), u128::from(dy) - wfee);
    // and more than the proportional burn with the other coin swapped through the pool
    let (prop, after) = info.pool.burn(*lp_in).unwrap();
    let other = 1 - i;
    let (swapped, _) = after.swap(other, i, prop[other]).unwrap();
    assert!(*amount_out > prop[i] + swapped);
}
