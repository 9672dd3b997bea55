import AssetCore

/// One thing a rule found, located as precisely as the facts allow (a package entry, a layer line,
/// a prim or property path).
public struct ValidationFinding: Sendable, Hashable, Codable {
    /// glTF findings use all four, as the Khronos validator grades its issues; ARKit rules warn or fail.
    public enum Severity: String, Sendable, Codable, Comparable, CaseIterable {
        case hint
        case info
        case warning
        case error

        private var rank: Int {
            switch self {
            case .hint: return 0
            case .info: return 1
            case .warning: return 2
            case .error: return 3
            }
        }

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// The rule's name as `usdchecker` prints it (`StageMetadataChecker`), or for glTF the Khronos
    /// validator's issue code (`ACCESSOR_MIN_MISMATCH`), so a user can match them.
    public var rule: String
    /// The same concern in OpenUSD's validation framework (`usdGeomValidators:StageMetadataChecker`),
    /// empty when the rule is ARKit's alone.
    public var validators: [String]
    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    /// Whether `validate --fix` has a safe repair for it.
    public var fixable: Bool

    public init(rule: ARKitRule, severity: Severity = .error, message: String, location: SourceLocation,
                validators: [String]? = nil, fixable: Bool = false) {
        self.rule = rule.rawValue
        self.validators = validators ?? rule.validators
        self.severity = severity
        self.message = message
        self.location = location
        self.fixable = fixable
    }

    /// A glTF finding under the Khronos validator's code and severity; `location.elementPath` is
    /// the JSON pointer (or the GLB chunk).
    public init(gltf issue: GLTFIssue, message: String, location: SourceLocation) {
        rule = issue.code
        validators = []
        severity = issue.severity
        self.message = message
        self.location = location
        fixable = false
    }
}
