import AssetTestSupport
import AssetCore
import Foundation
import Testing
@testable import AssetPipeline

/// A reader that claims PLY files starting with "TESTSCENE" (content only, whatever their
/// extension); it returns one warning.
struct MagicReader: SceneReader {
    let format = AssetFormat.ply
    var formats: [AssetFormat] { [format] }

    func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat? {
        prefix.starts(with: Array("TESTSCENE".utf8)) ? format : nil
    }

    func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        var scene = Scene()
        scene.metadata.sourceFormat = .ply
        return ReadResult(scene: scene, diagnostics: [.warning("unknown thing skipped", at: SourceLocation(line: 2))])
    }
}

@Suite struct FormatRegistryTests {
    let temporary = TemporaryFolder("assetc-registry")
    var folder: URL { temporary.url }

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func contentWinsOverExtension() throws {
        let registry = FormatRegistry(readers: [MagicReader()])
        let url = try write("disguised.dae", "TESTSCENE\n")
        #expect(try registry.reader(for: url).format == .ply)
    }

    @Test func unknownContentNamesTheSupportedFormats() throws {
        let registry = FormatRegistry(readers: [MagicReader()])
        let url = try write("model.xyz", "hello")
        #expect(throws: AssetError(.unsupportedFormat("'.xyz' content is not a format assetc reads", supported: ["ply"]),
                                   at: SourceLocation(file: url.relativePath))) {
            try registry.reader(for: url)
        }
    }

    @Test func foreignFormatsAreNamed() throws {
        let url = try write("model.xyz", "\u{89}PNG\r\n")
        do {
            _ = try FormatRegistry(readers: []).reader(for: url)
            Issue.record("a PNG image was accepted as a model")
        } catch {
            #expect(error.message.hasPrefix("this is a PNG image"))
        }
    }

    @Test func fbxIsReadByContentAndByExtensionInAnyCase() throws {
        let binary = try write("model.bin", "Kaydara FBX Binary  \u{00}")
        #expect(try FormatRegistry.standard.reader(for: binary).format == .fbx)
        let text = try write("model.txt", "; FBX 7.4.0 project file\nFBXHeaderExtension:  {\n}\n")
        #expect(try FormatRegistry.standard.reader(for: text).format == .fbx)
        let upper = try write("MODEL.FBX", "damaged")
        #expect(try FormatRegistry.standard.reader(for: upper).format == .fbx)
    }

    @Test func aFileThatExistsButCannotBeOpenedIsAnIOErrorNotNotFound() throws {
        // A symbolic link to itself exists as a name, but open(2) fails with ELOOP.
        let loop = folder.appendingPathComponent("loop.ply")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: loop.path)
        do {
            _ = try FormatRegistry(readers: [MagicReader()]).read(loop)
            Issue.record("a link to itself was read")
        } catch {
            guard case .io(let why) = error.kind else { Issue.record("expected an I/O error, got \(error)"); return }
            #expect(why.hasPrefix("cannot open: "), "\(why)")
        }
    }

    @Test func theSniffedFormatIsHandedToTheReader() throws {
        let url = try write("scene.bin", "TESTSCENE\n")  // no extension to judge by: the content decides
        let match = try FormatRegistry(readers: [MagicReader()]).reader(for: url)
        #expect(match.file.format == .ply)
        #expect(match.file.prefix == Array("TESTSCENE\n".utf8), "the reader gets the bytes the registry already read")
    }

    /// `AssetFormat.capabilities` is what the service, `convert --to` and validation consult
    /// without a registry at hand: it must say what the standard registry really does.
    @Test func formatCapabilitiesAgreeWithTheStandardRegistry() {
        let registry = FormatRegistry.standard
        let read = Set(registry.readers.flatMap(\.formats))
        let written = Dictionary(registry.writers.map { ($0.format, $0) }, uniquingKeysWith: { first, _ in first })
        for format in AssetFormat.allCases {
            #expect(format.capabilities.contains(.readable) == read.contains(format), "\(format): readable")
            #expect(format.capabilities.contains(.writable) == (written[format] != nil), "\(format): writable")
            if let writer = written[format] {
                #expect(format.capabilities.contains(.carriesAnimation) == writer.requirements.keepsAnimation, "\(format): animation")
                #expect(writer.format.fileExtensions.contains(format.fileExtension))
            }
        }
    }

    @Test func formatNamesParseAsUsersTypeThem() throws {
        #expect(try AssetFormat(named: "USDZ") == .usdz)
        #expect(try AssetFormat(named: "jpg") == .jpeg)
        #expect(AssetFormat.recognised(byExtension: "usd") == [.usda, .usdc])
        #expect(try AssetFormat(named: "FBX") == .fbx)
        #expect(throws: AssetError.self) { try AssetFormat(named: "blend") }
    }

    @Test func missingFileAndFolderAreIOErrors() throws {
        let registry = FormatRegistry(readers: [MagicReader()])
        #expect(throws: AssetError(.fileNotFound, at: SourceLocation(file: folder.appendingPathComponent("nope.ply").relativePath))) {
            try registry.reader(for: folder.appendingPathComponent("nope.ply"))
        }
        do {
            _ = try registry.reader(for: folder)
            Issue.record("a folder was accepted as a file")
        } catch {
            #expect(error.kind == .io("is a folder, not a file"))
        }
    }

    @Test func strictReadingFailsOnTheFirstWarning() throws {
        let registry = FormatRegistry(readers: [MagicReader()])
        let url = try write("s.ply", "TESTSCENE")
        let lenient = try registry.read(url)
        #expect(lenient.warnings.count == 1)
        do {
            _ = try registry.read(url, options: ReadOptions(isStrict: true))
            Issue.record("strict read succeeded despite a warning")
        } catch {
            #expect(error.kind == .strict("unknown thing skipped"))
            #expect(error.location == SourceLocation(file: url.relativePath, line: 2))
        }
    }
}
