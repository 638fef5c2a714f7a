//! Points of the sphere as text: `LAT,LON` read by [`parse_latlon`] (`taut route`, `taut render
//! --sphere`) and written by [`fmt_point`].

use taut::spherical::LatLon;

/// A `LAT,LON` text that is not a point of the sphere.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a LAT,LON point: {reason}")]
pub struct CoordError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: String,
}

/// Parses a point written as latitude and longitude in degrees (north and east positive).
///
/// Accepted: two decimal numbers separated by a comma (spaces around it allowed) or by
/// spaces, such as `40.7,-74.0`, `40.7, -74.0` or `40.7 -74.0`; optionally in one pair of
/// parentheses or brackets; each number optionally followed by `°` and a hemisphere letter
/// (`N`/`S` for the latitude, `E`/`W` for the longitude, any case; the number is then not
/// negative): `40.7N,74W`. Rejected: anything else, numbers that are not finite, a latitude
/// outside [-90, 90], a longitude outside [-180, 180].
///
/// ```
/// use taut_cli::parse_latlon;
/// let p = parse_latlon(" 40.7N, 74.0°W ").unwrap();
/// assert_eq!((p.lat, p.lon), (40.7, -74.0));
/// assert_eq!(parse_latlon("-33.9,18.4").unwrap().lat, -33.9);
/// assert_eq!(parse_latlon("(1 2)").unwrap().lon, 2.0);
/// assert!(parse_latlon("91,0").is_err());
/// assert!(parse_latlon("0,NaN").is_err());
/// assert!(parse_latlon("10,20,30").is_err());
/// ```
pub fn parse_latlon(s: &str) -> Result<LatLon, CoordError> {
    let err = |reason: String| CoordError {
        text: s.to_owned(),
        reason,
    };
    let mut t = s.trim();
    for (open, close) in [('(', ')'), ('[', ']')] {
        if let Some(inner) = t.strip_prefix(open).and_then(|r| r.strip_suffix(close)) {
            t = inner.trim();
            break;
        }
    }
    let parts: Vec<&str> = if t.contains(',') {
        t.split(',').collect()
    } else {
        t.split_whitespace().collect()
    };
    let [a, b] = parts[..] else {
        return Err(err(
            "expected two numbers, latitude then longitude, such as 40.7,-74.0".into(),
        ));
    };
    let lat = coordinate(a, ('N', 'S'), ('E', 'W'), "latitude").map_err(err)?;
    let lon = coordinate(b, ('E', 'W'), ('N', 'S'), "longitude").map_err(err)?;
    // Huge values in scientific notation: 1e308 written out is 309 digits.
    let short = |v: f64| {
        if v.abs() < 1e9 {
            v.to_string()
        } else {
            format!("{v:e}")
        }
    };
    if !(-90.0..=90.0).contains(&lat) {
        return Err(err(format!("latitude {} is outside [-90, 90]", short(lat))));
    }
    if !(-180.0..=180.0).contains(&lon) {
        return Err(err(format!(
            "longitude {} is outside [-180, 180]",
            short(lon)
        )));
    }
    Ok(LatLon::new(lat, lon))
}

/// One coordinate: a finite number, optionally `°` and a hemisphere letter of `own`
/// (positive, negative); a letter of `other` means the two were swapped.
fn coordinate(
    tok: &str,
    own: (char, char),
    other: (char, char),
    name: &str,
) -> Result<f64, String> {
    let mut t = tok.trim();
    if t.is_empty() {
        return Err(format!("the {name} is missing"));
    }
    let mut sign = None;
    let mut rev = t.chars().rev();
    // A hemisphere letter follows a number (a digit, a point, `°` or a space), so that the
    // `n` of `nan` or `-inf` is not one.
    let letter = match (rev.next(), rev.next()) {
        (Some(last), Some(before)) if before.is_ascii_digit() || ". °".contains(before) => {
            Some(last)
        }
        _ => None,
    };
    if let Some(last) = letter {
        let up = last.to_ascii_uppercase();
        if up == own.0 || up == own.1 {
            sign = Some(if up == own.0 { 1.0 } else { -1.0 });
            t = t[..t.len() - last.len_utf8()].trim_end();
        } else if up == other.0 || up == other.1 {
            return Err(format!(
                "the {name} ends in {last:?}: expected latitude first, then longitude"
            ));
        }
    }
    let t = t.strip_suffix('°').unwrap_or(t).trim_end();
    let v: f64 = t
        .parse()
        .map_err(|_| format!("the {name} {t:?} is not a number"))?;
    if !v.is_finite() {
        return Err(format!("the {name} {t:?} is not a finite number"));
    }
    match sign {
        Some(_) if t.starts_with(['-', '+']) => Err(format!(
            "the {name} {tok:?} has both a sign and a hemisphere letter"
        )),
        Some(s) => Ok(s * v),
        None => Ok(v),
    }
}

/// `lat,lon` with 6 decimals (0.1 m).
pub fn fmt_point(p: LatLon) -> String {
    format!("{:.6},{:.6}", p.lat, p.lon)
}
