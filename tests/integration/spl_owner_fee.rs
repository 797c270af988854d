//! SPL Token Swap owner-fee pool tokens (issue 17): after a swap, spl-token-swap 3.0.0's
//! `process_swap` mints pool tokens to the owner's fee account, so the pool's supply grows, and
//! a deposit into the same pool afterwards is priced on that supply. Everything here is
//! replayed with the program's steps written out in this file (its `PreciseNumber` included),
//! not with the library's code.
use super::spl_accounting::reference_swap;
use swapzap::graph::PoolGraph;
use swapzap::plan::Step;
use swapzap::pool::spl_token_swap::{SplFees, SplTokenSwap};
use swapzap::pool::Pool;
use swapzap::snapshot::Snapshot;
use swapzap::U256 as P;
use swapzap::U256;

fn graph() -> PoolGraph {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/snapshot-101.json");
    let snap: Snapshot = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    PoolGraph::from_snapshot(&snap).unwrap()
}

/// spl-math 0.1.0 `PreciseNumber`, written out: a value times 10^12, half-up rounding.
#[derive(Clone, Copy, PartialEq, PartialOrd)]
struct Pn(P);

fn one() -> P {
    P::exp10(12)
}

impl Pn {
    fn int(x: u128) -> Option<Pn> {
        P::from(x).checked_mul(one()).map(Pn)
    }
    fn add(self, o: Pn) -> Option<Pn> {
        self.0.checked_add(o.0).map(Pn)
    }
    fn sub(self, o: Pn) -> Option<Pn> {
        self.0.checked_sub(o.0).map(Pn)
    }
    fn mul(self, o: Pn) -> Option<Pn> {
        match self.0.checked_mul(o.0) {
            Some(v) => Some(Pn((v.checked_add(one() / 2)?) / one())),
            None => {
                let (hi, lo) = if self.0 >= o.0 {
                    (self.0, o.0)
                } else {
                    (o.0, self.0)
                };
                (hi / one()).checked_mul(lo).map(Pn)
            }
        }
    }
    fn div(self, o: Pn) -> Option<Pn> {
        if o.0.is_zero() {
            return None;
        }
        match self.0.checked_mul(one()) {
            Some(v) => Some(Pn(v.checked_add(one() / 2)? / o.0)),
            None => (self.0.checked_add(one() / 2)? / o.0)
                .checked_mul(one())
                .map(Pn),
        }
    }
    /// `sqrt`: refused above `u128::MAX`; Newton's `x' = (1·x + a / x) / 2` from
    /// `(a + 1) / 2`, at most 100 rounds, stopping once two guesses are within 100 raw units.
    fn sqrt(self) -> Option<Pn> {
        if self > Pn::int(u128::MAX)? {
            return None;
        }
        if self.0.is_zero() {
            return Some(self);
        }
        let (one_p, two) = (Pn::int(1)?, Pn::int(2)?);
        let mut guess = self.add(one_p)?.div(two)?;
        let mut last = guess;
        for _ in 0..100 {
            let next = one_p.mul(guess)?.add(self.div(guess)?)?.div(two)?;
            guess = next;
            let d = if last.0 > guess.0 {
                last.0 - guess.0
            } else {
                guess.0 - last.0
            };
            if d < P::from(100u8) {
                break;
            }
            last = guess;
        }
        Some(guess)
    }
    fn floor_int(self) -> Option<u128> {
        let v = (self.0 / one()).checked_mul(one())?;
        Pn(v).imprecise()
    }
    fn ceil_int(self) -> Option<u128> {
        let v = (self.0.checked_add(one() - 1)? / one()).checked_mul(one())?;
        Pn(v).imprecise()
    }
    fn imprecise(self) -> Option<u128> {
        let v = self.0.checked_add(one() / 2)? / one();
        (v.bits() <= 128).then(|| v.as_u128())
    }
}

/// `Fees::trading_fee` / `calculate_fee`: floor(x·n/d), at least 1 when n and x are non-zero.
fn fee(x: u128, n: u64, d: u64) -> Option<u128> {
    if n == 0 || x == 0 {
        return Some(0);
    }
    Some(x.checked_mul(n.into())?.checked_div(d.into())?.max(1))
}

/// `SwapCurve::withdraw_single_token_type_exact_out(owner_fee, ...)` as `process_swap` calls
/// it: on the source coin's balance after the swap and the supply before the mint, the trade
/// fee on half the amount taken off, `supply · (1 − √(1 − amount / balance))` rounded up.
fn program_owner_fee_tokens(
    owner_fee: u128,
    src_after: u128,
    supply: u128,
    f: &SplFees,
) -> Option<u128> {
    if owner_fee == 0 {
        return Some(0);
    }
    let half = (owner_fee / 2).max(1);
    let amount =
        owner_fee.checked_sub(fee(half, f.trade_fee_numerator, f.trade_fee_denominator)?)?;
    let ratio = Pn::int(amount)?.div(Pn::int(src_after)?)?;
    let base = Pn::int(1)?.sub(ratio)?;
    let root = Pn::int(1)?.sub(base.sqrt()?)?;
    Pn::int(supply)?.mul(root)?.ceil_int()
}

/// `deposit_single_token_type` (the single-sided deposit), rounded down.
fn program_single_deposit(amount: u128, bal: u128, supply: u128, f: &SplFees) -> Option<u128> {
    let half = (amount / 2).max(1);
    let amount = amount.checked_sub(fee(half, f.trade_fee_numerator, f.trade_fee_denominator)?)?;
    let ratio = Pn::int(amount)?.div(Pn::int(bal)?)?;
    let root = Pn::int(1)?.add(ratio)?.sqrt()?.sub(Pn::int(1)?)?;
    Pn::int(supply)?.mul(root)?.floor_int()
}

/// The program state this file tracks: balances and the pool mint's supply.
#[derive(Debug, Clone, Copy, PartialEq)]
struct State {
    bal: [u128; 2],
    supply: u128,
}

/// `process_swap` of `x` of coin `i`: the curve's output, what it takes, and the owner-fee
/// pool tokens minted (when non-zero) on the balances after. `None` where the program fails.
fn program_swap(s: State, f: &SplFees, i: usize, x: u128) -> Option<(u128, u128, u128, State)> {
    let j = 1 - i;
    let (out, taken) = reference_swap(s.bal[i], s.bal[j], f, x)?;
    let owner_fee = fee(
        x,
        f.owner_trade_fee_numerator,
        f.owner_trade_fee_denominator,
    )?;
    let mut bal = s.bal;
    bal[i] += taken;
    bal[j] -= out;
    let minted = program_owner_fee_tokens(owner_fee, bal[i], s.supply, f)?;
    let supply = s.supply + minted;
    if minted > 0 && supply > u128::from(u64::MAX) {
        return None; // spl-token MintTo: supply overflow
    }
    Some((out, taken, minted, State { bal, supply }))
}

/// `DepositAllTokenTypes` for the most pool tokens `held` pays for: `P = min floor(h·T/r)`,
/// the coins `ceil(P·r/T)`.
fn program_deposit_all(s: State, held: [u128; 2]) -> (u128, [u128; 2]) {
    let p = (0..2).map(|k| held[k] * s.supply / s.bal[k]).min().unwrap();
    let coins = [0, 1].map(|k| (p * s.bal[k]).div_ceil(s.supply));
    (p, coins)
}

fn state_of(p: &SplTokenSwap) -> State {
    State {
        bal: [p.balances()[0].as_u128(), p.balances()[1].as_u128()],
        supply: p.total_supply().as_u128(),
    }
}

fn fees(trade: u64, owner: u64) -> SplFees {
    SplFees {
        trade_fee_numerator: trade,
        trade_fee_denominator: 10_000,
        owner_trade_fee_numerator: owner,
        owner_trade_fee_denominator: 10_000,
        host_fee_numerator: 20,
        host_fee_denominator: 100,
        ..SplFees::default()
    }
}

#[test]
fn swap_then_deposit_on_the_same_pool_matches_the_program_with_owner_fee_tokens() {
    let g = graph();
    let mut pools: Vec<SplTokenSwap> = g
        .pools()
        .iter()
        .filter_map(|p| match &p.pool {
            Pool::SplTokenSwap(s) => Some(s.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(pools.len(), 3);
    // a large owner fee, and a small pool where one pool token is worth a lot
    pools.push(SplTokenSwap::new(
        [5_000_000_000, 7_000_000_000],
        1_000_000,
        fees(30, 500),
    ));
    pools.push(SplTokenSwap::new(
        [1_000_000, 9_000_000],
        3_000,
        fees(25, 5),
    ));
    let (mut checked, mut grew, mut moved_deposit) = (0, 0, 0);
    for pool in &pools {
        let s0 = state_of(pool);
        for i in 0..2 {
            for x in [1u128, 3, 1_999, 2_000, 123_456, 98_765_432, 4_000_000_000] {
                let lib = pool.swap(i, 1 - i, U256::from(x));
                let Some((out, _, minted, s1)) = program_swap(s0, &pool.fees(), i, x) else {
                    assert!(lib.is_err(), "the program fails, the library must too: {x}");
                    continue;
                };
                let (o, after) = lib.unwrap();
                assert_eq!(o, U256::from(out));
                assert_eq!(state_of(&after), s1, "pool after a swap of {x} of coin {i}");
                grew += usize::from(minted > 0);
                // then a deposit of both coins into the same pool
                let held = [s1.bal[0] / 1_000 + 7, s1.bal[1] / 999 + 11];
                let (p, coins) = program_deposit_all(s1, held);
                let (m, dep) = after
                    .mint(&[U256::from(coins[0]), U256::from(coins[1])])
                    .unwrap();
                assert_eq!(m, U256::from(p));
                assert_eq!(state_of(&dep).supply, s1.supply + p);
                // what the old state (no owner-fee tokens) would have priced
                let stale = State {
                    supply: s0.supply,
                    ..s1
                };
                moved_deposit += usize::from(program_deposit_all(stale, held) != (p, coins));
                // and a single-sided deposit
                let single = program_single_deposit(held[i], s1.bal[i], s1.supply, &pool.fees());
                let mut amounts = [U256::zero(); 2];
                amounts[i] = U256::from(held[i]);
                match (single, after.mint(&amounts)) {
                    (Some(t), Ok((m, _))) if t > 0 => assert_eq!(m, U256::from(t)),
                    (Some(0) | None, Err(_)) => {}
                    (t, r) => panic!("single-sided deposit: program {t:?}, library {r:?}"),
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 50, "{checked}");
    assert!(grew > 30, "most swaps mint owner-fee tokens ({grew})");
    assert!(
        moved_deposit > 10,
        "the grown supply changes deposits ({moved_deposit})"
    );
}

#[test]
fn owner_fee_tokens_edge_cases_follow_the_program() {
    let x = U256::from(1_000_000u64);
    // no owner fee: nothing minted
    let p = SplTokenSwap::new(
        [10u128.pow(12), 10u128.pow(12)],
        10u128.pow(12),
        fees(25, 0),
    );
    let (_, after) = p.swap(0, 1, x).unwrap();
    assert_eq!(after.total_supply(), p.total_supply());
    // a supply of 0: supply · root = 0, nothing minted, the swap goes through
    let p = SplTokenSwap::new([10u128.pow(12), 10u128.pow(12)], 0, fees(25, 5));
    let (_, after) = p.swap(0, 1, x).unwrap();
    assert!(after.total_supply().is_zero());
    // a supply at u64::MAX: the mint overflows spl-token's supply, the program fails the swap
    let max = u128::from(u64::MAX);
    let p = SplTokenSwap::new([10u128.pow(12), 10u128.pow(12)], max, fees(25, 5));
    let s = state_of(&p);
    assert_eq!(program_swap(s, &p.fees(), 0, 1_000_000), None);
    let minted = program_owner_fee_tokens(500, 10u128.pow(12) + 1_000_000, max, &p.fees());
    assert!(minted.unwrap() > 0);
    assert!(matches!(
        p.swap(0, 1, x),
        Err(swapzap::error::PoolError::Revert(
            swapzap::error::PoolRevert::SplOwnerFeeAboveU64
        ))
    ));
    // one below, with room for the mint: the supply lands exactly where the program puts it
    let p = SplTokenSwap::new(
        [10u128.pow(12), 10u128.pow(12)],
        max - 10u128.pow(11),
        fees(25, 5),
    );
    let (_, _, _, s1) = program_swap(state_of(&p), &p.fees(), 1, 1_000_000).unwrap();
    assert_eq!(state_of(&p.swap(1, 0, x).unwrap().1), s1);
    // an owner fee of one unit (the minimum): half = 1, the trade fee on it 1, amount 0
    let p = SplTokenSwap::new([10u128.pow(9), 10u128.pow(9)], 10u128.pow(9), fees(25, 5));
    let (_, after) = p.swap(0, 1, U256::from(10u8)).unwrap();
    assert_eq!(after.total_supply(), p.total_supply());
}

#[test]
fn spl_zap_in_with_an_owner_fee_verifies_and_mints_what_the_program_mints() {
    use swapzap::zap::{zap_in, zap_in_pool, ZapConfig, ZapOptions};
    let g = graph();
    let id = g
        .pools()
        .iter()
        .position(|p| p.id.starts_with("spl-token-swap:62YA83"))
        .unwrap();
    let pool = g.pools()[id].pool.clone();
    let Pool::SplTokenSwap(p) = &pool else {
        panic!()
    };
    assert!(p.fees().owner_trade_fee_numerator > 0);
    let f = p.fees();
    let mut swapped = 0;
    for amounts in [
        [50_000_000_000u128, 2_000_000_000],
        [1_000_000_000, 150_000_000],
        [3, 900_000_000_000],
        [777_777_777_777, 1],
        [2_000_000_000_000, 0],
    ] {
        let a = [U256::from(amounts[0]), U256::from(amounts[1])];
        let z = zap_in_pool(&pool, &a, &ZapConfig::default()).unwrap();
        // replay with the program: the swap (and its owner-fee mint), then the deposit
        let mut s = state_of(p);
        let mut held = amounts;
        if let Some(sw) = &z.swap {
            let (out, taken, minted, s1) =
                program_swap(s, &f, sw.from, sw.amount_in.as_u128()).unwrap();
            assert_eq!(U256::from(taken), sw.amount_in, "taken whole");
            assert_eq!(U256::from(out), sw.amount_out);
            assert!(minted > 0);
            held[sw.from] -= taken;
            held[sw.to] += out;
            s = s1;
            swapped += 1;
        }
        let dep = [z.deposit[0].as_u128(), z.deposit[1].as_u128()];
        let lp = if dep.iter().all(|d| *d > 0) {
            let (pt, coins) = program_deposit_all(s, held);
            assert_eq!(coins, dep, "the program takes ceil(P·r/T) of each coin");
            pt
        } else {
            let k = usize::from(dep[0] == 0);
            program_single_deposit(dep[k], s.bal[k], s.supply, &f).unwrap()
        };
        assert_eq!(z.minted, U256::from(lp), "{amounts:?}");
    }
    assert!(swapped >= 3, "{swapped}");
    // the plan-level zap: verified exactly, its swap then mint replayed with the program
    let lp = g.lp_token(swapzap::units::PoolId(id as u32)).unwrap();
    let (sol, usdc) = (g.token_id(SOL).unwrap(), g.token_id(USDC).unwrap());
    let inputs = [
        (sol, U256::from(10_000_000_000u64)),
        (usdc, U256::from(1_500_000_000u64)),
    ];
    let zp = zap_in(&g, &inputs, lp, &ZapOptions::default()).unwrap();
    zp.plan.verify(&g).unwrap();
    let mut s = state_of(p);
    let mut minted_lp = None;
    for step in &zp.plan.steps {
        match step {
            Step::Swap {
                pool: sp,
                token_in,
                amount_in,
                amount_out,
                ..
            } if sp.index() == id => {
                let i = g.coin_index(*sp, *token_in).unwrap();
                let (out, taken, m, s1) = program_swap(s, &f, i, amount_in.as_u128()).unwrap();
                assert_eq!(
                    (U256::from(taken), U256::from(out)),
                    (*amount_in, *amount_out)
                );
                assert!(m > 0);
                s = s1;
            }
            Step::Mint {
                pool: sp,
                amounts_in,
                lp_out,
            } if sp.index() == id => {
                let dep = [amounts_in[0].as_u128(), amounts_in[1].as_u128()];
                let (pt, coins) = program_deposit_all(s, dep);
                assert_eq!(coins, dep);
                assert_eq!(*lp_out, U256::from(pt));
                minted_lp = Some(pt);
            }
            other => panic!("only the pool's swap and mint: {other:?}"),
        }
    }
    assert!(minted_lp.is_some());
}

const SOL: &str = "So11111111111111111111111111111111111111112";
const USDC: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
