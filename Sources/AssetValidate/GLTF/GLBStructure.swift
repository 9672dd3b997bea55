/// A GLB's container walked as the Khronos validator walks it: the 12-byte header, then chunks,
/// each problem its own GLB_* finding located at the header or the chunk, and as much of the JSON
/// and BIN chunks recovered as the structure allows. Every length is checked against the bytes
/// before it is used.
struct GLBStructure {
    var json: ArraySlice<UInt8>?
    var binary: ArraySlice<UInt8>?
    /// Where the JSON chunk's bytes start in the file, to place a syntax error.
    var jsonOffset = 0

    static let jsonType: UInt32 = 0x4E4F_534A
    static let binType: UInt32 = 0x004E_4942

    static func isGLB(_ bytes: [UInt8]) -> Bool { bytes.starts(with: Array("glTF".utf8)) }

    init(_ bytes: [UInt8], findings: inout GLTFFindings) {
        let header = "GLB header"
        guard bytes.count >= 12 else {
            findings.add("GLB_UNEXPECTED_END_OF_HEADER", "the file is \(bytes.count) bytes; a GLB header takes 12", at: header)
            return
        }
        guard Self.isGLB(bytes) else {
            findings.add("GLB_INVALID_MAGIC", "the file starts with 0x\(String(Self.u32(bytes, 0), radix: 16)), not 'glTF'", at: header)
            return
        }
        let version = Self.u32(bytes, 4)
        guard version == 2 else {
            findings.add("GLB_INVALID_VERSION", "container version \(version); GLB is version 2", at: header)
            return
        }
        // The stream is read in order, as the validator reads it: the declared length bounds the
        // chunks that are looked for, the bytes bound what can be read, and the two are compared
        // only when the reading did not end early (a cut-off file is one finding, not two).
        let declared = Int(Self.u32(bytes, 8))
        if declared <= 12 {
            findings.add("GLB_LENGTH_TOO_SMALL", "the header declares \(declared) bytes, no room for a chunk", at: header)
        }
        var offset = 12
        var index = 0
        var seenJSON = false, seenBIN = false
        var endedEarly = false
        while offset < declared && offset < bytes.count {
            let here = "GLB chunk \(index) at byte \(offset)"
            guard bytes.count - offset >= 8 else {
                findings.add("GLB_UNEXPECTED_END_OF_CHUNK_HEADER", "\(bytes.count - offset) bytes left, a chunk header takes 8", at: here)
                endedEarly = true
                break
            }
            let length = Int(Self.u32(bytes, offset)), type = Self.u32(bytes, offset + 4)
            let name = Self.name(type)
            if length % 4 != 0 { findings.add("GLB_CHUNK_LENGTH_UNALIGNED", "the \(name) chunk is \(length) bytes, not a multiple of 4", at: here) }
            let start = offset + 8
            // Subtracting keeps the comparisons overflow-free whatever length the chunk claims.
            if length > declared - start {
                findings.add("GLB_CHUNK_TOO_BIG", "the \(name) chunk claims \(length) bytes; the declared length leaves \(max(declared - start, 0))", at: here)
            }
            if length > bytes.count - start {
                findings.add("GLB_UNEXPECTED_END_OF_CHUNK_DATA", "the \(name) chunk claims \(length) bytes; the file holds \(bytes.count - start) after its header", at: here)
                endedEarly = true
                break
            }
            let data = bytes[start..<(start + length)]
            switch type {
            case Self.jsonType:
                if index != 0 || seenJSON {
                    findings.add("GLB_DUPLICATE_CHUNK", "a second JSON chunk", at: here)
                    // The validator parses a second JSON chunk too, where an empty one is no document.
                    if length == 0 && json == nil { findings.add("INVALID_JSON", "the second JSON chunk holds no document", at: here) }
                } else if length == 0 {
                    findings.add("GLB_EMPTY_CHUNK", "the JSON chunk is empty", at: here)
                } else {
                    json = data
                    jsonOffset = start
                }
                seenJSON = true
            case Self.binType:
                if index == 0 {
                    findings.add("GLB_UNEXPECTED_FIRST_CHUNK", "the first chunk is BIN; it must be JSON", at: here)
                } else if seenBIN {
                    findings.add("GLB_DUPLICATE_CHUNK", "a second BIN chunk", at: here)
                } else if index != 1 {
                    findings.add("GLB_UNEXPECTED_BIN_CHUNK", "the BIN chunk is chunk \(index); it must be the second", at: here)
                    binary = data  // misplaced, and named so, but still the buffer's bytes
                } else {
                    if length == 0 { findings.add("GLB_EMPTY_BIN_CHUNK", "the BIN chunk is empty", at: here) }
                    binary = data
                }
                seenBIN = true
            default:
                if index == 0 {
                    findings.add("GLB_UNEXPECTED_FIRST_CHUNK", "the first chunk's type is 0x\(String(type, radix: 16)); it must be JSON", at: here)
                }
                findings.add("GLB_UNKNOWN_CHUNK_TYPE", "chunk type 0x\(String(type, radix: 16)) is not JSON or BIN; it is skipped", at: here)
            }
            offset = start + length
            index += 1
        }
        guard !endedEarly else { return }
        if offset == declared && bytes.count > declared {
            findings.add("GLB_EXTRA_DATA", "\(bytes.count - declared) bytes follow the declared length of \(declared)", at: header)
        } else if offset != declared {
            findings.add("GLB_LENGTH_MISMATCH", "the header declares \(declared) bytes; the chunks end at \(offset)", at: header)
        }
    }

    static func name(_ type: UInt32) -> String {
        switch type {
        case jsonType: return "JSON"
        case binType: return "BIN"
        default: return "0x" + String(type, radix: 16)
        }
    }

    @inline(__always) static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
}
