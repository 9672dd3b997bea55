import AssetCore
import CLibZip
import Glibc

/// A libzip source over a `RangedBytes`, so libzip finds the central directory, and then each
/// member, by ranged reads of an object it never holds whole. libzip asks in small pieces (the
/// end record's tail, a member's 30-byte local header, then its name and extra field) before the
/// member's bytes; a small read fetches `readAhead` bytes so those pieces, and the small members
/// stored beside them, come in one request. A large read is fetched as asked and not kept.
package final class RangedZipSource {
    static let readAhead = 64 << 10

    let object: any RangedBytes
    private var position = 0
    private var window: [UInt8] = []
    private var windowStart = 0
    private var error = zip_error_t()
    /// What a read met, kept so the archive reports it rather than libzip's "read error".
    private var failure: AssetError?
    /// Requests made and bytes fetched, for tests and benchmarks to see what a read cost.
    package private(set) var requests = 0
    package private(set) var fetchedBytes = 0

    init(_ object: any RangedBytes) {
        self.object = object
        zip_error_init(&error)
    }

    deinit { zip_error_fini(&error) }

    /// The failure the last failed read met, once.
    func takeFailure() -> AssetError? {
        defer { failure = nil }
        return failure
    }

    /// A libzip source that holds this object until libzip frees the source.
    func makeSource() throws(AssetError) -> OpaquePointer {
        let retained = Unmanaged.passRetained(self).toOpaque()
        var made = zip_error_t()
        zip_error_init(&made)
        defer { zip_error_fini(&made) }
        guard let source = zip_source_function_create(Self.callback, retained, &made) else {
            Unmanaged<RangedZipSource>.fromOpaque(retained).release()
            throw AssetError(.io("cannot read the package by ranges: \(String(cString: zip_error_strerror(&made)))"), at: SourceLocation(file: object.name))
        }
        return source
    }

    private static let callback: zip_source_callback = { userdata, data, length, command in
        let source = Unmanaged<RangedZipSource>.fromOpaque(userdata!)
        if command == ZIP_SOURCE_FREE {
            source.release()
            return 0
        }
        return source.takeUnretainedValue().answer(command, data, length)
    }

    private func answer(_ command: zip_source_cmd_t, _ data: UnsafeMutableRawPointer?, _ length: zip_uint64_t) -> zip_int64_t {
        switch command {
        case ZIP_SOURCE_OPEN:
            position = 0
            return 0
        case ZIP_SOURCE_READ:
            guard let data else { return fail(ZIP_ER_INVAL) }
            let count = min(Int(clamping: length), object.byteCount - position)
            guard count > 0 else { return 0 }
            do throws(AssetError) {
                try copy(position..<(position + count), into: data)
            } catch {
                failure = failure ?? error
                return fail(ZIP_ER_READ)
            }
            position += count
            return zip_int64_t(count)
        case ZIP_SOURCE_CLOSE:
            return 0
        case ZIP_SOURCE_STAT:
            guard let data, length >= zip_uint64_t(MemoryLayout<zip_stat_t>.size) else { return fail(ZIP_ER_INVAL) }
            let stat = data.assumingMemoryBound(to: zip_stat_t.self)
            zip_stat_init(stat)
            stat.pointee.size = zip_uint64_t(object.byteCount)
            stat.pointee.valid |= zip_uint64_t(ZIP_STAT_SIZE)
            return zip_int64_t(MemoryLayout<zip_stat_t>.size)
        case ZIP_SOURCE_ERROR:
            guard let data else { return fail(ZIP_ER_INVAL) }
            return zip_error_to_data(&error, data, length)
        case ZIP_SOURCE_SEEK:
            guard let data else { return fail(ZIP_ER_INVAL) }
            let target = zip_source_seek_compute_offset(zip_uint64_t(position), zip_uint64_t(object.byteCount), data, length, &error)
            guard target >= 0 else { return -1 }
            position = Int(target)
            return 0
        case ZIP_SOURCE_TELL:
            return zip_int64_t(position)
        case ZIP_SOURCE_SUPPORTS:
            let commands = [ZIP_SOURCE_OPEN, ZIP_SOURCE_READ, ZIP_SOURCE_CLOSE, ZIP_SOURCE_STAT, ZIP_SOURCE_ERROR,
                            ZIP_SOURCE_FREE, ZIP_SOURCE_SEEK, ZIP_SOURCE_TELL, ZIP_SOURCE_SUPPORTS]
            // ZIP_SOURCE_MAKE_COMMAND_BITMASK, a C macro Swift cannot call.
            return commands.reduce(0) { $0 | (zip_int64_t(1) << zip_int64_t($1.rawValue)) }
        default:
            return fail(ZIP_ER_OPNOTSUPP)
        }
    }

    private func fail(_ code: Int32) -> zip_int64_t {
        zip_error_set(&error, code, code == ZIP_ER_READ ? EIO : 0)
        return -1
    }

    /// Bytes `range` into `data`: what the window holds is copied, the rest fetched.
    private func copy(_ range: Range<Int>, into data: UnsafeMutableRawPointer) throws(AssetError) {
        var at = range.lowerBound
        while at < range.upperBound {
            let windowEnd = windowStart + window.count
            if at >= windowStart, at < windowEnd {
                let n = min(range.upperBound, windowEnd) - at
                window.withUnsafeBytes { (data + (at - range.lowerBound)).copyMemory(from: $0.baseAddress! + (at - windowStart), byteCount: n) }
                at += n
                continue
            }
            let wanted = range.upperBound - at
            if wanted >= Self.readAhead {
                let bytes = try fetch(at..<range.upperBound)
                bytes.withUnsafeBytes { (data + (at - range.lowerBound)).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
                at = range.upperBound
            } else {
                window = try fetch(at..<min(object.byteCount, at + Self.readAhead))
                windowStart = at
            }
        }
    }

    private func fetch(_ range: Range<Int>) throws(AssetError) -> [UInt8] {
        requests += 1
        fetchedBytes += range.count
        let bytes = try object.read(range)
        // `copy` moves on by what arrived: a short answer would have it ask for the same bytes forever.
        guard bytes.count == range.count else {
            throw AssetError(.io("asked for \(range.count) bytes at \(range.lowerBound), got \(bytes.count)"), at: SourceLocation(file: object.name))
        }
        return bytes
    }
}
