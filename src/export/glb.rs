//! The GLB container: a 12-byte header, a JSON chunk padded with spaces and a BIN chunk
//! padded with zeros, each to 4 bytes.

use super::ExportError;

const MAGIC: u32 = 0x4654_6C67; // "glTF"
const JSON_CHUNK: u32 = 0x4E4F_534A;
const BIN_CHUNK: u32 = 0x004E_4942;

fn padded(len: usize) -> usize {
    len.div_ceil(4) * 4
}

/// The total GLB length for these chunk sizes, refused past `u32::MAX`.
pub(crate) fn total_length(json: usize, bin: usize) -> Result<u32, ExportError> {
    let total = 12 + 8 + padded(json) as u64 + if bin > 0 { 8 + padded(bin) as u64 } else { 0 };
    u32::try_from(total).map_err(|_| ExportError::TooLarge {
        what: "GLB file",
        size: total,
        limit: u64::from(u32::MAX),
    })
}

/// Packs `json` and `bin` into one GLB, in `bin`'s own allocation: the header and the JSON
/// chunk are put in front of the buffer's bytes (one move of them, where a new vector would
/// copy them into freshly mapped memory).
pub(crate) fn pack(json: &[u8], mut bin: Vec<u8>) -> Result<Vec<u8>, ExportError> {
    let total = total_length(json.len(), bin.len())?;
    let chunk_header = |kind: u32, len: usize| {
        let len = u32::try_from(padded(len)).expect("invariant: within the checked total");
        len.to_le_bytes().into_iter().chain(kind.to_le_bytes())
    };
    let mut front = Vec::with_capacity(12 + 8 + padded(json.len()) + 8);
    front.extend(MAGIC.to_le_bytes());
    front.extend(2u32.to_le_bytes());
    front.extend(total.to_le_bytes());
    front.extend(chunk_header(JSON_CHUNK, json.len()));
    front.extend(json);
    front.resize(front.len() + padded(json.len()) - json.len(), b' ');
    if bin.is_empty() {
        return Ok(front);
    }
    front.extend(chunk_header(BIN_CHUNK, bin.len()));
    bin.resize(padded(bin.len()), 0);
    bin.splice(0..0, front);
    Ok(bin)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_padded_and_sized() {
        let g = pack(b"{}", vec![1, 2, 3, 4, 5]).unwrap();
        assert_eq!(g.len(), 12 + 8 + 4 + 8 + 8);
        assert_eq!(u32::from_le_bytes(g[8..12].try_into().unwrap()) as usize, g.len());
        assert_eq!(&g[20..24], b"{}  ");
        assert_eq!(&g[28..32], &BIN_CHUNK.to_le_bytes());
        assert_eq!(&g[32..], [1, 2, 3, 4, 5, 0, 0, 0]);
        assert_eq!(pack(b"{}", Vec::new()).unwrap().len(), 12 + 8 + 4, "no BIN chunk without bytes");
        assert!(matches!(total_length(u32::MAX as usize, 8), Err(ExportError::TooLarge { .. })));
    }
}
