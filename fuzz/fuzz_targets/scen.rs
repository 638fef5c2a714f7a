//! `.scen` reader: any bytes give a scenario or a typed error, never a panic; a scenario that
//! parses writes back to text that parses to the same entries.
#![no_main]

use libfuzzer_sys::fuzz_target;
use taut::grid::Scenario;

fuzz_target!(|data: &[u8]| {
    let Ok(scen) = Scenario::parse(data) else {
        return;
    };
    let text = scen.to_text();
    // Map names holding a tab or a line end cannot be written faithfully (documented on
    // `Scenario::to_text`); everything else must round-trip.
    if scen
        .entries
        .iter()
        .any(|e| e.map.contains(['\t', '\n', '\r']))
    {
        return;
    }
    let again = Scenario::parse(text.as_bytes()).expect("to_text output must parse");
    assert_eq!(scen.entries.len(), again.entries.len());
    for (a, b) in scen.entries.iter().zip(&again.entries) {
        assert_eq!((a.start, a.goal, &a.map), (b.start, b.goal, &b.map));
    }
});
