import AssetCore
import Foundation
import Testing
@testable import AssetPipeline

/// Every fail-case fixture, read in-process through the registry as `assetc info` reads it: the ones
/// expected to fail throw one located error that says what is wrong, the others read with a warning
/// that names what was refused or dropped. The expectations live beside the fixtures in
/// `fail-case.json`, which the pytest cross-checks read too (they add the exit codes and memory caps).
@Suite struct FailCaseTests {
    struct Expectation: Decodable {
        var status: Int32
        var message: String
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static let formats = ["usd", "collada", "gltf", "mesh", "anim", "fbx"]

    static let cases: [(format: String, name: String)] = formats.flatMap { format in
        ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.appendingPathComponent("\(format)/fail-case").path)) ?? [])
            .sorted().map { (format, $0) }
    }

    static func expectations(_ format: String) throws -> [String: Expectation] {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("\(format)/fail-case.json"))
        return try JSONDecoder().decode([String: Expectation].self, from: data)
    }

    @Test(arguments: formats)
    func everyFailCaseHasAnExpectation(format: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures.appendingPathComponent("\(format)/fail-case").path)
        let expected = try Self.expectations(format).keys.sorted()
        #expect(names.sorted() == expected)
    }

    @Test(arguments: cases.map { "\($0.format)/\($0.name)" })
    func failCaseGivesItsLocatedErrorOrWarning(_ path: String) throws {
        let (format, name) = (String(path.split(separator: "/")[0]), String(path.split(separator: "/")[1]))
        let expected = try #require(try Self.expectations(format)[name], "no expectation for \(path)")
        let url = Self.fixtures.appendingPathComponent("\(format)/fail-case/\(name)")
        do throws(AssetError) {
            let result = try FormatRegistry.standard.read(url)
            #expect(expected.status == 0, "\(path) was read, but should fail with '\(expected.message)'")
            #expect(result.warnings.contains { $0.description.contains(expected.message) },
                    "\(path): no warning contains '\(expected.message)' in \(result.warnings.map(\.description))")
        } catch {
            #expect(expected.status != 0, "\(path) failed: \(error)")
            #expect(error.description.contains(expected.message), "\(path): '\(error)' does not contain '\(expected.message)'")
        }
    }
}
