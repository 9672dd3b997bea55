#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension AssetError {
    /// The error for a file that `open` refused: "not found" only when it is absent, otherwise an
    /// I/O error that says why (permissions, a folder, too many open files).
    public static func openFailed(path: String, errno code: Int32) -> AssetError {
        if code == ENOENT || code == ENOTDIR { return AssetError(.fileNotFound, at: SourceLocation(file: path)) }
        return AssetError(.io("cannot open: \(String(cString: strerror(code)))"), at: SourceLocation(file: path))
    }
}
