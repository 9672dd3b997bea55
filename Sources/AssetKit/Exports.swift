// AssetKit's API is made of AssetCore's value types (Scene, AssetError, Diagnostic, RenderView,
// ConvertOptions...) and of validation's verdicts (ValidationReport, ValidationFinding,
// ARKitRule): a package that depends on AssetKit gets them with `import AssetKit` alone, as the
// service does. The format modules, the pipeline and the renderer stay behind the use cases.
@_exported import AssetCore
@_exported import AssetValidate
