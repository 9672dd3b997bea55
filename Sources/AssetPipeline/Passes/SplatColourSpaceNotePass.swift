import AssetCore

/// Says so when splats whose colours are linear (glTF's `lin_rec709_display`) go to a format with
/// no colour space for splats (USD, PLY, SPZ): they are written as they are, and whoever reads
/// them will take them as sRGB.
public struct SplatColourSpaceNotePass: ScenePass {
    public let name = "splat colour space"
    let format: String

    public init(format: String) { self.format = format }

    public func run(_ scene: inout Scene, diagnostics: inout [Diagnostic]) {
        let linear = scene.placedSplats().filter { scene.splats[$0.instance.splats].colorSpace == .linearRec709Display }.count
        guard linear > 0 else { return }
        diagnostics.append(.warning("\(format) has no colour space for splats: \(linear) set\(linear == 1 ? "" : "s") in lin_rec709_display written as they are, to be read as sRGB"))
    }
}
