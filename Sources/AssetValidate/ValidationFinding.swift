import AssetCore

/// One thing a rule found, located as precisely as the facts allow (a package entry, a layer line,
/// a prim or property path).
public struct ValidationFinding: Sendable, Hashable, Codable {
    public enum Severity: String, Sendable, Codable, Comparable {
        case warning
        case error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    /// The rule's name as `usdchecker` prints it (`StageMetadataChecker`), so a user can match them.
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
}
