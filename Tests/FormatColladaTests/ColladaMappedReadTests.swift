import AssetCore
import Foundation
import Testing
@testable import FormatCollada

/// Files from `MappedFile.threshold` up are read from their mapping, and the long numeric text of
/// their arrays is parsed on every core without libxml2. Both paths must give the same tree, the
/// same bad numbers and the same error lines.
@Suite struct ColladaMappedReadTests {
    /// About 10 MB: arrays with line breaks and with none, an array libxml2 must read (a character
    /// reference in it), look-alike tags in a comment and in an attribute, and `tail` at the end.
    static func document(badNumber: String? = nil, tail: String = "") -> String {
        let floats = (0..<460_000).map { String(format: "%.5f", sin(Double($0)) * 100) }
        var lines: [String] = []
        for start in stride(from: 0, to: floats.count, by: 9) { lines.append(floats[start..<min(start + 9, floats.count)].joined(separator: " ")) }
        if let badNumber { lines[lines.count * 2 / 3] += " \(badNumber)" }
        let indices = (0..<900_000).map { String(($0 * 7_919) % 133_333) }.joined(separator: " ")
        let referenced = (0..<20_000).map { String($0) }.joined(separator: " ") + " &#49;2"
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
            <!-- a comment that looks like data: <float_array count="3">9 9 9</float_array> -->
            <library_geometries><geometry id="g" name="looks &lt;p&gt; like"><mesh>
            <source id="s"><float_array id="f" count="\(floats.count)">
            \(lines.joined(separator: "\n"))
            </float_array></source>
            <source id="r"><int_array id="i" count="20001">\(referenced)</int_array></source>
            <triangles count="200000"><p>\(indices)</p></triangles>
            <extra><![CDATA[<p>1 2 3</p>]]></extra>
            </mesh></geometry></library_geometries>\(tail)
            </COLLADA>
            """
    }

    static func readBothWays(_ text: String) throws -> (mapped: Result<ColladaElement, AssetError>, streamed: Result<ColladaElement, AssetError>) {
        let bytes = Array(text.utf8)
        #expect(bytes.count >= MappedFile.threshold, "the document must be big enough to be mapped")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-mapped-\(UUID().uuidString).dae")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let budget = { ReadBudget(ReadLimits()) }
        let mapped = Result { () throws(AssetError) in try ColladaSAXReader.read(path: url.path, display: "t.dae", budget: budget()) }
        let streamed = Result { () throws(AssetError) in
            try ColladaSAXReader.read(path: url.path, display: "t.dae", budget: budget(), mappedRead: nil)
        }
        return (mapped, streamed)
    }

    /// Every element's name, line, attributes, text, numbers and bad number, depth first.
    static func flattened(_ root: ColladaElement) -> [String] {
        var out: [String] = []
        var stack = [root]
        while let element = stack.popLast() {
            out.append("\(element.name)@\(element.line) \(element.attributes.map { "\($0.name)=\($0.value)" }) '\(element.text)' "
                       + "f\(element.floats.count):\(element.floats.reduce(0) { $0 &+ Int($1.bitPattern) }) "
                       + "i\(element.ints.count):\(element.ints.reduce(0) { $0 &+ Int($1) }) d\(element.doubles) "
                       + "bad \(element.badNumber.map { "\($0.token)@\($0.line)" } ?? "-")")
            stack.append(contentsOf: element.children.reversed())
        }
        return out
    }

    @Test func theMappedReadGivesTheTreeTheStreamedReadGives() throws {
        let (mapped, streamed) = try Self.readBothWays(Self.document())
        let fromMapping = try mapped.get(), fromStream = try streamed.get()
        #expect(Self.flattened(fromMapping) == Self.flattened(fromStream))
        let floats = try #require(fromMapping.descendant("float_array"))
        #expect(floats.floats.count == 460_000)
        #expect(floats.floats[12_345] == Float(String(format: "%.5f", sin(12_345.0) * 100))!)
        #expect(fromMapping.descendant("int_array")?.ints.suffix(2) == [19_999, 12], "the character reference went through libxml2")
        #expect(fromMapping.descendant("p")?.ints.count == 900_000)
    }

    @Test func aBadNumberKeepsItsLine() throws {
        let (mapped, streamed) = try Self.readBothWays(Self.document(badNumber: "1.5x"))
        let fromMapping = try mapped.get(), fromStream = try streamed.get()
        let bad = try #require(fromMapping.descendant("float_array")?.badNumber)
        #expect(bad.token == "1.5x")
        #expect(bad.line == fromStream.descendant("float_array")?.badNumber?.line)
        #expect(bad.line > 6)
    }

    @Test func anXMLErrorAfterTheArraysKeepsItsLine() throws {
        let (mapped, streamed) = try Self.readBothWays(Self.document(tail: "\n<broken attribute=oops/>"))
        guard case .failure(let fromMapping) = mapped, case .failure(let fromStream) = streamed else {
            Issue.record("a malformed document was accepted")
            return
        }
        #expect(fromMapping.description == fromStream.description)
        #expect(fromMapping.location.line ?? 0 > 40_000, "the line is past the arrays' line breaks")
    }
}
