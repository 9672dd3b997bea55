import Foundation

/// Reads a whole file into one `[UInt8]` with read(2): one copy of the bytes, where
/// `Array(Data(contentsOf:))` would hold two at once for a moment.
package enum FileBytes {
    package static func read(path: String, expectedSize: Int) throws(AssetError) -> [UInt8] {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else {
            throw AssetError(.io("cannot open: \(String(cString: strerror(errno)))"), at: SourceLocation(file: path))
        }
        defer { close(fd) }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: expectedSize) { buffer, count in
            count = 0
            HugePages.advise(UnsafeMutableRawPointer(buffer.baseAddress), byteCount: expectedSize)
            while count < expectedSize {
                let n = Glibc.read(fd, buffer.baseAddress! + count, expectedSize - count)
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                if n == 0 { return }  // the file shrank while being read: keep what is there
                count += n
            }
        }
        if failure != 0 {
            throw AssetError(.io("cannot read: \(String(cString: strerror(failure)))"), at: SourceLocation(file: path))
        }
        return bytes
    }
}

extension FileBytes {
    /// A whole asset file: its size checked against `maxFileBytes` and charged to the budget
    /// before anything is allocated; a missing file is `fileNotFound`, located at `display`.
    package static func read(path: String, display: String, budget: ReadBudget) throws(AssetError) -> [UInt8] {
        var status = stat()
        guard stat(path, &status) == 0 else { throw AssetError.openFailed(path: display, errno: errno) }
        let size = Int(status.st_size)
        guard size <= budget.limits.maxFileBytes else {
            throw AssetError(.limitExceeded("file is \(size) bytes (at most \(budget.limits.maxFileBytes))"), at: SourceLocation(file: display))
        }
        try budget.spend(bytes: size, for: "the file's \(size) bytes", at: SourceLocation(file: display))
        return try read(path: path, expectedSize: size)
    }
}
