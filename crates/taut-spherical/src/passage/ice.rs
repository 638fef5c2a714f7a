//! The ice gates: Arctic waters closed unless a request allows them ([`ICE_GATES_CSV`]).
//!
//! The shared Earth rasters have no sea ice, so on them a route from Shanghai to New York
//! crosses the Arctic. Real ships reach those waters only through ice for most of the year,
//! so the gates are closed by default: a route through one must be asked for by name. Each
//! gate is a set of latitude/longitude boxes, so its cells are found on any raster of 1° cells
//! or finer without a table per resolution.

use super::{Passage, PassageError, Source, data_lines};
use crate::geo::LatLon;
use crate::grid::SphereGrid;

/// The ice gates file: names, labels, boxes and test points.
pub const ICE_GATES_CSV: &str = include_str!("../../data/ice-gates.csv");

/// The coarsest raster that gets ice gates: cells of at most this many degrees of latitude.
pub const ICE_GATE_MAX_CELL_DEG: f64 = 1.0;

/// One line of [`ICE_GATES_CSV`].
#[derive(Clone, Debug, PartialEq)]
pub struct IceGate {
    /// The id (`northwest-passage`).
    pub name: String,
    /// The full name (`Northwest Passage`).
    pub label: String,
    /// The gates that allowing this one opens too (its way in).
    pub with: Vec<String>,
    /// Boxes `(lat_min, lat_max, lon_min, lon_max)`, degrees, closed intervals.
    pub boxes: Vec<(f64, f64, f64, f64)>,
    /// A sea point on one side, outside every gate.
    pub a: LatLon,
    /// A sea point on the other side.
    pub b: LatLon,
}

impl IceGate {
    /// Whether `p` (a cell centre) lies in one of the boxes.
    pub fn covers(&self, p: LatLon) -> bool {
        self.boxes
            .iter()
            .any(|&(s, n, w, e)| (s..=n).contains(&p.lat) && (w..=e).contains(&p.lon))
    }

    /// The gate's sea cells on `grid`, sorted; none on a raster coarser than
    /// [`ICE_GATE_MAX_CELL_DEG`].
    pub fn cells(&self, grid: &SphereGrid) -> Vec<(u32, u32)> {
        if 180.0 / f64::from(grid.height()) > ICE_GATE_MAX_CELL_DEG + 1e-9 {
            return Vec::new();
        }
        let mut out = Vec::new();
        for row in 0..grid.height() {
            for col in 0..grid.width() {
                if grid.is_free(i64::from(row), i64::from(col))
                    && self.covers(grid.cell_centre(row, col))
                {
                    out.push((row, col));
                }
            }
        }
        out
    }

    /// The gate as a passage of `grid` (`None` when it has no sea cell there).
    pub fn passage(&self, grid: &SphereGrid) -> Option<Passage> {
        let cells = self.cells(grid);
        (!cells.is_empty()).then(|| Passage {
            name: self.name.clone(),
            label: self.label.clone(),
            cells,
            source: Source::Ice,
        })
    }
}

/// The gates of [`ICE_GATES_CSV`].
///
/// # Errors
/// [`PassageError::Csv`] for a malformed line (the embedded file is tested to parse).
pub fn ice_gates() -> Result<Vec<IceGate>, PassageError> {
    let mut out = Vec::new();
    for (i, line) in data_lines(ICE_GATES_CSV).skip(1) {
        let bad = |message: String| PassageError::Csv {
            file: "ice-gates.csv",
            line: i,
            message,
        };
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 8 {
            return Err(bad(format!("{} fields, expected 8", f.len())));
        }
        let num = |s: &str, what: &str| {
            s.trim()
                .parse::<f64>()
                .map_err(|e| bad(format!("{what} '{s}': {e}")))
        };
        let mut boxes = Vec::new();
        for b in f[3].split(';') {
            let v: Vec<&str> = b.split(':').collect();
            if v.len() != 4 {
                return Err(bad(format!(
                    "box '{b}' is not lat_min:lat_max:lon_min:lon_max"
                )));
            }
            let (s, n, w, e) = (
                num(v[0], "lat_min")?,
                num(v[1], "lat_max")?,
                num(v[2], "lon_min")?,
                num(v[3], "lon_max")?,
            );
            if !(s <= n && w <= e && s >= -90.0 && n <= 90.0 && w >= -180.0 && e <= 180.0) {
                return Err(bad(format!("box '{b}' is empty or off the Earth")));
            }
            boxes.push((s, n, w, e));
        }
        let point = |j: usize| -> Result<LatLon, PassageError> {
            Ok(LatLon::new(num(f[j], "lat")?, num(f[j + 1], "lon")?))
        };
        out.push(IceGate {
            name: f[0].to_owned(),
            label: f[1].to_owned(),
            with: f[2]
                .split(';')
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect(),
            boxes,
            a: point(4)?,
            b: point(6)?,
        });
    }
    Ok(out)
}
