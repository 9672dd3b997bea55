import Synchronization

/// What one read (or one render) may spend, charged as it goes by every stage that allocates or
/// multiplies work from what a file claims: the readers' decoders, composition, scene building,
/// the renderer. A file that would exceed it fails with a located "limit exceeded" error naming
/// the flag that raises the limit, before the allocation or the work happens, instead of the
/// process dying of an allocation failure or running for minutes.
///
/// Bytes are charged for decoded data as it is set aside and never credited back, so the total is
/// an upper bound of what the read holds. Work counts units: one per array element decoded or used
/// (a value shared by a thousand attributes counts a thousand times: each use is work downstream),
/// one per triangle after instancing, and `arcWeight` per composed prim or composition opinion
/// (each costs about what a few hundred elements do).
public final class ReadBudget: Sendable {
    public let limits: ReadLimits
    private let bytes = Atomic<Int>(0)
    private let work = Atomic<Int>(0)

    /// Work units one composed prim or one composition opinion costs.
    public static let arcWeight = 256

    public init(_ limits: ReadLimits) {
        self.limits = limits
    }

    public var bytesSpent: Int { bytes.load(ordering: .relaxed) }
    public var workSpent: Int { work.load(ordering: .relaxed) }

    /// Charges `count` bytes about to be allocated for `what`.
    public func spend(bytes count: Int, for what: @autoclosure () -> String,
                      at location: @autoclosure () -> SourceLocation) throws(AssetError) {
        let total = add(count, to: bytes)
        guard total <= limits.maxMemoryBytes else {
            throw AssetError(.limitExceeded("\(what()) needs \(ByteCount.text(count)), which takes the read past its memory budget of \(ByteCount.text(limits.maxMemoryBytes)) (raise it with --max-memory)"),
                             at: location())
        }
    }

    /// Charges `units` of work for `what`.
    public func spend(work units: Int, for what: @autoclosure () -> String,
                      at location: @autoclosure () -> SourceLocation) throws(AssetError) {
        let total = add(units, to: work)
        guard total <= limits.maxWork else {
            throw AssetError(.limitExceeded("\(what()): the read is past its work budget of \(limits.maxWork) units (array elements, triangles after instancing, \(Self.arcWeight) per prim or arc; raise it with --max-work)"),
                             at: location())
        }
    }

    /// Adds without trapping: a count derived from a file can be anything up to Int.max.
    private func add(_ amount: Int, to counter: borrowing Atomic<Int>) -> Int {
        let amount = max(amount, 0)
        var current = counter.load(ordering: .relaxed)
        while true {
            let (sum, overflow) = current.addingReportingOverflow(amount)
            let next = overflow ? Int.max : sum
            let (exchanged, original) = counter.compareExchange(expected: current, desired: next, ordering: .relaxed)
            if exchanged { return next }
            current = original
        }
    }
}

/// Byte counts as people read them (binary units, one decimal).
public enum ByteCount {
    public static func text(_ count: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count), unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) bytes" : "\(NumberText.display((value * 10).rounded() / 10)) \(units[unit])"
    }

    /// `512M`, `2G`, `1.5GB`, `300MiB`, `1000000`: nil when `text` is none of these.
    public static func parse(_ text: String) -> Int? {
        let lower = text.lowercased().trimmingSuffix("b").trimmingSuffix("i")
        let scales: [(String, Double)] = [("k", 1024), ("m", 1024 * 1024), ("g", 1024 * 1024 * 1024), ("t", 1024 * 1024 * 1024 * 1024)]
        var number = Substring(lower), scale = 1.0
        if let (suffix, value) = scales.first(where: { lower.hasSuffix($0.0) }) {
            number = lower.dropLast(suffix.count)
            scale = value
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale < Double(Int.max / 2) else { return nil }
        return Int(value * scale)
    }
}

private extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) && count > suffix.count ? String(dropLast(suffix.count)) : self
    }
}
