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
use crate::error::check_offsets;
use crate::point::{PointEntry, Scratch};
use crate::sight::{BandSight, Sight};
use crate::turn_order::TurnOrder;

/// The largest region side (a mask of 4,096 bits, 512 bytes, per corner of a region).
pub const MAX_REGION: u32 = 64;

/// One via of a region's hub.
///
/// `repr(C)`, with no padding: index files store it as its bytes (`file.rs`).
#[derive(Debug, Clone, Copy, PartialEq, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub(crate) struct Via {
    /// `d(c, h)`, the via corner's distance to the hub (its core entry's).
    pub(crate) dist: f64,
    /// The via corner's core entry for the hub.
    pub(crate) entry: u32,
    /// The via corner's index in the region's corner list.
    pub(crate) local: u32,
}

/// The arrays of [`Regions`], in compressed rows: what an index file stores of them
/// (`file.rs`), borrowed from [`Regions::arrays`] and given back to [`Regions::from_stored`].
#[derive(Debug, Clone, Default)]
pub(crate) struct RegionArrays {
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

/// Labels of the regions of a grid (see the module docs), in compressed rows.
#[derive(Debug, Clone, Default)]
pub(crate) struct Regions {
    /// Region side in cells.
    g: u32,
    /// Regions per row of regions.
    across: u32,
    arrays: RegionArrays,
}

impl Regions {
    /// Words of a corner's mask: one bit per point of a region.
    #[inline]
    pub(crate) fn words(g: u32) -> usize {
        (g * g).div_ceil(64) as usize
    }

    /// The regions of side `g` of a map `width` cells wide from the arrays a file stores
    /// ([`Regions::arrays`]), unchecked: [`Regions::check`] must pass before a query uses
    /// them.
    pub(crate) fn from_stored(g: u32, width: u32, arrays: RegionArrays) -> Regions {
        Regions {
            g,
            across: width.div_ceil(g),
            arrays,
        }
    }

    /// The arrays of the regions, as an index file stores them.
    pub(crate) fn arrays(&self) -> &RegionArrays {
        &self.arrays
    }

    /// The region side in cells.
    #[inline]
    pub(crate) fn side(&self) -> u32 {
        self.g
    }

    /// Whether the point of bit `bit` sees the corner at index `j` (among all regions').
    #[inline]
    pub(crate) fn sees(&self, j: usize, bit: u32) -> bool {
        let w = Self::words(self.g);
        self.arrays.masks[j * w + bit as usize / 64] >> (bit % 64) & 1 == 1
    }

    /// The region of lattice point `p` (on the map) and the point's bit in its masks.
    #[inline]
    pub(crate) fn locate(&self, p: Point) -> (usize, u32) {
        let (gx, gy) = (p.x as u32 / self.g, p.y as u32 / self.g);
        let bit = (p.y as u32 % self.g) * self.g + p.x as u32 % self.g;
        ((gy * self.across + gx) as usize, bit)
    }

    /// The indexes (among all regions') of region `k`'s corners, for [`Regions::corner`] and
    /// [`Regions::sees`]; a via's `local` counts from the first.
    #[inline]
    pub(crate) fn corner_range(&self, k: usize) -> std::ops::Range<usize> {
        let off = &self.arrays.corner_off;
        off[k] as usize..off[k + 1] as usize
    }

    /// The corner at index `j` among all regions' corners.
    #[inline]
    pub(crate) fn corner(&self, j: usize) -> u32 {
        self.arrays.corners[j]
    }

    /// The indexes (among all regions') of region `k`'s hubs, by increasing rank.
    #[inline]
    pub(crate) fn hub_range(&self, k: usize) -> std::ops::Range<usize> {
        let off = &self.arrays.hub_off;
        off[k] as usize..off[k + 1] as usize
    }

    /// The rank of the hub at index `i` among all regions' hubs.
    #[inline]
    pub(crate) fn hub(&self, i: usize) -> u32 {
        self.arrays.hubs[i]
    }

    /// The vias of the hub at index `i`.
    #[inline]
    pub(crate) fn vias(&self, i: usize) -> &[Via] {
        let off = &self.arrays.via_off;
        &self.arrays.vias[off[i] as usize..off[i + 1] as usize]
    }

    /// Hubs of the regions' labels, summed over regions.
    pub(crate) fn hub_count(&self) -> usize {
        self.arrays.hubs.len()
    }

    /// Vias of those hubs.
    pub(crate) fn via_count(&self) -> usize {
        self.arrays.vias.len()
    }

    /// Heap bytes held.
    pub(crate) fn heap_bytes(&self) -> usize {
        let a = &self.arrays;
        (a.corner_off.len() + a.corners.len() + a.hub_off.len() + a.hubs.len()) * 4
            + a.via_off.len() * 4
            + a.masks.len() * 8
            + a.vias.len() * std::mem::size_of::<Via>()
    }

    /// Checks everything the queries rely on in regions read from a file
    /// ([`Regions::from_stored`]) of a map `height` cells high, over the checked labels
    /// `core`: the side and the arrays' sizes, the offsets, each region's corners and hubs
    /// sorted, masks naming only its points, and each via its hub's core entry at a corner of
    /// the region. The regions are checked in parallel.
    ///
    /// # Errors
    /// [`HubError::Corrupt`].
    pub(crate) fn check(&self, height: u32, core: &CoreLabels) -> Result<(), HubError> {
        if self.g > MAX_REGION {
            return Err(HubError::corrupt(format!(
                "impossible region side {}",
                self.g
            )));
        }
        let r = &self.arrays;
        let n = core.len();
        let regions = self.across as usize * height.div_ceil(self.g) as usize;
        if r.corner_off.len() != regions + 1
            || r.hub_off.len() != regions + 1
            || r.via_off.len() != r.hubs.len() + 1
            || r.masks.len() != r.corners.len() * Self::words(self.g)
        {
            return Err(HubError::corrupt(
                "region arrays of other sizes than the map's",
            ));
        }
        check_offsets(&r.corner_off, r.corners.len(), "region corner")?;
        check_offsets(&r.hub_off, r.hubs.len(), "region hub")?;
        check_offsets(&r.via_off, r.vias.len(), "via")?;
        let bits = self.g * self.g;
        (0..regions).into_par_iter().try_for_each(|k| {
            let cs = self.corner_range(k);
            let local = &r.corners[cs.clone()];
            if local.windows(2).any(|w| w[0] >= w[1])
                || local.last().is_some_and(|&c| c as usize >= n)
            {
                return Err(HubError::corrupt(format!(
                    "region {k}: corner list out of order"
                )));
            }
            if bits < 64 && r.masks[cs].iter().any(|m| m >> bits != 0) {
                return Err(HubError::corrupt(format!(
                    "region {k}: a mask names a point outside it"
                )));
            }
            let hs = self.hub_range(k);
            let hubs = &r.hubs[hs.clone()];
            if hubs.windows(2).any(|w| w[0] >= w[1])
                || hubs.last().is_some_and(|&h| h as usize >= n)
            {
                return Err(HubError::corrupt(format!("region {k}: hubs out of order")));
            }
            for i in hs {
                let vias = self.vias(i);
                if vias.is_empty() {
                    return Err(HubError::corrupt(format!(
                        "region {k}: a hub without a via"
                    )));
                }
                for v in vias {
                    let good = (v.entry as usize) < core.entry_count() && {
                        let e = core.entry_at(v.entry);
                        e.hub == r.hubs[i]
                            && e.dist == v.dist
                            && local.get(v.local as usize) == Some(&core.corner_of(v.entry))
                    };
                    if !good {
                        return Err(HubError::corrupt(format!("region {k}: a via inconsistent")));
                    }
                }
            }
            Ok(())
        })
    }

    /// Builds the regions of side `g` of `grid`, in parallel by rows of regions (the result
    /// does not depend on the number of threads). Each point's visible corners come from the
    /// corners' side (`sight.rs`) when those views take at most `room` bytes (any size with
    /// `None`), else from a search at each point; the labels are the same.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn build(
        grid: &Grid,
        mesh: &Mesh,
        corners: &Corners,
        core: &CoreLabels,
        turns: &TurnOrder,
        g: u32,
        pre: &[(u64, RowLabels)],
        room: Option<u64>,
    ) -> Result<Regions, HubError> {
        let (w, h) = (grid.width() as u32, grid.height() as u32);
        let (across, down) = (w.div_ceil(g), h.div_ceil(g));
        // Each row of regions is built into flat arrays of exactly its size, then the rows
        // are copied in order into arrays of exactly the total size, each row freed once
        // copied: the build holds about twice the regions' size at most, not the many small
        // lists of a label per region (orz900d, regions of 8: 31.7 MB of heap at the peak
        // before, docs/hub.md).
        // What each point sees, from the corners' side: a search per corner instead of one
        // per point (`sight.rs`).
        let sight = Sight::build(grid, mesh, corners, g, room)?;
        let rows: Vec<RowLabels> = (0..down)
            .into_par_iter()
            .map_init(
                || {
                    (
                        Scratch::default(),
                        RegionScratch::default(),
                        BandSight::default(),
                    )
                },
                |(s, rs, band), ry| {
                    let mut row = RowLabels::default();
                    let seen = sight.as_ref().map(|sight| {
                        sight.band(grid, mesh, corners, ry, band);
                        &*band
                    });
                    for rx in 0..across {
                        let r = u64::from(ry) * u64::from(across) + u64::from(rx);
                        match pre.binary_search_by_key(&r, |&(q, _)| q) {
                            Ok(k) => row.append(&pre[k].1),
                            Err(_) => region_label(
                                grid, mesh, corners, core, turns, g, rx, ry, seen, s, rs, &mut row,
                            )?,
                        }
                    }
                    row.shrink_to_fit();
                    Ok(row)
                },
            )
            .collect::<Result<_, HubError>>()?;
        // Gone before the rows are assembled (the build's peak).
        drop(sight);
        let total = |f: fn(&RowLabels) -> usize| rows.iter().map(f).sum::<usize>();
        let (n_corners, n_hubs, n_vias) = (
            total(|r| r.corners.len()),
            total(|r| r.hubs.len()),
            total(|r| r.vias.len()),
        );
        if n_corners.max(n_hubs).max(n_vias) > u32::MAX as usize {
            return Err(HubError::TooLarge);
        }
        // The offsets start with a 0 here: appending shifts a row's ends by the lengths of
        // the arrays, not of the offsets.
        let regions = (across * down) as usize;
        let mut all = RowLabels {
            corner_end: Vec::with_capacity(regions + 1),
            corners: Vec::with_capacity(n_corners),
            masks: Vec::with_capacity(n_corners * Self::words(g)),
            hub_end: Vec::with_capacity(regions + 1),
            hubs: Vec::with_capacity(n_hubs),
            via_end: Vec::with_capacity(n_hubs + 1),
            vias: Vec::with_capacity(n_vias),
        };
        all.corner_end.push(0);
        all.hub_end.push(0);
        all.via_end.push(0);
        for row in rows {
            all.append(&row);
        }
        let out = Regions {
            g,
            across,
            arrays: RegionArrays {
                corner_off: all.corner_end,
                corners: all.corners,
                masks: all.masks,
                hub_off: all.hub_end,
                hubs: all.hubs,
                via_off: all.via_end,
                vias: all.vias,
            },
        };
        Ok(out)
    }
}

/// The labels of consecutive regions as they are built, in the layout of [`Regions`] with
/// offsets counted from the first of them; `*_end` hold each region's (each hub's) end.
#[derive(Debug, Default)]
pub(crate) struct RowLabels {
    pub(crate) corner_end: Vec<u32>,
    pub(crate) corners: Vec<u32>,
    pub(crate) masks: Vec<u64>,
    pub(crate) hub_end: Vec<u32>,
    pub(crate) hubs: Vec<u32>,
    pub(crate) via_end: Vec<u32>,
    pub(crate) vias: Vec<Via>,
}

impl RowLabels {
    /// Empties it, keeping its memory (a size estimate measures one region at a time).
    pub(crate) fn clear(&mut self) {
        self.corner_end.clear();
        self.corners.clear();
        self.masks.clear();
        self.hub_end.clear();
        self.hubs.clear();
        self.via_end.clear();
        self.vias.clear();
    }

    /// Appends `other`'s regions after these.
    fn append(&mut self, other: &RowLabels) {
        let (c0, h0, v0) = (
            self.corners.len() as u32,
            self.hubs.len() as u32,
            self.vias.len() as u32,
        );
        self.corner_end
            .extend(other.corner_end.iter().map(|&e| c0 + e));
        self.hub_end.extend(other.hub_end.iter().map(|&e| h0 + e));
        self.via_end.extend(other.via_end.iter().map(|&e| v0 + e));
        self.corners.extend_from_slice(&other.corners);
        self.masks.extend_from_slice(&other.masks);
        self.hubs.extend_from_slice(&other.hubs);
        self.vias.extend_from_slice(&other.vias);
    }

    /// Gives back the spare capacity of every array (a row's or a sampled region's labels
    /// are kept until the regions are assembled).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.corner_end.shrink_to_fit();
        self.corners.shrink_to_fit();
        self.masks.shrink_to_fit();
        self.hub_end.shrink_to_fit();
        self.hubs.shrink_to_fit();
        self.via_end.shrink_to_fit();
        self.vias.shrink_to_fit();
    }

    /// The bytes these regions take in a [`Regions`] of side `g`, offsets included.
    pub(crate) fn bytes(&self, g: u32) -> u64 {
        let words = Regions::words(g) as u64;
        self.corners.len() as u64 * (4 + 8 * words)
            + (self.hubs.len() as u64 + self.corner_end.len() as u64) * 4
            + self.via_end.len() as u64 * 4
            + self.hub_end.len() as u64 * 4
            + self.vias.len() as u64 * std::mem::size_of::<Via>() as u64
    }
}

/// Per-thread scratch of [`region_label`].
#[derive(Default)]
pub(crate) struct RegionScratch {
    /// The points' labels, one point at a time.
    label: Vec<(u32, PointEntry)>,
    /// (corner, point bit) for every corner a point sees.
    seen: Vec<(u32, u32)>,
    /// (hub, entry, distance) for every entry a point keeps.
    kept: Vec<(u32, u32, f64)>,
    /// The corners used as vias, sorted.
    used: Vec<u32>,
}

/// Appends the label of region `(rx, ry)`, its points' labels merged, to `out`. Each point's
/// corners come from `sight` (the corners' views of its band of rows) when given, else from
/// a search at the point: the same corners, and the same labels.
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
    sight: Option<&BandSight>,
    s: &mut Scratch,
    rs: &mut RegionScratch,
    out: &mut RowLabels,
) -> Result<(), HubError> {
    let RegionScratch {
        label,
        seen,
        kept,
        used,
    } = rs;
    seen.clear();
    kept.clear();
    s.begin_region(core.entry_count());
    for k in 0..g * g {
        let (x, y) = ((rx * g + k % g) as i32, (ry * g + k / g) as i32);
        if x >= grid.width() || y >= grid.height() || !grid.is_free(x, y) {
            continue;
        }
        label.clear();
        match sight {
            Some(band) => s.point_label_seen(
                corners,
                core,
                turns,
                Point::new(x, y),
                k,
                band.seen(x, y),
                label,
            ),
            None => s.point_label(mesh, corners, core, turns, Point::new(x, y), k, label)?,
        }
        seen.extend(s.visible().iter().map(|&c| (c, k)));
        kept.extend(
            label
                .iter()
                .map(|(_, e)| (e.hub, e.entry, core.entry_at(e.entry).dist)),
        );
    }
    // The corners used as vias, with the points that see them.
    used.clear();
    used.extend(kept.iter().map(|&(_, e, _)| core.corner_of(e)));
    used.sort_unstable();
    used.dedup();
    let words = Regions::words(g);
    let m0 = out.masks.len();
    out.masks.resize(m0 + used.len() * words, 0);
    let masks = &mut out.masks[m0..];
    for &(c, k) in seen.iter() {
        if let Ok(i) = used.binary_search(&c) {
            masks[i * words + k as usize / 64] |= 1 << (k % 64);
        }
    }
    out.corners.extend_from_slice(used);
    out.corner_end.push(out.corners.len() as u32);
    // Each (hub, entry) pair comes once: the scratch leaves out those the region has.
    kept.sort_unstable_by_key(|&(h, e, _)| (h, e));
    debug_assert!(
        kept.windows(2)
            .all(|w| (w[0].0, w[0].1) != (w[1].0, w[1].1))
    );
    let first_hub = out.hubs.len();
    for &(hub, entry, dist) in kept.iter() {
        let corner = core.corner_of(entry);
        let local = used.binary_search(&corner).expect("a via is a used corner") as u32;
        if out.hubs.len() == first_hub || out.hubs.last() != Some(&hub) {
            if out.hubs.len() > first_hub {
                out.via_end.push(out.vias.len() as u32);
            }
            out.hubs.push(hub);
        }
        out.vias.push(Via { dist, entry, local });
    }
    if out.hubs.len() > first_hub {
        out.via_end.push(out.vias.len() as u32);
    }
    out.hub_end.push(out.hubs.len() as u32);
    Ok(())
}
