//! The one way tools build, shard and merge CPDs: from a mesh to a [`Cpd`] (corners, graph,
//! rows) with progress, and the shard files' names and merge step, taking paths, so that
//! the CLI, xtask and a batch scheduler's jobs all name and join shards alike.

use std::path::{Path, PathBuf};

use taut_mesh::Mesh;

use crate::cpd::{BuildParams, Cpd};
use crate::error::CpdError;
use crate::estimate::{CpdEstimate, DEFAULT_MAX_BYTES, check_size, estimate};
use crate::file::{mesh_hash, read_cpd, read_shard, write_cpd, write_shard};
use crate::graph::Graph;
use crate::order::NodeOrder;
use crate::progress::Progress;
use crate::sharding::{CpdShard, ShardSpec, merge_shards};
use taut_mesh::corners::Corners;

/// Name of the graph phase reported to [`Progress::begin`] (total: the number of corners).
pub const GRAPH_PHASE: &str = "graph";

/// The corner graph of `mesh`, reporting the [`GRAPH_PHASE`] to `progress`.
fn graph_of(mesh: &Mesh, params: &BuildParams, progress: &dyn Progress) -> Result<Graph, CpdError> {
    params.validate()?;
    let corners = Corners::of(mesh);
    progress.begin(GRAPH_PHASE, corners.len() as u64);
    Ok(Graph::build_with(mesh, &corners, &|n| progress.advance(n))?)
}

/// The corner graph of `mesh`, once its CPD is known to fit `max_bytes` (see
/// [`crate::estimate`]).
fn checked_graph(
    mesh: &Mesh,
    params: &BuildParams,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<Graph, CpdError> {
    let graph = graph_of(mesh, params, progress)?;
    check_size(&graph, params, max_bytes, progress)?;
    Ok(graph)
}

/// Builds the CPD of `mesh`: its convex corners, their co-visible graph (phase
/// [`GRAPH_PHASE`]), then one first-move row per corner, in parallel on the current rayon
/// pool. The result is stamped with [`mesh_hash`]`(mesh)` and does not depend on the number
/// of threads.
///
/// A CPD larger than [`DEFAULT_MAX_BYTES`] is refused before its rows are built
/// ([`build_cpd_within`] sets another limit).
///
/// # Errors
/// [`CpdError::Params`] for invalid parameters, [`CpdError::Graph`] when the graph is too
/// large, [`CpdError::TooLarge`] when the CPD would be.
pub fn build_cpd(
    mesh: &Mesh,
    params: &BuildParams,
    progress: &dyn Progress,
) -> Result<Cpd, CpdError> {
    build_cpd_within(mesh, params, DEFAULT_MAX_BYTES, progress)
}

/// [`build_cpd`] with a size limit of `max_bytes` (`u64::MAX`: none). Once the graph is
/// built, a CPD that could exceed the limit is estimated from a sample of its rows (phase
/// [`crate::estimate::ESTIMATE_PHASE`]) and refused when the estimate does.
///
/// # Errors
/// As [`build_cpd`].
pub fn build_cpd_within(
    mesh: &Mesh,
    params: &BuildParams,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<Cpd, CpdError> {
    let graph = checked_graph(mesh, params, max_bytes, progress)?;
    Ok(Cpd::from_graph(graph, mesh_hash(mesh), params, progress))
}

/// Estimates the CPD of `mesh` without building it: its graph (phase [`GRAPH_PHASE`]), then
/// `sample` rows ([`crate::estimate::estimate`]).
///
/// # Errors
/// [`CpdError::Params`] for invalid parameters, [`CpdError::Graph`] when the graph is too
/// large.
pub fn estimate_cpd(
    mesh: &Mesh,
    params: &BuildParams,
    sample: usize,
    progress: &dyn Progress,
) -> Result<CpdEstimate, CpdError> {
    let graph = graph_of(mesh, params, progress)?;
    estimate(&graph, &NodeOrder::dfs(&graph), params, sample, progress)
}

/// Builds shard `shard` of the CPD of `mesh` (the whole graph, then the shard's rows), as
/// [`build_cpd`] does for all rows, refusing it when the whole CPD would be larger than
/// [`DEFAULT_MAX_BYTES`].
///
/// # Errors
/// As [`build_cpd`].
pub fn build_shard(
    mesh: &Mesh,
    params: &BuildParams,
    shard: ShardSpec,
    progress: &dyn Progress,
) -> Result<CpdShard, CpdError> {
    build_shard_within(mesh, params, shard, DEFAULT_MAX_BYTES, progress)
}

/// [`build_shard`] with the size limit `max_bytes` on the whole CPD, as in
/// [`build_cpd_within`] (every shard of one CPD samples the same rows, so all are refused or
/// none).
///
/// # Errors
/// As [`build_cpd`].
pub fn build_shard_within(
    mesh: &Mesh,
    params: &BuildParams,
    shard: ShardSpec,
    max_bytes: u64,
    progress: &dyn Progress,
) -> Result<CpdShard, CpdError> {
    let graph = checked_graph(mesh, params, max_bytes, progress)?;
    Ok(CpdShard::from_graph(
        &graph,
        mesh_hash(mesh),
        params,
        shard,
        progress,
    ))
}

/// The file of shard `shard` of the CPD file `cpd`: `NAME.cpd.shard-I-of-N` beside it.
pub fn shard_path(cpd: &Path, shard: ShardSpec) -> PathBuf {
    let mut name = cpd.as_os_str().to_os_string();
    name.push(format!(".shard-{}-of-{}", shard.index, shard.count));
    PathBuf::from(name)
}

/// Parses a file name written by [`shard_path`] for `cpd`: the shard it holds, or `None`
/// when `file` is not one of `cpd`'s shard files.
pub fn parse_shard_path(cpd: &Path, file: &Path) -> Option<ShardSpec> {
    let base = cpd.file_name()?.to_str()?;
    let name = file.file_name()?.to_str()?;
    let rest = name.strip_prefix(base)?.strip_prefix(".shard-")?;
    let (i, n) = rest.split_once("-of-")?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(i) || !digits(n) {
        return None;
    }
    ShardSpec::new(i.parse().ok()?, n.parse().ok()?).ok()
}

/// The shard files of `cpd` present in its directory, sorted by shard count then index.
///
/// # Errors
/// [`CpdError::Io`] when the directory cannot be listed.
pub fn find_shard_files(cpd: &Path) -> Result<Vec<(ShardSpec, PathBuf)>, CpdError> {
    let dir = match cpd.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let io = |source| CpdError::Io {
        path: dir.clone(),
        source,
    };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        if let Some(spec) = parse_shard_path(cpd, &path) {
            found.push((
                spec,
                dir.join(path.file_name().expect("a listed file has a name")),
            ));
        }
    }
    found.sort_by_key(|(s, _)| (s.count, s.index));
    Ok(found)
}

/// Writes `cpd` to `path` through a temporary file beside it, renamed into place, so that a
/// reader never sees a half-written file.
///
/// # Errors
/// [`CpdError::Io`].
pub fn write_cpd_atomic(path: &Path, cpd: &Cpd) -> Result<(), CpdError> {
    atomically(path, |tmp| write_cpd(tmp, cpd))
}

/// Writes `shard` to `path` as [`write_cpd_atomic`] does: a shard file that exists is whole,
/// even when its writer was killed (a batch job past its time limit), so that a re-run can
/// trust the header of a shard file it finds.
///
/// # Errors
/// [`CpdError::Io`].
pub fn write_shard_atomic(path: &Path, shard: &CpdShard) -> Result<(), CpdError> {
    atomically(path, |tmp| write_shard(tmp, shard))
}

/// Runs `write` on `path.tmp`, then renames it to `path`.
fn atomically(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), CpdError>,
) -> Result<(), CpdError> {
    let mut tmp = path.as_os_str().to_os_string();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    write(&tmp)?;
    std::fs::rename(&tmp, path).map_err(|source| CpdError::Io {
        path: path.to_path_buf(),
        source,
    })
}

/// Merges the shard files `shards` (any order) into the CPD file `out`: reads and checks
/// every shard, merges them ([`merge_shards`]), writes `out` (atomically) and reads it back
/// to check it; only then, when `remove` is set, deletes the shard files. Returns the CPD.
///
/// # Errors
/// Those of reading a shard (naming its path in [`CpdError::Io`]), of [`merge_shards`]
/// (missing, duplicate or mismatched shards), of writing `out`, and [`CpdError::Corrupt`]
/// when the file read back differs from what was written.
pub fn merge_shard_files(shards: &[PathBuf], out: &Path, remove: bool) -> Result<Cpd, CpdError> {
    let parts = shards
        .iter()
        .map(|p| read_shard(p))
        .collect::<Result<Vec<_>, _>>()?;
    let cpd = merge_shards(parts)?;
    write_cpd_atomic(out, &cpd)?;
    let back = read_cpd(out)?;
    if back != cpd {
        return Err(CpdError::Corrupt(format!(
            "{} read back differs from the merged CPD",
            out.display()
        )));
    }
    if remove {
        for p in shards {
            std::fs::remove_file(p).map_err(|source| CpdError::Io {
                path: p.clone(),
                source,
            })?;
        }
    }
    Ok(cpd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shard_names_round_trip() {
        let cpd = Path::new("data/dao/cpd/arena.cpd");
        let s = ShardSpec::new(2, 7).unwrap();
        let p = shard_path(cpd, s);
        assert_eq!(p, Path::new("data/dao/cpd/arena.cpd.shard-2-of-7"));
        assert_eq!(parse_shard_path(cpd, &p), Some(s));
        for bad in [
            "arena.cpd",
            "arena.cpd.shard-7-of-7",
            "arena.cpd.shard-1-of-",
            "arena.cpd.shard--1-of-3",
            "arena.cpd.shard-1-of-3.tmp",
            "other.cpd.shard-1-of-3",
            "arena.cpdx.shard-1-of-3",
        ] {
            assert_eq!(parse_shard_path(cpd, Path::new(bad)), None, "{bad}");
        }
    }

    #[test]
    fn three_shard_files_merge_to_the_single_build_and_are_removed() {
        use crate::file::encode_cpd;
        use crate::file::write_shard;
        use crate::progress::NoProgress;
        let grid = taut_grid::Grid::from_fn(9, 7, |x, y| (x * 7 + y * 3) % 5 != 0);
        let mesh = taut_mesh::mesh_from_grid(&grid).unwrap();
        let params = BuildParams::default();
        let whole = build_cpd(&mesh, &params, &NoProgress).unwrap();
        assert!(whole.graph().node_count() > 3);
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("g.cpd");
        let mut files = Vec::new();
        for i in [2, 0, 1] {
            let spec = ShardSpec::new(i, 3).unwrap();
            let shard = build_shard(&mesh, &params, spec, &NoProgress).unwrap();
            let p = shard_path(&out, spec);
            write_shard(&p, &shard).unwrap();
            files.push(p);
        }
        let found = find_shard_files(&out).unwrap();
        assert_eq!(found.len(), 3);
        assert_eq!(found[0].0, ShardSpec::new(0, 3).unwrap());
        // A missing shard is named, and nothing is written or removed.
        let err = merge_shard_files(&files[..2], &out, true).unwrap_err();
        assert!(
            matches!(err, CpdError::MissingShard { index: 1, count: 3 }),
            "{err}"
        );
        assert!(!out.exists() && files.iter().all(|p| p.exists()));
        let merged = merge_shard_files(&files, &out, true).unwrap();
        assert_eq!(encode_cpd(&merged), encode_cpd(&whole));
        assert_eq!(std::fs::read(&out).unwrap(), encode_cpd(&whole));
        assert!(files.iter().all(|p| !p.exists()));
        assert!(find_shard_files(&out).unwrap().is_empty());
    }
}
