import Foundation

/// Figures as a person reads them on the pages (the JSON keeps exact numbers): sizes in KB and MB
/// as Apple's platforms count them (1 KB = 1,000 bytes), durations to a hundredth of a second,
/// counts with thousands separated.
enum PeopleFigures {
    static func bytes(_ count: Int64) -> String {
        let n = Double(count)
        switch count {
        case ..<1_000: return count == 1 ? "1 byte" : "\(count) bytes"
        case ..<1_000_000: return String(format: "%.1f KB", n / 1e3)
        case ..<1_000_000_000: return String(format: "%.2f MB", n / 1e6)
        default: return String(format: "%.2f GB", n / 1e9)
        }
    }

    static func seconds(_ value: Double) -> String { String(format: "%.2f s", value) }

    static func count(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (k, digit) in digits.enumerated() {
            if k > 0, (digits.count - k) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }
}
