import AssetCore

/// The findings of one glTF file as they are made, each under its Khronos code at a JSON pointer.
/// A broken million-vertex accessor must not make a million findings: past `perCode` findings of
/// one code, the rest are counted and summed up in one more.
struct GLTFFindings {
    static let perCode = 50

    let file: String
    /// Said before each message while set: where in a compressed stream the data checked lies.
    var note: String?
    private(set) var findings: [ValidationFinding] = []
    private var counts: [String: Int] = [:]
    private var firstDropped: [String: String] = [:]

    init(file: String) {
        self.file = file
    }

    mutating func add(_ code: String, _ message: String, at pointer: String, line: Int? = nil, column: Int? = nil) {
        let issue = GLTFIssue.issue(code)
        let count = counts[code, default: 0] + 1
        counts[code] = count
        guard count <= Self.perCode else {
            if firstDropped[code] == nil { firstDropped[code] = pointer }
            return
        }
        findings.append(ValidationFinding(gltf: issue, message: note.map { "\($0): \(message)" } ?? message,
                                          location: SourceLocation(file: file, line: line, column: column, elementPath: pointer.isEmpty ? "/" : pointer)))
    }

    /// Every finding, with one closing finding per code that was cut short.
    func finished() -> [ValidationFinding] {
        var out = findings
        for (code, count) in counts.sorted(by: { $0.key < $1.key }) where count > Self.perCode {
            out.append(ValidationFinding(gltf: GLTFIssue.issue(code), message: "\(count - Self.perCode) more \(code) findings not listed (\(count) in all)",
                                         location: SourceLocation(file: file, elementPath: firstDropped[code])))
        }
        return out
    }

    func count(of code: String) -> Int { counts[code, default: 0] }
}
