//! Runner for the zap-in vectors of `../shared/zap` (schema and rules in its README).
//! Used by `tests/integration/zap.rs` and `examples/verify_vectors.rs` through `#[path]`;
//! the including crate must also have the pool-vector runner as `crate::vectors`.
//!
//! For each vector: build the pool, run [`swapzap::zap::zap_in_pool`] with the exact config,
//! and judge the result by the README's rules, re-simulating the library's own plan through
//! the pool types (swap, then mint of the deposit; or exchange, then add_liquidity).
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::cast_precision_loss
)]

use serde_json::{json, Value};
use swapzap::pool::{ConstantProduct, Pool, Solidly};
use swapzap::zap::{zap_in_pool, ZapConfig, ZapIn};
use swapzap::U256;

/// Whether a JSON record is a zap vector (by content: amounts and an expected best mint).
#[must_use]
pub fn is_zap_vector(v: &Value) -> bool {
    v.get("amounts").is_some() && v.get("expect").and_then(|e| e.get("best_minted")).is_some()
}

fn u(v: &Value) -> U256 {
    U256::from_dec_str(v.as_str().unwrap_or("x")).unwrap_or_default()
}

fn us(v: &Value) -> Vec<U256> {
    v.as_array()
        .map(|a| a.iter().map(u).collect())
        .unwrap_or_default()
}

fn small(v: &Value) -> Result<u64, String> {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not a small integer: {v}"))
}

/// The pool of a zap vector.
///
/// # Errors
/// When the pool record cannot be built.
pub fn pool_of(v: &Value) -> Result<Pool, String> {
    let p = &v["pool"];
    match v["family"].as_str() {
        Some("uniswap_v2") => {
            let r = us(&p["reserves"]);
            let pool = ConstantProduct::new(
                [r[0], r[1]],
                small(&p["fee"])?,
                small(&p["fee_denominator"])?,
                u(&p["total_supply"]),
            )
            .map_err(|e| e.to_string())?;
            let k_last = p.get("k_last").map_or(U256::zero(), u);
            let fee_on = p["fee_on"].as_bool().unwrap_or(false);
            Ok(Pool::ConstantProduct(
                pool.with_protocol_fee(k_last, fee_on),
            ))
        }
        Some("solidly") => {
            let r = us(&p["reserves"]);
            let d = us(&p["decimals"]);
            if small(&p["fee_denominator"])? != 10_000 || d.len() != 2 {
                return Err("solidly: fee_denominator must be 10000, two decimals".into());
            }
            let dec = |x: U256| u8::try_from(x.low_u64()).map_err(|e| e.to_string());
            let fee = u32::try_from(small(&p["fee"])?).map_err(|e| e.to_string())?;
            Solidly::new(
                [r[0], r[1]],
                [dec(d[0])?, dec(d[1])?],
                p["stable"].as_bool().unwrap_or(false),
                fee,
                u(&p["total_supply"]),
            )
            .map(Pool::Solidly)
            .map_err(|e| e.to_string())
        }
        Some("curve_stableswap" | "curve_stableswap_ng") => {
            crate::vectors::curve::pool_of(p).map(Pool::StableSwap)
        }
        other => Err(format!("unknown family {other:?}")),
    }
}

/// One library result, as the README's result line.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// vector id
    pub id: String,
    /// the zap, or the library's error
    pub zap: Result<ZapIn, String>,
}

impl Outcome {
    /// The README's result line.
    #[must_use]
    pub fn to_json(&self) -> Value {
        match &self.zap {
            Ok(z) => json!({
                "id": self.id,
                "minted": z.minted.to_string(),
                "swap": z.swap.map(|s| json!({
                    "from": s.from.to_string(),
                    "to": s.to.to_string(),
                    "amount": s.amount_in.to_string(),
                })),
                "deposit": z.deposit.iter().map(ToString::to_string).collect::<Vec<_>>(),
            }),
            Err(e) => json!({"id": self.id, "error": e}),
        }
    }
}

/// Run the library on one vector.
#[must_use]
pub fn run(v: &Value) -> Outcome {
    let id = v["id"].as_str().unwrap_or("?").to_string();
    let zap = pool_of(v).and_then(|pool| {
        zap_in_pool(&pool, &us(&v["amounts"]), &ZapConfig::exact()).map_err(|e| e.to_string())
    });
    Outcome { id, zap }
}

/// Spot price of one raw unit of coin 1 in raw coin-0 units, as the README defines it.
#[must_use]
pub fn spot_price(family: &str, pool: &Value, r: &[U256]) -> f64 {
    let r0 = to_f(r[0]);
    let r1 = to_f(r[1]);
    if family == "solidly" && pool["stable"].as_bool() == Some(true) {
        let d = us(&pool["decimals"]);
        let (d0, d1) = (d[0].as_u32() as i32, d[1].as_u32() as i32);
        let x = r0 * 10f64.powi(18 - d0);
        let y = r1 * 10f64.powi(18 - d1);
        10f64.powi(d0 - d1) * (x * x * x + 3.0 * x * y * y) / (3.0 * x * x * y + y * y * y)
    } else {
        r0 / r1
    }
}

/// U256 to f64 (for values and ratios in reports only).
#[must_use]
pub fn to_f(x: U256) -> f64 {
    x.to_string().parse().unwrap_or(f64::MAX)
}

/// Judge one outcome by the README's rules.
///
/// # Errors
/// Why the result fails.
pub fn check(v: &Value, o: &Outcome) -> Result<(), String> {
    let id = &o.id;
    let family = v["family"].as_str().unwrap_or("?");
    let e = &v["expect"];
    let best = u(&e["best_minted"]);
    let feasible = e["feasible"].as_bool().unwrap_or(true);
    let z = match &o.zap {
        Err(err) => {
            return if feasible {
                Err(format!("{id}: error on a feasible vector: {err}"))
            } else {
                Ok(())
            }
        }
        Ok(z) => z,
    };
    if !feasible {
        return if z.minted.is_zero() {
            Ok(())
        } else {
            Err(format!("{id}: minted {} on an infeasible vector", z.minted))
        };
    }
    // Never over-report: re-run the plan.
    let pool = pool_of(v)?;
    let a = us(&v["amounts"]);
    let (after_swap, held) = match z.swap {
        None => (pool.clone(), a.clone()),
        Some(s) => {
            let (out, p1) = pool
                .swap(s.from, s.to, s.amount_in)
                .map_err(|err| format!("{id}: own swap reverts: {err}"))?;
            let mut h = a.clone();
            h[s.from] = h[s.from]
                .checked_sub(s.amount_in)
                .ok_or(format!("{id}: swap exceeds input"))?;
            h[s.to] += out;
            (p1, h)
        }
    };
    for (d, h) in z.deposit.iter().zip(&held) {
        if d > h {
            return Err(format!("{id}: deposit {d} above holdings {h}"));
        }
    }
    let (minted, _) = after_swap
        .mint(&z.deposit)
        .map_err(|err| format!("{id}: own mint reverts: {err}"))?;
    if minted != z.minted {
        return Err(format!(
            "{id}: reports {} but the plan mints {minted}",
            z.minted
        ));
    }
    match family {
        "uniswap_v2" | "solidly" => {
            if minted != best {
                return Err(format!("{id}: minted {minted}, best {best}"));
            }
            let left: Vec<U256> = held.iter().zip(&z.deposit).map(|(h, d)| h - d).collect();
            let keep = u(&e["keep_most"]["leftover_value0"]);
            let r = after_swap.balances();
            let ok = if family == "solidly" && v["pool"]["stable"].as_bool() == Some(true) {
                let p = spot_price(family, &v["pool"], r);
                let value = to_f(left[0]) + to_f(left[1]) * p;
                value >= to_f(keep) * (1.0 - 1e-12)
            } else {
                // floor(l0 + l1·r0/r1), exact
                let q = swapzap::math::mul_div(left[1], r[0], r[1]).unwrap();
                left[0] + q >= keep
            };
            if !ok {
                return Err(format!(
                    "{id}: leftover {left:?} worth less than keep_most {keep} (swap {:?}, range {}, keep_most {})",
                    z.swap.map(|s| (s.from, s.amount_in)),
                    e["optimal_swap_range"],
                    e["keep_most"]
                ));
            }
            Ok(())
        }
        _ => {
            // minted ≥ best · (1 − 1e-6)
            let floor = best - best / U256::from(1_000_000u32);
            if minted < floor {
                return Err(format!(
                    "{id}: minted {minted} below best {best} by {:.3} bps",
                    (to_f(best) - to_f(minted)) / to_f(best) * 1e4
                ));
            }
            Ok(())
        }
    }
}

/// Per-family pass counts and failures over many vectors.
#[derive(Debug, Default)]
pub struct Tally {
    /// (family key, passed, failed)
    pub families: Vec<(String, usize, usize)>,
    /// first failures (at most 20)
    pub failures: Vec<String>,
}

impl Tally {
    /// Record one result.
    pub fn add(&mut self, v: &Value, res: &Result<(), String>) {
        let key = family_key(v);
        let k = match self.families.iter().position(|f| f.0 == key) {
            Some(k) => k,
            None => {
                self.families.push((key, 0, 0));
                self.families.len() - 1
            }
        };
        match res {
            Ok(()) => self.families[k].1 += 1,
            Err(e) => {
                self.families[k].2 += 1;
                if self.failures.len() < 20 {
                    self.failures.push(e.clone());
                }
            }
        }
    }

    /// Totals (passed, failed).
    #[must_use]
    pub fn totals(&self) -> (usize, usize) {
        self.families
            .iter()
            .fold((0, 0), |(p, f), x| (p + x.1, f + x.2))
    }

    /// One line per family.
    #[must_use]
    pub fn summary(&self) -> String {
        let mut s = String::new();
        for (k, p, f) in &self.families {
            s.push_str(&format!("  {k}: {p} passed, {f} failed\n"));
        }
        s
    }
}

/// Family key for reports: family plus the variant (stable/volatile, curve variant, n).
#[must_use]
pub fn family_key(v: &Value) -> String {
    let p = &v["pool"];
    match v["family"].as_str().unwrap_or("?") {
        "solidly" => {
            if p["stable"].as_bool() == Some(true) {
                "solidly_stable".into()
            } else {
                "solidly_volatile".into()
            }
        }
        "uniswap_v2" => "uniswap_v2".into(),
        f => format!(
            "{f}/{}/n{}",
            p["variant"].as_str().unwrap_or("?"),
            p["n_coins"].as_str().unwrap_or("?")
        ),
    }
}

/// Shortfall statistics of one plan source (a baseline or the library) on one family.
#[derive(Debug, Default, Clone)]
pub struct Shortfall {
    /// vectors seen
    pub n: usize,
    /// vectors that mint the best exactly (v2/solidly) or within 1e-6 (curve)
    pub optimal: usize,
    /// vectors that pass all rules (optimal and keep at least the keep_most value)
    pub pass: usize,
    /// shortfall of the mint in bps of best, per vector
    pub short_bps: Vec<f64>,
    /// leftover value in bps of the input value, per vector
    pub dust_bps: Vec<f64>,
}

fn pct(v: &mut [f64], q: f64) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    let k = ((v.len() - 1) as f64 * q).round() as usize;
    v[k]
}

/// The table of how far the recorded baselines fall short and how much dust they leave,
/// against the library: rows (family, source).
#[must_use]
pub fn baseline_table(records: &[Value], outcomes: &[Outcome]) -> String {
    use std::collections::BTreeMap;
    let mut rows: BTreeMap<(String, String), Shortfall> = BTreeMap::new();
    for (v, o) in records.iter().zip(outcomes) {
        let e = &v["expect"];
        if e["feasible"].as_bool() != Some(true) {
            continue;
        }
        let fam = family_key(v);
        let best_u = u(&e["best_minted"]);
        let best = to_f(best_u);
        let a = us(&v["amounts"]);
        let pool = &v["pool"];
        let reserves = if pool.get("reserves").is_some() {
            us(&pool["reserves"])
        } else {
            us(&pool["balances"])
        };
        let two = reserves.len() == 2 && !v["family"].as_str().unwrap_or("").starts_with("curve");
        let input_value = if two {
            to_f(a[0])
                + to_f(a[1]) * spot_price(v["family"].as_str().unwrap_or(""), pool, &reserves)
        } else {
            1.0
        };
        let keep = to_f(u(&e["keep_most"]["leftover_value0"]));
        let floor = if two {
            best_u
        } else {
            best_u - best_u / U256::from(1_000_000u32)
        };
        let mut push = |name: &str, minted_u: U256, dust: Option<f64>| {
            let minted = to_f(minted_u);
            for key in [fam.clone(), "(all)".to_string()] {
                let row = rows.entry((key, name.to_string())).or_default();
                row.n += 1;
                let opt = minted_u >= floor;
                if opt {
                    row.optimal += 1;
                }
                let keeps = dust.map_or(true, |d| d + 1.0 >= keep * (1.0 - 1e-12));
                if opt && keeps {
                    row.pass += 1;
                }
                row.short_bps.push(((best - minted) / best * 1e4).max(0.0));
                if let Some(d) = dust {
                    if two {
                        row.dust_bps.push(d / input_value * 1e4);
                    }
                }
            }
        };
        if let Some(b) = v["baselines"].as_object() {
            for (name, r) in b {
                let minted = u(&r["minted"]);
                let dust = r.get("leftover_value0").map(|x| to_f(u(x)));
                push(name, minted, dust);
            }
        }
        if let Ok(z) = &o.zap {
            let dust = if two {
                // leftover value at the library's own post-swap (pre-mint) price
                let p0 = pool_of(v).ok();
                let r: Vec<U256> = match (z.swap, &p0) {
                    (Some(sw), Some(p0)) => p0
                        .swap(sw.from, sw.to, sw.amount_in)
                        .map(|(_, p1)| p1.balances().to_vec())
                        .unwrap_or_default(),
                    (None, Some(p0)) => p0.balances().to_vec(),
                    _ => Vec::new(),
                };
                if r.len() != 2 {
                    continue;
                }
                let p = spot_price(v["family"].as_str().unwrap_or(""), pool, &r);
                Some(to_f(z.leftover[0]) + to_f(z.leftover[1]) * p)
            } else {
                None
            };
            push("swapzap", z.minted, dust);
        }
    }
    let mut s = String::from(
        "| family | plan | vectors | optimal | pass (optimal + keep_most) | shortfall bps median / p90 / max | leftover bps of input median / p90 / max |\n|---|---|---:|---:|---:|---|---|\n",
    );
    for ((fam, name), mut r) in rows {
        let (m, p9, mx) = (
            pct(&mut r.short_bps, 0.5),
            pct(&mut r.short_bps, 0.9),
            pct(&mut r.short_bps, 1.0),
        );
        let dust = if r.dust_bps.is_empty() {
            "-".to_string()
        } else {
            format!(
                "{:.4} / {:.4} / {:.4}",
                pct(&mut r.dust_bps, 0.5),
                pct(&mut r.dust_bps, 0.9),
                pct(&mut r.dust_bps, 1.0)
            )
        };
        s.push_str(&format!(
            "| {fam} | {name} | {} | {} | {} | {m:.4} / {p9:.4} / {mx:.4} | {dust} |\n",
            r.n, r.optimal, r.pass
        ));
    }
    s
}
