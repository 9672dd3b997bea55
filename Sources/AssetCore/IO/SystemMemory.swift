#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How much memory this process can have: the least of physical memory, the cgroup (container)
/// limit and the address-space limit (`ulimit -v`). A budget taken from physical memory alone
/// would let a read under a tighter limit die of an allocation failure instead of failing cleanly.
public enum SystemMemory {
    public static let available: Int = {
        var candidates: [Int] = []
        let pages = sysconf(Int32(_SC_PHYS_PAGES)), pageSize = sysconf(Int32(_SC_PAGESIZE))
        if pages > 0, pageSize > 0 { candidates.append(pages.multipliedReportingOverflow(by: pageSize).partialValue) }
        var limit = rlimit()
        // Unlimited is all ones, so it fails the second test.
        if getrlimit(RLIMIT_AS_RESOURCE, &limit) == 0, limit.rlim_cur < UInt64(Int.max) {
            candidates.append(Int(limit.rlim_cur))
        }
        if let cgroup = cgroupLimit() { candidates.append(cgroup) }
        return candidates.min() ?? 4 << 30
    }()

    #if canImport(Glibc)
    private static let RLIMIT_AS_RESOURCE = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #else
    private static let RLIMIT_AS_RESOURCE = RLIMIT_AS
    #endif

    /// cgroup v2's `memory.max` for this process's group ("max" means none).
    private static func cgroupLimit() -> Int? {
        guard let file = fopen("/sys/fs/cgroup/memory.max", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 64)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let text = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Int(text.filter { $0 != "\n" && $0 != " " })
    }
}
