//! Hub index files (format described in `docs/hub-format.md`).
//!
//! ```text
//! magic       8 bytes   b"TAUTHUB\0"
//! version     u32 LE    FORMAT_VERSION
//! body_len    u64 LE    length of the body in bytes
//! body                  fixed-width little-endian sections (below)
//! checksum    16 bytes  XXH3-128 of everything before it, little-endian
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
//! allocates anything, and copy the arrays both ways without a second copy of the index in
//! memory: each array is written from and read straight into the memory of its vector, as
//! the bytes of its items ([`Stored`]), the reads in parallel pieces ([`read_hashed`]).
//!
//! This module frames, versions and checksums the arrays; their meaning stays with their
//! types. It writes what [`HubIndex::parts`] lends (with
//! [`CoreLabels::parts`](crate::CoreLabels::parts) and [`Regions::arrays`]) and reads into
//! [`HubIndex::from_parts`], which checks everything the queries rely on.

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use taut_grid::{MAX_SIDE, Point};
use taut_mesh::corners::NO_CORNER;
use xxhash_rust::xxh3::Xxh3;

use crate::HubError;
use crate::core::CoreEntry;
use crate::index::{HubIndex, IndexArrays, IndexParts};
use crate::point::PointEntry;
use crate::region::{MAX_REGION, RegionArrays, Regions, Via};

/// Version of the file format this program reads and writes. Any change to the layout or to
/// the meaning of a field increments it; files of another version are refused
/// ([`HubError::Version`]) and must be rebuilt.
pub const FORMAT_VERSION: u32 = 4;
/// Magic number of a hub index file.
pub const HUB_MAGIC: [u8; 8] = *b"TAUTHUB\0";

const PREFIX: u64 = 8 + 4 + 8;
const DIGEST: u64 = 16;
const HEADER: u64 = 32 + 3 * 4 + 7 * 8;
/// Bytes of a core entry, a point entry and a via in a file: their bytes in memory (each a
/// `repr(C)` f64 and two u32, without padding).
const CORE_ENTRY: u64 = size_of::<CoreEntry>() as u64;
const POINT_ENTRY: u64 = size_of::<PointEntry>() as u64;
const VIA: u64 = size_of::<Via>() as u64;
const _: () = assert!(CORE_ENTRY == 16 && POINT_ENTRY == 16 && VIA == 16);
/// Bytes per write or read call.
const CHUNK: usize = 1 << 16;

/// A type stored in a file as its bytes, each field little-endian. The label arrays are
/// read straight into their vectors' memory and written from it; on a big-endian machine
/// each item's fields are swapped on the way (the same swap both ways), on a little-endian
/// one [`Stored::swap_le`] does nothing.
trait Stored: bytemuck::Pod {
    /// `self` with each field converted between the machine's order and little-endian.
    fn swap_le(self) -> Self;
}

impl Stored for u32 {
    #[inline]
    fn swap_le(self) -> Self {
        self.to_le()
    }
}

impl Stored for u64 {
    #[inline]
    fn swap_le(self) -> Self {
        self.to_le()
    }
}

impl Stored for [i32; 2] {
    #[inline]
    fn swap_le(self) -> Self {
        self.map(i32::to_le)
    }
}

/// A distance's bits, little-endian.
#[inline]
fn f64_le(x: f64) -> f64 {
    f64::from_bits(x.to_bits().to_le())
}

impl Stored for CoreEntry {
    #[inline]
    fn swap_le(self) -> Self {
        CoreEntry {
            dist: f64_le(self.dist),
            hub: self.hub.to_le(),
            next_entry: self.next_entry.to_le(),
        }
    }
}

impl Stored for PointEntry {
    #[inline]
    fn swap_le(self) -> Self {
        PointEntry {
            dist: f64_le(self.dist),
            hub: self.hub.to_le(),
            entry: self.entry.to_le(),
        }
    }
}

impl Stored for Via {
    #[inline]
    fn swap_le(self) -> Self {
        Via {
            dist: f64_le(self.dist),
            entry: self.entry.to_le(),
            local: self.local.to_le(),
        }
    }
}

/// The checksum of a file: XXH3-128 of every byte before it, as 16 little-endian bytes.
/// (Formats 1 to 3 used SHA-256, four times slower here: `docs/hub-format.md`, Speed.)
pub fn checksum(bytes: &[u8]) -> [u8; 16] {
    xxhash_rust::xxh3::xxh3_128(bytes).to_le_bytes()
}

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
    fn of(ix: &IndexParts<'_>) -> HubHeader {
        let r = ix.regions.map(Regions::arrays);
        HubHeader {
            version: FORMAT_VERSION,
            mesh_hash: *ix.mesh_hash,
            width: ix.width,
            height: ix.height,
            region: ix.regions.map_or(1, Regions::side),
            corners: ix.core.len() as u64,
            edges: ix.edges as u64,
            core_entries: ix.core.entry_count() as u64,
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
    hash: Xxh3,
}

impl<W: Write> Hashing<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.hash.update(bytes);
        self.inner.write_all(bytes)
    }

    /// Writes `items` as their little-endian bytes, in chunks.
    fn put_all<T: Stored>(&mut self, items: &[T]) -> std::io::Result<()> {
        let mut buf: Vec<T> = Vec::with_capacity(CHUNK / size_of::<T>());
        for chunk in items.chunks(CHUNK / size_of::<T>()) {
            buf.clear();
            buf.extend(chunk.iter().map(|&x| x.swap_le()));
            self.put(bytemuck::cast_slice(&buf))?;
        }
        Ok(())
    }
}

/// Writes `index` to `out` in the file format.
///
/// # Errors
/// What writing to `out` returns.
pub fn write_hub_to(out: impl Write, index: &HubIndex) -> std::io::Result<()> {
    let index = index.parts();
    let h = HubHeader::of(&index);
    let body_len = h
        .body_len()
        .expect("an index in memory has a representable size");
    let mut w = Hashing {
        inner: out,
        hash: Xxh3::new(),
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
    w.put_all(index.free)?;
    let points: Vec<[i32; 2]> = index.corner_points.iter().map(|p| [p.x, p.y]).collect();
    w.put_all(&points)?;
    let (order, off, entries) = index.core.parts();
    w.put_all(order)?;
    w.put_all(off)?;
    w.put_all(entries)?;
    match index.regions.map(Regions::arrays) {
        None => {
            w.put_all(index.off)?;
            w.put_all(index.entries)?;
        }
        Some(r) => {
            w.put_all(&r.corner_off)?;
            w.put_all(&r.corners)?;
            w.put_all(&r.masks)?;
            w.put_all(&r.hub_off)?;
            w.put_all(&r.hubs)?;
            w.put_all(&r.via_off)?;
            w.put_all(&r.vias)?;
        }
    }
    let digest = w.hash.digest128().to_le_bytes();
    w.inner.write_all(&digest)?;
    w.inner.flush()
}

/// The length in bytes of `index`'s file.
pub(crate) fn file_len(index: &HubIndex) -> u64 {
    PREFIX
        + HubHeader::of(&index.parts())
            .body_len()
            .unwrap_or(u64::MAX - PREFIX - DIGEST)
        + DIGEST
}

impl HubIndex {
    /// The larger of the index's heap bytes and its file's length.
    pub fn size_bytes(&self) -> u64 {
        (self.heap_bytes() as u64).max(file_len(self))
    }
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

/// Bytes a thread reads at once: the label arrays are read in pieces of this size, in
/// parallel, straight into their vectors.
const PIECE: usize = 1 << 20;

/// Where a file's bytes come from: read by position, from several threads at once.
trait Source: Sync {
    /// Fills `buf` with the bytes at `offset`; a short source is `UnexpectedEof`.
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()>;
}

impl Source for [u8] {
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        let bytes = usize::try_from(offset)
            .ok()
            .and_then(|at| self.get(at..at.checked_add(buf.len())?))
            .ok_or(std::io::ErrorKind::UnexpectedEof)?;
        buf.copy_from_slice(bytes);
        Ok(())
    }
}

/// An open file read by position (`pread`; on platforms without it, one read at a time).
struct FileSource {
    #[cfg(any(unix, windows))]
    file: std::fs::File,
    #[cfg(not(any(unix, windows)))]
    file: std::sync::Mutex<std::fs::File>,
}

impl Source for FileSource {
    #[cfg(unix)]
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        std::os::unix::fs::FileExt::read_exact_at(&self.file, buf, offset)
    }

    #[cfg(windows)]
    fn read_at(&self, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
        while !buf.is_empty() {
            match std::os::windows::fs::FileExt::seek_read(&self.file, buf, offset) {
                Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                Ok(k) => {
                    buf = &mut buf[k..];
                    offset += k as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    #[cfg(not(any(unix, windows)))]
    fn read_at(&self, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
        use std::io::Seek;
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.seek(std::io::SeekFrom::Start(offset))?;
        file.read_exact(buf)
    }
}

/// A read error of a source: a short source is [`HubError::Truncated`].
fn read_error(e: std::io::Error) -> ReadError {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        ReadError::Hub(HubError::Truncated)
    } else {
        ReadError::Io(e)
    }
}

/// The arrays of a file as they are read: the corners' points as the file stores them, the
/// others in the index's own ([`IndexArrays`]); those of the other layout than the region
/// side's stay empty.
struct Arrays {
    points: Vec<[i32; 2]>,
    index: IndexArrays,
}

/// `count` zeroed items, for a count the header checked against the file's length.
fn zeroed<T: Stored>(count: u64) -> Result<Vec<T>, ReadError> {
    let count = usize::try_from(count).map_err(|_| ReadError::Hub(HubError::Truncated))?;
    Ok(bytemuck::zeroed_vec(count))
}

/// Converts `items` from the file's little-endian order (nothing to do on little-endian
/// machines).
fn swap_all<T: Stored>(items: &mut [T]) {
    if cfg!(target_endian = "big") {
        for x in items {
            *x = x.swap_le();
        }
    }
}

impl Arrays {
    /// The arrays that the counts of `h` announce, zeroed, with the header's fields.
    fn zeroed(h: &HubHeader) -> Result<Arrays, ReadError> {
        let cells = h.cells();
        let mut a = IndexArrays {
            mesh_hash: h.mesh_hash,
            width: h.width,
            height: h.height,
            region: h.region,
            edges: h.edges as usize,
            free: zeroed(cells.div_ceil(64))?,
            order: zeroed(h.corners)?,
            core_off: zeroed(h.corners + 1)?,
            core_entries: zeroed(h.core_entries)?,
            ..IndexArrays::default()
        };
        if h.region == 1 {
            a.off = zeroed(cells + 1)?;
            a.entries = zeroed(h.point_entries)?;
        } else {
            let n = h.regions();
            a.regions = RegionArrays {
                corner_off: zeroed(n + 1)?,
                corners: zeroed(h.region_corners)?,
                masks: zeroed(h.region_corners * Regions::words(h.region) as u64)?,
                hub_off: zeroed(n + 1)?,
                hubs: zeroed(h.region_hubs)?,
                via_off: zeroed(h.region_hubs + 1)?,
                vias: zeroed(h.region_vias)?,
            };
        }
        Ok(Arrays {
            points: zeroed(h.corners)?,
            index: a,
        })
    }

    /// Each array's bytes, in the file's order.
    fn bytes_mut(&mut self) -> [&mut [u8]; 14] {
        use bytemuck::cast_slice_mut as b;
        let a = &mut self.index;
        let r = &mut a.regions;
        [
            b(&mut a.free),
            b(&mut self.points),
            b(&mut a.order),
            b(&mut a.core_off),
            b(&mut a.core_entries),
            b(&mut a.off),
            b(&mut a.entries),
            b(&mut r.corner_off),
            b(&mut r.corners),
            b(&mut r.masks),
            b(&mut r.hub_off),
            b(&mut r.hubs),
            b(&mut r.via_off),
            b(&mut r.vias),
        ]
    }

    /// Every item from the file's little-endian order to the machine's.
    fn swap_le(&mut self) {
        let a = &mut self.index;
        let r = &mut a.regions;
        swap_all(&mut a.free);
        swap_all(&mut self.points);
        swap_all(&mut a.order);
        swap_all(&mut a.core_off);
        swap_all(&mut a.core_entries);
        swap_all(&mut a.off);
        swap_all(&mut a.entries);
        swap_all(&mut r.corner_off);
        swap_all(&mut r.corners);
        swap_all(&mut r.masks);
        swap_all(&mut r.hub_off);
        swap_all(&mut r.hubs);
        swap_all(&mut r.via_off);
        swap_all(&mut r.vias);
    }
}

/// Reads a whole index of `total` bytes from `src`. The header is read first; the arrays it
/// announces are then read in pieces of [`PIECE`] bytes, in parallel on the rayon pool,
/// straight into their vectors (the page faults of the new memory, most of a load's time,
/// are shared by the threads). Then the checksum and the checks of [`HubIndex::from_parts`]
/// run side by side; a checksum that fails is reported first, whatever the checks found.
fn read_hashed(src: &(impl Source + ?Sized), total: u64) -> Result<HubIndex, ReadError> {
    let mut head = vec![0; total.min(PREFIX + HEADER) as usize];
    src.read_at(&mut head, 0).map_err(read_error)?;
    let mut r = Reading::new(&head[..]);
    let h = read_header(&mut r, total)?;
    let mut hash = r.hash;
    let mut arrays = Arrays::zeroed(&h)?;
    let mut pieces = Vec::new();
    let mut at = PREFIX + HEADER;
    for bytes in arrays.bytes_mut() {
        for piece in bytes.chunks_mut(PIECE) {
            let len = piece.len() as u64;
            pieces.push((at, piece));
            at += len;
        }
    }
    pieces
        .into_par_iter()
        .try_for_each(|(at, piece)| src.read_at(piece, at))
        .map_err(read_error)?;
    let mut stored = [0u8; DIGEST as usize];
    src.read_at(&mut stored, at).map_err(read_error)?;
    // The file's bytes are the arrays' own on a little-endian machine: they are hashed from
    // the index while its checks run. A big-endian one hashes them before it swaps them.
    let little = cfg!(target_endian = "little");
    if !little {
        for bytes in arrays.bytes_mut() {
            hash.update(bytes);
        }
        arrays.swap_le();
    }
    let Arrays { points, mut index } = arrays;
    index.corner_points = points.iter().map(|&[x, y]| Point::new(x, y)).collect();
    let points = &points;
    let (sum, index) = HubIndex::from_parts(index, move |parts| {
        if little {
            for bytes in sections(&parts, points) {
                hash.update(bytes);
            }
        }
        hash.digest128().to_le_bytes()
    });
    if sum != stored {
        return Err(HubError::Checksum.into());
    }
    Ok(index?)
}

/// The bytes of `index`'s arrays in the file's order (`points`: its corners' points as the
/// file stores them), on a little-endian machine the file's bytes.
fn sections<'a>(index: &IndexParts<'a>, points: &'a [[i32; 2]]) -> [&'a [u8]; 14] {
    use bytemuck::cast_slice as b;
    let (order, off, entries) = index.core.parts();
    let r = index.regions.map(Regions::arrays);
    let empty: &[u32] = &[];
    [
        b(index.free),
        b(points),
        b(order),
        b(off),
        b(entries),
        b(index.off),
        b(index.entries),
        b(r.map_or(empty, |r| &r.corner_off)),
        b(r.map_or(empty, |r| &r.corners)),
        b(r.map_or(&[][..], |r| &r.masks)),
        b(r.map_or(empty, |r| &r.hub_off)),
        b(r.map_or(empty, |r| &r.hubs)),
        b(r.map_or(empty, |r| &r.via_off)),
        b(r.map_or(&[][..], |r| &r.vias)),
    ]
}

/// A reader that hashes what it reads, and tells a short file from a failed read.
struct Reading<R> {
    inner: R,
    hash: Xxh3,
}

impl<R: Read> Reading<R> {
    fn new(inner: R) -> Self {
        Reading {
            inner,
            hash: Xxh3::new(),
        }
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

/// Reads the prefix and header; checks magic, version, and that the counts give the body
/// length announced and the whole length `total`.
fn read_header<R: Read>(r: &mut Reading<R>, total: u64) -> Result<HubHeader, ReadError> {
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
        return Err(HubError::corrupt(format!("impossible map size {width} × {height}")).into());
    }
    if region == 0 || region > MAX_REGION {
        return Err(HubError::corrupt(format!("impossible region side {region}")).into());
    }
    let unused = if region == 1 {
        h.region_corners | h.region_hubs | h.region_vias
    } else {
        h.point_entries
    };
    if unused != 0 {
        return Err(HubError::corrupt("counts of another layout than the region side's").into());
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
        return Err(HubError::corrupt("more entries than 32-bit offsets count").into());
    }
    if h.body_len() != Some(body_len) {
        return Err(HubError::corrupt(format!(
            "the counts need another body length than the {body_len} bytes announced"
        ))
        .into());
    }
    let want = PREFIX + body_len + DIGEST;
    if total < want {
        return Err(HubError::Truncated.into());
    }
    if total > want {
        return Err(HubError::corrupt(format!("{} bytes after the checksum", total - want)).into());
    }
    Ok(h)
}

/// Decodes and checks the bytes of a file.
///
/// # Errors
/// [`HubError::NotAHub`], [`HubError::Version`], [`HubError::Truncated`],
/// [`HubError::Checksum`], [`HubError::Corrupt`].
pub fn decode_hub(bytes: &[u8]) -> Result<HubIndex, HubError> {
    read_hashed(bytes, bytes.len() as u64).map_err(|e| match e {
        ReadError::Hub(e) => e,
        ReadError::Io(e) => HubError::corrupt(format!("reading from memory: {e}")),
    })
}

/// The file at `path`, open, and its length.
fn open(path: &Path) -> Result<(std::fs::File, u64), HubError> {
    let file = std::fs::File::open(path).map_err(io_error(path))?;
    let total = file.metadata().map_err(io_error(path))?.len();
    Ok((file, total))
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
    let src = FileSource {
        #[cfg(any(unix, windows))]
        file,
        #[cfg(not(any(unix, windows)))]
        file: std::sync::Mutex::new(file),
    };
    read_hashed(&src, total).map_err(in_file(path))
}

/// Reads the header of a hub index file: what it was built for and its sizes, without reading
/// or checking the labels.
///
/// # Errors
/// [`HubError::Io`], [`HubError::NotAHub`], [`HubError::Version`], [`HubError::Truncated`],
/// [`HubError::Corrupt`] (counts that do not give the file's length).
pub fn read_hub_header(path: &Path) -> Result<HubHeader, HubError> {
    let (file, total) = open(path)?;
    read_header(&mut Reading::new(BufReader::new(file)), total).map_err(in_file(path))
}
