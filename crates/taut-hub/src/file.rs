//! Hub index files (format described in `docs/hub-format.md`).
//!
//! ```text
//! magic       8 bytes   b"TAUTHUB\0"
//! version     u32 LE    FORMAT_VERSION
//! body_len    u64 LE    length of the body in bytes
//! body                  fixed-width little-endian sections (below)
//! sha256      32 bytes  SHA-256 of everything before it
//! ```
//!
//! The body: the mesh hash (32 bytes); width, height, region side (u32); corners, graph
//! edges, core entries, point entries, region corners, region hubs, vias (u64); the free-cell
//! bitmap (u64 words); the corners' points (i32 x, y); the corners by rank (u32); the core's
//! offsets (u32, corners + 1) and entries (f64 distance, u32 hub, u32 next entry; the corner
//! is implied by the offsets);
//! then either (region side 1) the points' offsets (u32, cells + 1) and entries (f64
//! distance, u32 hub, u32 core entry), or the regions' corner offsets, corners and masks
//! (⌈g²/64⌉ u64 words per corner), hub offsets, hubs, via offsets and vias (f64 distance, u32
//! core entry, u32 local corner).
//! Fixed widths let the reader check the body's length against the counts before it
//! allocates anything, and stream both ways without a second copy of the index in memory.

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use sha2::{Digest, Sha256};
use taut_grid::{MAX_SIDE, Point};
use taut_mesh::corners::NO_CORNER;

use crate::HubError;
use crate::core::{CoreEntry, CoreLabels};
use crate::index::{HubIndex, PointEntry};
use crate::region::{MAX_REGION, Regions, Via};

/// Version of the file format this program reads and writes. Any change to the layout or to
/// the meaning of a field increments it; files of another version are refused
/// ([`HubError::Version`]) and must be rebuilt.
pub const FORMAT_VERSION: u32 = 3;
/// Magic number of a hub index file.
pub const HUB_MAGIC: [u8; 8] = *b"TAUTHUB\0";

const PREFIX: u64 = 8 + 4 + 8;
const DIGEST: u64 = 32;
const HEADER: u64 = 32 + 3 * 4 + 7 * 8;
const CORE_ENTRY: u64 = 8 + 2 * 4;
const POINT_ENTRY: u64 = 8 + 2 * 4;
const VIA: u64 = 8 + 2 * 4;
/// Bytes converted per write or read call.
const CHUNK: usize = 1 << 16;

/// What [`read_hub_header`] tells without reading the labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HubHeader {
    /// Format version (always [`FORMAT_VERSION`] when read successfully).
    pub version: u32,
    /// Hash of the mesh the index was built from.
    pub mesh_hash: [u8; 32],
    /// Width of the map.
    pub width: u32,
    /// Height of the map.
    pub height: u32,
    /// Side of the regions sharing labels (1: every point has its own).
    pub region: u32,
    /// Convex corners.
    pub corners: u64,
    /// Edges of the co-visible corner graph.
    pub edges: u64,
    /// Entries of the corners' labels.
    pub core_entries: u64,
    /// Entries of the points' labels (0 with regions).
    pub point_entries: u64,
    /// Corners of the regions' corner lists, summed over regions.
    pub region_corners: u64,
    /// Hubs of the regions' labels, summed over regions.
    pub region_hubs: u64,
    /// Vias of those hubs.
    pub region_vias: u64,
}

impl HubHeader {
    fn of(ix: &HubIndex) -> HubHeader {
        let r = ix.regions.as_ref();
        HubHeader {
            version: FORMAT_VERSION,
            mesh_hash: ix.mesh_hash,
            width: ix.width as u32,
            height: ix.height as u32,
            region: ix.region_size(),
            corners: ix.core.order.len() as u64,
            edges: ix.edges as u64,
            core_entries: ix.core.entries.len() as u64,
            point_entries: ix.entries.len() as u64,
            region_corners: r.map_or(0, |r| r.corners.len() as u64),
            region_hubs: r.map_or(0, |r| r.hubs.len() as u64),
            region_vias: r.map_or(0, |r| r.vias.len() as u64),
        }
    }

    fn cells(&self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }

    /// Regions of the map (0 without regions).
    fn regions(&self) -> u64 {
        if self.region <= 1 {
            return 0;
        }
        let g = u64::from(self.region);
        u64::from(self.width).div_ceil(g) * u64::from(self.height).div_ceil(g)
    }

    /// The body length these counts need, `None` when it overflows.
    fn body_len(&self) -> Option<u64> {
        let n = self.corners;
        let words = self.cells().div_ceil(64);
        let labels = if self.region <= 1 {
            [
                self.cells().checked_add(1)?.checked_mul(4),
                self.point_entries.checked_mul(POINT_ENTRY),
                Some(0),
                Some(0),
                Some(0),
                Some(0),
            ]
        } else {
            let r1 = self.regions().checked_add(1)?;
            let words = Regions::words(self.region.min(MAX_REGION)) as u64;
            [
                r1.checked_mul(2 * 4),
                self.region_corners.checked_mul(4 + 8 * words),
                self.region_hubs.checked_mul(4),
                self.region_hubs.checked_add(1)?.checked_mul(4),
                self.region_vias.checked_mul(VIA),
                Some(0),
            ]
        };
        [
            Some(HEADER),
            words.checked_mul(8),
            n.checked_mul(8),
            n.checked_mul(4),
            n.checked_add(1)?.checked_mul(4),
            self.core_entries.checked_mul(CORE_ENTRY),
        ]
        .into_iter()
        .chain(labels)
        .try_fold(0u64, |acc, x| acc.checked_add(x?))
    }
}

/// A writer that hashes what it writes.
struct Hashing<W> {
    inner: W,
    hash: Sha256,
}

impl<W: Write> Hashing<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        Digest::update(&mut self.hash, bytes);
        self.inner.write_all(bytes)
    }

    /// Writes `items`, `N` bytes each, in chunks.
    fn put_all<T, const N: usize>(
        &mut self,
        items: &[T],
        bytes: impl Fn(&T) -> [u8; N],
    ) -> std::io::Result<()> {
        self.put_iter(items.iter(), bytes)
    }

    /// Writes what `items` yields, `N` bytes each, in chunks.
    fn put_iter<T, const N: usize>(
        &mut self,
        items: impl Iterator<Item = T>,
        bytes: impl Fn(T) -> [u8; N],
    ) -> std::io::Result<()> {
        let mut buf = Vec::with_capacity(CHUNK);
        for x in items {
            buf.extend_from_slice(&bytes(x));
            if buf.len() + N > CHUNK {
                self.put(&buf)?;
                buf.clear();
            }
        }
        self.put(&buf)
    }
}

/// Writes `index` to `out` in the file format.
///
/// # Errors
/// What writing to `out` returns.
pub fn write_hub_to(out: impl Write, index: &HubIndex) -> std::io::Result<()> {
    let h = HubHeader::of(index);
    let body_len = h
        .body_len()
        .expect("an index in memory has a representable size");
    let mut w = Hashing {
        inner: out,
        hash: Sha256::new(),
    };
    w.put(&HUB_MAGIC)?;
    w.put(&FORMAT_VERSION.to_le_bytes())?;
    w.put(&body_len.to_le_bytes())?;
    w.put(&h.mesh_hash)?;
    for x in [h.width, h.height, h.region] {
        w.put(&x.to_le_bytes())?;
    }
    for x in [
        h.corners,
        h.edges,
        h.core_entries,
        h.point_entries,
        h.region_corners,
        h.region_hubs,
        h.region_vias,
    ] {
        w.put(&x.to_le_bytes())?;
    }
    w.put_all(&index.free, |x| x.to_le_bytes())?;
    w.put_all(&index.corner_points, |p| {
        let mut b = [0; 8];
        b[..4].copy_from_slice(&p.x.to_le_bytes());
        b[4..].copy_from_slice(&p.y.to_le_bytes());
        b
    })?;
    let core = &index.core;
    w.put_all(&core.order, |x| x.to_le_bytes())?;
    w.put_all(&core.off, |x| x.to_le_bytes())?;
    w.put_all(&core.entries, |e| {
        let mut b = [0; CORE_ENTRY as usize];
        b[..8].copy_from_slice(&e.dist.to_le_bytes());
        b[8..12].copy_from_slice(&e.hub.to_le_bytes());
        b[12..].copy_from_slice(&e.next_entry.to_le_bytes());
        b
    })?;
    match &index.regions {
        None => {
            w.put_all(&index.off, |x| x.to_le_bytes())?;
            w.put_all(&index.entries, |e| {
                let mut b = [0; POINT_ENTRY as usize];
                b[..8].copy_from_slice(&e.dist.to_le_bytes());
                b[8..12].copy_from_slice(&e.hub.to_le_bytes());
                b[12..].copy_from_slice(&e.entry.to_le_bytes());
                b
            })?;
        }
        Some(r) => {
            w.put_all(&r.corner_off, |x| x.to_le_bytes())?;
            w.put_all(&r.corners, |x| x.to_le_bytes())?;
            w.put_all(&r.masks, |x| x.to_le_bytes())?;
            w.put_all(&r.hub_off, |x| x.to_le_bytes())?;
            w.put_all(&r.hubs, |x| x.to_le_bytes())?;
            w.put_all(&r.via_off, |x| x.to_le_bytes())?;
            w.put_all(&r.vias, |v| {
                let mut b = [0; VIA as usize];
                b[..8].copy_from_slice(&v.dist.to_le_bytes());
                b[8..12].copy_from_slice(&v.entry.to_le_bytes());
                b[12..].copy_from_slice(&v.local.to_le_bytes());
                b
            })?;
        }
    }
    let digest = w.hash.finalize();
    w.inner.write_all(&digest)?;
    w.inner.flush()
}

/// The length in bytes of `index`'s file.
pub(crate) fn file_len(index: &HubIndex) -> u64 {
    PREFIX
        + HubHeader::of(index)
            .body_len()
            .unwrap_or(u64::MAX - PREFIX - DIGEST)
        + DIGEST
}

/// `index` as the bytes of a file.
pub fn encode_hub(index: &HubIndex) -> Vec<u8> {
    let mut out = Vec::new();
    write_hub_to(&mut out, index).expect("writing to a vector does not fail");
    out
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> HubError + '_ {
    |source| HubError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Writes `index` to `path`, atomically: into `path.tmp`, then renamed, so that a file that
/// exists is whole.
///
/// # Errors
/// [`HubError::Io`].
pub fn write_hub(path: &Path, index: &HubIndex) -> Result<(), HubError> {
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    let file = std::fs::File::create(&tmp).map_err(io_error(&tmp))?;
    write_hub_to(BufWriter::new(file), index).map_err(io_error(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io_error(path))
}

/// Where a reader's bytes go to be hashed.
trait ReadHash {
    /// Hashes `bytes` after those given before.
    fn update(&mut self, bytes: &[u8]);
    /// The SHA-256 of every byte given.
    fn digest(self) -> [u8; 32];
}

impl ReadHash for Sha256 {
    fn update(&mut self, bytes: &[u8]) {
        Digest::update(self, bytes);
    }

    fn digest(self) -> [u8; 32] {
        self.finalize().into()
    }
}

/// SHA-256 on another thread, fed through a bounded channel, so that reading and decoding a
/// large index overlap with hashing it (a quarter of the time of a load on one thread).
struct Threaded<'s> {
    chunks: Option<std::sync::mpsc::SyncSender<Vec<u8>>>,
    hasher: std::thread::ScopedJoinHandle<'s, [u8; 32]>,
}

impl<'s> Threaded<'s> {
    fn spawn(scope: &'s std::thread::Scope<'s, '_>) -> Self {
        let (chunks, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(16);
        let hasher = scope.spawn(move || {
            let mut h = Sha256::new();
            for chunk in rx {
                Digest::update(&mut h, &chunk);
            }
            h.finalize().into()
        });
        Threaded {
            chunks: Some(chunks),
            hasher,
        }
    }
}

impl ReadHash for Threaded<'_> {
    fn update(&mut self, bytes: &[u8]) {
        if let Some(tx) = &self.chunks {
            // The receiver lives until `digest` closes the channel.
            let _ = tx.send(bytes.to_vec());
        }
    }

    fn digest(mut self) -> [u8; 32] {
        drop(self.chunks.take());
        self.hasher
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    }
}

/// Files below this many bytes are hashed inline: a thread costs more than it saves there
/// (and the fuzz target decodes millions of small inputs).
const THREADED_HASH: u64 = 1 << 22;

/// Reads a whole index of `total` bytes from `inner`, hashing on a second thread when the
/// file is large.
fn read_hashed<R: Read>(inner: R, total: u64) -> Result<HubIndex, ReadError> {
    if total < THREADED_HASH {
        return read_index(Reading::new(inner, Sha256::new()), total);
    }
    std::thread::scope(|scope| read_index(Reading::new(inner, Threaded::spawn(scope)), total))
}

/// A reader that hashes what it reads, and tells a short file from a failed read.
struct Reading<R, H> {
    inner: R,
    hash: H,
}

impl<R: Read, H: ReadHash> Reading<R, H> {
    fn new(inner: R, hash: H) -> Self {
        Reading { inner, hash }
    }

    /// Fills `buf` without hashing it: a short file is [`HubError::Truncated`].
    fn raw(&mut self, buf: &mut [u8]) -> Result<(), ReadError> {
        self.inner.read_exact(buf).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                ReadError::Hub(HubError::Truncated)
            } else {
                ReadError::Io(e)
            }
        })
    }

    fn take(&mut self, buf: &mut [u8]) -> Result<(), ReadError> {
        self.raw(buf)?;
        self.hash.update(&*buf);
        Ok(())
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], ReadError> {
        let mut b = [0; N];
        self.take(&mut b)?;
        Ok(b)
    }

    fn u32(&mut self) -> Result<u32, ReadError> {
        self.array().map(u32::from_le_bytes)
    }

    fn u64(&mut self) -> Result<u64, ReadError> {
        self.array().map(u64::from_le_bytes)
    }

    /// Reads `count` items of `N` bytes each, in chunks.
    fn all<T, const N: usize>(
        &mut self,
        count: u64,
        item: impl Fn(&[u8; N]) -> T,
    ) -> Result<Vec<T>, ReadError> {
        // The caller checked `count` against the file's length.
        let count = usize::try_from(count).map_err(|_| ReadError::Hub(HubError::Truncated))?;
        let mut out = Vec::with_capacity(count);
        let mut buf = vec![0; CHUNK / N * N];
        while out.len() < count {
            let k = (count - out.len()).min(CHUNK / N);
            self.take(&mut buf[..k * N])?;
            out.extend(
                buf[..k * N]
                    .chunks_exact(N)
                    .map(|c| item(c.try_into().expect("N bytes"))),
            );
        }
        Ok(out)
    }
}

enum ReadError {
    Io(std::io::Error),
    Hub(HubError),
}

impl From<HubError> for ReadError {
    fn from(e: HubError) -> Self {
        ReadError::Hub(e)
    }
}

fn corrupt(what: impl Into<String>) -> HubError {
    HubError::Corrupt(what.into())
}

/// Reads the prefix and header; checks magic, version, and that the counts give the body
/// length announced and the whole length `total`.
fn read_header<R: Read, H: ReadHash>(
    r: &mut Reading<R, H>,
    total: u64,
) -> Result<HubHeader, ReadError> {
    let mut magic = [0u8; 8];
    let mut got = 0;
    while got < 8 {
        match r.inner.read(&mut magic[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ReadError::Io(e)),
        }
    }
    if magic[..got] != HUB_MAGIC[..got] {
        return Err(HubError::NotAHub.into());
    }
    if got < 8 {
        return Err(HubError::Truncated.into());
    }
    r.hash.update(&magic);
    let version = r.u32()?;
    if version != FORMAT_VERSION {
        return Err(HubError::Version {
            found: version,
            expected: FORMAT_VERSION,
        }
        .into());
    }
    let body_len = r.u64()?;
    let mesh_hash = r.array()?;
    let (width, height, region) = (r.u32()?, r.u32()?, r.u32()?);
    let h = HubHeader {
        version,
        mesh_hash,
        width,
        height,
        region,
        corners: r.u64()?,
        edges: r.u64()?,
        core_entries: r.u64()?,
        point_entries: r.u64()?,
        region_corners: r.u64()?,
        region_hubs: r.u64()?,
        region_vias: r.u64()?,
    };
    if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
        return Err(corrupt(format!("impossible map size {width} × {height}")).into());
    }
    if region == 0 || region > MAX_REGION {
        return Err(corrupt(format!("impossible region side {region}")).into());
    }
    let unused = if region == 1 {
        h.region_corners | h.region_hubs | h.region_vias
    } else {
        h.point_entries
    };
    if unused != 0 {
        return Err(corrupt("counts of another layout than the region side's").into());
    }
    if h.corners >= u64::from(NO_CORNER)
        || h.core_entries >= u64::from(NO_CORNER)
        || [
            h.point_entries,
            h.region_corners,
            h.region_hubs,
            h.region_vias,
        ]
        .iter()
        .any(|&x| x >= u64::from(u32::MAX))
    {
        return Err(corrupt("more entries than 32-bit offsets count").into());
    }
    if h.body_len() != Some(body_len) {
        return Err(corrupt(format!(
            "the counts need another body length than the {body_len} bytes announced"
        ))
        .into());
    }
    let want = PREFIX + body_len + DIGEST;
    if total < want {
        return Err(HubError::Truncated.into());
    }
    if total > want {
        return Err(corrupt(format!("{} bytes after the checksum", total - want)).into());
    }
    Ok(h)
}

/// Reads a whole index from `r`, whose length is `total` bytes.
fn read_index<R: Read, H: ReadHash>(
    mut r: Reading<R, H>,
    total: u64,
) -> Result<HubIndex, ReadError> {
    let h = read_header(&mut r, total)?;
    let cells = h.cells();
    let free = r.all(cells.div_ceil(64), |b: &[u8; 8]| u64::from_le_bytes(*b))?;
    let corner_points = r.all(h.corners, |b: &[u8; 8]| {
        Point::new(
            i32::from_le_bytes(b[..4].try_into().expect("4 bytes")),
            i32::from_le_bytes(b[4..].try_into().expect("4 bytes")),
        )
    })?;
    let u32s = |b: &[u8; 4]| u32::from_le_bytes(*b);
    let order = r.all(h.corners, u32s)?;
    let core_off = r.all(h.corners + 1, u32s)?;
    let core_entries = r.all(h.core_entries, |b: &[u8; CORE_ENTRY as usize]| {
        let u = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
        CoreEntry {
            dist: f64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
            hub: u(8),
            next_entry: u(12),
        }
    })?;
    let (off, entries, regions) = if h.region == 1 {
        let off = r.all(cells + 1, u32s)?;
        let entries = r.all(h.point_entries, |b: &[u8; POINT_ENTRY as usize]| {
            let u = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
            PointEntry {
                dist: f64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                hub: u(8),
                entry: u(12),
            }
        })?;
        (off, entries, None)
    } else {
        let n = h.regions();
        let corner_off = r.all(n + 1, u32s)?;
        let corners = r.all(h.region_corners, u32s)?;
        let words = h.region_corners * Regions::words(h.region) as u64;
        let masks = r.all(words, |b: &[u8; 8]| u64::from_le_bytes(*b))?;
        let hub_off = r.all(n + 1, u32s)?;
        let hubs = r.all(h.region_hubs, u32s)?;
        let via_off = r.all(h.region_hubs + 1, u32s)?;
        let vias = r.all(h.region_vias, |b: &[u8; VIA as usize]| {
            let u = |i: usize| u32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
            Via {
                dist: f64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                entry: u(8),
                local: u(12),
            }
        })?;
        let regions = Regions {
            g: h.region,
            across: h.width.div_ceil(h.region),
            corner_off,
            corners,
            masks,
            hub_off,
            hubs,
            via_off,
            vias,
        };
        (Vec::new(), Vec::new(), Some(regions))
    };
    let mut stored = [0u8; DIGEST as usize];
    r.raw(&mut stored)?;
    if r.hash.digest() != stored {
        return Err(HubError::Checksum.into());
    }
    let mut rank = vec![NO_CORNER; order.len()];
    for (r, &c) in order.iter().enumerate() {
        match rank.get_mut(c as usize) {
            Some(slot) if *slot == NO_CORNER => *slot = r as u32,
            _ => return Err(corrupt("the corner order is not a permutation").into()),
        }
    }
    let index = HubIndex {
        mesh_hash: h.mesh_hash,
        width: h.width as i32,
        height: h.height as i32,
        free,
        corner_points,
        edges: h.edges as usize,
        core: CoreLabels::new(order, rank, core_off, core_entries),
        off,
        entries,
        regions,
    };
    validate(&index)?;
    Ok(index)
}

/// Checks everything the queries rely on, so that a file whose checksum holds but whose
/// content was not written by taut (or by a faulty taut) is refused rather than answered
/// wrongly or with a panic.
fn validate(ix: &HubIndex) -> Result<(), HubError> {
    let (w, h) = (ix.width, ix.height);
    let cells = w as usize * h as usize;
    if !cells.is_multiple_of(64) && ix.free[cells / 64] >> (cells % 64) != 0 {
        return Err(corrupt("free-cell bits past the last cell"));
    }
    if let Some(p) = ix
        .corner_points
        .iter()
        .find(|p| p.x < 0 || p.y < 0 || p.x > w || p.y > h)
    {
        return Err(corrupt(format!("corner {p} off the map")));
    }
    let core = &ix.core;
    let (n, total) = (core.order.len(), core.entries.len());
    check_offsets(&core.off, total, "core")?;
    // Corners, points and regions are checked in parallel: each check reads only what its
    // own label points to.
    (0..n).into_par_iter().try_for_each(|c| {
        let range = core.off[c] as usize..core.off[c + 1] as usize;
        let mut last = None;
        for e in &core.entries[range] {
            if e.hub as usize >= n || last.is_some_and(|l| l >= e.hub) {
                return Err(corrupt(format!("corner {c}: label entry out of order")));
            }
            last = Some(e.hub);
            if !(e.dist.is_finite() && e.dist >= 0.0) {
                return Err(corrupt(format!("corner {c}: distance {}", e.dist)));
            }
            match e.next_entry() {
                None if e.dist != 0.0 || core.order[e.hub as usize] as usize != c => {
                    return Err(corrupt(format!("corner {c}: a path ends before its hub")));
                }
                None => {}
                Some(j) => {
                    let next = core.entries.get(j as usize);
                    if !next.is_some_and(|x| x.hub == e.hub && x.dist < e.dist) {
                        return Err(corrupt(format!("corner {c}: a path's next step is wrong")));
                    }
                }
            }
        }
        Ok(())
    })?;
    if let Some(r) = &ix.regions {
        return validate_regions(ix, r);
    }
    check_offsets(&ix.off, ix.entries.len(), "point")?;
    (0..cells).into_par_iter().try_for_each(|i| {
        let range = ix.off[i] as usize..ix.off[i + 1] as usize;
        let free = ix.free[i / 64] >> (i % 64) & 1 == 1;
        if !free && !range.is_empty() {
            return Err(corrupt(format!("blocked cell {i} has a label")));
        }
        let mut last = None;
        for e in &ix.entries[range] {
            let good = (e.hub as usize) < n
                && last.is_none_or(|l| l < e.hub)
                && e.dist.is_finite()
                && e.dist >= 0.0
                && core
                    .entries
                    .get(e.entry as usize)
                    .is_some_and(|x| x.hub == e.hub);
            if !good {
                return Err(corrupt(format!("cell {i}: label entry inconsistent")));
            }
            last = Some(e.hub);
        }
        Ok(())
    })
}

/// [`validate`] for the labels of regions.
fn validate_regions(ix: &HubIndex, r: &Regions) -> Result<(), HubError> {
    let core = &ix.core;
    let n = core.order.len();
    check_offsets(&r.corner_off, r.corners.len(), "region corner")?;
    check_offsets(&r.hub_off, r.hubs.len(), "region hub")?;
    check_offsets(&r.via_off, r.vias.len(), "via")?;
    let bits = r.g * r.g;
    (0..r.corner_off.len() - 1)
        .into_par_iter()
        .try_for_each(|k| {
            let cs = r.corner_off[k] as usize..r.corner_off[k + 1] as usize;
            let local = &r.corners[cs.clone()];
            if local.windows(2).any(|w| w[0] >= w[1])
                || local.last().is_some_and(|&c| c as usize >= n)
            {
                return Err(corrupt(format!("region {k}: corner list out of order")));
            }
            if bits < 64 && r.masks[cs].iter().any(|m| m >> bits != 0) {
                return Err(corrupt(format!(
                    "region {k}: a mask names a point outside it"
                )));
            }
            let hs = r.hub_off[k] as usize..r.hub_off[k + 1] as usize;
            let hubs = &r.hubs[hs.clone()];
            if hubs.windows(2).any(|w| w[0] >= w[1])
                || hubs.last().is_some_and(|&h| h as usize >= n)
            {
                return Err(corrupt(format!("region {k}: hubs out of order")));
            }
            for i in hs {
                let vs = r.via_off[i] as usize..r.via_off[i + 1] as usize;
                if vs.is_empty() {
                    return Err(corrupt(format!("region {k}: a hub without a via")));
                }
                for v in &r.vias[vs] {
                    let good = core.entries.get(v.entry as usize).is_some_and(|e| {
                        e.hub == r.hubs[i]
                            && e.dist == v.dist
                            && local.get(v.local as usize) == Some(&core.corner_of(v.entry))
                    });
                    if !good {
                        return Err(corrupt(format!("region {k}: a via inconsistent")));
                    }
                }
            }
            Ok(())
        })
}

fn check_offsets(off: &[u32], total: usize, what: &str) -> Result<(), HubError> {
    if off.first() != Some(&0)
        || off.last().map(|&x| x as usize) != Some(total)
        || off.windows(2).any(|w| w[0] > w[1])
    {
        return Err(corrupt(format!("{what} label offsets")));
    }
    Ok(())
}

/// Decodes and checks the bytes of a file.
///
/// # Errors
/// [`HubError::NotAHub`], [`HubError::Version`], [`HubError::Truncated`],
/// [`HubError::Checksum`], [`HubError::Corrupt`].
pub fn decode_hub(bytes: &[u8]) -> Result<HubIndex, HubError> {
    read_hashed(bytes, bytes.len() as u64).map_err(|e| match e {
        ReadError::Hub(e) => e,
        ReadError::Io(e) => corrupt(format!("reading from memory: {e}")),
    })
}

/// A buffered reader of the file at `path`, and the file's length.
fn open(path: &Path) -> Result<(BufReader<std::fs::File>, u64), HubError> {
    let file = std::fs::File::open(path).map_err(io_error(path))?;
    let total = file.metadata().map_err(io_error(path))?.len();
    Ok((BufReader::with_capacity(CHUNK, file), total))
}

/// A read error of the file at `path` as a [`HubError`] (an I/O error names the file).
fn in_file(path: &Path) -> impl Fn(ReadError) -> HubError + '_ {
    move |e| match e {
        ReadError::Hub(e) => e,
        ReadError::Io(source) => HubError::Io {
            path: path.to_path_buf(),
            source,
        },
    }
}

/// Reads and checks a hub index file.
///
/// # Errors
/// [`HubError::Io`], or those of [`decode_hub`].
pub fn read_hub(path: &Path) -> Result<HubIndex, HubError> {
    let (file, total) = open(path)?;
    read_hashed(file, total).map_err(in_file(path))
}

/// Reads the header of a hub index file: what it was built for and its sizes, without reading
/// or checking the labels.
///
/// # Errors
/// [`HubError::Io`], [`HubError::NotAHub`], [`HubError::Version`], [`HubError::Truncated`],
/// [`HubError::Corrupt`] (counts that do not give the file's length).
pub fn read_hub_header(path: &Path) -> Result<HubHeader, HubError> {
    let (file, total) = open(path)?;
    read_header(&mut Reading::new(file, Sha256::new()), total).map_err(in_file(path))
}
