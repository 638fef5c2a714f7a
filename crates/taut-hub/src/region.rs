//! Labels shared by regions of `g × g` cells: the memory lever of a hub index.
//!
//! A region's label is the union of its points' labels. Each hub keeps its *vias*: the first
//! corners of the points' shortest paths to it (each with its core entry, so its distance to
//! the hub and the path walk). Each corner used as a via keeps a mask of the region's points
//! that see it and can turn at it. A query point evaluates a hub as the smallest
//! `|pc| + d(c, h)` over the vias `c` its mask bit allows: the length of a real path, and for
//! the hub a query needs exactly the point label's value, since that point's own via is among
//! them (`docs/hub.md`, Regions).

use rayon::prelude::*;
use taut_grid::{Grid, Point};
use taut_mesh::Mesh;
use taut_mesh::corners::Corners;

use crate::HubError;
use crate::core::CoreLabels;
use crate::index::{PointEntry, Scratch};
use crate::turns::TurnOrder;

/// The largest region side (a mask of 4,096 bits, 512 bytes, per corner of a region).
pub const MAX_REGION: u32 = 64;

/// One via of a region's hub.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Via {
    /// `d(c, h)`, the via corner's distance to the hub (its core entry's).
    pub(crate) dist: f64,
    /// The via corner's core entry for the hub.
    pub(crate) entry: u32,
    /// The via corner's index in the region's corner list.
    pub(crate) local: u32,
}

/// Labels of the regions of a grid (see the module docs), in compressed rows.
#[derive(Debug, Clone, Default)]
pub(crate) struct Regions {
    /// Region side in cells.
    pub(crate) g: u32,
    /// Regions per row of regions.
    pub(crate) across: u32,
    /// Region `r`'s corners are `corners[corner_off[r]..corner_off[r + 1]]`, with their masks.
    pub(crate) corner_off: Vec<u32>,
    pub(crate) corners: Vec<u32>,
    /// [`Regions::words`] words per corner: bit `k` (bit `k % 64` of word `k / 64`) says
    /// whether the region's point `(x0 + k % g, y0 + k / g)` sees the corner.
    pub(crate) masks: Vec<u64>,
    /// Region `r`'s hubs are `hubs[hub_off[r]..hub_off[r + 1]]`, increasing ranks.
    pub(crate) hub_off: Vec<u32>,
    pub(crate) hubs: Vec<u32>,
    /// Hub `i`'s vias are `vias[via_off[i]..via_off[i + 1]]` (one more entry than `hubs`).
    pub(crate) via_off: Vec<u32>,
    pub(crate) vias: Vec<Via>,
}

impl Regions {
    /// Words of a corner's mask: one bit per point of a region.
    #[inline]
    pub(crate) fn words(g: u32) -> usize {
        (g * g).div_ceil(64) as usize
    }

    /// Whether the point of bit `bit` sees the corner at index `j` (among all regions').
    #[inline]
    pub(crate) fn sees(&self, j: usize, bit: u32) -> bool {
        let w = Self::words(self.g);
        self.masks[j * w + bit as usize / 64] >> (bit % 64) & 1 == 1
    }

    /// The region of lattice point `p` (on the map) and the point's bit in its masks.
    #[inline]
    pub(crate) fn locate(&self, p: Point) -> (usize, u32) {
        let (gx, gy) = (p.x as u32 / self.g, p.y as u32 / self.g);
        let bit = (p.y as u32 % self.g) * self.g + p.x as u32 % self.g;
        ((gy * self.across + gx) as usize, bit)
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        (self.corner_off.len() + self.corners.len() + self.hub_off.len() + self.hubs.len()) * 4
            + self.via_off.len() * 4
            + self.masks.len() * 8
            + self.vias.len() * std::mem::size_of::<Via>()
    }

    /// Builds the regions of side `g` of `grid`, in parallel by rows of regions (the result
    /// does not depend on the number of threads).
    pub(crate) fn build(
        grid: &Grid,
        mesh: &Mesh,
        corners: &Corners,
        core: &CoreLabels,
        turns: &TurnOrder,
        g: u32,
    ) -> Result<Regions, HubError> {
        let (w, h) = (grid.width() as u32, grid.height() as u32);
        let (across, down) = (w.div_ceil(g), h.div_ceil(g));
        let rows: Vec<Vec<RegionLabel>> = (0..down)
            .into_par_iter()
            .map_init(
                || (Scratch::default(), Vec::new(), Vec::new()),
                |(s, label, seen), ry| {
                    (0..across)
                        .map(|rx| {
                            region_label(
                                grid, mesh, corners, core, turns, g, rx, ry, s, label, seen,
                            )
                        })
                        .collect::<Result<Vec<_>, HubError>>()
                },
            )
            .collect::<Result<_, HubError>>()?;
        let mut out = Regions {
            g,
            across,
            corner_off: vec![0],
            hub_off: vec![0],
            via_off: vec![0],
            ..Regions::default()
        };
        for r in rows.into_iter().flatten() {
            out.corners.extend(&r.corners);
            out.masks.extend(&r.masks);
            for (hub, vias) in r.hubs {
                out.hubs.push(hub);
                out.vias.extend(vias);
                out.via_off
                    .push(u32::try_from(out.vias.len()).map_err(|_| HubError::TooLarge)?);
            }
            out.corner_off
                .push(u32::try_from(out.corners.len()).map_err(|_| HubError::TooLarge)?);
            out.hub_off
                .push(u32::try_from(out.hubs.len()).map_err(|_| HubError::TooLarge)?);
        }
        Ok(out)
    }
}

/// One region's label while it is built.
pub(crate) struct RegionLabel {
    /// The corners used as vias, by id.
    pub(crate) corners: Vec<u32>,
    /// Their masks, [`Regions::words`] words each.
    pub(crate) masks: Vec<u64>,
    /// (hub rank, vias), by rank.
    pub(crate) hubs: Vec<(u32, Vec<Via>)>,
}

/// The label of region `(rx, ry)`: its points' labels, merged.
#[allow(clippy::too_many_arguments)]
pub(crate) fn region_label(
    grid: &Grid,
    mesh: &Mesh,
    corners: &Corners,
    core: &CoreLabels,
    turns: &TurnOrder,
    g: u32,
    rx: u32,
    ry: u32,
    s: &mut Scratch,
    label: &mut Vec<(u32, PointEntry)>,
    seen: &mut Vec<(u32, u32)>,
) -> Result<RegionLabel, HubError> {
    // (corner, point bit) for every corner a point sees; (hub, entry) for every kept entry.
    seen.clear();
    s.begin_region(core.entry_count());
    let mut kept: Vec<(u32, u32, f64)> = Vec::new();
    for k in 0..g * g {
        let (x, y) = ((rx * g + k % g) as i32, (ry * g + k / g) as i32);
        if x >= grid.width() || y >= grid.height() || !grid.is_free(x, y) {
            continue;
        }
        label.clear();
        s.point_label(mesh, corners, core, turns, Point::new(x, y), k, label)?;
        seen.extend(s.visible().iter().map(|&c| (c, k)));
        kept.extend(
            label
                .iter()
                .map(|(_, e)| (e.hub, e.entry, core.entry_at(e.entry).dist)),
        );
    }
    // The corners used as vias, with the points that see them.
    let mut used: Vec<u32> = kept.iter().map(|&(_, e, _)| core.corner_of(e)).collect();
    used.sort_unstable();
    used.dedup();
    let words = Regions::words(g);
    let mut masks = vec![0u64; used.len() * words];
    for &(c, k) in seen.iter() {
        if let Ok(i) = used.binary_search(&c) {
            masks[i * words + k as usize / 64] |= 1 << (k % 64);
        }
    }
    // Each (hub, entry) pair comes once: the scratch leaves out those the region has.
    kept.sort_unstable_by_key(|&(h, e, _)| (h, e));
    debug_assert!(
        kept.windows(2)
            .all(|w| (w[0].0, w[0].1) != (w[1].0, w[1].1))
    );
    let mut hubs: Vec<(u32, Vec<Via>)> = Vec::new();
    for (hub, entry, dist) in kept {
        let corner = core.corner_of(entry);
        let local = used.binary_search(&corner).expect("a via is a used corner") as u32;
        let via = Via { dist, entry, local };
        match hubs.last_mut() {
            Some((h, vias)) if *h == hub => vias.push(via),
            _ => hubs.push((hub, vec![via])),
        }
    }
    Ok(RegionLabel {
        corners: used,
        masks,
        hubs,
    })
}
