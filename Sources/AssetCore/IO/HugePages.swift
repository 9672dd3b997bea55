import Dispatch
#if canImport(Glibc)
import Glibc
#endif

/// Asks the kernel to back a large buffer with 2 MB pages before it is first written.
///
/// Reading a 1M-triangle file writes tens of megabytes into fresh memory, and with 4 KB pages a
/// third of the read's time went to page faults (perf: `exc_page_fault`, `clear_page`). Debian's
/// kernels enable transparent huge pages only for memory that asks (`madvise` mode), and glibc's
/// allocator asks only when a tunable is set in the environment, so the readers ask themselves
/// for the few buffers that are big. Only whole 2 MB pages inside the buffer are affected; the
/// advice is a hint, and failure changes nothing but speed.
public enum HugePages {
    /// Buffers smaller than this are left alone: they hold no whole huge page worth the trouble.
    public static let threshold = 4 << 20

    public static func advise(_ start: UnsafeMutableRawPointer?, byteCount: Int) {
        #if os(Linux)
        guard let start, byteCount >= threshold else { return }
        let page = 4096
        let first = (Int(bitPattern: start) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: start) + byteCount) & ~(page - 1)
        guard end > first, let aligned = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(aligned, end - first, MADV_HUGEPAGE)
        #endif
    }

    /// `advise`, then the buffer's pages made present on both cores, 2 MB at a time, each core
    /// taking the next piece when it is done. A buffer that two cores fill half each is often
    /// half reused memory and half fresh (the allocator extends the heap's top for the rest), and
    /// the kernel's zeroing of the fresh half, on that half's core alone, was a fifth of a
    /// million-triangle thumbnail's time (perf: `clear_page_erms` on one thread, the other idle).
    /// Pages already present cost a walk of their table.
    public static func prefault(_ start: UnsafeMutableRawPointer?, byteCount: Int) {
        #if os(Linux)
        guard let start, byteCount >= threshold else { return }
        advise(start, byteCount: byteCount)
        let page = 4096, huge = 2 << 20
        let first = (Int(bitPattern: start) + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: start) + byteCount) & ~(page - 1)
        guard end > first else { return }
        // Pieces end on 2 MB boundaries, so no huge page is split between two of them.
        let pieces = ((end - 1) / huge) - (first / huge) + 1
        DispatchQueue.concurrentPerform(iterations: pieces) { k in
            let from = k == 0 ? first : (first / huge + k) * huge
            let to = min(end, (first / huge + k + 1) * huge)
            guard to > from, let at = UnsafeMutableRawPointer(bitPattern: from) else { return }
            _ = madvise(at, to - from, Self.populateWrite)  // a hint: on failure the first write faults as before
        }
        #endif
    }

    /// `MADV_POPULATE_WRITE` (Linux 5.14).
    private static let populateWrite: Int32 = 23

    /// `advise` for an array's storage, after its capacity is reserved and before it is filled.
    public static func advise<T>(_ array: inout [T]) {
        let bytes = array.capacity * MemoryLayout<T>.stride
        guard bytes >= threshold else { return }
        array.withUnsafeMutableBufferPointer { buffer in
            // The buffer covers the count; the capacity beyond it is the same allocation.
            advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: bytes)
        }
    }
}
