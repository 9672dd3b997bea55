/// The words full-text search finds an asset by, the same for both engines.
extension CatalogEntry {
    /// The file's id, node paths and material names, each also split into its parts.
    package var searchText: String {
        ([record.id] + nodeNames + materialNames).map(CatalogSearchText.words).joined(separator: " ")
    }
}

package enum CatalogSearchText {
    /// Splits names so `LoomisHead/Skull/Jaw` and `brow_line` are found by their parts.
    package static func words(_ name: String) -> String {
        var out = ""
        var previous: Character = " "
        for ch in name {
            if ch.isLetter || ch.isNumber {
                if ch.isUppercase && previous.isLowercase { out.append(" ") }
                out.append(ch)
            } else {
                out.append(" ")
            }
            previous = ch
        }
        return name + " " + out
    }

    /// Lowercased runs of letters and digits: the tokens SQLite's unicode61 tokenizer makes of a
    /// text, given to PostgreSQL in the same shape so that its parser cannot read
    /// `Art.scnassets/ship.dae` as one file-path token.
    package static func tokens(_ text: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        for ch in text {
            if ch.isLetter || ch.isNumber {
                current.append(contentsOf: ch.lowercased())
            } else if !current.isEmpty {
                tokens.append(current)
                current = ""
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }
}
