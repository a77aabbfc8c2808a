//! Removing tiles and putting them back: the undo log, arc-consistent propagation by socket
//! tables, and the conflict it reports.
//!
//! A cell `c` constrains its neighbour `n` across wall `d` only through the sockets `c` can
//! still show on `d` (a set of a few bits, [`Solver::offered`]); the tiles of `n` that may
//! face that set are one table lookup ([`Solver::allowed`]). Revising an arc is therefore a
//! handful of AND operations per domain word. The hot loops are generic over the number of
//! domain words (`W`, 0 meaning "read it from the solver"), so a tile set of up to 64 tiles
//! runs on plain `u64` registers; the result does not depend on `W`.

use super::{Conflict, NO_CELL, Solver, packed};

/// The number of domain words: `W`, or the solver's own count when `W` is 0.
#[inline(always)]
pub(super) fn width<const W: usize>(words: usize) -> usize {
    if W == 0 { words } else { W }
}

impl Solver {
    /// The sockets `cell` may still show on wall `dir`, as a bit set (bit `s` = socket `s`).
    #[inline(always)]
    pub(super) fn offered<const W: usize>(&self, cell: usize, dir: usize) -> u16 {
        let w = width::<W>(self.words);
        self.offered_by(&self.domain[cell * w..cell * w + w], dir)
    }

    /// The sockets the tiles of domain `dom` show on wall `dir`, as a bit set.
    #[inline(always)]
    pub(super) fn offered_by(&self, dom: &[u64], dir: usize) -> u16 {
        let (w, s) = (dom.len(), self.sockets);
        let masks = &self.socket_mask[dir * s * w..(dir + 1) * s * w];
        let mut set = 0u16;
        for sock in 0..s {
            let m = &masks[sock * w..sock * w + w];
            if dom.iter().zip(m).any(|(a, b)| a & b != 0) {
                set |= 1 << sock;
            }
        }
        set
    }

    /// The sockets `cell` may still show on every wall, packed as `offer_bytes` packs them
    /// (see [`Solver::offered_all_of`]). Only when `offer_bytes` is built.
    #[inline(always)]
    pub(super) fn offered_all<const W: usize>(&self, cell: usize) -> u64 {
        let w = width::<W>(self.words);
        self.offered_all_of(&self.domain[cell * w..cell * w + w])
    }

    /// The sockets the tiles of domain `dom` show on every wall (see [`packed::offered`]).
    /// Only when `offer_bytes` is built.
    #[inline(always)]
    pub(super) fn offered_all_of(&self, dom: &[u64]) -> u64 {
        packed::offered(&self.offer_bytes, dom)
    }

    /// Word `i` of the tiles whose socket on wall `dir` may meet some socket of `set`: one
    /// lookup per 8 sockets (the table is the union over each byte of the set).
    #[inline(always)]
    pub(super) fn allowed<const W: usize>(&self, dir: usize, set: u16, i: usize) -> u64 {
        let (w, per) = (width::<W>(self.words), self.chunk_sets);
        if self.chunks == 1 {
            return self.allow[(dir * per + usize::from(set)) * w + i];
        }
        let mut out = 0;
        for k in 0..self.chunks {
            let sub = usize::from(set >> (8 * k)) & (per - 1);
            out |= self.allow[((k * self.dirs + dir) * per + sub) * w + i];
        }
        out
    }

    /// Removes one tile from a cell's domain and queues the cell for propagation.
    pub(super) fn remove_tile(&mut self, cell: usize, t: usize) {
        self.remove_bits(cell, t / 64, 1u64 << (t % 64));
        self.push(cell);
    }

    /// Removes the tiles `bits` (all present) from word `i` of `cell`'s domain: one log
    /// entry, the length lowered.
    #[inline]
    pub(super) fn remove_bits(&mut self, cell: usize, i: usize, bits: u64) {
        if bits == 0 {
            return;
        }
        let at = cell * self.words + i;
        self.domain[at] &= !bits;
        let before = self.state[cell].len;
        self.state[cell].len -= bits.count_ones() as u16;
        if before > 1 && self.state[cell].len == 1 {
            self.collapsed += 1;
        }
        self.trail.push((at as u32, bits));
        self.touch(cell);
    }

    /// Decides `cell` (undecided) for tile `keep`: every other tile is logged as removed.
    pub(super) fn decide(&mut self, cell: usize, keep: usize) {
        let w = self.words;
        for i in 0..w {
            let keep_bit = if i == keep / 64 { 1u64 << (keep % 64) } else { 0 };
            let gone = self.domain[cell * w + i] & !keep_bit;
            if gone != 0 {
                self.domain[cell * w + i] = keep_bit;
                self.trail.push(((cell * w + i) as u32, gone));
            }
        }
        self.state[cell].len = 1;
        self.collapsed += 1;
        self.touch(cell);
        self.push(cell);
    }

    /// Notes that `cell` changed since the last flush.
    fn touch(&mut self, cell: usize) {
        if self.state[cell].stamp != self.epoch {
            self.state[cell].stamp = self.epoch;
            self.touched.push(cell as u32);
        }
    }

    /// Queues `cell` for propagation: its neighbours must be revised against its domain.
    pub(super) fn push(&mut self, cell: usize) {
        if !self.state[cell].on_stack {
            self.state[cell].on_stack = true;
            self.stack.push(cell as u32);
        }
    }

    /// Revises every neighbour of every queued cell until nothing changes; false (with the
    /// conflict recorded and the queue emptied) when a domain empties.
    pub(super) fn propagate(&mut self) -> bool {
        by_shape!(self, propagate_shaped)
    }

    /// [`Solver::propagate`] with `W` domain words and `D` walls per cell (0: read at run time).
    fn propagate_shaped<const W: usize, const D: usize>(&mut self) -> bool {
        if self.offer_bytes.is_empty() {
            self.propagate_per_wall::<W, D>()
        } else {
            self.propagate_packed::<W, D>()
        }
    }

    /// Propagation when the offered sockets do not pack: each wall's set found and compared
    /// on its own.
    fn propagate_per_wall<const W: usize, const D: usize>(&mut self) -> bool {
        let d = width::<D>(self.dirs);
        while let Some(c) = self.stack.pop() {
            let c = c as usize;
            self.state[c].on_stack = false;
            for dir in 0..d {
                let n = self.neighbors[c * d + dir];
                if n >= NO_CELL {
                    continue;
                }
                // Only a wall whose offered sockets changed can take tiles from beyond it.
                let set = self.offered::<W>(c, dir);
                if self.revised[c * d + dir] == u64::from(set) {
                    continue;
                }
                self.revised[c * d + dir] = u64::from(set);
                if !self.revise::<W>(dir, set, n as usize) {
                    self.fail(c, dir, n as usize);
                    return false;
                }
            }
        }
        true
    }

    /// Records the conflict of `n` emptied across wall `dir` of `c`, and empties the queue.
    pub(super) fn fail(&mut self, c: usize, dir: usize, n: usize) {
        let e = usize::from(self.opposite[dir]);
        self.conflict = Some(self.conflict_at(n, e, Some(c)));
        for &s in &self.stack {
            self.state[s as usize].on_stack = false;
        }
        self.stack.clear();
    }

    /// Removes from `n`, across wall `dir` of a cell that offers the sockets `set` there,
    /// every tile whose facing socket can meet none of them (one log entry per word, as
    /// [`Solver::remove_bits`] logs); queues `n` when it lost a tile. False when `n` empties.
    #[inline(always)]
    fn revise<const W: usize>(&mut self, dir: usize, set: u16, n: usize) -> bool {
        let w = width::<W>(self.words);
        // With one chunk of sockets the allowed tiles are one row of the table.
        let row = (self.chunks == 1).then(|| (self.allow_row[dir] + usize::from(set)) * w);
        let mut len = self.state[n].len;
        let mut changed = false;
        for i in 0..w {
            let allowed = match row {
                Some(at) => self.allow[at + i],
                None => self.allowed::<W>(usize::from(self.opposite[dir]), set, i),
            };
            let at = n * w + i;
            let gone = self.domain[at] & !allowed;
            if gone != 0 {
                self.domain[at] &= allowed;
                self.trail.push((at as u32, gone));
                let before = len;
                len -= gone.count_ones() as u16;
                if before > 1 && len == 1 {
                    self.collapsed += 1;
                }
                changed = true;
            }
        }
        if !changed {
            return true;
        }
        self.state[n].shrunk_to(len, self.epoch, n as u32, &mut self.touched, &mut self.stack);
        len > 0
    }

    /// The conflict at `cell`, wall `dir`: the neighbour `from` that emptied it (and the
    /// sockets it still offers), or `None` when the fixed cells and border left it empty.
    pub(super) fn conflict_at(&self, cell: usize, dir: usize, from: Option<usize>) -> Conflict {
        let d = self.dirs;
        let (neighbor_at, offered) = match from {
            Some(c) => {
                let back = (0..d).find(|&x| self.neighbors[c * d + x] == cell as u32).unwrap_or(0);
                let set = self.offered::<0>(c, back);
                let offered = (0..self.sockets)
                    .filter(|&q| set >> q & 1 == 1)
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
            let c = at as usize / w;
            self.domain[at as usize] |= bits;
            if self.state[c].len == 1 {
                self.collapsed -= 1;
            }
            self.state[c].len += bits.count_ones() as u16;
            self.touch(c);
            self.refresh_revised(c);
        }
    }

    /// Records that `cell`'s neighbours agree with what it offers now (true at every fixed
    /// point, which is what [`Solver::undo_to`] restores).
    pub(super) fn refresh_revised(&mut self, cell: usize) {
        if self.offer_bytes.is_empty() {
            for dir in 0..self.dirs {
                self.revised[cell * self.dirs + dir] = u64::from(self.offered::<0>(cell, dir));
            }
        } else {
            self.revised[cell] = self.offered_all::<0>(cell);
        }
    }
}
