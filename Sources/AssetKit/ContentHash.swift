import AssetCore
import CLibCrypto
import Foundation

/// SHA-256 of a file's bytes, read in 1 MiB chunks, as lowercase hex. OpenSSL's libcrypto does the
/// hashing: the system library every Debian machine has, at no build cost.
public enum ContentHash {
    /// `name` is how errors call the file (a staged one by its `s3://` location).
    public static func file(_ path: String, name: String? = nil) throws(AssetError) -> String {
        let name = name ?? path
        let fd = try RegularFile.openForReading(path, display: name)
        defer { close(fd) }
        guard let context = EVP_MD_CTX_new() else { throw AssetError(.io("cannot start a SHA-256 hash"), at: SourceLocation(file: name)) }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else {
            throw AssetError(.io("cannot start a SHA-256 hash"), at: SourceLocation(file: name))
        }
        // Small files (most of an asset folder) get a buffer their own size, not a 1 MiB one each.
        var status = stat()
        let size = fstat(fd, &status) == 0 ? Int(status.st_size) : 1 << 20
        var chunk = [UInt8](repeating: 0, count: min(max(size + 1, 4096), 1 << 20))
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw AssetError(.io("cannot read: \(String(cString: strerror(errno)))"), at: SourceLocation(file: name))
            }
            if n == 0 { break }
            _ = chunk.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, n) }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else {
            throw AssetError(.io("cannot finish a SHA-256 hash"), at: SourceLocation(file: name))
        }
        return hex(digest.prefix(Int(length)))
    }

    private static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ bytes: some Collection<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes { out.append(digits[Int(b >> 4)]); out.append(digits[Int(b & 15)]) }
        return String(decoding: out, as: UTF8.self)
    }
}
