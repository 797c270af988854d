//! Checks for `saber_stableswap.jsonl` records (`../shared/vectors-101`) against
//! [`swapzap::pool::SaberStableSwap`].
use super::cp::compare;
use super::spl::n;
use serde_json::Value;
use swapzap::math::W;
use swapzap::pool::saber::{SaberAmp, SaberFees, SaberStableSwap};
use swapzap::U256;

pub fn pool_of(p: &Value) -> SaberStableSwap {
    let f = &p["fees"];
    let fees = SaberFees {
        admin_trade_fee_numerator: n(&f["admin_trade_fee_numerator"]),
        admin_trade_fee_denominator: n(&f["admin_trade_fee_denominator"]),
        admin_withdraw_fee_numerator: n(&f["admin_withdraw_fee_numerator"]),
        admin_withdraw_fee_denominator: n(&f["admin_withdraw_fee_denominator"]),
        trade_fee_numerator: n(&f["trade_fee_numerator"]),
        trade_fee_denominator: n(&f["trade_fee_denominator"]),
        withdraw_fee_numerator: n(&f["withdraw_fee_numerator"]),
        withdraw_fee_denominator: n(&f["withdraw_fee_denominator"]),
    };
    let amp = SaberAmp {
        initial_amp_factor: n(&p["initial_amp_factor"]),
        target_amp_factor: n(&p["target_amp_factor"]),
        start_ramp_ts: n(&p["start_ramp_ts"]),
        stop_ramp_ts: n(&p["stop_ramp_ts"]),
        current_ts: n(&p["current_ts"]),
    };
    let b = &p["balances"];
    SaberStableSwap::new([n(&b[0]), n(&b[1])], n(&p["total_supply"]), amp, fees)
}

fn one(x: u64) -> Vec<U256> {
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
            "compute_amp_factor" => pool.amp_factor().map(|a| vec![("amp_factor", one(a))]),
            "compute_d" => pool
                .compute_d(n(&op["amount_a"]), n(&op["amount_b"]))
                .map(|d| vec![("d", vec![d.to_u256()])]),
            "compute_y" => {
                let d = W::from_u256(super::u(&op["d"]));
                pool.compute_y(n(&op["x"]), d).map(|y| vec![("y", one(y))])
            }
            "swap" => {
                let i = idx("token_in");
                pool.swap_detailed(i, n(&op["amount_in"])).map(|s| {
                    vec![
                        ("amount_out", one(s.amount_out)),
                        ("fee", one(s.fee)),
                        ("admin_fee", one(s.admin_fee)),
                        ("new_source_amount", one(s.new_source_amount)),
                        ("new_destination_amount", one(s.new_destination_amount)),
                        (
                            "balances_after",
                            super::balances_after(i, s.new_source_amount, s.new_destination_amount),
                        ),
                    ]
                })
            }
            "deposit" => {
                let a = &op["amounts"];
                pool.deposit([n(&a[0]), n(&a[1])])
                    .map(|m| vec![("minted", one(m))])
            }
            "withdraw_one" => pool
                .withdraw_one(n(&op["pool_token_amount"]), idx("token_out"))
                .map(|(dy, fee)| vec![("amount_out", one(dy)), ("fee", one(fee))]),
            "withdraw" => pool.withdraw(n(&op["pool_token_amount"])).map(|w| {
                vec![
                    (
                        "amounts_out",
                        vec![U256::from(w[0].amount), U256::from(w[1].amount)],
                    ),
                    ("fees", vec![U256::from(w[0].fee), U256::from(w[1].fee)]),
                    (
                        "admin_fees",
                        vec![U256::from(w[0].admin_fee), U256::from(w[1].admin_fee)],
                    ),
                ]
            }),
            other => return Err(format!("{id}: unknown op {other}")),
        };
    compare(id, e, reverts, got)
}
