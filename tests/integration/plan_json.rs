//! Plans as data: `Plan` -> JSON -> `Plan` is the identity, and `verify_request` rejects every
//! kind of tampering of a plan read back from JSON with a typed error naming the field.

use crate::zap_spec::{addr, body, bundled, lp_of, sym, validated, CURVE_2POOL, WETH_USDC_V2};
use serde_json::{json, Value};
use swapzap::graph::PoolGraph;
use swapzap::plan::json::PlanJson;
use swapzap::plan::{Plan, PlanRequest};
use swapzap::route::{quote, RouteRequest};
use swapzap::service::zap::zap_request;
use swapzap::zap::ZapOptions;
use swapzap::{PlanField, RouteError};

/// (plan, request) of a swap, a zap-in and a two-output zap-out on the bundled snapshot.
pub(crate) fn cases(g: &PoolGraph) -> Vec<(&'static str, Plan, PlanRequest)> {
    let (weth, usdt, wbtc, dai) = (
        sym(g, "WETH"),
        sym(g, "USDT"),
        sym(g, "WBTC"),
        sym(g, "DAI"),
    );
    let swap_body = body(
        &[(addr(g, weth), "400000000000000000000".into())],
        &[(addr(g, usdt), "1")],
        "",
    );
    let r = validated(g, &swap_body);
    let want = PlanRequest::from_request(&r, g).unwrap();
    assert_eq!(want.zap_fee_bps, None);
    let swap = quote(g, &RouteRequest::from_request(&r, g).unwrap()).unwrap();
    let zin_body = body(
        &[
            (addr(g, wbtc), "50000000".into()),
            (addr(g, dai), "7000000000000000000000".into()),
        ],
        &[(addr(g, lp_of(g, WETH_USDC_V2)), "1")],
        "",
    );
    let zr = validated(g, &zin_body);
    let zin = zap_request(g, &zr, &ZapOptions::default())
        .unwrap()
        .into_plan();
    let zin_want = PlanRequest::from_request(&zr, g).unwrap();
    assert_eq!(zin_want.zap_fee_bps, Some(1));
    let zout_body = body(
        &[(
            addr(g, lp_of(g, CURVE_2POOL)),
            "1000000000000000000000".into(),
        )],
        &[(addr(g, weth), "0.3"), (addr(g, dai), "0.7")],
        "",
    );
    let or = validated(g, &zout_body);
    let zout = zap_request(g, &or, &ZapOptions::default())
        .unwrap()
        .into_plan();
    vec![
        ("swap", swap, want),
        ("zap-in", zin, zin_want),
        ("zap-out", zout, PlanRequest::from_request(&or, g).unwrap()),
    ]
}

fn to_value(p: &Plan, g: &PoolGraph) -> Value {
    serde_json::to_value(p.to_json(g).unwrap()).unwrap()
}

/// The plan a JSON value reads back to, checked against `want`.
fn check(v: &Value, g: &PoolGraph, want: &PlanRequest) -> Result<(), RouteError> {
    let pj: PlanJson = serde_json::from_value(v.clone()).unwrap();
    Plan::from_json(&pj, g)?.verify_request(g, want)
}

#[test]
fn plans_read_back_from_json_are_the_same_and_verify() {
    let g = bundled();
    for (name, plan, want) in cases(&g) {
        plan.verify_request(&g, &want)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let text = serde_json::to_string(&plan.to_json(&g).unwrap()).unwrap();
        let back: PlanJson = serde_json::from_str(&text).unwrap();
        let p2 = Plan::from_json(&back, &g).unwrap();
        assert_eq!(p2, plan, "{name}: JSON round trip");
        p2.verify_request(&g, &want).unwrap();
        // the fields the routing scorer reads are where they were
        let v: Value = serde_json::from_str(&text).unwrap();
        for s in v["steps"].as_array().unwrap() {
            if s["kind"] == "swap" {
                for k in ["pool", "token_in", "token_out", "amount_in", "amount_out"] {
                    assert!(s[k].is_string(), "{name}: step field {k}");
                }
            }
        }
        for o in v["outputs"].as_array().unwrap() {
            for k in ["token", "amount", "min_amount"] {
                assert!(o[k].is_string(), "{name}: output field {k}");
            }
        }
    }
}

fn add1(s: &Value) -> Value {
    let n: swapzap::U256 = s.as_str().unwrap().parse().unwrap();
    json!((n + 1u8).to_string())
}

/// Output 0 set to `a`, with the `min_amount` a careful tamperer keeps consistent (0.5 %).
fn set_output(v: &mut Value, a: swapzap::U256) {
    v["outputs"][0]["amount"] = json!(a.to_string());
    v["outputs"][0]["min_amount"] = json!((a * 199u8 / 200u8).to_string());
}

type Tamper = (&'static str, PlanField, fn(&mut Value));

/// Each kind of tampering, the field it must be reported on.
fn tamperings() -> Vec<Tamper> {
    vec![
        ("min_amount zeroed", PlanField::MinAmount, |v| {
            v["outputs"][0]["min_amount"] = json!("0");
        }),
        ("min_amount raised by one", PlanField::MinAmount, |v| {
            v["outputs"][0]["min_amount"] = add1(&v["outputs"][0]["min_amount"]);
        }),
        ("output moved into refunds", PlanField::Refunds, |v| {
            let o = v["outputs"][0].clone();
            let a: swapzap::U256 = o["amount"].as_str().unwrap().parse().unwrap();
            let half = a / 2u8;
            set_output(v, a - half);
            let mut r = v["refunds"].as_array().cloned().unwrap_or_default();
            r.push(json!({"token": o["token"], "amount": half.to_string()}));
            v["refunds"] = json!(r);
        }),
        ("output amount raised", PlanField::Outputs, |v| {
            let a: swapzap::U256 = v["outputs"][0]["amount"].as_str().unwrap().parse().unwrap();
            set_output(v, a + 1u8);
        }),
        ("input amount changed", PlanField::Inputs, |v| {
            v["inputs"][0]["amount"] = add1(&v["inputs"][0]["amount"]);
        }),
        ("input dropped", PlanField::Inputs, |v| {
            v["inputs"] = json!([]);
        }),
        ("step amount_out raised", PlanField::Steps, |v| {
            let steps = v["steps"].as_array_mut().unwrap();
            let s = steps.iter_mut().find(|s| s["kind"] == "swap").unwrap();
            s["amount_out"] = add1(&s["amount_out"]);
        }),
        ("steps reordered", PlanField::Steps, |v| {
            let steps = v["steps"].as_array_mut().unwrap();
            let n = steps.len();
            steps.swap(0, n - 1);
        }),
        ("last step removed", PlanField::Outputs, |v| {
            v["steps"].as_array_mut().unwrap().pop();
        }),
        ("unknown pool", PlanField::Steps, |v| {
            v["steps"][0]["pool"] = json!("uniswap-v2:0x0000000000000000000000000000000000000001");
        }),
        ("amount not a number", PlanField::Steps, |v| {
            // the first step's own amount field (a key the step does not have is refused
            // before any field is read)
            let step = &mut v["steps"][0];
            let key = if step.get("lp_in").is_some() {
                "lp_in"
            } else {
                "amount_in"
            };
            step[key] = json!("12abc");
        }),
        ("slippage changed", PlanField::Slippage, |v| {
            v["slippage"] = json!({"num": "1", "den": "100"});
        }),
        ("slippage not a fraction", PlanField::Slippage, |v| {
            v["slippage"] = json!({"num": "3", "den": "0"});
        }),
        (
            "zap fee added, inflated or its rate changed",
            PlanField::ZapFee,
            |v| {
                if v["zap_fee"].is_null() {
                    v["zap_fee"] = json!({"rate_bps": 1, "taken": []});
                } else if v["zap_fee"]["taken"][0].is_object() {
                    v["zap_fee"]["taken"][0]["amount"] = add1(&v["zap_fee"]["taken"][0]["amount"]);
                } else {
                    v["zap_fee"]["rate_bps"] = json!(2);
                }
            },
        ),
        ("zap fee rate changed or removed", PlanField::ZapFee, |v| {
            if v["zap_fee"].is_null() {
                v["zap_fee"] = json!({"rate_bps": 0, "taken": []});
            } else {
                v["zap_fee"]["rate_bps"] = json!(5);
            }
        }),
        ("gas units changed", PlanField::GasUnits, |v| {
            v["gas_units"] = json!(v["gas_units"].as_u64().unwrap() + 60_000);
        }),
        ("value inflated", PlanField::Value, |v| {
            v["value"] = json!(v["value"].as_f64().unwrap() * 1.01 + 1.0);
        }),
        ("bound below the value", PlanField::UpperBound, |v| {
            v["upper_bound"] = json!(v["value"].as_f64().unwrap() * 0.5);
        }),
        // (a zap plan has no rounding slack; given one, it is above its bound or has none)
        (
            "rounding slack above the bound",
            PlanField::RoundingSlack,
            |v| {
                let ub = v["upper_bound"].as_f64().unwrap_or(1.0);
                v["rounding_slack"] = json!(ub * 2.0 + 1.0);
            },
        ),
        ("rounding slack negative", PlanField::RoundingSlack, |v| {
            v["rounding_slack"] = json!(-1.0);
        }),
    ]
}

/// Every kind of tampering, on a swap, a zap-in and a zap-out, is rejected without a panic,
/// with a `PlanMismatch` on the field it touched (multi-output plans skip the value check).
#[test]
fn tampered_plans_are_rejected_with_the_field_named() {
    let g = bundled();
    let mut rejected = 0;
    for (name, plan, want) in cases(&g) {
        let base = to_value(&plan, &g);
        check(&base, &g, &want).unwrap();
        for (what, field, f) in tamperings() {
            if name == "zap-out" && field == PlanField::Value {
                continue;
            }
            let mut v = base.clone();
            f(&mut v);
            assert_ne!(v, base, "{name}: {what} changed nothing");
            match check(&v, &g, &want) {
                Err(RouteError::PlanMismatch { field: got, .. }) => {
                    assert_eq!(got, field, "{name}: {what}")
                }
                other => panic!("{name}: {what}: {other:?}"),
            }
            rejected += 1;
        }
    }
    assert!(rejected >= 3 * 19, "{rejected}");
}

/// Checked against another request, a genuine plan is refused: other inputs, other outputs,
/// a zap plan checked as a swap.
#[test]
fn a_plan_checked_against_another_request_is_refused() {
    let g = bundled();
    let cs = cases(&g);
    let (swap, swap_want) = (&cs[0].1, &cs[0].2);
    let (zin, zin_want) = (&cs[1].1, &cs[1].2);
    let field = |r: Result<(), RouteError>| match r {
        Err(RouteError::PlanMismatch { field, .. }) => field,
        other => panic!("{other:?}"),
    };
    assert_eq!(field(swap.verify_request(&g, zin_want)), PlanField::Inputs);
    let mut w = swap_want.clone();
    w.zap_fee_bps = Some(1);
    assert_eq!(field(swap.verify_request(&g, &w)), PlanField::ZapFee);
    let mut w = zin_want.clone();
    w.zap_fee_bps = None;
    assert_eq!(field(zin.verify_request(&g, &w)), PlanField::ZapFee);
    let mut w = swap_want.clone();
    w.outputs[0].0 = sym(&g, "DAI");
    assert_eq!(field(swap.verify_request(&g, &w)), PlanField::Outputs);
    let mut w = swap_want.clone();
    w.gas = Some(swapzap::route::GasModel::typical(1.0));
    assert_eq!(field(swap.verify_request(&g, &w)), PlanField::GasUnits);
}

/// Regression: a plan or request whose slippage has a zero denominator (`Ratio::new_raw`, which
/// the Rust API lets a caller build; the JSON reader refuses it) made `verify_request` panic
/// (division by zero comparing the two fractions). Now a plan's is the `Slippage` mismatch and
/// a request's the router's `BadRequest`; fractions equal in value but written apart still agree.
#[test]
fn a_slippage_with_a_zero_denominator_is_a_typed_error_not_a_panic() {
    use num_rational::Ratio;
    let g = bundled();
    for (name, plan, want) in cases(&g) {
        for (n, d) in [(1u64, 0u64), (0, 0), (7, 0)] {
            let mut p = plan.clone();
            p.slippage = Ratio::new_raw(n, d);
            match p.verify_request(&g, &want) {
                Err(RouteError::PlanMismatch {
                    field: PlanField::Slippage,
                    ..
                }) => {}
                other => panic!("{name}: plan slippage {n}/{d}: {other:?}"),
            }
            let mut w = want.clone();
            w.slippage = Ratio::new_raw(n, d);
            match plan.verify_request(&g, &w) {
                Err(RouteError::BadRequest(_)) => {}
                other => panic!("{name}: request slippage {n}/{d}: {other:?}"),
            }
        }
        // 1/200 written as 5/1000 is the same fraction
        let (n, d) = (*plan.slippage.numer(), *plan.slippage.denom());
        let mut p = plan.clone();
        p.slippage = Ratio::new_raw(n * 3, d * 3);
        p.verify_request(&g, &want)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The plan with one exact amount changed, for every amount of the plan (inputs, outputs and
/// their minimums, every amount of every step) and every change of +1, −1, ×2, 0 and 2^256 − 1
/// that changes it.
fn amount_tamperings(p: &Plan) -> Vec<Plan> {
    use swapzap::plan::Step;
    use swapzap::U256;
    fn amounts(p: &mut Plan) -> Vec<&mut U256> {
        let mut v: Vec<&mut U256> = Vec::new();
        v.extend(p.inputs.iter_mut().map(|i| &mut i.amount));
        for o in &mut p.outputs {
            v.push(&mut o.amount);
            v.push(&mut o.min_amount);
        }
        for s in &mut p.steps {
            match s {
                Step::Swap {
                    amount_in,
                    amount_out,
                    ..
                } => v.extend([amount_in, amount_out]),
                Step::Mint {
                    amounts_in, lp_out, ..
                } => {
                    v.extend(amounts_in.iter_mut());
                    v.push(lp_out);
                }
                Step::Burn {
                    lp_in, amounts_out, ..
                } => {
                    v.push(lp_in);
                    v.extend(amounts_out.iter_mut());
                }
                Step::BurnOne {
                    lp_in, amount_out, ..
                } => v.extend([lp_in, amount_out]),
                _ => {}
            }
        }
        v
    }
    let n = amounts(&mut p.clone()).len();
    let mut out = Vec::new();
    for k in 0..n {
        let a = *amounts(&mut p.clone())[k];
        let changes = [
            a.checked_add(U256::one()),
            a.checked_sub(U256::one()),
            a.checked_mul(U256::from(2u8)),
            Some(U256::zero()),
            Some(U256::MAX),
        ];
        for b in changes.into_iter().flatten().filter(|b| *b != a) {
            let mut q = p.clone();
            *amounts(&mut q)[k] = b;
            out.push(q);
        }
    }
    out
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 16, failure_persistence: None, ..Default::default() })]

    /// On generated markets (concentrated-liquidity pools among x·y = k, solidly and Curve
    /// pools; one output or two, a hop cap or a gas model one case in three each), a router
    /// plan verifies against its request, and every exact amount changed (+1, −1, ×2, 0,
    /// 2^256 − 1), a step dropped or repeated, a step's pool replaced by one of another pair,
    /// a swap's direction reversed, or a slippage with a zero denominator is refused with a
    /// `PlanMismatch`, never a panic. A pool of the same pair may pay the same whole units (a
    /// coarse output), so that replacement is refused or replays exactly; exchanging two
    /// independent steps, which replays exactly the same, is a valid plan and not tried.
    #[test]
    fn every_exact_amount_or_step_tampered_is_refused(seed in 0u64..1_000_000, to in 1u32..8, usd in 3e2f64..3e6) {
        use num_rational::Ratio;
        use swapzap::plan::Step;
        use swapzap::units::{PoolId, TokenId};
        use swapzap::U256;
        let mut m = crate::routing::route_gen::market(seed, 8, 20);
        crate::routing::route_gen::add_cl_pools(&mut m, seed, 1 + (seed % 3) as usize);
        let g = PoolGraph::from_snapshot(&m.snapshot).unwrap();
        let amount = U256::from_dec_str(&format!("{:.0}", usd / m.prices[0] * 10f64.powi(i32::from(m.decimals[0])))).unwrap();
        let mut req = RouteRequest::new(vec![(TokenId(0), amount)], vec![(TokenId(to), Ratio::new(1, 1))]);
        match seed % 3 {
            1 => req.max_hops = Some(2),
            2 => req.gas = Some(swapzap::route::GasModel::typical(1e-3)),
            _ => {}
        }
        if seed % 2 == 1 && to != 1 {
            req.outputs = vec![(TokenId(to), Ratio::new(1, 3)), (TokenId(1), Ratio::new(2, 3))];
        }
        let Ok(plan) = quote(&g, &req) else { return Ok(()) };
        let want = PlanRequest::swap(&req);
        plan.verify_request(&g, &want).unwrap();
        let mut tampered = amount_tamperings(&plan);
        for k in 0..plan.steps.len() {
            let mut q = plan.clone();
            q.steps.remove(k);
            tampered.push(q);
            let mut q = plan.clone();
            q.steps.insert(k, plan.steps[k].clone());
            tampered.push(q);
            let mut q = plan.clone();
            if let Step::Swap { token_in, token_out, .. } = &mut q.steps[k] {
                std::mem::swap(token_in, token_out);
                tampered.push(q);
            }
            for other in 0..g.pools().len() as u32 {
                let mut q = plan.clone();
                if let Step::Swap { pool, token_in, token_out, .. } = &mut q.steps[k] {
                    if pool.0 != other {
                        *pool = PoolId(other);
                        // another pool of the same pair can pay the same whole units (a
                        // coarse output): the replay is then exact and the plan valid
                        let coins = &g.pools()[other as usize].tokens;
                        if coins.contains(token_in) && coins.contains(token_out) {
                            let ok = q.verify_request(&g, &want).is_ok() && q.verify(&g).is_ok();
                            let refused = matches!(q.verify_request(&g, &want), Err(RouteError::PlanMismatch { .. }));
                            proptest::prop_assert!(ok || refused, "{q:?}");
                        } else {
                            tampered.push(q);
                        }
                    }
                }
            }
        }
        for (n, d) in [(1u64, 0u64), (0, 0)] {
            let mut q = plan.clone();
            q.slippage = Ratio::new_raw(n, d);
            tampered.push(q);
        }
        proptest::prop_assert!(tampered.len() > 20);
        for q in &tampered {
            let r = q.verify_request(&g, &want);
            proptest::prop_assert!(matches!(r, Err(RouteError::PlanMismatch { .. })), "{q:?}: {r:?}");
        }
    }
}

/// The source of a plan's `k`-th step's pool, for a swap step.
fn swap_source(g: &PoolGraph, plan: &Plan, k: usize) -> Option<String> {
    match plan.steps.get(k)? {
        swapzap::plan::Step::Swap { pool, .. } => g.pool(*pool).map(|p| p.source.clone()),
        _ => None,
    }
}

/// A swap through a pool the request's source filters leave out is refused at that step: a
/// plan quoted without filters, checked against the same body with its first step's source
/// blacklisted, or with a whitelist of every other source (before, `PlanRequest` carried no
/// filters and both passed); the plan quoted under the blacklist passes and avoids the source.
#[test]
fn verify_request_refuses_a_swap_through_a_filtered_source() {
    let g = bundled();
    let (weth, usdt) = (sym(&g, "WETH"), sym(&g, "USDT"));
    let ask = |extra: &str| {
        let text = body(
            &[(addr(&g, weth), "400000000000000000000".into())],
            &[(addr(&g, usdt), "1")],
            extra,
        );
        validated(&g, &text)
    };
    let r = ask("");
    let plan = quote(&g, &RouteRequest::from_request(&r, &g).unwrap()).unwrap();
    let source = swap_source(&g, &plan, 0).unwrap();
    let others: Vec<String> = g
        .sources()
        .into_iter()
        .filter(|s| *s != source)
        .map(|s| format!("\"{s}\""))
        .collect();
    let filters = [
        format!(r#","sourceBlacklist":["{source}"]"#),
        format!(r#","sourceWhitelist":[{}]"#, others.join(",")),
    ];
    for extra in &filters {
        let rf = ask(extra);
        let want = PlanRequest::from_request(&rf, &g).unwrap();
        match plan.verify_request(&g, &want) {
            Err(RouteError::PlanMismatch {
                field: PlanField::Steps,
                index: Some(0),
                why,
            }) => assert_eq!(why, swapzap::error::PlanProblem::SourceFiltered),
            other => panic!("{extra}: {other:?}"),
        }
        let filtered = quote(&g, &RouteRequest::from_request(&rf, &g).unwrap()).unwrap();
        filtered.verify_request(&g, &want).unwrap();
        for k in 0..filtered.steps.len() {
            assert_ne!(
                swap_source(&g, &filtered, k),
                Some(source.clone()),
                "{extra}"
            );
        }
    }
}

/// A hop-limited plan is checked against its limit: every swap through a pool direction
/// within it, and a bound said to be over those plans. The unlimited plan's steps past one hop
/// are refused under a limit of 1; the one-hop plan passes under it and is refused without a
/// limit (its bound is not over every plan) or with `bound_max_hops` changed.
#[test]
fn verify_request_holds_a_plan_to_its_hop_limit() {
    let g = bundled();
    let (weth, usdt) = (sym(&g, "WETH"), sym(&g, "USDT"));
    let text = body(
        &[(addr(&g, weth), "400000000000000000000".into())],
        &[(addr(&g, usdt), "1")],
        "",
    );
    let r = validated(&g, &text);
    let mut req = RouteRequest::from_request(&r, &g).unwrap();
    let plan = quote(&g, &req).unwrap();
    req.max_hops = Some(1);
    let one = quote(&g, &req).unwrap();
    let capped = PlanRequest::swap(&req);
    one.verify_request(&g, &capped).unwrap();
    assert_eq!(one.bound_max_hops, Some(1));
    // under a limit of one hop only swaps from the input straight to the output remain
    let beyond = plan
        .steps
        .iter()
        .position(|s| {
            !matches!(s, swapzap::plan::Step::Swap { token_in, token_out, .. }
                if *token_in == weth && *token_out == usdt)
        })
        .expect("the unlimited plan goes through another token");
    match plan.verify_request(&g, &capped) {
        Err(RouteError::PlanMismatch {
            field: PlanField::Steps,
            index: Some(k),
            why,
        }) => {
            assert_eq!(k, beyond);
            assert_eq!(why, swapzap::error::PlanProblem::BeyondHopLimit);
        }
        other => panic!("{other:?}"),
    }
    let field_of = |p: &Plan, w: &PlanRequest| match p.verify_request(&g, w) {
        Err(RouteError::PlanMismatch { field, .. }) => Some(field),
        _ => None,
    };
    req.max_hops = None;
    assert_eq!(
        field_of(&one, &PlanRequest::swap(&req)),
        Some(PlanField::BoundMaxHops)
    );
    let mut claims = one.clone();
    claims.bound_max_hops = None;
    assert_eq!(field_of(&claims, &capped), Some(PlanField::BoundMaxHops));
    claims.bound_max_hops = Some(2);
    assert_eq!(field_of(&claims, &capped), Some(PlanField::BoundMaxHops));
}
