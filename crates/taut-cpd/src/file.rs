//! CPD and CPD shard files (format described in `docs/cpd-format.md`).
//!
//! ```text
//! magic       8 bytes   b"TAUTCPD\0" (CPD) or b"TAUTCPDS" (shard)
//! version     u32 LE    FORMAT_VERSION
//! body_len    u64 LE    length of the body in bytes
//! body        postcard  header record, graph, order, row offsets, runs
//! sha256      32 bytes  SHA-256 of everything before it
//! ```

use std::io::Read;
use std::path::Path;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
pub use taut_mesh::mesh_hash;
use taut_mesh::{COORDINATE_LIMIT, MeshPoint};

use crate::cpd::{BuildParams, Cpd, Symbols};
use crate::error::CpdError;
use crate::graph::Graph;
use crate::order::NodeOrder;
use crate::rle::DIRECT;
use crate::sharding::{CpdShard, ShardSpec};

/// Version of the file format this program reads and writes. Any change to the layout or to
/// the meaning of a field increments it; files of another version are refused
/// ([`CpdError::Version`]) and must be rebuilt.
pub const FORMAT_VERSION: u32 = 1;
/// Magic number of a CPD file.
pub const CPD_MAGIC: [u8; 8] = *b"TAUTCPD\0";
/// Magic number of a CPD shard file.
pub const SHARD_MAGIC: [u8; 8] = *b"TAUTCPDS";

const PREFIX: usize = 8 + 4 + 8;
const DIGEST: usize = 32;
/// Upper bound of an encoded header record (postcard varints at their widest).
const HEADER_MAX: usize = 32 + 10 + 2 + 3 * 10 + 1 + 4 * 5;

/// What [`read_cpd_header`] tells without loading the runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CpdHeader {
    /// Format version (always [`FORMAT_VERSION`] when read successfully).
    pub version: u32,
    /// Hash of the mesh the CPD was built for.
    pub mesh_hash: [u8; 32],
    /// Build parameters.
    pub params: BuildParams,
    /// Nodes of the graph.
    pub nodes: u64,
    /// Undirected edges of the graph.
    pub edges: u64,
    /// Runs stored (of the shard's rows, for a shard).
    pub runs: u64,
    /// Width of a stored symbol in bits.
    pub symbol_bits: u8,
    /// For a shard file, which shard.
    pub shard: Option<ShardSpec>,
}

#[derive(Serialize, Deserialize)]
struct HeaderRecord {
    mesh_hash: [u8; 32],
    tie_tolerance_bits: u64,
    symbol_bits: u8,
    nodes: u64,
    edges: u64,
    runs: u64,
    /// (index, count, first row, end row) of a shard.
    shard: Option<(u32, u32, u32, u32)>,
}

#[derive(Serialize)]
enum SymbolsRef<'a> {
    U16(&'a [u16]),
    U32(&'a [u32]),
}

#[derive(Deserialize)]
enum SymbolsOwned {
    U16(Vec<u16>),
    U32(Vec<u32>),
}

#[derive(Serialize)]
struct BodyRef<'a> {
    header: HeaderRecord,
    /// x and y of every node as `f64` bit patterns.
    points: Vec<u64>,
    off: &'a [u32],
    nbr: &'a [u32],
    column: &'a [u32],
    row_off: &'a [u64],
    starts: &'a [u32],
    symbols: SymbolsRef<'a>,
}

#[derive(Deserialize)]
struct BodyOwned {
    header: HeaderRecord,
    points: Vec<u64>,
    off: Vec<u32>,
    nbr: Vec<u32>,
    column: Vec<u32>,
    row_off: Vec<u64>,
    starts: Vec<u32>,
    symbols: SymbolsOwned,
}

/// The parts shared by a CPD and a shard, borrowed for encoding.
struct Parts<'a> {
    graph: &'a Graph,
    order: &'a NodeOrder,
    row_off: &'a [u64],
    starts: &'a [u32],
    symbols: &'a Symbols,
    params: &'a BuildParams,
    mesh_hash: &'a [u8; 32],
}

fn encode(
    magic: &[u8; 8],
    parts: &Parts<'_>,
    shard: Option<(ShardSpec, std::ops::Range<u32>)>,
) -> Vec<u8> {
    let g = parts.graph;
    let (off, nbr) = g.csr();
    let body = BodyRef {
        header: HeaderRecord {
            mesh_hash: *parts.mesh_hash,
            tie_tolerance_bits: parts.params.tie_tolerance.to_bits(),
            symbol_bits: parts.symbols.width_bits(),
            nodes: g.node_count() as u64,
            edges: g.edge_count() as u64,
            runs: parts.starts.len() as u64,
            shard: shard.map(|(s, r)| (s.index, s.count, r.start, r.end)),
        },
        points: g
            .points()
            .iter()
            .flat_map(|p| [p.x.to_bits(), p.y.to_bits()])
            .collect(),
        off,
        nbr,
        column: parts.order.columns(),
        row_off: parts.row_off,
        starts: parts.starts,
        symbols: match parts.symbols {
            Symbols::U16(v) => SymbolsRef::U16(v),
            Symbols::U32(v) => SymbolsRef::U32(v),
        },
    };
    let body = postcard::to_stdvec(&body).expect("encoding to memory cannot fail");
    let mut out = Vec::with_capacity(PREFIX + body.len() + DIGEST);
    out.extend_from_slice(magic);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    let digest: [u8; 32] = Sha256::digest(&out).into();
    out.extend_from_slice(&digest);
    out
}

/// The bytes of `cpd`'s file.
pub fn encode_cpd(cpd: &Cpd) -> Vec<u8> {
    let (starts, symbols) = cpd.unpacked();
    encode(
        &CPD_MAGIC,
        &Parts {
            graph: &cpd.graph,
            order: &cpd.order,
            row_off: &cpd.row_off,
            starts: &starts,
            symbols: &symbols,
            params: &cpd.params,
            mesh_hash: &cpd.mesh_hash,
        },
        None,
    )
}

/// The bytes of `shard`'s file.
pub fn encode_shard(shard: &CpdShard) -> Vec<u8> {
    encode(
        &SHARD_MAGIC,
        &Parts {
            graph: &shard.graph,
            order: &shard.order,
            row_off: &shard.row_off,
            starts: &shard.starts,
            symbols: &shard.symbols,
            params: &shard.params,
            mesh_hash: &shard.mesh_hash,
        },
        Some((shard.spec, shard.rows())),
    )
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), CpdError> {
    std::fs::write(path, bytes).map_err(|source| CpdError::Io {
        path: path.to_path_buf(),
        source,
    })
}

fn read(path: &Path) -> Result<Vec<u8>, CpdError> {
    std::fs::read(path).map_err(|source| CpdError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Writes `cpd` to `path`.
///
/// # Errors
/// [`CpdError::Io`].
pub fn write_cpd(path: &Path, cpd: &Cpd) -> Result<(), CpdError> {
    write(path, &encode_cpd(cpd))
}

/// Writes `shard` to `path`.
///
/// # Errors
/// [`CpdError::Io`].
pub fn write_shard(path: &Path, shard: &CpdShard) -> Result<(), CpdError> {
    write(path, &encode_shard(shard))
}

/// Reads and checks a CPD file.
///
/// # Errors
/// [`CpdError::Io`], or those of [`decode_cpd`].
pub fn read_cpd(path: &Path) -> Result<Cpd, CpdError> {
    decode_cpd(&read(path)?)
}

/// Reads and checks a CPD shard file.
///
/// # Errors
/// [`CpdError::Io`], or those of [`decode_shard`].
pub fn read_shard(path: &Path) -> Result<CpdShard, CpdError> {
    decode_shard(&read(path)?)
}

fn kind_name(magic: &[u8; 8]) -> &'static str {
    if magic == &CPD_MAGIC {
        "CPD"
    } else {
        "CPD shard"
    }
}

/// Checks the magic number and version of the first bytes of a file.
fn check_prefix(bytes: &[u8], magic: &[u8; 8]) -> Result<(), CpdError> {
    let expected = kind_name(magic);
    let head = &bytes[..bytes.len().min(8)];
    if head.len() < 8 {
        if magic.starts_with(head) {
            return Err(CpdError::Truncated);
        }
        return Err(CpdError::NotACpd { expected });
    }
    if head != magic {
        let other = if magic == &CPD_MAGIC {
            &SHARD_MAGIC
        } else {
            &CPD_MAGIC
        };
        if head == other {
            return Err(CpdError::WrongKind {
                expected,
                found: kind_name(other),
            });
        }
        return Err(CpdError::NotACpd { expected });
    }
    let version = bytes.get(8..12).ok_or(CpdError::Truncated)?;
    let found = u32::from_le_bytes(version.try_into().expect("4 bytes"));
    if found != FORMAT_VERSION {
        return Err(CpdError::Version {
            found,
            expected: FORMAT_VERSION,
        });
    }
    Ok(())
}

/// Checks prefix, length and checksum; returns the body.
fn open<'a>(bytes: &'a [u8], magic: &[u8; 8]) -> Result<&'a [u8], CpdError> {
    check_prefix(bytes, magic)?;
    let len = bytes.get(12..PREFIX).ok_or(CpdError::Truncated)?;
    let body_len = u64::from_le_bytes(len.try_into().expect("8 bytes"));
    let total = usize::try_from(body_len)
        .ok()
        .and_then(|b| b.checked_add(PREFIX + DIGEST))
        .ok_or_else(|| CpdError::Corrupt(format!("impossible body length {body_len}")))?;
    if bytes.len() < total {
        return Err(CpdError::Truncated);
    }
    if bytes.len() > total {
        return Err(CpdError::Corrupt(format!(
            "{} bytes after the checksum",
            bytes.len() - total
        )));
    }
    let (data, digest) = bytes.split_at(total - DIGEST);
    if Sha256::digest(data).as_slice() != digest {
        return Err(CpdError::Checksum);
    }
    Ok(&data[PREFIX..])
}

fn corrupt(what: impl Into<String>) -> CpdError {
    CpdError::Corrupt(what.into())
}

/// Decodes the body and checks everything the lookups rely on.
fn decode_body(body: &[u8]) -> Result<(HeaderRecord, Parts2), CpdError> {
    let (b, rest): (BodyOwned, _) =
        postcard::take_from_bytes(body).map_err(|e| corrupt(format!("undecodable body ({e})")))?;
    if !rest.is_empty() {
        return Err(corrupt(format!("{} unread bytes in the body", rest.len())));
    }
    let h = &b.header;
    let params = BuildParams {
        tie_tolerance: f64::from_bits(h.tie_tolerance_bits),
    };
    params.validate().map_err(|e| corrupt(e.to_string()))?;
    if !b.points.len().is_multiple_of(2) || (b.points.len() / 2) as u64 != h.nodes {
        return Err(corrupt("the number of points is not the number of nodes"));
    }
    let points: Vec<MeshPoint> = b
        .points
        .chunks_exact(2)
        .map(|c| MeshPoint::new(f64::from_bits(c[0]), f64::from_bits(c[1])))
        .collect();
    // Every node is a mesh vertex, so its coordinates obey the mesh's limit; beyond it edge
    // weights can overflow to infinity (found by the `cpd` fuzz target).
    if points
        .iter()
        .any(|p| !(p.x.abs() <= COORDINATE_LIMIT && p.y.abs() <= COORDINATE_LIMIT))
    {
        return Err(corrupt(
            "a node has a coordinate that is not finite or beyond a mesh's limit (1e150)",
        ));
    }
    let graph =
        Graph::from_csr(points, b.off, b.nbr).map_err(|e| corrupt(format!("graph: {e}")))?;
    let n = graph.node_count();
    if graph.edge_count() as u64 != h.edges {
        return Err(corrupt("the header's edge count does not match the graph"));
    }
    if b.column.len() != n {
        return Err(corrupt("the order does not have one column per node"));
    }
    let order = NodeOrder::from_columns(b.column)
        .ok_or_else(|| corrupt("the order is not a permutation of the nodes"))?;
    let symbols = match b.symbols {
        SymbolsOwned::U16(v) => Symbols::U16(v),
        SymbolsOwned::U32(v) => Symbols::U32(v),
    };
    if Symbols::wide_for(graph.max_degree()) != (symbols.width_bits() == 32)
        || h.symbol_bits != symbols.width_bits()
    {
        return Err(corrupt(
            "the symbol width does not match the graph's largest degree",
        ));
    }
    if b.starts.len() != symbols.len() || b.starts.len() as u64 != h.runs {
        return Err(corrupt("different numbers of run starts, symbols and runs"));
    }
    let rows = match h.shard {
        None => 0..n as u32,
        Some((index, count, first, end)) => {
            let spec = ShardSpec::new(index, count).map_err(|e| corrupt(e.to_string()))?;
            let rows = spec.rows(n);
            if rows != (first..end) {
                return Err(corrupt(format!(
                    "shard {spec} of {n} nodes holds rows {:?}, not {first}..{end}",
                    rows
                )));
            }
            rows
        }
    };
    let row_off = b.row_off;
    if row_off.len() != (rows.end - rows.start) as usize + 1
        || row_off[0] != 0
        || *row_off.last().expect("not empty") != b.starts.len() as u64
    {
        return Err(corrupt("the row offsets do not describe the runs"));
    }
    for (i, s) in rows.enumerate() {
        let (a, z) = (row_off[i], row_off[i + 1]);
        if a >= z || z > b.starts.len() as u64 {
            return Err(corrupt(format!("row {s} has no runs or is out of range")));
        }
        let (a, z) = (a as usize, z as usize);
        let st = &b.starts[a..z];
        if st[0] != 0 {
            return Err(corrupt(format!("row {s} does not start at column 0")));
        }
        if st.windows(2).any(|w| w[0] >= w[1]) || st[st.len() - 1] as usize >= n {
            return Err(corrupt(format!(
                "the runs of row {s} are not increasing columns"
            )));
        }
        let deg = graph.neighbours(s).len() as u32;
        if (a..z).any(|k| {
            let x = symbols.get(k);
            x != DIRECT && x >= deg
        }) {
            return Err(corrupt(format!(
                "row {s} names a move beyond its {deg} edges"
            )));
        }
    }
    let header = b.header;
    Ok((
        header,
        Parts2 {
            graph,
            order,
            row_off,
            starts: b.starts,
            symbols,
            params,
        },
    ))
}

struct Parts2 {
    graph: Graph,
    order: NodeOrder,
    row_off: Vec<u64>,
    starts: Vec<u32>,
    symbols: Symbols,
    params: BuildParams,
}

/// Decodes and checks the bytes of a CPD file.
///
/// # Errors
/// [`CpdError::NotACpd`] (another kind of file), [`CpdError::WrongKind`] (a shard),
/// [`CpdError::Version`], [`CpdError::Truncated`], [`CpdError::Checksum`],
/// [`CpdError::Corrupt`] (inconsistent contents).
pub fn decode_cpd(bytes: &[u8]) -> Result<Cpd, CpdError> {
    let body = open(bytes, &CPD_MAGIC)?;
    let (h, p) = decode_body(body)?;
    if h.shard.is_some() {
        return Err(corrupt("a CPD file with a shard record"));
    }
    Ok(Cpd::from_parts(
        p.graph,
        p.order,
        p.row_off,
        &p.starts,
        &p.symbols,
        p.params,
        h.mesh_hash,
    ))
}

/// Decodes and checks the bytes of a CPD shard file.
///
/// # Errors
/// As [`decode_cpd`].
pub fn decode_shard(bytes: &[u8]) -> Result<CpdShard, CpdError> {
    let body = open(bytes, &SHARD_MAGIC)?;
    let (h, p) = decode_body(body)?;
    let Some((index, count, _, _)) = h.shard else {
        return Err(corrupt("a shard file without its shard record"));
    };
    Ok(CpdShard {
        spec: ShardSpec { index, count },
        graph: p.graph,
        order: p.order,
        row_off: p.row_off,
        starts: p.starts,
        symbols: p.symbols,
        params: p.params,
        mesh_hash: h.mesh_hash,
    })
}

fn read_header(path: &Path, magic: &[u8; 8]) -> Result<CpdHeader, CpdError> {
    let io = |source| CpdError::Io {
        path: path.to_path_buf(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut head = Vec::with_capacity(PREFIX + HEADER_MAX);
    file.take((PREFIX + HEADER_MAX) as u64)
        .read_to_end(&mut head)
        .map_err(io)?;
    check_prefix(&head, magic)?;
    let rest = head.get(PREFIX..).ok_or(CpdError::Truncated)?;
    let (h, _): (HeaderRecord, _) = postcard::take_from_bytes(rest).map_err(|e| match e {
        postcard::Error::DeserializeUnexpectedEnd => CpdError::Truncated,
        e => corrupt(format!("undecodable header ({e})")),
    })?;
    let params = BuildParams {
        tie_tolerance: f64::from_bits(h.tie_tolerance_bits),
    };
    params.validate().map_err(|e| corrupt(e.to_string()))?;
    let shard = match h.shard {
        None if magic == &CPD_MAGIC => None,
        Some((i, n, _, _)) if magic == &SHARD_MAGIC => {
            Some(ShardSpec::new(i, n).map_err(|e| corrupt(e.to_string()))?)
        }
        _ => return Err(corrupt("the shard record does not match the kind of file")),
    };
    Ok(CpdHeader {
        version: FORMAT_VERSION,
        mesh_hash: h.mesh_hash,
        params,
        nodes: h.nodes,
        edges: h.edges,
        runs: h.runs,
        symbol_bits: h.symbol_bits,
        shard,
    })
}

/// Reads the header of a CPD file without loading the rest (nor verifying its checksum):
/// enough to tell whether a file is up to date for a mesh and parameters.
///
/// # Errors
/// [`CpdError::Io`], [`CpdError::NotACpd`], [`CpdError::WrongKind`], [`CpdError::Version`],
/// [`CpdError::Truncated`], [`CpdError::Corrupt`].
pub fn read_cpd_header(path: &Path) -> Result<CpdHeader, CpdError> {
    read_header(path, &CPD_MAGIC)
}

/// Reads the header of a CPD shard file, as [`read_cpd_header`].
///
/// # Errors
/// As [`read_cpd_header`].
pub fn read_shard_header(path: &Path) -> Result<CpdHeader, CpdError> {
    read_header(path, &SHARD_MAGIC)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpd::Move;
    use crate::progress::NoProgress;

    /// A star whose centre has 70,000 neighbours needs 32-bit symbols; the file says so and
    /// the symbols above 65,535 survive the round trip.
    #[test]
    fn a_star_needs_wide_symbols() {
        let leaves = 70_000u32;
        let n = leaves + 2;
        let x = leaves + 1; // hangs off the last leaf, not adjacent to the centre
        let mut pts = vec![MeshPoint::new(0.0, 0.0)];
        for i in 0..leaves {
            let a = f64::from(i) * std::f64::consts::TAU / f64::from(leaves);
            pts.push(MeshPoint::new(100.0 * a.cos(), 100.0 * a.sin()));
        }
        let last = pts[leaves as usize];
        pts.push(MeshPoint::new(last.x * 1.5, last.y * 1.5 + 1.0));
        let mut edges: Vec<(u32, u32)> = (1..=leaves).map(|l| (0, l)).collect();
        edges.push((leaves, x));
        let g = Graph::from_points_and_edges(pts, &edges).unwrap();
        assert_eq!(g.max_degree(), leaves as usize);
        // Only the centre's row is computed (shard 0 of n holds row 0 alone): a full build
        // is quadratic.
        let spec = ShardSpec::new(0, n).unwrap();
        let shard = CpdShard::from_graph(&g, [1; 32], &BuildParams::default(), spec, &NoProgress);
        assert_eq!(shard.rows(), 0..1);
        assert!(matches!(shard.symbols, Symbols::U32(_)));
        let bytes = encode_shard(&shard);
        let back = decode_shard(&bytes).unwrap();
        assert_eq!(back, shard);
        // A full CPD around that real row: the other rows go through their first
        // neighbour, which is structurally valid.
        let mut row_off = shard.row_off.clone();
        let mut starts = shard.starts.clone();
        let Symbols::U32(mut symbols) = shard.symbols.clone() else {
            unreachable!()
        };
        for _ in 1..n {
            starts.push(0);
            symbols.push(0);
            row_off.push(starts.len() as u64);
        }
        let cpd = Cpd::from_parts(
            g,
            shard.order.clone(),
            row_off,
            &starts,
            &Symbols::U32(symbols),
            BuildParams::default(),
            [1; 32],
        );
        let back = decode_cpd(&encode_cpd(&cpd)).unwrap();
        assert_eq!(back, cpd);
        assert_eq!(back.stats().symbol_bits, 32);
        assert_eq!(back.first_move(0, x), Move::Via(leaves));
        assert_eq!(back.first_move(0, leaves), Move::Direct);
        assert_eq!(back.first_move(0, 5), Move::Direct);
        // The same with 16-bit symbols is refused: the width must follow the degree.
        let (starts, _) = cpd.unpacked();
        let narrow = encode(
            &CPD_MAGIC,
            &Parts {
                graph: &cpd.graph,
                order: &cpd.order,
                row_off: &cpd.row_off,
                starts: &starts,
                symbols: &Symbols::U16(vec![0; starts.len()]),
                params: &cpd.params,
                mesh_hash: &cpd.mesh_hash,
            },
            None,
        );
        assert!(matches!(decode_cpd(&narrow), Err(CpdError::Corrupt(_))));
    }
}

/// The load-time measurement recorded in `docs/cpd-format.md`: run with
/// `cargo test -p taut-cpd --release --lib -- --ignored --nocapture measure`.
#[cfg(test)]
mod measure {
    use super::*;
    use std::time::Instant;

    fn synthetic(nodes: u32, runs_per_row: u32) -> Cpd {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let side = f64::from(nodes).sqrt().ceil() as u32;
        let pts: Vec<MeshPoint> = (0..nodes)
            .map(|i| MeshPoint::new(f64::from(i % side) + 0.25, f64::from(i / side) + 0.5))
            .collect();
        let mut edges = Vec::new();
        for u in 0..nodes {
            for _ in 0..6 {
                let v = ((u64::from(u) + next() % 400) % u64::from(nodes)) as u32;
                if v != u {
                    edges.push((u, v));
                }
            }
        }
        let graph = Graph::from_points_and_edges(pts, &edges).unwrap();
        let order = NodeOrder::dfs(&graph);
        let mut row_off = vec![0u64];
        let (mut starts, mut symbols) = (Vec::new(), Vec::new());
        for s in 0..nodes {
            let deg = graph.neighbours(s).len() as u64;
            let mut cols: Vec<u32> = (0..runs_per_row - 1)
                .map(|_| 1 + (next() % u64::from(nodes - 1)) as u32)
                .collect();
            cols.push(0);
            cols.sort_unstable();
            cols.dedup();
            for &c in &cols {
                starts.push(c);
                let k = next() % (deg + 1);
                symbols.push(if k == deg { u16::MAX } else { k as u16 });
            }
            row_off.push(starts.len() as u64);
        }
        Cpd::from_parts(
            graph,
            order,
            row_off,
            &starts,
            &Symbols::U16(symbols),
            BuildParams::default(),
            [9; 32],
        )
    }

    fn le_encode(cpd: &Cpd) -> Vec<u8> {
        let mut out = Vec::new();
        let (off, nbr) = cpd.graph.csr();
        let put_u32s = |out: &mut Vec<u8>, v: &[u32]| {
            out.extend_from_slice(&(v.len() as u64).to_le_bytes());
            for x in v {
                out.extend_from_slice(&x.to_le_bytes());
            }
        };
        out.extend_from_slice(&(cpd.graph.node_count() as u64).to_le_bytes());
        for p in cpd.graph.points() {
            out.extend_from_slice(&p.x.to_bits().to_le_bytes());
            out.extend_from_slice(&p.y.to_bits().to_le_bytes());
        }
        put_u32s(&mut out, off);
        put_u32s(&mut out, nbr);
        put_u32s(&mut out, cpd.order.columns());
        out.extend_from_slice(&(cpd.row_off.len() as u64).to_le_bytes());
        for x in &cpd.row_off {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let (starts, symbols) = cpd.unpacked();
        put_u32s(&mut out, &starts);
        let Symbols::U16(sy) = &symbols else {
            unreachable!()
        };
        out.extend_from_slice(&(sy.len() as u64).to_le_bytes());
        for x in sy {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    type LeArrays = (
        Vec<u64>,
        Vec<u32>,
        Vec<u32>,
        Vec<u32>,
        Vec<u64>,
        Vec<u32>,
        Vec<u16>,
    );

    fn le_decode(b: &[u8]) -> LeArrays {
        let mut at = 0usize;
        let len = |at: &mut usize| {
            let n = u64::from_le_bytes(b[*at..*at + 8].try_into().unwrap()) as usize;
            *at += 8;
            n
        };
        let n = len(&mut at);
        let pts: Vec<u64> = b[at..at + 16 * n]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        at += 16 * n;
        let u32s = |at: &mut usize| {
            let k = len(at);
            let v: Vec<u32> = b[*at..*at + 4 * k]
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
                .collect();
            *at += 4 * k;
            v
        };
        let off = u32s(&mut at);
        let nbr = u32s(&mut at);
        let col = u32s(&mut at);
        let k = u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize;
        at += 8;
        let ro: Vec<u64> = b[at..at + 8 * k]
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
            .collect();
        at += 8 * k;
        let st = u32s(&mut at);
        let k = u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize;
        at += 8;
        let sy: Vec<u16> = b[at..at + 2 * k]
            .chunks_exact(2)
            .map(|c| u16::from_le_bytes(c.try_into().unwrap()))
            .collect();
        (pts, off, nbr, col, ro, st, sy)
    }

    fn best_ms(reps: usize, mut f: impl FnMut()) -> f64 {
        (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1e3
            })
            .fold(f64::INFINITY, f64::min)
    }

    #[test]
    #[ignore = "a measurement, not a test: run it by name with --ignored --nocapture"]
    fn measure_load_time() {
        let cpd = synthetic(30_000, 100);
        let st = cpd.stats();
        println!(
            "nodes {} edges {} runs {} run bytes {}",
            st.nodes, st.edges, st.runs, st.run_bytes
        );
        let bytes = encode_cpd(&cpd);
        let le = le_encode(&cpd);
        println!(
            "postcard file {} bytes, LE body {} bytes",
            bytes.len(),
            le.len()
        );
        let body = &bytes[PREFIX..bytes.len() - DIGEST];
        let reps = 7;
        let enc = best_ms(reps, || drop(std::hint::black_box(encode_cpd(&cpd))));
        let full = best_ms(reps, || {
            drop(std::hint::black_box(decode_cpd(&bytes).unwrap()))
        });
        let sha = best_ms(reps, || {
            std::hint::black_box(Sha256::digest(&bytes[..bytes.len() - DIGEST]));
        });
        let pc = best_ms(reps, || {
            let (b, _): (BodyOwned, _) = postcard::take_from_bytes(body).unwrap();
            std::hint::black_box(b);
        });
        let lep = best_ms(reps, || drop(std::hint::black_box(le_decode(&le))));
        let les = best_ms(reps, || {
            std::hint::black_box(Sha256::digest(&le));
        });
        println!("encode_cpd (postcard + SHA-256): {enc:.1} ms");
        println!("decode_cpd total: {full:.1} ms");
        println!("  SHA-256 of the file: {sha:.1} ms");
        println!("  postcard body decode: {pc:.1} ms");
        println!("  validation and assembly: {:.1} ms", full - sha - pc);
        println!("plain LE arrays decode: {lep:.1} ms (+ SHA-256 {les:.1} ms)");
        assert_eq!(decode_cpd(&bytes).unwrap(), cpd);
    }
}
