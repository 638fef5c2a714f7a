//! MovingAI `.scen` scenario files: reading and writing, in every generation.

use std::path::Path;

use taut_geom::Point;

use crate::error::{GridError, ParseErrorKind, parse_err, read_file, write_file};

/// How a scenario file is laid out, detected on reading so that writing reproduces it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScenFormat {
    /// The text after `version` (`1` for the 2018 files, `1.0` for older ones).
    pub version: String,
    /// Whether fields are separated by tabs (2018 files) or single spaces (older files).
    pub tabs: bool,
    /// How the optimal length is written.
    pub lengths: LengthStyle,
}

/// How a scenario file writes its optimal lengths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LengthStyle {
    /// A fixed number of decimals (8 in the 2018 files, 2 in the old Warcraft III ones).
    Fixed(u8),
    /// At most this many significant digits, trailing zeros dropped (`1`, `3.41421`,
    /// `123.456`): C++ stream output, as in the older Dragon Age and room files.
    Significant(u8),
}

impl LengthStyle {
    /// How far a length written in this style may be from the exact value it stands for: one
    /// unit of its last written digit, at least `1e-4`, plus `1e-9` for floating-point noise.
    /// A whole unit, not half, because generators truncate rather than round (`401.76450198…`
    /// is written `401.764`), and at least `1e-4` because the 2018 files, though written with 8
    /// decimals, accumulate a rounded √2 (the arena file writes 43.1126983722… as
    /// `43.11269836`). Compare a computed octile length with a scenario's written one to this
    /// tolerance.
    pub fn tolerance(self, v: f64) -> f64 {
        let ulp = match self {
            LengthStyle::Fixed(d) => 10f64.powi(-i32::from(d)),
            LengthStyle::Significant(digits) => {
                let e = if v > 0.0 && v.is_finite() {
                    v.log10().floor() as i32
                } else {
                    0
                };
                10f64.powi(e + 1 - i32::from(digits))
            }
        };
        ulp.max(1e-4) + 1e-9
    }

    /// Formats a length in this style.
    pub fn format(self, v: f64) -> String {
        match self {
            LengthStyle::Fixed(d) => format!("{:.*}", usize::from(d), v),
            LengthStyle::Significant(digits) => {
                if v == 0.0 {
                    return "0".into();
                }
                let e = v.abs().log10().floor() as i32;
                let decimals = (i32::from(digits) - 1 - e).max(0) as usize;
                let s = format!("{v:.decimals$}");
                if s.contains('.') {
                    s.trim_end_matches('0').trim_end_matches('.').to_owned()
                } else {
                    s
                }
            }
        }
    }
}

impl Default for ScenFormat {
    /// The current (2018) generation: `version 1`, tabs, 8 decimals.
    fn default() -> Self {
        ScenFormat {
            version: "1".into(),
            tabs: true,
            lengths: LengthStyle::Fixed(8),
        }
    }
}

/// One query of a scenario file.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenEntry {
    /// Difficulty bucket.
    pub bucket: u32,
    /// The map path as written (a bare name or a relative path).
    pub map: String,
    /// Map width the scenario declares.
    pub width: u32,
    /// Map height the scenario declares.
    pub height: u32,
    /// Start point (a lattice point, the top-left corner of the start cell).
    pub start: Point,
    /// Goal point.
    pub goal: Point,
    /// The optimal 8-connected (octile) length, as written.
    pub octile: f64,
    /// 1-based line of the entry in its file.
    pub line: usize,
}

impl ScenEntry {
    /// The base name of the map (`maps/dao/arena.map` → `arena.map`), by which maps are resolved.
    pub fn map_base_name(&self) -> &str {
        self.map.rsplit(['/', '\\']).next().unwrap_or(&self.map)
    }
}

/// A parsed scenario file.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scenario {
    /// Layout detected on reading (or chosen for writing).
    pub format: ScenFormat,
    /// The queries, in file order; query index `i` is `entries[i]`.
    pub entries: Vec<ScenEntry>,
}

fn field<T: std::str::FromStr>(
    line: usize,
    text: &str,
    name: &'static str,
    expected: &'static str,
) -> Result<T, GridError> {
    text.parse().map_err(|_| {
        parse_err(
            line,
            ParseErrorKind::BadField {
                field: name,
                expected,
                found: text.into(),
            },
        )
    })
}

/// Whether `v` is a version number as scenario files write it: digits, optionally followed by
/// a dot and digits (`1`, `1.0`). `f64::from_str` would also take `inf`, `NaN` or `1e5`.
fn is_version(v: &str) -> bool {
    let (int, frac) = v.split_once('.').unwrap_or((v, "0"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(int) && digits(frac)
}

impl Scenario {
    /// Reads and parses a `.scen` file; errors name the file and line.
    pub fn read(path: impl AsRef<Path>) -> Result<Self, GridError> {
        let path = path.as_ref();
        Self::parse(&read_file(path)?).map_err(|e| e.with_path(path))
    }

    /// Parses the text of a `.scen` file of any generation.
    ///
    /// The first line is `version V`; each further non-blank line has 9 fields separated by
    /// tabs (if the line has a tab, so map names may contain spaces) or by white space.
    /// Coordinates must lie inside the width and height the line declares; whether an endpoint
    /// is blocked on the actual map is checked per query ([`crate::Grid::check_query`]), so one
    /// bad query does not stop the rest of the file from loading.
    pub fn parse(bytes: &[u8]) -> Result<Self, GridError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            parse_err(line, ParseErrorKind::NotText)
        })?;
        if text.trim().is_empty() {
            return Err(parse_err(0, ParseErrorKind::Empty));
        }
        let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l));
        let (n, head) = lines.next().unwrap_or((1, ""));
        let t: Vec<&str> = head.split_whitespace().collect();
        let version = match t.as_slice() {
            ["version", v] if is_version(v) => (*v).to_owned(),
            _ => {
                return Err(parse_err(
                    n,
                    ParseErrorKind::BadHeader {
                        expected: "version N",
                        found: head.trim().into(),
                    },
                ));
            }
        };
        let mut format = ScenFormat {
            version,
            tabs: true,
            lengths: LengthStyle::Fixed(8),
        };
        // Decimals of every length: all equal means Fixed, otherwise Significant(6).
        let mut decimals: Option<Option<usize>> = None;
        let mut uniform = true;
        let mut entries = Vec::new();
        for (n, line) in lines {
            if line.trim().is_empty() {
                continue;
            }
            let tabs = line.contains('\t');
            let fields: Vec<&str> = if tabs {
                line.trim_end_matches(['\r', ' ']).split('\t').collect()
            } else {
                line.split_whitespace().collect()
            };
            if fields.len() != 9 {
                return Err(parse_err(
                    n,
                    ParseErrorKind::FieldCount {
                        found: fields.len(),
                    },
                ));
            }
            let int = |i: usize, name| {
                let text = fields[i].trim();
                // Plain decimal digits only: `u32::from_str` would also take a leading `+`.
                if !text.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(parse_err(
                        n,
                        ParseErrorKind::BadField {
                            field: name,
                            expected: "a whole number",
                            found: text.into(),
                        },
                    ));
                }
                field::<u32>(n, text, name, "a whole number")
            };
            let bucket = int(0, "bucket")?;
            let width = int(2, "width")?;
            let height = int(3, "height")?;
            let coords = [
                (int(4, "start_x")?, width, "start_x"),
                (int(5, "start_y")?, height, "start_y"),
                (int(6, "goal_x")?, width, "goal_x"),
                (int(7, "goal_y")?, height, "goal_y"),
            ];
            for &(value, limit, name) in &coords {
                if value >= limit || value > crate::map::MAX_SIDE {
                    return Err(parse_err(
                        n,
                        ParseErrorKind::CoordinateOutOfRange {
                            field: name,
                            value,
                            limit,
                        },
                    ));
                }
            }
            let len_text = fields[8].trim();
            let octile: f64 = field(n, len_text, "optimal_length", "a number")?;
            if !octile.is_finite() || octile < 0.0 {
                return Err(parse_err(
                    n,
                    ParseErrorKind::BadField {
                        field: "optimal_length",
                        expected: "a finite non-negative number",
                        found: len_text.into(),
                    },
                ));
            }
            let d = len_text.split_once('.').map(|(_, d)| d.len());
            match decimals {
                None => {
                    format.tabs = tabs;
                    decimals = Some(d);
                }
                Some(prev) => uniform &= prev == d,
            }
            let c = |i: usize| coords[i].0 as i32;
            entries.push(ScenEntry {
                bucket,
                map: fields[1].trim().to_owned(),
                width,
                height,
                start: Point::new(c(0), c(1)),
                goal: Point::new(c(2), c(3)),
                octile,
                line: n,
            });
        }
        format.lengths = match decimals {
            // Every decimal written is kept, so that the text writes back the same: a tiny
            // length written in `Significant` style (`0.000000000000000000079`) has more
            // than 17 of them.
            Some(Some(d)) if uniform && d > 0 => {
                u8::try_from(d).map_or(LengthStyle::Significant(6), LengthStyle::Fixed)
            }
            _ => LengthStyle::Significant(6),
        };
        Ok(Scenario { format, entries })
    }

    /// The file text in this scenario's [`ScenFormat`].
    ///
    /// A space-separated format is written with tabs instead when some map name is empty or
    /// contains white space, which only tab separation can read back. (Map names containing a
    /// tab or a line end cannot be written faithfully at all.)
    pub fn to_text(&self) -> String {
        let f = &self.format;
        let needs_tabs = |m: &str| m.is_empty() || m.contains(char::is_whitespace);
        let tabs = f.tabs || self.entries.iter().any(|e| needs_tabs(&e.map));
        let sep = if tabs { "\t" } else { " " };
        let mut s = format!("version {}\n", f.version);
        for e in &self.entries {
            let len = f.lengths.format(e.octile);
            let row = [
                e.bucket.to_string(),
                e.map.clone(),
                e.width.to_string(),
                e.height.to_string(),
                e.start.x.to_string(),
                e.start.y.to_string(),
                e.goal.x.to_string(),
                e.goal.y.to_string(),
                len,
            ];
            s.push_str(&row.join(sep));
            s.push('\n');
        }
        s
    }

    /// Writes the scenario to `path`.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<(), GridError> {
        write_file(path.as_ref(), &self.to_text())
    }
}
