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
            // The target's own name, shortened so that the temporary one stays within the 255 bytes a
            // file name may have: a target named near that limit is still writable.
            var stem = Substring((target as NSString).lastPathComponent)
            while stem.utf8.count > 200 { stem = stem.dropLast() }
            let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(stem).assetc-\(UUID().uuidString.prefix(8)).tmp"
            if let failure = writeNewFile(temporary, file.bytes) {
                if failure.created { temporaries.append(temporary) }
                cleanUp()
                throw AssetError(.io("cannot write: \(String(cString: strerror(failure.code)))"), at: SourceLocation(file: target))
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

    /// Writes `bytes` to `path`, which must not exist yet, straight from the array. Foundation's
    /// `createFile` took a `Data`, one more copy of an output that can be hundreds of megabytes,
    /// and wrote it through a temporary file and rename of its own, inside ours. Nil when written;
    /// otherwise the errno, and whether the file was created (and so must be removed).
    private static func writeNewFile(_ path: String, _ bytes: [UInt8]) -> (code: Int32, created: Bool)? {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return (errno, false) }
        var written = 0
        let failure: Int32? = bytes.withUnsafeBytes { raw in
            while written < raw.count {
                let n = systemWrite(descriptor, raw.baseAddress! + written, raw.count - written)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += n
            }
            return nil
        }
        // close reports a delayed write error (a full disk on some file systems) that write did not.
        if close(descriptor) != 0, failure == nil { return (errno, true) }
        return failure.map { ($0, true) }
    }
}

/// POSIX `write`, out of reach by name inside `AtomicOutput`, whose own `write` shadows it.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
