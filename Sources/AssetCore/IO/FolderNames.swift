#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The relative paths of the files under a folder, from `readdir` alone.
///
/// Written on the C library rather than with `FileManager.enumerator(atPath:)`: on Linux the
/// enumerator builds Foundation path objects and stats every entry, and listing a folder of 1,000
/// small packages took 7 ms, serially, before `assetc validate` could start its workers (6% of the
/// whole run). `readdir` already says which entries are folders on the file systems that matter;
/// only entries whose type it leaves unknown are looked up.
package enum FolderNames {
    /// Paths relative to `folder` ("a.usdz", "sub/b.usda") of the files whose names pass
    /// `wanted`, in no particular order. Entries whose names start with "." are skipped, folders
    /// and all. Symbolic links are listed as files and never followed into, so a link to a parent
    /// cannot make the walk endless. Nil when `folder` cannot be opened as a folder; a subfolder
    /// that cannot be opened is skipped.
    package static func files(under folder: String, where wanted: (String) -> Bool) -> [String]? {
        guard let top = opendir(folder) else { return nil }
        var found: [String] = []
        // Folders still to list, by relative prefix; each is opened only when its turn comes, so a
        // folder of thousands of subfolders never holds thousands of descriptors.
        var pending: [String] = []
        var current: (handle: OpaquePointer, prefix: String)? = (top, "")
        while let (handle, prefix) = current {
            while let entry = readdir(handle) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                guard !name.hasPrefix(".") else { continue }
                let relative = prefix + name
                if isFolder(entry.pointee.d_type, path: folder + "/" + relative) {
                    pending.append(relative + "/")
                } else if wanted(name) {
                    found.append(relative)
                }
            }
            closedir(handle)
            current = nil
            while current == nil, let next = pending.popLast() {
                if let child = opendir(folder + "/" + next) { current = (child, next) }
            }
        }
        return found
    }

    /// Whether an entry is a folder to descend into: a real folder, not a link to one.
    private static func isFolder(_ type: UInt8, path: String) -> Bool {
        switch Int32(type) {
        case Int32(DT_DIR): return true
        case Int32(DT_UNKNOWN):
            var status = stat()
            return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
        default: return false
        }
    }
}
