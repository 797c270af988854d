//! Differential fuzzing of the math layer against an exact big-integer oracle (num-bigint):
//! `mul_div`, `mul_div_up`, `mul_then_div`, `div_rem`, `div_up`, `sqrt` and the `W` fast paths,
//! including the native 512-by-256 division (`wide::div_512_by_256`, on `a·2^256 + b` and on
//! dividends whose high half is just below the divisor) and `w_mul_div_rem` against its plain
//! `U512` version.
#![no_main]
use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use num_traits::{One, Zero};
use swapzap::math::{self, wide, W};
use swapzap::U256;

/// Three 256-bit operands; `shifts` spread their bit lengths so every fast path is reached.
#[derive(Debug, Arbitrary)]
struct Input {
    a: [u64; 4],
    b: [u64; 4],
    d: [u64; 4],
    shifts: [u8; 3],
}

fn big(x: U256) -> BigUint {
    BigUint::from_bytes_le(&x.to_little_endian())
}

fn fits(x: &BigUint) -> Option<U256> {
    if x.bits() > 256 {
        return None;
    }
    let bytes = x.to_bytes_le();
    Some(U256::from_little_endian(&bytes))
}

fuzz_target!(|inp: Input| {
    let a = U256(inp.a) >> usize::from(inp.shifts[0]);
    let b = U256(inp.b) >> usize::from(inp.shifts[1]);
    let d = U256(inp.d) >> usize::from(inp.shifts[2]);
    let (ba, bb, bd) = (big(a), big(b), big(d));
    let p = &ba * &bb;

    if bd.is_zero() {
        assert!(math::mul_div(a, b, d).is_err());
        assert!(math::mul_div_up(a, b, d).is_err());
        assert!(math::div_rem(a, d).is_err());
        assert!(math::div_up(a, d).is_err());
    } else {
        let q = &p / &bd;
        let r = &p % &bd;
        assert_eq!(math::mul_div(a, b, d).ok(), fits(&q), "mul_div {a} {b} {d}");
        let q_up = if r.is_zero() {
            q.clone()
        } else {
            &q + BigUint::one()
        };
        assert_eq!(
            math::mul_div_up(a, b, d).ok(),
            fits(&q_up),
            "mul_div_up {a} {b} {d}"
        );
        let then = fits(&p).map(|_| q.clone()).and_then(|q| fits(&q));
        assert_eq!(
            math::mul_then_div(a, b, d).ok(),
            then,
            "mul_then_div {a} {b} {d}"
        );
        let (dq, dr) = math::div_rem(a, d).expect("nonzero divisor");
        assert_eq!(
            (big(dq), big(dr)),
            (&ba / &bd, &ba % &bd),
            "div_rem {a} {d}"
        );
        let up = (&ba + &bd - BigUint::one()) / &bd;
        assert_eq!(big(math::div_up(a, d).expect("nonzero divisor")), up);
        // `w_mul_div_rem` (native 512-bit product and division) and its plain U512 version.
        let (wa, wb, wd) = (W::from_u256(a), W::from_u256(b), W::from_u256(d));
        let native = math::w_mul_div_rem(wa, wb, wd)
            .ok()
            .map(|(q, r)| (q.to_u256(), r.to_u256()));
        let want = fits(&q).map(|q| (q, fits(&r).expect("r < d")));
        assert_eq!(native, want, "w_mul_div_rem {a} {b} {d}");
        let plain = math::w_mul_div_rem_plain(wa, wb, wd)
            .ok()
            .map(|(q, r)| (q.to_u256(), r.to_u256()));
        assert_eq!(plain, want, "w_mul_div_rem_plain {a} {b} {d}");
        // The 512-by-256 division itself: a·2^256 + b, and (d − k)·2^256 + b (the largest
        // quotients, where the digit estimates are most often too large).
        let shift = BigUint::one() << 256u32;
        for nh in [a, d.saturating_sub(U256::from(inp.shifts[0] % 3))] {
            let n = big(nh) * &shift + &bb;
            let want = fits(&(&n / &bd)).map(|q| (q, fits(&(&n % &bd)).expect("r < d")));
            let got = wide::div_512_by_256(W::from_u256(nh), wb, wd)
                .map(|(q, r)| (q.to_u256(), r.to_u256()));
            assert_eq!(got, want, "div_512_by_256 {nh} {b} {d}");
        }
        // Division by a 64-bit divisor with a precomputed reciprocal.
        let small = d.low_u64().max(1);
        let (sq, sr) = wide::Div64::new(small).div_rem(W::from_u256(a));
        let bs = BigUint::from(small);
        assert_eq!(
            (big(sq.to_u256()), BigUint::from(sr)),
            (&ba / &bs, &ba % &bs),
            "Div64 {a} {small}"
        );
        // The W path, including the reciprocal division by 1e18.
        let w = W::from_u256(a)
            .checked_div_rem(W::from_u256(d))
            .expect("nonzero divisor");
        assert_eq!((w.0.to_u256(), w.1.to_u256()), (dq, dr));
    }
    let e18 = BigUint::from(10u64).pow(18);
    let via_e18 = math::w_mul_div_e18(W::from_u256(a), W::from_u256(b))
        .ok()
        .map(W::to_u256);
    assert_eq!(via_e18, fits(&p).map(|_| &p / &e18).and_then(|q| fits(&q)));

    let s = big(math::sqrt(a));
    assert!(&s * &s <= ba);
    let s1 = &s + BigUint::one();
    assert!(&s1 * &s1 > ba);
});
