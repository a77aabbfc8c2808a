//! Keeping a frame's freed memory for the next frame. A CPU renderer (lavapipe) bins each
//! frame's triangles into a few megabytes of memory on its own threads and frees them
//! when the frame is drawn. With glibc's starting thresholds (128 KiB) the allocator can
//! hand that memory back to the kernel every frame, and the next frame faults it in again
//! page by page: in the top view of the 12x12x3 dungeon of `tools/frame_times.sh` (the
//! rock caps' thin triangles binned into many tiles) about 530 page faults and 1.5 ms of
//! kernel time per frame.
//!
//! glibc raises both thresholds by itself when a block it mapped on its own is freed
//! (`mallopt(3)`, "dynamic mmap threshold": the mmap threshold becomes the block's size,
//! the trim threshold twice that), so freeing one large block at start-up is enough; no
//! allocator settings are touched (the crate forbids `unsafe`). With other allocators it
//! is one allocation freed.

/// Size of the block allocated and freed (bytes): glibc then keeps up to twice as much
/// freed memory (48 MiB) and maps only blocks larger than it on their own (its dynamic
/// threshold stops at 32 MiB).
const BLOCK: usize = 24 << 20;

/// Allocates and frees one block of `BLOCK` bytes (24 MiB; never touched, so no memory is used),
/// which makes glibc keep the memory freed at the end of a frame for the next one. Call it
/// once before drawing; it applies to the whole process.
pub fn keep_frame_memory() {
    let block: Vec<u8> = Vec::with_capacity(BLOCK);
    drop(std::hint::black_box(block));
}
