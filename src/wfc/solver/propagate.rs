//! Removing tiles and putting them back: the undo log, the support counts (one owner,
//! [`Solver::shift_supports`]), arc-consistent propagation and the conflict it reports.

use super::{Conflict, NO_CELL, Solver};

/// Whether tiles joined or left a domain, for [`Solver::shift_supports`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Support {
    /// The tiles were put (back) in the domain.
    Gained,
    /// The tiles were removed; a count that falls to zero is queued for propagation.
    Lost,
}

impl Solver {
    /// Removes one tile from a cell's domain.
    pub(super) fn remove_tile(&mut self, cell: usize, t: usize) {
        self.remove_bits(cell, t / 64, 1u64 << (t % 64));
    }

    /// Removes the tiles `bits` (all present) from word `i` of `cell`'s domain: one log
    /// entry, support counts lowered by popcount per (wall, socket).
    #[inline]
    pub(super) fn remove_bits(&mut self, cell: usize, i: usize, bits: u64) {
        if bits == 0 {
            return;
        }
        self.domain[cell * self.words + i] &= !bits;
        let before = self.len[cell];
        self.len[cell] -= bits.count_ones() as u16;
        if before > 1 && self.len[cell] == 1 {
            self.collapsed += 1;
        }
        let (sw, swl) = self.weight_sums(i, std::slice::from_ref(&bits));
        self.sum_w[cell] -= sw;
        self.sum_wl[cell] -= swl;
        self.trail.push(((cell * self.words + i) as u32, bits));
        self.touch(cell);
        self.shift_supports(cell, i, bits, Support::Lost);
    }

    /// The one place support counts change: the tiles `bits` of word `i` of `cell`'s domain
    /// joined or left it, so each (wall, socket) count of `cell` toward a neighbour moves by
    /// how many of them show that socket on that wall. Counts that fall to zero are queued.
    #[inline]
    pub(super) fn shift_supports(&mut self, cell: usize, i: usize, bits: u64, change: Support) {
        let (w, d, s) = (self.words, self.dirs, self.sockets);
        for dir in 0..d {
            if self.neighbors[cell * d + dir] >= NO_CELL {
                continue;
            }
            for sock in 0..s {
                let k = (bits & self.socket_mask[(dir * s + sock) * w + i]).count_ones() as u16;
                if k == 0 {
                    continue;
                }
                let ci = (cell * d + dir) * s + sock;
                match change {
                    Support::Gained => self.counts[ci] += k,
                    Support::Lost => {
                        self.counts[ci] -= k;
                        if self.counts[ci] == 0 {
                            self.pending.push((cell as u32, dir as u8, sock as u8));
                        }
                    }
                }
            }
        }
    }

    /// Notes that `cell` changed since the last flush.
    fn touch(&mut self, cell: usize) {
        if self.stamp[cell] != self.epoch {
            self.stamp[cell] = self.epoch;
            self.touched.push(cell as u32);
        }
    }

    /// Removes every tile that lost its last supporting socket; false on an empty domain.
    pub(super) fn propagate(&mut self) -> bool {
        let (w, d, s) = (self.words, self.dirs, self.sockets);
        while let Some((c, dir, sock)) = self.pending.pop() {
            let (c, dir) = (c as usize, usize::from(dir));
            let n = self.neighbors[c * d + dir] as usize;
            let e = usize::from(self.opposite[dir]);
            let base = (c * d + dir) * s;
            // Sockets on n's side that `sock` could have supported.
            let mut maybe = self.partners[usize::from(sock)];
            while maybe != 0 {
                let t = maybe.trailing_zeros() as usize;
                maybe &= maybe - 1;
                let mut p = self.partners[t];
                let mut supported = false;
                while p != 0 {
                    let q = p.trailing_zeros() as usize;
                    p &= p - 1;
                    if self.counts[base + q] > 0 {
                        supported = true;
                        break;
                    }
                }
                if supported {
                    continue;
                }
                let mb = (e * s + t) * w;
                for i in 0..w {
                    let m = self.domain[n * w + i] & self.socket_mask[mb + i];
                    self.remove_bits(n, i, m);
                }
                if self.len[n] == 0 {
                    self.conflict = Some(self.conflict_at(n, e, Some(c)));
                    self.pending.clear();
                    return false;
                }
            }
        }
        true
    }

    /// The conflict at `cell`, wall `dir`: the neighbour `from` that emptied it (and the
    /// sockets it still offers), or `None` when the fixed cells and border left it empty.
    pub(super) fn conflict_at(&self, cell: usize, dir: usize, from: Option<usize>) -> Conflict {
        let (d, s) = (self.dirs, self.sockets);
        let (neighbor_at, offered) = match from {
            Some(c) => {
                let back = (0..d).find(|&x| self.neighbors[c * d + x] == cell as u32).unwrap_or(0);
                let offered = (0..s)
                    .filter(|&q| self.counts[(c * d + back) * s + q] > 0)
                    .map(|q| self.socket_names[q].clone())
                    .collect();
                (self.coords[c], offered)
            }
            None => (self.coords[cell], vec!["(fixed cells and border allow no tile)".to_string()]),
        };
        Conflict { cell: cell as u32, at: self.coords[cell], dir: dir as u8, neighbor_at, offered }
    }

    /// Puts back every removal logged after `mark`, newest first.
    pub(super) fn undo_to(&mut self, mark: usize) {
        let w = self.words;
        while self.trail.len() > mark {
            let (at, bits) = self.trail.pop().expect("invariant: trail longer than mark");
            let (c, i) = (at as usize / w, at as usize % w);
            self.domain[at as usize] |= bits;
            if self.len[c] == 1 {
                self.collapsed -= 1;
            }
            self.len[c] += bits.count_ones() as u16;
            let (sw, swl) = self.weight_sums(i, std::slice::from_ref(&bits));
            self.sum_w[c] += sw;
            self.sum_wl[c] += swl;
            self.shift_supports(c, i, bits, Support::Gained);
            self.touch(c);
        }
        self.pending.clear();
    }
}
