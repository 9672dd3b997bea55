import AssetCore
import Foundation
import Testing
@testable import AssetValidate

/// glTF validation under the Khronos codes: one hand-written fixture per code (made by
/// Tests/Fixtures/gltf/validation/make_validation_fixtures.py), each the valid base with one thing
/// broken, must be reported under that code at that JSON pointer with the Khronos severity; the
/// base itself must pass.
@Suite struct GLTFValidationTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../Fixtures/gltf/validation").standardized

    struct Expectation: Decodable { var code: String; var pointer: String }

    static let expected: [String: Expectation] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("expected.json")),
              let decoded = try? JSONDecoder().decode([String: Expectation].self, from: data) else { return [:] }
        return decoded
    }()

    static func validate(_ name: String) throws -> [ValidationFinding] {
        try GLTFValidator(options: ReadOptions(assetRoot: .folder(folder.path))).validate(path: folder.appendingPathComponent(name).path)
    }

    @Test func theFixturesAreThere() {
        #expect(Self.expected.count >= 90, "expected.json lists \(Self.expected.count) fixtures")
    }

    @Test(arguments: ["base.gltf", "base.glb"])
    func theValidBasePasses(_ name: String) throws {
        let findings = try Self.validate(name)
        #expect(findings.isEmpty, "\(findings.map { "\($0.rule) \($0.location.elementPath ?? "")" })")
    }

    @Test(arguments: expected.keys.sorted())
    func eachFixtureIsReportedUnderItsCodeAtItsPointer(_ name: String) throws {
        let expectation = try #require(Self.expected[name])
        let findings = try Self.validate(name)
        let matching = findings.filter { $0.rule == expectation.code }
        #expect(!matching.isEmpty, "\(name): no \(expectation.code) among \(findings.map { "\($0.rule) \($0.location.elementPath ?? "")" })")
        if expectation.pointer == "GLB" {
            #expect(matching.allSatisfy { $0.location.elementPath?.hasPrefix("GLB") == true || $0.location.elementPath?.hasPrefix("/buffers") == true })
        } else {
            #expect(matching.contains { $0.location.elementPath == expectation.pointer },
                    "\(name): \(expectation.code) at \(matching.map { $0.location.elementPath ?? "" }), not \(expectation.pointer)")
        }
        let issue = try #require(GLTFIssue.named(expectation.code))
        #expect(matching.allSatisfy { $0.severity == issue.severity }, "\(name): graded as the Khronos validator grades it")
        #expect(issue.checked)
    }

    @Test func everyCodeIsCataloguedOnceWithTheKhronosSeverity() {
        #expect(Set(GLTFIssue.all.map(\.code)).count == GLTFIssue.all.count)
        // A few gradings worth pinning: they decide exit statuses.
        #expect(GLTFIssue.named("UNUSED_OBJECT")?.severity == .info)
        #expect(GLTFIssue.named("BUFFER_VIEW_TARGET_MISSING")?.severity == .hint)
        #expect(GLTFIssue.named("UNEXPECTED_PROPERTY")?.severity == .warning)
        #expect(GLTFIssue.named("ACCESSOR_MIN_MISMATCH")?.severity == .error)
    }

    @Test func theCheckedExtensionsAreTheOnesWithSchemas() {
        #expect(Set(GLTFExtensionSchemas.places.keys) == GLTFExtensionSchemas.names)
    }

    /// Many findings of one code are cut to a readable number, with one more saying how many.
    @Test func aFloodOfOneCodeIsCutShortAndCounted() throws {
        var findings = GLTFFindings(file: "x.gltf")
        for k in 0..<(GLTFFindings.perCode + 30) { findings.add("ACCESSOR_INVALID_FLOAT", "element \(k)", at: "/accessors/0") }
        let finished = findings.finished()
        #expect(finished.count == GLTFFindings.perCode + 1)
        #expect(finished.last?.message.contains("30 more") == true)
    }

    /// Not JSON: one finding, with the line and column.
    @Test func brokenJSONIsOneLocatedFinding() throws {
        let findings = try GLTFValidator().validate(path: "broken.gltf", contents: Array("{\n  \"asset\": {\"version\": \"2.0\",}\n}".utf8))
        #expect(findings.map(\.rule) == ["INVALID_JSON"])
        #expect(findings.first?.location.line == 2)
    }

    /// `0.0` and `1e0` are integers to the Khronos validator (its suite's integer_written_as_float.gltf);
    /// `0.5` is not.
    @Test func anIndexWrittenAsAWholeFloatIsAnIndexAndAFractionIsNot() throws {
        let whole = #"{"asset":{"version":"2.0"},"scenes":[{"nodes":[0e0]}],"nodes":[{}],"scene":0.0}"#
        #expect(try GLTFValidator().validate(path: "whole.gltf", contents: Array(whole.utf8)).allSatisfy { $0.rule != "TYPE_MISMATCH" && $0.rule != "ARRAY_TYPE_MISMATCH" })
        let text = #"{"asset":{"version":"2.0"},"scenes":[{"nodes":[0]}],"nodes":[{}],"scene":0.5}"#
        let findings = try GLTFValidator().validate(path: "fraction.gltf", contents: Array(text.utf8))
        #expect(findings.contains { $0.rule == "TYPE_MISMATCH" && $0.location.elementPath == "/scene" })
    }
}
