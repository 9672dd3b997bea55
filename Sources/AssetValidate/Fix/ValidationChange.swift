import AssetCore

/// One thing `validate --fix` changed in its copy, or could not change, under the rule it repairs.
public struct ValidationChange: Sendable, Hashable, Codable {
    public var rule: String
    public var message: String
    public var location: SourceLocation

    public init(rule: ARKitRule, message: String, location: SourceLocation) {
        self.rule = rule.rawValue
        self.message = message
        self.location = location
    }
}

/// A repaired copy of a stage, packaged as a usdz, and what was done to make it.
public struct RepairedPackage: Sendable {
    /// The usdz package's bytes: the root layer first, every entry stored and 64-byte aligned.
    public var bytes: [UInt8]
    public var changes: [ValidationChange]
    /// Repairs that could not be made, each with its reason.
    public var skipped: [ValidationChange]
}

/// Re-encodes an image AR Quick Look cannot read (BMP, TGA, GIF...) as PNG. The validator does no
/// image decoding itself: the caller lends its codecs.
public typealias TextureTranscoder = @Sendable (_ bytes: [UInt8], _ name: String) throws(AssetError) -> TranscodedTexture

/// A transcoded texture's PNG, and what of the source one picture could not hold ("the first of 12
/// GIF frames"), for the change's message.
public struct TranscodedTexture: Sendable {
    public var png: [UInt8]
    public var leftOut: String?

    public init(png: [UInt8], leftOut: String? = nil) {
        self.png = png
        self.leftOut = leftOut
    }
}
