//! octile's runtime core as a wasm32 module, for tools/wasm-smoke.sh: node calls
//! `octile_smoke(seed, item)` and compares each number with `expected.json`.

mod smoke;

use std::sync::Mutex;

/// The last seed asked for and its numbers, so the items of one seed are computed once.
static LAST: Mutex<Option<(u64, Result<[u64; smoke::NAMES.len()], String>)>> = Mutex::new(None);

/// Number `item` (an index into `smoke::NAMES`) of the smoke run for `seed`; `u64::MAX` when
/// octile refused something or `item` is out of range.
#[unsafe(no_mangle)]
pub extern "C" fn octile_smoke(seed: u64, item: u32) -> u64 {
    let mut last = LAST.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if last.as_ref().is_none_or(|(s, _)| *s != seed) {
        *last = Some((seed, smoke::smoke(seed)));
    }
    match last.as_ref().map(|(_, numbers)| numbers) {
        Some(Ok(numbers)) => numbers.get(item as usize).copied().unwrap_or(u64::MAX),
        _ => u64::MAX,
    }
}

/// How many numbers `octile_smoke` gives per seed.
#[unsafe(no_mangle)]
pub extern "C" fn octile_smoke_items() -> u32 {
    smoke::NAMES.len() as u32
}
