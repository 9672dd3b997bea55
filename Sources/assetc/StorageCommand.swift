import ArgumentParser
import AssetCore
import AssetKit
import AssetStorage
import Foundation
import StorageS3

/// `assetc storage`: what a user checks a bucket setup with (the listing assetc sees, a link to
/// share) before pointing index, worker or serve at it.
struct StorageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage",
        abstract: "List a bucket prefix as assetc sees it, copy files in and out, delete objects, or make a presigned link to one object.",
        discussion: """
            Credentials, region and endpoint come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, \
            AWS_SESSION_TOKEN, AWS_REGION, AWS_ENDPOINT_URL(_S3) and AWS_PROFILE with ~/.aws/credentials \
            and ~/.aws/config, as the AWS CLI reads them. See Docs/TeamSetup.md.
            """,
        subcommands: [StorageListCommand.self, StorageCopyCommand.self, StorageRemoveCommand.self, StoragePresignCommand.self, StorageSignCommand.self])
}

struct StorageListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "ls", abstract: "List the objects under s3://BUCKET/PREFIX (or a folder).")

    @Argument(help: "s3://BUCKET/PREFIX or a folder.")
    var location: String

    @Flag(help: "One JSON object per line: key, bytes, etag, modified.")
    var json = false

    func run() throws {
        let objects = try ExitStatus.orExit {
            let store = try Stores.open(location)
            return (store, try store.list())
        }
        for object in objects.1 {
            let key = ObjectKey.problem(object.key).map { "\(ObjectKey.printable(object.key))  (refused: \($0))" } ?? object.key
            if json {
                let line: [String: Any] = ["key": object.key, "bytes": object.byteSize, "etag": object.etag, "modified": object.modifiedAt]
                let data = try JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])
                print(String(decoding: data, as: UTF8.self))
            } else {
                print("\(object.byteSize)\t\(object.etag.isEmpty ? "-" : object.etag)\t\(TerminalText.safe(key))")
            }
        }
    }
}

struct StoragePresignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "presign", abstract: "Print a URL that reads one object without credentials until it expires.")

    @Argument(help: "s3://BUCKET/KEY")
    var location: String

    @Option(help: "Seconds the link works (1 to 604800).")
    var expires = 3600

    func validate() throws {
        guard (1...604_800).contains(expires) else { throw ValidationError("--expires takes 1 to 604800 seconds") }
        guard StorageLocation.isBucket(location) else { throw ValidationError("presign takes an s3:// location") }
    }

    func run() throws {
        let url = try ExitStatus.orExit { () throws(AssetError) -> String? in
            guard case .bucket(let address) = try StorageLocation.parse(location), !address.prefix.isEmpty else {
                throw AssetError(.malformed("presign needs a key after the bucket"), at: SourceLocation(file: location))
            }
            let parent = address.prefix.split(separator: "/").dropLast().joined(separator: "/")
            let store = S3Store(address: .init(bucket: address.bucket, prefix: parent, pathStyle: address.pathStyle),
                                client: S3Client(settings: try S3Settings.load()))
            return try store.presignedURL(for: address.name, expiresIn: expires)
        }
        print(url ?? "")
    }
}
