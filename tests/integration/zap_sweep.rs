//! Regression tests of a property sweep of the single-pool zap (random and extreme states,
//! every plan of a brute force re-simulated through the public pool math): each test below
//! failed on the code before its fix. Expected mints come from the pools' own operations
//! (swap, deposit, mint), never from the zap under test.

use swapzap::error::ZapError;
use swapzap::pool::spl_token_swap::{SplFees, SplTokenSwap};
use swapzap::pool::{ConstantProduct, Pool};
use swapzap::zap::{mint_upper_bound, zap_in_pool, ZapConfig};
use swapzap::U256;

fn spl(x: [u128; 2], supply: u128, trade: u64, owner: u64) -> Pool {
    Pool::SplTokenSwap(SplTokenSwap::new(
        x,
        supply,
        SplFees {
            trade_fee_numerator: trade,
            trade_fee_denominator: 10_000,
            owner_trade_fee_numerator: owner,
            owner_trade_fee_denominator: 10_000,
            owner_withdraw_fee_numerator: 0,
            owner_withdraw_fee_denominator: 10_000,
            host_fee_numerator: 0,
            host_fee_denominator: 10_000,
        },
    ))
}

/// What swapping `s` of coin 0 and then `DepositAllTokenTypes` of everything held mints on an
/// SPL pool, from the program's own operations.
fn spl_swap_then_deposit_all(pool: &Pool, a0: U256, s: U256) -> U256 {
    let (taken, out, after) = pool.swap_taken(0, 1, s).unwrap();
    let Pool::SplTokenSwap(p) = &after else {
        unreachable!()
    };
    let (_, t) = p
        .deposit_all_token_types([(a0 - taken).as_u128(), out.as_u128()])
        .unwrap();
    after.mint(&[U256::from(t[0]), U256::from(t[1])]).unwrap().0
}

/// One coin into a deep SPL pool (0.25 % trade fee, 0.05 % owner fee): the single-sided
/// deposit mints 30 pool tokens (its 10^-12 fixed point costs about 10^-12·T, T = 1.5e13),
/// swapping 318 first and depositing both coins mints 38. The zap took the single-sided
/// deposit alone (30).
#[test]
fn spl_one_coin_zap_in_swaps_where_the_single_sided_deposit_rounds_away() {
    let pool = spl(
        [126_155_176_002_233, 134_287_904_440_263],
        15_214_962_717_612,
        25,
        5,
    );
    let a = [U256::from(635u32), U256::zero()];
    let single = pool.mint(&a).unwrap().0;
    assert_eq!(single, U256::from(30u32));
    let swapped = spl_swap_then_deposit_all(&pool, a[0], U256::from(318u32));
    assert_eq!(swapped, U256::from(38u32));
    let z = zap_in_pool(&pool, &a, &ZapConfig::exact()).unwrap();
    assert!(z.minted >= swapped, "zap mints {}", z.minted);
    // the plan re-simulates: the swap, then the deposit of what it keeps
    let sw = z.swap.unwrap();
    let (taken, out, after) = pool.swap_taken(0, 1, sw.amount_in).unwrap();
    assert_eq!((taken, out), (sw.amount_in, sw.amount_out));
    assert_eq!(after.mint(&z.deposit).unwrap().0, z.minted);
    assert_eq!(z.deposit[0] + z.leftover[0] + taken, a[0]);
    assert_eq!(z.deposit[1] + z.leftover[1], out);
}

/// One coin whose single-sided deposit mints nothing: a swap first mints one pool token; the
/// zap answered `Pool(InsufficientLiquidityMinted)`. Where nothing mints at all, the error is
/// the documented `NothingToMint`.
#[test]
fn spl_one_coin_dust_mints_by_a_swap_or_is_nothing_to_mint() {
    let pool = spl(
        [17_416_961_576_835, 121_241_766_221_856],
        915_864_525_951,
        100,
        10,
    );
    let a = [U256::from(62u32), U256::zero()];
    assert!(pool.mint(&a).is_err());
    assert_eq!(
        spl_swap_then_deposit_all(&pool, a[0], U256::from(22u32)),
        U256::one()
    );
    let z = zap_in_pool(&pool, &a, &ZapConfig::exact()).unwrap();
    assert_eq!(z.minted, U256::one());
    let one = zap_in_pool(&pool, &[U256::one(), U256::zero()], &ZapConfig::exact());
    assert_eq!(one, Err(ZapError::NothingToMint));
}

/// Uniswap V2 with the protocol fee on, reserves 3 and 5, supply 542 748, `kLast` 15 (`⌊√15⌋` =
/// 3: no fee is due now). Selling 5 of coin 0 pays `⌊5·997·5/(3·1000 + 5·997)⌋` = 3 of coin 1,
/// leaving reserves 8 and 2: `⌊√16⌋` = 4 > 3, so `_mintFee` mints `⌊542 748·1/(4·5 + 3)⌋` =
/// 23 597 first, `T` = 566 345. Holding 417 and 103, the mint is
/// `min(⌊417·566 345/8⌋, ⌊103·566 345/2⌋)` = `min(29 520 733, 29 166 767)`. The bound, by exact
/// roots, was 29 060 714.
#[test]
fn v2_fee_on_bound_holds_where_the_floored_root_jumps() {
    let pool = Pool::ConstantProduct(
        ConstantProduct::new(
            [U256::from(3u8), U256::from(5u8)],
            3,
            1000,
            U256::from(542_748u32),
        )
        .unwrap()
        .with_protocol_fee(U256::from(15u8), true),
    );
    let a = [U256::from(422u32), U256::from(100u32)];
    // the plan, through the pair's own swap and mint
    let (out, after) = pool.swap(0, 1, U256::from(5u8)).unwrap();
    assert_eq!(out, U256::from(3u8));
    let minted = after
        .mint(&[U256::from(417u32), U256::from(103u32)])
        .unwrap()
        .0;
    assert_eq!(minted, U256::from(29_166_767u32));
    let b = mint_upper_bound(&pool, &a).unwrap();
    assert!(b >= 29_166_767.0, "bound {b} below a plan's mint");
    let z = zap_in_pool(&pool, &a, &ZapConfig::exact()).unwrap();
    assert!(
        b >= z.minted.as_u128() as f64,
        "bound {b} below the zap's {}",
        z.minted
    );
}
