import Foundation

/// A format module's entry point for reading. Implementations live in the format modules, which
/// import AssetCore only; the registry in AssetPipeline knows them all.
public protocol SceneReader: Sendable {
    /// The formats this reader handles.
    var formats: [AssetFormat] { get }
    /// The format the content is in, judged from the first bytes of the file, or nil when it is not
    /// one of this reader's. Content wins over the extension.
    func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat?
    /// Reads a file whose format was already judged (by the registry, or by `read(from:options:)`),
    /// so no reader opens a file twice to sniff it again.
    func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult
}

extension SceneReader {
    /// Sniffs the file with this reader alone, then reads it: content first, then the extension,
    /// then this reader's first format, so a damaged file still gets this reader's own error.
    public func read(from url: URL, options: ReadOptions) throws(AssetError) -> ReadResult {
        let prefix = try SniffedFile.prefix(of: url, staged: options.staged)
        let ext = url.pathExtension.lowercased()
        let format = sniff(prefix: prefix, pathExtension: ext)
            ?? formats.first { $0.fileExtensions.contains(ext) } ?? formats[0]
        return try read(SniffedFile(url: url, format: format, prefix: prefix), options: options)
    }
}

/// A file and the format its first bytes (or, failing them, its extension) say it is in.
public struct SniffedFile: Sendable {
    public var url: URL
    public var format: AssetFormat
    /// Up to `prefixLength` leading bytes: enough for XML prologues, zip headers and BOMs.
    public var prefix: [UInt8]
    /// The prefix is the whole file (a small one), so a reader need not read it again.
    public var isWhole: Bool

    public static let prefixLength = 4096

    public init(url: URL, format: AssetFormat, prefix: [UInt8], isWhole: Bool = false) {
        self.url = url
        self.format = format
        self.prefix = prefix
        self.isWhole = isWhole
    }

    /// The first bytes of a file; "not found" only when it is absent, else an I/O error.
    public static func prefix(of url: URL, staged: StagedFiles = .none) throws(AssetError) -> [UInt8] {
        try head(of: url, staged: staged).prefix
    }

    /// The first bytes of a file, and whether they are all of it (a regular file that ended within
    /// them); "not found" only when it is absent, else an I/O error.
    public static func head(of url: URL, staged: StagedFiles = .none) throws(AssetError) -> (prefix: [UInt8], isWhole: Bool) {
        let shown = staged.name(of: url)
        // A package a staged folder reads by ranges is sniffed by one, not fetched whole for it.
        if let object = staged.rangedBytes(at: url.path) {
            return (try object.read(0..<min(prefixLength, object.byteCount)), false)
        }
        let fd = try RegularFile.openForReading(url.path, display: shown, staged: staged)
        defer { close(fd) }
        var status = stat()
        _ = fstat(fd, &status)
        // A regular file is read up to its size, so a small one takes one read, not a second that
        // finds the end.
        let wanted = status.st_mode & S_IFMT == S_IFREG && status.st_size >= 0 ? min(prefixLength, Int(status.st_size)) : prefixLength
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: prefixLength) { buffer, count in
            count = 0
            while count < wanted {
                let n = read(fd, buffer.baseAddress! + count, wanted - count)
                if n < 0 { if errno == EINTR { continue }; failure = errno; return }
                if n == 0 { return }
                count += n
            }
        }
        if failure != 0 {
            throw AssetError(.io("cannot read: \(String(cString: strerror(failure)))"), at: SourceLocation(file: shown))
        }
        return (bytes, status.st_mode & S_IFMT == S_IFREG && Int(status.st_size) == bytes.count)
    }
}

/// A scene and what the reader noticed on the way.
public struct ReadResult: Sendable {
    public var scene: Scene
    public var diagnostics: [Diagnostic]

    public init(scene: Scene, diagnostics: [Diagnostic] = []) {
        self.scene = scene
        self.diagnostics = diagnostics
    }

    public var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
}
