//! Every vector of ../shared/vectors, ../shared/vectors-cl and ../shared/vectors-101 must
//! reproduce exactly.
use crate::{shared, vectors};

fn run_file(name: &str) {
    run_in("vectors", name);
}

fn run_in(folder: &str, name: &str) {
    let path = shared().join(folder).join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut failed = Vec::new();
    let mut n = 0usize;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        n += 1;
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Err(e) = vectors::check(&v) {
            failed.push(e);
        }
    }
    assert!(n > 0, "{name}: no vectors");
    assert!(
        failed.is_empty(),
        "{name}: {} of {n} failed; first: {:?}",
        failed.len(),
        &failed[..failed.len().min(5)]
    );
}

#[test]
fn uniswap_v2_vectors() {
    run_file("uniswap_v2.jsonl");
}

#[test]
fn solidly_vectors() {
    run_file("solidly.jsonl");
}

#[test]
fn curve_stableswap_vectors() {
    run_file("curve_stableswap.jsonl");
}

#[test]
fn curve_stableswap_ng_vectors() {
    run_file("curve_stableswap_ng.jsonl");
}

#[test]
fn uniswap_v3_vectors() {
    run_in("vectors-cl", "uniswap_v3.jsonl");
}

#[test]
fn saber_stableswap_vectors() {
    run_in("vectors-101", "saber_stableswap.jsonl");
}

#[test]
fn spl_token_swap_vectors() {
    run_in("vectors-101", "spl_token_swap.jsonl");
}

#[test]
fn orca_whirlpool_vectors() {
    run_in("vectors-101", "orca_whirlpool.jsonl");
}
