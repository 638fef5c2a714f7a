//! The MovingAI benchmark sets: their directory names, the names users may type, how the
//! older scenario generation names them, and where their archives are downloaded from.

use std::fmt;

use anyhow::{Context, bail};

/// A MovingAI benchmark set: one directory `DEST/<set>/` of the destination layout.
///
/// Sets are directories because two of them hold maps of the same names with different
/// contents (`bgmaps`, the original Baldur's Gate II sizes, and `bg512`, the same areas scaled
/// to 512×512).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Set {
    /// Dragon Age: Origins.
    Dao,
    /// Dragon Age 2.
    Da2,
    /// StarCraft.
    Sc1,
    /// Baldur's Gate II scaled to 512×512.
    Bg512,
    /// Baldur's Gate II at original size.
    Bgmaps,
    /// Warcraft III scaled to 512×512.
    Wc3maps512,
    /// City street maps.
    Street,
    /// Mazes (512×512, several corridor widths).
    Mazes,
    /// Rooms (512×512, several room sizes).
    Rooms,
    /// Random obstacles (512×512, several densities).
    Random,
}

impl Set {
    /// Every set, in the order reports list them.
    pub const ALL: [Set; 10] = [
        Set::Dao,
        Set::Da2,
        Set::Sc1,
        Set::Bg512,
        Set::Bgmaps,
        Set::Wc3maps512,
        Set::Street,
        Set::Mazes,
        Set::Rooms,
        Set::Random,
    ];

    /// The directory name under `DEST/`.
    pub fn name(self) -> &'static str {
        match self {
            Set::Dao => "dao",
            Set::Da2 => "da2",
            Set::Sc1 => "sc1",
            Set::Bg512 => "bg512",
            Set::Bgmaps => "bgmaps",
            Set::Wc3maps512 => "wc3maps512",
            Set::Street => "street",
            Set::Mazes => "mazes",
            Set::Rooms => "rooms",
            Set::Random => "random",
        }
    }

    /// The set's name in MovingAI's download addresses and archive names (`maze-map.zip`),
    /// which is the first column of `movingai_sources.tsv`.
    pub fn archive_key(self) -> &'static str {
        match self {
            Set::Mazes => "maze",
            Set::Rooms => "room",
            other => other.name(),
        }
    }

    /// The set a user or a source file names: the directory name, the archive key, or the
    /// alias `wc3maps`. Case-insensitive.
    pub fn from_name(name: &str) -> Option<Set> {
        let name = name.trim().to_ascii_lowercase();
        if name == "wc3maps" {
            return Some(Set::Wc3maps512);
        }
        Set::ALL
            .into_iter()
            .find(|s| s.name() == name || s.archive_key() == name)
    }

    /// The set of a map directory as the older scenario generation names it (`maps/<dir>/`).
    ///
    /// The old `bgmaps` and `wc3maps` directories hold the 512×512 versions of those games'
    /// maps, so they are `bg512` and `wc3maps512`: the original-size `bgmaps` set of today's
    /// MovingAI never appears under that name in old files.
    pub fn from_legacy_dir(dir: &str) -> Option<Set> {
        Some(match dir {
            "dao" => Set::Dao,
            "da2" => Set::Da2,
            "sc1" => Set::Sc1,
            "bgmaps" | "bg512" => Set::Bg512,
            "wc3maps" | "wc3maps512" => Set::Wc3maps512,
            "street" => Set::Street,
            "mazes" | "maze" => Set::Mazes,
            "rooms" | "room" => Set::Rooms,
            "random" => Set::Random,
            _ => return None,
        })
    }

    /// The set of the map a scenario line names (its second column): `maps/dao/arena.map` is
    /// `dao`, a bare street map name such as `Berlin_0_256.map` is `street`.
    pub fn from_map_path(path: &str) -> Option<Set> {
        let parts: Vec<&str> = path.split(['/', '\\']).collect();
        match parts.as_slice() {
            [name] => is_street_map_name(name).then_some(Set::Street),
            [.., dir, _] => Set::from_legacy_dir(dir),
            [] => None,
        }
    }
}

impl fmt::Display for Set {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Whether `name` looks like a MovingAI street map: `<City>_<n>_<size>.map`.
fn is_street_map_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".map") else {
        return false;
    };
    let parts: Vec<&str> = stem.split('_').collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    match parts.as_slice() {
        [city, n, size] => {
            !city.is_empty()
                && city.bytes().all(|b| b.is_ascii_alphabetic())
                && digits(n)
                && matches!(*size, "256" | "512" | "1024")
        }
        _ => false,
    }
}

/// Parses a `--set` value: set names separated by commas, or `all`.
pub fn parse_selection(text: &str) -> Result<Vec<Set>, String> {
    let mut sets = Vec::new();
    for word in text.split(',').map(str::trim).filter(|w| !w.is_empty()) {
        if word.eq_ignore_ascii_case("all") {
            sets.extend(Set::ALL);
            continue;
        }
        let set = Set::from_name(word).ok_or_else(|| {
            let names: Vec<&str> = Set::ALL.iter().map(|s| s.name()).collect();
            format!(
                "unknown set {word:?}: expected all or one of {}",
                names.join(", ")
            )
        })?;
        sets.push(set);
    }
    if sets.is_empty() {
        return Err("no set named".into());
    }
    sets.sort();
    sets.dedup();
    Ok(sets)
}

/// The download addresses of the sets, as shipped with xtask (a copy of
/// `shared/data/frit/movingai_sources.tsv`).
pub const SOURCES_TSV: &str = include_str!("../../movingai_sources.tsv");

/// Where one set's two archives are downloaded from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Archives {
    /// The set.
    pub set: Set,
    /// The maps archive (`<key>-map.zip`).
    pub maps: String,
    /// The current-generation scenarios archive (`<key>-scen.zip`).
    pub scen: String,
}

/// Parses a sources table: a header line starting with `set`, then one tab-separated line per
/// set with the set's key, the maps archive address and the scenarios archive address
/// (further columns are ignored). Every set must be listed exactly once.
pub fn parse_sources(tsv: &str) -> anyhow::Result<Vec<Archives>> {
    let mut out: Vec<Archives> = Vec::new();
    for (i, line) in tsv.lines().enumerate() {
        let n = i + 1;
        if line.trim().is_empty() || (n == 1 && line.starts_with("set\t")) {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        let [key, maps, scen, ..] = cols.as_slice() else {
            bail!("sources line {n}: expected at least 3 tab-separated columns");
        };
        let set = Set::from_name(key)
            .with_context(|| format!("sources line {n}: unknown set {key:?}"))?;
        for url in [maps, scen] {
            if !(url.starts_with("https://") || url.starts_with("http://")) {
                bail!("sources line {n}: {url:?} is not an http(s) address");
            }
        }
        if out.iter().any(|a| a.set == set) {
            bail!("sources line {n}: set {set} listed twice");
        }
        out.push(Archives {
            set,
            maps: (*maps).to_owned(),
            scen: (*scen).to_owned(),
        });
    }
    if let Some(missing) = Set::ALL.iter().find(|s| !out.iter().any(|a| a.set == **s)) {
        bail!("sources: no line for set {missing}");
    }
    out.sort_by_key(|a| a.set);
    Ok(out)
}

/// The addresses of `set`'s archives: from the embedded table, or, with `base`, the same
/// last two path segments (`dao/dao-map.zip`) under `base` (a mirror or a test server).
pub fn archive_urls(set: Set, base: Option<&str>) -> anyhow::Result<Archives> {
    let table = parse_sources(SOURCES_TSV).context("the embedded movingai_sources.tsv")?;
    let mut a = table
        .into_iter()
        .find(|a| a.set == set)
        .with_context(|| format!("no address for set {set}"))?;
    if let Some(base) = base {
        let base = base.trim_end_matches('/');
        for url in [&mut a.maps, &mut a.scen] {
            let tail: Vec<&str> = url.rsplitn(3, '/').take(2).collect();
            *url = format!("{base}/{}/{}", tail[1], tail[0]);
        }
    }
    Ok(a)
}

/// The last path segment of an address: the archive's file name.
pub fn url_file_name(url: &str) -> &str {
    url.rsplit('/').next().unwrap_or(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases() {
        for s in Set::ALL {
            assert_eq!(Set::from_name(s.name()), Some(s));
            assert_eq!(Set::from_name(s.archive_key()), Some(s));
        }
        assert_eq!(Set::from_name("maze"), Some(Set::Mazes));
        assert_eq!(Set::from_name("Room"), Some(Set::Rooms));
        assert_eq!(Set::from_name("wc3maps"), Some(Set::Wc3maps512));
        assert_eq!(Set::from_name("bg"), None);
        assert_eq!(parse_selection("all").unwrap(), Set::ALL.to_vec());
        assert_eq!(
            parse_selection("sc1, maze,dao,sc1").unwrap(),
            vec![Set::Dao, Set::Sc1, Set::Mazes]
        );
        assert!(parse_selection("dao,nope").unwrap_err().contains("nope"));
        assert!(parse_selection(" , ").is_err());
    }

    #[test]
    fn legacy_map_paths() {
        let cases = [
            ("maps/dao/arena.map", Some(Set::Dao)),
            ("maps/bgmaps/AR0011SR.map", Some(Set::Bg512)),
            ("maps/wc3maps/duskwood.map", Some(Set::Wc3maps512)),
            ("maps/mazes/maze512-1-0.map", Some(Set::Mazes)),
            ("maps/rooms/8room_000.map", Some(Set::Rooms)),
            ("maps\\random\\random512-10-0.map", Some(Set::Random)),
            ("Berlin_0_256.map", Some(Set::Street)),
            ("Sydney_2_1024.map", Some(Set::Street)),
            ("arena.map", None),
            ("Berlin_0_300.map", None),
            ("maps/unknown/x.map", None),
            ("", None),
        ];
        for (path, want) in cases {
            assert_eq!(Set::from_map_path(path), want, "{path}");
        }
    }

    #[test]
    fn embedded_sources_cover_every_set() {
        let table = parse_sources(SOURCES_TSV).unwrap();
        assert_eq!(table.len(), Set::ALL.len());
        for a in &table {
            let key = a.set.archive_key();
            assert_eq!(url_file_name(&a.maps), format!("{key}-map.zip"));
            assert_eq!(url_file_name(&a.scen), format!("{key}-scen.zip"));
        }
        let local = archive_urls(Set::Mazes, Some("http://127.0.0.1:9/")).unwrap();
        assert_eq!(local.maps, "http://127.0.0.1:9/maze/maze-map.zip");
        assert_eq!(local.scen, "http://127.0.0.1:9/maze/maze-scen.zip");
    }

    /// The embedded copy must not drift from the shared table it was copied from.
    #[test]
    fn embedded_sources_match_shared_copy() {
        let Some(data) = taut_testdata::shared_data("embedded_sources_match_shared_copy") else {
            return;
        };
        let shared = std::fs::read_to_string(data.join("frit/movingai_sources.tsv")).unwrap();
        assert_eq!(
            shared, SOURCES_TSV,
            "xtask/movingai_sources.tsv is out of date"
        );
    }

    #[test]
    fn bad_sources_tables() {
        assert!(parse_sources("set\tm\ts\nfoo\thttps://a/b\thttps://a/c\n").is_err());
        assert!(parse_sources("dao\thttps://a/b\n").is_err());
        assert!(parse_sources("dao\tftp://a/b\thttps://a/c\n").is_err());
        // Every set must be listed.
        assert!(parse_sources("dao\thttps://a/dao/b\thttps://a/dao/c\n").is_err());
    }
}
