import AssetCore
import CLibZip
import Foundation

/// A usdz package read through libzip. USDZ is a zip whose entries are stored uncompressed; the
/// first entry is the root layer. Entries are checked when the package opens: names with `..` or
/// absolute paths, compressed or encrypted entries, and sizes or counts past the caps are refused
/// before any entry is read.
package final class USDZArchive {
    package struct Entry {
        package var name: String
        var index: UInt64
        package var size: Int
    }

    let location: AssetLocation
    /// How errors name the package (its location; a staged one by its `s3://` location).
    let name: String
    package let entries: [Entry]
    private let archive: OpaquePointer
    /// For packages inside packages: libzip reads from this copy of the inner package's bytes.
    private let buffer: UnsafeMutableRawBufferPointer?
    private let limits: ReadLimits
    /// For a package read by ranges: what its reads met, and what they cost.
    package private(set) var rangedSource: RangedZipSource?

    /// Opens a package on disk, or one in a bucket that a staged folder reads by ranges.
    convenience init(path: String, location: AssetLocation, limits: ReadLimits, allowsCompression: Bool = false,
                     staged: StagedFiles = .none) throws(AssetError) {
        let name = location.named(by: staged)
        if let object = staged.rangedBytes(at: path) {
            try self.init(ranged: object, location: location, name: name, limits: limits, allowsCompression: allowsCompression)
            return
        }
        var code: Int32 = 0
        // libzip opens the path itself, and would wait on a FIFO.
        try RegularFile.check(path, display: name, staged: staged)
        guard let archive = zip_open(path, ZIP_RDONLY | ZIP_CHECKCONS, &code) else {
            throw AssetError(.malformed("not a readable usdz package (damaged, truncated or not a zip): \(Self.describe(code: code))"),
                             at: SourceLocation(file: name))
        }
        var info = stat()
        let packageSize = stat(path, &info) == 0 ? Int(info.st_size) : Int.max
        try self.init(archive: archive, buffer: nil, packageSize: packageSize, location: location, name: name, limits: limits,
                      allowsCompression: allowsCompression)
    }

    /// Opens a package from its central directory by ranged reads, members read as they are
    /// asked for. Without ZIP_CHECKCONS: it would read every member's local header up front, a
    /// request each; a member's header is still read, and its CRC checked, when it is read.
    package convenience init(ranged object: any RangedBytes, location: AssetLocation, name: String? = nil, limits: ReadLimits,
                             allowsCompression: Bool = false) throws(AssetError) {
        let name = name ?? location.description
        let reader = RangedZipSource(object)
        let source = try reader.makeSource()
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY, &error) else {
            zip_source_free(source)
            if let failure = reader.takeFailure() { throw failure }
            let message = String(cString: zip_error_strerror(&error))
            throw AssetError(.malformed("not a readable usdz package (damaged, truncated or not a zip): \(message)"), at: SourceLocation(file: name))
        }
        try self.init(archive: archive, buffer: nil, packageSize: object.byteCount, location: location, name: name, limits: limits,
                      allowsCompression: allowsCompression)
        if let failure = reader.takeFailure() { throw failure }
        rangedSource = reader
    }

    /// Opens a package held in memory (a package entry of another package).
    package convenience init(bytes: [UInt8], location: AssetLocation, name: String? = nil, limits: ReadLimits,
                             allowsCompression: Bool = false) throws(AssetError) {
        let name = name ?? location.description
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 64)
        buffer.copyBytes(from: bytes)
        var error = zip_error_t()
        zip_error_init(&error)
        defer { zip_error_fini(&error) }
        guard let source = zip_source_buffer_create(buffer.baseAddress, UInt64(bytes.count), 0, &error) else {
            buffer.deallocate()
            throw AssetError(.malformed("cannot read nested package"), at: SourceLocation(file: name))
        }
        guard let archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error) else {
            zip_source_free(source)
            buffer.deallocate()
            let message = String(cString: zip_error_strerror(&error))
            throw AssetError(.malformed("not a readable usdz package (damaged, truncated or not a zip): \(message)"), at: SourceLocation(file: name))
        }
        // On failure init(archive:) discards the archive and the buffer itself.
        try self.init(archive: archive, buffer: buffer, packageSize: bytes.count, location: location, name: name, limits: limits,
                      allowsCompression: allowsCompression)
    }

    /// `allowsCompression`: open packages whose entries are compressed (read through libzip's
    /// inflater) instead of refusing them; validation does, so it can report them as a rule breach.
    private init(archive: OpaquePointer, buffer: UnsafeMutableRawBufferPointer?, packageSize: Int,
                 location: AssetLocation, name: String, limits: ReadLimits, allowsCompression: Bool) throws(AssetError) {
        let here = SourceLocation(file: name), packageName = name
        func fail(_ error: AssetError) -> AssetError {
            zip_discard(archive)
            buffer?.deallocate()
            return error
        }
        let count = zip_get_num_entries(archive, 0)
        guard count >= 0 else { throw fail(AssetError(.malformed("cannot list the package's entries"), at: here)) }
        guard count <= limits.maxPackageEntries else {
            throw fail(AssetError(.limitExceeded("\(count) package entries (at most \(limits.maxPackageEntries))"), at: here))
        }
        guard count > 0 else { throw fail(AssetError(.malformed("the package is empty; a usdz holds at least its root layer"), at: here)) }
        var entries: [Entry] = []
        entries.reserveCapacity(Int(count))
        for index in 0..<UInt64(count) {
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(archive, index, 0, &stat) == 0, let rawName = stat.name else {
                throw fail(AssetError(.malformed("cannot read the header of entry \(index)"), at: here))
            }
            let name = String(cString: rawName)
            var entryHere: SourceLocation { SourceLocation(file: "\(packageName)[\(name)]") }  // made only for an error
            guard Self.isSafeEntryName(name) else {
                throw fail(AssetError(.refusedPath("package entry '\(name)' names a path outside the package"), at: here))
            }
            if stat.encryption_method != UInt16(ZIP_EM_NONE) {
                throw fail(AssetError(.unsupportedFeature("entry is encrypted"), at: entryHere))
            }
            let isStored = stat.comp_method == Int32(ZIP_CM_STORE)
            if !isStored && !allowsCompression {
                throw fail(AssetError(.malformed("entry is compressed; usdz packages store every entry uncompressed"), at: entryHere))
            }
            // Stored entries take as many bytes in the package as they claim: a claim larger than
            // the package is a lie, refused before anything is allocated for it.
            guard (isStored ? stat.size : stat.comp_size) <= UInt64(packageSize) else {
                throw fail(AssetError(.malformed("entry claims \(stat.size) bytes but the package has only \(packageSize)"), at: entryHere))
            }
            guard stat.size <= UInt64(limits.maxFileBytes) else {
                throw fail(AssetError(.limitExceeded("entry claims \(stat.size) bytes (at most \(limits.maxFileBytes))"), at: entryHere))
            }
            if name.hasSuffix("/") { continue }  // folder entries carry nothing
            entries.append(Entry(name: name, index: index, size: Int(stat.size)))
        }
        guard !entries.isEmpty else { throw fail(AssetError(.malformed("the package holds no files"), at: here)) }
        self.archive = archive
        self.buffer = buffer
        self.location = location
        self.name = name
        self.entries = entries
        self.limits = limits
    }

    deinit {
        zip_discard(archive)
        buffer?.deallocate()
    }

    var rootEntry: Entry { entries[0] }

    func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// The bytes of one entry, their CRC-32 checked against the package's record of it.
    /// The entry's bytes, or its first `limit` bytes (a header peek, which ends before libzip can
    /// compare the CRC: only a whole read is checked).
    package func read(_ entry: Entry, upTo limit: Int = .max) throws(AssetError) -> [UInt8] {
        let count = min(entry.size, max(limit, 0))
        let here = SourceLocation(file: "\(name)[\(entry.name)]")
        guard let file = zip_fopen_index(archive, entry.index, 0) else {
            if let failure = rangedSource?.takeFailure() { throw failure }
            throw AssetError(.malformed("cannot open entry: \(String(cString: zip_strerror(archive)))"), at: here)
        }
        defer { zip_fclose(file) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let n = bytes.withUnsafeMutableBytes { raw in
                zip_fread(file, raw.baseAddress! + filled, UInt64(count - filled))
            }
            if n < 0 {
                if let failure = rangedSource?.takeFailure() { throw failure }
                throw AssetError(.malformed("entry is damaged: \(String(cString: zip_file_strerror(file)))"), at: here)
            }
            if n == 0 { break }
            filled += Int(n)
        }
        guard filled == count else {
            throw AssetError(.malformed("entry is truncated: \(filled) of \(entry.size) bytes"), at: here)
        }
        guard count == entry.size else { return bytes }
        // libzip compares the CRC when a read reaches the end of the entry, and the loop above stops
        // one read short of that: this read must find the end, and with it a CRC that matches.
        var probe: UInt8 = 0
        let tail = zip_fread(file, &probe, 1)
        if tail < 0 {
            throw AssetError(.malformed("entry is damaged (its bytes do not match its CRC-32): \(String(cString: zip_file_strerror(file)))"), at: here)
        }
        if tail > 0 {
            throw AssetError(.malformed("entry holds more than the \(entry.size) bytes its header claims"), at: here)
        }
        return bytes
    }

    /// Relative, no `..`, no backslashes or drive letters that another system would read as a root.
    /// Byte-wise: with Foundation imported, `String.contains` of a string is a Foundation search,
    /// which was a percent of validating a folder of small packages.
    static func isSafeEntryName(_ name: String) -> Bool {
        let bytes = name.utf8
        guard let first = bytes.first, first != UInt8(ascii: "/"), !bytes.contains(UInt8(ascii: "\\")) else { return false }
        if bytes.dropFirst().first == UInt8(ascii: ":") { return false }  // a drive letter: `C:`
        return !bytes.split(separator: UInt8(ascii: "/")).contains { $0.elementsEqual("..".utf8) }
    }

    static func describe(code: Int32) -> String {
        var error = zip_error_t()
        zip_error_init_with_code(&error, code)
        defer { zip_error_fini(&error) }
        return String(cString: zip_error_strerror(&error))
    }
}
