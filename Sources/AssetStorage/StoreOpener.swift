import AssetCore

/// Turns a location a user gave (a folder, `s3://…`) into a store. The use cases take one from
/// their caller because only the executable links the S3 client: the AssetKit library, used
/// alone, reaches folders and refuses buckets with a message that says why.
public struct StoreOpener: Sendable {
    public var open: @Sendable (String) throws(AssetError) -> any ObjectStore

    public init(open: @escaping @Sendable (String) throws(AssetError) -> any ObjectStore) {
        self.open = open
    }

    public static let localOnly = StoreOpener { text throws(AssetError) in
        switch try StorageLocation.parse(text) {
        case .local(let path): return LocalFileStore(root: path)
        case .bucket:
            throw AssetError(.unsupportedFeature("s3:// locations are opened by the assetc executable; the AssetKit library alone reads folders"),
                             at: SourceLocation(file: text))
        }
    }
}
