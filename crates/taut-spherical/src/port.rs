//! Ports by UN/LOCODE: `CNSHA` for Shanghai, `NLRTM` for Rotterdam.
//!
//! [`Ports::embedded`] is the list in `data/ports.tsv`: 3,923 ports, one per code, built by
//! `data/make_ports.py` from the port list of the `searoute` package (PyPI `searoute` 1.6.0,
//! Apache-2.0); the codes are the UN/LOCODE that UNECE publishes. A code that is not in the
//! list is a [`PortError::Unknown`] that suggests close matches: codes of the same country
//! one or two letters away, and ports whose name contains the text given.
//!
//! ```
//! use taut_spherical::port::Ports;
//!
//! let shanghai = Ports::embedded().get("cnsha").unwrap();
//! assert_eq!((shanghai.code.as_str(), shanghai.name.as_str()), ("CNSHA", "Shanghai"));
//! let err = Ports::embedded().get("CNSHX").unwrap_err();
//! assert!(err.to_string().contains("CNSHA"), "{err}");
//! ```

use std::sync::OnceLock;

use thiserror::Error;

use crate::geo::LatLon;

/// The embedded port list: `locode`, `name`, `lat`, `lon`, tab-separated, `#` comments.
pub const PORTS_TSV: &str = include_str!("../data/ports.tsv");

/// One port.
#[derive(Clone, Debug, PartialEq)]
pub struct Port {
    /// Its UN/LOCODE, upper case (`CNSHA`).
    pub code: String,
    /// Its name (`Shanghai`).
    pub name: String,
    /// Where it is.
    pub at: LatLon,
}

/// What went wrong with a port.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum PortError {
    /// A code that is not in the list.
    #[error("unknown port '{code}'{}", suggest(.suggestions))]
    Unknown {
        /// The code as given.
        code: String,
        /// Close matches, `CODE (Name)` each, best first (empty when there is none).
        suggestions: Vec<String>,
    },
    /// A line of the list is malformed.
    #[error("ports.tsv line {line}: {message}")]
    Tsv {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

impl PortError {
    /// Whether the error suggests codes (an unknown code with close matches).
    pub fn has_suggestions(&self) -> bool {
        matches!(self, PortError::Unknown { suggestions, .. } if !suggestions.is_empty())
    }
}

fn suggest(s: &[String]) -> String {
    if s.is_empty() {
        " (a UN/LOCODE: two letters of the country and three of the place, e.g. NLRTM)".into()
    } else {
        format!("; did you mean {}?", s.join(", "))
    }
}

/// Whether `s` has the shape of a UN/LOCODE: two letters and three letters or digits
/// (case does not matter). The CLI reads such a `--from`/`--to` as a port.
pub fn is_locode(s: &str) -> bool {
    let b = s.trim().as_bytes();
    b.len() == 5
        && b[..2].iter().all(u8::is_ascii_alphabetic)
        && b[2..].iter().all(u8::is_ascii_alphanumeric)
}

/// A list of ports, sorted by code.
#[derive(Clone, Debug, PartialEq)]
pub struct Ports {
    list: Vec<Port>,
}

impl Ports {
    /// The embedded list ([`PORTS_TSV`]), parsed once.
    pub fn embedded() -> &'static Ports {
        static PORTS: OnceLock<Ports> = OnceLock::new();
        PORTS.get_or_init(|| {
            Ports::parse(PORTS_TSV).expect("the embedded ports.tsv parses (tested)")
        })
    }

    /// Parses a list in the format of [`PORTS_TSV`].
    ///
    /// # Errors
    /// [`PortError::Tsv`] naming the line: a missing header, a wrong number of fields, a
    /// code that is not a UN/LOCODE, a coordinate that is not a number or off the Earth, a
    /// code listed twice.
    pub fn parse(text: &str) -> Result<Ports, PortError> {
        let mut list = Vec::new();
        let mut header = false;
        for (i, line) in text.lines().enumerate() {
            let bad = |message: String| PortError::Tsv {
                line: i + 1,
                message,
            };
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            if !header {
                if line != "locode\tname\tlat\tlon" {
                    return Err(bad("expected the header locode, name, lat, lon".into()));
                }
                header = true;
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            if f.len() != 4 {
                return Err(bad(format!("{} fields, expected 4", f.len())));
            }
            if !is_locode(f[0]) {
                return Err(bad(format!("'{}' is not a UN/LOCODE", f[0])));
            }
            let num = |s: &str| s.parse::<f64>().map_err(|e| bad(format!("'{s}': {e}")));
            let (lat, lon) = (num(f[2])?, num(f[3])?);
            if !(lat.abs() <= 90.0 && lon.abs() <= 180.0) {
                return Err(bad(format!("{lat},{lon} is off the Earth")));
            }
            list.push(Port {
                code: f[0].to_ascii_uppercase(),
                name: f[1].to_owned(),
                at: LatLon::new(lat, lon),
            });
        }
        if !header {
            return Err(PortError::Tsv {
                line: 1,
                message: "no header".into(),
            });
        }
        list.sort_by(|a, b| a.code.cmp(&b.code));
        if let Some(w) = list.windows(2).find(|w| w[0].code == w[1].code) {
            return Err(PortError::Tsv {
                line: 0,
                message: format!("{} is listed twice", w[0].code),
            });
        }
        Ok(Ports { list })
    }

    /// How many ports.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether the list is empty.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The ports, sorted by code.
    pub fn iter(&self) -> impl Iterator<Item = &Port> {
        self.list.iter()
    }

    /// The port of `code` (case and surrounding spaces do not matter).
    ///
    /// # Errors
    /// [`PortError::Unknown`] with up to five close matches.
    pub fn get(&self, code: &str) -> Result<&Port, PortError> {
        let key = code.trim().to_ascii_uppercase();
        match self.list.binary_search_by(|p| p.code.as_str().cmp(&key)) {
            Ok(i) => Ok(&self.list[i]),
            Err(_) => Err(PortError::Unknown {
                code: code.trim().to_owned(),
                suggestions: self.close_to(&key),
            }),
        }
    }

    /// Up to five ports close to `key` (upper case): codes of the same country at most two
    /// letters away (fewest first), then ports whose name contains `key`.
    fn close_to(&self, key: &str) -> Vec<String> {
        let mut by_code: Vec<(usize, &Port)> = self
            .list
            .iter()
            .filter(|p| key.len() == 5 && key.is_ascii() && p.code[..2] == key[..2])
            .map(|p| (differing(&p.code, key), p))
            .filter(|&(d, _)| d <= 2)
            .collect();
        by_code.sort_by_key(|&(d, p)| (d, p.code.clone()));
        let named = self
            .list
            .iter()
            .filter(|p| key.len() >= 3 && p.name.to_ascii_uppercase().contains(key));
        let mut out: Vec<String> = Vec::new();
        for p in by_code.into_iter().map(|(_, p)| p).chain(named) {
            let s = format!("{} ({})", p.code, p.name);
            if !out.contains(&s) {
                out.push(s);
            }
            if out.len() == 5 {
                break;
            }
        }
        out
    }
}

/// The number of positions at which two codes of the same length differ.
fn differing(a: &str, b: &str) -> usize {
    a.bytes().zip(b.bytes()).filter(|(x, y)| x != y).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_list_parses_and_knows_the_shared_ports() {
        let ports = Ports::embedded();
        assert!(ports.len() > 3_900, "{}", ports.len());
        let ny = ports.get(" usnyc ").unwrap();
        assert_eq!(ny.name, "New York");
        assert!((ny.at.lat - 40.705475).abs() < 1e-9 && (ny.at.lon + 74.017681).abs() < 1e-9);
        for code in ["NLRTM", "SGSIN", "JPYOK", "ISREY", "RUMMK", "USANC"] {
            assert!(ports.get(code).is_ok(), "{code}");
        }
    }

    #[test]
    fn unknown_codes_suggest_close_ones() {
        let ports = Ports::embedded();
        let PortError::Unknown { suggestions, .. } = ports.get("NLRTX").unwrap_err() else {
            panic!()
        };
        assert_eq!(suggestions[0], "NLRTM (Rotterdam)");
        assert!(
            suggestions.iter().all(|s| s.starts_with("NL")),
            "{suggestions:?}"
        );
        // A name is not a code, but its ports are suggested.
        let e = ports.get("Rotterdam").unwrap_err().to_string();
        assert!(e.contains("NLRTM (Rotterdam)"), "{e}");
        let e = ports.get("QQ000").unwrap_err().to_string();
        assert!(e.ends_with("e.g. NLRTM)"), "{e}");
    }

    #[test]
    fn malformed_lists_are_refused_with_the_line() {
        let h = "locode\tname\tlat\tlon\n";
        for (text, want) in [
            ("AAAAA\tx\t1\t2\n".to_owned(), "line 1: expected the header"),
            (format!("{h}NLRTM\tRotterdam\t51.9\n"), "line 2: 3 fields"),
            (format!("{h}NL-RT\tx\t1\t2\n"), "not a UN/LOCODE"),
            (format!("{h}NLRTM\tx\tnorth\t2\n"), "line 2: 'north'"),
            (format!("{h}NLRTM\tx\t91\t2\n"), "off the Earth"),
            (
                format!("{h}NLRTM\tx\t1\t2\nNLRTM\ty\t1\t2\n"),
                "listed twice",
            ),
            (String::new(), "no header"),
        ] {
            let e = Ports::parse(&text).unwrap_err().to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
        assert!(is_locode("cnsha") && is_locode("US2NY") && !is_locode("40.7,-74"));
    }
}
