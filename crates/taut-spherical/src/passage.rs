//! Named passages (canals and straits) that a request can close, and that a route reports.
//!
//! The shared Earth rasters come in two kinds: a base raster, land wherever the land mask says
//! so, and a `_nav` raster with twelve canals and straits opened (Suez, Panama, ...). The
//! cells that differ are the passages. [`derive()`] finds them: every cell that is sea in the
//! `_nav` raster and land in the base raster goes to the nearest point of
//! `data/passage-anchors.csv`. A strait that is already open water in the base raster at some
//! resolution (Dover and Hormuz everywhere, Gibraltar at 0.25°) opens no cell there; for those
//! the anchors give a *gate*, a segment across the strait from land to land, and the passage is
//! the gate's sea cells. The result for the three shared resolutions is `data/passages.csv`,
//! embedded in the library ([`Passages::for_grid`]); `cargo xtask passages` writes it again.
//!
//! The *ice gates* ([`ice_gates`], `data/ice-gates.csv`) are passages of another kind: Arctic
//! waters drawn as latitude/longitude boxes, on every raster of 1° cells or finer, and closed
//! unless a request allows them ([`Passages::resolve`]), since the rasters have no sea ice.
//!
//! Closing a passage is closing its cells for one request
//! ([`SphereGrid::with_closed`](crate::SphereGrid::with_closed)); no raster is written.
//! A route *uses* a passage when it is legal on its grid but not once the passage's cells are
//! closed ([`Passages::used_by`], decided by the independent checker).

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use thiserror::Error;

mod ice;
pub use ice::{ICE_GATE_MAX_CELL_DEG, ICE_GATES_CSV, IceGate, ice_gates};

use crate::check::check_route_closing;
use crate::geo::LatLon;
use crate::grid::SphereGrid;
use crate::route::Route;
use crate::snap::SnapIndex;

/// The anchors file: names, labels, points, gates and test points of the passages.
pub const ANCHORS_CSV: &str = include_str!("../data/passage-anchors.csv");

/// The derived cells of every passage on the three shared Earth rasters.
pub const PASSAGES_CSV: &str = include_str!("../data/passages.csv");

/// The header line of [`PASSAGES_CSV`].
pub const PASSAGES_HEADER: &str = "name,width,height,row,col,source";

/// An opened cell farther than this from every anchor (km) is an error of [`derive()`].
pub const MAX_ANCHOR_KM: f64 = 500.0;

/// What went wrong with passages.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum PassageError {
    /// A name given to close is not a passage of this raster.
    #[error("unknown passage '{name}'; the passages of this {width}x{height} raster are: {known}")]
    Unknown {
        /// The name given.
        name: String,
        /// Raster size.
        width: u32,
        /// Raster size.
        height: u32,
        /// The known names, comma-separated (`none` when the raster has none).
        known: String,
    },
    /// The two rasters given to [`derive()`] differ in size.
    #[error("base raster is {0}x{1} but the _nav raster is {2}x{3}")]
    SizeMismatch(u32, u32, u32, u32),
    /// A cell is sea in the base raster but land in the `_nav` one: not an opening.
    #[error("cell (row {row}, col {col}) is sea in the base raster but land in the _nav one")]
    Narrowed {
        /// Row.
        row: u32,
        /// Column.
        col: u32,
    },
    /// An opened cell is far from every anchor.
    #[error(
        "opened cell (row {row}, col {col}) at {lat:.3},{lon:.3} is {km:.0} km from the nearest \
         passage anchor ({name}); add an anchor to data/passage-anchors.csv"
    )]
    Unnamed {
        /// Row.
        row: u32,
        /// Column.
        col: u32,
        /// Cell centre.
        lat: f64,
        /// Cell centre.
        lon: f64,
        /// Distance to the nearest anchor.
        km: f64,
        /// The nearest anchor.
        name: String,
    },
    /// Closing a passage's cells (with its gate's, if it has one) neither cuts its two sides
    /// apart nor lengthens the way between them.
    #[error(
        "closing {name} on the {width}x{height} raster does not lengthen the way between its \
         two sides; give it a gate (or a better one) in data/passage-anchors.csv"
    )]
    Leaks {
        /// Passage.
        name: String,
        /// Raster size.
        width: u32,
        /// Raster size.
        height: u32,
    },
    /// A request both avoids and allows a passage.
    #[error("passage '{0}' is both avoided and allowed")]
    AvoidedAndAllowed(String),
    /// A line of a CSV file is malformed.
    #[error("{file} line {line}: {message}")]
    Csv {
        /// Which file.
        file: &'static str,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// How a passage's cells were found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// Cells opened in the `_nav` raster (land in the base raster).
    Opened,
    /// The sea cells of a gate across a strait that the base raster has open.
    Gate,
    /// An ice gate: the sea cells of its boxes ([`IceGate`]), closed unless allowed.
    Ice,
}

impl Source {
    fn as_str(self) -> &'static str {
        match self {
            Source::Opened => "opened",
            Source::Gate => "gate",
            Source::Ice => "ice",
        }
    }
}

/// One line of the anchors file.
#[derive(Clone, Debug, PartialEq)]
pub struct Anchor {
    /// The id (`suez`).
    pub name: String,
    /// The full name (`Suez Canal`).
    pub label: String,
    /// A point in the passage.
    pub at: LatLon,
    /// A segment across the strait, land to land, when it is open water in a base raster.
    pub gate: Option<(LatLon, LatLon)>,
    /// A sea point on one side.
    pub a: LatLon,
    /// A sea point on the other side.
    pub b: LatLon,
}

/// The anchors of [`ANCHORS_CSV`].
///
/// # Errors
/// [`PassageError::Csv`] for a malformed line (the embedded file is tested to parse).
pub fn anchors() -> Result<Vec<Anchor>, PassageError> {
    let mut out = Vec::new();
    for (i, line) in data_lines(ANCHORS_CSV).skip(1) {
        let bad = |message: String| PassageError::Csv {
            file: "passage-anchors.csv",
            line: i,
            message,
        };
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 12 {
            return Err(bad(format!("{} fields, expected 12", f.len())));
        }
        let num = |j: usize| -> Result<Option<f64>, PassageError> {
            if f[j].is_empty() {
                return Ok(None);
            }
            f[j].parse::<f64>()
                .map(Some)
                .map_err(|e| bad(format!("field {}: {e}", j + 1)))
        };
        let point = |j: usize| -> Result<Option<LatLon>, PassageError> {
            Ok(match (num(j)?, num(j + 1)?) {
                (Some(lat), Some(lon)) => Some(LatLon::new(lat, lon)),
                (None, None) => None,
                _ => return Err(bad(format!("fields {} and {}: half a point", j + 1, j + 2))),
            })
        };
        let need = |p: Option<LatLon>, what: &str| p.ok_or_else(|| bad(format!("no {what}")));
        let gate = match (point(4)?, point(6)?) {
            (Some(a), Some(b)) => Some((a, b)),
            (None, None) => None,
            _ => return Err(bad("half a gate".into())),
        };
        out.push(Anchor {
            name: f[0].to_owned(),
            label: f[1].to_owned(),
            at: need(point(2)?, "point")?,
            gate,
            a: need(point(8)?, "side a")?,
            b: need(point(10)?, "side b")?,
        });
    }
    Ok(out)
}

/// Lines with their 1-based numbers, comments and blank lines left out.
fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// One cell of one passage on one raster: a line of [`PASSAGES_CSV`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PassageCell {
    /// The passage's id.
    pub name: String,
    /// Raster size.
    pub width: u32,
    /// Raster size.
    pub height: u32,
    /// Row.
    pub row: u32,
    /// Column.
    pub col: u32,
    /// How it was found.
    pub source: Source,
}

/// The passages of a `_nav` raster, from the raster and its base raster (see the module
/// documentation), sorted by name, row and column.
///
/// # Errors
/// Sizes differ, a cell was narrowed rather than opened, an opened cell is not near any
/// anchor, or a passage, closed, does not separate its sides.
pub fn derive(base: &SphereGrid, nav: &SphereGrid) -> Result<Vec<PassageCell>, PassageError> {
    let (w, h) = (nav.width(), nav.height());
    if (base.width(), base.height()) != (w, h) {
        return Err(PassageError::SizeMismatch(
            base.width(),
            base.height(),
            w,
            h,
        ));
    }
    let anchors = anchors()?;
    let mut out = Vec::new();
    for row in 0..h {
        for col in 0..w {
            let (r, c) = (i64::from(row), i64::from(col));
            match (base.is_free(r, c), nav.is_free(r, c)) {
                (true, false) => return Err(PassageError::Narrowed { row, col }),
                (false, true) => {}
                _ => continue,
            }
            let centre = nav.cell_centre(row, col);
            let (km, a) = anchors
                .iter()
                .map(|a| (centre.distance_rad(a.at) * crate::EARTH_RADIUS_KM, a))
                .min_by(|x, y| x.0.total_cmp(&y.0))
                .expect("the anchors file has anchors");
            if km > MAX_ANCHOR_KM {
                return Err(PassageError::Unnamed {
                    row,
                    col,
                    lat: centre.lat,
                    lon: centre.lon,
                    km,
                    name: a.name.clone(),
                });
            }
            out.push(PassageCell {
                name: a.name.clone(),
                width: w,
                height: h,
                row,
                col,
                source: Source::Opened,
            });
        }
    }
    // Each passage, closed, must lengthen the way between its two sides or cut it; where the opened cells alone do
    // not (none were opened, or the base raster already joins the waters there), its gate's
    // sea cells are added.
    let snap = SnapIndex::new(nav);
    let mut checked = Vec::with_capacity(out.len());
    for a in &anchors {
        let mut cells: Vec<(u32, u32)> = out
            .iter()
            .filter(|c| c.name == a.name)
            .map(|c| (c.row, c.col))
            .collect();
        let mut source = Source::Opened;
        if cells.is_empty() || !gate_separates(nav, &snap, a, &cells) {
            let Some((g1, g2)) = a.gate else {
                if cells.is_empty() {
                    continue; // open water here, and no gate: not a passage at this size
                }
                return Err(PassageError::Leaks {
                    name: a.name.clone(),
                    width: w,
                    height: h,
                });
            };
            cells.extend(
                segment_cells(nav, g1, g2)
                    .into_iter()
                    .filter(|&(r, c)| nav.is_free(i64::from(r), i64::from(c))),
            );
            cells.sort_unstable();
            cells.dedup();
            source = Source::Gate;
            if !gate_separates(nav, &snap, a, &cells) {
                return Err(PassageError::Leaks {
                    name: a.name.clone(),
                    width: w,
                    height: h,
                });
            }
        }
        checked.extend(cells.into_iter().map(|(row, col)| PassageCell {
            name: a.name.clone(),
            width: w,
            height: h,
            row,
            col,
            source,
        }));
    }
    let mut out = checked;
    out.sort();
    Ok(out)
}

/// The cells a straight latitude/longitude segment passes through or touches (sampled at a
/// tenth of a cell, ends included), deduplicated.
fn segment_cells(grid: &SphereGrid, a: LatLon, b: LatLon) -> Vec<(u32, u32)> {
    let cell_deg = 180.0 / f64::from(grid.height());
    let len = (b.lat - a.lat).abs().max((b.lon - a.lon).abs());
    let n = ((len / cell_deg) * 10.0).ceil().max(1.0) as usize;
    let mut out: Vec<(u32, u32)> = (0..=n)
        .flat_map(|i| {
            let t = i as f64 / n as f64;
            let p = LatLon::new(a.lat + t * (b.lat - a.lat), a.lon + t * (b.lon - a.lon));
            grid.free_cells_at(p)
        })
        .map(|(r, c)| (r as u32, c as u32))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether closing `cells` lengthens the way between the sides of `a` (counted in steps
/// between 4-connected sea cells, within a window round them) or cuts it. A passage that
/// leaves an equally short way open beside it closes nothing.
fn gate_separates(grid: &SphereGrid, snap: &SnapIndex, a: &Anchor, cells: &[(u32, u32)]) -> bool {
    let (Some(s), Some(t)) = (snap.nearest(grid, a.a), snap.nearest(grid, a.b)) else {
        return false;
    };
    let pts = [a.a, a.b, a.at];
    let cell = 180.0 / f64::from(grid.height());
    let margin = 2.0 + 2.0 * cell;
    let lat = |f: fn(f64, f64) -> f64| pts.iter().map(|p| p.lat).fold(pts[0].lat, f);
    let lon = |f: fn(f64, f64) -> f64| pts.iter().map(|p| p.lon).fold(pts[0].lon, f);
    let (r_top, c_west) = grid.cell_of(LatLon::new(
        (lat(f64::max) + margin).min(89.9),
        lon(f64::min) - margin,
    ));
    let (r_bot, _) = grid.cell_of(LatLon::new((lat(f64::min) - margin).max(-89.9), 0.0));
    let span = ((lon(f64::max) - lon(f64::min) + 2.0 * margin) / 360.0 * f64::from(grid.width()))
        .ceil() as u32;
    let inside = |r: u32, c: u32| {
        r >= r_top && r <= r_bot && (c + grid.width() - c_west) % grid.width() <= span
    };
    // Breadth-first steps from one side to the other through sea cells (4-connected).
    let steps = |closed: &[(u32, u32)]| -> Option<usize> {
        let mut seen = vec![s];
        let mut queue = std::collections::VecDeque::from([(s, 0usize)]);
        while let Some(((r, c), d)) = queue.pop_front() {
            if (r, c) == t {
                return Some(d);
            }
            let w = grid.width();
            let next = [
                (r.wrapping_sub(1), c),
                (r + 1, c),
                (r, (c + 1) % w),
                (r, (c + w - 1) % w),
            ];
            for n in next {
                if n.0 < grid.height()
                    && inside(n.0, n.1)
                    && grid.is_free(i64::from(n.0), i64::from(n.1))
                    && !closed.contains(&n)
                    && !seen.contains(&n)
                {
                    seen.push(n);
                    queue.push_back((n, d + 1));
                }
            }
        }
        None
    };
    if !inside(s.0, s.1) || !inside(t.0, t.1) {
        return false;
    }
    let Some(open) = steps(&[]) else {
        return false;
    };
    // A side in the passage itself is cut off by closing it (at 1°, Puget Sound is one cell).
    cells.contains(&s) || cells.contains(&t) || steps(cells).is_none_or(|d| d > open)
}

/// [`PassageCell`]s as CSV, header first (the format of [`PASSAGES_CSV`]).
pub fn to_csv(cells: &[PassageCell]) -> String {
    let mut out = String::from(PASSAGES_HEADER);
    out.push('\n');
    for c in cells {
        out.push_str(&format!(
            "{},{},{},{},{},{}\n",
            c.name,
            c.width,
            c.height,
            c.row,
            c.col,
            c.source.as_str()
        ));
    }
    out
}

/// Parses [`PASSAGES_CSV`]-formatted text.
///
/// # Errors
/// [`PassageError::Csv`] naming the line.
pub fn parse_csv(text: &str) -> Result<Vec<PassageCell>, PassageError> {
    let mut out = Vec::new();
    let mut lines = data_lines(text);
    match lines.next() {
        Some((_, PASSAGES_HEADER)) => {}
        other => {
            return Err(PassageError::Csv {
                file: "passages.csv",
                line: other.map_or(1, |(i, _)| i),
                message: format!("expected the header {PASSAGES_HEADER}"),
            });
        }
    }
    for (i, line) in lines {
        let bad = |message: String| PassageError::Csv {
            file: "passages.csv",
            line: i,
            message,
        };
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 6 {
            return Err(bad(format!("{} fields, expected 6", f.len())));
        }
        let n = |j: usize| {
            f[j].parse::<u32>()
                .map_err(|e| bad(format!("field {}: {e}", j + 1)))
        };
        let source = match f[5] {
            "opened" => Source::Opened,
            "gate" => Source::Gate,
            s => return Err(bad(format!("source '{s}' is neither opened nor gate"))),
        };
        out.push(PassageCell {
            name: f[0].to_owned(),
            width: n(1)?,
            height: n(2)?,
            row: n(3)?,
            col: n(4)?,
            source,
        });
    }
    Ok(out)
}

/// A passage of one raster.
#[derive(Clone, Debug, PartialEq)]
pub struct Passage {
    /// The id (`suez`).
    pub name: String,
    /// The full name (`Suez Canal`).
    pub label: String,
    /// Its cells, (row, col), sorted.
    pub cells: Vec<(u32, u32)>,
    /// How they were found.
    pub source: Source,
}

impl Passage {
    /// Whether (`row`, `col`) is one of the passage's cells.
    pub fn contains(&self, row: u32, col: u32) -> bool {
        self.cells.binary_search(&(row, col)).is_ok()
    }
}

/// The passages of one raster size, sorted by name.
#[derive(Clone, Debug)]
pub struct Passages {
    width: u32,
    height: u32,
    list: Vec<Passage>,
    /// The ice gates among `list`.
    ice: Vec<IceGate>,
    /// Per cell, bit `i` set when passage `i` of `list` has a cell within two rows and two
    /// columns: which passages a route passes near, in one look-up per point. Made when
    /// first needed (the first 32 passages; any others are checked cell by cell).
    near: OnceLock<Arc<Vec<u32>>>,
}

impl PartialEq for Passages {
    fn eq(&self, other: &Self) -> bool {
        (self.width, self.height, &self.list, &self.ice)
            == (other.width, other.height, &other.list, &other.ice)
    }
}

impl Passages {
    /// The passages of `grid`'s size from the embedded table (none for a size the table does
    /// not have: the shared rasters are 360×180, 720×360 and 1440×720), and the ice gates
    /// that have sea cells on `grid` (on any raster of 1° cells or finer).
    pub fn for_grid(grid: &SphereGrid) -> Passages {
        let cells = parse_csv(PASSAGES_CSV).expect("the embedded passages.csv parses (tested)");
        let labels = anchors().expect("the embedded anchors parse (tested)");
        let mut passages = Self::from_cells(grid.width(), grid.height(), &cells, &labels);
        for gate in ice_gates().expect("the embedded ice gates parse (tested)") {
            if let Some(p) = gate.passage(grid) {
                passages.list.retain(|q| q.name != p.name);
                passages.list.push(p);
                passages.ice.push(gate);
            }
        }
        passages.list.sort_by(|a, b| a.name.cmp(&b.name));
        passages
    }

    /// The passages of size `width × height` among `cells`, labelled from `anchors`.
    pub fn from_cells(
        width: u32,
        height: u32,
        cells: &[PassageCell],
        anchors: &[Anchor],
    ) -> Passages {
        let mut by: BTreeMap<&str, Vec<&PassageCell>> = BTreeMap::new();
        for c in cells
            .iter()
            .filter(|c| c.width == width && c.height == height)
        {
            by.entry(&c.name).or_default().push(c);
        }
        let list = by
            .into_iter()
            .map(|(name, found)| {
                let mut cells: Vec<(u32, u32)> = found.iter().map(|c| (c.row, c.col)).collect();
                cells.sort_unstable();
                cells.dedup();
                let label = anchors
                    .iter()
                    .find(|a| a.name == name)
                    .map_or_else(|| name.to_owned(), |a| a.label.clone());
                Passage {
                    name: name.to_owned(),
                    label,
                    cells,
                    source: found[0].source,
                }
            })
            .collect();
        Passages {
            width,
            height,
            list,
            ice: Vec::new(),
            near: OnceLock::new(),
        }
    }

    /// The mask of [`Passages::near`](#structfield.near), made once.
    fn near_mask(&self) -> &[u32] {
        self.near.get_or_init(|| {
            let (w, h) = (self.width as usize, self.height as usize);
            let mut mask = vec![0u32; w * h];
            for (i, p) in self.list.iter().enumerate().take(32) {
                for &(r, c) in &p.cells {
                    let (r, c) = (r as usize, c as usize);
                    for rr in r.saturating_sub(2)..=(r + 2).min(h.saturating_sub(1)) {
                        for dc in 0..5 {
                            let cc = (c + w * 2 + dc - 2) % w;
                            mask[rr * w + cc] |= 1 << i;
                        }
                    }
                }
            }
            Arc::new(mask)
        })
    }

    /// The passages closed unless a request allows them: the ice gates, by name.
    pub fn closed_by_default(&self) -> Vec<&str> {
        self.ice.iter().map(|g| g.name.as_str()).collect()
    }

    /// The ice gates of this raster.
    pub fn ice_gates(&self) -> &[IceGate] {
        &self.ice
    }

    /// The passages a request closes: those of `avoid`, and the ice gates but those `allow`
    /// names (with the gates each allowed one opens too: allowing `northwest-passage` opens
    /// `bering`, its way in). `arctic` in `allow` or `avoid` names every ice gate. Allowing a
    /// passage that is open anyway changes nothing. Sorted by name, no repeats.
    ///
    /// # Errors
    /// An unknown name ([`PassageError::Unknown`]); a name both avoided and allowed
    /// ([`PassageError::AvoidedAndAllowed`]).
    pub fn resolve<S: AsRef<str>>(
        &self,
        avoid: &[S],
        allow: &[S],
    ) -> Result<Vec<String>, PassageError> {
        let expand = |names: &[S]| -> Result<Vec<String>, PassageError> {
            let mut out = Vec::new();
            for n in names {
                if n.as_ref().trim().eq_ignore_ascii_case("arctic") && !self.ice.is_empty() {
                    out.extend(self.ice.iter().map(|g| g.name.clone()));
                } else {
                    out.push(self.get(n.as_ref())?.name.clone());
                }
            }
            Ok(out)
        };
        let avoided = expand(avoid)?;
        let mut allowed = expand(allow)?;
        if let Some(both) = avoided.iter().find(|n| allowed.contains(n)) {
            return Err(PassageError::AvoidedAndAllowed(both.clone()));
        }
        let implied: Vec<String> = self
            .ice
            .iter()
            .filter(|g| allowed.contains(&g.name))
            .flat_map(|g| g.with.iter().cloned())
            .filter(|w| !avoided.contains(w))
            .collect();
        allowed.extend(implied);
        let mut closed: Vec<String> = self
            .ice
            .iter()
            .map(|g| g.name.clone())
            .filter(|n| !allowed.contains(n))
            .chain(avoided)
            .collect();
        closed.sort();
        closed.dedup();
        Ok(closed)
    }

    /// The passages, sorted by name.
    pub fn iter(&self) -> impl Iterator<Item = &Passage> {
        self.list.iter()
    }

    /// Whether the raster has no passage.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The names, comma-separated (`none` when there are none).
    pub fn names(&self) -> String {
        if self.list.is_empty() {
            return "none".into();
        }
        self.list
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The passage called `name` (case, spaces and underscores do not matter: `Bab el
    /// Mandeb` is `bab-el-mandeb`).
    ///
    /// # Errors
    /// [`PassageError::Unknown`], listing the raster's passages.
    pub fn get(&self, name: &str) -> Result<&Passage, PassageError> {
        let key: String = name
            .trim()
            .chars()
            .map(|c| match c {
                ' ' | '_' => '-',
                c => c.to_ascii_lowercase(),
            })
            .collect();
        self.list
            .iter()
            .find(|p| p.name == key)
            .ok_or_else(|| PassageError::Unknown {
                name: name.to_owned(),
                width: self.width,
                height: self.height,
                known: self.names(),
            })
    }

    /// The cells of the passages `names`, for [`SphereGrid::with_closed`].
    ///
    /// # Errors
    /// The first unknown name, as [`Self::get`].
    pub fn cells_of<S: AsRef<str>>(&self, names: &[S]) -> Result<Vec<(u32, u32)>, PassageError> {
        let mut out = Vec::new();
        for n in names {
            out.extend_from_slice(&self.get(n.as_ref())?.cells);
        }
        Ok(out)
    }

    /// The passages `route` (found on `grid`, from `from` to `to`) goes through: those whose
    /// cells the route cannot do without. A route counts as using a passage when the checker
    /// finds it legal on `grid` but not with the passage's cells closed. Only passages within
    /// a cell or so of some point of the route are checked.
    pub fn used_by(&self, grid: &SphereGrid, route: &Route, from: LatLon, to: LatLon) -> Vec<&str> {
        if route.legs.is_empty() || self.list.is_empty() {
            return Vec::new();
        }
        let cell_deg = 180.0 / f64::from(grid.height());
        let points = route.densify(cell_deg / 2.0);
        let cells: Vec<(u32, u32)> = points.iter().map(|&q| grid.cell_of(q)).collect();
        let same_size = (grid.width(), grid.height()) == (self.width, self.height);
        let mut bits = 0u32;
        if same_size {
            let mask = self.near_mask();
            for &(r, c) in &cells {
                bits |= mask[r as usize * self.width as usize + c as usize];
            }
        }
        let near = |i: usize, p: &Passage| {
            if same_size && i < 32 {
                return bits >> i & 1 == 1;
            }
            cells.iter().any(|&(r, c)| {
                p.cells.iter().any(|&(pr, pc)| {
                    let dc = (i64::from(c) - i64::from(pc)).rem_euclid(i64::from(grid.width()));
                    r.abs_diff(pr) <= 2 && (dc <= 2 || dc >= i64::from(grid.width()) - 2)
                })
            })
        };
        self.list
            .iter()
            .enumerate()
            .filter(|&(i, p)| near(i, p))
            .map(|(_, p)| p)
            .filter(|p| {
                let closed = |r: u32, c: u32| p.contains(r, c);
                check_route_closing(grid, &closed, route, from, to).is_err()
            })
            .map(|p| p.name.as_str())
            .collect()
    }
}

impl SphereGrid {
    /// A copy of the grid with `cells` (row, col) blocked: a passage or an area closed for one
    /// request. Cells off the grid are ignored. O(cells of the grid).
    pub fn with_closed(&self, cells: &[(u32, u32)]) -> SphereGrid {
        let (w, h) = (self.width(), self.height());
        let mut closed = vec![false; w as usize * h as usize];
        for &(r, c) in cells {
            if r < h && c < w {
                closed[r as usize * w as usize + c as usize] = true;
            }
        }
        SphereGrid::from_fn(w, h, |r, c| {
            !closed[r as usize * w as usize + c as usize]
                && self.is_free(i64::from(r), i64::from(c))
        })
        .expect("the same size as a grid that exists")
    }
}
