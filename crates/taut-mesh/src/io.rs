//! Reading and writing the Polyanya "mesh 2" text format.
//!
//! Tokens are separated by any whitespace: `mesh 2`, the vertex count V and polygon count P;
//! then V vertices `x y n p1 … pn` (the polygons around the vertex counter-clockwise, -1 for a
//! gap); then P polygons `n v1 … vn a1 … an` (vertices counter-clockwise; `ai` is the polygon
//! across the edge from `v(i-1)` to `vi`, -1 for an obstacle). `docs/polyanya.md` has an
//! example.

use std::fmt::Write as _;
use std::path::Path;

use crate::error::{MeshError, ParseErrorKind};
use crate::geom::MeshPoint;
use crate::mesh::{Mesh, PolygonRecord};

struct Tokens<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
}

impl<'a> Tokens<'a> {
    fn next(&mut self) -> Option<(&'a str, usize)> {
        let bytes = self.text.as_bytes();
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            if bytes[self.pos] == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
        if self.pos == bytes.len() {
            return None;
        }
        let start = self.pos;
        while self.pos < bytes.len() && !bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        Some((&self.text[start..self.pos], self.line))
    }

    fn parse<T: std::str::FromStr>(&mut self, expected: &'static str) -> Result<T, MeshError> {
        self.parse_at(expected).map(|(v, _)| v)
    }

    /// The next token as a `T`, and its line.
    fn parse_at<T: std::str::FromStr>(
        &mut self,
        expected: &'static str,
    ) -> Result<(T, usize), MeshError> {
        match self.next() {
            None => Err(MeshError::Parse {
                line: self.line,
                kind: ParseErrorKind::Truncated(expected),
            }),
            Some((tok, line)) => tok
                .parse()
                .map(|v| (v, line))
                .map_err(|_| MeshError::Parse {
                    line,
                    kind: ParseErrorKind::BadNumber {
                        expected,
                        found: tok.chars().take(40).collect(),
                    },
                }),
        }
    }

    fn count(&mut self, expected: &'static str, limit: usize) -> Result<usize, MeshError> {
        let (n, line): (usize, usize) = self.parse_at(expected)?;
        // A count larger than what the text could hold is a corrupt header; refusing
        // it here keeps a hostile file from making us allocate gigabytes.
        if n > limit {
            return Err(MeshError::Parse {
                line,
                kind: ParseErrorKind::BadNumber {
                    expected,
                    found: n.to_string(),
                },
            });
        }
        Ok(n)
    }
}

/// Parses a "mesh 2" text and validates the mesh ([`Mesh::from_parts`]).
///
/// # Errors
/// [`MeshError::Parse`] with the line of a malformed or missing token, or the validation error.
pub fn parse_mesh(text: &str) -> Result<Mesh, MeshError> {
    let mut t = Tokens {
        text,
        pos: 0,
        line: 1,
    };
    let head = t.next();
    let version = t.next();
    match (head, version) {
        (Some(("mesh", _)), Some(("2", _))) => {}
        (h, v) => {
            let found = [h.map(|x| x.0), v.map(|x| x.0)]
                .iter()
                .flatten()
                .copied()
                .collect::<Vec<_>>()
                .join(" ");
            return Err(MeshError::Parse {
                line: h.map_or(1, |x| x.1),
                kind: ParseErrorKind::BadHeader(found.chars().take(40).collect()),
            });
        }
    }
    // Every record takes at least two bytes per token; bound counts by the text's length.
    let limit = text.len() / 2 + 1;
    let nv = t.count("vertex count", limit)?;
    let np = t.count("polygon count", limit)?;
    let mut points = Vec::with_capacity(nv);
    let mut lists = Vec::with_capacity(nv);
    for _ in 0..nv {
        let x: f64 = t.parse("x coordinate")?;
        let y: f64 = t.parse("y coordinate")?;
        let n = t.count("number of polygons around a vertex", limit)?;
        let mut l = Vec::with_capacity(n);
        for _ in 0..n {
            l.push(t.parse::<i32>("polygon index")?);
        }
        points.push(MeshPoint::new(x, y));
        lists.push(l);
    }
    let mut polygons = Vec::with_capacity(np);
    for _ in 0..np {
        let n = t.count("number of vertices of a polygon", limit)?;
        let mut vertices = Vec::with_capacity(n);
        for _ in 0..n {
            let (v, line): (i64, usize) = t.parse_at("vertex index")?;
            let v = u32::try_from(v).map_err(|_| MeshError::Parse {
                line,
                kind: ParseErrorKind::BadNumber {
                    expected: "vertex index",
                    found: v.to_string(),
                },
            })?;
            vertices.push(v);
        }
        let mut file_adj = Vec::with_capacity(n);
        for _ in 0..n {
            file_adj.push(t.parse::<i32>("polygon index")?);
        }
        // File: a_i is across v(i-1) -> v(i). Internal: adjacent[i] across v(i) -> v(i+1).
        let adjacent = (0..n).map(|i| file_adj[(i + 1) % n]).collect();
        polygons.push(PolygonRecord { vertices, adjacent });
    }
    if let Some((tok, line)) = t.next() {
        return Err(MeshError::Parse {
            line,
            kind: ParseErrorKind::TrailingData(tok.chars().take(40).collect()),
        });
    }
    Mesh::from_parts(points, lists, polygons)
}

/// Reads and validates a "mesh 2" file.
///
/// # Errors
/// [`MeshError::Io`] when the file cannot be read, otherwise [`MeshError::InFile`] wrapping
/// the error of [`parse_mesh`], or [`ParseErrorKind::NotText`] (with the line of the first
/// byte that is not UTF-8) for a file that is not text.
pub fn read_mesh(path: &Path) -> Result<Mesh, MeshError> {
    let bytes = std::fs::read(path).map_err(|e| MeshError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    let in_file = |e| MeshError::InFile {
        path: path.to_owned(),
        source: Box::new(e),
    };
    let text = match std::str::from_utf8(&bytes) {
        Ok(text) => text,
        Err(e) => {
            // Not an I/O failure: the file was read, but it is not a "mesh 2" text.
            let bad = e.valid_up_to();
            let line = 1 + bytes[..bad].iter().filter(|&&b| b == b'\n').count();
            return Err(in_file(MeshError::Parse {
                line,
                kind: ParseErrorKind::NotText,
            }));
        }
    };
    parse_mesh(text).map_err(in_file)
}

/// Formats a mesh in the "mesh 2" format. Coordinates are written in Rust's shortest
/// round-trip form, so [`parse_mesh`] reads back an identical mesh.
pub fn format_mesh(mesh: &Mesh) -> String {
    let mut s = String::with_capacity(32 * (mesh.vertex_count() + mesh.polygon_count()));
    let _ = writeln!(
        s,
        "mesh\n2\n{} {}",
        mesh.vertex_count(),
        mesh.polygon_count()
    );
    for v in 0..mesh.vertex_count() as u32 {
        let p = mesh.point(v);
        let l = mesh.vertex_polygons(v);
        let _ = write!(s, "{} {} {}", p.x, p.y, l.len());
        for q in l {
            let _ = write!(s, " {q}");
        }
        s.push('\n');
    }
    for p in 0..mesh.polygon_count() as u32 {
        let vs = mesh.poly_vertices(p);
        let adj = mesh.poly_adjacent(p);
        let n = vs.len();
        let _ = write!(s, "{n}");
        for v in vs {
            let _ = write!(s, " {v}");
        }
        for i in 0..n {
            let _ = write!(s, " {}", adj[(i + n - 1) % n]);
        }
        s.push('\n');
    }
    s
}

/// Writes a mesh to a file in the "mesh 2" format.
///
/// # Errors
/// [`MeshError::Io`] when the file cannot be written.
pub fn write_mesh(mesh: &Mesh, path: &Path) -> Result<(), MeshError> {
    std::fs::write(path, format_mesh(mesh)).map_err(|e| MeshError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Errors about a count or a vertex index name the line of that token, also when it is
    /// the first token of its line (the line of the previous token was reported).
    #[test]
    fn errors_name_the_line_of_the_offending_token() {
        let bad = |text: &str| match parse_mesh(text) {
            Err(MeshError::Parse { line, .. }) => line,
            r => panic!("{text:?}: {r:?}"),
        };
        assert_eq!(bad("mesh 2\n4000000000 1\n"), 2);
        assert_eq!(bad("mesh 2\n3 1\n0 0\n4000000000"), 4);
        assert_eq!(
            bad("mesh 2 3 1\n0 0 1 0\n1 0 1 0\n0 1 1 0\n3 0 1\n-2 -1 -1 -1"),
            6
        );
        assert_eq!(
            bad("mesh 2 3 1\n0 0 1 0\n1 0 1 0\n0 1 1 0\n\n99999 0 1 2"),
            6
        );
    }
}
