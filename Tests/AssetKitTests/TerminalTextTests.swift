import AssetCore
import Testing
@testable import AssetKit

/// Names and warnings from asset files reach terminals through `info`, `show`, `query` and error
/// lines: escape sequences in them must be shown, not obeyed.
@Suite struct TerminalTextTests {
    @Test func controlCharactersAreShownAsEscapes() {
        #expect(TerminalText.safe("plain name, é and 日本") == "plain name, é and 日本")
        #expect(TerminalText.safe("a\u{1B}[2Jb") == "a\\u{1B}[2Jb")
        #expect(TerminalText.safe("line\nforged: ok\t\u{7F}\u{9B}") == "line\\u{A}forged: ok\\u{9}\\u{7F}\\u{9B}")
    }

    @Test func infoTextEscapesWhatTheFileSaid() {
        var scene = handBuiltScene()
        scene.metadata.generator = "exporter\u{1B}]0;owned\u{7}"
        let result = ReadResult(scene: scene, diagnostics: [.warning("reference refused: '\u{1B}[31mred'")])
        let text = InfoTextFormatter.format(AssetInfo(file: "h.usda", result: result))
        #expect(!text.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
        #expect(text.contains("exporter\\u{1B}]0;owned\\u{7}"))
        #expect(text.contains("reference refused: '\\u{1B}[31mred'"))
    }
}
