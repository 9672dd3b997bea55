#if canImport(Glibc)
import Glibc
#endif

/// With TZ unset, glibc's mktime and localtime stat /etc/localtime on every call to see whether
/// it changed. libzip (Debian 12's 1.7) turns each package entry's DOS date into a time_t with
/// mktime when it opens a package, so validating a folder of small usdz files spent about a tenth
/// of its time on those stats (3.5 per file, measured with strace). Naming the same file in TZ
/// keeps the zone the system's, read once for the life of the process.
enum LocalTimeZone {
    /// Before any thread starts: setenv must not race a getenv.
    static func pin() {
        guard getenv("TZ") == nil else { return }
        setenv("TZ", ":/etc/localtime", 0)
    }
}
