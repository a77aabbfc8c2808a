//! The GLB container: a 12-byte header, a JSON chunk padded with spaces and a BIN chunk
//! padded with zeros, each to 4 bytes.

use super::ExportError;
use super::bin::Bin;

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

/// A GLB as the runs of bytes it is made of: the header with the JSON chunk's header, the
/// JSON itself (padded in place, not copied), the BIN chunk's header, then the BIN chunk's
/// runs as the document's buffer holds them ([`Bin`]), so it can be written out without
/// first being joined into one allocation.
pub(crate) struct Glb<'b> {
    /// The file header and the JSON chunk's header.
    head: Vec<u8>,
    /// The JSON chunk's bytes, padded with spaces.
    json: Vec<u8>,
    /// The BIN chunk's header, empty when there is no BIN chunk.
    bin_head: Vec<u8>,
    /// The BIN chunk's bytes, empty for none.
    bin: &'b Bin<'b>,
}

impl<'b> Glb<'b> {
    /// The GLB of `json` and `bin`.
    ///
    /// # Errors
    /// [`ExportError::TooLarge`] past 4 GiB, the most a GLB can say it holds.
    pub(crate) fn new(mut json: Vec<u8>, bin: &'b Bin<'b>) -> Result<Glb<'b>, ExportError> {
        debug_assert_eq!(bin.len() % 4, 0, "every run of the buffer is padded");
        let total = total_length(json.len(), bin.len())?;
        let chunk_header = |kind: u32, len: usize| {
            let len = u32::try_from(padded(len)).expect("invariant: within the checked total");
            len.to_le_bytes().into_iter().chain(kind.to_le_bytes())
        };
        let mut head = Vec::with_capacity(20);
        head.extend(MAGIC.to_le_bytes());
        head.extend(2u32.to_le_bytes());
        head.extend(total.to_le_bytes());
        head.extend(chunk_header(JSON_CHUNK, json.len()));
        json.resize(padded(json.len()), b' ');
        let bin_head = if bin.is_empty() { Vec::new() } else { chunk_header(BIN_CHUNK, bin.len()).collect() };
        Ok(Glb { head, json, bin_head, bin })
    }

    /// Bytes in all.
    pub(crate) fn len(&self) -> usize {
        self.head.len() + self.json.len() + self.bin_head.len() + self.bin.len()
    }

    /// The runs, in order: the file is their concatenation.
    pub(crate) fn runs(&self) -> impl Iterator<Item = &[u8]> {
        [&self.head[..], &self.json[..], &self.bin_head[..]].into_iter().chain(self.bin.runs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(json: &[u8], bin: Vec<u8>) -> Result<Vec<u8>, ExportError> {
        let bin = if bin.is_empty() { Bin::default() } else { Bin::from_vec(bin) };
        let glb = Glb::new(json.to_vec(), &bin)?;
        let bytes: Vec<u8> = glb.runs().flatten().copied().collect();
        assert_eq!(bytes.len(), glb.len());
        Ok(bytes)
    }

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
