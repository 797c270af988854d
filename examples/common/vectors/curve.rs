//! Checks for `curve_stableswap.jsonl` and `curve_stableswap_ng.jsonl`: build the pool from the
//! record, run the op, compare every expected field (a revert must be an error).
use super::{u, us};
use serde_json::Value;
use swapzap::pool::stableswap::{StableSwap, StableSwapParams, Variant};
use swapzap::U256;

/// Build the pool state of a vector record.
pub fn pool_of(p: &Value) -> Result<StableSwap, String> {
    let variant = match p["variant"].as_str() {
        Some("template_base") => Variant::Classic,
        Some("3pool") => Variant::ThreePool,
        Some("ng") => Variant::Ng,
        other => return Err(format!("unknown variant {other:?}")),
    };
    let params = StableSwapParams {
        variant,
        balances: us(&p["balances"]).into_iter().collect(),
        rates: us(&p["rates"]).into_iter().collect(),
        a: u(&p["A"]),
        fee: u(&p["fee"]),
        admin_fee: u(&p["admin_fee"]),
        total_supply: u(&p["total_supply"]),
        admin_balances: us(&p["admin_balances"]).into_iter().collect(),
        offpeg_fee_multiplier: p.get("offpeg_fee_multiplier").map_or(U256::zero(), u),
    };
    StableSwap::new(params).map_err(|e| format!("pool refused: {e}"))
}

fn idx(v: &Value) -> usize {
    u(v).as_usize()
}

fn cmp(id: &str, what: &str, got: U256, want: &Value) -> Result<(), String> {
    let want = u(want);
    if got == want {
        Ok(())
    } else {
        Err(format!("{id}: {what}: got {got}, want {want}"))
    }
}

fn cmp_list(id: &str, what: &str, got: &[U256], want: &Value) -> Result<(), String> {
    let want = us(want);
    if got == want.as_slice() {
        Ok(())
    } else {
        Err(format!("{id}: {what}: got {got:?}, want {want:?}"))
    }
}

fn cmp_state(id: &str, st: &StableSwap, e: &Value) -> Result<(), String> {
    if let Some(b) = e.get("balances_after") {
        cmp_list(id, "balances_after", st.balances(), b)?;
    }
    if let Some(b) = e.get("admin_balances_after") {
        cmp_list(id, "admin_balances_after", st.admin_balances(), b)?;
    }
    if let Some(t) = e.get("total_supply_after") {
        cmp(id, "total_supply_after", st.total_supply(), t)?;
    }
    // The state after must be the state a fresh build gives (cached xp and D included).
    let fresh =
        StableSwap::new(st.params()).map_err(|e| format!("{id}: state after refused: {e}"))?;
    if &fresh != st {
        return Err(format!(
            "{id}: state after differs from a fresh build: D {:?} vs {:?}",
            st.d(),
            fresh.d()
        ));
    }
    Ok(())
}

/// Check one curve vector.
pub fn check(v: &Value) -> Result<(), String> {
    let id = v["id"].as_str().unwrap_or("?");
    let pool = pool_of(&v["pool"]).map_err(|e| format!("{id}: {e}"))?;
    let op = &v["op"];
    let e = &v["expect"];
    let reverts = e.get("revert").and_then(Value::as_bool).unwrap_or(false);
    let name = op["name"].as_str().unwrap_or("?");
    // Each arm gives Ok(closure result) or the library's error.
    let res: Result<Result<(), String>, swapzap::PoolError> = match name {
        "get_dy" => pool
            .get_dy(idx(&op["i"]), idx(&op["j"]), u(&op["dx"]))
            .map(|out| cmp(id, "amount_out", out, &e["amount_out"])),
        "exchange" => pool
            .exchange(idx(&op["i"]), idx(&op["j"]), u(&op["dx"]))
            .map(|(out, st)| {
                cmp(id, "amount_out", out, &e["amount_out"])?;
                cmp_state(id, &st, e)
            }),
        "calc_token_amount" => pool
            .calc_token_amount(
                &us(&op["amounts"]),
                op["is_deposit"].as_bool().unwrap_or(true),
            )
            .map(|out| cmp(id, "amount", out, &e["amount"])),
        "add_liquidity" => pool.add_liquidity(&us(&op["amounts"])).map(|(lp, st)| {
            cmp(id, "minted", lp, &e["minted"])?;
            cmp_state(id, &st, e)
        }),
        "remove_liquidity" => pool.remove_liquidity(u(&op["amount"])).map(|(out, st)| {
            cmp_list(id, "amounts_out", &out, &e["amounts_out"])?;
            cmp_state(id, &st, e)
        }),
        "calc_withdraw_one_coin" => pool
            .calc_withdraw_one_coin(u(&op["amount"]), idx(&op["i"]))
            .map(|out| cmp(id, "amount_out", out, &e["amount_out"])),
        "remove_liquidity_one_coin" => pool
            .remove_liquidity_one_coin(u(&op["amount"]), idx(&op["i"]))
            .map(|(out, st)| {
                cmp(id, "amount_out", out, &e["amount_out"])?;
                cmp_state(id, &st, e)
            }),
        "remove_liquidity_imbalance" => {
            pool.remove_liquidity_imbalance(&us(&op["amounts"]))
                .map(|(lp, st)| {
                    cmp(id, "burned", lp, &e["burned"])?;
                    cmp_state(id, &st, e)
                })
        }
        other => return Err(format!("{id}: unknown op {other}")),
    };
    match (res, reverts) {
        (Ok(r), false) => r,
        (Ok(r), true) => Err(format!(
            "{id}: {name} should revert but gave a result ({r:?})"
        )),
        (Err(_), true) => Ok(()),
        (Err(err), false) => Err(format!("{id}: {name} failed: {err}")),
    }
}
