import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import AssetCore

@Suite struct DiagnosticsTests {
    @Test func locationPrintsLikeACompiler() {
        #expect(SourceLocation(file: "a.usda", line: 3, column: 7).description == "a.usda:3:7")
        #expect(SourceLocation(file: "a.dae", line: 3, elementPath: "node[@id=x]").description == "a.dae:3 (node[@id=x])")
        #expect(SourceLocation(elementPath: "/Root").description == "/Root")
        #expect(SourceLocation(line: 9).description == "line 9")
        #expect(SourceLocation.unknown.isUnknown)
    }

    @Test func errorCarriesItsLocationAndKind() {
        let error = AssetError(.unresolvedReference("#geom-1"), at: SourceLocation(line: 12, column: 4))
            .inFile("ship.dae")
        #expect(error.description == "ship.dae:12:4: unresolved reference #geom-1")
        #expect(error.kind == .unresolvedReference("#geom-1"))
    }

    @Test func unsupportedFormatListsWhatIsSupported() {
        let error = AssetError(.unsupportedFormat("'.fbx' content is not a format assetc reads", supported: ["usda", "dae"]))
        #expect(error.description == "'.fbx' content is not a format assetc reads; supported formats: usda, dae")
    }

    @Test func openFailuresAreNotFoundOnlyWhenTheFileIsAbsent() {
        #expect(AssetError.openFailed(path: "a.usda", errno: ENOENT).kind == .fileNotFound)
        #expect(AssetError.openFailed(path: "a/b.usda", errno: ENOTDIR).kind == .fileNotFound)
        let denied = AssetError.openFailed(path: "a.usda", errno: EACCES)
        #expect(denied.kind == .io("cannot open: Permission denied"))
        #expect(denied.description == "a.usda: cannot open: Permission denied")
    }
}
