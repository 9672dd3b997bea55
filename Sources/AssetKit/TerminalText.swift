/// Text from asset files (names, paths, warnings that quote them) made safe to print on a
/// terminal: control characters, which could move the cursor, recolour the screen or start a new
/// line that looks like output of assetc's own, are shown as `\u{1B}` escapes instead.
public enum TerminalText {
    public static func safe(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: isControl) else { return s }
        var out = ""
        for scalar in s.unicodeScalars {
            if isControl(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 controls (newlines and tabs among them), DEL and the C1 controls.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
