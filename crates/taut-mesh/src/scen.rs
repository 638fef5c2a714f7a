//! Mesh scenarios: query files in the MovingAI `.scen` layout whose queries name `.mesh`
//! files and may give fractional coordinates (the reference Polyanya's test scenarios do).
//!
//! The first line starts with `version`; every other non-blank line has 9 whitespace-separated
//! fields: bucket, mesh name, width, height, start x, start y, goal x, goal y, and a length.
//! Only the coordinates are read; each must be a finite number.

use std::path::{Path, PathBuf};

use crate::geom::MeshPoint;

/// One query of a mesh scenario.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MeshQuery {
    /// The start.
    pub start: MeshPoint,
    /// The goal.
    pub goal: MeshPoint,
    /// The 1-based line of the file it is on.
    pub line: usize,
}

/// A mesh scenario that cannot be read or is malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}:{line}: {reason}", path.display())]
pub struct MeshScenarioError {
    /// The scenario file.
    pub path: PathBuf,
    /// 1-based line (0: the file could not be read).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

/// Whether the file at `path` is a mesh scenario: its first query names a `.mesh` file. A file
/// that cannot be read is not one.
pub fn is_mesh_scenario(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    text.lines()
        .skip(1)
        .find(|l| !l.trim().is_empty())
        .and_then(|l| l.split_whitespace().nth(1))
        .is_some_and(|m| m.ends_with(".mesh"))
}

/// Reads the queries of the mesh scenario at `path`.
///
/// # Errors
/// [`MeshScenarioError`] naming the file and line: unreadable, no `version` line, a line
/// without 9 fields, or a coordinate that is not a finite number.
pub fn read_mesh_scenario(path: &Path) -> Result<Vec<MeshQuery>, MeshScenarioError> {
    let text = std::fs::read_to_string(path).map_err(|e| MeshScenarioError {
        path: path.to_owned(),
        line: 0,
        reason: e.to_string(),
    })?;
    parse_mesh_scenario(&text).map_err(|(line, reason)| MeshScenarioError {
        path: path.to_owned(),
        line,
        reason,
    })
}

/// Parses the text of a mesh scenario.
///
/// # Errors
/// The 1-based line and what is wrong there.
pub fn parse_mesh_scenario(text: &str) -> Result<Vec<MeshQuery>, (usize, String)> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, l)) if l.trim_start().starts_with("version") => {}
        _ => return Err((1, "expected a `version` line".into())),
    }
    let mut out = Vec::new();
    for (i, l) in lines {
        if l.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = l.split_whitespace().collect();
        if f.len() != 9 {
            return Err((i + 1, format!("expected 9 fields, found {}", f.len())));
        }
        let num = |k: usize| -> Result<f64, (usize, String)> {
            f[k].parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| {
                    (
                        i + 1,
                        format!("field {} is not a finite number: {:?}", k + 1, f[k]),
                    )
                })
        };
        out.push(MeshQuery {
            start: MeshPoint::new(num(4)?, num(5)?),
            goal: MeshPoint::new(num(6)?, num(7)?),
            line: i + 1,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_are_read_with_their_lines() {
        let q = parse_mesh_scenario("version 1\n\n0 a.mesh 0 0 0.5 1 2 3.25 9\n").unwrap();
        assert_eq!(q.len(), 1);
        assert_eq!(q[0].start, MeshPoint::new(0.5, 1.0));
        assert_eq!(q[0].goal, MeshPoint::new(2.0, 3.25));
        assert_eq!(q[0].line, 3);
    }

    #[test]
    fn malformed_scenarios_name_the_line() {
        assert_eq!(parse_mesh_scenario("0 a.mesh").unwrap_err().0, 1);
        let e = parse_mesh_scenario("version 1\n0 a.mesh 1 2 3\n").unwrap_err();
        assert_eq!(e, (2, "expected 9 fields, found 5".to_owned()));
        let e = parse_mesh_scenario("version 1\n0 a.mesh 0 0 0 inf 1 1 0\n").unwrap_err();
        assert_eq!(e.0, 2);
        assert!(e.1.contains("field 6 is not a finite number"), "{}", e.1);
    }
}
