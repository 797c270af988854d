//! Checks for `spl_token_swap.jsonl` records (`../shared/vectors-101`) against
//! [`swapzap::pool::SplTokenSwap`].
use super::cp::compare;

use serde_json::Value;
use swapzap::pool::spl_token_swap::{SplFees, SplTokenSwap};
use swapzap::U256;

/// A decimal-string field as `T` (u64, u128, i64, ...).
pub fn n<T: std::str::FromStr>(v: &Value) -> T {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a number of the wanted type: {v}"))
}

pub fn pool_of(p: &Value) -> SplTokenSwap {
    let f = &p["fees"];
    let fees = SplFees {
        trade_fee_numerator: n(&f["trade_fee_numerator"]),
        trade_fee_denominator: n(&f["trade_fee_denominator"]),
        owner_trade_fee_numerator: n(&f["owner_trade_fee_numerator"]),
        owner_trade_fee_denominator: n(&f["owner_trade_fee_denominator"]),
        owner_withdraw_fee_numerator: n(&f["owner_withdraw_fee_numerator"]),
        owner_withdraw_fee_denominator: n(&f["owner_withdraw_fee_denominator"]),
        host_fee_numerator: n(&f["host_fee_numerator"]),
        host_fee_denominator: n(&f["host_fee_denominator"]),
    };
    assert_eq!(p["curve_type"], "constant_product");
    let b = &p["balances"];
    SplTokenSwap::new([n(&b[0]), n(&b[1])], n(&p["total_supply"]), fees)
}

fn one(x: u128) -> Vec<U256> {
    vec![U256::from(x)]
}

pub fn check(v: &Value) -> Result<(), String> {
    let id = &v["id"];
    let pool = pool_of(&v["pool"]);
    let op = &v["op"];
    let e = &v["expect"];
    let reverts = e["revert"].as_bool().unwrap_or(false);
    let idx = |name: &str| -> usize { n::<usize>(&op[name]) };
    let got: Result<Vec<(&str, Vec<U256>)>, swapzap::PoolError> =
        match op["name"].as_str().unwrap_or("") {
            "swap" => {
                let i = idx("token_in");
                pool.swap_detailed(i, n(&op["amount_in"])).map(|s| {
                    vec![
                        ("amount_out", one(s.amount_out)),
                        ("source_amount_swapped", one(s.source_amount_swapped)),
                        ("trade_fee", one(s.trade_fee)),
                        ("owner_fee", one(s.owner_fee)),
                        ("new_source_amount", one(s.new_source_amount)),
                        ("new_destination_amount", one(s.new_destination_amount)),
                        (
                            "balances_after",
                            super::balances_after(i, s.new_source_amount, s.new_destination_amount),
                        ),
                    ]
                })
            }
            "pool_tokens_to_trading_tokens" => {
                let up = match op["round_direction"].as_str() {
                    Some("ceiling") => true,
                    Some("floor") => false,
                    other => return Err(format!("{id}: round_direction {other:?}")),
                };
                pool.pool_tokens_to_trading_tokens(n(&op["pool_tokens"]), up)
                    .map(|a| vec![("amounts", vec![U256::from(a[0]), U256::from(a[1])])])
            }
            "owner_withdraw_fee" => pool
                .owner_withdraw_fee(n(&op["pool_tokens"]))
                .map(|f| vec![("fee", one(f))]),
            "deposit_single_token_type" => pool
                .deposit_single_token_type(idx("token_in"), n(&op["amount_in"]))
                .map(|t| vec![("pool_tokens", one(t))]),
            "withdraw_single_token_type_exact_out" => pool
                .withdraw_single_token_type_exact_out(idx("token_out"), n(&op["amount_out"]))
                .map(|t| vec![("pool_tokens", one(t))]),
            other => return Err(format!("{id}: unknown op {other}")),
        };
    compare(id, e, reverts, got)
}
