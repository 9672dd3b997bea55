import AssetCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Long arrays scanned without first looking for their `]`.
///
/// The next `aheadBytes` of text are cut into pieces and scanned on every core as if they were
/// all array; a scan stops at a `]`. The first piece that meets one ends the array, and pieces
/// past it are skipped (or, if a core had already started one, thrown away). So the pages of
/// the file are first touched by the scanning cores, not by a `memchr` on one core beforehand.
/// An array longer than the window goes on in the next one, from an element boundary.
extension USDANumericArrayScanner {
    enum Ahead<Element> {
        case closed(Chunk<Element>)
        /// The whole window was array; it goes on at `next`, the start of an element.
        case continues(Chunk<Element>, next: Int)
        case declined
        /// The window could not tell (a piece outgrew its estimate, or the window did not end
        /// at an element): the caller finds the `]` and scans again.
        case unsure
    }

    /// Bytes scanned ahead at a time: 32 pieces.
    static let aheadBytes = 32 << 20

    static func scanAhead<Kind: NumberKind>(_ kind: Kind.Type, _ p: UnsafeBufferPointer<UInt8>, from start: Int,
                                            maxElements: Int, window: Int = aheadBytes, release: Release? = nil) -> Ahead<Kind.Element> {
        let nominalEnd = min(p.count, start + window)
        let tuples = startsWithGroup(p, start: start, close: nominalEnd)
        // The window ends where an element starts, so that an array longer than it goes on
        // from there; if none starts close by, the window cannot be continued.
        var windowEnd = p.count
        var endsAtElement = true
        if nominalEnd < p.count {
            if let next = elementStart(p, from: nominalEnd, limit: min(p.count, nominalEnd + cutSearchBytes), tuples: tuples) {
                windowEnd = next
            } else {
                windowEnd = nominalEnd
                endsAtElement = false
            }
        }
        let pieces = piecesOf(p, start: start, close: windowEnd)
        let closing = Atomic<Int>(Int.max)
        nonisolated(unsafe) let bytes = p
        let (values, filled) = PiecewiseFill.fill(
            capacities: PiecewiseFill.capacities(count: pieces.count) { estimatedElements(Kind.self, bytes, pieces[$0]) },
            keeping: { pieces in Self.kept(pieces.map(\.report.stop)) }
        ) { (k, stretch: UnsafeMutableBufferPointer<Kind.Element>) -> PiecewiseFill.Piece<(stop: ScanStop, state: ScanState)> in
            var state = ScanState(i: pieces[k].lowerBound)
            if k > closing.load(ordering: .relaxed) {
                return PiecewiseFill.Piece(written: 0, fitted: true, report: (.skipped, state))
            }
            var written = 0
            let stop = scanInto(Kind.self, UnsafeBufferPointer(rebasing: bytes[..<pieces[k].upperBound]), maxElements: maxElements,
                                stretch, &written, &state)
            if stop == .closed { closing.min(k, ordering: .relaxed) }
            // A piece that ran to its end without a `]` was all array, if it is kept at all.
            if stop == .finished { release?(pieces[k]) }
            return PiecewiseFill.Piece(written: written, fitted: stop == .finished || stop == .closed, report: (stop, state))
        }
        let stops = filled.map(\.report.stop)
        guard let kept = kept(stops) else {
            // The first piece that did not run to its end without a `]`.
            let first = stops.first { $0 != .finished }
            return first == .declined ? .declined : .unsure
        }
        var chunk = Chunk<Kind.Element>()
        for result in filled[..<kept].map(\.report.state) {
            guard chunk.add(result) else { return .declined }
        }
        guard chunk.elements <= maxElements else { return .declined }
        chunk.values = values
        if stops[kept - 1] == .closed {
            chunk.end = filled[kept - 1].report.state.i + 1
            return .closed(chunk)
        }
        // Every piece ran to its end: the array goes on past the window, or never closes.
        guard windowEnd < p.count else { return .declined }
        guard endsAtElement else { return .unsure }
        chunk.end = windowEnd
        return .continues(chunk, next: windowEnd)
    }

    /// How many leading pieces hold the array: through the first that met its `]`, or all of
    /// them when each ran to its end; nil when one before that stopped for any other reason.
    static func kept(_ stops: [ScanStop]) -> Int? {
        for (k, stop) in stops.enumerated() {
            switch stop {
            case .closed: return k + 1
            case .finished: continue
            case .full, .declined, .skipped: return nil
            }
        }
        return stops.count
    }

    /// The parts of one array scanned window by window, as one chunk. Arrays that fit one window
    /// (nearly all) come back as they are; longer ones are copied together once.
    static func joined<Element>(_ parts: [Chunk<Element>], maxElements: Int) -> Chunk<Element>? {
        guard parts.count > 1 else { return parts.first }
        var chunk = Chunk<Element>()
        chunk.values.reserveCapacity(parts.reduce(0) { $0 + $1.values.count })
        HugePages.advise(&chunk.values)
        for part in parts {
            guard chunk.add(components: part.components, elements: part.elements, newlines: part.newlines,
                            lastNewline: part.lastNewline) else { return nil }
            chunk.values.append(contentsOf: part.values)
        }
        guard chunk.elements <= maxElements else { return nil }
        chunk.end = parts[parts.count - 1].end
        return chunk
    }
}
