import Foundation

/// Where assetc keeps what it computes once and reuses between runs on this machine (today,
/// prefiltered environments): `ASSETC_CACHE_DIR`, else `$XDG_CACHE_HOME/assetc`, else
/// `~/.cache/assetc`, as the XDG base directory rules put a user's caches. Nil when none of
/// them can be named (no home), and the caller then computes every time.
public enum UserCacheFolder {
    public static func path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let own = environment["ASSETC_CACHE_DIR"], !own.isEmpty { return own }
        // The rules ask that a relative XDG_CACHE_HOME be ignored.
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return (xdg as NSString).appendingPathComponent("assetc") }
        guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
        return (home as NSString).appendingPathComponent(".cache/assetc")
    }
}
