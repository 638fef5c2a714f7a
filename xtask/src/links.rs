//! The documentation rules `cargo xtask tidy` checks: every relative link and image of the
//! README, the changelog and the pages under `docs/` and `benchmarks/` names a file or
//! directory that exists (the README's figures each link the result file they come from, so
//! a moved or deleted result fails here), and `benchmarks/results/README.md` indexes every
//! result folder.

use std::path::{Path, PathBuf};

/// The Markdown files whose links are checked: `README.md`, `CHANGELOG.md`, and every `.md`
/// under `docs/` and `benchmarks/`.
fn pages(root: &Path) -> Vec<PathBuf> {
    let mut out = vec![root.join("README.md"), root.join("CHANGELOG.md")];
    for dir in ["docs", "benchmarks"] {
        out.extend(crate::house::files_with_extension(&root.join(dir), "md"));
    }
    out
}

/// The link targets of a Markdown text, with their line numbers: `[text](target)` and
/// `<img src="target">`, outside fenced code blocks and code spans.
pub fn targets(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut fenced = false;
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Code spans out: every other backtick run toggles.
        let mut plain = String::with_capacity(line.len());
        for (k, part) in line.split('`').enumerate() {
            if k % 2 == 0 {
                plain.push_str(part);
            } else {
                plain.push(' ');
            }
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let end = after.find(')').unwrap_or(after.len());
            let target = after[..end].split_whitespace().next().unwrap_or("");
            out.push((i + 1, target.to_owned()));
            rest = &after[end..];
        }
        let mut rest = plain.as_str();
        while let Some(at) = rest.find("src=\"") {
            let after = &rest[at + 5..];
            let end = after.find('"').unwrap_or(after.len());
            out.push((i + 1, after[..end].to_owned()));
            rest = &after[end..];
        }
    }
    out
}

/// Whether a target is checked: relative, not a URL, not only a fragment.
fn is_local(target: &str) -> bool {
    !(target.is_empty()
        || target.starts_with('#')
        || target.contains("://")
        || target.starts_with("mailto:"))
}

/// Problems with the documentation's links under `root`.
pub fn check(root: &Path) -> Vec<String> {
    let mut problems = Vec::new();
    for page in pages(root) {
        let Ok(text) = std::fs::read_to_string(&page) else {
            continue;
        };
        let rel = page
            .strip_prefix(root)
            .unwrap_or(&page)
            .display()
            .to_string();
        let dir = page.parent().unwrap_or(root);
        for (line, target) in targets(&text) {
            if !is_local(&target) {
                continue;
            }
            let path = target.split('#').next().unwrap_or("");
            if path.is_empty() {
                continue;
            }
            if !dir.join(path).exists() {
                problems.push(format!("{rel}:{line}: the link `{target}` names no file"));
            }
        }
    }
    let results = root.join("benchmarks/results");
    let index = std::fs::read_to_string(results.join("README.md")).unwrap_or_default();
    let mut folders: Vec<String> = std::fs::read_dir(&results)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    for f in folders {
        if !index.contains(&format!("`{f}/`")) {
            problems.push(format!(
                "benchmarks/results/README.md: the folder `{f}/` is not in its index"
            ));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_outside_code_are_found() {
        let text = "See [a](docs/a.md#x) and `[not](b.md)`.\n```\n[no](c.md)\n```\n\
                    <img src=\"img/p.png\" alt=\"\"> [web](https://x.org) [frag](#top)\n";
        let t: Vec<String> = targets(text).into_iter().map(|(_, t)| t).collect();
        assert_eq!(t, ["docs/a.md#x", "https://x.org", "#top", "img/p.png"]);
        let local: Vec<&String> = t.iter().filter(|s| is_local(s)).collect();
        assert_eq!(local, ["docs/a.md#x", "img/p.png"]);
    }
}
