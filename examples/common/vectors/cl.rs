//! Checks for `uniswap_v3.jsonl` records (`../shared/vectors-cl`) against
//! [`swapzap::pool::ConcentratedLiquidity`] and its `tick_math` / `sqrt_price_math` functions.
use super::u;
use serde_json::Value;
use swapzap::math::W;
use swapzap::pool::concentrated_liquidity::{
    sqrt_price_math as spm, tick_math, ClSwap, ConcentratedLiquidity, SwapAmount, Tick,
};
use swapzap::U256;

fn int<T: std::str::FromStr>(v: &Value) -> T {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not an integer: {v}"))
}

fn u128_of(v: &Value) -> Result<u128, String> {
    let x = u(v);
    if x.bits() > 128 {
        return Err(format!("{v} above uint128"));
    }
    Ok(x.low_u128())
}

/// The pool of a record (every field of the `uniswap_v3` pool section that the math reads).
pub fn pool_of(p: &Value) -> Result<ConcentratedLiquidity, String> {
    assert_eq!(int::<u64>(&p["fee_denominator"]), 1_000_000);
    let ticks = p["ticks"]
        .as_array()
        .ok_or("no ticks")?
        .iter()
        .map(|t| {
            Ok(Tick {
                index: int(&t["index"]),
                liquidity_net: int(&t["liquidity_net"]),
                liquidity_gross: u128_of(&t["liquidity_gross"])?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let fg = [
        u(&p["fee_growth_global0_x128"]),
        u(&p["fee_growth_global1_x128"]),
    ];
    let pf = &p["protocol_fees"];
    let pf = [u128_of(&pf[0])?, u128_of(&pf[1])?];
    let pool = ConcentratedLiquidity::new(
        u(&p["sqrt_price_x96"]),
        int(&p["tick"]),
        u128_of(&p["liquidity"])?,
        int(&p["fee"]),
        int(&p["tick_spacing"]),
        ticks,
    )
    .and_then(|c| c.with_fees(int(&p["fee_protocol"]), fg, pf))
    .map_err(|e| format!("state rejected: {e}"))?;
    let max = u128_of(&p["max_liquidity_per_tick"])?;
    if pool.max_liquidity_per_tick() != max {
        return Err(format!(
            "max_liquidity_per_tick {} != {max}",
            pool.max_liquidity_per_tick()
        ));
    }
    Ok(pool)
}

/// A signed amount as the pool reports it: `+x` paid in, `-x` paid out.
fn signed(x: U256, negative: bool) -> String {
    if negative && !x.is_zero() {
        format!("-{x}")
    } else {
        x.to_string()
    }
}

/// The swap's expected fields as strings.
fn swap_fields(zero_for_one: bool, s: &ClSwap) -> Vec<(&'static str, String)> {
    let (a0, a1) = if zero_for_one {
        (signed(s.amount_in, false), signed(s.amount_out, true))
    } else {
        (signed(s.amount_out, true), signed(s.amount_in, false))
    };
    let p = &s.pool;
    let [g0, g1] = p.fee_growth_global_x128();
    let [f0, f1] = p.protocol_fees();
    vec![
        ("amount0", a0),
        ("amount1", a1),
        ("sqrt_price_x96_after", p.sqrt_price_x96().to_string()),
        ("tick_after", p.tick().to_string()),
        ("liquidity_after", p.liquidity().to_string()),
        ("fee_growth_global0_x128_after", g0.to_string()),
        ("fee_growth_global1_x128_after", g1.to_string()),
        ("protocol_fees_after", format!("{f0},{f1}")),
    ]
}

/// `expect[what]` as a string (arrays joined with commas).
fn want(e: &Value, what: &str) -> String {
    match &e[what] {
        Value::Array(a) => a
            .iter()
            .map(|x| x.as_str().unwrap_or_default())
            .collect::<Vec<_>>()
            .join(","),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn w(v: &Value) -> W {
    W::from_u256(u(v))
}

pub fn check(v: &Value) -> Result<(), String> {
    let id = &v["id"];
    let op = &v["op"];
    let e = &v["expect"];
    let reverts = e["revert"].as_bool().unwrap_or(false);
    let name = op["name"].as_str().unwrap_or("");
    let got: Result<Vec<(&str, String)>, swapzap::PoolError> = match name {
        "get_sqrt_ratio_at_tick" => tick_math::sqrt_ratio_at_tick(int(&op["tick"]))
            .map(|p| vec![("sqrt_price_x96", p.to_u256().to_string())]),
        "get_tick_at_sqrt_ratio" => tick_math::tick_at_sqrt_ratio(w(&op["sqrt_price_x96"]))
            .map(|t| vec![("tick", t.to_string())]),
        "get_amount0_delta" | "get_amount1_delta" => {
            let l = u128_of(&op["liquidity"]).map_err(|m| format!("{id}: {m}"))?;
            let (a, b) = (w(&op["sqrt_ratio_a_x96"]), w(&op["sqrt_ratio_b_x96"]));
            let up = op["round_up"].as_bool().unwrap_or(false);
            let r = if name == "get_amount0_delta" {
                spm::amount0_delta(a, b, l, up)
            } else {
                spm::amount1_delta(a, b, l, up)
            };
            r.map(|x| vec![("amount", x.to_u256().to_string())])
        }
        "get_next_sqrt_price_from_input" | "get_next_sqrt_price_from_output" => {
            let l = u128_of(&op["liquidity"]).map_err(|m| format!("{id}: {m}"))?;
            let (p, a) = (w(&op["sqrt_price_x96"]), w(&op["amount"]));
            let z = op["zero_for_one"].as_bool().unwrap_or(false);
            let r = if name == "get_next_sqrt_price_from_input" {
                spm::next_sqrt_price_from_input(p, l, a, z)
            } else {
                spm::next_sqrt_price_from_output(p, l, a, z)
            };
            r.map(|x| vec![("sqrt_price_x96", x.to_u256().to_string())])
        }
        "swap" | "mint" | "burn" => {
            let pool = pool_of(&v["pool"]).map_err(|m| format!("{id}: {m}"))?;
            match name {
                "swap" => {
                    let z = op["zero_for_one"].as_bool().unwrap_or(false);
                    let s = op["amount_specified"].as_str().unwrap_or("0");
                    let amount = match s.strip_prefix('-') {
                        Some(m) => SwapAmount::ExactOut(U256::from_dec_str(m).unwrap()),
                        None => SwapAmount::ExactIn(U256::from_dec_str(s).unwrap()),
                    };
                    pool.execute_swap(z, amount, u(&op["sqrt_price_limit_x96"]))
                        .map(|s| swap_fields(z, &s))
                }
                _ => {
                    let (lo, hi): (i32, i32) = (int(&op["tick_lower"]), int(&op["tick_upper"]));
                    let amount = u128_of(&op["amount"]).map_err(|m| format!("{id}: {m}"))?;
                    let r = if name == "mint" {
                        pool.mint(lo, hi, amount)
                    } else {
                        let held = v["pool"]["positions"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .find(|p| {
                                int::<i32>(&p["tick_lower"]) == lo
                                    && int::<i32>(&p["tick_upper"]) == hi
                            })
                            .map_or(Ok(0), |p| u128_of(&p["liquidity"]))
                            .map_err(|m| format!("{id}: {m}"))?;
                        pool.burn(lo, hi, amount, held)
                    };
                    r.map(|m| {
                        vec![
                            ("amount0", m.amount0.to_string()),
                            ("amount1", m.amount1.to_string()),
                            ("liquidity_after", m.pool.liquidity().to_string()),
                        ]
                    })
                }
            }
        }
        other => return Err(format!("{id}: unknown op {other}")),
    };
    super::compare_by(id, e, reverts, got, |what, got| {
        let want = want(e, what);
        if got == want {
            Ok(())
        } else {
            Err(format!("{id}: {what}: got {got}, want {want}"))
        }
    })
}
