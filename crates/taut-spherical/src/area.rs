//! Keep-out areas: polygons read from GeoJSON, and the raster cells they touch.
//!
//! A request can close an area (a war zone, an emission control area) given as a GeoJSON
//! file. [`Area`] holds its polygons in longitude/latitude degrees; [`Area::cells`] lists every
//! cell of a `width × height` raster that the area touches, ready for
//! [`SphereGrid::with_closed`](crate::SphereGrid::with_closed).
//!
//! # What is read
//! A `Polygon`, a `MultiPolygon`, a `Feature` whose geometry is one of those (or a
//! `GeometryCollection` of them), a `FeatureCollection` of such features, or a
//! `GeometryCollection`. Any other geometry (`Point`, `LineString`, ...) is an error, and so
//! is an input with no polygon at all: a keep-out area is an area. A position is
//! `[longitude, latitude]` or `[longitude, latitude, altitude]` (the altitude is ignored). A
//! ring has at least 4 positions and its last position equals its first. Latitudes lie in
//! [-90, 90]; longitudes in [-540, 540] ([`MAX_ABS_LON`]), so rings may go beyond ±180.
//! Numbers are parsed from their text with correct rounding, so a vertex written as a grid
//! line's shortest decimal lies on that line; magnitudes below 1e-100 are read as 0 (this
//! keeps the predicates below exact). Collections nested more than 64 deep are refused.
//!
//! # Geometry
//! Edges are straight lines in the longitude/latitude plane (as in RFC 7946). The rings of a
//! polygon combine by the even-odd rule: a point is inside when an odd number of the
//! polygon's rings surround it, so a hole is a ring inside the exterior ring, and the
//! orientation of the rings does not matter. The polygons of a `MultiPolygon` or collection
//! are united.
//!
//! # The antimeridian
//! Longitude is read modulo 360: the raster is a cylinder, and a polygon given at longitudes
//! 170..190 covers the same cells as one at 170..180 plus one at -180..-170.
//! - RFC 7946 asks producers to split polygons at ±180. Split parts are read as they are: a
//!   part ending at longitude 180 touches the last column, and, since 180 and -180 are the
//!   same meridian, also column 0 (whose closed rectangle starts at -180). Likewise a part
//!   starting at -180 touches column 0 and the last column. A whole-Earth box from -180 to
//!   180 covers every cell.
//! - A ring that crosses the antimeridian without being split is unwrapped: each step between
//!   consecutive positions is taken as the one of at most 180° (170 → -170 is read as
//!   170 → 190). The one exception is a step between exactly -180 and 180 (in either
//!   order), which is taken as written: it runs along a whole parallel, as the split parts of
//!   a polar cap or of the whole Earth do.
//! - After unwrapping, a ring must come back to its starting longitude. A ring that goes once
//!   around a pole (longitude changes by 360 on the way round) is an error: it does not say on
//!   which side the area lies; split it at the antimeridian as RFC 7946 asks.
//!
//! # Touching
//! Cell (`row`, `col`) is the closed rectangle of latitudes `[Y(row+1), Y(row)]` and
//! longitudes `[X(col), X(col+1)]` (plus any multiple of 360), with the grid lines computed in
//! f64 as `X(k) = -180.0 + 360.0 * k / width` and `Y(i) = 90.0 - 180.0 * i / height` (exact
//! for the usual raster sizes). The area touches a cell when the closed rectangle meets the
//! closed area: it meets some ring edge (a cell whose side or corner lies on an edge counts),
//! or its centre is inside. So a box whose edge lies on a grid line touches the cells on both
//! sides of the line, and a cell strictly inside a hole is not touched. Every decision is
//! exact: vertices are compared with grid lines as numbers, and where an edge crosses a row
//! line, the crossing is placed among the column lines by an exact orientation test
//! (floating-point filter, then expansion arithmetic).
//!
//! # Cost
//! [`Area::cells`] walks each edge row by row, clipping it to each latitude strip it meets
//! (which gives the columns the boundary touches), then fills the cells between boundary
//! columns by the even-odd rule on the strip's middle latitude: a cell that no edge touches
//! lies wholly inside or wholly outside, and that scanline passes through its centre. Time
//! is O(rows spanned by the edges, times log of that, plus cells touched); a whole-Earth box
//! on a 1440 × 720 raster takes a few milliseconds.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::value::RawValue;
use thiserror::Error;

/// Longitudes outside [-`MAX_ABS_LON`, `MAX_ABS_LON`] are an error.
pub const MAX_ABS_LON: f64 = 540.0;

/// Coordinates smaller than this in magnitude are read as 0.
const TINY: f64 = 1e-100;

/// What went wrong reading a keep-out area. `at` is where in the document, as a path such as
/// `$.features[2].geometry.coordinates[0][5]`.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum AreaError {
    /// The file could not be read.
    #[error("cannot read area file {path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// The system's message.
        message: String,
    },
    /// A file was read but its content is not a valid area.
    #[error("area file {path}: {error}")]
    File {
        /// The file.
        path: String,
        /// What is wrong with its content.
        error: Box<AreaError>,
    },
    /// The text is not JSON.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// The JSON is not GeoJSON (no or unknown `type`, a missing member, a wrong shape).
    #[error("not GeoJSON at {at}: {what}")]
    NotGeoJson {
        /// Where.
        at: String,
        /// What is wrong.
        what: String,
    },
    /// A geometry that is not an area (a `Point`, a `LineString`, a null geometry ...).
    #[error("{at}: a keep-out area must be a Polygon or MultiPolygon, not {found}")]
    NotArea {
        /// Where.
        at: String,
        /// The geometry type found.
        found: String,
    },
    /// A position that is not two (or three) finite numbers.
    #[error("{at}: a position must be [longitude, latitude] with finite numbers, got {found}")]
    Coordinate {
        /// Where.
        at: String,
        /// The JSON found (shortened).
        found: String,
    },
    /// A latitude outside [-90, 90].
    #[error("{at}: latitude {lat} is outside [-90, 90]")]
    Latitude {
        /// Where.
        at: String,
        /// The latitude.
        lat: f64,
    },
    /// A longitude outside [-540, 540].
    #[error("{at}: longitude {lon} is outside [-540, 540]")]
    Longitude {
        /// Where.
        at: String,
        /// The longitude.
        lon: f64,
    },
    /// A ring with fewer than 4 positions.
    #[error("{at}: a ring needs at least 4 positions (the last equal to the first), got {count}")]
    ShortRing {
        /// Where.
        at: String,
        /// Positions given.
        count: usize,
    },
    /// A ring whose last position differs from its first.
    #[error("{at}: ring is not closed: it starts at {first:?} and ends at {last:?}")]
    NotClosed {
        /// Where.
        at: String,
        /// The first position, [lon, lat].
        first: [f64; 2],
        /// The last position, [lon, lat].
        last: [f64; 2],
    },
    /// A ring that goes once (or more) around a pole.
    #[error(
        "{at}: ring goes around a pole, so the side of the area is unclear; \
         split it at the antimeridian (RFC 7946, section 3.1.9)"
    )]
    AroundPole {
        /// Where.
        at: String,
    },
    /// No polygon at all.
    #[error("the area is empty: no polygon with a ring")]
    Empty,
}

/// A ring: closed (last position == first), longitudes unwrapped, `[lon, lat]` degrees.
type Ring = Vec<[f64; 2]>;

/// A keep-out area: one or more polygons with holes, in longitude/latitude degrees.
///
/// The module documentation states how it is read and which cells it touches.
///
/// # Example
/// ```
/// use taut_spherical::area::Area;
///
/// // A box from 10W to 10E and 0 to 20N, on a raster of 10-degree cells.
/// let area = Area::from_geojson_str(
///     r#"{"type": "Polygon", "coordinates": [[[-10, 0], [10, 0], [10, 20], [-10, 20], [-10, 0]]]}"#,
/// )
/// .unwrap();
/// let cells = area.cells(36, 18);
/// // The edges lie on grid lines, so each touches the cells on both sides: rows 6..=9
/// // (latitudes 20 and 0) and columns 16..=19 (longitudes -10 and 10).
/// assert_eq!(cells.len(), 4 * 4);
/// assert_eq!(cells[0], (6, 16));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Area {
    /// Polygons, each a list of rings (even-odd).
    polygons: Vec<Vec<Ring>>,
}

impl Area {
    /// Reads an area from GeoJSON text.
    ///
    /// # Errors
    /// An [`AreaError`] saying what is wrong and where; never a panic.
    pub fn from_geojson_str(text: &str) -> Result<Area, AreaError> {
        let value: &RawValue =
            serde_json::from_str(text).map_err(|e| AreaError::NotJson(e.to_string()))?;
        let mut polygons = Vec::new();
        read_object(value, "$", Expect::Any, 0, &mut polygons)?;
        if polygons.is_empty() {
            return Err(AreaError::Empty);
        }
        Ok(Area { polygons })
    }

    /// Reads an area from a GeoJSON file.
    ///
    /// # Errors
    /// [`AreaError::Io`] if the file cannot be read, [`AreaError::File`] (naming the file)
    /// if its content is not a valid area.
    pub fn read(path: impl AsRef<Path>) -> Result<Area, AreaError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| AreaError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Area::from_geojson_str(&text).map_err(|e| AreaError::File {
            path: path.display().to_string(),
            error: Box::new(e),
        })
    }

    /// Number of polygons (each with its holes).
    pub fn polygon_count(&self) -> usize {
        self.polygons.len()
    }

    /// The cells (row, col) of a `width × height` raster that the area touches, sorted and
    /// without duplicates; `col` is in `0..width`. Row 0 touches the North Pole, column 0
    /// starts at 180°W (the convention of [`SphereGrid`](crate::SphereGrid)). A cell is
    /// touched when its closed rectangle meets the closed area (see the module
    /// documentation). A raster with no cells gives no cells.
    pub fn cells(&self, width: u32, height: u32) -> Vec<(u32, u32)> {
        if width == 0 || height == 0 {
            return Vec::new();
        }
        let lines = Lines::new(width, height);
        let mut spans = Vec::new();
        let mut crossings = Vec::new();
        for (k, polygon) in self.polygons.iter().enumerate() {
            for ring in polygon {
                for e in ring.windows(2) {
                    lines.trace_edge(e[0], e[1], k as u32, &mut spans, &mut crossings);
                }
            }
        }
        spans.sort_unstable();
        crossings.sort_unstable();

        let w = i64::from(width);
        let mut out = Vec::new();
        let mut intervals: Vec<(u32, u32)> = Vec::new();
        let mut events: Vec<u32> = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < spans.len() || j < crossings.len() {
            let row = match (spans.get(i), crossings.get(j)) {
                (Some(s), Some(c)) => s.row.min(c.row),
                (Some(s), None) => s.row,
                (None, Some(c)) => c.row,
                (None, None) => unreachable!("the loop condition"),
            };
            intervals.clear();
            while let Some(s) = spans.get(i).filter(|s| s.row == row) {
                push_circular(&mut intervals, s.lo, s.hi, w);
                i += 1;
            }
            while let Some(first) = crossings.get(j).filter(|c| c.row == row) {
                let poly = first.poly;
                let start = j;
                while crossings
                    .get(j)
                    .is_some_and(|c| c.row == row && c.poly == poly)
                {
                    j += 1;
                }
                inside_intervals(&crossings[start..j], w, &mut events, &mut intervals);
            }
            intervals.sort_unstable();
            let mut next = 0u32; // first column not emitted yet in this row
            for &(a, b) in &intervals {
                let a = a.max(next);
                if a <= b {
                    out.extend((a..=b).map(|c| (row, c)));
                    next = b + 1;
                }
            }
        }
        out
    }
}

/// Columns `lo..=hi` (unwrapped) of row `row` touched by one edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Span {
    row: u32,
    lo: i64,
    hi: i64,
}

/// An edge of polygon `poly` crossing the middle latitude of row `row` inside unwrapped
/// column range `..=col` (the last column the edge touches in that row).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Crossing {
    row: u32,
    poly: u32,
    col: i64,
}

/// Adds unwrapped columns `lo..=hi` to `out` as intervals of `0..w`.
fn push_circular(out: &mut Vec<(u32, u32)>, lo: i64, hi: i64, w: i64) {
    let len = hi - lo + 1;
    if len >= w {
        out.push((0, (w - 1) as u32));
        return;
    }
    let s = lo.rem_euclid(w);
    let e = s + len - 1;
    if e < w {
        out.push((s as u32, e as u32));
    } else {
        out.push((s as u32, (w - 1) as u32));
        out.push((0, (e - w) as u32));
    }
}

/// The columns (modulo `w`) inside one polygon in one row, from its mid-latitude crossings
/// sorted by column, added to `out`.
///
/// An unwrapped column `u` that no edge touches is inside the plane polygon when an odd
/// number of crossings lie left of it, that is, when it lies in `(c1, c2]`, `(c3, c4]`, ...
/// for the sorted crossing columns `c1 <= c2 <= ...`. On the cylinder, column `c` is inside
/// when the number of its copies `c + k·w` that are inside is odd.
fn inside_intervals(cross: &[Crossing], w: i64, events: &mut Vec<u32>, out: &mut Vec<(u32, u32)>) {
    events.clear();
    let mut all = false; // parity added to every column
    for pair in cross.chunks_exact(2) {
        let (a, b) = (pair[0].col + 1, pair[1].col);
        if a > b {
            continue;
        }
        let len = b - a + 1;
        all ^= (len / w) % 2 == 1;
        let rem = len % w;
        if rem > 0 {
            let s = a.rem_euclid(w);
            if s + rem <= w {
                events.extend([s as u32, (s + rem) as u32]);
            } else {
                all = !all;
                events.extend([(s + rem - w) as u32, s as u32]);
            }
        }
    }
    events.sort_unstable();
    let (mut inside, mut pos) = (all, 0u32);
    for &e in events.iter() {
        if inside && e > pos {
            out.push((pos, e - 1));
        }
        inside = !inside;
        pos = e;
    }
    if inside && i64::from(pos) < w {
        out.push((pos, (w - 1) as u32));
    }
}

/// Where an abscissa lies among the column lines: `X(col) <= x < X(col + 1)`, and whether
/// `x == X(col)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct XPos {
    col: i64,
    on_line: bool,
}

impl XPos {
    /// The first column whose closed rectangle contains the abscissa.
    fn lo(self) -> i64 {
        self.col - i64::from(self.on_line)
    }
}

/// The grid lines of a `width × height` raster.
struct Lines {
    w: f64,
    h: f64,
    height: i64,
}

impl Lines {
    fn new(width: u32, height: u32) -> Self {
        Lines {
            w: f64::from(width),
            h: f64::from(height),
            height: i64::from(height),
        }
    }

    /// Longitude of column line `k` (unwrapped).
    fn x(&self, k: i64) -> f64 {
        -180.0 + 360.0 * k as f64 / self.w
    }

    /// Latitude of row line `i`.
    fn y(&self, i: i64) -> f64 {
        90.0 - 180.0 * i as f64 / self.h
    }

    /// The column of longitude `x`, exactly.
    fn col_of(&self, x: f64) -> XPos {
        let mut col = ((x + 180.0) * self.w / 360.0).floor() as i64;
        while self.x(col) > x {
            col -= 1;
        }
        while self.x(col + 1) <= x {
            col += 1;
        }
        XPos {
            col,
            on_line: self.x(col) == x,
        }
    }

    /// The rows whose closed strip contains latitude `y` in [-90, 90]: one row, or two when
    /// `y` is on a row line (one at a pole).
    fn rows_of(&self, y: f64) -> (i64, i64) {
        let mut i = (((90.0 - y) * self.h / 180.0).floor() as i64).clamp(0, self.height);
        while i > 0 && self.y(i) < y {
            i -= 1;
        }
        while i < self.height && self.y(i + 1) >= y {
            i += 1;
        }
        // Now Y(i) >= y > Y(i + 1), or y == Y(height).
        if self.y(i) == y {
            ((i - 1).max(0), i.min(self.height - 1))
        } else {
            (i, i)
        }
    }

    /// Where edge `p`–`q` (not horizontal) crosses latitude `y`, among the column lines.
    fn cross(&self, p: [f64; 2], q: [f64; 2], y: f64) -> XPos {
        if y == p[1] || p[0] == q[0] {
            return self.col_of(p[0]);
        }
        if y == q[1] {
            return self.col_of(q[0]);
        }
        let t = (y - p[1]) / (q[1] - p[1]);
        let est = (p[0] + t * (q[0] - p[0])).clamp(p[0].min(q[0]), p[0].max(q[0]));
        let mut col = ((est + 180.0) * self.w / 360.0).floor() as i64;
        // The sign of (crossing - X(k)): orient(p, q, (X(k), y)) is (q.y - p.y) times it.
        let up = q[1] > p[1];
        let sign = |k: i64| {
            let o = orient(p, q, [self.x(k), y]);
            if up { o } else { -o }
        };
        let mut here = sign(col);
        while here < 0 {
            col -= 1;
            here = sign(col);
        }
        loop {
            let next = sign(col + 1);
            if next < 0 {
                break;
            }
            col += 1;
            here = next;
        }
        XPos {
            col,
            on_line: here == 0,
        }
    }

    /// Adds the columns edge `p`–`q` touches in each row it meets to `spans`, and its
    /// crossings of the rows' middle latitudes (half-open rule) to `crossings`.
    fn trace_edge(
        &self,
        p: [f64; 2],
        q: [f64; 2],
        poly: u32,
        spans: &mut Vec<Span>,
        crossings: &mut Vec<Crossing>,
    ) {
        let (top, bottom) = if p[1] >= q[1] { (p, q) } else { (q, p) };
        let (first, _) = self.rows_of(top[1]);
        let (_, last) = self.rows_of(bottom[1]);
        if p[1] == q[1] {
            let (a, b) = (self.col_of(p[0]), self.col_of(q[0]));
            let (lo, hi) = (a.lo().min(b.lo()), a.col.max(b.col));
            for row in first..=last {
                spans.push(Span {
                    row: row as u32,
                    lo,
                    hi,
                });
            }
            return;
        }
        // Row `first` contains the top vertex: its clipped part starts there.
        let mut upper = self.col_of(top[0]);
        for row in first..=last {
            let line = self.y(row + 1);
            let lower = if bottom[1] >= line {
                self.col_of(bottom[0])
            } else {
                self.cross(p, q, line)
            };
            let lo = upper.lo().min(lower.lo());
            let hi = upper.col.max(lower.col);
            let row32 = row as u32;
            spans.push(Span { row: row32, lo, hi });
            let mid = 0.5 * (self.y(row) + line);
            if (p[1] > mid) != (q[1] > mid) {
                crossings.push(Crossing {
                    row: row32,
                    poly,
                    col: hi,
                });
            }
            upper = lower;
        }
    }
}

/// The sign of the orientation of `c` relative to `p`→`q`: `(q - p) × (c - p)`, positive
/// when `c` lies to the left. Exact for finite inputs whose products do not overflow or
/// underflow (Shewchuk's filter, then expansion arithmetic).
fn orient(p: [f64; 2], q: [f64; 2], c: [f64; 2]) -> i32 {
    let left = (q[0] - p[0]) * (c[1] - p[1]);
    let right = (q[1] - p[1]) * (c[0] - p[0]);
    let det = left - right;
    let sum = if left > 0.0 {
        if right <= 0.0 {
            return sign(det);
        }
        left + right
    } else if left < 0.0 {
        if right >= 0.0 {
            return sign(det);
        }
        -left - right
    } else {
        return sign(det);
    };
    // Shewchuk's ccwerrboundA: (3 + 16 eps) eps with eps = 2^-53.
    const BOUND: f64 = (3.0 + 16.0 * f64::EPSILON / 2.0) * f64::EPSILON / 2.0;
    if det.abs() >= BOUND * sum {
        return sign(det);
    }
    orient_exact(p, q, c)
}

fn sign(x: f64) -> i32 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// `a + b` as `(sum, error)`, exactly (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// `a * b` as `(product, error)`, exactly (fused multiply-add).
fn two_product(a: f64, b: f64) -> (f64, f64) {
    let p = a * b;
    (p, a.mul_add(b, -p))
}

/// The exact sign of `(q - p) × (c - p)`: each difference as two doubles, the 16 partial
/// products summed into a nonoverlapping expansion, whose largest component has the sign.
fn orient_exact(p: [f64; 2], q: [f64; 2], c: [f64; 2]) -> i32 {
    let a = two_sum(q[0], -p[0]);
    let b = two_sum(c[1], -p[1]);
    let d = two_sum(q[1], -p[1]);
    let e = two_sum(c[0], -p[0]);
    let mut exp = [0.0f64; 17];
    let mut len = 0usize;
    for (x, y, s) in [(a, b, 1.0), (d, e, -1.0)] {
        for xi in [x.0, x.1] {
            for yi in [y.0, y.1] {
                let (hi, lo) = two_product(xi, yi);
                grow(&mut exp, &mut len, s * lo);
                grow(&mut exp, &mut len, s * hi);
            }
        }
    }
    exp[..len]
        .iter()
        .rev()
        .find(|&&v| v != 0.0)
        .map_or(0, |&v| sign(v))
}

/// Adds `b` to the nonoverlapping expansion `e[..len]` (Shewchuk's Grow-Expansion with zero
/// elimination).
fn grow(e: &mut [f64; 17], len: &mut usize, b: f64) {
    let mut q = b;
    let mut out = 0;
    for i in 0..*len {
        let (s, err) = two_sum(q, e[i]);
        q = s;
        if err != 0.0 {
            e[out] = err;
            out += 1;
        }
    }
    if q != 0.0 || out == 0 {
        e[out] = q;
        out += 1;
    }
    *len = out;
}

/// What a GeoJSON object may be at a place in the document.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The top level: anything.
    Any,
    /// A member of a `FeatureCollection`: a `Feature`.
    Feature,
    /// A geometry: not a `Feature` or `FeatureCollection`.
    Geometry,
}

/// Collections nested deeper than this are refused (the walk is recursive).
const MAX_DEPTH: usize = 64;

/// A JSON value opened one level: members and items stay raw text, numbers are parsed from
/// their text with correct rounding (serde_json's own float parsing may be one unit off
/// in the last place for long decimals, which would move a vertex off a grid line).
enum Json<'a> {
    Object(BTreeMap<String, &'a RawValue>),
    Array(Vec<&'a RawValue>),
    Number(f64),
    String(String),
    /// `null`, `true` or `false`.
    Other,
}

fn open(raw: &RawValue) -> Result<Json<'_>, AreaError> {
    let text = raw.get();
    let bad = |e: serde_json::Error| AreaError::NotJson(e.to_string());
    Ok(match text.as_bytes().first() {
        Some(b'{') => Json::Object(serde_json::from_str(text).map_err(bad)?),
        Some(b'[') => Json::Array(serde_json::from_str(text).map_err(bad)?),
        Some(b'"') => Json::String(serde_json::from_str(text).map_err(bad)?),
        Some(b'-' | b'0'..=b'9') => Json::Number(
            text.parse()
                .map_err(|_| AreaError::NotJson(format!("bad number {text}")))?,
        ),
        _ => Json::Other,
    })
}

/// A JSON value for a message: whitespace collapsed, shortened to 60 characters.
fn show(raw: &RawValue) -> String {
    let s = raw.get().split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 60 {
        format!("{}...", s.chars().take(57).collect::<String>())
    } else {
        s
    }
}

fn not_geojson(at: &str, what: impl Into<String>) -> AreaError {
    AreaError::NotGeoJson {
        at: at.to_owned(),
        what: what.into(),
    }
}

fn member<'v>(
    obj: &BTreeMap<String, &'v RawValue>,
    key: &str,
    at: &str,
) -> Result<&'v RawValue, AreaError> {
    obj.get(key)
        .copied()
        .ok_or_else(|| not_geojson(at, format!("missing member \"{key}\"")))
}

fn array<'v>(v: &'v RawValue, at: &str, what: &str) -> Result<Vec<&'v RawValue>, AreaError> {
    match open(v)? {
        Json::Array(items) => Ok(items),
        _ => Err(not_geojson(
            at,
            format!("{what} must be an array, got {}", show(v)),
        )),
    }
}

/// Reads the GeoJSON object `v` at `at`, adding its polygons to `out`.
fn read_object(
    v: &RawValue,
    at: &str,
    expect: Expect,
    depth: usize,
    out: &mut Vec<Vec<Ring>>,
) -> Result<(), AreaError> {
    if depth > MAX_DEPTH {
        return Err(not_geojson(
            at,
            format!("collections nested more than {MAX_DEPTH} deep"),
        ));
    }
    let Json::Object(obj) = open(v)? else {
        return Err(not_geojson(
            at,
            format!("expected a GeoJSON object, got {}", show(v)),
        ));
    };
    let ty = member(&obj, "type", at)?;
    let Json::String(ty) = open(ty)? else {
        return Err(not_geojson(
            at,
            format!("\"type\" must be a string, got {}", show(ty)),
        ));
    };
    let ty = ty.as_str();
    let is_feature = matches!(ty, "Feature" | "FeatureCollection");
    if expect == Expect::Feature && ty != "Feature" {
        return Err(not_geojson(
            at,
            format!(
                "a FeatureCollection holds Features, not {}",
                ty.escape_debug()
            ),
        ));
    }
    if expect == Expect::Geometry && is_feature {
        return Err(not_geojson(at, format!("expected a geometry, got a {ty}")));
    }
    match ty {
        "Polygon" => {
            let at = format!("{at}.coordinates");
            if let Some(p) = read_polygon(member(&obj, "coordinates", &at)?, &at)? {
                out.push(p);
            }
        }
        "MultiPolygon" => {
            let at = format!("{at}.coordinates");
            let polygons = array(member(&obj, "coordinates", &at)?, &at, "coordinates")?;
            for (i, p) in polygons.into_iter().enumerate() {
                if let Some(p) = read_polygon(p, &format!("{at}[{i}]"))? {
                    out.push(p);
                }
            }
        }
        "GeometryCollection" => {
            let at = format!("{at}.geometries");
            let list = array(member(&obj, "geometries", &at)?, &at, "geometries")?;
            for (i, g) in list.into_iter().enumerate() {
                read_object(g, &format!("{at}[{i}]"), Expect::Geometry, depth + 1, out)?;
            }
        }
        "Feature" => {
            let at = format!("{at}.geometry");
            let g = member(&obj, "geometry", &at)?;
            if g.get() == "null" {
                return Err(AreaError::NotArea {
                    at,
                    found: "a null geometry".into(),
                });
            }
            read_object(g, &at, Expect::Geometry, depth + 1, out)?;
        }
        "FeatureCollection" => {
            let at = format!("{at}.features");
            let list = array(member(&obj, "features", &at)?, &at, "features")?;
            for (i, f) in list.into_iter().enumerate() {
                read_object(f, &format!("{at}[{i}]"), Expect::Feature, depth + 1, out)?;
            }
        }
        "Point" | "MultiPoint" | "LineString" | "MultiLineString" => {
            return Err(AreaError::NotArea {
                at: at.to_owned(),
                found: format!("a {ty}"),
            });
        }
        _ => {
            return Err(not_geojson(
                at,
                format!("unknown type \"{}\"", ty.escape_debug()),
            ));
        }
    }
    Ok(())
}

/// Reads a polygon's coordinates (a list of rings); `None` for an empty list.
fn read_polygon(v: &RawValue, at: &str) -> Result<Option<Vec<Ring>>, AreaError> {
    let rings = array(v, at, "a polygon's coordinates")?;
    let mut out = Vec::with_capacity(rings.len());
    for (i, r) in rings.into_iter().enumerate() {
        out.push(read_ring(r, &format!("{at}[{i}]"))?);
    }
    Ok((!out.is_empty()).then_some(out))
}

/// Reads one position `[lon, lat]` or `[lon, lat, alt]`.
fn read_position(v: &RawValue, at: &str) -> Result<[f64; 2], AreaError> {
    let bad = || AreaError::Coordinate {
        at: at.to_owned(),
        found: show(v),
    };
    let Json::Array(items) = open(v)? else {
        return Err(bad());
    };
    if !(2..=3).contains(&items.len()) {
        return Err(bad());
    }
    let mut xs = [0.0; 3];
    for (x, item) in xs.iter_mut().zip(items) {
        match open(item)? {
            Json::Number(n) if n.is_finite() => *x = n,
            _ => return Err(bad()),
        }
    }
    let flush = |x: f64| if x.abs() < TINY { 0.0 } else { x };
    let (lon, lat) = (flush(xs[0]), flush(xs[1]));
    if !(-90.0..=90.0).contains(&lat) {
        return Err(AreaError::Latitude {
            at: at.to_owned(),
            lat,
        });
    }
    if !(-MAX_ABS_LON..=MAX_ABS_LON).contains(&lon) {
        return Err(AreaError::Longitude {
            at: at.to_owned(),
            lon,
        });
    }
    Ok([lon, lat])
}

/// Reads a ring, checks it is closed, and unwraps its longitudes.
fn read_ring(v: &RawValue, at: &str) -> Result<Ring, AreaError> {
    let positions = array(v, at, "a ring")?;
    if positions.len() < 4 {
        return Err(AreaError::ShortRing {
            at: at.to_owned(),
            count: positions.len(),
        });
    }
    let mut ring = Vec::with_capacity(positions.len());
    for (i, p) in positions.into_iter().enumerate() {
        ring.push(read_position(p, &format!("{at}[{i}]"))?);
    }
    let (first, last) = (ring[0], ring[ring.len() - 1]);
    if first != last {
        return Err(AreaError::NotClosed {
            at: at.to_owned(),
            first,
            last,
        });
    }
    if unwrap_ring(&mut ring) != 0 {
        return Err(AreaError::AroundPole { at: at.to_owned() });
    }
    Ok(ring)
}

/// Unwraps the longitudes of a ring in place: each position's longitude is shifted by a
/// multiple of 360 so that it differs from the previous (shifted) one by at most 180, except
/// that a step between exactly -180 and 180 is kept. Returns the shift of the last position
/// in turns (0 for a ring that comes back to where it started).
fn unwrap_ring(ring: &mut [[f64; 2]]) -> i64 {
    let mut turns = 0i64;
    let Some(&[mut prev_raw, _]) = ring.first() else {
        return 0;
    };
    for position in ring.iter_mut().skip(1) {
        let raw = position[0];
        let seam = (prev_raw == -180.0 && raw == 180.0) || (prev_raw == 180.0 && raw == -180.0);
        if !seam {
            let mut d = raw - prev_raw;
            while d > 180.0 {
                d -= 360.0;
                turns -= 1;
            }
            while d < -180.0 {
                d += 360.0;
                turns += 1;
            }
        }
        if turns != 0 {
            position[0] = raw + 360.0 * turns as f64;
        }
        prev_raw = raw;
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The orientation of integer points by exact i128 arithmetic.
    fn orient_i(p: [i64; 2], q: [i64; 2], c: [i64; 2]) -> i32 {
        let det = i128::from(q[0] - p[0]) * i128::from(c[1] - p[1])
            - i128::from(q[1] - p[1]) * i128::from(c[0] - p[0]);
        det.signum() as i32
    }

    #[test]
    fn area_orient_is_exact_on_nearly_collinear_points() {
        // q - p = (u, v) and c - p = (u + dx, v + dy) with u, v about 2^31: the exact
        // determinant u·dy - v·dx is a few units, the products about 2^62, so the float
        // determinant is mostly rounding and the filter must hand over to the exact sum.
        let (u, v) = ((1i64 << 31) + 1, 1i64 << 31);
        let mut naive_wrong = 0;
        for (px, py) in [(0i64, 0i64), (-12_345, 678), (1 << 33, -(1 << 32))] {
            for dx in -3..=3i64 {
                for dy in -3..=3i64 {
                    let p = [px, py];
                    let q = [px + u, py + v];
                    let c = [px + u + dx, py + v + dy];
                    let f = |v: [i64; 2]| [v[0] as f64 / 1024.0, v[1] as f64 / 1024.0];
                    let want = orient_i(p, q, c);
                    assert_eq!(orient(f(p), f(q), f(c)), want, "{px} {py} {dx} {dy}");
                    assert_eq!(orient_exact(f(p), f(q), f(c)), want);
                    let (fp, fq, fc) = (f(p), f(q), f(c));
                    let naive =
                        (fq[0] - fp[0]) * (fc[1] - fp[1]) - (fq[1] - fp[1]) * (fc[0] - fp[0]);
                    naive_wrong += usize::from(sign(naive) != want);
                }
            }
        }
        // The naive float sign is wrong somewhere, so the cases do test the exact path.
        assert!(naive_wrong > 0);
    }

    #[test]
    fn area_orient_exact_agrees_with_i128_on_random_points() {
        // A small LCG: the points are random 40-bit integers divided by 2^20.
        let mut s = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            s = s
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((s >> 24) as i64 & ((1 << 40) - 1)) - (1 << 39)
        };
        for _ in 0..20_000 {
            let p = [next(), next()];
            let q = [next(), next()];
            // c near the line through p and q half of the time.
            let mut c = [next(), next()];
            if c[0] & 1 == 0 && q[0] != p[0] {
                let t = (c[0] - p[0]) as f64 / (q[0] - p[0]) as f64;
                c[1] = p[1] + (t * (q[1] - p[1]) as f64) as i64 + (next() % 3);
            }
            let f = |v: [i64; 2]| [v[0] as f64 / 1048576.0, v[1] as f64 / 1048576.0];
            assert_eq!(orient_exact(f(p), f(q), f(c)), orient_i(p, q, c));
            assert_eq!(orient(f(p), f(q), f(c)), orient_i(p, q, c));
        }
    }

    #[test]
    fn area_col_of_and_rows_of_place_points_on_lines() {
        let l = Lines::new(36, 18);
        assert_eq!(
            l.col_of(-180.0),
            XPos {
                col: 0,
                on_line: true
            }
        );
        assert_eq!(
            l.col_of(-175.0),
            XPos {
                col: 0,
                on_line: false
            }
        );
        assert_eq!(
            l.col_of(180.0),
            XPos {
                col: 36,
                on_line: true
            }
        );
        assert_eq!(
            l.col_of(190.0),
            XPos {
                col: 37,
                on_line: true
            }
        );
        assert_eq!(
            l.col_of(-185.0),
            XPos {
                col: -1,
                on_line: false
            }
        );
        assert_eq!(l.rows_of(90.0), (0, 0));
        assert_eq!(l.rows_of(85.0), (0, 0));
        assert_eq!(l.rows_of(80.0), (0, 1));
        assert_eq!(l.rows_of(0.0), (8, 9));
        assert_eq!(l.rows_of(-90.0), (17, 17));
        // A width whose lines are not exact in binary: the line itself is "on".
        let l = Lines::new(7, 3);
        for k in -7..15 {
            assert_eq!(
                l.col_of(l.x(k)),
                XPos {
                    col: k,
                    on_line: true
                }
            );
            let just_below = l.x(k).next_down();
            assert_eq!(
                l.col_of(just_below),
                XPos {
                    col: k - 1,
                    on_line: false
                }
            );
        }
    }

    #[test]
    fn area_cross_is_exact_through_grid_corners() {
        // The diagonal of the whole raster passes through grid corners; a slightly steeper
        // line through none.
        let l = Lines::new(36, 18);
        // From (-180, -90) to (180, 90): crosses row line Y(i) at longitude 2·Y(i).
        for i in 1..18 {
            let got = l.cross([-180.0, -90.0], [180.0, 90.0], l.y(i));
            let x = 2.0 * l.y(i);
            assert_eq!(got, l.col_of(x), "line {i}");
            assert!(
                got.on_line,
                "line {i}: 2·Y(i) is a multiple of 20, so a column line"
            );
        }
        // A line through no corner: never on a line.
        let got = l.cross([-180.0, -90.0], [181.0, 90.0], 0.0);
        assert_eq!(
            got,
            XPos {
                col: 18,
                on_line: false
            }
        );
    }

    #[test]
    fn area_unwrap_ring_steps_and_seam() {
        let mut r = vec![
            [170.0, 0.0],
            [-170.0, 0.0],
            [-170.0, 5.0],
            [170.0, 5.0],
            [170.0, 0.0],
        ];
        assert_eq!(unwrap_ring(&mut r), 0);
        assert_eq!(r[1], [190.0, 0.0]);
        assert_eq!(r[2], [190.0, 5.0]);
        assert_eq!(r[3], [170.0, 5.0]);
        let mut r = vec![
            [-180.0, 60.0],
            [180.0, 60.0],
            [180.0, 90.0],
            [-180.0, 90.0],
            [-180.0, 60.0],
        ];
        let before = r.clone();
        assert_eq!(unwrap_ring(&mut r), 0);
        assert_eq!(r, before);
        // Around the pole: 0, 120, 240 (= -120), 360 (= 0).
        let mut r = vec![[0.0, 80.0], [120.0, 80.0], [-120.0, 80.0], [0.0, 80.0]];
        assert_eq!(unwrap_ring(&mut r), 1);
    }

    #[test]
    fn area_inside_intervals_wrap() {
        let c = |col| Crossing {
            row: 0,
            poly: 0,
            col,
        };
        let mut ev = Vec::new();
        let mut out = Vec::new();
        // Inside unwrapped 6..=12 on width 10: columns 6..9 and 0..2.
        inside_intervals(&[c(5), c(12)], 10, &mut ev, &mut out);
        out.sort_unstable();
        assert_eq!(out, vec![(0, 2), (6, 9)]);
        // Inside 1..=20 (20 columns): each residue twice: nothing.
        out.clear();
        inside_intervals(&[c(0), c(20)], 10, &mut ev, &mut out);
        assert_eq!(out, vec![]);
        // Inside 1..=21: residue 1 three times, the others twice.
        out.clear();
        inside_intervals(&[c(0), c(21)], 10, &mut ev, &mut out);
        assert_eq!(out, vec![(1, 1)]);
    }
}
