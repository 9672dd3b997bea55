import AssetCore
import Foundation

/// How big an asset may be before `validate` warns. The defaults are Apple's guidance for AR Quick
/// Look (WWDC 2018, "Integrating Apps and Content with AR Quick Look", confirmed since on Apple's
/// developer forums): 100,000 polygons, 2048 x 2048 textures, 10 seconds of animation. Apple gives
/// no file size; 200 MiB is assetc's own ceiling, past which downloads and memory become the issue.
public struct ValidationBudget: Sendable, Equatable {
    /// Triangles drawn, instances counted each time; nil for no limit.
    public var triangles: Int? = 100_000
    /// The larger side of any texture, in pixels.
    public var textureSize: Int? = 2048
    /// The file as it ships (the usdz, or the root layer).
    public var fileBytes: Int? = 200 << 20
    /// The stage's time range, in seconds.
    public var durationSeconds: Double? = 10

    public init() {}

    /// No limits at all.
    public static let none: ValidationBudget = {
        var budget = ValidationBudget()
        (budget.triangles, budget.textureSize, budget.fileBytes, budget.durationSeconds) = (nil, nil, nil, nil)
        return budget
    }()

    /// A preset's figures (`quicklook`, `visionos`, `web`): the budget `convert --budget` brings a model under.
    public init(_ preset: BudgetPreset) {
        triangles = preset.triangles
        textureSize = preset.textureSize
        fileBytes = preset.fileBytes
        durationSeconds = preset.animationSeconds
    }

    /// `triangles=100000,texture=2048,size=200MB,duration=10s`: each key overrides its default,
    /// `KEY=none` lifts that limit, and `none` alone lifts them all; a preset's name gives its figures.
    public static func parse(_ text: String) throws(AssetError) -> ValidationBudget {
        if text.lowercased() == "none" { return .none }
        if let preset = BudgetPreset(rawValue: text.lowercased()) { return ValidationBudget(preset) }
        var budget = ValidationBudget()
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else {
                throw Self.malformed("'\(item)' is not KEY=VALUE; keys: triangles, texture, size, duration")
            }
            let (key, value) = (parts[0].lowercased(), parts[1])
            let lifted = value.lowercased() == "none"
            switch key {
            case "triangles":
                guard lifted || (Int(value).map { $0 >= 0 } ?? false) else { throw Self.malformed("triangles takes a whole number, not '\(value)'") }
                budget.triangles = lifted ? nil : Int(value)
            case "texture":
                guard lifted || (Int(value).map { $0 > 0 } ?? false) else { throw Self.malformed("texture takes pixels (2048), not '\(value)'") }
                budget.textureSize = lifted ? nil : Int(value)
            case "size":
                guard lifted || ByteCount.parse(value) != nil else { throw Self.malformed("size takes bytes (200MB, 1G, 5000000), not '\(value)'") }
                budget.fileBytes = lifted ? nil : ByteCount.parse(value)
            case "duration":
                let seconds = Double(value.hasSuffix("s") ? String(value.dropLast()) : value)
                guard lifted || (seconds.map { $0.isFinite && $0 >= 0 } ?? false) else { throw Self.malformed("duration takes seconds (10s), not '\(value)'") }
                budget.durationSeconds = lifted ? nil : seconds
            default:
                throw Self.malformed("unknown budget '\(key)'; keys: triangles, texture, size, duration")
            }
        }
        return budget
    }

    private static func malformed(_ message: String) -> AssetError {
        AssetError(.malformed("--budget: " + message))
    }
}
