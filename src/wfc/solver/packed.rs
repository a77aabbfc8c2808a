//! Propagation when the sockets a cell offers on all its walls pack into one `u64` and fit
//! one chunk of the allow table (at most 8 sockets): the common case (`square17`, `octile`).
//!
//! A popped cell's packed sets are compared with those its neighbours were last revised
//! against in one operation, and only the walls whose field changed are revised. The loop
//! borrows the solver's fields apart (tables shared, state mutable), so table lengths and
//! pointers stay in registers; what it removes, logs and queues is exactly what
//! [`Solver::propagate_per_wall`](super::Solver) would.

use super::propagate::width;
use super::{NO_CELL, Solver, tables};

/// The sockets the tiles of domain `dom` show on every wall, from `offer_bytes` (see
/// `tables::offer_bytes`): one lookup per domain byte. A one-word domain reads its bytes up
/// to the last nonzero one; a wider one only its nonzero bytes.
#[inline(always)]
pub(super) fn offered(offer_bytes: &[u64], dom: &[u64]) -> u64 {
    let mut all = 0;
    if let &[word] = dom {
        // Byte by byte from the lowest, up to the last nonzero one.
        let (mut m, mut at) = (word, 0);
        while m != 0 {
            all |= offer_bytes[at | (m & 0xff) as usize];
            (m, at) = (m >> 8, at + 256);
        }
        return all;
    }
    for (i, &word) in dom.iter().enumerate() {
        let mut m = word;
        while m != 0 {
            let b = m.trailing_zeros() / 8;
            let byte = (m >> (8 * b)) & 0xff;
            all |= offer_bytes[(i * 8 + b as usize) << 8 | byte as usize];
            m &= !(0xff << (8 * b));
        }
    }
    all
}

impl Solver {
    /// [`Solver::propagate`] for packed sets, `W` domain words and `D` walls (0: read at run
    /// time). False, with the conflict recorded and the queue emptied, when a domain empties.
    pub(super) fn propagate_packed<const W: usize, const D: usize>(&mut self) -> bool {
        debug_assert!(!self.offer_bytes.is_empty() && self.chunks == 1);
        let (w, d) = (width::<W>(self.words), width::<D>(self.dirs));
        let stride = tables::packed_stride(self.sockets);
        let (field, sockets) = ((1u64 << stride) - 1, (1u64 << self.sockets) - 1);
        // `(bit * per_wall) >> 16` is `bit / stride` for every bit of a `u64` (the rounding
        // error, under 64 / 2^16, never reaches the next integer), without a division.
        let per_wall = (1usize << 16).div_ceil(stride);
        let epoch = self.epoch;
        let Solver {
            neighbors,
            offer_bytes,
            allow,
            allow_row,
            domain,
            state,
            trail,
            touched,
            stack,
            revised,
            collapsed,
            ..
        } = self;
        // Slices, not vectors, for everything only indexed: their bounds stay in registers.
        let (neighbors, offer_bytes, allow, allow_row) =
            (neighbors.as_slice(), offer_bytes.as_slice(), allow.as_slice(), allow_row.as_slice());
        let (domain, state, revised) = (domain.as_mut_slice(), state.as_mut_slice(), revised.as_mut_slice());
        let mut failed = None;
        'cells: while let Some(c) = stack.pop() {
            let c = c as usize;
            state[c].on_stack = false;
            let all = offered(offer_bytes, &domain[c * w..c * w + w]);
            let mut changed = all ^ std::mem::replace(&mut revised[c], all);
            // Walls whose field changed, lowest first.
            while changed != 0 {
                let dir = (changed.trailing_zeros() as usize * per_wall) >> 16;
                debug_assert_eq!(dir, changed.trailing_zeros() as usize / stride);
                changed &= !(field << (dir * stride));
                let n = neighbors[c * d + dir];
                if n >= NO_CELL {
                    continue;
                }
                // Revise n: keep the tiles that may face a socket c still offers there.
                let n = n as usize;
                let set = (all >> (dir * stride) & sockets) as usize;
                let row = (allow_row[dir] + set) * w;
                let mut len = state[n].len;
                let mut lost = false;
                for i in 0..w {
                    let keep = allow[row + i];
                    let at = n * w + i;
                    let gone = domain[at] & !keep;
                    if gone != 0 {
                        domain[at] &= keep;
                        trail.push((at as u32, gone));
                        let before = len;
                        len -= gone.count_ones() as u16;
                        if before > 1 && len == 1 {
                            *collapsed += 1;
                        }
                        lost = true;
                    }
                }
                if !lost {
                    continue;
                }
                state[n].shrunk_to(len, epoch, n as u32, touched, stack);
                if len == 0 {
                    failed = Some((c, dir, n));
                    break 'cells;
                }
            }
        }
        match failed {
            Some((c, dir, n)) => {
                self.fail(c, dir, n);
                false
            }
            None => true,
        }
    }
}
