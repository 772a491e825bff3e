//! The floors inside the crates (issue "Floors inside the crates"): no
//! import cycle among the top-level modules of phasegate-ops, -core or
//! -store, and core's rule: a capability imports the kernel and the
//! capabilities listed before it, never one after it, and the kernel
//! imports no capability. Read from the `crate::<module>` paths of the
//! source, test modules left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each top-level module of `src` and the top-level modules it imports.
fn imports(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let path = regex::Regex::new(r"crate::([a-z_][a-z0-9_]*)").unwrap();
    let group = regex::Regex::new(r"use crate::\{([^}]*)\}").unwrap();
    let word = regex::Regex::new(r"(?:^|,)\s*([a-z_][a-z0-9_]*)").unwrap();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for entry in walkdir::WalkDir::new(src) {
        let entry = entry.unwrap();
        let p = entry.path();
        if p.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let rel = p.strip_prefix(src).unwrap();
        let top = rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_owned();
        if top == "lib" || top == "main" {
            continue;
        }
        let text = std::fs::read_to_string(p).unwrap();
        let text = text.split("#[cfg(test)]").next().unwrap_or_default();
        let mut used: BTreeSet<String> = path.captures_iter(text).map(|c| c[1].to_owned()).collect();
        for g in group.captures_iter(text) {
            used.extend(word.captures_iter(&g[1]).map(|c| c[1].to_owned()));
        }
        used.remove(&top);
        out.entry(top).or_default().extend(used);
    }
    out
}

/// A cycle through `from`, if any (depth-first).
fn cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        g: &BTreeMap<String, BTreeSet<String>>,
        at: &str,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == at) {
            let mut c = path[i..].to_vec();
            c.push(at.to_owned());
            return Some(c);
        }
        if done.contains(at) {
            return None;
        }
        path.push(at.to_owned());
        for next in g.get(at).into_iter().flatten() {
            if let Some(c) = visit(g, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(at.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|k| visit(graph, k, &mut Vec::new(), &mut done))
}

fn src(krate: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("crates").join(krate).join("src")
}

#[test]
fn no_import_cycle_among_the_top_level_modules_of_ops_core_or_store() {
    for krate in ["phasegate-ops", "phasegate-core", "phasegate-store"] {
        let g = imports(&src(krate));
        assert!(g.len() > 5, "{krate}: read no modules");
        if let Some(c) = cycle(&g) {
            panic!("{krate}: the modules import each other in a circle: {}", c.join(" -> "));
        }
    }
}

/// What breaks "a capability imports the kernel and the capabilities listed
/// before it, never one after it, and the kernel imports no capability".
fn out_of_order(krate: &str, order: &[&str]) -> Vec<String> {
    let g = imports(&src(krate));
    let mut bad = Vec::new();
    for (module, used) in &g {
        let mine = order.iter().position(|c| c == module);
        for u in used {
            let theirs = order.iter().position(|c| c == u);
            match (mine, theirs) {
                (None, Some(_)) => bad.push(format!("{krate}: the kernel's {module} imports the capability {u}")),
                (Some(m), Some(t)) if t > m => bad.push(format!("{krate}: {module} imports {u}, listed after it")),
                _ => {}
            }
        }
    }
    bad
}

#[test]
fn core_capabilities_import_only_the_kernel_and_those_listed_before_them() {
    let bad = out_of_order(
        "phasegate-core",
        &["feature", "questions", "tasks", "pipeline", "proof", "cost", "knowledge", "coordination", "interrupt"],
    );
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The ops' floors, as CONTRIBUTING.md draws them: the kernel (env, error,
/// hook, session, witness, commit, generate, install), then coordination and
/// questions, what the knowledge base and briefs build on them, the feature
/// workflow, the two ways of running its work, what looks back over it, and
/// the hook registry that folds them all.
#[test]
fn ops_capabilities_import_only_the_kernel_and_those_listed_before_them() {
    let order = [
        "coordination",
        "questions",
        "knowledge",
        "brief",
        "proof",
        "cost",
        "feature",
        "tasks",
        "pipeline",
        "retro",
        "interrupt",
        "oversight",
        "hooks",
    ];
    let bad = out_of_order("phasegate-ops", &order);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // Every top-level module is placed: in the kernel or in the order.
    let kernel = ["env", "error", "hook", "session", "witness", "commit", "generate", "install"];
    let g = imports(&src("phasegate-ops"));
    let unplaced: Vec<&String> =
        g.keys().filter(|m| !order.contains(&m.as_str()) && !kernel.contains(&m.as_str())).collect();
    assert!(unplaced.is_empty(), "modules in no floor (add them to CONTRIBUTING.md and here): {unplaced:?}");
}
