//! `cargo xtask tidy`: the dependencies between workspace crates must be the ones
//! `docs/architecture.md` allows.
//!
//! The allowed edges are the Markdown table between the lines `<!-- tidy:deps:begin -->` and
//! `<!-- tidy:deps:end -->` of `docs/architecture.md`: one row per crate, with the columns
//! `crate`, `dependencies` and `dev-dependencies` (other columns are for people). The actual
//! edges come from `cargo metadata --format-version 1 --no-deps`, run on the workspace and on
//! the separate fuzz workspace (`fuzz/Cargo.toml`): every path dependency of a workspace crate
//! on another one, normal, dev or build. The check fails with one line per problem:
//!
//! - an edge the table does not allow (`taut-cli -> taut-bench (normal): not allowed by
//!   docs/architecture.md`). A normal or build dependency must be listed under
//!   `dependencies`; a dev-dependency under `dependencies` or `dev-dependencies`;
//! - a crate with no row in the table;
//! - a row naming no crate of either workspace (the document would no longer be true).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;
use std::process::Command;

use anyhow::{Context, bail};
use serde_json::Value;

/// The document holding the table, relative to the repository root.
pub const DOC: &str = "docs/architecture.md";
const BEGIN: &str = "<!-- tidy:deps:begin -->";
const END: &str = "<!-- tidy:deps:end -->";

/// Arguments of `tidy` (none: it always checks the whole repository).
#[derive(Debug, clap::Args)]
pub struct TidyArgs {}

/// The kind of a dependency, as Cargo names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `[dependencies]`.
    Normal,
    /// `[dev-dependencies]`.
    Dev,
    /// `[build-dependencies]`.
    Build,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Normal => "normal",
            Kind::Dev => "dev",
            Kind::Build => "build",
        })
    }
}

/// What one row of the table allows a crate to depend on.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowed {
    /// Normal (and build) dependencies.
    pub normal: BTreeSet<String>,
    /// Dev-dependencies allowed in addition to `normal`.
    pub dev: BTreeSet<String>,
}

impl Allowed {
    fn allows(&self, to: &str, kind: Kind) -> bool {
        match kind {
            Kind::Normal | Kind::Build => self.normal.contains(to),
            Kind::Dev => self.normal.contains(to) || self.dev.contains(to),
        }
    }
}

/// The allowed edges: crate name to its row.
pub type Table = BTreeMap<String, Allowed>;

/// The actual edges between workspace crates: crate name to its dependencies on other
/// workspace crates, each with its kind. Every workspace crate has an entry, possibly empty.
pub type Graph = BTreeMap<String, BTreeSet<(String, Kind)>>;

/// One thing the check finds wrong.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Problem {
    /// A workspace crate without a row in the table (its edges are not checked).
    Missing(String),
    /// A dependency the table does not allow.
    Forbidden {
        /// The dependent crate.
        from: String,
        /// The crate it depends on.
        to: String,
        /// How.
        kind: Kind,
    },
    /// A row of the table that names no crate of the workspaces.
    Stale(String),
    /// An edge the table allows that no crate uses (the document would overstate).
    Unused {
        /// The crate whose row allows it.
        from: String,
        /// The crate it may depend on.
        to: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Missing(name) => {
                write!(f, "{name}: not in the dependency table of {DOC}")
            }
            Problem::Forbidden { from, to, kind } => {
                write!(f, "{from} -> {to} ({kind}): not allowed by {DOC}")
            }
            Problem::Stale(name) => write!(
                f,
                "{name}: in the dependency table of {DOC}, but not a crate of the workspace"
            ),
            Problem::Unused { from, to } => write!(
                f,
                "{from} -> {to}: allowed by {DOC} but not a dependency: remove it from the table"
            ),
        }
    }
}

/// Reads the table between the markers of `doc` (the text of `docs/architecture.md`).
///
/// # Errors
/// Missing or repeated markers, a malformed row, a name that is not a crate name, a crate
/// with two rows, or a dependency on a crate that has no row; each names its line.
pub fn parse_table(doc: &str) -> anyhow::Result<Table> {
    let lines: Vec<&str> = doc.lines().collect();
    let marker = |m: &str| -> anyhow::Result<usize> {
        let at: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].trim() == m).collect();
        match at[..] {
            [i] => Ok(i),
            [] => bail!("no `{m}` line"),
            _ => bail!("`{m}` appears {} times", at.len()),
        }
    };
    let (begin, end) = (marker(BEGIN)?, marker(END)?);
    if end < begin {
        bail!("line {}: `{END}` comes before `{BEGIN}`", end + 1);
    }

    // (1-based line number, cells) for every non-blank line between the markers.
    let mut rows = Vec::new();
    for (i, line) in lines.iter().enumerate().take(end).skip(begin + 1) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let inner = line
            .strip_prefix('|')
            .and_then(|l| l.strip_suffix('|'))
            .with_context(|| format!("line {}: not a table row (`| … |`)", i + 1))?;
        rows.push((i + 1, inner.split('|').map(str::trim).collect::<Vec<_>>()));
    }
    let [(header_line, header), (sep_line, sep), body @ ..] = &rows[..] else {
        bail!(
            "line {}: the table needs a header and a separator row",
            begin + 1
        );
    };
    let column = |name: &str| -> anyhow::Result<usize> {
        header
            .iter()
            .position(|h| *h == name)
            .with_context(|| format!("line {header_line}: no column `{name}` in the header"))
    };
    let (c_crate, c_deps, c_dev) = (
        column("crate")?,
        column("dependencies")?,
        column("dev-dependencies")?,
    );
    let is_separator = |c: &&str| {
        let c = c.trim_start_matches(':').trim_end_matches(':');
        !c.is_empty() && c.chars().all(|ch| ch == '-')
    };
    if sep.len() != header.len() || !sep.iter().all(is_separator) {
        bail!("line {sep_line}: expected the separator row (`|---|---|…`)");
    }

    let mut table = Table::new();
    let mut row_line = BTreeMap::new();
    for (line, cells) in body {
        if cells.len() != header.len() {
            bail!(
                "line {line}: {} cells, but the header has {}",
                cells.len(),
                header.len()
            );
        }
        let name = crate_name(cells[c_crate]).with_context(|| format!("line {line}"))?;
        let allowed = Allowed {
            normal: crate_list(cells[c_deps]).with_context(|| format!("line {line}"))?,
            dev: crate_list(cells[c_dev]).with_context(|| format!("line {line}"))?,
        };
        if allowed.normal.contains(&name) || allowed.dev.contains(&name) {
            bail!("line {line}: `{name}` may not depend on itself");
        }
        if let Some(first) = row_line.insert(name.clone(), *line) {
            bail!("line {line}: `{name}` has a row already, on line {first}");
        }
        table.insert(name, allowed);
    }
    for (name, allowed) in &table {
        if let Some(unknown) = allowed
            .normal
            .iter()
            .chain(&allowed.dev)
            .find(|d| !table.contains_key(*d))
        {
            bail!(
                "line {}: `{name}` lists `{unknown}`, which has no row in the table",
                row_line[name]
            );
        }
    }
    Ok(table)
}

/// A crate name in a cell, with or without backticks.
fn crate_name(cell: &str) -> anyhow::Result<String> {
    let name = cell.trim();
    let name = name
        .strip_prefix('`')
        .and_then(|n| n.strip_suffix('`'))
        .unwrap_or(name);
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if !valid {
        bail!("`{cell}` is not a crate name");
    }
    Ok(name.to_owned())
}

/// A comma-separated list of crate names; `—`, `-` or an empty cell is the empty list.
fn crate_list(cell: &str) -> anyhow::Result<BTreeSet<String>> {
    if matches!(cell.trim(), "" | "—" | "-") {
        return Ok(BTreeSet::new());
    }
    cell.split(',').map(crate_name).collect()
}

/// The edges between the crates of one or more `cargo metadata --no-deps` outputs: a
/// dependency counts when it is a path dependency (no `source`) on a crate of one of them.
///
/// # Errors
/// A metadata document without the expected fields.
pub fn graph(metadata: &[Value]) -> anyhow::Result<Graph> {
    let mut packages = Vec::new();
    for doc in metadata {
        let list = doc["packages"]
            .as_array()
            .context("cargo metadata: no `packages` array")?;
        packages.extend(list);
    }
    let name_of = |v: &Value| -> anyhow::Result<String> {
        Ok(v["name"]
            .as_str()
            .context("cargo metadata: a package or dependency without a name")?
            .to_owned())
    };
    let mut graph = Graph::new();
    for p in &packages {
        graph.insert(name_of(p)?, BTreeSet::new());
    }
    for p in &packages {
        let from = name_of(p)?;
        let deps = p["dependencies"]
            .as_array()
            .with_context(|| format!("cargo metadata: `{from}` has no `dependencies` array"))?;
        for d in deps {
            let to = name_of(d)?;
            if !d["source"].is_null() || !graph.contains_key(&to) {
                continue;
            }
            let kind = match d["kind"].as_str() {
                None => Kind::Normal,
                Some("dev") => Kind::Dev,
                Some("build") => Kind::Build,
                Some(other) => bail!("cargo metadata: `{from}` -> `{to}` has kind `{other}`"),
            };
            if let Some(edges) = graph.get_mut(&from) {
                edges.insert((to, kind));
            }
        }
    }
    Ok(graph)
}

/// Everything wrong with `graph` by `table`: crates without a row, edges a row does not
/// allow, and rows without a crate, in that order (each sorted by name).
pub fn check(table: &Table, graph: &Graph) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (from, edges) in graph {
        let Some(allowed) = table.get(from) else {
            problems.push(Problem::Missing(from.clone()));
            continue;
        };
        for (to, kind) in edges {
            if !allowed.allows(to, *kind) {
                problems.push(Problem::Forbidden {
                    from: from.clone(),
                    to: to.clone(),
                    kind: *kind,
                });
            }
        }
    }
    problems.sort();
    problems.extend(
        table
            .keys()
            .filter(|name| !graph.contains_key(*name))
            .map(|name| Problem::Stale(name.clone())),
    );
    for (from, allowed) in table {
        let Some(edges) = graph.get(from) else {
            continue;
        };
        for to in allowed.normal.iter().chain(&allowed.dev) {
            if !edges.iter().any(|(t, _)| t == to) {
                problems.push(Problem::Unused {
                    from: from.clone(),
                    to: to.clone(),
                });
            }
        }
    }
    problems
}

/// `cargo metadata --format-version 1 --no-deps` of the workspace of `manifest`.
fn metadata(manifest: &Path) -> anyhow::Result<Value> {
    let out = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--manifest-path",
        ])
        .arg(manifest)
        .output()
        .context("running cargo metadata")?;
    if !out.status.success() {
        bail!(
            "cargo metadata --manifest-path {} failed ({}):\n{}",
            manifest.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    serde_json::from_slice(&out.stdout)
        .with_context(|| format!("reading cargo metadata of {}", manifest.display()))
}

/// Runs `tidy`: prints one line per problem and fails if there is any.
pub fn run(_args: &TidyArgs) -> anyhow::Result<()> {
    let root = crate::repo_root();
    let doc = std::fs::read_to_string(root.join(DOC))
        .with_context(|| format!("reading {}", root.join(DOC).display()))?;
    let table = parse_table(&doc).with_context(|| format!("{DOC}: the dependency table"))?;
    let graph = graph(&[
        metadata(&root.join("Cargo.toml"))?,
        metadata(&root.join("fuzz").join("Cargo.toml"))?,
    ])?;
    let mut problems: Vec<String> = check(&table, &graph)
        .iter()
        .map(ToString::to_string)
        .collect();
    problems.extend(crate::house::check(&root));
    problems.extend(crate::links::check(&root));
    if problems.is_empty() {
        let edges: usize = graph.values().map(BTreeSet::len).sum();
        println!(
            "tidy: {} crates, {edges} dependencies between them, all allowed by {DOC}; no new \
             module cycle ({} known, to break), no file over {} lines but {} on the allow-list; \
             every link of the README and the docs names a file, every result folder is indexed",
            graph.len(),
            crate::house::debt().0,
            crate::house::FILE_BUDGET,
            crate::house::debt().1
        );
        return Ok(());
    }
    for p in &problems {
        println!("{p}");
    }
    bail!(
        "{} problem(s): the dependencies between workspace crates must be the ones the table \
         in {DOC} allows (change the table in the same commit, and say why), the house \
         rules there must hold, and the docs' links must name files",
        problems.len()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC_TEXT: &str = "\
# Architecture

Some prose that mentions `a`, `b` and `c`.

<!-- tidy:deps:begin -->
| crate | layer | dependencies | dev-dependencies |
|---|:--|---|---|
| `a` | bottom | — | `t` |
| `b` | middle | `a` | `c`, `t` |
| `c` | middle | `a` |  |
| `t` | beside | `a` | - |
<!-- tidy:deps:end -->

More prose.
";

    fn without_unused(problems: Vec<Problem>) -> Vec<Problem> {
        problems
            .into_iter()
            .filter(|p| !matches!(p, Problem::Unused { .. }))
            .collect()
    }

    fn set(names: &[&str]) -> BTreeSet<String> {
        names.iter().map(|s| (*s).to_owned()).collect()
    }

    fn graph_of(edges: &[(&str, &[(&str, Kind)])]) -> Graph {
        edges
            .iter()
            .map(|(from, to)| {
                let to = to.iter().map(|(t, k)| ((*t).to_owned(), *k)).collect();
                ((*from).to_owned(), to)
            })
            .collect()
    }

    fn lines(problems: &[Problem]) -> Vec<String> {
        problems.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn tidy_parses_the_table_between_the_markers() {
        let table = parse_table(DOC_TEXT).unwrap();
        assert_eq!(table.keys().collect::<Vec<_>>(), ["a", "b", "c", "t"]);
        assert_eq!(table["a"].normal, set(&[]));
        assert_eq!(table["a"].dev, set(&["t"]));
        assert_eq!(table["b"].normal, set(&["a"]));
        assert_eq!(table["b"].dev, set(&["c", "t"]));
        assert_eq!(table["c"].dev, set(&[]));
        assert_eq!(table["t"].dev, set(&[]));
    }

    #[test]
    fn tidy_refuses_malformed_tables() {
        let err = |doc: &str| format!("{:#}", parse_table(doc).unwrap_err());
        assert!(err("no table here").contains("no `<!-- tidy:deps:begin -->` line"));
        let twice = format!("{DOC_TEXT}\n<!-- tidy:deps:end -->\n");
        assert!(err(&twice).contains("appears 2 times"));
        // A dependency on a crate without a row: a typo must not silently allow nothing.
        let typo = DOC_TEXT.replace("| `c` | middle | `a` |", "| `c` | middle | `aa` |");
        assert!(err(&typo).contains("line 10: `c` lists `aa`, which has no row"));
        let dup = DOC_TEXT.replace("| `c` | middle |", "| `b` | middle |");
        assert!(err(&dup).contains("line 10: `b` has a row already, on line 9"));
        let short = DOC_TEXT.replace("| `t` | beside | `a` | - |", "| `t` | `a` | - |");
        assert!(err(&short).contains("line 11: 3 cells, but the header has 4"));
        let no_col = DOC_TEXT.replace("| dev-dependencies |", "| tests |");
        assert!(err(&no_col).contains("line 6: no column `dev-dependencies`"));
        let bad_name = DOC_TEXT.replace("`c`, `t`", "`c` and `t`");
        assert!(err(&bad_name).contains("line 9: ``c` and `t`` is not a crate name"));
        let selfdep = DOC_TEXT.replace("| `b` | middle | `a` |", "| `b` | middle | `a`, `b` |");
        assert!(err(&selfdep).contains("line 9: `b` may not depend on itself"));
        let prose = DOC_TEXT.replace("| `t` | beside | `a` | - |", "t depends on a");
        assert!(err(&prose).contains("line 11: not a table row"));
    }

    #[test]
    fn tidy_passes_an_allowed_graph() {
        let table = parse_table(DOC_TEXT).unwrap();
        let graph = graph_of(&[
            ("a", &[("t", Kind::Dev)]),
            // A dev-dependency may be a normal one too, and a build dependency a normal one.
            (
                "b",
                &[
                    ("a", Kind::Normal),
                    ("a", Kind::Dev),
                    ("a", Kind::Build),
                    ("c", Kind::Dev),
                    ("t", Kind::Dev),
                ],
            ),
            ("c", &[("a", Kind::Normal)]),
            ("t", &[("a", Kind::Normal)]),
        ]);
        assert_eq!(check(&table, &graph), []);
    }

    #[test]
    fn tidy_reports_allowed_edges_no_crate_uses() {
        let table = parse_table(DOC_TEXT).unwrap();
        let graph = graph_of(&[
            ("a", &[("t", Kind::Dev)]),
            ("b", &[("a", Kind::Normal), ("c", Kind::Dev)]),
            ("c", &[]),
            ("t", &[("a", Kind::Normal)]),
        ]);
        assert_eq!(
            lines(&check(&table, &graph)),
            [
                "b -> t: allowed by docs/architecture.md but not a dependency: remove it from the table",
                "c -> a: allowed by docs/architecture.md but not a dependency: remove it from the table",
            ]
        );
    }

    #[test]
    fn tidy_reports_each_forbidden_edge() {
        let table = parse_table(DOC_TEXT).unwrap();
        let graph = graph_of(&[
            ("a", &[("b", Kind::Normal)]),
            // Allowed as a dev-dependency only; `t` only ever as a dev-dependency.
            ("b", &[("c", Kind::Normal), ("t", Kind::Build)]),
            ("c", &[("b", Kind::Dev)]),
            ("t", &[]),
        ]);
        assert_eq!(
            lines(&without_unused(check(&table, &graph))),
            [
                "a -> b (normal): not allowed by docs/architecture.md",
                "b -> c (normal): not allowed by docs/architecture.md",
                "b -> t (build): not allowed by docs/architecture.md",
                "c -> b (dev): not allowed by docs/architecture.md",
            ]
        );
    }

    #[test]
    fn tidy_reports_crates_missing_from_the_table_and_rows_without_a_crate() {
        let table = parse_table(DOC_TEXT).unwrap();
        let graph = graph_of(&[
            ("a", &[]),
            ("b", &[("a", Kind::Normal)]),
            ("new", &[("a", Kind::Normal), ("b", Kind::Normal)]),
            ("t", &[]),
        ]);
        assert_eq!(
            lines(&without_unused(check(&table, &graph))),
            [
                "new: not in the dependency table of docs/architecture.md",
                "c: in the dependency table of docs/architecture.md, but not a crate of the \
                 workspace",
            ]
        );
    }

    #[test]
    fn tidy_reads_path_dependencies_between_workspace_crates_from_cargo_metadata() {
        let workspace: Value = serde_json::from_str(
            r#"{"packages": [
                {"name": "a", "dependencies": [
                    {"name": "serde", "source": "registry+https://github.com/rust-lang/crates.io-index", "kind": null},
                    {"name": "outside", "source": null, "kind": null}
                ]},
                {"name": "b", "dependencies": [
                    {"name": "a", "source": null, "kind": null},
                    {"name": "a", "source": null, "kind": "dev"},
                    {"name": "c", "source": null, "kind": "build"}
                ]},
                {"name": "c", "dependencies": [
                    {"name": "b", "source": "git+https://example.invalid/b", "kind": null}
                ]}
            ]}"#,
        )
        .unwrap();
        // The fuzz workspace: its path dependencies reach into the main one.
        let fuzz: Value = serde_json::from_str(
            r#"{"packages": [{"name": "fz", "dependencies": [
                {"name": "b", "source": null, "kind": null}
            ]}]}"#,
        )
        .unwrap();
        let graph = graph(&[workspace, fuzz]).unwrap();
        assert_eq!(
            graph,
            graph_of(&[
                ("a", &[]),
                (
                    "b",
                    &[("a", Kind::Normal), ("a", Kind::Dev), ("c", Kind::Build)]
                ),
                ("c", &[]),
                ("fz", &[("b", Kind::Normal)]),
            ])
        );
    }

    #[test]
    fn tidy_table_of_architecture_md_parses_and_has_every_crate_directory() {
        let root = crate::repo_root();
        let doc = std::fs::read_to_string(root.join(DOC)).unwrap();
        let table = parse_table(&doc).unwrap();
        for entry in std::fs::read_dir(root.join("crates")).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(
                table.contains_key(&name),
                "crates/{name} has no row in {DOC}"
            );
        }
        for name in ["xtask", "taut-fuzz", "taut"] {
            assert!(table.contains_key(name), "{name} has no row in {DOC}");
        }
    }
}
