import AssetCore
import CZlib
import CZstd

/// The two compressions SPZ uses: one gzip member around the whole payload (v1-v3), and a zstd
/// frame per attribute array (v4). Both decode into a buffer sized beforehand, so a stream that
/// would grow past what its header allows is refused instead of followed.
enum SPZStreams {
    /// At most `capacity` bytes of the gzip member in `bytes`; `complete` is false when it holds more.
    static func gunzip(_ bytes: [UInt8], capacity: Int, file: String) throws(AssetError) -> (bytes: [UInt8], complete: Bool) {
        var produced = 0
        var status: Int32 = 0
        let out = [UInt8](unsafeUninitializedCapacity: max(capacity, 1)) { buffer, initialized in
            status = bytes.withUnsafeBufferPointer { input in
                assetc_gunzip(buffer.baseAddress, capacity, input.baseAddress, input.count, &produced)
            }
            initialized = produced
        }
        switch status {
        case 0: return (out, true)
        case 1: return (out, false)
        case 2: throw AssetError(.malformed("the gzip stream ends early (truncated file)"), at: SourceLocation(file: file))
        default: throw AssetError(.malformed("the gzip stream is damaged (zlib status \(status))"), at: SourceLocation(file: file))
        }
    }

    /// The zstd frame in `bytes[range]`, which must decode to exactly `size` bytes.
    static func unzstd(_ bytes: [UInt8], _ range: Range<Int>, size: Int, what: String, file: String) throws(AssetError) -> [UInt8] {
        var result = 0
        let out = [UInt8](unsafeUninitializedCapacity: max(size, 1)) { buffer, initialized in
            result = bytes.withUnsafeBufferPointer { input in
                ZSTD_decompress(buffer.baseAddress, size, input.baseAddress! + range.lowerBound, range.count)
            }
            initialized = ZSTD_isError(result) != 0 ? 0 : min(result, size)
        }
        if ZSTD_isError(result) != 0 {
            throw AssetError(.malformed("the \(what) stream does not decode: \(String(cString: ZSTD_getErrorName(result)))"), at: SourceLocation(file: file))
        }
        guard result == size else {
            throw AssetError(.malformed("the \(what) stream decodes to \(result) bytes; its table of contents says \(size)"), at: SourceLocation(file: file))
        }
        return out
    }

    /// One zstd frame holding `bytes`.
    static func zstd(_ bytes: [UInt8], level: Int32) throws(AssetError) -> [UInt8] {
        let bound = ZSTD_compressBound(bytes.count)
        var result = 0
        let out = [UInt8](unsafeUninitializedCapacity: bound) { buffer, initialized in
            result = bytes.withUnsafeBufferPointer { input in ZSTD_compress(buffer.baseAddress, bound, input.baseAddress, input.count, level) }
            initialized = ZSTD_isError(result) != 0 ? 0 : result
        }
        guard ZSTD_isError(result) == 0 else {
            throw AssetError(.io("zstd could not compress a splat stream: \(String(cString: ZSTD_getErrorName(result)))"))
        }
        return out
    }
}
