import AssetCore

/// Indented usda text with the value spellings the writer needs.
struct USDATextBuilder {
    private(set) var text = ""
    private var indent = 0

    mutating func line(_ s: String) {
        text += String(repeating: "    ", count: indent) + s + "\n"
    }

    mutating func open(_ header: String, metadata: [String] = []) {
        if metadata.isEmpty {
            line(header)
        } else {
            line(header + " (")
            indent += 1
            for m in metadata { line(m) }
            indent -= 1
            line(")")
        }
        line("{")
        indent += 1
    }

    mutating func close() {
        indent -= 1
        line("}")
    }

    static func quoted(_ s: String) -> String {
        "\"" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }

    /// Arrays wrap every `perLine` elements so large meshes stay readable and diffable.
    static func array(_ items: [String], perLine: Int = 8) -> String {
        guard items.count > perLine else { return "[" + items.joined(separator: ", ") + "]" }
        var out = "["
        for start in stride(from: 0, to: items.count, by: perLine) {
            out += (start == 0 ? "" : ",") + "\n        " + items[start..<min(start + perLine, items.count)].joined(separator: ", ")
        }
        return out + "]"
    }

    static func ints(_ values: [Int32]) -> String { array(values.map { String($0) }, perLine: 24) }
    static func vec3(_ v: SIMD3<Float>) -> String { "(\(NumberText.float(v.x)), \(NumberText.float(v.y)), \(NumberText.float(v.z)))" }
    static func vec2(_ v: SIMD2<Float>) -> String { "(\(NumberText.float(v.x)), \(NumberText.float(v.y)))" }
    static func vec4(_ v: SIMD4<Float>) -> String { "(\(NumberText.float(v.x)), \(NumberText.float(v.y)), \(NumberText.float(v.z)), \(NumberText.float(v.w)))" }

    /// A matrix4d: Matrix4x4's column-major storage is USD's row order.
    static func matrix(_ m: Matrix4x4) -> String {
        let e = m.columnMajorElements.map(NumberText.double)
        return "( (\(e[0...3].joined(separator: ", "))), (\(e[4...7].joined(separator: ", "))), (\(e[8...11].joined(separator: ", "))), (\(e[12...15].joined(separator: ", "))) )"
    }
}
