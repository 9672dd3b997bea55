import Dispatch
import Foundation

/// Reads a whole file into one `[UInt8]` with read(2): one copy of the bytes, where
/// `Array(Data(contentsOf:))` would hold two at once for a moment.
package enum FileBytes {
    /// Files at least this big are read in two halves on two threads: copying out of the page
    /// cache and clearing the fresh pages it lands in is all of a read's cost, and it splits
    /// cleanly (perf, 100 MB OBJ: 35 ms of `_copy_to_iter` and `clear_page` on one core before
    /// parsing could start).
    static let parallelThreshold = 16 << 20

    package static func read(path: String, expectedSize: Int, staged: StagedFiles = .none) throws(AssetError) -> [UInt8] {
        let display = staged.name(ofPath: path)
        let fd = try RegularFile.openForReading(path, display: display, staged: staged)
        defer { close(fd) }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: expectedSize) { buffer, count in
            HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: expectedSize)
            guard let base = buffer.baseAddress else { count = 0; return }
            if expectedSize < parallelThreshold {
                let (got, error) = readFully(fd, into: base, range: 0..<expectedSize)
                count = got
                failure = error
                return
            }
            let middle = expectedSize / 2
            let halves = Locked<[(got: Int, error: Int32)]>([(0, 0), (0, 0)])
            let address = UInt(bitPattern: base)
            DispatchQueue.concurrentPerform(iterations: 2) { half in
                let range = half == 0 ? 0..<middle : middle..<expectedSize
                let outcome = readFully(fd, into: UnsafeMutablePointer(bitPattern: address)!, range: range)
                halves.withLock { $0[half] = outcome }
            }
            let (first, second) = (halves.value[0], halves.value[1])
            failure = first.error != 0 ? first.error : second.error
            // A file that shrank while being read keeps what is there, up to the first gap.
            count = first.got < middle ? first.got : middle + second.got
        }
        if failure != 0 {
            throw AssetError(.io("cannot read: \(String(cString: strerror(failure)))"), at: SourceLocation(file: display))
        }
        return bytes
    }

    /// pread(2) of `range` into the same offsets of `base` until it is full, the file ends or a
    /// read fails: the bytes read, and errno on failure.
    private static func readFully(_ fd: Int32, into base: UnsafeMutablePointer<UInt8>, range: Range<Int>) -> (got: Int, error: Int32) {
        var done = 0
        while done < range.count {
            let n = pread(fd, base + range.lowerBound + done, range.count - done, off_t(range.lowerBound + done))
            if n < 0 { if errno == EINTR { continue }; return (done, errno) }
            if n == 0 { break }
            done += n
        }
        return (done, 0)
    }
}

extension FileBytes {
    /// A whole asset file: its size checked against `maxFileBytes` and charged to the budget
    /// before anything is allocated; a missing file is `fileNotFound`, located at `display`. A
    /// reader passes its read's `staged` folders, so a package staged as a stand-in is read whole.
    package static func read(path: String, display: String, budget: ReadBudget, staged: StagedFiles = .none) throws(AssetError) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw AssetError.openFailed(path: display, errno: errno) }
        if let problem = RegularFile.problem(status.st_mode) { throw AssetError(.io(problem), at: SourceLocation(file: display)) }
        let size = Int(status.st_size)
        guard size <= budget.limits.maxFileBytes else {
            throw AssetError(.limitExceeded("file is \(size) bytes (at most \(budget.limits.maxFileBytes))"), at: SourceLocation(file: display))
        }
        try budget.spend(bytes: size, for: "the file's \(size) bytes", at: SourceLocation(file: display))
        return try read(path: path, expectedSize: size, staged: staged)
    }
}
