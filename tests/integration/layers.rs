//! The crate's layers point only down (docs/architecture.md): every `crate::<module>` path in
//! `src/` (outside comments and `#[cfg(test)]` code) names a module of the same layer or a
//! lower one, and the top-level modules import each other without a cycle.
//!
//! Reads the sources at test time; a new top-level module must be given its layer in
//! [`LAYERS`] (the test names it otherwise).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The layers, lowest first, and the top-level modules of each.
const LAYERS: &[(&str, &[&str])] = &[
    ("numbers", &["math"]),
    ("units and chain facts", &["units", "chain"]),
    ("errors", &["error"]),
    ("pools", &["pool", "model"]),
    ("graph", &["snapshot", "graph"]),
    ("plan", &["plan"]),
    ("search and zaps", &["route", "zap"]),
    ("service", &["service"]),
];

/// The layer of a top-level module, if it has one.
fn layer_of(module: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&module))
}

/// Every `.rs` file below `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The top-level module a file of `src/` belongs to (`None` for `lib.rs`).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let rel = file.strip_prefix(src).unwrap();
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    match first.strip_suffix(".rs") {
        Some("lib") => None,
        Some(m) => Some(m.to_string()),
        None => Some(first),
    }
}

/// The code of a file: comment lines dropped, and nothing from the first `#[cfg(test)]` on
/// (unit tests may use any layer).
fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        code.push_str(line);
        code.push('\n');
    }
    code
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The top-level modules a piece of code names as `crate::m` or in `crate::{m, n::..}`,
/// with the line of each use.
fn crate_uses(code: &str) -> Vec<(String, usize)> {
    let mut uses = Vec::new();
    let bytes: Vec<char> = code.chars().collect();
    let line_at = |i: usize| bytes[..i].iter().filter(|&&c| c == '\n').count() + 1;
    let mut i = 0;
    let pat: Vec<char> = "crate::".chars().collect();
    while i + pat.len() <= bytes.len() {
        let starts = bytes[i..i + pat.len()] == pat[..] && (i == 0 || !is_ident(bytes[i - 1]));
        if !starts {
            i += 1;
            continue;
        }
        let mut j = i + pat.len();
        if bytes.get(j) == Some(&'{') {
            // a group: the first segment of each item at depth 1
            let mut depth = 1;
            let mut want = true;
            j += 1;
            while j < bytes.len() && depth > 0 {
                let c = bytes[j];
                match c {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 1 => want = true,
                    c if want && is_ident(c) && depth == 1 => {
                        let s = j;
                        while j < bytes.len() && is_ident(bytes[j]) {
                            j += 1;
                        }
                        uses.push((bytes[s..j].iter().collect(), line_at(s)));
                        want = false;
                        continue;
                    }
                    _ => {}
                }
                j += 1;
            }
        } else {
            let s = j;
            while j < bytes.len() && is_ident(bytes[j]) {
                j += 1;
            }
            uses.push((bytes[s..j].iter().collect(), line_at(s)));
        }
        i = j.max(i + 1);
    }
    uses
}

/// The names `lib.rs` re-exports from a module of the crate (`pub use error::{Error, ..}`), with
/// that module: `crate::Error` is a use of `error`.
fn root_reexports(lib: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let code = code_of(lib);
    for stmt in code.split(';') {
        let Some(rest) = stmt.trim().strip_prefix("pub use ") else {
            continue;
        };
        let module: String = rest.chars().take_while(|&c| is_ident(c)).collect();
        for (name, _) in crate_uses(&format!(
            "crate::{}",
            &rest[module.len()..].trim_start_matches("::")
        )) {
            out.insert(name, module.clone());
        }
        if let Some(last) = rest.rsplit("::").next().filter(|l| l.chars().all(is_ident)) {
            out.insert(last.to_string(), module.clone());
        }
    }
    out
}

/// Every use of another top-level module: (file, line, from module, to module).
fn module_uses() -> Vec<(String, usize, String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let roots = root_reexports(&std::fs::read_to_string(src.join("lib.rs")).unwrap());
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    assert!(files.len() > 20, "{} source files", files.len());
    let mut out = Vec::new();
    for f in &files {
        let Some(from) = module_of(&src, f) else {
            continue;
        };
        let text = std::fs::read_to_string(f).unwrap();
        let name = f.strip_prefix(&src).unwrap().display().to_string();
        for (to, line) in crate_uses(&code_of(&text)) {
            let to = roots.get(&to).cloned().unwrap_or(to);
            if !src.join(&to).is_dir() && !src.join(format!("{to}.rs")).is_file() {
                continue; // a re-export of another crate (`crate::U256`)
            }
            if to != from && to != "self" && to != "super" {
                out.push((name.clone(), line, from.clone(), to));
            }
        }
    }
    out
}

#[test]
fn the_use_parser_reads_paths_and_groups() {
    let code = "use crate::error::E;\nuse crate::{\n    graph::{G, H},\n    units::T,\n};\nlet x = crate::math::to_f64(y);\nmy_crate::zap::f();\n";
    let got = crate_uses(code);
    let want = [("error", 1), ("graph", 3), ("units", 4), ("math", 6)];
    assert_eq!(
        got,
        want.map(|(m, l)| (m.to_string(), l)).to_vec(),
        "{code}"
    );
    assert_eq!(
        code_of("a\n// crate::zap\n#[cfg(test)]\nmod t { crate::zap }\n"),
        "a\n"
    );
}

#[test]
fn layers_point_only_down() {
    let uses = module_uses();
    let mut unmapped = BTreeSet::new();
    let mut upward = Vec::new();
    for (file, line, from, to) in &uses {
        match (layer_of(from), layer_of(to)) {
            (Some(a), Some(b)) if b > a => upward.push(format!(
                "src/{file}:{line}: {from} ({}) uses crate::{to} ({})",
                LAYERS[a].0, LAYERS[b].0
            )),
            (Some(_), Some(_)) => {}
            (None, _) => {
                unmapped.insert(from.clone());
            }
            (_, None) => {
                unmapped.insert(to.clone());
            }
        }
    }
    assert!(
        unmapped.is_empty(),
        "modules with no layer in LAYERS (give each one): {unmapped:?}"
    );
    assert!(
        upward.is_empty(),
        "{} uses of a higher layer:\n{}",
        upward.len(),
        upward.join("\n")
    );
}

#[test]
fn top_level_modules_have_no_import_cycle() {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (_, _, from, to) in module_uses() {
        edges.entry(from).or_default().insert(to);
    }
    // depth-first search for a back edge; report the cycle it closes
    fn visit(
        m: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(k) = path.iter().position(|p| p == m) {
            let mut cycle = path[k..].to_vec();
            cycle.push(m.to_string());
            return Some(cycle);
        }
        if done.contains(m) {
            return None;
        }
        path.push(m.to_string());
        for n in edges.get(m).into_iter().flatten() {
            if let Some(c) = visit(n, edges, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(m.to_string());
        None
    }
    let mut done = BTreeSet::new();
    for m in edges.keys() {
        if let Some(cycle) = visit(m, &edges, &mut Vec::new(), &mut done) {
            panic!("import cycle: {}", cycle.join(" -> "));
        }
    }
}
