import Foundation

/// Numbers as text. For files, the shortest text that reads back to the same value, with no
/// trailing ".0" on whole numbers; for people, short and rounded. Public, like DecimalNumberParser,
/// so the text writers' per-number calls inline.
public enum NumberText {
    @inlinable public static func float(_ v: Float) -> String {
        if v == v.rounded(), abs(v) < 1e7 { return String(Int(v)) }
        return v.description
    }

    @inlinable public static func double(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return v.description
    }

    /// For reports a person reads: whole numbers without a fraction, others to 6 significant digits.
    public static func display(_ v: Double) -> String {
        if v == v.rounded(), abs(v) < 1e15 { return String(Int64(v)) }
        return String(format: "%.6g", v)
    }
}
