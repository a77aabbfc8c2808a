//! A*'s per-node state packed in one integer: from the top, a search stamp, the cost of
//! the best route found so far (`g`) and the node before it on that route (the parent).
//!
//! Stamps count down: a record never touched holds the highest stamp, each search takes
//! two stamps below those of every earlier search (`open`, then `closed = open - 1`), so
//! nothing is cleared between searches. With the stamp on top, one comparison of the
//! packed values without their parents answers "does a route of cost `ng` improve this
//! node" for all three cases at once: a node untouched by this search (higher stamp) always
//! improves, an open one (equal stamp) when `ng` is lower, a closed one (lower stamp) never.
//!
//! Two widths: [`Compact`] (8 bytes a node: stamp 8 bits, `g` 29 bits, parent 27 bits), used
//! when the graph's node numbers fit (every graph of a dungeon within `MAX_SLOTS` does) and
//! no route cost passes 2^29 - 1 (the search reports it and is rerun wide), and [`Wide`]
//! (16 bytes: 32, 64 and 32 bits), which holds any cost.

/// A packed record (see the module docs).
pub(super) trait Record: Copy {
    /// The highest stamp (that of a record no search has touched).
    const STAMP_MAX: u32;
    /// The highest cost a record holds.
    const G_MAX: u64;
    /// The parent of a start.
    const NO_PARENT: u32;
    /// A record no search has touched.
    const UNTOUCHED: Self;

    /// Packs a record; `g` at most [`Record::G_MAX`], `parent` a node number below
    /// [`Record::NO_PARENT`] or `NO_PARENT` itself.
    fn pack(stamp: u32, g: u64, parent: u32) -> Self;
    /// The stamp.
    fn stamp(self) -> u32;
    /// The cost so far.
    fn g(self) -> u64;
    /// The parent ([`Record::NO_PARENT`] for a start).
    fn parent(self) -> u32;
    /// Whether `self`, written by the current search with its open stamp, improves `old`.
    fn improves(self, old: Self) -> bool;
    /// The same record with another stamp.
    fn restamped(self, stamp: u32) -> Self;
}

/// 8-byte record: stamp 8 bits, cost 29 bits, parent 27 bits.
pub(super) type Compact = u64;

/// 16-byte record: stamp 32 bits, cost 64 bits, parent 32 bits.
pub(super) type Wide = u128;

const COMPACT_PARENT_BITS: u32 = 27;
const COMPACT_G_BITS: u32 = 29;
const COMPACT_STAMP_SHIFT: u32 = COMPACT_PARENT_BITS + COMPACT_G_BITS;

impl Record for Compact {
    const STAMP_MAX: u32 = (1 << (64 - COMPACT_STAMP_SHIFT)) - 1;
    const G_MAX: u64 = (1 << COMPACT_G_BITS) - 1;
    const NO_PARENT: u32 = (1 << COMPACT_PARENT_BITS) - 1;
    const UNTOUCHED: Self = u64::MAX;

    #[inline(always)]
    fn pack(stamp: u32, g: u64, parent: u32) -> Self {
        (u64::from(stamp) << COMPACT_STAMP_SHIFT) | (g << COMPACT_PARENT_BITS) | u64::from(parent)
    }

    #[inline(always)]
    fn stamp(self) -> u32 {
        (self >> COMPACT_STAMP_SHIFT) as u32
    }

    #[inline(always)]
    fn g(self) -> u64 {
        (self >> COMPACT_PARENT_BITS) & Self::G_MAX
    }

    #[inline(always)]
    fn parent(self) -> u32 {
        (self as u32) & Self::NO_PARENT
    }

    #[inline(always)]
    fn improves(self, old: Self) -> bool {
        (self >> COMPACT_PARENT_BITS) < (old >> COMPACT_PARENT_BITS)
    }

    #[inline(always)]
    fn restamped(self, stamp: u32) -> Self {
        (self & ((1 << COMPACT_STAMP_SHIFT) - 1)) | (u64::from(stamp) << COMPACT_STAMP_SHIFT)
    }
}

impl Record for Wide {
    const STAMP_MAX: u32 = u32::MAX;
    const G_MAX: u64 = u64::MAX;
    const NO_PARENT: u32 = u32::MAX;
    const UNTOUCHED: Self = u128::MAX;

    #[inline(always)]
    fn pack(stamp: u32, g: u64, parent: u32) -> Self {
        (u128::from(stamp) << 96) | (u128::from(g) << 32) | u128::from(parent)
    }

    #[inline(always)]
    fn stamp(self) -> u32 {
        (self >> 96) as u32
    }

    #[inline(always)]
    fn g(self) -> u64 {
        (self >> 32) as u64
    }

    #[inline(always)]
    fn parent(self) -> u32 {
        self as u32
    }

    #[inline(always)]
    fn improves(self, old: Self) -> bool {
        (self >> 32) < (old >> 32)
    }

    #[inline(always)]
    fn restamped(self, stamp: u32) -> Self {
        (self & ((1 << 96) - 1)) | (u128::from(stamp) << 96)
    }
}

/// The records of one width with the stamp of the next search.
#[derive(Debug, Clone)]
pub(super) struct Records<R> {
    /// Per node.
    pub(super) nodes: Vec<R>,
    /// The open stamp of the next search.
    next_open: u32,
}

impl<R: Record> Default for Records<R> {
    fn default() -> Self {
        Records { nodes: Vec::new(), next_open: R::STAMP_MAX - 1 }
    }
}

impl<R: Record> Records<R> {
    /// Prepares a search over `n` nodes: returns its `(open, closed)` stamps, below every
    /// stamp in the records (restarting the count, and clearing, when they run out).
    pub(super) fn begin(&mut self, n: usize) -> (u32, u32) {
        if self.nodes.len() < n {
            self.nodes.resize(n, R::UNTOUCHED);
        }
        if self.next_open < 1 {
            self.nodes.fill(R::UNTOUCHED);
            self.next_open = R::STAMP_MAX - 1;
        }
        let open = self.next_open;
        self.next_open = open.saturating_sub(2);
        (open, open - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<R: Record>() {
        let r = R::pack(R::STAMP_MAX - 1, R::G_MAX, R::NO_PARENT);
        assert_eq!((r.stamp(), r.g(), r.parent()), (R::STAMP_MAX - 1, R::G_MAX, R::NO_PARENT));
        let r = R::pack(3, 12_345, 678);
        assert_eq!((r.stamp(), r.g(), r.parent()), (3, 12_345, 678));
        assert_eq!(r.restamped(2).stamp(), 2);
        assert_eq!((r.restamped(2).g(), r.restamped(2).parent()), (12_345, 678));
        let (open, closed) = (5, 4);
        let new = |g| R::pack(open, g, 1);
        assert!(new(9).improves(R::UNTOUCHED), "untouched");
        assert!(new(9).improves(R::pack(7, 1, 2)), "touched by an earlier search");
        assert!(new(9).improves(R::pack(open, 10, 2)), "open, dearer");
        assert!(!new(10).improves(R::pack(open, 10, 2)), "open, as cheap: the first route stays");
        assert!(!new(0).improves(R::pack(closed, 10, 2)), "closed");
    }

    #[test]
    fn records_pack_and_compare() {
        round_trip::<Compact>();
        round_trip::<Wide>();
        assert_eq!(Compact::STAMP_MAX, 255);
    }

    #[test]
    fn stamps_count_down_then_restart_with_a_clear() {
        let mut records = Records::<Compact>::default();
        let mut last = u32::MAX;
        for _ in 0..127 {
            let (open, closed) = records.begin(4);
            assert!(open < last && closed == open - 1);
            last = closed;
        }
        records.nodes[2] = Compact::pack(last, 5, 1);
        assert_eq!(records.begin(4), (254, 253), "stamps ran out: restart");
        assert_eq!(records.nodes[2], Compact::UNTOUCHED, "and clear");
    }
}
