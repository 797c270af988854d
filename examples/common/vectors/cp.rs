//! Checks for `uniswap_v2.jsonl` records against [`swapzap::pool::ConstantProduct`].
use super::{u, us};
use serde_json::Value;
use swapzap::pool::ConstantProduct;
use swapzap::U256;

fn field(v: &Value, name: &str) -> u64 {
    v[name]
        .as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{name}: {v}"))
}

/// The pair state of a record (the library ops carry no supply: 0).
fn pool_of(p: &Value) -> Result<ConstantProduct, String> {
    let r = us(&p["reserves"]);
    let ts = if p["total_supply"].is_null() {
        U256::zero()
    } else {
        u(&p["total_supply"])
    };
    let pool = ConstantProduct::new(
        [r[0], r[1]],
        field(p, "fee"),
        field(p, "fee_denominator"),
        ts,
    )
    .map_err(|e| format!("state rejected: {e}"))?;
    let k_last = if p["k_last"].is_null() {
        U256::zero()
    } else {
        u(&p["k_last"])
    };
    Ok(pool.with_protocol_fee(k_last, p["fee_on"].as_bool().unwrap_or(false)))
}

fn eq(id: &Value, what: &str, got: U256, want: U256) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{id}: {what}: got {got}, want {want}"))
    }
}

pub fn check(v: &Value) -> Result<(), String> {
    let id = &v["id"];
    let pool = pool_of(&v["pool"])?;
    let op = &v["op"];
    let e = &v["expect"];
    let reverts = e["revert"].as_bool().unwrap_or(false);
    let idx = |name: &str| -> usize { field(op, name) as usize };
    let name = op["name"].as_str().unwrap_or("");
    // Each arm returns the library's result as a list of named values to compare, or its error.
    let got: Result<Vec<(&str, Vec<U256>)>, swapzap::PoolError> = match name {
        "get_amount_out" => {
            let i = idx("token_in");
            pool.amount_out(i, 1 - i, u(&op["amount_in"]))
                .map(|o| vec![("amount_out", vec![o])])
        }
        "get_amount_in" => {
            let i = idx("token_in");
            pool.amount_in(i, 1 - i, u(&op["amount_out"]))
                .map(|o| vec![("amount_in", vec![o])])
        }
        "quote" => {
            let i = idx("token_in");
            pool.quote(i, 1 - i, u(&op["amount"]))
                .map(|o| vec![("amount", vec![o])])
        }
        "swap" => pool
            .swap_exact(idx("token_in"), u(&op["amount_in"]), u(&op["amount_out"]))
            .map(|p| vec![("reserves_after", p.reserves().to_vec())]),
        "mint" => {
            let a = us(&op["amounts"]);
            pool.mint_detailed([a[0], a[1]]).map(|m| {
                vec![
                    ("minted", vec![m.minted]),
                    ("fee_minted", vec![m.fee_minted]),
                    ("reserves_after", m.pool.reserves().to_vec()),
                    ("total_supply_after", vec![m.pool.total_supply()]),
                    ("k_last_after", vec![m.pool.k_last()]),
                ]
            })
        }
        "burn" => pool.burn_detailed(u(&op["liquidity"])).map(|b| {
            vec![
                ("amounts_out", b.amounts.to_vec()),
                ("fee_minted", vec![b.fee_minted]),
                ("reserves_after", b.pool.reserves().to_vec()),
                ("total_supply_after", vec![b.pool.total_supply()]),
                ("k_last_after", vec![b.pool.k_last()]),
            ]
        }),
        other => return Err(format!("{id}: unknown op {other}")),
    };
    compare(id, e, reverts, got)
}

/// Compare a library result with a record's `expect` (every listed field, or the revert).
pub fn compare(
    id: &Value,
    e: &Value,
    reverts: bool,
    got: Result<Vec<(&str, Vec<U256>)>, swapzap::PoolError>,
) -> Result<(), String> {
    super::compare_by(id, e, reverts, got, |what, got| {
        let want_v = &e[what];
        let want = if want_v.is_array() {
            us(want_v)
        } else {
            vec![u(want_v)]
        };
        if got.len() != want.len() {
            return Err(format!("{id}: {what}: got {got:?}, want {want:?}"));
        }
        got.into_iter()
            .zip(want)
            .try_for_each(|(g, w)| eq(id, what, g, w))
    })
}
