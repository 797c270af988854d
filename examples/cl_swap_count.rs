//! A small driver for instruction counts of CL swaps (`valgrind --tool=cachegrind`), which do
//! not depend on the machine's load: `cl_swap_count <within_tick|cross_1|cross_10> <reps>`
//! runs the bench's 64 swaps of that case `reps` times (`benches/pool_cl.rs`, same pool and
//! inputs). The instructions of one swap are the difference between two counts (say `reps`
//! 2000 and 0) divided by the difference in swaps (64 · 2000): setup cancels out.
//!
//! `--amount-out` counts the family verb that returns only the output instead of `swap`;
//! `--from-swapped` starts from the pool after a small swap the other way instead of the pool as
//! built (its tick table then holds no first step for the state swapped from); `--token1-in`
//! swaps token1 in (the price goes up) instead of token0.
#![allow(
    clippy::unwrap_used,
    clippy::arithmetic_side_effects,
    clippy::print_stderr,
    clippy::print_stdout
)]
use std::hint::black_box;

#[path = "../benches/common/cl_pool.rs"]
mod cl_pool;

const USAGE: &str =
    "usage: cl_swap_count <within_tick|cross_1|cross_10> <reps> [--amount-out] [--from-swapped] [--token1-in]";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return;
    }
    let crossed = match args.first().map(String::as_str) {
        Some("within_tick") => 0,
        Some("cross_1") => 1,
        Some("cross_10") => 10,
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(1);
        }
    };
    let Some(reps) = args.get(1).and_then(|s| s.parse::<usize>().ok()) else {
        eprintln!("<reps> must be a whole number\n{USAGE}");
        std::process::exit(1);
    };
    let amount_out = args.iter().any(|a| a == "--amount-out");
    let zero_for_one = !args.iter().any(|a| a == "--token1-in");
    let (i, j) = if zero_for_one { (0, 1) } else { (1, 0) };
    let mut pool = cl_pool::pool();
    if args.iter().any(|a| a == "--from-swapped") {
        pool = pool
            .swap(j, i, swapzap::U256::from(1_000_000u32))
            .unwrap()
            .1;
    }
    let xs = cl_pool::inputs_dir(&pool, crossed, zero_for_one);
    for _ in 0..reps {
        for &x in &xs {
            if amount_out {
                black_box(black_box(&pool).amount_out(i, j, x).unwrap());
            } else {
                black_box(black_box(&pool).swap(i, j, x).unwrap());
            }
        }
    }
}
