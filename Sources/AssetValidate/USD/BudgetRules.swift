import AssetCore
import FormatUSD
import Foundation

/// Warnings when an asset is bigger than AR Quick Look's guidance (`ValidationBudget`): triangles
/// drawn, texture size, the file's size, the stage's time range. `--strict` makes them fail a CI.
enum BudgetRules {
    static func check(_ context: USDRuleContext, into findings: inout USDFindings) {
        let budget = context.budget
        let here = SourceLocation(file: context.facts.rootFile)
        if let limit = budget.triangles {
            let triangles = triangleCount(context)
            if triangles > limit {
                findings.append(ValidationFinding(rule: .budget, severity: .warning,
                                                  message: "the stage draws \(triangles) triangles; the budget is \(limit) (--budget triangles=N)", location: here))
            }
        }
        if let limit = budget.fileBytes, let size = fileSize(context.facts.rootFile), size > limit {
            findings.append(ValidationFinding(rule: .budget, severity: .warning,
                                              message: "the file is \(ByteCount.text(size)); the budget is \(ByteCount.text(limit)) (--budget size=N)", location: here))
        }
        if let limit = budget.durationSeconds, let seconds = duration(context.facts.stage.rootLayer), seconds > limit {
            findings.append(ValidationFinding(rule: .budget, severity: .warning,
                                              message: "the animation lasts \(NumberText.display(seconds)) s; the budget is \(NumberText.display(limit)) s (--budget duration=N)",
                                              location: here))
        }
        if let limit = budget.textureSize { checkTextures(context, limit: limit, into: &findings) }
    }

    /// Triangles of every traversed Mesh (instances counted each time), as a fan triangulation makes them.
    private static func triangleCount(_ context: USDRuleContext) -> Int {
        var total = 0
        for entry in context.prims where entry.prim.typeName == "Mesh" {
            guard let property = entry.prim.properties["faceVertexCounts"], let value = USDRuleContext.value(property),
                  let counts = value.int32s else { continue }
            for count in counts where count >= 3 { total += Int(count) - 2 }
        }
        return total
    }

    private static func fileSize(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return Int(status.st_size)
    }

    /// The root layer's time range in seconds, when it has one.
    private static func duration(_ layer: USDLayer) -> Double? {
        guard let start = layer.startTimeCode, let end = layer.endTimeCode, end > start else { return nil }
        let rate = layer.timeCodesPerSecond ?? 24
        return rate > 0 ? (end - start) / rate : nil
    }

    /// Each texture the stage reads, once, measured from its header (its first bytes only).
    private static func checkTextures(_ context: USDRuleContext, limit: Int, into findings: inout USDFindings) {
        var seen: Set<AssetLocation> = []
        for dependency in context.facts.dependencies where !dependency.isLayer {
            guard let location = dependency.resolved, seen.insert(location).inserted,
                  let bytes = try? context.facts.readPrefix(location, ImageHeader.prefixBytes),  // unreadable: MissingReferenceChecker reports it
                  let (width, height) = ImageHeader.dimensions(bytes), max(width, height) > limit else { continue }
            findings.append(ValidationFinding(rule: .budget, severity: .warning,
                                              message: "texture @\(dependency.assetPath)@ is \(width) x \(height); the budget is \(limit) pixels a side (--budget texture=N)",
                                              location: dependency.location))
        }
    }
}

/// Image dimensions from a PNG's or JPEG's header. Read by hand because the codecs assetc links
/// (libpng, libturbojpeg) live below the renderer and decode whole images; a budget check needs
/// only two numbers at a fixed place (PNG's IHDR) or in the first frame marker (JPEG's SOFn).
enum ImageHeader {
    /// Enough of a file to reach the frame header past a JPEG's metadata segments (each at most 64 KiB).
    static let prefixBytes = 256 << 10

    static func dimensions(_ bytes: [UInt8]) -> (Int, Int)? {
        if bytes.count >= 24, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), Array(bytes[12..<16]) == Array("IHDR".utf8) {
            return (bigEndian(bytes, 16, 4), bigEndian(bytes, 20, 4))
        }
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        while at + 9 <= bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }
            // SOF0-SOF15 carry the frame size, except DHT (C4), JPG (C8) and DAC (CC).
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (bigEndian(bytes, at + 7, 2), bigEndian(bytes, at + 5, 2))
            }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            at += 2 + bigEndian(bytes, at + 2, 2)
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        bytes[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
    }
}
