//! The entropy queue of undecided cells: entries keyed by (entropy, noise), lowest first.
//!
//! A solve meets few distinct entropies, so the entries are kept in one bucket per entropy
//! value, and a bitset over the buckets' ranks (their order by entropy) marks those that
//! hold entries. Noise is a permutation of the cells, so a bucket is a set of noise values:
//! a bitset in pages of [`PAGE_BITS`] values, each page with a summary word of its nonzero
//! words, and per bucket one bit per page that holds entries. Pushing or removing an entry
//! is a few bit operations, and the lowest entry a handful of `trailing_zeros`. Entries are
//! removed when their cell leaves the bucket (decided, or queued under another entropy), so
//! the queue holds exactly the current entries: no stale entries to skip or compact. Pages
//! come from a shared pool when a bucket first needs them and go back when they empty, so
//! memory follows the entries, not buckets times cells.

/// Buckets kept across solves before the queue forgets them at a reset.
const MAX_BUCKETS: usize = 1 << 12;

/// Noise values per page: 64 words of 64 bits.
const PAGE_BITS: u32 = 12;

/// `Bucket::pages` of a page the bucket has no entries in.
const NO_PAGE: u32 = u32::MAX;

/// Entries (entropy, noise) of cells, lowest first; see the module docs.
#[derive(Debug, Clone)]
pub(super) struct EntropyQueue {
    /// Pages per bucket: noise values `0..noise_count`, [`PAGE_BITS`] bits a page.
    pages_per_bucket: usize,
    /// The buckets, by number.
    buckets: Vec<Bucket>,
    /// (entropy, bucket) of every bucket, sorted by entropy: a bucket's rank is its place here.
    sorted: Vec<(u32, u32)>,
    /// A bit per rank whose bucket holds entries.
    active: Vec<u64>,
    /// The pool of pages.
    pages: Vec<Page>,
    /// Pages of the pool not in use (all zero).
    free: Vec<u32>,
}

/// The entries of one entropy.
#[derive(Debug, Clone)]
struct Bucket {
    /// Its place in `EntropyQueue::sorted`.
    rank: u32,
    /// Entries held.
    len: u32,
    /// Per page of noise values, its page in the pool, or [`NO_PAGE`] when it holds none.
    pages: Vec<u32>,
    /// A bit per page of `pages` that holds entries.
    used: Vec<u64>,
}

/// 64 words of noise bits, and a bit per nonzero word.
#[derive(Debug, Clone)]
struct Page {
    summary: u64,
    words: [u64; 64],
}

impl EntropyQueue {
    /// An empty queue for noise values `0..noise_count`.
    pub(super) fn new(noise_count: usize) -> EntropyQueue {
        EntropyQueue {
            pages_per_bucket: noise_count.div_ceil(1 << PAGE_BITS).max(1),
            buckets: Vec::new(),
            sorted: Vec::new(),
            active: Vec::new(),
            pages: Vec::new(),
            free: Vec::new(),
        }
    }

    /// The bucket of entropy key `entropy`, made on first use. Its number stays valid until
    /// [`EntropyQueue::clear`] returns true.
    pub(super) fn bucket(&mut self, entropy: u32) -> u32 {
        match self.sorted.binary_search_by_key(&entropy, |&(e, _)| e) {
            Ok(at) => self.sorted[at].1,
            Err(at) => {
                let bucket = self.buckets.len() as u32;
                self.sorted.insert(at, (entropy, bucket));
                let pages = self.pages_per_bucket;
                self.buckets.push(Bucket {
                    rank: 0,
                    len: 0,
                    pages: vec![NO_PAGE; pages],
                    used: vec![0; pages.div_ceil(64)],
                });
                // The ranks from `at` on moved up by one: renumber them and mark again.
                self.active = vec![0; self.sorted.len().div_ceil(64)];
                for (rank, &(_, b)) in self.sorted.iter().enumerate() {
                    let b = &mut self.buckets[b as usize];
                    b.rank = rank as u32;
                    if b.len > 0 {
                        self.active[rank / 64] |= 1 << (rank % 64);
                    }
                }
                bucket
            }
        }
    }

    /// Queues the entry (the entropy of `bucket`, `noise`), which is not queued.
    #[inline(always)]
    pub(super) fn push(&mut self, bucket: u32, noise: u32) {
        let b = &mut self.buckets[bucket as usize];
        let p = (noise >> PAGE_BITS) as usize;
        let mut page = b.pages[p];
        if page == NO_PAGE {
            page = self.free.pop().unwrap_or_else(|| new_page(&mut self.pages));
            b.pages[p] = page;
            b.used[p / 64] |= 1 << (p % 64);
        }
        let word = (noise >> 6) as usize % 64;
        let page = &mut self.pages[page as usize];
        page.words[word] |= 1 << (noise % 64);
        page.summary |= 1 << word;
        b.len += 1;
        if b.len == 1 {
            self.active[b.rank as usize / 64] |= 1 << (b.rank % 64);
        }
    }

    /// Removes the entry (the entropy of `bucket`, `noise`), which is queued.
    #[inline(always)]
    pub(super) fn remove(&mut self, bucket: u32, noise: u32) {
        let b = &mut self.buckets[bucket as usize];
        let p = (noise >> PAGE_BITS) as usize;
        let at = b.pages[p] as usize;
        debug_assert!(at != NO_PAGE as usize, "remove: noise {noise} is not in bucket {bucket}");
        let word = (noise >> 6) as usize % 64;
        let page = &mut self.pages[at];
        debug_assert!(page.words[word] >> (noise % 64) & 1 == 1, "remove: {noise} not in bucket {bucket}");
        page.words[word] &= !(1 << (noise % 64));
        if page.words[word] == 0 {
            page.summary &= !(1 << word);
            if page.summary == 0 {
                b.pages[p] = NO_PAGE;
                b.used[p / 64] &= !(1 << (p % 64));
                self.free.push(at as u32);
            }
        }
        b.len -= 1;
        if b.len == 0 {
            self.active[b.rank as usize / 64] &= !(1 << (b.rank % 64));
        }
    }

    /// Removes the lowest entry and returns its noise; `None` when the queue is empty.
    #[inline]
    pub(super) fn pop_first(&mut self) -> Option<u32> {
        let (i, &ranks) = self.active.iter().enumerate().find(|&(_, &a)| a != 0)?;
        let rank = i * 64 + ranks.trailing_zeros() as usize;
        let b = &mut self.buckets[self.sorted[rank].1 as usize];
        let (i, &used) = b.used.iter().enumerate().find(|&(_, &u)| u != 0)?;
        let p = i * 64 + used.trailing_zeros() as usize;
        let at = b.pages[p] as usize;
        let page = &mut self.pages[at];
        let word = page.summary.trailing_zeros() as usize;
        let bits = &mut page.words[word];
        let noise = p << PAGE_BITS | word << 6 | bits.trailing_zeros() as usize;
        // The lowest bit of each level goes.
        *bits &= *bits - 1;
        if *bits == 0 {
            page.summary &= page.summary - 1;
            if page.summary == 0 {
                b.pages[p] = NO_PAGE;
                b.used[i] &= used - 1;
                self.free.push(at as u32);
            }
        }
        b.len -= 1;
        if b.len == 0 {
            self.active[rank / 64] &= ranks - 1;
        }
        Some(noise as u32)
    }

    /// Empties the queue. Returns true when it also forgot its buckets (past
    /// [`MAX_BUCKETS`]), so that bucket numbers held elsewhere are void.
    pub(super) fn clear(&mut self) -> bool {
        self.active.fill(0);
        for b in &mut self.buckets {
            b.len = 0;
            for (i, used) in b.used.iter_mut().enumerate() {
                while *used != 0 {
                    let p = i * 64 + used.trailing_zeros() as usize;
                    *used &= *used - 1;
                    let page = b.pages[p] as usize;
                    self.pages[page] = Page { summary: 0, words: [0; 64] };
                    self.free.push(page as u32);
                    b.pages[p] = NO_PAGE;
                }
            }
        }
        if self.buckets.len() > MAX_BUCKETS {
            *self = EntropyQueue::new(self.pages_per_bucket << PAGE_BITS);
            return true;
        }
        false
    }
}

/// A new zero page at the end of the pool; its number.
#[cold]
#[inline(never)]
fn new_page(pages: &mut Vec<Page>) -> u32 {
    pages.push(Page { summary: 0, words: [0; 64] });
    (pages.len() - 1) as u32
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    /// A fixed xorshift stream.
    struct Stream(u64);

    impl Stream {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }
    }

    /// Random queueings (a cell moved to another entropy leaves its old bucket), removals,
    /// pops and clears, applied to the queue and to an ordered set of (entropy, noise), the
    /// oracle: both give the same first entry every time. Noise counts span several pages.
    #[test]
    fn pops_in_the_order_of_an_ordered_set() {
        for seed in 1..=20u64 {
            let mut rng = Stream(0x9e37_79b9_7f4a_7c15 ^ seed);
            let cells = 50 + rng.below(if seed % 2 == 0 { 300 } else { 20_000 }) as u32;
            let entropies: Vec<u32> = (0..1 + rng.below(40)).map(|_| rng.below(1 << 28) as u32).collect();
            // Per cell (noise = cell here): the (entropy, bucket) it is queued under.
            let mut queued: Vec<Option<(u32, u32)>> = vec![None; cells as usize];
            let mut queue = EntropyQueue::new(cells as usize);
            let mut oracle: BTreeSet<(u32, u32)> = BTreeSet::new();
            let mut pops = 0;
            for step in 0..6000 {
                if step % 1500 == 1499 {
                    assert!(!queue.clear());
                    oracle.clear();
                    queued.fill(None);
                    assert!(queue.pop_first().is_none());
                }
                let cell = rng.below(u64::from(cells)) as u32;
                match rng.below(12) {
                    0..=6 => {
                        let e = entropies[rng.below(entropies.len() as u64) as usize];
                        let bucket = queue.bucket(e);
                        assert_eq!(queue.bucket(e), bucket, "one bucket per entropy");
                        if let Some((old, b)) = queued[cell as usize].take() {
                            queue.remove(b, cell);
                            oracle.remove(&(old, cell));
                        }
                        queue.push(bucket, cell);
                        oracle.insert((e, cell));
                        queued[cell as usize] = Some((e, bucket));
                    }
                    7 => {
                        if let Some((old, b)) = queued[cell as usize].take() {
                            queue.remove(b, cell);
                            oracle.remove(&(old, cell));
                        }
                    }
                    _ => {
                        let want = oracle.pop_first();
                        assert_eq!(queue.pop_first(), want.map(|(_, n)| n), "seed {seed}");
                        if let Some((_, n)) = want {
                            queued[n as usize] = None;
                            pops += 1;
                        }
                    }
                }
            }
            assert!(pops > 300, "the stream exercises pops");
            while let Some(n) = queue.pop_first() {
                assert_eq!(oracle.pop_first().map(|(_, n)| n), Some(n));
            }
            assert!(oracle.is_empty());
            assert_eq!(queue.free.len(), queue.pages.len(), "every page went back to the pool");
        }
    }

    #[test]
    fn forgets_its_buckets_past_the_limit() {
        let mut queue = EntropyQueue::new(MAX_BUCKETS + 1);
        for e in 0..=MAX_BUCKETS as u32 {
            let b = queue.bucket(e * 3);
            queue.push(b, e);
        }
        for e in 0..5u32 {
            let b = queue.bucket(e * 3);
            queue.remove(b, e);
        }
        assert_eq!(queue.pop_first(), Some(5));
        assert_eq!(queue.pop_first(), Some(6));
        assert!(queue.clear(), "past the limit the buckets are forgotten");
        assert_eq!(queue.bucket(7), 0);
        assert!(queue.pop_first().is_none());
    }
}
