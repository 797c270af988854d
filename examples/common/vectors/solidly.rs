//! Checks for `solidly.jsonl` records against [`swapzap::pool::Solidly`].
use super::cp::compare;
use super::{u, us};
use serde_json::Value;
use swapzap::pool::Solidly;
use swapzap::U256;

fn num(v: &Value) -> u64 {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a number: {v}"))
}

fn pool_of(p: &Value) -> Result<Solidly, String> {
    let r = us(&p["reserves"]);
    let d: Vec<u8> = p["decimals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| num(x) as u8)
        .collect();
    assert_eq!(num(&p["fee_denominator"]), 10_000);
    let ts = if p["total_supply"].is_null() {
        U256::zero()
    } else {
        u(&p["total_supply"])
    };
    Solidly::new(
        [r[0], r[1]],
        [d[0], d[1]],
        p["stable"].as_bool().unwrap(),
        num(&p["fee"]) as u32,
        ts,
    )
    .map_err(|e| format!("state rejected: {e}"))
}

pub fn check(v: &Value) -> Result<(), String> {
    let id = &v["id"];
    let pool = pool_of(&v["pool"])?;
    let op = &v["op"];
    let e = &v["expect"];
    let reverts = e["revert"].as_bool().unwrap_or(false);
    let name = op["name"].as_str().unwrap_or("");
    let got = match name {
        "get_amount_out" => {
            let i = num(&op["token_in"]) as usize;
            pool.amount_out(i, 1 - i, u(&op["amount_in"]))
                .map(|o| vec![("amount_out", vec![o])])
        }
        "swap" => pool
            .swap_exact(
                num(&op["token_in"]) as usize,
                u(&op["amount_in"]),
                u(&op["amount_out"]),
            )
            .map(|p| vec![("reserves_after", p.reserves().to_vec())]),
        "mint" => {
            let a = us(&op["amounts"]);
            pool.mint_detailed([a[0], a[1]]).map(|m| {
                vec![
                    ("minted", vec![m.minted]),
                    ("reserves_after", m.pool.reserves().to_vec()),
                    ("total_supply_after", vec![m.pool.total_supply()]),
                ]
            })
        }
        "burn" => pool.burn_detailed(u(&op["liquidity"])).map(|b| {
            vec![
                ("amounts_out", b.amounts.to_vec()),
                ("reserves_after", b.pool.reserves().to_vec()),
                ("total_supply_after", vec![b.pool.total_supply()]),
            ]
        }),
        other => return Err(format!("{id}: unknown op {other}")),
    };
    compare(id, e, reverts, got)
}
