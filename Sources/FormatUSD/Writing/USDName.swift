/// Prim names are identifiers; scene names from other formats may not be.
enum USDName {
    static func sanitize(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            let ok = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z") || (scalar >= "0" && scalar <= "9") || scalar == "_"
            out.unicodeScalars.append(ok ? scalar : "_")
        }
        if out.isEmpty { return "_" }
        if let first = out.unicodeScalars.first, first >= "0" && first <= "9" { out = "_" + out }
        return out
    }

    /// Sanitised names made distinct among siblings with `_2`, `_3`, ...
    struct Uniquer {
        private var used: Set<String> = []

        mutating func name(_ raw: String) -> String {
            let base = sanitize(raw)
            var candidate = base
            var k = 2
            while used.contains(candidate) { candidate = "\(base)_\(k)"; k += 1 }
            used.insert(candidate)
            return candidate
        }
    }
}
