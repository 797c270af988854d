//! Zap tests: every vector of ../shared/zap meets the rules of its README, and plan-level zaps
//! (zap-out, LP-to-LP, multi-token zap-in) verify end to end.

#[path = "../../examples/common/zapvec.rs"]
mod zapvec;

use crate::shared;

fn records() -> Vec<serde_json::Value> {
    let path = shared().join("zap").join("zap_in.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn run_family(pred: &dyn Fn(&serde_json::Value) -> bool) -> (zapvec::Tally, usize) {
    let recs: Vec<_> = records().into_iter().filter(|v| pred(v)).collect();
    let mut tally = zapvec::Tally::default();
    for v in &recs {
        assert!(zapvec::is_zap_vector(v));
        let o = zapvec::run(v);
        tally.add(v, &zapvec::check(v, &o));
    }
    (tally, recs.len())
}

fn assert_all(name: &str, pred: &dyn Fn(&serde_json::Value) -> bool, want: usize) {
    let (t, n) = run_family(pred);
    let (p, f) = t.totals();
    assert_eq!(n, want, "{name}: vector count");
    assert!(
        f == 0 && p == want,
        "{name}: {p} passed, {f} failed\n{}first failures:\n{}",
        t.summary(),
        t.failures.join("\n")
    );
}

#[test]
fn zap_vectors_uniswap_v2() {
    assert_all("uniswap_v2", &|v| v["family"] == "uniswap_v2", 400);
}

#[test]
fn zap_vectors_solidly() {
    assert_all("solidly", &|v| v["family"] == "solidly", 600);
}

#[test]
fn zap_vectors_curve() {
    assert_all(
        "curve",
        &|v| v["family"].as_str().is_some_and(|f| f.starts_with("curve")),
        500,
    );
}
