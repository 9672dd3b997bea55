import AssetCore

/// Parses one long stretch of numeric text on every core, into one buffer.
///
/// The stretch is cut at whitespace into pieces of about `pieceBytes`; each piece is scanned into
/// its own part of the buffer, sized by an estimate from samples of its bytes, and the gaps
/// between the parts are closed afterwards, so no number is written twice into fresh memory. A
/// piece that outgrows its part sends the stretch to the one-thread scan.
enum ColladaNumberPieces {
    static let pieceBytes = 1 << 20

    struct Outcome<Value> {
        var values: [Value]
        /// The first token that was not a number of the kind, as an offset range in the stretch.
        var badToken: Range<Int>?
        /// Line feeds in the stretch.
        var newlines = 0
        /// False when a token holds a byte XML gives a meaning of its own (`&`, `]`, a control
        /// character, anything outside ASCII): libxml2 must read that text, not this.
        var plain = true
    }

    private struct PieceResult {
        var written = 0
        var badToken: Range<Int>?
        var newlines = 0
        var plain = true
        var full = false
    }

    static func parse<Kind: ColladaNumberKind>(_ kind: Kind.Type, _ bytes: UnsafeBufferPointer<UInt8>) -> Outcome<Kind.Value> {
        let pieces = piecesOf(bytes)
        nonisolated(unsafe) let text = bytes
        let (parsed, filled) = PiecewiseFill.fill(capacities: pieces.map { max(PiecewiseFill.estimatedTokens(bytes, $0) { !ColladaSAXReader.isSpace($0) }, 16) }) {
            (k, part: UnsafeMutableBufferPointer<Kind.Value>) -> PiecewiseFill.Piece<PieceResult> in
            var unused: [Kind.Value] = []
            let result = scan(Kind.self, text, pieces[k], into: part, growing: &unused)
            return PiecewiseFill.Piece(written: result.written, fitted: !result.full, report: result)
        }
        let results = filled.map(\.report)
        if results.contains(where: \.full) {
            // The samples misjudged a piece: one growing buffer on this thread.
            var values: [Kind.Value] = []
            let whole = scan(Kind.self, bytes, 0..<bytes.count, into: nil, growing: &values)
            return Outcome(values: values, badToken: whole.badToken, newlines: whole.newlines, plain: whole.plain)
        }
        return Outcome(values: parsed, badToken: results.lazy.compactMap(\.badToken).first,
                       newlines: results.reduce(0) { $0 + $1.newlines }, plain: results.allSatisfy(\.plain))
    }

    /// Cuts at whitespace near every `pieceBytes`.
    static func piecesOf(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let count = max(bytes.count / pieceBytes, 1)
        var cuts = [0]
        for k in 1..<max(count, 1) {
            var i = max(bytes.count * k / count, cuts[cuts.count - 1])
            while i < bytes.count && !ColladaSAXReader.isSpace(bytes[i]) { i += 1 }
            if i < bytes.count && i > cuts[cuts.count - 1] { cuts.append(i) }
        }
        cuts.append(bytes.count)
        return (0..<(cuts.count - 1)).map { cuts[$0]..<cuts[$0 + 1] }
    }


    /// `ColladaNumberScan.run` for one piece, into a part of fixed size (`full` when it runs out),
    /// or with no part into `growing`; counting line feeds and checking bad tokens for bytes
    /// libxml2 would have read differently.
    private static func scan<Kind: ColladaNumberKind>(_ kind: Kind.Type, _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                                      into out: UnsafeMutableBufferPointer<Kind.Value>?,
                                                      growing: inout [Kind.Value]) -> PieceResult {
        let b = UnsafeBufferPointer(rebasing: bytes[..<range.upperBound])
        var i = range.lowerBound
        let n = b.count
        var result = PieceResult()
        while true {
            while i < n && ColladaSAXReader.isSpace(b[i]) {
                if b[i] == 0x0A { result.newlines += 1 }
                i += 1
            }
            guard i < n else { return result }
            let start = i
            if let value = Kind.parse(b, &i), i == n || ColladaSAXReader.isSpace(b[i]) {
                if let out {
                    guard result.written < out.count else { result.full = true; return result }
                    out[result.written] = value
                } else {
                    growing.append(value)
                }
                result.written += 1
                continue
            }
            var end = start
            while end < n && !ColladaSAXReader.isSpace(b[end]) {
                let c = b[end]
                if c == UInt8(ascii: "&") || c == UInt8(ascii: "]") || c < 0x20 || c >= 0x80 { result.plain = false }
                end += 1
            }
            if result.badToken == nil { result.badToken = start..<end }
            i = end
        }
    }
}
