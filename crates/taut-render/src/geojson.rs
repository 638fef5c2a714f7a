//! Sphere routes as GeoJSON (RFC 7946): the route densified and split at the antimeridian
//! by [`crate::flat_map`] (the same lines the sphere pictures draw), its waypoints, and the
//! endpoints. `taut route --geojson` and the Python module write these.

use serde_json::{Value, json};
use taut_spherical::{EARTH_RADIUS_KM, KM_PER_NM, LatLon, Route, geo::wrap_deg};

use crate::flat_map::{DENSIFY_DEG, densify_route, split_antimeridian};
use crate::sphere::End;

/// A route as a GeoJSON Feature: a `LineString`, or a `MultiLineString` when it crosses the
/// antimeridian, of the densified route ([`densify_route`], [`split_antimeridian`]), with the
/// properties `props` and `km`, `nm`, `radians`, `legs`. `None` for a route without legs.
pub fn route_feature(route: &Route, props: Value) -> Option<Value> {
    let parts = split_antimeridian(&densify_route(route, DENSIFY_DEG));
    let lines: Vec<Value> = parts
        .iter()
        .map(|part| {
            Value::Array(
                part.iter()
                    .map(|&[lon, lat]| json!([round7(lon), round7(lat)]))
                    .collect(),
            )
        })
        .collect();
    let geometry = match lines.len() {
        0 => return None,
        1 => json!({ "type": "LineString", "coordinates": lines[0] }),
        _ => json!({ "type": "MultiLineString", "coordinates": lines }),
    };
    let mut properties = props;
    if let Value::Object(p) = &mut properties {
        p.insert("km".into(), json!(route.radians * EARTH_RADIUS_KM));
        p.insert(
            "nm".into(),
            json!(route.radians * EARTH_RADIUS_KM / KM_PER_NM),
        );
        p.insert("radians".into(), json!(route.radians));
        p.insert("legs".into(), json!(route.legs.len()));
    }
    Some(json!({ "type": "Feature", "geometry": geometry, "properties": properties }))
}

/// Rounds a coordinate to 1e-7 degree (1 cm), which keeps the file short.
fn round7(x: f64) -> f64 {
    (x * 1e7).round() / 1e7
}

fn position(p: LatLon) -> Value {
    let lon = if p.lon == 180.0 {
        180.0
    } else {
        wrap_deg(p.lon)
    };
    json!([round7(lon), round7(p.lat)])
}

fn point_feature(name: &str, p: LatLon, props: Value) -> Value {
    let mut properties = json!({ "name": name });
    if let (Some(dst), Value::Object(src)) = (properties.as_object_mut(), props) {
        dst.extend(src);
    }
    json!({
        "type": "Feature",
        "geometry": { "type": "Point", "coordinates": position(p) },
        "properties": properties,
    })
}

/// The GeoJSON FeatureCollection of a route (RFC 7946; coordinates `[lon, lat]`):
///
/// - when `route` is given and has legs, a Feature named `route` ([`route_feature`]), with
///   properties `km`, `nm`, `radians`, `legs` and `passages` (the named passages it uses);
/// - a `MultiPoint` Feature named `waypoints` (turning points and the ends of the legs that
///   follow a parallel, start and goal included);
/// - Point Features `start` and `goal` (property `snap_km`), and `start (given)` /
///   `goal (given)` for endpoints that snapping moved.
pub fn route_geojson(route: Option<&Route>, from: &End, to: &End, passages: &[String]) -> Value {
    let mut features = Vec::new();
    if let Some(route) = route
        && let Some(feature) =
            route_feature(route, json!({ "name": "route", "passages": passages }))
    {
        features.push(feature);
        let waypoints: Vec<Value> = route.waypoints().into_iter().map(position).collect();
        features.push(json!({
            "type": "Feature",
            "geometry": { "type": "MultiPoint", "coordinates": waypoints },
            "properties": { "name": "waypoints" },
        }));
    }
    for (name, end) in [("start", from), ("goal", to)] {
        features.push(point_feature(
            name,
            end.point,
            json!({ "snap_km": end.snap_km }),
        ));
        if let Some(given) = end.given {
            features.push(point_feature(&format!("{name} (given)"), given, json!({})));
        }
    }
    json!({ "type": "FeatureCollection", "features": features })
}
