//! The Whirlpool program's fixed-point math: tick <-> Q64.64 square-root price, the token
//! deltas of a price move, the next price after an amount, fees and slippage bounds.

use super::{
    BPS_DENOMINATOR, DIV0, EXCEEDS_U64, FEE_RATE_DENOMINATOR, MAX_SQRT_PRICE, MAX_TICK_INDEX,
    MIN_SQRT_PRICE, MIN_TICK_INDEX, OVERFLOW,
};
use crate::error::{PoolArgument, PoolError};
use crate::math::wide::{mul_128, W};

/// `floor(2^96 · 1.0001^(2^k / 2))` for k = 0..=18: the factor of bit k of a positive tick.
/// Computed for this crate with 200-digit decimal arithmetic (the same values the Whirlpool
/// program uses; the tick vectors check them).
const POS_Q96: [u128; 19] = [
    79_232_123_823_359_799_118_286_999_567,
    79_236_085_330_515_764_027_303_304_731,
    79_244_008_939_048_815_603_706_035_061,
    79_259_858_533_276_714_757_314_932_305,
    79_291_567_232_598_584_799_939_703_904,
    79_355_022_692_464_371_645_785_046_466,
    79_482_085_999_252_804_386_437_311_141,
    79_736_823_300_114_093_921_829_183_326,
    80_248_749_790_819_932_309_965_073_892,
    81_282_483_887_344_747_381_513_967_011,
    83_390_072_131_320_151_908_154_831_281,
    87_770_609_709_833_776_024_991_924_138,
    97_234_110_755_111_693_312_479_820_773,
    119_332_217_159_966_728_226_237_229_890,
    179_736_315_981_702_064_433_883_588_727,
    407_748_233_172_238_350_107_850_275_304,
    2_098_478_828_474_011_932_436_660_412_517,
    55_581_415_166_113_811_149_459_800_483_533,
    38_992_368_544_603_139_932_233_054_999_993_551,
];

/// `floor(2^64 / 1.0001^(2^k / 2))` for k = 0..=18: the factor of bit k of a negative tick.
const NEG_Q64: [u128; 19] = [
    18_445_821_805_675_392_311,
    18_444_899_583_751_176_498,
    18_443_055_278_223_354_162,
    18_439_367_220_385_604_838,
    18_431_993_317_065_449_817,
    18_417_254_355_718_160_513,
    18_387_811_781_193_591_352,
    18_329_067_761_203_520_168,
    18_212_142_134_806_087_854,
    17_980_523_815_641_551_639,
    17_526_086_738_831_147_013,
    16_651_378_430_235_024_244,
    15_030_750_278_693_429_944,
    12_247_334_978_882_834_399,
    8_131_365_268_884_726_200,
    3_584_323_654_723_342_297,
    696_457_651_847_595_233,
    26_294_789_957_452_057,
    37_481_735_321_082,
];

pub(super) const Q96: u128 = 1 << 96;
pub(super) const Q64: u128 = 1 << 64;

/// `tick_index_to_sqrt_price`: √(1.0001^tick) in Q64.64, rounded as the program rounds.
///
/// # Errors
/// [`PoolError::InvalidState`] for a tick outside ±443 636.
pub fn tick_index_to_sqrt_price(tick: i32) -> Result<u128, PoolError> {
    if !(MIN_TICK_INDEX..=MAX_TICK_INDEX).contains(&tick) {
        return Err(PoolError::InvalidState(
            crate::error::PoolStateProblem::TickIndexOutOfRange,
        ));
    }
    let abs = tick.unsigned_abs();
    if tick >= 0 {
        let mut r: u128 = if abs & 1 != 0 { POS_Q96[0] } else { Q96 };
        for (k, &f) in POS_Q96.iter().enumerate().skip(1) {
            if abs & (1 << k) != 0 {
                // r < 2^128 and f < 2^128; (r·f) >> 96 stays below 2^128 in range.
                let (hi, lo) = mul_128(r, f);
                r = (hi << 32) | (lo >> 96);
            }
        }
        Ok(r >> 32)
    } else {
        let mut r: u128 = if abs & 1 != 0 { NEG_Q64[0] } else { Q64 };
        for (k, &f) in NEG_Q64.iter().enumerate().skip(1) {
            if abs & (1 << k) != 0 {
                // r <= 2^64 and f < 2^64: the product fits u128.
                let (hi, lo) = mul_128(r, f);
                r = (hi << 64) | (lo >> 64);
            }
        }
        Ok(r)
    }
}

/// ln(x) for x > 0 in `core` (no `std`): exponent split, then 2·atanh series on [1, 2).
/// Only places a search.
pub(super) fn ln(x: f64) -> f64 {
    let bits = x.to_bits();
    let exp = (((bits >> 52) & 0x7ff) as i64).wrapping_sub(1023);
    let m = f64::from_bits((bits & ((1u64 << 52) - 1)) | (1023u64 << 52));
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut sum = 0.0;
    for k in 0..12 {
        sum += term / (f64::from(k) * 2.0 + 1.0);
        term *= z2;
    }
    exp as f64 * core::f64::consts::LN_2 + 2.0 * sum
}

/// `sqrt_price_to_tick_index`: the greatest tick whose price is at most `sqrt_price`.
///
/// # Errors
/// [`PoolError::SqrtPriceOutOfBounds`] outside `[MIN_SQRT_PRICE, MAX_SQRT_PRICE]`.
pub fn sqrt_price_to_tick_index(sqrt_price: u128) -> Result<i32, PoolError> {
    if !(MIN_SQRT_PRICE..=MAX_SQRT_PRICE).contains(&sqrt_price) {
        return Err(PoolError::SqrtPriceOutOfBounds);
    }
    // A float estimate (good to a small fraction of a tick), then exact comparisons: walk
    // down while the tick's price is above `p`, up while the next tick's is at most `p`.
    let est = ln(sqrt_price as f64 / Q64 as f64) * 2.0 / ln(1.0001);
    let mut t = (est as i32).clamp(MIN_TICK_INDEX, MAX_TICK_INDEX);
    while t > MIN_TICK_INDEX && tick_index_to_sqrt_price(t)? > sqrt_price {
        t = t.saturating_sub(1);
    }
    while t < MAX_TICK_INDEX && tick_index_to_sqrt_price(t.saturating_add(1))? <= sqrt_price {
        t = t.saturating_add(1);
    }
    Ok(t)
}

/// `(L·Δ << 64)` modulo 2^256, as `ethnum`'s `checked_shl(64)` leaves it.
pub(super) fn shl64_wrapping(hi: u128, lo: u128) -> W {
    W {
        hi: (hi << 64) | (lo >> 64),
        lo: lo << 64,
    }
}

pub(super) fn to_u64(x: W) -> Result<u64, PoolError> {
    if x.hi != 0 {
        return Err(EXCEEDS_U64);
    }
    u64::try_from(x.lo).map_err(|_| EXCEEDS_U64)
}

pub(super) fn div_rem(a: W, b: W) -> Result<(W, W), PoolError> {
    a.checked_div_rem(b).ok_or(DIV0)
}

pub(super) fn inc(x: W) -> Result<W, PoolError> {
    x.checked_add(W::ONE).ok_or(OVERFLOW)
}

/// The two prices in order and `L·(hi − lo)` as 256-bit halves.
pub(super) fn span_product(p1: u128, p2: u128, liquidity: u128) -> (u128, u128, (u128, u128)) {
    let (lo, hi) = if p1 < p2 { (p1, p2) } else { (p2, p1) };
    (lo, hi, mul_128(liquidity, hi.saturating_sub(lo)))
}

/// `try_get_amount_delta_a`: `L·(hi − lo) << 64 / (lo·hi)`, rounded up on request.
///
/// # Errors
/// A result at or above 2^64 ("Amount exceeds max u64"); a zero price.
pub fn amount_delta_a(
    p1: u128,
    p2: u128,
    liquidity: u128,
    round_up: bool,
) -> Result<u64, PoolError> {
    let (lo, hi, (nh, nl)) = span_product(p1, p2, liquidity);
    let num = shl64_wrapping(nh, nl);
    let (dh, dl) = mul_128(lo, hi);
    let (q, r) = div_rem(num, W { hi: dh, lo: dl })?;
    to_u64(if round_up && !r.is_zero() { inc(q)? } else { q })
}

/// `try_get_amount_delta_b`: `L·(hi − lo) >> 64`, rounded up on request.
///
/// # Errors
/// A result at or above 2^64.
pub fn amount_delta_b(
    p1: u128,
    p2: u128,
    liquidity: u128,
    round_up: bool,
) -> Result<u64, PoolError> {
    let (_, _, (ph, pl)) = span_product(p1, p2, liquidity);
    let q = W {
        hi: ph >> 64,
        lo: (ph << 64) | (pl >> 64),
    };
    let frac = pl & u128::from(u64::MAX);
    to_u64(if round_up && frac != 0 { inc(q)? } else { q })
}

pub(super) fn in_bounds(p: W) -> Result<u128, PoolError> {
    if p.hi == 0 && (MIN_SQRT_PRICE..=MAX_SQRT_PRICE).contains(&p.lo) {
        Ok(p.lo)
    } else {
        Err(PoolError::SqrtPriceOutOfBounds)
    }
}

/// `try_get_next_sqrt_price_from_a`: the price after `amount` of A in (or out), rounded up.
///
/// # Errors
/// [`PoolError::SqrtPriceOutOfBounds`] (also for an output at or above what the liquidity
/// holds); a zero denominator.
pub fn next_sqrt_price_from_a(
    sqrt_price: u128,
    liquidity: u128,
    amount: u64,
    specified_input: bool,
) -> Result<u128, PoolError> {
    if amount == 0 {
        return Ok(sqrt_price);
    }
    let (ph, pl) = mul_128(sqrt_price, u128::from(amount));
    let p = W { hi: ph, lo: pl };
    let (nh, nl) = mul_128(liquidity, sqrt_price);
    let num = shl64_wrapping(nh, nl);
    let l_shifted = W {
        hi: liquidity >> 64,
        lo: liquidity << 64,
    };
    let den = if specified_input {
        l_shifted.checked_add(p).ok_or(OVERFLOW)?
    } else {
        // Below zero the crate's release build wraps to a huge denominator and lands out of
        // bounds; that is the error here too.
        l_shifted
            .checked_sub(p)
            .ok_or(PoolError::SqrtPriceOutOfBounds)?
    };
    let (q, r) = div_rem(num, den)?;
    in_bounds(if r.is_zero() { q } else { inc(q)? })
}

/// `try_get_next_sqrt_price_from_b`: the price after `amount` of B in (or out); the
/// quotient rounds up for an output only.
///
/// # Errors
/// [`PoolError::SqrtPriceOutOfBounds`]; zero liquidity.
pub fn next_sqrt_price_from_b(
    sqrt_price: u128,
    liquidity: u128,
    amount: u64,
    specified_input: bool,
) -> Result<u128, PoolError> {
    if amount == 0 {
        return Ok(sqrt_price);
    }
    let shifted = W {
        hi: 0,
        lo: u128::from(amount) << 64,
    };
    let (q, r) = div_rem(shifted, W::small(liquidity))?;
    let delta = if !specified_input && !r.is_zero() {
        inc(q)?
    } else {
        q
    };
    let p = W::small(sqrt_price);
    let next = if specified_input {
        p.checked_add(delta)
            .ok_or(PoolError::SqrtPriceOutOfBounds)?
    } else {
        p.checked_sub(delta)
            .ok_or(PoolError::SqrtPriceOutOfBounds)?
    };
    in_bounds(next)
}

/// `amount · num / den` rounded as asked, 0 for a zero amount or numerator.
pub(super) fn mul_div_u64(
    amount: u64,
    num: u128,
    den: u128,
    round_up: bool,
) -> Result<u64, PoolError> {
    if amount == 0 || num == 0 {
        return Ok(0);
    }
    let n = u128::from(amount).checked_mul(num).ok_or(OVERFLOW)?;
    let q = n.checked_div(den).ok_or(DIV0)?;
    let r = n.checked_rem(den).ok_or(DIV0)?;
    let v = if round_up && r != 0 {
        q.checked_add(1).ok_or(OVERFLOW)?
    } else {
        q
    };
    u64::try_from(v).map_err(|_| EXCEEDS_U64)
}

pub(super) fn apply_swap_fee(amount: u64, fee_rate: u16) -> Result<u64, PoolError> {
    let keep = u128::from(FEE_RATE_DENOMINATOR.saturating_sub(u32::from(fee_rate)));
    mul_div_u64(amount, keep, u128::from(FEE_RATE_DENOMINATOR), false)
}

pub(super) fn reverse_apply_swap_fee(amount: u64, fee_rate: u16) -> Result<u64, PoolError> {
    let keep = u128::from(FEE_RATE_DENOMINATOR.saturating_sub(u32::from(fee_rate)));
    mul_div_u64(amount, u128::from(FEE_RATE_DENOMINATOR), keep, true)
}

/// `try_get_min_amount_with_slippage_tolerance`: `floor(amount · (10^4 − bps) / 10^4)`.
///
/// # Errors
/// `bps` above 10 000.
pub fn min_amount_with_slippage(amount: u64, bps: u16) -> Result<u64, PoolError> {
    let keep = BPS_DENOMINATOR
        .checked_sub(bps)
        .ok_or(PoolError::InvalidArgument(
            PoolArgument::SlippageToleranceBps { bps },
        ))?;
    mul_div_u64(amount, u128::from(keep), u128::from(BPS_DENOMINATOR), false)
}

/// `try_get_max_amount_with_slippage_tolerance`: `ceil(amount · (10^4 + bps) / 10^4)`.
///
/// # Errors
/// `bps` above 10 000; a result above `u64`.
pub fn max_amount_with_slippage(amount: u64, bps: u16) -> Result<u64, PoolError> {
    if bps > BPS_DENOMINATOR {
        return Err(PoolError::InvalidArgument(
            PoolArgument::SlippageToleranceBps { bps },
        ));
    }
    let up = u128::from(BPS_DENOMINATOR).saturating_add(u128::from(bps));
    mul_div_u64(amount, up, u128::from(BPS_DENOMINATOR), true)
}
