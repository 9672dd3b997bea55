/// A failure to read or write an asset, with where it happened. Every module throws this type so the
/// CLI can map it to an exit status and the service to an HTTP status without knowing the formats.
public struct AssetError: Error, Sendable, Equatable, CustomStringConvertible {
    public var kind: Kind
    public var location: SourceLocation

    public init(_ kind: Kind, at location: SourceLocation = .unknown) {
        self.kind = kind
        self.location = location
    }

    public enum Kind: Sendable, Equatable {
        /// The file does not exist.
        case fileNotFound
        /// The operating system refused to read or write it.
        case io(String)
        /// No reader recognises the content or extension; `supported` lists what would be.
        case unsupportedFormat(String, supported: [String])
        /// The bytes break the format's grammar or rules.
        case malformed(String)
        /// An id or path that names nothing (`#geom-1`, `</World/Missing>`).
        case unresolvedReference(String)
        /// A size, count or depth beyond the reader's caps.
        case limitExceeded(String)
        /// A path outside the asset's folder or package, or an unsafe archive entry.
        case refusedPath(String)
        /// Valid input that uses a feature assetc does not handle yet.
        case unsupportedFeature(String)
        /// A warning promoted to an error because the caller asked for strict reading.
        case strict(String)
        /// A service the command depends on (the catalog's database server) does not answer now;
        /// the same command may succeed later, unlike every other kind.
        case unavailable(String)
    }

    public var message: String {
        switch kind {
        case .fileNotFound: return "no such file"
        case .io(let why): return why
        case .unsupportedFormat(let what, let supported):
            let list = supported.isEmpty ? "none yet" : supported.joined(separator: ", ")
            return "\(what); supported formats: \(list)"
        case .malformed(let why): return why
        case .unresolvedReference(let ref): return "unresolved reference \(ref)"
        case .limitExceeded(let why): return "limit exceeded: \(why)"
        case .refusedPath(let why): return "refused path: \(why)"
        case .unsupportedFeature(let why): return "not supported: \(why)"
        case .strict(let why): return "warning treated as error (--strict): \(why)"
        case .unavailable(let why): return why
        }
    }

    public var description: String {
        location.isUnknown ? message : "\(location): \(message)"
    }

    /// This error with the file filled in where the thrower did not know it.
    public func inFile(_ path: String) -> AssetError {
        AssetError(kind, at: location.inFile(path))
    }
}
