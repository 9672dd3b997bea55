import ArgumentParser
import AssetCore
import AssetKit
import AssetStorage
import Foundation

/// `assetc storage rm`: deletes one object, or with `--recursive` every object under a prefix (a
/// thumbnail store to rebuild, a test prefix), through the same client and key rules as the rest.
struct StorageRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rm",
        abstract: "Delete s3://BUCKET/KEY, or with --recursive every object under s3://BUCKET/PREFIX.",
        discussion: "Deleting an object that is not there is not an error, as in S3. Keys that break assetc's key rules are left and named.")

    @Argument(help: "s3://BUCKET/KEY, or s3://BUCKET/PREFIX with --recursive.")
    var location: String

    @Flag(help: "Delete every object under the prefix.")
    var recursive = false

    func validate() throws {
        guard StorageLocation.isBucket(location) else { throw ValidationError("rm takes an s3:// location; it does not delete local files") }
    }

    func run() throws {
        let count = try ExitStatus.orExit { () throws(AssetError) -> Int in
            guard case .bucket(let address) = try StorageLocation.parse(location), !address.prefix.isEmpty else {
                throw AssetError(.malformed("give a key (or, with --recursive, a prefix) after the bucket"), at: SourceLocation(file: location))
            }
            guard recursive else {
                let parent = StorageLocation.BucketAddress(bucket: address.bucket, prefix: address.prefix.split(separator: "/").dropLast().joined(separator: "/"),
                                                           pathStyle: address.pathStyle)
                try Stores.open(parent.description).remove(address.name)
                return 1
            }
            let store = try Stores.open(address.description)
            var stderr = StandardError()
            var removed = 0
            let objects = try store.list()
            for object in objects {
                if let problem = ObjectKey.problem(object.key) {
                    print("assetc: warning: \(TerminalText.safe(store.name(of: ObjectKey.printable(object.key)))): \(problem); left", to: &stderr)
                    continue
                }
                try store.remove(object.key)
                removed += 1
                // One request per object: a large prefix takes a while, so say how far it is.
                if removed % 1000 == 0 { print("assetc: deleted \(removed) of \(objects.count) objects", to: &stderr) }
            }
            return removed
        }
        print("deleted \(count) object\(count == 1 ? "" : "s")")
    }
}
