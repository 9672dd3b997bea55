import AssetCore
import Foundation

/// Reads Niantic's SPZ: versions 1 to 3 (one gzip stream: a 16-byte header, then positions,
/// alphas, colours, scales, rotations and SH, array after array) and version 4 (a plain 32-byte
/// header, optional extensions, a table of contents, and one zstd frame per array). The data is
/// in SPZ's `rub` axes, the scene's own, unless `--splat-axes` says otherwise. SPZ carries no unit:
/// metres are assumed and the unit reported unknown. Vendor extensions (camera limits, other
/// quantisations) are not read, and say so.
public struct SPZReader: SceneReader {
    public init() {}

    public var formats: [AssetFormat] { [.spz] }

    public func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat? {
        if prefix.starts(with: [0x4E, 0x47, 0x53, 0x50]) { return .spz }
        // v1-v3 are a gzip stream; gzip alone is not enough to say SPZ.
        if prefix.starts(with: [0x1F, 0x8B]), pathExtension.lowercased() == "spz" { return .spz }
        return nil
    }

    public func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        let display = options.name(of: file.url)
        let budget = ReadBudget(options.limits)
        let bytes = try FileBytes.read(path: file.url.path, display: display, budget: budget, staged: options.staged)
        var diagnostics: [Diagnostic] = []
        let (header, arrays) = bytes.starts(with: [0x4E, 0x47, 0x53, 0x50])
            ? try Self.streamed(bytes, file: display, budget: budget)
            : try Self.legacy(bytes, file: display, budget: budget)
        if header.hasExtensions {
            diagnostics.append(.warning("the file has SPZ extensions (vendor data such as camera limits); they are not read", at: SourceLocation(file: display)))
        }
        if header.shDegree == 4 {
            diagnostics.append(.warning("spherical harmonics of degree 4: the degree-4 band is left out (assetc keeps degrees 0 to 3, as 3DGS, USD and glTF do)",
                                        at: SourceLocation(file: display)))
        }
        let name = file.url.deletingPathExtension().lastPathComponent
        let splats = try SPZDecoder(header: header, arrays: arrays).splats(name: name, budget: budget, file: display)
        let scene = Scene.splatCapture(consume splats, from: options.splatAxes ?? .rightUpBack, node: name, typeName: "spz", format: .spz)
        return ReadResult(scene: scene, diagnostics: diagnostics)
    }

    /// The six attribute arrays of a v1-v3 file, inflated no further than its header allows.
    static func legacy(_ bytes: [UInt8], file: String, budget: ReadBudget) throws(AssetError) -> (SPZHeader, [ArraySlice<UInt8>]) {
        guard bytes.starts(with: [0x1F, 0x8B]) else {
            throw AssetError(.malformed("neither an NGSP header (SPZ v4) nor a gzip stream (SPZ v1-v3)"), at: SourceLocation(file: file))
        }
        let start = try SPZStreams.gunzip(bytes, capacity: SPZHeader.legacySize, file: file)
        let header = try SPZHeader(legacy: start.bytes[...], file: file)
        try checkCount(header, fileSize: bytes.count, file: file, budget: budget)
        let payload = header.attributeSizes.reduce(0, +)
        // Extensions, when flagged, follow the arrays; their records are small.
        let slack = header.hasExtensions ? 1 << 20 : 0
        try budget.spend(bytes: SPZHeader.legacySize + payload + slack, for: "the inflated SPZ stream", at: SourceLocation(file: file))
        let whole = try SPZStreams.gunzip(bytes, capacity: SPZHeader.legacySize + payload + slack, file: file)
        guard whole.bytes.count >= SPZHeader.legacySize + payload else {
            throw AssetError(.malformed("the stream holds \(whole.bytes.count - SPZHeader.legacySize) bytes of splat data; \(header.count) splats need \(payload)"),
                             at: SourceLocation(file: file))
        }
        var arrays: [ArraySlice<UInt8>] = []
        var at = SPZHeader.legacySize
        for size in header.attributeSizes {
            arrays.append(whole.bytes[at..<(at + size)])
            at += size
        }
        return (header, arrays)
    }

    /// The six attribute arrays of a v4 file, each from its own zstd frame (an empty array has none).
    static func streamed(_ bytes: [UInt8], file: String, budget: ReadBudget) throws(AssetError) -> (SPZHeader, [ArraySlice<UInt8>]) {
        let header = try SPZHeader(streamed: bytes, file: file)
        try checkCount(header, fileSize: bytes.count, file: file, budget: budget)
        let sizes = header.attributeSizes
        let present = sizes.filter { $0 > 0 }
        guard header.streamCount == present.count else {
            throw AssetError(.malformed("\(header.streamCount) streams for \(present.count) non-empty attribute arrays"), at: SourceLocation(file: file, elementPath: "byte 15"))
        }
        let tableEnd = header.tableOffset + 16 * header.streamCount
        guard header.tableOffset >= SPZHeader.streamedSize, tableEnd <= bytes.count else {
            throw AssetError(.malformed("the table of contents at byte \(header.tableOffset) lies outside the file"), at: SourceLocation(file: file, elementPath: "byte 16"))
        }
        try budget.spend(bytes: sizes.reduce(0, +), for: "\(header.count) packed splats", at: SourceLocation(file: file))
        let names = ["positions", "alphas", "colours", "scales", "rotations", "spherical harmonics"]
        var arrays: [ArraySlice<UInt8>] = []
        var at = tableEnd, entry = 0
        for (k, size) in sizes.enumerated() {
            guard size > 0 else { arrays.append([]); continue }
            let e = header.tableOffset + 16 * entry
            let compressed = Self.u64(bytes, e), uncompressed = Self.u64(bytes, e + 8)
            guard uncompressed == UInt64(size) else {
                throw AssetError(.malformed("the \(names[k]) stream holds \(uncompressed) bytes; \(header.count) splats need \(size)"), at: SourceLocation(file: file, elementPath: "byte \(e + 8)"))
            }
            guard compressed > 0, compressed <= UInt64(bytes.count - at) else {
                throw AssetError(.malformed("the \(names[k]) stream of \(compressed) bytes runs past the end of the file"), at: SourceLocation(file: file, elementPath: "byte \(e)"))
            }
            let range = at..<(at + Int(compressed))
            arrays.append(try SPZStreams.unzstd(bytes, range, size: size, what: names[k], file: file)[...])
            at = range.upperBound
            entry += 1
        }
        guard at == bytes.count else {
            throw AssetError(.malformed("\(bytes.count - at) bytes after the last stream"), at: SourceLocation(file: file, elementPath: "byte \(at)"))
        }
        return (header, arrays)
    }

    /// Refuses a count no file of this size could hold, then charges the work for it.
    static func checkCount(_ header: SPZHeader, fileSize: Int, file: String, budget: ReadBudget) throws(AssetError) {
        let most = fileSize * SPZHeader.maxCompressionRatio / SPZHeader.minBytesPerSplat
        guard header.count <= most, header.count <= Int(Int32.max) else {
            throw AssetError(.malformed("the header claims \(header.count) splats; a file of \(fileSize) bytes holds at most \(most)"), at: SourceLocation(file: file, elementPath: "byte 8"))
        }
        try budget.spend(work: header.count * (header.restCoefficients + 5), for: "\(header.count) splats", at: SourceLocation(file: file))
    }

    static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) }
    }
}
