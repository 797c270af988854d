//! Unit tests of [`super`]: small cases and sweeps against `primitive_types`.

use super::*;

#[test]
fn div_256_by_128_small_cases() {
    // (2^128 + 5) / 3
    let (q, r) = div_256_by_128(1, 5, 3);
    // 2^128 = 3 * 113427455640312821154458202477256070485 + 1
    assert_eq!(q, 113_427_455_640_312_821_154_458_202_477_256_070_487);
    assert_eq!(r, 0);
    let (q, r) = div_256_by_128(u128::MAX - 1, u128::MAX, u128::MAX);
    assert_eq!(q, u128::MAX);
    assert_eq!(r, u128::MAX - 1);
}

#[test]
fn div_e18_small() {
    let e18 = 1_000_000_000_000_000_000u128;
    let (q, r) = W::small(5 * e18 + 7).div_rem_e18();
    assert_eq!((q, r), (W::small(5), 7));
    let n = W {
        hi: u128::MAX,
        lo: u128::MAX,
    };
    let (q, r) = n.div_rem_e18();
    // q * 1e18 + r == n
    let back = q
        .checked_mul(W::small(e18))
        .unwrap()
        .checked_add(W::small(u128::from(r)));
    assert_eq!(back, Some(n));
    assert!(u128::from(r) < e18);
}

#[test]
fn div_w_large_divisor() {
    let n = W {
        hi: u128::MAX,
        lo: 12345,
    };
    let d = W {
        hi: 3,
        lo: u128::MAX,
    };
    let (q, r) = n.checked_div_rem(d).unwrap();
    assert!(r < d);
    assert_eq!(d.checked_mul(q).unwrap().checked_add(r), Some(n));
}

/// A fixed xorshift sequence of 64-bit words with varied bit lengths.
fn words(n: usize) -> Vec<u128> {
    let mut s = 0x243f_6a88_85a3_08d3u64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    (0..n)
        .map(|_| {
            let x = (u128::from(next()) << 64) | u128::from(next());
            x >> (next() % 128)
        })
        .collect()
}

#[test]
fn div_256_by_128_matches_primitive_types() {
    let ws = words(30_000);
    for c in ws.chunks(3) {
        let (mut u1, u0, v) = (c[0], c[1], c[2].max(1));
        if u1 >= v {
            u1 %= v;
        }
        let (q, r) = div_256_by_128(u1, u0, v);
        let n = from_parts(u1, u0);
        let (wq, wr) = n.div_mod(from_u128(v));
        assert_eq!((from_u128(q), from_u128(r)), (wq, wr), "{u1} {u0} {v}");
    }
    // Edge: divisor just above 2^64, dividend top just below it.
    let v = (1u128 << 64) + 1;
    let (q, r) = div_256_by_128(v - 1, u128::MAX, v);
    let (wq, wr) = from_parts(v - 1, u128::MAX).div_mod(from_u128(v));
    assert_eq!((from_u128(q), from_u128(r)), (wq, wr));
}

#[test]
fn w_div_matches_primitive_types() {
    let ws = words(40_000);
    for c in ws.chunks(4) {
        let n = W { hi: c[0], lo: c[1] };
        let d = W {
            hi: c[2] >> 64,
            lo: c[3],
        };
        if d.is_zero() {
            continue;
        }
        let (q, r) = n.checked_div_rem(d).unwrap();
        let (wq, wr) = n.to_u256().div_mod(d.to_u256());
        assert_eq!((q.to_u256(), r.to_u256()), (wq, wr));
        let (q, r) = n.div_rem_e18();
        let (wq, wr) = n.to_u256().div_mod(U256::exp10(18));
        assert_eq!((q.to_u256(), U256::from(r)), (wq, wr));
    }
}

#[test]
fn div64_and_two_limb_division_match_primitive_types() {
    let ws = words(40_000);
    for c in ws.chunks(4) {
        let n = W { hi: c[0], lo: c[1] };
        // Two-limb dividends (their own path) as well as full ones.
        let n64 = match c[3] % 3 {
            0 => W::small(n.lo),
            1 => W::small(n.lo >> (c[2] % 128)),
            _ => n,
        };
        for dv in [
            c[2] as u64,
            1,
            3,
            1_000_000,
            997_000,
            u64::MAX,
            (c[3] >> 64) as u64,
        ] {
            if dv == 0 {
                continue;
            }
            let (q, r) = Div64::new(dv).div_rem(n64);
            let (wq, wr) = n64.to_u256().div_mod(U256::from(dv));
            assert_eq!((q.to_u256(), U256::from(r)), (wq, wr), "{n64:?} / {dv}");
        }
        // Divisors from 2^64 up, dividends with a high half at or above them.
        let d = c[2] | (1u128 << 64);
        for n in [
            n,
            W {
                hi: n.hi.max(d),
                lo: n.lo,
            },
            W { hi: d, lo: 0 },
        ] {
            let (q, r) = n.checked_div_rem(W::small(d)).unwrap();
            let (wq, wr) = n.to_u256().div_mod(from_u128(d));
            assert_eq!((q.to_u256(), r.to_u256()), (wq, wr), "{n:?} / {d}");
        }
    }
}

#[test]
fn mul_128_max() {
    let (hi, lo) = mul_128(u128::MAX, u128::MAX);
    assert_eq!(hi, u128::MAX - 1);
    assert_eq!(lo, 1);
}

/// A prepared divisor of any size divides like the plain 256-by-128 division: divisors below
/// 2^64 (normalised by every shift), at 2^64 and above, and dividends at the quotient's limit.
#[test]
fn prepared_div128_matches_the_plain_division() {
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for k in 0..200_000u32 {
        let bits = 1 + (next() % 128) as u32;
        let d =
            ((u128::from(next()) << 64 | u128::from(next())) >> (128 - bits)) | (1 << (bits - 1));
        let hi = match k % 3 {
            0 => (u128::from(next()) << 64 | u128::from(next())) % d,
            1 => d - 1,
            _ => u128::from(next()) % d,
        };
        let n = W {
            hi,
            lo: u128::from(next()) << 64 | u128::from(next()),
        };
        let p = Div128::prepared(d);
        assert_eq!(p.divisor(), d);
        assert_eq!(
            p.div(n),
            Some(div_256_by_128(n.hi, n.lo, d).0),
            "{n:?} / {d}"
        );
        assert_eq!(p.div(W { hi: d, lo: 0 }), None);
    }
    assert_eq!(Div128::prepared(0).div(W::ONE), None);
}

/// `<`, `<=`, `>`, `>=`, `cmp` and `max` of `W` (by the borrow of a subtraction) equal the
/// order of the same values as `U256`, on random values and pairs that differ only in one half
/// or by one.
#[test]
fn comparisons_equal_u256_order() {
    let mut s = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let edges = [
        0u128,
        1,
        u128::from(u64::MAX),
        1 << 64,
        u128::MAX - 1,
        u128::MAX,
    ];
    let mut vals = Vec::new();
    for &h in &edges {
        for &l in &edges {
            vals.push(W { hi: h, lo: l });
        }
    }
    for _ in 0..200 {
        let x = W {
            hi: (u128::from(next()) << 64) | u128::from(next()),
            lo: (u128::from(next()) << 64) | u128::from(next()),
        };
        vals.push(x);
        vals.push(W {
            hi: x.hi,
            lo: x.lo.wrapping_add(1),
        });
        vals.push(W {
            hi: x.hi.wrapping_sub(1),
            lo: x.lo,
        });
    }
    for a in &vals {
        for b in &vals {
            let (ua, ub) = (a.to_u256(), b.to_u256());
            assert_eq!(a < b, ua < ub);
            assert_eq!(a <= b, ua <= ub);
            assert_eq!(a > b, ua > ub);
            assert_eq!(a >= b, ua >= ub);
            assert_eq!(a.cmp(b), ua.cmp(&ub));
            assert_eq!(a.partial_cmp(b), ua.partial_cmp(&ub));
            assert_eq!((*a).max(*b).to_u256(), ua.max(ub));
        }
    }
}

/// The division by a wide divisor where its estimate is farthest off: divisors whose bits
/// below the top 128 (normalised) are all ones, so the truncated divisor is smallest against
/// the real one, with quotients up to 2^128 − 1 and remainders 0, 1 and `d − 1`, at every
/// normalising shift; equal to the `U512` quotient and remainder, and `None` below 2^128.
#[test]
fn division_by_a_wide_divisor_at_its_worst_estimates() {
    use primitive_types::U512;
    let mut seed = 0xD1B5_4A32_D192_ED03u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut checked = 0u32;
    for shift in 0..128u32 {
        for k in 0..64u32 {
            // d = top·2^shift + (2^shift − 1) with the top bit of d at 255 − (k % 2)·shift/2.
            let top = U256::from((u128::from(next()) << 64 | u128::from(next())) | (1 << 127))
                >> ((k % 2) as usize * (shift as usize / 2));
            let low = (U256::one() << shift as usize) - 1;
            let d = ((top << shift as usize) | low).max(U256::one() << 128);
            let q = match k % 4 {
                0 => U256::from(u128::MAX),
                1 => U256::from(u128::from(next())),
                2 => U256::from(u128::from(next()) << 64 | u128::from(next())),
                _ => U256::from(k),
            };
            let r = match k % 3 {
                0 => U256::zero(),
                1 => U256::one(),
                _ => d - 1,
            };
            let Some(n) = q.checked_mul(d).and_then(|x| x.checked_add(r)) else {
                continue;
            };
            let got = div_rem_by_wide(W::from_u256(n), W::from_u256(d))
                .map(|(q, r)| (U256::from(q), r.to_u256()));
            let want = (
                U256::try_from(U512::from(n) / U512::from(d)).unwrap(),
                U256::try_from(U512::from(n) % U512::from(d)).unwrap(),
            );
            assert_eq!(got, Some(want), "{n} / {d}");
            checked += 1;
        }
    }
    assert!(checked > 4000, "{checked}");
    let below = W {
        hi: 0,
        lo: u128::MAX,
    };
    assert_eq!(div_rem_by_wide(W::ONE, below), None);
}

/// `div_shifted` (the dividend `x·2^128`) equals the plain division, for divisors of every
/// length prepared both ways (`new` leaves those below 2^64 unprepared, `prepared` does not),
/// `x` at 0, 1, `d − 1` and random below `d`, and is `None` from `x = d` on.
#[test]
fn div_shifted_matches_the_plain_division() {
    let mut seed = 0x3C6E_F372_FE94_F82Bu64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for k in 0..100_000u32 {
        let bits = 1 + (next() % 128) as u32;
        let d =
            ((u128::from(next()) << 64 | u128::from(next())) >> (128 - bits)) | (1 << (bits - 1));
        let x = match k % 4 {
            0 => 0,
            1 => d - 1,
            2 => 1 % d,
            _ => (u128::from(next()) << 64 | u128::from(next())) % d,
        };
        for p in [Div128::prepared(d), Div128::new(d)] {
            assert_eq!(
                p.div_shifted(x),
                Some(div_256_by_128(x, 0, d).0),
                "{x} / {d}"
            );
            assert_eq!(p.div_shifted(d), None);
            assert_eq!(p.div_shifted(u128::MAX), None);
        }
    }
    assert_eq!(Div128::prepared(0).div_shifted(0), None);
}
