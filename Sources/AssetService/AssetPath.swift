import AssetCatalog
import Foundation
import Hummingbird

/// Asset ids in URLs (`/api/assets/Art/Ship/ship.dae/thumbnail.png`) and the files behind them.
/// Ids are path segments, each percent-decoded; encoded slashes and `..` are refused before any
/// lookup, and a file is only served when its real path (symlinks followed) is inside its root.
enum AssetPath {
    static let actions: Set<String> = ["thumbnail.png", "file", "convert"]

    /// (id, action) from the segments after `/api/assets/` or `/assets/`.
    static func parse(_ segments: [Substring]) throws -> (id: String, action: String?) {
        var parts: [String] = []
        for segment in segments {
            var decoded = String(segment)
            // Most ids have nothing encoded; only those that do pay for decoding.
            if segment.utf8.contains(UInt8(ascii: "%")) {
                let lower = segment.lowercased()
                if lower.contains("%2f") || lower.contains("%5c") { throw HTTPError(.badRequest, message: "encoded slashes are not allowed in asset ids") }
                guard let text = segment.removingPercentEncoding else { throw HTTPError(.badRequest, message: "malformed percent-encoding") }
                decoded = text
            }
            if decoded == ".." || decoded == "." || decoded.contains("/") || decoded.contains("\0") {
                throw HTTPError(.badRequest, message: "'..' and '.' are not allowed in asset ids")
            }
            parts.append(decoded)
        }
        var action: String?
        if parts.count > 1, let last = parts.last, actions.contains(last) { action = parts.removeLast() }
        guard !parts.isEmpty else { throw HTTPError(.notFound, message: "no asset id") }
        return (parts.joined(separator: "/"), action)
    }

    /// The id as URL path segments, each percent-encoded.
    static func encode(_ id: String) -> String {
        id.split(separator: "/").map { $0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? String($0) }
            .joined(separator: "/")
    }

    /// The asset's file on disk, if it is still inside its root.
    static func file(of record: CatalogSummary) throws -> String {
        let root = URL(fileURLWithPath: record.root).resolvingSymlinksInPath().path
        let relative = record.id.split(separator: "/").dropFirst().joined(separator: "/")
        let path = URL(fileURLWithPath: record.root).appendingPathComponent(relative).resolvingSymlinksInPath().path
        guard path.hasPrefix(root + "/"), FileManager.default.fileExists(atPath: path) else {
            throw HTTPError(.notFound, message: "the file of \(record.id) is gone or outside its folder")
        }
        return path
    }

    static func contentType(_ format: String) -> String {
        switch format {
        case "png": return "image/png"
        case "jpeg", "jpg": return "image/jpeg"
        case "glb": return "model/gltf-binary"
        case "gltf": return "model/gltf+json"
        case "usdz": return "model/vnd.usdz+zip"
        case "usda", "obj", "ply", "stl": return format == "usda" || format == "obj" ? "text/plain; charset=utf-8" : "application/octet-stream"
        case "dae": return "model/vnd.collada+xml"
        default: return "application/octet-stream"
        }
    }
}
