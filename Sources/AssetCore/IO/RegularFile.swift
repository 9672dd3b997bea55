#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Every file opened on an asset's behalf must be a regular one. A plain open(2) of a FIFO named
/// like an asset (`model.usda`, or a layer a reference names) waits for a writer that never comes,
/// and a device reads forever; so the file is opened without waiting (O_NONBLOCK, which a regular
/// file ignores), its kind checked on the open descriptor, and anything else refused by name.
package enum RegularFile {
    /// A descriptor of `path` (symlinks followed) open for reading, which the caller closes.
    /// A stand-in in `staged` (a package read by ranges) is made whole first: nothing reads zeros.
    package static func openForReading(_ path: String, display: String, staged: StagedFiles = .none) throws(AssetError) -> Int32 {
        staged.prepareWhole(path)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw AssetError.openFailed(path: display, errno: errno) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let code = errno
            close(fd)
            throw AssetError.openFailed(path: display, errno: code)
        }
        if let problem = problem(status.st_mode) {
            close(fd)
            throw AssetError(.io(problem), at: SourceLocation(file: display))
        }
        // Reads block as usual again (a regular file never waits, but the flag should not leak).
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// Throws unless `path` is a regular file: for libraries that open by path themselves (libzip).
    package static func check(_ path: String, display: String, staged: StagedFiles = .none) throws(AssetError) {
        staged.prepareWhole(path)
        var status = stat()
        guard stat(path, &status) == 0 else { throw AssetError.openFailed(path: display, errno: errno) }
        if let problem = problem(status.st_mode) { throw AssetError(.io(problem), at: SourceLocation(file: display)) }
    }

    /// Why a file of this mode is not read; nil for a regular file.
    static func problem(_ mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "is a folder, not a file"
        case S_IFIFO: return "is a FIFO (named pipe), not a regular file; assetc reads regular files only"
        case S_IFCHR, S_IFBLK: return "is a device, not a regular file; assetc reads regular files only"
        case S_IFSOCK: return "is a socket, not a regular file; assetc reads regular files only"
        default: return "is not a regular file; assetc reads regular files only"
        }
    }
}
