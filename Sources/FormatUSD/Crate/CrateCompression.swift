import AssetCore
import CLZ4

/// The LZ4 framing OpenUSD wraps around compressed crate data: one byte holding the number of
/// chunks, 0 meaning the rest is a single LZ4 block; otherwise each chunk is an Int32 size and
/// a block of at most `LZ4_MAX_INPUT_SIZE` bytes of output.
enum CrateCompression {
    /// LZ4 cannot expand input by more than this factor, which bounds any size claimed for the
    /// output of `n` compressed bytes before memory is set aside for it.
    static let maxExpansion: UInt64 = 255

    static func maxDecompressedSize(ofCompressed count: Int) -> UInt64 {
        UInt64(count) * maxExpansion + 64
    }

    /// Decompresses `source` into exactly `outputSize` bytes; nil if the data is corrupt or
    /// decompresses to a different size.
    static func decompress(_ source: UnsafeRawBufferPointer, outputSize: Int) -> [UInt8]? {
        guard let output = decompress(source, maxOutputSize: outputSize), output.count == outputSize else { return nil }
        return output
    }

    /// Decompresses `source` into at most `maxOutputSize` bytes; nil if the data is corrupt.
    static func decompress(_ source: UnsafeRawBufferPointer, maxOutputSize outputSize: Int) -> [UInt8]? {
        guard let chunks = source.first else { return [] }
        var failed = false
        // Uninitialized: LZ4 writes every byte it reports, and the count is set to exactly that.
        let output = [UInt8](unsafeUninitializedCapacity: outputSize) { out, initialized in
            initialized = 0
            HugePages.advise(UnsafeMutableRawPointer(out.baseAddress), byteCount: outputSize)
            guard let outBase = UnsafeMutableRawPointer(out.baseAddress)?.assumingMemoryBound(to: CChar.self) else { return }
            guard let inBase = source.baseAddress?.assumingMemoryBound(to: CChar.self) else { failed = true; return }
            if chunks == 0 {
                guard source.count - 1 <= Int(Int32.max) else { failed = true; return }
                let n = LZ4_decompress_safe(inBase + 1, outBase, Int32(source.count - 1), Int32(clamping: outputSize))
                if n < 0 { failed = true } else { initialized = Int(n) }
                return
            }
            var offset = 1
            var written = 0
            for _ in 0..<Int(chunks) {
                guard source.count - offset >= 4 else { failed = true; return }
                let size = Int(Int32(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: Int32.self)))
                offset += 4
                guard size >= 0, size <= source.count - offset else { failed = true; return }
                let room = min(outputSize - written, Int(LZ4_MAX_INPUT_SIZE))
                let n = LZ4_decompress_safe(inBase + offset, outBase + written, Int32(size), Int32(room))
                guard n >= 0 else { failed = true; return }
                offset += size
                written += Int(n)
                initialized = written
            }
        }
        return failed ? nil : output
    }

    /// Compresses `source` in the same framing.
    static func compress(_ source: UnsafeRawBufferPointer) -> [UInt8] {
        let chunkLimit = Int(LZ4_MAX_INPUT_SIZE)
        var output: [UInt8] = []
        if source.count <= chunkLimit {
            let bound = Int(LZ4_compressBound(Int32(source.count)))
            output = [UInt8](repeating: 0, count: 1 + bound)
            let n = output.withUnsafeMutableBytes { out in
                LZ4_compress_default(source.baseAddress?.assumingMemoryBound(to: CChar.self),
                                     out.baseAddress!.assumingMemoryBound(to: CChar.self) + 1,
                                     Int32(source.count), Int32(bound))
            }
            output.removeLast(bound - Int(n))
            return output
        }
        let chunkCount = (source.count + chunkLimit - 1) / chunkLimit
        output.append(UInt8(chunkCount))
        var offset = 0
        while offset < source.count {
            let size = min(chunkLimit, source.count - offset)
            let bound = Int(LZ4_compressBound(Int32(size)))
            var chunk = [UInt8](repeating: 0, count: bound)
            let n = chunk.withUnsafeMutableBytes { out in
                LZ4_compress_default(source.baseAddress!.assumingMemoryBound(to: CChar.self) + offset,
                                     out.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(size), Int32(bound))
            }
            withUnsafeBytes(of: Int32(n).littleEndian) { output.append(contentsOf: $0) }
            output.append(contentsOf: chunk[0..<Int(n)])
            offset += size
        }
        return output
    }
}
