//! Deterministic generator of realistic pool snapshots for routing tests and benches.
//!
//! Hubs WETH/USDC/USDT/DAI/WBTC with parallel pools of several sources, a Curve 3pool, solidly
//! stable pools between stablecoins, and long-tail tokens (decimals 6/8/18, prices 1e-4..1e3
//! USD) each tied to a hub and then joined at random; depths log-uniform from 1e3 to 1e8 USD.
//! Each pool's price deviates from the reference by less than half its fee, except solidly
//! stable pools: their balances are skewed by up to 5 % (a few bps of price, which can exceed
//! half their 1-5 bps fee), so a cycle through one can pay (README: generated instances).
//! Used by `tests/integration/routing.rs` and (through `#[path]`) by `benches/route.rs`.
#![allow(dead_code, clippy::unwrap_used, clippy::arithmetic_side_effects)]

use swapzap::snapshot::{FeeField, FeeFraction, PoolKind, Snapshot, SnapshotPool, SnapshotToken};

/// splitmix64: small, deterministic, good enough for test data.
#[derive(Debug, Clone)]
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// uniform in [0, 1)
    pub fn f(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A generated market: the snapshot and each token's USD price.
pub struct Market {
    pub snapshot: Snapshot,
    pub prices: Vec<f64>,
    pub decimals: Vec<u8>,
}

fn address(tag: u64, k: u64) -> String {
    let mut r = Rng(tag.wrapping_mul(0x1000_0000_01B3) ^ k);
    format!(
        "0x{:016x}{:016x}{:08x}",
        r.next_u64(),
        r.next_u64(),
        r.next_u64() as u32
    )
}

fn amount(usd: f64, price: f64, dec: u8) -> String {
    let v = usd / price * 10f64.powi(dec as i32);
    format!("{:.0}", v.max(1.0))
}

struct Builder {
    rng: Rng,
    tokens: Vec<SnapshotToken>,
    prices: Vec<f64>,
    decimals: Vec<u8>,
    pools: Vec<SnapshotPool>,
    seed: u64,
}

impl Builder {
    fn pool_id(&mut self, source: &str) -> String {
        let k = self.pools.len() as u64;
        format!("{source}:{}", address(self.seed ^ 0xABCD, k))
    }

    fn cp(&mut self, a: usize, b: usize, usd: f64, source: &str) {
        let (num, den) = if source == "uniswap-v2" {
            (3, 1000)
        } else {
            (25, 10000)
        };
        let half = num as f64 / den as f64 / 2.0;
        let dev = self.rng.range(-half, half) * 0.9;
        let id = self.pool_id(source);
        self.pools.push(SnapshotPool {
            id,
            source: source.into(),
            kind: PoolKind::ConstantProduct,
            tokens: vec![
                self.tokens[a].address.clone(),
                self.tokens[b].address.clone(),
            ],
            reserves: vec![
                amount(usd / 2.0, self.prices[a], self.decimals[a]),
                amount(usd / 2.0 * (1.0 + dev), self.prices[b], self.decimals[b]),
            ],
            fee: Some(FeeField::Fraction(FeeFraction {
                num: num.to_string(),
                den: den.to_string(),
            })),
            ..Default::default()
        });
    }

    fn solidly(&mut self, a: usize, b: usize, usd: f64, stable: bool) {
        let bps: u32 = if stable {
            1 + self.rng.below(5) as u32
        } else {
            [5, 20, 30, 100][self.rng.below(4)]
        };
        let dev = if stable {
            0.0
        } else {
            self.rng.range(-1.0, 1.0) * bps as f64 / 2e4 * 0.9
        };
        let skew = if stable {
            self.rng.range(0.95, 1.05)
        } else {
            1.0
        };
        let id = self.pool_id("aerodrome");
        self.pools.push(SnapshotPool {
            id,
            source: "aerodrome".into(),
            kind: PoolKind::Solidly,
            tokens: vec![
                self.tokens[a].address.clone(),
                self.tokens[b].address.clone(),
            ],
            reserves: vec![
                amount(usd / 2.0 * skew, self.prices[a], self.decimals[a]),
                amount(
                    usd / 2.0 / skew * (1.0 + dev),
                    self.prices[b],
                    self.decimals[b],
                ),
            ],
            stable: Some(stable),
            fee_bps: Some(bps.to_string()),
            decimals: Some(vec![self.decimals[a], self.decimals[b]]),
            ..Default::default()
        });
    }

    fn curve(&mut self, coins: &[usize], usd: f64, amp: u64, fee: u64) {
        let id = self.pool_id("curve");
        let n = coins.len() as f64;
        let reserves = coins
            .iter()
            .map(|&c| {
                amount(
                    usd / n * self.rng.range(0.9, 1.1),
                    self.prices[c],
                    self.decimals[c],
                )
            })
            .collect();
        self.pools.push(SnapshotPool {
            id,
            source: "curve".into(),
            kind: PoolKind::Stableswap,
            tokens: coins
                .iter()
                .map(|&c| self.tokens[c].address.clone())
                .collect(),
            reserves,
            fee: Some(FeeField::Units(fee.to_string())),
            a: Some((amp * 100).to_string()),
            a_precision: Some("100".into()),
            rates: Some(
                coins
                    .iter()
                    .map(|&c| format!("1{}", "0".repeat(36 - self.decimals[c] as usize)))
                    .collect(),
            ),
            ..Default::default()
        });
    }

    fn depth(&mut self) -> f64 {
        10f64.powf(self.rng.range(3.0, 8.0))
    }
}

/// Adds `count` concentrated-liquidity pools (Uniswap V3 fee tiers and spacings) to a market:
/// the first on WETH/USDC, the others between a hub and a random token, each priced within half
/// its fee of the reference, with eight nested bands of liquidity around the price (about `usd`
/// of depth within a few percent), so trades run across several ticks.
pub fn add_cl_pools(m: &mut Market, seed: u64, count: usize) {
    use swapzap::pool::concentrated_liquidity::tick_math::sqrt_ratio_at_tick;
    use swapzap::snapshot::SnapshotTick;
    let mut rng = Rng(seed ^ 0xC1C1);
    let n = m.snapshot.tokens.len();
    for k in 0..count {
        let (a, b) = if k == 0 {
            (0, 1)
        } else {
            let h = rng.below(5);
            let t = rng.below(n);
            if t == h {
                continue;
            }
            (h, t)
        };
        let (fee, spacing) = [(100u32, 1i32), (500, 10), (3000, 60), (10_000, 200)][rng.below(4)];
        // raw token1/token0 price, nudged within half the fee
        let half = f64::from(fee) / 2e6 * 0.9;
        let p = m.prices[a] / m.prices[b]
            * 10f64.powi(i32::from(m.decimals[b]) - i32::from(m.decimals[a]))
            * (1.0 + rng.range(-half, half));
        let tick = (p.ln() / 1.0001f64.ln()).floor() as i32;
        let usd = 10f64.powf(rng.range(5.0, 8.0));
        // L with virtual token0 reserves worth usd / 2
        let l = usd / 2.0 * p.sqrt() * 10f64.powi(i32::from(m.decimals[a])) / m.prices[a];
        let band = (l / 4.0).max(1.0);
        let width = spacing * (1 + rng.below(30) as i32);
        let base = tick.div_euclid(spacing) * spacing;
        let mut ticks = Vec::new();
        for j in (1..=8).rev() {
            ticks.push(SnapshotTick {
                index: (base - j * width).to_string(),
                liquidity_net: format!("{band:.0}"),
                ..Default::default()
            });
        }
        for j in 1..=8 {
            ticks.push(SnapshotTick {
                index: (base + j * width).to_string(),
                liquidity_net: format!("-{band:.0}"),
                ..Default::default()
            });
        }
        let active: u128 = format!("{band:.0}").parse::<u128>().unwrap() * 8;
        let price = sqrt_ratio_at_tick(tick).unwrap().to_u256() + 1;
        let id = format!("uniswap-v3:{}", address(seed ^ 0x3333, k as u64));
        m.snapshot.pools.push(SnapshotPool {
            id,
            source: "uniswap-v3".into(),
            kind: PoolKind::ConcentratedLiquidity,
            tokens: vec![
                m.snapshot.tokens[a].address.clone(),
                m.snapshot.tokens[b].address.clone(),
            ],
            fee: Some(FeeField::Units(fee.to_string())),
            sqrt_price_x96: Some(price.to_string()),
            tick: Some(tick.to_string()),
            liquidity: Some(active.to_string()),
            tick_spacing: Some(spacing.to_string()),
            ticks: Some(ticks),
            ..Default::default()
        });
    }
}

/// A market with `n_tokens` tokens (at least 5) and about `n_pools` pools (at least 10).
pub fn market(seed: u64, n_tokens: usize, n_pools: usize) -> Market {
    let n_tokens = n_tokens.max(5);
    let mut b = Builder {
        rng: Rng(seed),
        tokens: vec![],
        prices: vec![],
        decimals: vec![],
        pools: vec![],
        seed,
    };
    let hubs = [
        ("WETH", 18u8, 3000.0),
        ("USDC", 6, 1.0),
        ("USDT", 6, 1.0),
        ("DAI", 18, 1.0),
        ("WBTC", 8, 60000.0),
    ];
    for (k, (s, d, p)) in hubs.iter().enumerate() {
        b.tokens.push(SnapshotToken {
            address: address(seed, k as u64),
            symbol: (*s).into(),
            decimals: *d,
        });
        b.prices.push(*p);
        b.decimals.push(*d);
    }
    for k in 5..n_tokens {
        let d = [6u8, 8, 18][b.rng.below(3)];
        let p = 10f64.powf(b.rng.range(-4.0, 3.0));
        b.tokens.push(SnapshotToken {
            address: address(seed, k as u64),
            symbol: format!("T{k:03}"),
            decimals: d,
        });
        b.prices.push(p);
        b.decimals.push(d);
    }
    // hub pools
    b.cp(0, 1, 4e7, "uniswap-v2");
    b.cp(0, 1, 8e6, "sushiswap");
    b.solidly(0, 1, 2.5e7, false);
    b.cp(0, 2, 1e7, "uniswap-v2");
    b.cp(0, 3, 5e6, "uniswap-v2");
    b.cp(4, 0, 1.5e7, "uniswap-v2");
    b.cp(4, 1, 3e6, "sushiswap");
    b.solidly(1, 2, 4e6, true);
    b.solidly(1, 3, 3e6, true);
    b.curve(&[3, 1, 2], 1.5e8, 2000, 1_000_000);
    // every long-tail token tied to a hub
    for k in 5..n_tokens {
        if b.pools.len() >= n_pools.max(10) {
            break;
        }
        let h = [0, 0, 1, 1, 2, 3, 4][b.rng.below(7)];
        let usd = b.depth();
        if b.rng.f() < 0.6 {
            let src = if b.rng.f() < 0.6 {
                "uniswap-v2"
            } else {
                "sushiswap"
            };
            b.cp(k, h, usd, src);
        } else {
            b.solidly(k, h, usd, false);
        }
    }
    // the rest at random
    while b.pools.len() < n_pools {
        let a = b.rng.below(n_tokens);
        let c = if b.rng.f() < 0.6 {
            b.rng.below(5)
        } else {
            b.rng.below(n_tokens)
        };
        if a == c {
            continue;
        }
        let usd = b.depth();
        let r = b.rng.f();
        if r < 0.5 {
            b.cp(a, c, usd, "uniswap-v2");
        } else if r < 0.7 {
            b.cp(a, c, usd, "sushiswap");
        } else {
            b.solidly(a, c, usd, false);
        }
    }
    Market {
        snapshot: Snapshot {
            chain_id: 8453,
            tokens: b.tokens,
            pools: b.pools,
        },
        prices: b.prices,
        decimals: b.decimals,
    }
}

/// The bench's request mix on a generated market: 24 single-output requests (hub → long tail,
/// long tail → hub, hub → hub), 1e3..3e6 USD, deterministic in `seed`.
pub fn bench_requests(m: &Market, n_tokens: usize, seed: u64) -> Vec<swapzap::route::RouteRequest> {
    use num_rational::Ratio;
    use swapzap::units::TokenId;
    use swapzap::U256;
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for k in 0..24 {
        let (from, to) = match k % 3 {
            0 => (rng.below(5), 5 + rng.below(n_tokens - 5)),
            1 => (5 + rng.below(n_tokens - 5), rng.below(5)),
            _ => {
                let a = rng.below(5);
                (a, (a + 1 + rng.below(4)) % 5)
            }
        };
        let usd = 10f64.powf(rng.range(3.0, 6.5));
        let a = usd / m.prices[from] * 10f64.powi(i32::from(m.decimals[from]));
        let a = U256::from_dec_str(&format!("{:.0}", a.max(1.0))).unwrap();
        out.push(swapzap::route::RouteRequest::new(
            vec![(TokenId(from as u32), a)],
            vec![(TokenId(to as u32), Ratio::new(1, 1))],
        ));
    }
    out
}

/// A heavier mix on the same pairs: each input is 1e-4 to 0.3 (log-uniform) of the deepest
/// reserve of the input token, the trade sizes of `../shared/routing` (README section 8).
pub fn heavy_requests(m: &Market, n_tokens: usize, seed: u64) -> Vec<swapzap::route::RouteRequest> {
    use swapzap::U256;
    let mut rng = Rng(seed ^ 0x5EED);
    let mut out = bench_requests(m, n_tokens, seed);
    for r in &mut out {
        let Some((from, amount)) = r.inputs.first_mut() else {
            continue;
        };
        let addr = &m.snapshot.tokens[from.0 as usize].address;
        let mut deep = 0.0f64;
        for p in &m.snapshot.pools {
            for (t, res) in p.tokens.iter().zip(&p.reserves) {
                if t == addr {
                    deep = deep.max(res.parse::<f64>().unwrap());
                }
            }
        }
        let a = deep * 10f64.powf(rng.range(-4.0, 0.3f64.log10()));
        *amount = U256::from_dec_str(&format!("{:.0}", a.max(1.0))).unwrap();
    }
    out
}

/// The market's reference USD price of each token, keyed by address (the `prices` of an
/// instance file for `score.py`).
pub fn prices_by_address(m: &Market) -> serde_json::Map<String, serde_json::Value> {
    m.snapshot
        .tokens
        .iter()
        .zip(&m.prices)
        .map(|(tk, pr)| (tk.address.clone(), serde_json::json!(pr)))
        .collect()
}
