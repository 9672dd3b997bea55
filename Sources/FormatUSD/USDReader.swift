import AssetCore
import Foundation

/// Reads USD layers, text (`.usda`) or binary crate (`.usdc`), and packages (`.usdz`) holding
/// either, into a `Scene`.
public struct USDReader: SceneReader {

    public init() {}

    public var formats: [AssetFormat] { [.usda, .usdc, .usdz] }

    public func sniff(prefix: [UInt8], pathExtension: String) -> AssetFormat? {
        if prefix.starts(with: Array("#usda".utf8)) { return .usda }
        if prefix.starts(with: Array("PXR-USDC".utf8)) { return .usdc }
        if prefix.starts(with: [0x50, 0x4B, 0x03, 0x04]) {
            // A zip is a usdz when it says so by extension or its first entry is a USD layer.
            if pathExtension == "usdz" { return .usdz }
            if let name = Self.firstZipEntryName(prefix), [".usda", ".usdc", ".usd"].contains(where: name.lowercased().hasSuffix) {
                return .usdz
            }
        }
        return nil
    }

    /// The name in a zip's first local file header (offset 30, length at 26).
    static func firstZipEntryName(_ prefix: [UInt8]) -> String? {
        guard prefix.count >= 30 else { return nil }
        let length = Int(prefix[26]) | Int(prefix[27]) << 8
        guard prefix.count >= 30 + length else { return nil }
        return String(decoding: prefix[30..<(30 + length)], as: UTF8.self)
    }

    public func read(_ file: SniffedFile, options: ReadOptions) throws(AssetError) -> ReadResult {
        let path = file.url.relativePath
        let format = file.format
        return try LargeStack.run { () throws(AssetError) -> ReadResult in
            let budget = ReadBudget(options.limits)
            let resolver = USDAssetResolver(rootFile: path, options: options, budget: budget)
            let cache = USDLayerCache(resolver: resolver)
            let rootLayer = try cache.load(.file(path: path))
            let composer = USDStageComposer(cache: cache, budget: budget)
            let stage = try composer.composeStage(rootLayer: rootLayer)
            var builder = USDSceneBuilder(stage: stage, resolver: resolver, budget: budget)
            let scene = try builder.build(format: format)
            return ReadResult(scene: scene, diagnostics: composer.diagnostics + builder.diagnostics)
        }
    }
}
