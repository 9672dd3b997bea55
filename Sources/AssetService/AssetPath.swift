import AssetCatalog
import AssetKit
import Foundation
import Hummingbird

/// Asset ids in URLs (`/api/assets/Art/Art.scnassets/ship.dae/thumbnail.png`) and the files behind them.
/// Ids are path segments, each percent-decoded (an encoded slash separates segments as a plain one
/// does); `..` and `.` are refused before any lookup, and a file is only served when its real path
/// (symlinks followed) is inside its root.
enum AssetPath {
    static let actions: Set<String> = ["thumbnail.png", "preview.webp", "file", "convert", "ar.usdz", "swatches.png", "view.glb"]

    /// (id, action) from the segments after `/api/assets/` or `/assets/`. A segment may carry
    /// encoded slashes (`Art.scnassets%2Fship.dae`, what `encodeURIComponent` makes of an id): it is
    /// decoded first and split again, so `..` and `.` are refused however they were written.
    static func parse(_ segments: [Substring]) throws -> (id: String, action: String?) {
        var parts: [String] = []
        for segment in segments {
            // Most ids have nothing encoded; only those that do pay for decoding.
            guard segment.utf8.contains(UInt8(ascii: "%")) else {
                try appendPart(String(segment), to: &parts)
                continue
            }
            guard let decoded = segment.removingPercentEncoding else { throw HTTPError(.badRequest, message: "malformed percent-encoding") }
            if decoded.contains("\\") { throw HTTPError(.badRequest, message: "backslashes are not allowed in asset ids") }
            for part in decoded.split(separator: "/", omittingEmptySubsequences: false) {
                try appendPart(String(part), to: &parts)
            }
        }
        var action: String?
        if parts.count > 1, let last = parts.last, actions.contains(last) { action = parts.removeLast() }
        guard !parts.isEmpty else { throw HTTPError(.notFound, message: "no asset id") }
        return (parts.joined(separator: "/"), action)
    }

    private static func appendPart(_ part: String, to parts: inout [String]) throws {
        if part == ".." || part == "." { throw HTTPError(.badRequest, message: "'..' and '.' are not allowed in asset ids") }
        if part.isEmpty || part.contains("\0") { throw HTTPError(.badRequest, message: "empty or NUL path segments are not allowed in asset ids") }
        parts.append(part)
    }

    /// The id as URL path segments, each percent-encoded.
    static func encode(_ id: String) -> String {
        id.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? String($0) }
            .joined(separator: "/")
    }

    /// The asset's file on disk, if it is still inside its root.
    static func file(of record: CatalogSummary) throws -> String {
        let relative = record.id.split(separator: "/").dropFirst().joined(separator: "/")
        guard !StorageLocation.isBucket(record.root), let path = existingFile(root: record.root, relative: relative) else {
            throw HTTPError(.notFound, message: "the file of \(record.id) is gone or outside its folder")
        }
        return path
    }

    /// `relative` under `root`, symlinks resolved, if it exists and is still inside the root.
    static func existingFile(root: String, relative: String) -> String? {
        let real = URL(fileURLWithPath: root).resolvingSymlinksInPath().path
        let path = URL(fileURLWithPath: root).appendingPathComponent(relative).resolvingSymlinksInPath().path
        guard path.hasPrefix(real + "/"), FileManager.default.fileExists(atPath: path) else { return nil }
        return path
    }

    /// How the service reads an asset: references and textures resolve under the asset's indexed
    /// folder and nowhere else, whatever the request or the command line said.
    static func readOptions(for record: CatalogSummary) -> ReadOptions {
        ReadOptions(assetRoot: .folder(record.root), allowsPathsOutsideAsset: false)
    }
}
