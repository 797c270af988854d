//! A hostile user's sweep (issues 13 and 14, second pass): each test protects one finding of
//! the sweep over snapshots, requests and stored plans (README, "Hostile snapshots (issue
//! 13)", the sweep's table).

use crate::plan_json::cases;
use crate::zap_spec::bundled;
use serde_json::{json, Value};
use swapzap::error::BadPoolProblem;
use swapzap::graph::PoolGraph;
use swapzap::math::float::to_f64;
use swapzap::plan::json::PlanJson;
use swapzap::plan::{GasModel, Plan, PlanRequest};
use swapzap::route::{quote, RouteRequest};
use swapzap::snapshot::Snapshot;
use swapzap::{PlanField, RouteError, SnapshotError};

fn json_of(p: &Plan, g: &PoolGraph) -> Value {
    serde_json::to_value(p.to_json(g).unwrap()).unwrap()
}

fn read(v: &Value) -> Result<PlanJson, String> {
    serde_json::from_value(v.clone()).map_err(|e| e.to_string())
}

/// The field a tampered plan JSON is refused on (by `verify_request`, then the gap check).
fn refused_on(v: &Value, g: &PoolGraph, want: &PlanRequest) -> Option<PlanField> {
    let pj = read(v).unwrap();
    let r = Plan::from_json(&pj, g)
        .and_then(|p| p.verify_request(g, want).map(|()| p))
        .and_then(|p| pj.check_bound_gap(&p));
    match r {
        Ok(()) => None,
        Err(RouteError::PlanMismatch { field, .. }) => Some(field),
        Err(e) => panic!("not a plan mismatch: {e:?}"),
    }
}

#[test]
fn plan_json_with_a_key_it_does_not_know_is_refused_on_every_object() {
    let g = bundled();
    for (name, plan, _) in cases(&g) {
        let base = json_of(&plan, &g);
        assert!(read(&base).is_ok(), "{name}");
        let mut places: Vec<fn(&mut Value)> = vec![
            |v| v["pathId"] = json!("p"),
            |v| v["outputs"][0]["note"] = json!(1),
            |v| v["inputs"][0]["note"] = json!(1),
            |v| v["steps"][0]["note"] = json!(1),
            |v| v["slippage"]["note"] = json!(1),
        ];
        if base.get("zap_fee").is_some() {
            places.push(|v| v["zap_fee"]["note"] = json!(1));
            places.push(|v| v["zap_fee"]["taken"][0]["note"] = json!(1));
        }
        for (k, f) in places.iter().enumerate() {
            let mut v = base.clone();
            f(&mut v);
            let e = read(&v).expect_err(&format!("{name}: place {k} accepted"));
            assert!(e.contains("unknown field"), "{name}: place {k}: {e}");
        }
    }
}

#[test]
fn bound_gap_that_the_plans_bound_and_value_do_not_give_is_refused() {
    let g = bundled();
    let (_, swap, want) = cases(&g).swap_remove(0);
    let base = json_of(&swap, &g);
    let ub = base["upper_bound"].as_f64().unwrap();
    let value = base["value"].as_f64().unwrap();
    // the gap as its definition gives it, independently of the writer
    let gap = base["bound_gap"].as_f64().unwrap();
    assert!(((ub - value) / ub - gap).abs() <= 1e-12 * gap.abs().max(1e-300));
    assert_eq!(refused_on(&base, &g, &want), None);
    let mut v = base.clone();
    v["bound_gap"] = json!(gap * 2.0);
    assert_eq!(refused_on(&v, &g, &want), Some(PlanField::BoundGap));
    // a gap and a rounding slack left without their bound: the slack is read first
    let mut v = base.clone();
    v["upper_bound"] = Value::Null;
    assert_eq!(refused_on(&v, &g, &want), Some(PlanField::RoundingSlack));
    // a gap alone without its bound
    v.as_object_mut().unwrap().remove("rounding_slack");
    assert_eq!(refused_on(&v, &g, &want), Some(PlanField::BoundGap));
    // a doubled bound whose gap was not rewritten
    let mut v = base.clone();
    v["upper_bound"] = json!(ub * 2.0);
    assert_eq!(refused_on(&v, &g, &want), Some(PlanField::BoundGap));
    // the gap is optional: a plan without it reads as the plan
    let mut v = base;
    v.as_object_mut().unwrap().remove("bound_gap");
    assert_eq!(refused_on(&v, &g, &want), None);
}

#[test]
fn gas_price_other_than_the_requests_is_refused() {
    let g = bundled();
    let (_, swap, mut want) = cases(&g).swap_remove(0);
    // a plan priced at 1000 output base units per gas unit, checked against that price
    let mut req = RouteRequest::new(want.inputs.clone(), want.outputs.clone());
    req.slippage = want.slippage;
    req.gas = Some(GasModel::typical(1000.0));
    let priced = quote(&g, &req).unwrap();
    assert_eq!(priced.gas_price, Some(1000.0));
    want.gas = req.gas;
    let base = json_of(&priced, &g);
    assert_eq!(refused_on(&base, &g, &want), None);
    for p in [json!(2000.0), json!(0.0), Value::Null] {
        let mut v = base.clone();
        v["gas_price"] = p.clone();
        assert_eq!(
            refused_on(&v, &g, &want),
            Some(PlanField::GasPrice),
            "gas_price {p}"
        );
    }
    // a plan chosen without gas that claims a price
    want.gas = None;
    let mut v = json_of(&swap, &g);
    assert_eq!(refused_on(&v, &g, &want), None);
    v["gas_price"] = json!(1000.0);
    assert_eq!(refused_on(&v, &g, &want), Some(PlanField::GasPrice));
}

#[test]
fn zap_out_value_is_its_first_outputs_amount_and_is_checked() {
    let g = bundled();
    let (name, zout, want) = cases(&g).swap_remove(2);
    assert_eq!(name, "zap-out");
    assert!(zout.outputs.len() >= 2);
    // no gas model: the value is the first output's amount
    assert_eq!(zout.value, to_f64(zout.outputs[0].amount));
    let base = json_of(&zout, &g);
    assert_eq!(refused_on(&base, &g, &want), None);
    for f in [2.0, 0.5, -1.0] {
        let mut v = base.clone();
        v["value"] = json!(zout.value * f);
        assert_eq!(refused_on(&v, &g, &want), Some(PlanField::Value), "× {f}");
    }
}

// --- snapshots

fn data(file: &str) -> Value {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data")
        .join(file);
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn load(v: &Value) -> Result<PoolGraph, SnapshotError> {
    let s: Snapshot = serde_json::from_value(v.clone()).unwrap();
    PoolGraph::from_snapshot(&s)
}

/// The index of the first pool of `kind` (and `stable`, for solidly) in snapshot `v`.
fn pool_of(v: &Value, kind: &str) -> usize {
    v["pools"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p["kind"] == kind)
        .unwrap()
}

fn unknown_field(r: Result<PoolGraph, SnapshotError>, pool: &str, field: &str) {
    match r {
        Err(e @ SnapshotError::UnknownField { .. }) => {
            assert_eq!(e.code(), 4037);
            assert_eq!(
                e,
                SnapshotError::UnknownField {
                    pool: pool.into(),
                    field: field.into()
                }
            );
            assert!(
                e.to_string().contains(pool) && e.to_string().contains(field),
                "{e}"
            );
        }
        other => panic!("{pool} {field}: {other:?}"),
    }
}

#[test]
fn pool_field_of_another_kind_is_refused_not_dropped() {
    let base = data("snapshot.json");
    assert!(load(&base).is_ok());
    for (kind, field, value) in [
        ("constant_product", "stable", json!(true)),
        ("constant_product", "fee_bps", json!("30")),
        ("solidly", "fee", json!({"num": "3", "den": "1000"})),
        ("solidly", "a", json!("100")),
        ("stableswap", "offpeg_fee_multiplier", json!("20000000000")),
        ("stableswap", "stable", json!(true)),
        ("concentrated_liquidity", "fee_bps", json!("30")),
        ("concentrated_liquidity", "decimals", json!([18, 6])),
    ] {
        let mut v = base.clone();
        let k = pool_of(&v, kind);
        v["pools"][k][field] = value;
        let id = v["pools"][k]["id"].as_str().unwrap().to_string();
        unknown_field(load(&v), &id, field);
    }
    // an off-peg multiplier is read by stableswap-ng pools
    let mut v = base;
    let k = pool_of(&v, "stableswap");
    v["pools"][k]["variant"] = json!("ng");
    v["pools"][k]["offpeg_fee_multiplier"] = json!("20000000000");
    assert!(load(&v).is_ok());
}

#[test]
fn misspelt_or_repeated_fees_key_of_a_chain_101_pool_is_refused() {
    let base = data("snapshot-101.json");
    assert!(load(&base).is_ok());
    for kind in ["spl_token_swap", "saber_stableswap"] {
        let mut v = base.clone();
        let k = pool_of(&v, kind);
        let fees = v["pools"][k]["fees"].as_object_mut().unwrap();
        let n = fees.remove("trade_fee_numerator").unwrap();
        fees.insert("trade_fee_numeratr".into(), n);
        let id = v["pools"][k]["id"].as_str().unwrap().to_string();
        unknown_field(load(&v), &id, "fees.trade_fee_numeratr");
    }
    // a key given twice is refused by the reader, which names it
    let text = serde_json::to_string(&base).unwrap().replacen(
        "\"trade_fee_numerator\":",
        "\"trade_fee_numerator\":\"0\",\"trade_fee_numerator\":",
        1,
    );
    let e = serde_json::from_str::<Snapshot>(&text)
        .unwrap_err()
        .to_string();
    assert!(e.contains("duplicate key `trade_fee_numerator`"), "{e}");
}

fn bad_pool(r: Result<PoolGraph, SnapshotError>, pool: &str, why: BadPoolProblem) {
    match r {
        Err(SnapshotError::BadPool { pool: p, why: w }) => {
            assert_eq!((p.as_str(), w), (pool, why));
        }
        other => panic!("{pool} {why:?}: {other:?}"),
    }
}

#[test]
fn pool_id_is_its_source_and_an_address_of_the_chain() {
    let base = data("snapshot.json");
    let id = base["pools"][0]["id"].as_str().unwrap().to_string();
    let (src, addr) = id.split_once(':').unwrap();
    for bad in [
        format!("{src}:pool-1"),
        addr.to_string(),
        format!("sushiswap:{addr}"),
        format!("x:{src}:{addr}"),
        String::new(),
    ] {
        let mut v = base.clone();
        v["pools"][0]["id"] = json!(bad);
        bad_pool(load(&v), &bad, BadPoolProblem::IdShape);
    }
    for source in ["", "uniswap_v2", "uniswap v2"] {
        let mut v = base.clone();
        v["pools"][0]["source"] = json!(source);
        v["pools"][0]["id"] = json!(format!("{source}:{addr}"));
        let id = format!("{source}:{addr}");
        bad_pool(load(&v), &id, BadPoolProblem::SourceId);
    }
    // upper-case hex is the same address
    let mut v = base;
    v["pools"][0]["id"] = json!(format!("{src}:0x{}", addr[2..].to_uppercase()));
    assert!(load(&v).is_ok());
}

#[test]
fn pool_coin_or_lp_token_of_another_chain_names_the_pool_and_field() {
    let base = data("snapshot-101.json");
    let mut v = base.clone();
    let id = v["pools"][0]["id"].as_str().unwrap().to_string();
    v["pools"][0]["tokens"][0] = json!("0x4200000000000000000000000000000000000006");
    bad_pool(load(&v), &id, BadPoolProblem::NotAnAddress("tokens"));
    let mut v = base;
    let k = pool_of(&v, "saber_stableswap");
    let id = v["pools"][k]["id"].as_str().unwrap().to_string();
    v["pools"][k]["lp_token"] = json!("0x4200000000000000000000000000000000000006");
    bad_pool(load(&v), &id, BadPoolProblem::NotAnAddress("lp_token"));
    let e = load(&v).unwrap_err().to_string();
    assert!(e.contains(&id) && e.contains("lp_token"), "{e}");
}

#[test]
fn integer_fields_with_a_plus_sign_or_spaces_are_refused() {
    let evm = data("snapshot.json");
    let k = pool_of(&evm, "concentrated_liquidity");
    let id = evm["pools"][k]["id"].as_str().unwrap().to_string();
    for s in ["+60", " 60", "60 "] {
        let mut v = evm.clone();
        v["pools"][k]["tick_spacing"] = json!(s);
        assert_eq!(
            load(&v).unwrap_err(),
            SnapshotError::BadNumber {
                pool: id.clone(),
                field: "tick_spacing"
            },
            "{s:?}"
        );
    }
    let s101 = data("snapshot-101.json");
    let k = pool_of(&s101, "orca_whirlpool");
    let id = s101["pools"][k]["id"].as_str().unwrap().to_string();
    let liquidity = s101["pools"][k]["liquidity"].as_str().unwrap().to_string();
    for s in [format!("+{liquidity}"), format!(" {liquidity}")] {
        let mut v = s101.clone();
        v["pools"][k]["liquidity"] = json!(s);
        assert_eq!(
            load(&v).unwrap_err(),
            SnapshotError::BadNumber {
                pool: id.clone(),
                field: "liquidity"
            },
            "{s:?}"
        );
    }
}
