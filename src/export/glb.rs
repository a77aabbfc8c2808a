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

/// Packs `json` and `bin` into one GLB.
pub(crate) fn pack(json: &[u8], bin: &[u8]) -> Result<Vec<u8>, ExportError> {
    let total = total_length(json.len(), bin.len())?;
    let mut out = Vec::with_capacity(total as usize);
    out.extend(MAGIC.to_le_bytes());
    out.extend(2u32.to_le_bytes());
    out.extend(total.to_le_bytes());
    let mut chunk = |kind: u32, data: &[u8], pad: u8| {
        let len = padded(data.len());
        out.extend((len as u32).to_le_bytes());
        out.extend(kind.to_le_bytes());
        out.extend(data);
        out.resize(out.len() + len - data.len(), pad);
    };
    chunk(JSON_CHUNK, json, b' ');
    if !bin.is_empty() {
        chunk(BIN_CHUNK, bin, 0);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_padded_and_sized() {
        let g = pack(b"{}", &[1, 2, 3, 4, 5]).unwrap();
        assert_eq!(g.len(), 12 + 8 + 4 + 8 + 8);
        assert_eq!(u32::from_le_bytes(g[8..12].try_into().unwrap()) as usize, g.len());
        assert_eq!(&g[20..24], b"{}  ");
        assert!(matches!(total_length(u32::MAX as usize, 8), Err(ExportError::TooLarge { .. })));
    }
}
