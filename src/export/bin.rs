//! The document's binary buffer as the runs of bytes it is made of, in order: runs that
//! borrow a mesh's own vertex and index arrays, and runs made for the file (narrowed
//! indices, partial vertices, helper meshes, padding). A level mesh's arrays are written
//! to the file straight from the mesh, so the buffer is never copied whole into memory
//! first (on a 64x64x4 dungeon that copy was 28 MB of freshly mapped pages).

use std::borrow::Cow;

/// Zero bytes that pad a run to 4 bytes.
const PADDING: [u8; 3] = [0; 3];

/// Buffer 0 of a document: runs of bytes, each starting 4-aligned.
#[derive(Debug, Default)]
pub(crate) struct Bin<'a> {
    runs: Vec<Cow<'a, [u8]>>,
    len: usize,
}

impl<'a> Bin<'a> {
    /// A buffer of one run (a buffer rewritten whole, as `--compress` does).
    pub(crate) fn from_vec(bytes: Vec<u8>) -> Bin<'static> {
        let mut bin = Bin::default();
        bin.push(Cow::Owned(bytes));
        bin
    }

    /// Bytes in all, padding included.
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    /// Whether it holds no bytes.
    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends `data`, zero-padded to a multiple of 4 bytes, and returns the offset it
    /// starts at.
    pub(crate) fn push(&mut self, data: Cow<'a, [u8]>) -> usize {
        let offset = self.len;
        let pad = data.len().next_multiple_of(4) - data.len();
        self.len += data.len() + pad;
        self.runs.push(data);
        if pad > 0 {
            self.runs.push(Cow::Borrowed(&PADDING[..pad]));
        }
        offset
    }

    /// The runs, in order: the buffer is their concatenation.
    pub(crate) fn runs(&self) -> impl Iterator<Item = &[u8]> {
        self.runs.iter().map(|r| &**r)
    }

    /// The whole buffer in one allocation.
    pub(crate) fn to_vec(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.len);
        self.runs().for_each(|r| out.extend_from_slice(r));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_padded_to_four_bytes_and_concatenate_to_the_buffer() {
        let kept = [9u8; 8];
        let mut bin = Bin::default();
        assert!(bin.is_empty());
        assert_eq!(bin.push(Cow::Owned(vec![1, 2, 3, 4, 5])), 0);
        assert_eq!(bin.push(Cow::Borrowed(&kept)), 8);
        assert_eq!(bin.push(Cow::Owned(vec![7])), 16);
        assert_eq!(bin.len(), 20);
        assert_eq!(bin.to_vec(), [1, 2, 3, 4, 5, 0, 0, 0, 9, 9, 9, 9, 9, 9, 9, 9, 7, 0, 0, 0]);
        assert_eq!(bin.runs().map(<[u8]>::len).sum::<usize>(), bin.len());
        assert_eq!(Bin::from_vec(vec![1, 2]).to_vec(), [1, 2, 0, 0]);
    }
}
