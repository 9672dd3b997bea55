import AssetCore

/// Reads one file out of a usdz package named the way `Texture.Source.packageEntry` names it:
/// `model.usdz`, or `outer.usdz[inner.usdz]` for a package inside a package.
package enum USDPackageFile {
    package static func read(package: String, entry: String, limits: ReadLimits = ReadLimits(), staged: StagedFiles = .none) throws(AssetError) -> [UInt8] {
        let archive = try open(location(of: package), limits: limits, staged: staged)
        guard let found = archive.entry(named: entry) else {
            throw AssetError(.unresolvedReference("package entry '\(entry)'"), at: SourceLocation(file: archive.name))
        }
        return try archive.read(found)
    }

    /// `a.usdz[b.usdz]` -> packageEntry(file a.usdz, b.usdz); brackets nest from the outside in.
    static func location(of package: String) -> AssetLocation {
        guard package.hasSuffix("]"), let open = package.firstIndex(of: "[") else { return .file(path: package) }
        let outer = String(package[..<open])
        let inner = String(package[package.index(after: open)..<package.index(before: package.endIndex)])
        return .packageEntry(package: location(of: outer), entry: inner)
    }

    private static func open(_ location: AssetLocation, limits: ReadLimits, staged: StagedFiles) throws(AssetError) -> USDZArchive {
        switch location {
        case .file(let path):
            return try USDZArchive(path: path, location: location, limits: limits, staged: staged)
        case .packageEntry(let package, let entry):
            let outer = try open(package, limits: limits, staged: staged)
            guard let found = outer.entry(named: entry) else {
                throw AssetError(.unresolvedReference("package entry '\(entry)'"), at: SourceLocation(file: outer.name))
            }
            return try USDZArchive(bytes: try outer.read(found), location: location, name: location.named(by: staged), limits: limits)
        }
    }
}
