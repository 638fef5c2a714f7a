//! The house rules `cargo xtask tidy` checks inside crates (`docs/architecture.md`, "House
//! rules"): no cycle between the top-level modules of a crate, and no source file longer
//! than the budget unless it is on the short allow-list.
//!
//! A module `a` of a crate depends on its module `b` when a line of code (not a comment) of
//! `src/a.rs` or of a file under `src/a/` names `crate::b`, or when `src/a.rs` names
//! `super::b`. Two or more modules that depend on each other round a loop are a cycle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Lines a source file may have.
pub const FILE_BUDGET: usize = 1_500;

/// Files allowed over [`FILE_BUDGET`], with their ceiling: each is to be split, and may not
/// grow meanwhile.
pub const LONG_FILES: &[(&str, usize)] = &[];

/// Module cycles that exist and are to be broken: `crate: a <-> b <-> c`, modules sorted. A
/// cycle not on this list fails the check, and so does an entry that is no longer a cycle
/// (so the list only shrinks).
pub const KNOWN_CYCLES: &[&str] = &[];

/// The top-level modules of the crate whose sources are under `src`, and the files of each
/// (the crate root's own file under the name `""`).
fn modules(src: &Path) -> BTreeMap<String, Vec<PathBuf>> {
    let mut out: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let Ok(entries) = std::fs::read_dir(src) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        let name = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        let Some(name) = name else { continue };
        if p.is_dir() {
            if name == "bin" {
                continue;
            }
            out.entry(name).or_default().extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            let key = if name == "lib" || name == "main" {
                String::new()
            } else {
                name
            };
            out.entry(key).or_default().push(p);
        }
    }
    out
}

/// Every `.rs` file under `dir`.
pub fn rust_files(dir: &Path) -> Vec<PathBuf> {
    files_with_extension(dir, "rs")
}

/// Every file under `dir` whose extension is `ext`, sorted.
pub fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The names that follow `prefix` (`crate::`, `super::`) in `line`, and those inside a
/// `prefix{a, b::c}` group.
fn names_after<'a>(line: &'a str, prefix: &str, out: &mut Vec<&'a str>) {
    let mut rest = line;
    while let Some(i) = rest.find(prefix) {
        // `taut_crate::x` or `mycrate::x` is not `crate::x`.
        let before = rest[..i].chars().next_back();
        rest = &rest[i + prefix.len()..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            for item in group[..end].split(',') {
                let item = item.trim();
                let n = item.split("::").next().unwrap_or("").trim();
                if !n.is_empty() {
                    out.push(n);
                }
            }
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        out.push(&rest[..end]);
    }
}

/// The module graph of one crate: for each top-level module, the others it names.
pub fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(src);
    let known: BTreeSet<&str> = mods.keys().map(String::as_str).collect();
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (m, files) in &mods {
        if m.is_empty() {
            continue;
        }
        let edges = graph.entry(m.clone()).or_default();
        for f in files {
            let Ok(text) = std::fs::read_to_string(f) else {
                continue;
            };
            let top = f.parent() == Some(src);
            let mut in_tests = false;
            for line in text.lines() {
                let t = line.trim_start();
                if t.starts_with("//") {
                    continue;
                }
                // A crate's tests may reach anywhere; they are not part of its layering.
                if t.starts_with("#[cfg(test)]") {
                    in_tests = true;
                }
                if in_tests {
                    continue;
                }
                let mut names = Vec::new();
                names_after(t, "crate::", &mut names);
                if top {
                    names_after(t, "super::", &mut names);
                }
                for n in names {
                    if n != m && known.contains(n) && !n.is_empty() {
                        edges.insert(n.to_owned());
                    }
                }
            }
        }
    }
    graph
}

/// The cycles of a module graph: each strongly connected set of two or more modules, sorted.
pub fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    // Reachability by depth-first search from each module (crates have tens of modules).
    let reach = |from: &str| {
        let mut seen = BTreeSet::new();
        let mut stack = vec![from.to_owned()];
        while let Some(m) = stack.pop() {
            for n in graph.get(&m).into_iter().flatten() {
                if seen.insert(n.clone()) {
                    stack.push(n.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> =
        graph.keys().map(|m| (m, reach(m))).collect();
    let mut done = BTreeSet::new();
    let mut out = Vec::new();
    for m in graph.keys() {
        if done.contains(m) || !reaches[m].contains(m) {
            continue;
        }
        let scc: Vec<String> = graph
            .keys()
            .filter(|n| reaches[m].contains(*n) && reaches[*n].contains(m))
            .cloned()
            .collect();
        done.extend(scc.iter().cloned());
        out.push(scc);
    }
    out
}

/// Problems with the house rules under `root` (every crate of `crates/` and `xtask`).
pub fn check(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    let mut found = BTreeSet::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("Cargo.toml").exists())
        .collect();
    dirs.push(root.join("xtask"));
    dirs.sort();
    for dir in &dirs {
        let name = dir.file_name().unwrap_or_default().to_string_lossy();
        for cycle in cycles(&module_graph(&dir.join("src"))) {
            let spelled = format!("{name}: {}", cycle.join(" <-> "));
            if !KNOWN_CYCLES.contains(&spelled.as_str()) {
                problems.push(format!(
                    "{name}: module cycle {} (docs/architecture.md, House rules)",
                    cycle.join(" <-> ")
                ));
            }
            found.insert(spelled);
        }
        for f in rust_files(dir) {
            if f.components().any(|c| c.as_os_str() == "target") {
                continue;
            }
            let lines = std::fs::read_to_string(&f).map_or(0, |t| t.lines().count());
            let rel = f
                .strip_prefix(root)
                .unwrap_or(&f)
                .to_string_lossy()
                .into_owned();
            let ceiling = LONG_FILES
                .iter()
                .find(|(p, _)| *p == rel)
                .map_or(FILE_BUDGET, |(_, c)| *c);
            if ceiling > FILE_BUDGET && lines <= FILE_BUDGET {
                problems.push(format!(
                    "{rel}: {lines} lines, within the budget now: remove it from LONG_FILES in \
                     xtask/src/house.rs"
                ));
            }
            if lines > ceiling {
                problems.push(format!(
                    "{rel}: {lines} lines, over the budget of {ceiling} (split it by concern)"
                ));
            }
        }
    }
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap_or_default();
    for dir in &dirs {
        let name = dir.file_name().unwrap_or_default().to_string_lossy();
        for m in public_modules(&dir.join("src").join("lib.rs")) {
            if !names_module(&doc, &m) {
                problems.push(format!(
                    "{name}: public module `{m}` is not named in docs/architecture.md's code map"
                ));
            }
        }
    }
    for known in KNOWN_CYCLES {
        if !found.contains(*known) {
            problems.push(format!(
                "{known}: no longer a module cycle: remove it from KNOWN_CYCLES in xtask/src/house.rs"
            ));
        }
    }
    for (path, _) in LONG_FILES {
        if !root.join(path).exists() {
            problems.push(format!(
                "{path}: on LONG_FILES in xtask/src/house.rs but gone: remove it"
            ));
        }
    }
    problems
}

/// The `pub mod` names of the crate root `lib`, each a module the code map must name.
fn public_modules(lib: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(lib) else {
        return Vec::new();
    };
    text.lines()
        .filter_map(|l| l.strip_prefix("pub mod "))
        .map(|rest| {
            rest.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect()
        })
        .collect()
}

/// Whether `doc` names module `m`: `` `m` ``, `m.rs`, `` `m/ ``, `::m` or `m::`.
fn names_module(doc: &str, m: &str) -> bool {
    [
        format!("`{m}`"),
        format!("{m}.rs"),
        format!("`{m}/"),
        format!("::{m}"),
        format!("{m}::"),
    ]
    .iter()
    .any(|p| doc.contains(p.as_str()))
}

/// How many known cycles and long files remain (printed by `tidy`).
pub fn debt() -> (usize, usize) {
    (KNOWN_CYCLES.len(), LONG_FILES.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_after_reads_paths_and_groups() {
        let mut v = Vec::new();
        names_after(
            "use crate::{a, b::c}; let x = crate::d::e(); taut_crate::z",
            "crate::",
            &mut v,
        );
        assert_eq!(v, ["a", "b", "d"]);
    }

    #[test]
    fn cycles_are_strongly_connected_sets() {
        let g: BTreeMap<String, BTreeSet<String>> = [
            ("a", vec!["b"]),
            ("b", vec!["c"]),
            ("c", vec!["a"]),
            ("d", vec!["a"]),
            ("e", vec![]),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
        .collect();
        assert_eq!(cycles(&g), vec![vec!["a", "b", "c"]]);
    }

    #[test]
    fn module_graph_of_a_scratch_crate() {
        let d = std::env::temp_dir().join(format!("taut-house-{}", std::process::id()));
        let src = d.join("src");
        std::fs::create_dir_all(src.join("m")).unwrap();
        std::fs::write(src.join("lib.rs"), "mod m; mod n;").unwrap();
        std::fs::write(src.join("m.rs"), "mod x;\nuse super::n::N;").unwrap();
        std::fs::write(src.join("m").join("x.rs"), "// crate::n in a comment\n").unwrap();
        std::fs::write(src.join("n.rs"), "pub struct N;\nuse crate::m;").unwrap();
        let g = module_graph(&src);
        assert_eq!(cycles(&g), vec![vec!["m", "n"]]);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
