//! MovingAI `.map` files: reading and writing.

use std::path::Path;

use crate::error::{GridError, ParseErrorKind, parse_err, read_file, write_file};
use crate::terrain::MOVINGAI_ALPHABET;

/// Largest accepted width or height: the exact geometry of `taut-geom` is proven up to 2^20.
pub const MAX_SIDE: u32 = (1 << 20) - 2;

/// A MovingAI map as written in its file: dimensions and one terrain character per cell.
///
/// This is the file model (it keeps the terrain characters so the map can be written back);
/// planners use the compact [`crate::Grid`] built from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MapFile {
    width: u32,
    height: u32,
    /// Row-major terrain characters, `height * width` of them.
    tiles: Vec<u8>,
}

impl MapFile {
    /// A map from row-major terrain characters, validated like a parsed file (the error's
    /// line is the 1-based row, counted from the first map row).
    pub fn new(width: u32, height: u32, tiles: Vec<u8>) -> Result<Self, GridError> {
        for (field, v) in [("width", width), ("height", height)] {
            if !(1..=MAX_SIDE).contains(&v) {
                let kind = ParseErrorKind::BadDimension {
                    field,
                    found: v.to_string(),
                    max: MAX_SIDE,
                };
                return Err(parse_err(0, kind));
            }
        }
        if tiles.len() as u64 != u64::from(width) * u64::from(height) {
            let found = (tiles.len() / width as usize) as u32;
            return Err(parse_err(
                0,
                ParseErrorKind::Truncated {
                    expected: height,
                    found,
                },
            ));
        }
        if let Some(i) = tiles.iter().position(|c| !MOVINGAI_ALPHABET.contains(c)) {
            let b = tiles[i];
            let ch = if b.is_ascii() {
                char::from(b)
            } else {
                char::REPLACEMENT_CHARACTER
            };
            let column = i % width as usize;
            return Err(parse_err(
                i / width as usize + 1,
                ParseErrorKind::UnknownTerrain { ch, column },
            ));
        }
        Ok(MapFile {
            width,
            height,
            tiles,
        })
    }

    /// A map from text rows such as `["..@", "..."]` (test and example helper).
    pub fn from_rows(rows: &[&str]) -> Result<Self, GridError> {
        let width = rows.first().map_or(0, |r| r.len()) as u32;
        if let Some((i, r)) = rows
            .iter()
            .enumerate()
            .find(|(_, r)| r.len() != width as usize)
        {
            return Err(parse_err(
                i + 1,
                ParseErrorKind::RowWidth {
                    expected: width,
                    found: r.len(),
                },
            ));
        }
        Self::new(width, rows.len() as u32, rows.concat().into_bytes())
    }

    /// Map width in cells.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Map height in cells.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The terrain character of cell `(x, y)`, or `None` off the map.
    pub fn tile(&self, x: u32, y: u32) -> Option<u8> {
        (x < self.width && y < self.height)
            .then(|| self.tiles[y as usize * self.width as usize + x as usize])
    }

    /// All terrain characters, row-major.
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Reads and parses a `.map` file; errors name the file and line.
    pub fn read(path: impl AsRef<Path>) -> Result<Self, GridError> {
        let path = path.as_ref();
        Self::parse(&read_file(path)?).map_err(|e| e.with_path(path))
    }

    /// Parses the text of a `.map` file.
    ///
    /// Accepts LF and CRLF line ends, a missing final newline, trailing blank lines, and the
    /// `height`/`width` lines in either order. Rejects anything else with a typed error whose
    /// line does not depend on whether the file ends with a newline. Rows are checked for
    /// unknown characters before their width, and grow the map as they arrive: a huge declared
    /// size over a short body fails without allocating the declared size.
    pub fn parse(bytes: &[u8]) -> Result<Self, GridError> {
        if bytes.iter().all(|b| b.is_ascii_whitespace()) {
            return Err(parse_err(0, ParseErrorKind::Empty));
        }
        // Drop one final line end so that "a\nb\n" and "a\nb" have the same two lines: line
        // numbers in errors at the end of the file must not depend on the final newline.
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        let mut lines = body
            .split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
            .enumerate()
            .map(|(i, l)| (i + 1, l));
        // Line number of the last header line read, to name the line where the file ended.
        let mut header_line = 0;
        let mut next_header = |expected: &'static str| -> Result<(usize, Vec<String>), GridError> {
            match lines.next() {
                Some((n, l)) => {
                    header_line = n;
                    let text = std::str::from_utf8(l)
                        .map_err(|_| parse_err(n, ParseErrorKind::NotText))?;
                    Ok((n, text.split_whitespace().map(str::to_owned).collect()))
                }
                None => Err(parse_err(
                    header_line + 1,
                    ParseErrorKind::BadHeader {
                        expected,
                        found: "end of file".into(),
                    },
                )),
            }
        };
        let (n, t) = next_header("type octile")?;
        if t.len() != 2 || t[0] != "type" || t[1] != "octile" {
            return Err(parse_err(
                n,
                ParseErrorKind::BadHeader {
                    expected: "type octile",
                    found: t.join(" "),
                },
            ));
        }
        let mut height = None;
        let mut width = None;
        for _ in 0..2 {
            let (n, t) = next_header("height H / width W")?;
            let field = match t.first().map(String::as_str) {
                Some("height") if height.is_none() => "height",
                Some("width") if width.is_none() => "width",
                _ => {
                    return Err(parse_err(
                        n,
                        ParseErrorKind::BadHeader {
                            expected: "height H / width W",
                            found: t.join(" "),
                        },
                    ));
                }
            };
            let found = t.get(1..).map(|r| r.join(" ")).unwrap_or_default();
            // Plain decimal digits only: `u32::from_str` would also take a leading `+`.
            let digits = !found.is_empty() && found.bytes().all(|b| b.is_ascii_digit());
            let value = match (t.len(), digits, found.parse::<u32>()) {
                (2, true, Ok(v)) if (1..=MAX_SIDE).contains(&v) => v,
                _ => {
                    return Err(parse_err(
                        n,
                        ParseErrorKind::BadDimension {
                            field,
                            found,
                            max: MAX_SIDE,
                        },
                    ));
                }
            };
            if field == "height" {
                height = Some(value);
            } else {
                width = Some(value);
            }
        }
        let (Some(height), Some(width)) = (height, width) else {
            unreachable!("both header fields were read")
        };
        let (n, t) = next_header("map")?;
        if t.len() != 1 || t[0] != "map" {
            return Err(parse_err(
                n,
                ParseErrorKind::BadHeader {
                    expected: "map",
                    found: t.join(" "),
                },
            ));
        }
        // Reserve what the header declares, but never more than the bytes left could fill:
        // a huge header over a short body fails before allocating, and a real map is read
        // without the doubling reallocations that held 2.5 bytes per cell at the peak on a
        // 10^8-cell map (crates/taut-hardening/tests/scale.rs).
        let map_line = n;
        let declared = u64::from(width) * u64::from(height);
        let mut tiles = Vec::with_capacity(declared.min(bytes.len() as u64) as usize);
        let mut rows = 0u32;
        // The line where the first missing row would be: independent of a final newline.
        let truncated = |rows: u32| {
            parse_err(
                map_line + rows as usize + 1,
                ParseErrorKind::Truncated {
                    expected: height,
                    found: rows,
                },
            )
        };
        for (n, line) in lines {
            if rows == height {
                if line.iter().all(|b| b.is_ascii_whitespace()) {
                    continue;
                }
                return Err(parse_err(
                    n,
                    ParseErrorKind::TooManyRows { expected: height },
                ));
            }
            if line.is_empty() {
                // A blank line inside the grid: the body ended early.
                return Err(truncated(rows));
            }
            // The alphabet first: a multi-byte character or a stray space also makes the row
            // the wrong length, but naming the character is the more useful report.
            if let Some(column) = line.iter().position(|c| !MOVINGAI_ALPHABET.contains(c)) {
                let ch = String::from_utf8_lossy(&line[column..])
                    .chars()
                    .next()
                    .unwrap_or(char::REPLACEMENT_CHARACTER);
                return Err(parse_err(n, ParseErrorKind::UnknownTerrain { ch, column }));
            }
            if line.len() != width as usize {
                return Err(parse_err(
                    n,
                    ParseErrorKind::RowWidth {
                        expected: width,
                        found: line.len(),
                    },
                ));
            }
            tiles.extend_from_slice(line);
            rows += 1;
        }
        if rows < height {
            return Err(truncated(rows));
        }
        Ok(MapFile {
            width,
            height,
            tiles,
        })
    }

    /// The file text: `type octile`, `height`, `width`, `map`, then one line per row (LF ends).
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(self.tiles.len() + self.height as usize + 48);
        s.push_str(&format!(
            "type octile\nheight {}\nwidth {}\nmap\n",
            self.height, self.width
        ));
        for row in self.tiles.chunks(self.width as usize) {
            // The alphabet is ASCII, checked on construction by parse (or trusted by new).
            s.extend(row.iter().map(|&b| char::from(b)));
            s.push('\n');
        }
        s
    }

    /// Writes the map to `path`.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), GridError> {
        write_file(path.as_ref(), &self.to_text())
    }
}
