//! The cache of chunks built on demand: which full-detail chunks a frame wants, which of
//! those to build now (nearest first, at most a budget per frame), and which built ones to
//! drop when the cache is over its capacity (those unused longest). It holds any built
//! item (the renderer's GPU buffers), so the rules are tested without a GPU.

use std::collections::BTreeMap;

use crate::mesh::chunk::ChunkId;

/// Chunks kept built by default: a walkthrough or a close overview needs a few dozen, so
/// turning round does not rebuild them, and memory stays bounded on any level.
pub const DEFAULT_CAPACITY: usize = 192;

/// Chunks built per frame by default in a window: each is a few milliseconds, so a frame
/// stays smooth while the view fills in (the coarse mesh stands in meanwhile).
pub const DEFAULT_BUDGET: usize = 6;

/// Counts of the chunk cache, for the HUD, the tests and the timings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct DemandStats {
    /// Chunks of the scene (every level) that have anything to draw.
    pub chunks: usize,
    /// Chunks built at full detail since the start (a chunk built again after it was
    /// dropped counts again).
    pub built: u64,
    /// Chunks dropped from the cache since the start.
    pub evicted: u64,
    /// Chunks built now.
    pub resident: usize,
    /// Chunks the last frame wanted at full detail.
    pub wanted: usize,
    /// Of those, chunks not built yet (drawn coarse meanwhile): more frames are needed.
    pub pending: usize,
}

struct Entry<T> {
    item: T,
    /// The last frame that used it.
    used: u64,
}

/// The built chunks and the rules that fill and empty them.
pub struct Demand<T> {
    built: BTreeMap<ChunkId, Entry<T>>,
    /// This frame's wanted chunks and their distances (metres) to the camera.
    wanted: Vec<(f32, ChunkId)>,
    frame: u64,
    capacity: usize,
    budget: Option<usize>,
    stats: DemandStats,
}

impl<T> Demand<T> {
    /// An empty cache for a scene of `chunks` chunks, keeping up to `capacity` built (more
    /// only while one frame needs more), building at most `budget` per frame (`None`: all a
    /// frame wants).
    #[must_use]
    pub fn new(chunks: usize, capacity: usize, budget: Option<usize>) -> Demand<T> {
        Demand {
            built: BTreeMap::new(),
            wanted: Vec::new(),
            frame: 0,
            capacity,
            budget,
            stats: DemandStats { chunks, ..DemandStats::default() },
        }
    }

    /// Sets the chunks built per frame (`None`: every chunk a frame wants, before it is
    /// drawn: screenshots).
    pub fn set_budget(&mut self, budget: Option<usize>) {
        self.budget = budget;
    }

    /// Sets how many built chunks are kept.
    pub fn set_capacity(&mut self, capacity: usize) {
        self.capacity = capacity;
    }

    /// Starts a frame: nothing is wanted yet.
    pub fn begin_frame(&mut self) {
        self.frame += 1;
        self.wanted.clear();
    }

    /// The frame wants chunk `id` at full detail; its nearest point is `distance` metres
    /// from the camera.
    pub fn want(&mut self, id: ChunkId, distance: f32) {
        if let Some(entry) = self.built.get_mut(&id) {
            entry.used = self.frame;
        }
        self.wanted.push((distance, id));
    }

    /// The wanted chunks to build now: those not built, nearest first, at most the budget.
    #[must_use]
    pub fn to_build(&self) -> Vec<ChunkId> {
        let mut missing: Vec<(f32, ChunkId)> =
            self.wanted.iter().copied().filter(|(_, id)| !self.built.contains_key(id)).collect();
        missing.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        missing.dedup_by_key(|(_, id)| *id);
        missing.truncate(self.budget.unwrap_or(usize::MAX));
        missing.into_iter().map(|(_, id)| id).collect()
    }

    /// Keeps the built `item` of chunk `id`, used this frame.
    pub fn insert(&mut self, id: ChunkId, item: T) {
        self.built.insert(id, Entry { item, used: self.frame });
        self.stats.built += 1;
    }

    /// Ends the building of a frame: drops the chunks unused longest while more than the
    /// capacity are built (never one this frame uses), and counts what is pending.
    pub fn finish_frame(&mut self) {
        let in_use = self.built.values().filter(|e| e.used == self.frame).count();
        let keep = self.capacity.max(in_use);
        if self.built.len() > keep {
            let mut by_age: Vec<(u64, ChunkId)> = self.built.iter().map(|(id, e)| (e.used, *id)).collect();
            by_age.sort_unstable();
            for (_, id) in by_age.into_iter().take(self.built.len() - keep) {
                self.built.remove(&id);
                self.stats.evicted += 1;
            }
        }
        let mut wanted: Vec<ChunkId> = self.wanted.iter().map(|(_, id)| *id).collect();
        wanted.sort_unstable();
        wanted.dedup();
        self.stats.wanted = wanted.len();
        self.stats.pending = wanted.iter().filter(|id| !self.built.contains_key(id)).count();
        self.stats.resident = self.built.len();
    }

    /// The built item of chunk `id`, if built.
    #[must_use]
    pub fn get(&self, id: ChunkId) -> Option<&T> {
        self.built.get(&id).map(|e| &e.item)
    }

    /// The counts so far.
    #[must_use]
    pub fn stats(&self) -> DemandStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(col: u32) -> ChunkId {
        ChunkId { level: 0, row: 0, col }
    }

    /// Runs a frame wanting `cols` (distance = the column), building what the budget allows.
    fn frame(demand: &mut Demand<u32>, cols: &[u32]) -> Vec<u32> {
        demand.begin_frame();
        for &c in cols {
            demand.want(id(c), c as f32);
        }
        let built: Vec<u32> = demand.to_build().iter().map(|c| c.col).collect();
        for &c in &built {
            demand.insert(id(c), c);
        }
        demand.finish_frame();
        built
    }

    #[test]
    fn the_budget_builds_nearest_first_and_the_rest_follows() {
        let mut demand = Demand::new(100, 50, Some(2));
        assert_eq!(frame(&mut demand, &[9, 3, 5, 1, 3]), [1, 3]);
        assert_eq!(demand.stats().pending, 2);
        assert_eq!(frame(&mut demand, &[9, 3, 5, 1]), [5, 9]);
        assert_eq!(demand.stats().pending, 0);
        assert_eq!(frame(&mut demand, &[9, 3, 5, 1]), Vec::<u32>::new());
        assert_eq!(demand.stats().built, 4);
        assert_eq!(demand.get(id(5)), Some(&5));
        // No budget: everything at once.
        let mut all = Demand::new(100, 50, None);
        assert_eq!(frame(&mut all, &[4, 2, 8]), [2, 4, 8]);
    }

    #[test]
    fn the_cache_drops_the_chunks_unused_longest_and_never_one_in_use() {
        let mut demand = Demand::new(100, 3, None);
        frame(&mut demand, &[0, 1, 2]);
        frame(&mut demand, &[2, 3]);
        // Capacity 3: 0 and 1 were last used a frame ago; one of them goes (the lower id).
        assert_eq!(demand.stats().resident, 3);
        assert!(demand.get(id(0)).is_none() && demand.get(id(1)).is_some());
        // Walking on: the cache never holds more than its capacity...
        for step in 0..20 {
            frame(&mut demand, &[step + 4, step + 5]);
            assert!(demand.stats().resident <= 3);
        }
        // ...unless one frame needs more, which it keeps.
        frame(&mut demand, &[50, 51, 52, 53, 54]);
        assert_eq!(demand.stats().resident, 5);
        assert_eq!(demand.stats().pending, 0);
        assert!(demand.stats().evicted >= 18);
    }
}
