//! The numbers the wasm32 smoke test checks (tools/wasm-smoke.sh runs
//! `tests/wasm-smoke` under node against `tests/wasm-smoke/expected.json`), computed here
//! natively by the same code: with default features generation reads its graphs on two
//! threads, without (`--no-default-features`, as on wasm32) on one, and both must give
//! these numbers.

#[path = "wasm-smoke/src/smoke.rs"]
mod smoke;

#[test]
fn native_smoke_numbers_are_the_expected_ones() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/wasm-smoke/expected.json");
    let expected: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let names: Vec<&str> =
        expected["names"].as_array().unwrap().iter().map(|n| n.as_str().unwrap()).collect();
    assert_eq!(names, smoke::NAMES, "expected.json names the numbers smoke.rs gives");
    let seeds = expected["seeds"].as_object().unwrap();
    assert!(!seeds.is_empty());
    let mut actual = Vec::new();
    for seed in seeds.keys() {
        let numbers = smoke::smoke(seed.parse().unwrap()).unwrap();
        actual.push(format!("    \"{seed}\": [{}]", numbers.map(|n| format!("\"{n}\"")).join(", ")));
    }
    let wanted: Vec<String> = seeds
        .iter()
        .map(|(seed, v)| {
            let v: Vec<String> = v.as_array().unwrap().iter().map(|n| format!("{n}")).collect();
            format!("    \"{seed}\": [{}]", v.join(", "))
        })
        .collect();
    assert_eq!(
        actual,
        wanted,
        "the smoke numbers moved; if that is meant, expected.json's seeds are:\n{}",
        actual.join(",\n")
    );
}
