//! Checks for `orca_whirlpool.jsonl` records (`../shared/vectors-101`) against
//! [`swapzap::pool::Whirlpool`] and its tick and token functions. Errors must also be of the
//! kind the crate's reason names.
use super::cp::compare;
use super::spl::n;
use serde_json::Value;
use swapzap::error::{MathError, PoolError};
use swapzap::pool::whirlpool::{
    amount_delta_a, amount_delta_b, next_sqrt_price_from_a, next_sqrt_price_from_b,
    sqrt_price_to_tick_index, tick_index_to_sqrt_price, OrcaTick, OrcaTickArray, Whirlpool,
    WhirlpoolState,
};
use swapzap::U256;

pub fn pool_of(p: &Value) -> Result<Whirlpool, PoolError> {
    let state = WhirlpoolState {
        sqrt_price: n(&p["sqrt_price"]),
        tick_current_index: n(&p["tick_current_index"]),
        liquidity: n(&p["liquidity"]),
        fee_rate: n(&p["fee_rate"]),
        protocol_fee_rate: n(&p["protocol_fee_rate"]),
        tick_spacing: n(&p["tick_spacing"]),
    };
    let arrays: Vec<OrcaTickArray> = p["tick_arrays"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| OrcaTickArray {
            start_tick_index: n(&a["start_tick_index"]),
            ticks: a["ticks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| OrcaTick {
                    index: n(&t["index"]),
                    liquidity_net: n(&t["liquidity_net"]),
                    liquidity_gross: n(&t["liquidity_gross"]),
                })
                .collect(),
        })
        .collect();
    Whirlpool::new(state, &arrays)
}

fn one<T: Into<U256>>(x: T) -> Vec<U256> {
    vec![x.into()]
}

/// Whether our error is the kind the crate's reason string names.
fn same_kind(reason: &str, err: &PoolError) -> bool {
    match reason {
        "Invalid tick array sequence" | "Tick index out of bounds" => {
            *err == PoolError::TickArraySequence
        }
        "Amount exceeds max u64" => *err == PoolError::Math(MathError::Overflow),
        "Sqrt price out of bounds" => *err == PoolError::SqrtPriceOutOfBounds,
        "Invalid sqrt price limit direction" | "Sqrt price limit out of bounds" => {
            *err == PoolError::PriceLimit
        }
        "Zero tradable amount" => *err == PoolError::InsufficientInputAmount,
        "Invalid slippage tolerance" => matches!(err, PoolError::InvalidArgument(_)),
        _ => false,
    }
}

pub fn check(v: &Value) -> Result<(), String> {
    let id = &v["id"];
    let op = &v["op"];
    let e = &v["expect"];
    let reverts = e["revert"].as_bool().unwrap_or(false);
    let b = |name: &str| op[name].as_bool().unwrap_or_else(|| panic!("{id}: {name}"));
    let pool = || pool_of(&v["pool"]);
    let got: Result<Vec<(&str, Vec<U256>)>, PoolError> = match op["name"].as_str().unwrap_or("") {
        "tick_index_to_sqrt_price" => {
            tick_index_to_sqrt_price(n(&op["tick_index"])).map(|p| vec![("sqrt_price", one(p))])
        }
        "sqrt_price_to_tick_index" => sqrt_price_to_tick_index(n(&op["sqrt_price"])).map(|t| {
            // Compared as a decimal string (ticks can be negative).
            vec![("tick_index", vec![U256::from(t.unsigned_abs())])]
        }),
        "try_get_amount_delta_a" | "try_get_amount_delta_b" => {
            let f = if op["name"] == "try_get_amount_delta_a" {
                amount_delta_a
            } else {
                amount_delta_b
            };
            f(
                n(&op["sqrt_price_1"]),
                n(&op["sqrt_price_2"]),
                n(&op["liquidity"]),
                b("round_up"),
            )
            .map(|a| vec![("amount", one(a))])
        }
        "try_get_next_sqrt_price_from_a" | "try_get_next_sqrt_price_from_b" => {
            let f = if op["name"] == "try_get_next_sqrt_price_from_a" {
                next_sqrt_price_from_a
            } else {
                next_sqrt_price_from_b
            };
            f(
                n(&op["sqrt_price"]),
                n(&op["liquidity"]),
                n(&op["amount"]),
                b("specified_input"),
            )
            .map(|p| vec![("sqrt_price", one(p))])
        }
        "compute_swap" => pool()
            .and_then(|p| {
                p.compute_swap(
                    n(&op["token_amount"]),
                    n(&op["sqrt_price_limit"]),
                    b("a_to_b"),
                    b("specified_input"),
                )
            })
            .map(|r| {
                let fee = u64::from(pool().unwrap().state().fee_rate);
                vec![
                    ("token_a", one(r.token_a)),
                    ("token_b", one(r.token_b)),
                    ("trade_fee", one(r.trade_fee)),
                    ("applied_fee_rate_min", one(fee)),
                    ("applied_fee_rate_max", one(fee)),
                ]
            }),
        "swap_quote_by_input_token" => pool()
            .and_then(|p| {
                p.quote_by_input(
                    n(&op["token_in"]),
                    b("specified_token_a"),
                    n(&op["slippage_tolerance_bps"]),
                )
            })
            .map(|q| {
                let fee = u64::from(pool().unwrap().state().fee_rate);
                vec![
                    ("token_in", one(q.token_in)),
                    ("token_est_out", one(q.token_est_out)),
                    ("token_min_out", one(q.token_min_out)),
                    ("trade_fee", one(q.trade_fee)),
                    ("trade_fee_rate_min", one(fee)),
                    ("trade_fee_rate_max", one(fee)),
                ]
            }),
        "swap_quote_by_output_token" => pool()
            .and_then(|p| {
                p.quote_by_output(
                    n(&op["token_out"]),
                    b("specified_token_a"),
                    n(&op["slippage_tolerance_bps"]),
                )
            })
            .map(|q| {
                let fee = u64::from(pool().unwrap().state().fee_rate);
                vec![
                    ("token_out", one(q.token_out)),
                    ("token_est_in", one(q.token_est_in)),
                    ("token_max_in", one(q.token_max_in)),
                    ("trade_fee", one(q.trade_fee)),
                    ("trade_fee_rate_min", one(fee)),
                    ("trade_fee_rate_max", one(fee)),
                ]
            }),
        other => return Err(format!("{id}: unknown op {other}")),
    };
    if op["name"] == "sqrt_price_to_tick_index" {
        if let Ok(vals) = &got {
            let want: i64 = n(&e["tick_index"]);
            let got_abs = vals[0].1[0].low_u64() as i64;
            let t: i32 = sqrt_price_to_tick_index(n(&op["sqrt_price"])).unwrap();
            return if i64::from(t) == want && got_abs == want.abs() {
                Ok(())
            } else {
                Err(format!("{id}: tick_index: got {t}, want {want}"))
            };
        }
    }
    if let (true, Err(err)) = (reverts, &got) {
        let reason = e["reason"].as_str().unwrap_or("");
        if !same_kind(reason, err) {
            return Err(format!("{id}: error {err:?} is not the crate's {reason:?}"));
        }
    }
    compare(id, e, reverts, got)
}
