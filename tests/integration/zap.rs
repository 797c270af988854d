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

/// Every one of the 1500 zap vectors meets the rules of ../shared/zap/README.md: exact best
/// mint and at least the keep_most leftover value (v2/solidly), within 1e-6 of the best found
/// (curve), and never over-reported (each plan is re-run through the pool types).
#[test]
fn zap_vectors_all_meet_the_readme_rules() {
    assert_all("zap_in.jsonl", &|_| true, 1500);
}
