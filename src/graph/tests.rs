//! The float models a graph hands the search ([`PoolGraph::float_model`], crate-private), on
//! the snapshots a test can read: the public routing instances of `../shared/routing` and the
//! bundled snapshots of `data/` (every pool family between them).

use super::PoolGraph;
use crate::snapshot::Snapshot;
use crate::units::PoolId;
use std::path::{Path, PathBuf};

/// The graphs of the bundled snapshots and of every `../shared/routing/instances/*.json`.
fn graphs() -> Vec<(String, PoolGraph)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = vec![
        root.join("data/snapshot.json"),
        root.join("data/snapshot-101.json"),
    ];
    let dir = root.join("../shared/routing/instances");
    let mut instances: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    instances.sort();
    files.extend(instances);
    files
        .into_iter()
        .map(|p| {
            let text =
                std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let raw: serde_json::Value = serde_json::from_str(&text).expect("JSON");
            // an instance holds its snapshot under "snapshot"; a bundled file is one
            let snap = raw.get("snapshot").cloned().unwrap_or(raw);
            let snap: Snapshot = serde_json::from_value(snap).expect("snapshot");
            let g = PoolGraph::from_snapshot(&snap).expect("graph");
            (p.display().to_string(), g)
        })
        .collect()
}

/// Every edge model's output is at most its zero-size rate times the input (concave with that
/// slope at 0) up to float noise far below the 1e-9 margin the single-path search relies on when
/// it skips models that cannot beat the best output so far; inputs from 1e-30 to 1e12 of the
/// input side's depth. Concentrated-liquidity edges included: their segment outputs are
/// `net / (ua · u)`, not `l · (1/ua − 1/u)`, whose cancellation gave up to 3.2× `a · rate0` on
/// the bundled Uniswap V3 pool for inputs below one base unit.
#[test]
fn zero_size_rate_bounds_every_output() {
    let graphs = graphs();
    assert!(graphs.len() >= 32, "{} snapshots", graphs.len());
    let (mut worst, mut edges) = (0.0f64, 0usize);
    for (name, g) in &graphs {
        for (p, info) in g.pools().iter().enumerate() {
            let id = PoolId(u32::try_from(p).expect("pool id"));
            let fm = g
                .float_model(id)
                .unwrap_or_else(|| panic!("{name}: pool {p}"));
            let c = info.tokens.len();
            for (i, j) in (0..c).flat_map(|i| (0..c).map(move |j| (i, j))) {
                let Some(m) = fm.edge(i, j) else { continue };
                let r = m.rate0();
                if !(r > 0.0 && r.is_finite()) {
                    continue;
                }
                edges += 1;
                for e in -300..=120 {
                    let a = m.depth_in() * 10f64.powf(f64::from(e) / 10.0);
                    if a > 0.0 && a.is_finite() {
                        worst = worst.max(m.out(a) / (a * r) - 1.0);
                    }
                }
            }
        }
    }
    assert!(edges > 1000, "{edges} edges");
    assert!(worst < 1e-12, "out(a) exceeds a·rate0 by {worst:e}");
}
