#if canImport(Glibc)
import Glibc
#endif

/// A big file mapped read-only, for readers that parse it in place.
///
/// Reading a 100 MB text file copies it out of the page cache into fresh memory: a third of the
/// read's time went to clearing and filling those pages, and the copy stayed resident beside the
/// arrays parsed out of it. Mapped, the bytes are the page cache's own, and `release` lets a
/// reader drop the pages of an array it has finished with, so the file is never resident whole.
/// A file truncated while mapped reads as zeros past its new end (`TruncationGuard`) and is
/// reported by `changedWhileRead`, never a crash.
package final class MappedFile: @unchecked Sendable {
    /// Smaller files are read: mapping and unmapping cost more than copying a few megabytes.
    package static let threshold = 8 << 20

    package let bytes: UnsafeBufferPointer<UInt8>
    private let slot: Int

    /// Maps `size` bytes of the file at `path`; nil when it cannot be mapped or guarded (the caller
    /// reads it instead).
    package init?(path: String, size: Int, staged: StagedFiles = .none) {
        guard size > 0 else { return nil }
        let fd: Int32
        do { fd = try RegularFile.openForReading(path, display: staged.name(ofPath: path), staged: staged) } catch { return nil }  // the caller's own read reports why
        defer { close(fd) }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        let start = UInt(bitPattern: base)
        guard let slot = TruncationGuard.register(start..<(start + UInt(size))) else {
            munmap(base, size)
            return nil
        }
        self.slot = slot
        bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: size)
    }

    deinit {
        TruncationGuard.release(slot)
        munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count)
    }

    /// Drops the whole pages inside `range` from memory. Nothing is lost: a later read of them
    /// maps the page cache's copy again.
    package func release(_ range: Range<Int>) {
        guard let base = bytes.baseAddress, range.count >= 1 << 18 else { return }  // a call per quarter megabyte at least
        let page = Int(getpagesize())
        let first = (Int(bitPattern: base) + range.lowerBound + page - 1) & ~(page - 1)
        let end = (Int(bitPattern: base) + min(range.upperBound, bytes.count)) & ~(page - 1)
        guard end > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(start, end - first, MADV_DONTNEED)
    }

    /// Whether the file shrank while it was read: what was read past its new end was zeros.
    package var changedWhileRead: Bool { TruncationGuard.isDamaged(slot) }

    /// Whether `path` is a regular file big enough to be mapped.
    package static func isLarge(path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && Int(status.st_size) >= threshold
    }

    /// A whole asset file of at least `threshold` bytes, mapped, its size checked against
    /// `maxFileBytes` and charged to the budget as `FileBytes.read` does; nil for a smaller file or
    /// one that cannot be mapped (the caller reads it).
    package static func mapIfLarge(path: String, display: String, budget: ReadBudget, staged: StagedFiles = .none) throws(AssetError) -> MappedFile? {
        var status = stat()
        guard stat(path, &status) == 0 else { throw AssetError.openFailed(path: display, errno: errno) }
        let size = Int(status.st_size)
        guard (status.st_mode & S_IFMT) == S_IFREG, size >= threshold else { return nil }
        guard size <= budget.limits.maxFileBytes else {
            throw AssetError(.limitExceeded("file is \(size) bytes (at most \(budget.limits.maxFileBytes))"), at: SourceLocation(file: display))
        }
        guard let mapped = MappedFile(path: path, size: size, staged: staged) else { return nil }
        try budget.spend(bytes: size, for: "the file's \(size) bytes", at: SourceLocation(file: display))
        return mapped
    }

    /// The error for a file that `changedWhileRead`.
    package static func changedError(at file: String) -> AssetError {
        AssetError(.io("the file shrank while it was being read (rewritten in place?); read it again"), at: SourceLocation(file: file))
    }
}
