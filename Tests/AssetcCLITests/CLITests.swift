import Foundation
import Testing

/// Runs the built `assetc` binary the way a user or a CI script does.
struct CLIRun {
    var status: Int32
    var stdout: String
    var stderr: String
}

enum AssetcBinary {
    /// `swift test` puts the test bundle beside the products it built.
    static var url: URL {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("assetc").path), dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("assetc")
    }

    static func run(_ arguments: [String]) throws -> CLIRun {
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return CLIRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

@Suite struct CLITests {
    @Test func versionAndHelp() throws {
        let version = try AssetcBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".").count == 3)
        let help = try AssetcBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("info"))
        // The front door names every format, what is done with them and every exit status Docs/CLI.md lists.
        let words = help.stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for format in ["USD (.usdz, .usda, .usdc)", "Collada", "glTF", "OBJ", "STL", "PLY", "FBX"] {
            #expect(words.contains("Reads") && words.contains(format), "\(format) in: \(words)")
        }
        for command in ["convert", "validate", "thumbnail", "index", "serve", "storage"] { #expect(words.contains(command)) }
        for status in ["0 success", "1 an asset", "2 unsupported", "3 missing", "64 bad command line", "65 an --environment", "75 a database"] {
            #expect(words.contains(status), "exit status '\(status)' in: \(words)")
        }
    }

    @Test func missingFileExitsThreeNamingIt() throws {
        let run = try AssetcBinary.run(["info", "no/such/model.usda"])
        #expect(run.status == 3)
        #expect(run.stderr == "assetc: error: no/such/model.usda: no such file\n")
        #expect(run.stdout.isEmpty)
    }

    @Test func unknownFormatExitsTwoNamingSupportedFormats() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("assetc-cli-\(UUID().uuidString).xyz")
        try Data("not a model".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try AssetcBinary.run(["info", "--json", file.path])
        #expect(run.status == 2)
        #expect(run.stderr.contains("'.xyz' content is not a format assetc reads; supported formats:"))
        #expect(run.stderr.split(separator: "\n").count == 1, "one error line")
    }

    /// Every thumbnail an index renders is one the service serves: other sizes are refused with the list.
    @Test func indexTakesOnlyTheThumbnailSizesTheServiceServes() throws {
        let run = try AssetcBinary.run(["index", "no/such/folder", "--thumbnails", "--thumbnail-size", "200"])
        #expect(run.status == 64)
        #expect(run.stderr.contains("--thumbnail-size takes one of the sizes the service serves: 32, 64, 128, 256, 512, 1024"), "\(run.stderr)")
    }

    @Test func usageErrorExits64() throws {
        let run = try AssetcBinary.run(["info", "--no-such-flag", "x"])
        #expect(run.status == 64)
    }
}
