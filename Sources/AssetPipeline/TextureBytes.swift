import AssetCore
import Foundation
import FormatUSD

/// Loads the bytes of a scene's texture wherever it lives: beside the asset, inside a usdz package,
/// or embedded. Unresolved textures (missing, refused) have none. `staged` is the read's: a
/// package in a bucket read by ranges gives its texture by ranges too.
package enum TextureBytes {
    package static func load(_ texture: Texture, limits: ReadLimits = ReadLimits(), staged: StagedFiles = .none) -> [UInt8]? {
        switch texture.source {
        case .file(_, let resolved?):
            guard let data = FileManager.default.contents(atPath: resolved), data.count <= limits.maxFileBytes else { return nil }
            return Array(data)
        case .file(_, nil):
            return nil
        case .packageEntry(let package, let entry):
            do throws(AssetError) {
                return try USDPackageFile.read(package: package, entry: entry, limits: limits, staged: staged)
            } catch {
                return nil  // the package was readable when the scene was built; a failure now means it changed
            }
        case .embedded(let bytes, _):
            return bytes
        }
    }
}
