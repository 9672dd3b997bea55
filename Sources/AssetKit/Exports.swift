// AssetKit's API is made of AssetCore's value types (Scene, AssetError, Diagnostic...), the
// converter's options (ConvertOptions) and of validation's verdicts (ValidationReport, ValidationFinding,
// ARKitRule): a package that depends on AssetKit gets them with `import AssetKit` alone, as the
// service does. The format modules, the pipeline and the renderer stay behind the use cases; of the
// renderer, only the look a thumbnail is drawn with is part of the API (the CLI's options and the
// service's configuration are made of it). Where bytes live (`ObjectStore`, `StoreOpener`) is too.
@_exported import AssetCore
@_exported import AssetStorage
@_exported import AssetValidate
@_exported import struct AssetPipeline.ConvertOptions
@_exported import enum AssetPipeline.TextureEncoding
@_exported import struct AssetRender.RenderOptions
@_exported import enum AssetRender.RenderView
@_exported import struct AssetRender.PrefilteredEnvironment
@_exported import enum AssetRender.Lighting
@_exported import enum AssetRender.ToneMapping
@_exported import enum AssetRender.StudioEnvironment
