import ArgumentParser
import AssetCore
import AssetKit
import AssetStorage
import Foundation
import StorageS3

/// `assetc storage cp`: a file or a folder into a bucket, or an object out of one, with the same
/// client, keys and limits as index and worker (objects above 64 MiB go up in parts).
struct StorageCopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cp",
        abstract: "Copy a file or a folder's files to s3://BUCKET/PREFIX, or an object to a file.",
        discussion: "A folder's files keep their paths below it (hidden ones left out). An existing object or file is replaced only with --force.")

    @Argument(help: "What to copy: a file, a folder, or s3://BUCKET/KEY.")
    var source: String

    @Argument(help: "Where: s3://BUCKET/KEY (or a prefix, for a folder), or a file.")
    var destination: String

    @Flag(help: "Replace what is there.")
    var force = false

    func run() throws {
        let count = try ExitStatus.orExit { () throws(AssetError) -> Int in
            switch (try StorageLocation.parse(source), try StorageLocation.parse(destination)) {
            case (.local(let path), .bucket(let address)): return try upload(path, to: address)
            case (.bucket(let address), .local(let path)): try download(address, to: path); return 1
            default: throw AssetError(.malformed("one side of cp is an s3:// location and the other a local path"), at: SourceLocation(file: source))
            }
        }
        print("copied \(count) file\(count == 1 ? "" : "s")")
    }

    private func upload(_ path: String, to address: StorageLocation.BucketAddress) throws(AssetError) -> Int {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw AssetError(.fileNotFound, at: SourceLocation(file: path)) }
        let files: [(local: String, key: String)]
        let store: any ObjectStore
        if isFolder.boolValue {
            store = try Stores.open(address.description)
            files = try LocalFileStore(root: path).list().filter { !$0.key.split(separator: "/").contains { $0.hasPrefix(".") } }
                .map { (path + "/" + $0.key, $0.key) }
        } else {
            guard !address.prefix.isEmpty else { throw AssetError(.malformed("give the object's key after the bucket"), at: SourceLocation(file: destination)) }
            let parent = StorageLocation.BucketAddress(bucket: address.bucket, prefix: address.prefix.split(separator: "/").dropLast().joined(separator: "/"),
                                                       pathStyle: address.pathStyle)
            store = try Stores.open(parent.description)
            files = [(path, address.name)]
        }
        for file in files {
            if !force, try store.head(file.key) != nil {
                throw AssetError(.io("the object exists (--force replaces it)"), at: SourceLocation(file: store.name(of: file.key)))
            }
            var limits = ReadLimits()
            limits.maxFileBytes = Int.max
            let bytes = try FileBytes.read(path: file.local, display: file.local, budget: ReadBudget(limits))
            try store.write(file.key, bytes: bytes, contentType: AssetSources.contentType(of: file.key))
        }
        return files.count
    }

    private func download(_ address: StorageLocation.BucketAddress, to path: String) throws(AssetError) {
        let parent = StorageLocation.BucketAddress(bucket: address.bucket, prefix: address.prefix.split(separator: "/").dropLast().joined(separator: "/"),
                                                   pathStyle: address.pathStyle)
        let store = try Stores.open(parent.description)
        guard let bytes = try store.read(address.name, maxBytes: Int.max) else { throw AssetError(.fileNotFound, at: SourceLocation(file: address.description)) }
        if !force, FileManager.default.fileExists(atPath: path) { throw AssetError(.io("the file exists (--force replaces it)"), at: SourceLocation(file: path)) }
        try LocalFileStore(root: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent)
            .write((path as NSString).lastPathComponent, bytes: bytes, contentType: "")
    }
}
