//! Zap plans against their requests: zap-out value shares at the documented prices to 1e-6,
//! `verify_request` holding zap-outs to their proportions, zap-in plans with their bound, the
//! gas model and source filters of zap bodies, and zap-specific tamperings rejected.

use crate::zap_spec::{
    addr, body, bundled, lp_of, sym, validated, CURVE_2POOL, CURVE_3POOL, WETH_USDC_V2,
};
use serde_json::{json, Value};
use swapzap::error::PlanProblem;
use swapzap::graph::PoolGraph;
use swapzap::plan::json::PlanJson;
use swapzap::plan::{Plan, PlanRequest};
use swapzap::route::GasModel;
use swapzap::service::zap::{zap_request, ZapPlan};
use swapzap::zap::{zap_out_prices, ZapOptions};
use swapzap::{PlanField, RouteError, U256};

fn f(x: U256) -> f64 {
    x.to_string().parse().unwrap()
}

/// The plan of a body with `opts`, checked against its request.
fn planned(g: &PoolGraph, text: &str, opts: &ZapOptions) -> (ZapPlan, PlanRequest) {
    let r = validated(g, text);
    let z = zap_request(g, &r, opts).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut want = PlanRequest::from_request(&r, g).unwrap();
    want.gas = opts.gas;
    z.plan()
        .verify_request(g, &want)
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    (z, want)
}

/// The largest |share − proportion| of a plan's outputs at the zap-out prices, and the
/// largest value share of one base unit of an output.
fn share_gap(g: &PoolGraph, plan: &Plan, props: &[f64]) -> (f64, f64) {
    let outs: Vec<_> = plan
        .outputs
        .iter()
        .zip(props)
        .map(|(o, p)| {
            let d = 1_000_000_000u64;
            (
                o.token,
                num_rational::Ratio::new((p * d as f64).round() as u64, d),
            )
        })
        .collect();
    let prices = zap_out_prices(g, &outs, &ZapOptions::default()).unwrap();
    let values: Vec<f64> = plan
        .outputs
        .iter()
        .zip(&prices)
        .map(|(o, p)| f(o.amount) * p)
        .collect();
    let total: f64 = values.iter().sum();
    let gap = values
        .iter()
        .zip(props)
        .map(|(v, w)| (v / total - w).abs())
        .fold(0.0, f64::max);
    let unit = prices.iter().map(|p| p / total).fold(0.0, f64::max);
    (gap, unit)
}

/// Zap-outs into two and three outputs, from LPs whose burns deliver none, one or all of the
/// outputs: every output's value share at the documented prices is its proportion to 1e-6
/// (was about 4e-3 before the split was solved), and `verify_request` accepts the plans.
#[test]
fn zap_out_shares_meet_their_proportions_to_1e6() {
    let g = bundled();
    let (weth, dai, usdc, wbtc) = (
        sym(&g, "WETH"),
        sym(&g, "DAI"),
        sym(&g, "USDC"),
        sym(&g, "WBTC"),
    );
    type Case<'a> = (TokenId, &'a str, Vec<(TokenId, &'a str)>);
    let cases: Vec<Case> = vec![
        // the 3pool withdrawn in DAI: one output delivered by the burn
        (
            lp_of(&g, CURVE_3POOL),
            "1000000000000000000000",
            vec![(weth, "0.3"), (dai, "0.7")],
        ),
        (
            lp_of(&g, CURVE_2POOL),
            "1000000000000000000000",
            vec![(weth, "0.5"), (dai, "0.5")],
        ),
        // WETH/USDC burned: both outputs delivered, one in excess
        (
            lp_of(&g, WETH_USDC_V2),
            "1000000000000",
            vec![(weth, "0.2"), (usdc, "0.8")],
        ),
        (
            lp_of(&g, WETH_USDC_V2),
            "1000000000000",
            vec![(wbtc, "0.25"), (dai, "0.25"), (weth, "0.5")],
        ),
    ];
    for (lp, amount, outs) in cases {
        let text = body(
            &[(addr(&g, lp), amount.to_string())],
            &outs
                .iter()
                .map(|(t, p)| (addr(&g, *t), *p))
                .collect::<Vec<_>>(),
            "",
        );
        let (z, _) = planned(&g, &text, &ZapOptions::default());
        let props: Vec<f64> = outs.iter().map(|(_, p)| p.parse().unwrap()).collect();
        let (gap, unit) = share_gap(&g, z.plan(), &props);
        assert!(
            gap <= 1e-6 + unit,
            "{text}: share gap {gap:e} (one unit {unit:e})"
        );
    }
}

use swapzap::units::TokenId;

/// A genuine zap-out plan for 0.5 / 0.5 checked against a body asking 0.3 / 0.7 of the same
/// inputs: the steps replay, the inputs and fee match, only the proportions are wrong; it is
/// refused on `proportions`.
#[test]
fn a_zap_out_with_other_proportions_is_refused() {
    let g = bundled();
    let (weth, dai) = (sym(&g, "WETH"), sym(&g, "DAI"));
    let lp = addr(&g, lp_of(&g, CURVE_3POOL));
    let text = |a: &str, b: &str| {
        body(
            &[(lp.clone(), "1000000000000000000000".into())],
            &[(addr(&g, weth), a), (addr(&g, dai), b)],
            "",
        )
    };
    let (z, _) = planned(&g, &text("0.5", "0.5"), &ZapOptions::default());
    let other = PlanRequest::from_request(&validated(&g, &text("0.3", "0.7")), &g).unwrap();
    match z.plan().verify_request(&g, &other) {
        Err(RouteError::PlanMismatch { field, .. }) => assert_eq!(field, PlanField::Proportions),
        r => panic!("{r:?}"),
    }
}

/// A zap-in from the target's own coins carries the bound, not below the LP out, and the
/// plan JSON reports it with its gap; a zap-in through routed legs carries none.
#[test]
fn zap_in_plans_carry_their_bound() {
    let g = bundled();
    let (weth, usdc, wbtc) = (sym(&g, "WETH"), sym(&g, "USDC"), sym(&g, "WBTC"));
    let lp = lp_of(&g, WETH_USDC_V2);
    for inputs in [
        vec![(weth, "2000000000000000000")],
        vec![(weth, "1000000000000000000"), (usdc, "3000000000")],
        vec![(weth, "1000000000000000000"), (usdc, "100")],
    ] {
        let text = body(
            &inputs
                .iter()
                .map(|(t, a)| (addr(&g, *t), a.to_string()))
                .collect::<Vec<_>>(),
            &[(addr(&g, lp), "1")],
            "",
        );
        let (z, _) = planned(&g, &text, &ZapOptions::default());
        let b = z.plan().upper_bound.expect("a bound");
        let out = f(z.plan().outputs[0].amount);
        assert!(b >= out, "{b} < {out}");
        let gap = z.plan().bound_gap().unwrap();
        assert!((0.0..2e-3).contains(&gap), "gap {gap}");
        let v = serde_json::to_value(z.plan().to_json(&g).unwrap()).unwrap();
        assert_eq!(v["upper_bound"].as_f64(), Some(b));
        assert_eq!(v["bound_gap"].as_f64(), Some(gap));
    }
    let text = body(
        &[(addr(&g, wbtc), "50000000".into())],
        &[(addr(&g, lp), "1")],
        "",
    );
    // WBTC is routed into the pair's coins: the routed bound (route::weighted_output_bound and
    // the pair's tangent) holds it
    let (z, _) = planned(&g, &text, &ZapOptions::default());
    let b = z.plan().upper_bound.expect("a routed bound");
    let out = f(z.plan().outputs[0].amount);
    assert!(b >= out && (b - out) / b < 2e-3, "{b} vs {out}");
}

/// A zap body under a gas model: every swap step is counted, the value is the LP less the gas
/// cost, and `verify_request` holds the plan to that count; the same body with a blacklist
/// routes around the blacklisted source.
#[test]
fn zap_bodies_take_a_gas_model_and_source_filters() {
    let g = bundled();
    let (wbtc, dai) = (sym(&g, "WBTC"), sym(&g, "DAI"));
    let lp = lp_of(&g, WETH_USDC_V2);
    let inputs = [
        (addr(&g, wbtc), "50000000".to_string()),
        (addr(&g, dai), "7000000000000000000000".to_string()),
    ];
    let text = body(&inputs, &[(addr(&g, lp), "1")], "");
    let opts = ZapOptions {
        gas: Some(GasModel::typical(1e3)),
        ..ZapOptions::default()
    };
    let (z, want) = planned(&g, &text, &opts);
    let (z0, _) = planned(&g, &text, &ZapOptions::default());
    let swaps = z
        .plan()
        .steps
        .iter()
        .filter(|s| matches!(s, swapzap::plan::Step::Swap { .. }))
        .count();
    assert!(
        swaps >= 2 && z.plan().gas_units > 0,
        "{swaps} {}",
        z.plan().gas_units
    );
    let cost = z.plan().gas_units as f64 * 1e3;
    assert!((z.plan().value - (f(z.plan().outputs[0].amount) - cost)).abs() < 1.0);
    // the plan checked without its gas model: refused on gas_units
    let mut w = want.clone();
    w.gas = None;
    match z.plan().verify_request(&g, &w) {
        Err(RouteError::PlanMismatch { field, .. }) => assert_eq!(field, PlanField::GasUnits),
        r => panic!("{r:?}"),
    }
    // blacklisting uniswap-v2: no swap leg through another uniswap-v2 pool than the target
    let text = body(
        &inputs,
        &[(addr(&g, lp), "1")],
        r#","sourceBlacklist":["uniswap-v2"]"#,
    );
    let (z, filtered) = planned(&g, &text, &ZapOptions::default());
    let target = g.pool_id(WETH_USDC_V2).unwrap();
    // the unfiltered zap's plan swaps through another uniswap-v2 pool: refused at that step
    let other = z0
        .plan()
        .steps
        .iter()
        .position(|s| {
            matches!(s, swapzap::plan::Step::Swap { pool, .. }
                if *pool != target && g.pool(*pool).unwrap().source == "uniswap-v2")
        })
        .expect("the unfiltered zap swaps through another uniswap-v2 pool");
    match z0.plan().verify_request(&g, &filtered) {
        Err(RouteError::PlanMismatch {
            field: PlanField::Steps,
            index: Some(k),
            why,
        }) => assert_eq!((k, why), (other, PlanProblem::SourceFiltered)),
        r => panic!("{r:?}"),
    }
    for s in &z.plan().steps {
        if let swapzap::plan::Step::Swap { pool, .. } = s {
            assert!(
                *pool == target || g.pool(*pool).unwrap().source != "uniswap-v2",
                "{}",
                g.pool(*pool).unwrap().id
            );
        }
    }
}

fn add1(s: &Value) -> Value {
    let n = U256::from_dec_str(s.as_str().unwrap()).unwrap();
    json!((n + 1u8).to_string())
}

type Tamper = (&'static str, PlanField, fn(&mut Value));

/// Tamperings that only zap plans can suffer: the mint, the burns, the LP output, the
/// proportions.
fn zap_tamperings() -> Vec<Tamper> {
    vec![
        ("minted LP raised", PlanField::Steps, |v| {
            let steps = v["steps"].as_array_mut().unwrap();
            let s = steps.iter_mut().find(|s| s["kind"] == "mint").unwrap();
            s["lp_out"] = add1(&s["lp_out"]);
        }),
        ("mint deposit changed", PlanField::Outputs, |v| {
            let steps = v["steps"].as_array_mut().unwrap();
            let s = steps.iter_mut().find(|s| s["kind"] == "mint").unwrap();
            s["amounts_in"][0] = add1(&s["amounts_in"][0]);
        }),
        ("mint step removed", PlanField::Outputs, |v| {
            let steps = v["steps"].as_array_mut().unwrap();
            let k = steps.iter().position(|s| s["kind"] == "mint").unwrap();
            steps.remove(k);
        }),
        ("first step removed", PlanField::Steps, |v| {
            v["steps"].as_array_mut().unwrap().remove(0);
        }),
        ("LP output moved into refunds", PlanField::Refunds, |v| {
            let o = v["outputs"][0].clone();
            v["outputs"][0]["amount"] = json!("0");
            v["outputs"][0]["min_amount"] = json!("0");
            v["refunds"]
                .as_array_mut()
                .unwrap()
                .push(json!({"token": o["token"], "amount": o["amount"]}));
        }),
        ("a refund dropped", PlanField::Outputs, |v| {
            v["refunds"].as_array_mut().unwrap().pop();
        }),
        ("zap fee removed", PlanField::ZapFee, |v| {
            v["zap_fee"] = Value::Null;
        }),
        ("bound below the LP out", PlanField::UpperBound, |v| {
            v["upper_bound"] = json!(v["value"].as_f64().unwrap() * 0.999);
        }),
    ]
}

fn zap_out_tamperings() -> Vec<Tamper> {
    vec![
        ("burn amount raised", PlanField::Steps, |v| {
            let steps = v["steps"].as_array_mut().unwrap();
            let s = steps
                .iter_mut()
                .find(|s| s["kind"] == "burn" || s["kind"] == "burn_one")
                .unwrap();
            if s["kind"] == "burn" {
                s["amounts_out"][0] = add1(&s["amounts_out"][0]);
            } else {
                s["amount_out"] = add1(&s["amount_out"]);
            }
        }),
        ("outputs swapped", PlanField::Outputs, |v| {
            let o = v["outputs"].as_array_mut().unwrap();
            o.swap(0, 1);
        }),
        ("an output moved into refunds", PlanField::Refunds, |v| {
            let o = v["outputs"][1].clone();
            v["outputs"][1]["amount"] = json!("0");
            v["outputs"][1]["min_amount"] = json!("0");
            let mut r = v["refunds"].as_array().cloned().unwrap_or_default();
            r.push(json!({"token": o["token"], "amount": o["amount"]}));
            v["refunds"] = json!(r);
        }),
        (
            "second output's minimum zeroed",
            PlanField::MinAmount,
            |v| {
                v["outputs"][1]["min_amount"] = json!("0");
            },
        ),
        ("burn removed", PlanField::Steps, |v| {
            let steps = v["steps"].as_array_mut().unwrap();
            let k = steps
                .iter()
                .position(|s| s["kind"] == "burn" || s["kind"] == "burn_one")
                .unwrap();
            steps.remove(k);
        }),
    ]
}

fn check(v: &Value, g: &PoolGraph, want: &PlanRequest) -> Result<(), RouteError> {
    let pj: PlanJson = serde_json::from_value(v.clone()).map_err(|_| RouteError::NoRoute)?;
    Plan::from_json(&pj, g)?.verify_request(g, want)
}

/// Each zap-specific tampering, on zap-ins (from the target's coins with a rebalancing swap,
/// and through routed legs with refunds) and on zap-outs, is rejected without a panic and
/// names the field.
#[test]
fn zap_tamperings_are_rejected_with_the_field_named() {
    let g = bundled();
    let (weth, usdc, wbtc, dai) = (
        sym(&g, "WETH"),
        sym(&g, "USDC"),
        sym(&g, "WBTC"),
        sym(&g, "DAI"),
    );
    let lp = lp_of(&g, WETH_USDC_V2);
    let zin = [
        body(
            &[
                (addr(&g, weth), "1000000000000000000".into()),
                (addr(&g, usdc), "100".into()),
            ],
            &[(addr(&g, lp), "1")],
            "",
        ),
        body(
            &[
                (addr(&g, wbtc), "50000000".into()),
                (addr(&g, dai), "7000000000000000000000".into()),
            ],
            &[(addr(&g, lp), "1")],
            "",
        ),
    ];
    let zout = body(
        &[(
            addr(&g, lp_of(&g, CURVE_3POOL)),
            "1000000000000000000000".into(),
        )],
        &[(addr(&g, weth), "0.3"), (addr(&g, dai), "0.7")],
        "",
    );
    let mut rejected = 0;
    let mut run = |text: &str, ts: Vec<Tamper>| {
        let (z, want) = planned(&g, text, &ZapOptions::default());
        let base = serde_json::to_value(z.plan().to_json(&g).unwrap()).unwrap();
        check(&base, &g, &want).unwrap();
        for (what, field, t) in ts {
            let mut v = base.clone();
            if what == "a refund dropped" && v["refunds"].as_array().map_or(true, Vec::is_empty) {
                continue;
            }
            if what == "bound below the LP out" && v["upper_bound"].is_null() {
                continue;
            }
            t(&mut v);
            assert_ne!(v, base, "{what} changed nothing");
            match check(&v, &g, &want) {
                Err(RouteError::PlanMismatch { field: got, .. }) => {
                    assert_eq!(got, field, "{what}")
                }
                other => panic!("{what}: {other:?}"),
            }
            rejected += 1;
        }
    };
    for t in &zin {
        run(t, zap_tamperings());
    }
    run(&zout, zap_out_tamperings());
    assert!(rejected >= 18, "{rejected}");
}

/// Under a gas model priced in LP base units, the target pool's rebalancing swap is made only
/// when the LP it adds is worth its gas: a near-balanced zap-in swaps at a low gas price and
/// deposits directly (refunding the surplus) at a high one; both plans verify.
#[test]
fn the_rebalancing_swap_must_pay_for_its_gas() {
    use swapzap::zap::Rebalance;
    let g = bundled();
    let (weth, usdc) = (sym(&g, "WETH"), sym(&g, "USDC"));
    let lp = lp_of(&g, WETH_USDC_V2);
    let text = body(
        &[
            (addr(&g, weth), "1000000000000000000".into()),
            (addr(&g, usdc), "3100000000".into()),
        ],
        &[(addr(&g, lp), "1")],
        "",
    );
    let (free, _) = planned(&g, &text, &ZapOptions::default());
    let minted = |z: &ZapPlan| z.zap_in().unwrap().minted;
    let rebalance = |z: &ZapPlan| z.zap_in().map(|i| i.rebalance);
    assert_eq!(rebalance(&free), Some(Rebalance::Swapped));
    let gas = |price: f64| ZapOptions {
        gas: Some(GasModel::typical(price)),
        ..ZapOptions::default()
    };
    let (cheap, _) = planned(&g, &text, &gas(1e-3));
    assert_eq!(rebalance(&cheap), Some(Rebalance::Swapped));
    assert_eq!(minted(&cheap), minted(&free));
    let (dear, _) = planned(&g, &text, &gas(1e9));
    match rebalance(&dear) {
        Some(Rebalance::NotWorthGas { gain }) => {
            assert_eq!(gain, minted(&free) - minted(&dear));
            assert!(f(gain) < GasModel::typical(1e9).table.constant_product as f64 * 1e9);
        }
        r => panic!("{r:?}"),
    }
    assert!(dear.plan().gas_units == 0 && !dear.plan().refunds.is_empty());
}

/// Zap-outs of every LP of the first twelve public routing instances into two outputs (a coin
/// of the pool and an outside token, or two outside tokens) at several proportions: every plan
/// the zap returns passes `verify_request` (shares within 1e-6 plus a base unit) and meets
/// 1e-6 plus one base unit of the dearest output, measured here with prices of its own.
#[test]
fn zap_outs_on_the_routing_instances_meet_their_shares() {
    use num_rational::Ratio;
    let mut planned_n = 0;
    let mut worst: f64 = 0.0;
    let mut above_1e6 = 0;
    let mut failures = Vec::new();
    for k in 0..12 {
        let name = crate::zap::plans::instance_name(k);
        let g = crate::zap::plans::graph(&name);
        let plain: Vec<TokenId> = (0..g.n_tokens() as u32)
            .map(TokenId)
            .filter(|t| g.pool_of_lp(*t).is_none())
            .collect();
        for (pi, info) in g.pools().iter().enumerate() {
            let p = swapzap::units::PoolId(pi as u32);
            let Ok(lp) = g.lp_token(p) else { continue };
            let supply = info.pool.total_supply();
            if supply.is_zero() {
                continue;
            }
            let outside: Vec<TokenId> = plain
                .iter()
                .copied()
                .filter(|t| !info.tokens.contains(t))
                .take(2)
                .collect();
            if outside.len() < 2 {
                continue;
            }
            for (outs, w) in [
                ([info.tokens[0], outside[0]], (1u64, 4u64)),
                ([info.tokens[0], outside[0]], (3, 4)),
                ([outside[0], outside[1]], (1, 2)),
            ] {
                let outputs = [
                    (outs[0], Ratio::new(w.0, w.1)),
                    (outs[1], Ratio::new(w.1 - w.0, w.1)),
                ];
                let inputs = [(lp, supply / U256::from(1000u32))];
                let opts = ZapOptions::default();
                let Ok(plan) = swapzap::zap::zap_out(&g, &inputs, &outputs, &opts) else {
                    continue;
                };
                planned_n += 1;
                let want = PlanRequest::zap(&g, &inputs, &outputs, &opts);
                let props = [w.0 as f64 / w.1 as f64, (w.1 - w.0) as f64 / w.1 as f64];
                let (gap, unit) = share_gap(&g, &plan, &props);
                worst = worst.max(gap);
                if gap > 1e-6 + unit {
                    above_1e6 += 1;
                }
                if let Err(e) = plan.verify_request(&g, &want) {
                    failures.push(format!("{name} {}: {w:?}: {e} gap {gap:e}", info.id));
                }
            }
        }
    }
    assert!(planned_n >= 100, "{planned_n}");
    assert!(
        failures.is_empty(),
        "{} of {planned_n}, worst {worst:e}:\n{}",
        failures.len(),
        failures.join("\n")
    );
    #[allow(clippy::print_stderr)]
    {
        eprintln!("{planned_n} zap-outs, {above_1e6} above 1e-6, the worst gap {worst:e}");
    }
    // before the exact correction of the shares: 4221 planned, 133 above 1e-6, the worst 9.5e-4
    assert!(
        above_1e6 == 0,
        "{above_1e6} of {planned_n} above 1e-6 (the worst {worst:e})"
    );
}

/// The field and problem of a plan mismatch (`None` for another result).
fn refusal(r: Result<(), RouteError>) -> Option<(PlanField, PlanProblem)> {
    match r {
        Err(RouteError::PlanMismatch { field, why, .. }) => Some((field, why)),
        _ => None,
    }
}

/// `service::verify_plan` re-derives a zap plan's bound from the engine's own zap of the body:
/// the plans it made verify (with and without a gas model); the same plan with its bound
/// lowered halfway toward its value, which `verify_request` alone accepts (it holds the bound
/// only to the value), is refused as below the certificate; and a bound written into a
/// two-output zap-out, which the engine certifies none for, is refused as uncertified; so is
/// a price impact other than the engine's zap's.
#[test]
fn verify_plan_holds_a_zap_bound_to_the_engines_own() {
    use swapzap::service::verify_plan;
    let g = bundled();
    let (weth, usdc, wbtc, dai) = (
        sym(&g, "WETH"),
        sym(&g, "USDC"),
        sym(&g, "WBTC"),
        sym(&g, "DAI"),
    );
    let v2 = addr(&g, lp_of(&g, WETH_USDC_V2));
    let pool3 = addr(&g, lp_of(&g, CURVE_3POOL));
    let bodies = [
        // held coins of the target only
        body(
            &[
                (addr(&g, weth), "1000000000000000000".into()),
                (addr(&g, usdc), "3000000000".into()),
            ],
            &[(v2.clone(), "1")],
            "",
        ),
        // routed legs into the target's coins
        body(&[(addr(&g, wbtc), "50000000".into())], &[(v2, "1")], ""),
        // a zap-out to one token
        body(
            &[(pool3.clone(), "1000000000000000000000".into())],
            &[(addr(&g, weth), "1")],
            "",
        ),
    ];
    let mut lowered = 0;
    for text in &bodies {
        for gas in [None, Some(GasModel::typical(1e-3))] {
            let opts = ZapOptions {
                gas,
                ..ZapOptions::default()
            };
            let (z, want) = planned(&g, text, &opts);
            let r = validated(&g, text);
            let plan = z.plan();
            verify_plan(&g, &r, plan, (gas, None, None)).unwrap_or_else(|e| panic!("{text}: {e}"));
            let mut impact = plan.clone();
            impact.price_impact += 0.01;
            assert_eq!(
                refusal(verify_plan(&g, &r, &impact, (gas, None, None))),
                Some((PlanField::PriceImpact, PlanProblem::PriceImpactDiffers)),
                "{text}: another price impact"
            );
            impact.price_impact = f64::NAN;
            assert_eq!(
                refusal(verify_plan(&g, &r, &impact, (gas, None, None))),
                Some((PlanField::PriceImpact, PlanProblem::PriceImpactDiffers)),
                "{text}: a NaN price impact"
            );
            let ub = plan
                .upper_bound
                .unwrap_or_else(|| panic!("{text}: a bound"));
            if (ub - plan.value) / ub < 1e-6 {
                continue;
            }
            let mut low = plan.clone();
            low.upper_bound = Some(plan.value + (ub - plan.value) / 2.0);
            low.verify_request(&g, &want)
                .unwrap_or_else(|e| panic!("{text}: verify_request alone accepts it: {e}"));
            assert_eq!(
                refusal(verify_plan(&g, &r, &low, (gas, None, None))),
                Some((PlanField::UpperBound, PlanProblem::BoundBelowCertificate)),
                "{text}: a lowered bound"
            );
            lowered += 1;
        }
    }
    assert!(lowered >= 4, "only {lowered} plans had a gap to lower");
    let two = body(
        &[(pool3, "1000000000000000000000".into())],
        &[(addr(&g, weth), "0.3"), (addr(&g, dai), "0.7")],
        "",
    );
    let (z, _) = planned(&g, &two, &ZapOptions::default());
    let r = validated(&g, &two);
    assert_eq!(
        z.plan().upper_bound,
        None,
        "a two-output zap-out has no bound"
    );
    verify_plan(&g, &r, z.plan(), (None, None, None)).unwrap();
    let mut claimed = z.plan().clone();
    claimed.upper_bound = Some(claimed.value * 2.0);
    assert_eq!(
        refusal(verify_plan(&g, &r, &claimed, (None, None, None))),
        Some((PlanField::UpperBound, PlanProblem::BoundNotCertified)),
        "a bound nothing certifies"
    );
}
