/// One lexical token of a usda layer. Text is decoded only when asked for, so skipping costs nothing.
struct USDAToken {
    enum Kind: Equatable {
        case identifier
        case number
        case string
        /// `@path@` or `@@@path@@@`
        case asset
        /// `<path>`
        case path
        case punctuation(UInt8)
        case end
    }

    var kind: Kind
    /// Byte range of the token's content (without quotes, `@` or angle brackets).
    var start: Int
    var end: Int
    var line: Int
    var column: Int
    /// For strings: whether the content holds backslash escapes to decode.
    var hasEscapes = false

    func isPunctuation(_ c: Character) -> Bool { kind == .punctuation(c.asciiValue!) }

    func isIdentifier(_ word: String, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard kind == .identifier, end - start == word.utf8.count else { return false }
        var i = start
        for b in word.utf8 { if bytes[i] != b { return false }; i += 1 }
        return true
    }

    /// How an error message names the token.
    func describe(in bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch kind {
        case .end: return "end of file"
        case .punctuation(let c): return "'\(Character(Unicode.Scalar(c)))'"
        case .string: return "a string"
        case .asset: return "an asset path"
        case .path: return "a path"
        case .number, .identifier:
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<min(end, start + 40)]), as: UTF8.self)
            return "'\(text)'"
        }
    }
}
