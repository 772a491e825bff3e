//! The floors inside the crates (issue "Floors inside the crates"): no
//! import cycle among the top-level modules of phasegate-ops, -core or
//! -store, nor among the children of any of their folders (or the CLI's),
//! and core's rule: a capability imports the kernel and the capabilities
//! listed before it, never one after it, and the kernel imports no
//! capability. Read from the `crate::…` and `super::…` paths of the source,
//! test modules left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

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

fn src(krate: &str) -> PathBuf {
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

/// For each folder of `src` at any depth (`[]` is `src` itself): which of
/// its children (files or subfolders) imports which, and a file making each
/// import.
type FolderImports = BTreeMap<Vec<String>, BTreeMap<String, BTreeMap<String, PathBuf>>>;

/// The module a file holds: `a/b.rs` and `a/b/mod.rs` are `a::b`, `lib.rs`
/// and `main.rs` the crate.
fn module_of(rel: &Path) -> Vec<String> {
    let mut module: Vec<String> =
        rel.with_extension("").components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
    if module.last().is_some_and(|l| l == "mod") || module == ["lib"] || module == ["main"] {
        module.pop();
    }
    module
}

/// The imports among the children of every folder of `src`, read from its
/// `crate::a::b::…` and `super::…` paths and their `{x, y::z}` groups, test
/// modules left out. A path names the longest module it reaches
/// (`crate::a::b::f` is `a::b`); an import of `x::y::z` by `x::w::v` is one
/// of `y` by `w` in the folder `x`, the deepest both lie in.
fn folder_imports(src: &Path) -> FolderImports {
    let path =
        regex::Regex::new(r"\b(crate|super(?:::super)*)::((?:[a-z_][a-z0-9_]*::)*)(?:\{([^}]*)\}|([a-z_][a-z0-9_]*))")
            .unwrap();
    let item = regex::Regex::new(r"(?:^|,)\s*((?:[a-z_][a-z0-9_]*::)*[a-z_][a-z0-9_]*)").unwrap();
    let mut files = Vec::new();
    for entry in walkdir::WalkDir::new(src).sort_by_file_name() {
        let entry = entry.unwrap();
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(p).unwrap();
            let text = text.split("#[cfg(test)]").next().unwrap_or_default().to_owned();
            files.push((module_of(p.strip_prefix(src).unwrap()), p.to_owned(), text));
        }
    }
    let modules: BTreeSet<&[String]> = files.iter().map(|(m, _, _)| m.as_slice()).collect();
    let mut out = FolderImports::new();
    for (module, file, text) in &files {
        for c in path.captures_iter(text) {
            // `crate` is the root; each `super` one step up from the file's module.
            let base = match &c[1] {
                "crate" => &module[..0],
                supers => &module[..module.len().saturating_sub(supers.matches("super").count())],
            };
            let prefix = c[2].split("::").filter(|s| !s.is_empty());
            let items: Vec<&str> = match c.get(3) {
                Some(group) => item.captures_iter(group.as_str()).map(|i| i.get(1).unwrap().as_str()).collect(),
                None => vec![&c[4]],
            };
            for it in items {
                let named: Vec<String> = base
                    .iter()
                    .map(String::as_str)
                    .chain(prefix.clone())
                    .chain(it.split("::"))
                    .map(str::to_owned)
                    .collect();
                let reached = (0..=named.len()).rev().map(|k| &named[..k]).find(|m| modules.contains(m)).unwrap();
                let shared = module.iter().zip(reached).take_while(|(a, b)| a == b).count();
                if shared < module.len() && shared < reached.len() {
                    out.entry(module[..shared].to_vec())
                        .or_default()
                        .entry(module[shared].clone())
                        .or_default()
                        .entry(reached[shared].clone())
                        .or_insert_with(|| file.clone());
                }
            }
        }
    }
    out
}

#[test]
fn no_import_cycle_among_the_children_of_any_folder() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut circles = Vec::new();
    for krate in ["phasegate-core", "phasegate-store", "phasegate-ops", "phasegate-cli"] {
        let folders = folder_imports(&src(krate));
        // Not vacuous: the top-level modules import each other, and so do
        // the children of some folder.
        assert!(
            folders.contains_key(&Vec::new()) && folders.len() > 1,
            "{krate}: read imports in {} folders only",
            folders.len()
        );
        for (folder, edges) in &folders {
            let graph: BTreeMap<String, BTreeSet<String>> =
                edges.iter().map(|(from, to)| (from.clone(), to.keys().cloned().collect())).collect();
            let Some(c) = cycle(&graph) else { continue };
            let by: Vec<String> = c
                .windows(2)
                .map(|w| {
                    format!("  {} -> {}: {}", w[0], w[1], edges[&w[0]][&w[1]].strip_prefix(root).unwrap().display())
                })
                .collect();
            let folder = Path::new("crates").join(krate).join("src").join(folder.join("/"));
            circles.push(format!(
                "{}: its children import each other in a circle: {}\n{}",
                folder.display(),
                c.join(" -> "),
                by.join("\n")
            ));
        }
    }
    assert!(circles.is_empty(), "{}", circles.join("\n"));
}

/// The reader sees each way a file names a sibling: a `crate::` path, a
/// `crate::…::{…}` group, `super::` and `super::super::` paths and groups;
/// a path ends at the longest module it reaches, and what follows
/// `#[cfg(test)]` is left out.
#[test]
fn the_folder_reader_sees_crate_paths_groups_and_super() {
    let dir = tempfile::tempdir().unwrap();
    for (file, text) in [
        ("lib.rs", "pub mod a;"),
        ("a/mod.rs", "mod b;\nmod c;\nmod d;\nmod e;"),
        ("a/b.rs", "fn f() { crate::a::c::thing(); }"),
        ("a/c.rs", "use super::{d, e::f};"),
        ("a/d/mod.rs", "mod g;\nmod h;\nuse super::super::a::b::X;"),
        ("a/d/g.rs", "use crate::a::{b, d::h};"),
        ("a/d/h.rs", ""),
        ("a/e.rs", "#[cfg(test)]\nuse crate::a::b;"),
    ] {
        let path = dir.path().join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let read: BTreeMap<String, BTreeMap<String, BTreeSet<String>>> = folder_imports(dir.path())
        .into_iter()
        .map(|(folder, edges)| {
            (folder.join("::"), edges.into_iter().map(|(k, v)| (k, v.into_keys().collect())).collect())
        })
        .collect();
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<String>>();
    let expected = BTreeMap::from([
        (
            "a".to_owned(),
            BTreeMap::from([
                ("b".to_owned(), set(&["c"])),
                ("c".to_owned(), set(&["d", "e"])),
                ("d".to_owned(), set(&["b"])),
            ]),
        ),
        ("a::d".to_owned(), BTreeMap::from([("g".to_owned(), set(&["h"]))])),
    ]);
    assert_eq!(read, expected);
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
        "ideation",
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

/// CONTRIBUTING.md tells a contributor to run `python3 scripts/figures.py`:
/// it runs as printed and prints each figure with its target.
#[test]
fn the_shape_figures_run_as_contributing_prints_them() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let contributing = std::fs::read_to_string(root.join("CONTRIBUTING.md")).unwrap();
    assert!(contributing.contains("`python3 scripts/figures.py`"));
    let out = std::process::Command::new("python3").arg("scripts/figures.py").current_dir(root).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    for figure in [
        "errors built from text",
        "command spellings",
        "functions over 80 lines",
        "public methods of the store's Project",
    ] {
        let line = text.lines().find(|l| l.starts_with(figure)).unwrap_or_else(|| panic!("no {figure:?} in {text}"));
        let value: u32 =
            line.split(": ").nth(1).and_then(|v| v.split(' ').next()).and_then(|v| v.parse().ok()).unwrap();
        assert!(line.ends_with(")") && line.contains("(target at most "), "{line}");
        // The store always has a Project with methods: 0 would mean the
        // script read nothing.
        assert!(value > 0 || figure != "public methods of the store's Project", "{line}");
    }
}
