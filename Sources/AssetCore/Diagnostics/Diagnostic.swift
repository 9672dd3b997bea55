/// Something a reader noticed and worked around: an unknown element skipped, a reference refused,
/// a mesh dropped. Warnings never stop a read unless the caller asked for strict reading.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    public var severity: Severity
    public var message: String
    public var location: SourceLocation

    public init(_ severity: Severity = .warning, _ message: String, at location: SourceLocation = .unknown) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    public static func warning(_ message: String, at location: SourceLocation = .unknown) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    public enum Severity: String, Sendable, Hashable, Codable {
        case warning
        case error
    }

    public var description: String {
        location.isUnknown ? message : "\(location): \(message)"
    }
}
