import AssetCore
import Foundation

/// Writes a writer's files so that a failure leaves nothing behind: every file goes to a temporary
/// file in its target folder first, and only when all are written are they renamed into place.
package enum AtomicOutput {
    /// Writes `files` relative to `mainPath`'s folder. Refuses to replace existing files unless `force`.
    /// A sidecar that already holds exactly the bytes to write (a texture shared by two outputs
    /// named alike) is left as it is.
    package static func write(_ files: [OutputFile], mainPath: String, force: Bool) throws(AssetError) -> [String] {
        let folder = (mainPath as NSString).deletingLastPathComponent
        var targets = files.enumerated().map { index, file in
            index == 0 ? mainPath : (folder.isEmpty ? file.relativePath : (folder as NSString).appendingPathComponent(file.relativePath))
        }
        var files = files
        for k in stride(from: files.count - 1, through: 1, by: -1)
        where FileManager.default.contents(atPath: targets[k]).map({ Array($0) == files[k].bytes }) == true {
            files.remove(at: k)
            targets.remove(at: k)
        }
        if !force, let existing = targets.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            throw AssetError(.io("\(existing) exists; pass --force to replace it"), at: SourceLocation(file: existing))
        }
        var temporaries: [String] = []
        func cleanUp() { for t in temporaries { try? FileManager.default.removeItem(atPath: t) } }  // best effort: the rename never happened
        for (file, target) in zip(files, targets) {
            let directory = (target as NSString).deletingLastPathComponent
            do {
                if !directory.isEmpty { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
            } catch {
                cleanUp()
                throw AssetError(.io("cannot create folder: \(error.localizedDescription)"), at: SourceLocation(file: directory))
            }
            let temporary = (directory.isEmpty ? "" : directory + "/") + ".\((target as NSString).lastPathComponent).assetc-\(UUID().uuidString.prefix(8)).tmp"
            guard FileManager.default.createFile(atPath: temporary, contents: Data(file.bytes)) else {
                cleanUp()
                throw AssetError(.io("cannot write (no space or no permission?)"), at: SourceLocation(file: target))
            }
            temporaries.append(temporary)
        }
        for (temporary, target) in zip(temporaries, targets) {
            if rename(temporary, target) != 0 {
                let reason = String(cString: strerror(errno))
                cleanUp()
                throw AssetError(.io("cannot move the finished file into place: \(reason)"), at: SourceLocation(file: target))
            }
        }
        return targets
    }

}
