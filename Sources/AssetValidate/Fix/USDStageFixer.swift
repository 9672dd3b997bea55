import AssetCore
import FormatUSD

/// `validate --fix` for USD stages: the rules run once, the repairs they name are applied to
/// copies of the layers, and the stage is packed into a new usdz. The input is only read.
enum USDStageFixer {
    static func repair(path: String, options: ReadOptions, transcode: @escaping TextureTranscoder) throws(AssetError) -> RepairedPackage {
        let result = try USDStageInspector.inspect(path: path, options: options) { facts in
            Result { () throws(AssetError) -> RepairedPackage in
                let context = USDRuleContext(facts: facts)
                var editor = USDLayerEditor(context: context)
                editor.apply(USDStageValidator.check(context).repairs)
                var rebuilder = USDPackageRebuilder(facts: facts, editor: editor, transcode: transcode)
                let bytes = try rebuilder.build()
                return RepairedPackage(bytes: bytes, changes: editor.changes + rebuilder.changes, skipped: editor.skipped + rebuilder.skipped)
            }
        }
        return try result.get()
    }
}
