import AssetCore
import Dispatch

/// Parses a large OBJ on both cores: the file is cut at a line break a little past its middle, the
/// first part parsed on one thread while the other counts the first part's `v`, `vt`, `vn` and
/// lines (a plain byte scan) and then parses the second part with those counts as its base, so
/// every index, negative ones included, resolves as a one-pass parse would. The halves are then
/// joined: the group and `usemtl` the first part leaves open carry on into the second.
enum OBJSplitParse {
    /// Below this a second thread costs more than it saves.
    static let splitThreshold = 8 << 20

    static func parse(_ bytes: [UInt8], file: String, budget: ReadBudget, splitThreshold: Int = splitThreshold) throws(AssetError) -> OBJParser {
        try bytes.withUnsafeBufferPointer { (p) throws(AssetError) in try parse(p, file: file, budget: budget, splitThreshold: splitThreshold) }
    }

    /// `mapping`, when the bytes are a mapped file's: the pages each part has read past are dropped
    /// as it goes, so a 100 MB file is never resident whole beside what is parsed from it.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String, budget: ReadBudget, splitThreshold: Int = splitThreshold,
                      mapping: MappedFile? = nil) throws(AssetError) -> OBJParser {
        guard bytes.count >= splitThreshold, let cut = cutPoint(bytes) else {
            var whole = OBJParser(file: file, budget: budget)
            try whole.parse(bytes, dropping: dropper(mapping, offset: 0))
            whole.closeGroups()
            return whole
        }
        let results = Locked<[Result<OBJParser, AssetError>?]>([nil, nil])
        nonisolated(unsafe) let shared = bytes
        DispatchQueue.concurrentPerform(iterations: 2) { part in
            let bytes = shared
            var parser = OBJParser(file: file, budget: budget)
            let outcome: Result<OBJParser, AssetError>
            do throws(AssetError) {
                if part == 0 {
                    try parser.parse(UnsafeBufferPointer(rebasing: bytes[..<cut]), dropping: dropper(mapping, offset: 0))
                } else {
                    let (base, lines) = counts(UnsafeBufferPointer(rebasing: bytes[..<cut]))
                    try parser.parse(UnsafeBufferPointer(rebasing: bytes[cut...]), base: base, firstLine: lines + 1, continues: true,
                                     dropping: dropper(mapping, offset: cut))
                }
                outcome = .success(parser)
            } catch {
                outcome = .failure(error)
            }
            results.withLock { $0[part] = outcome }
        }
        // Taken out of the lock, so the parts' arrays are uniquely referenced and `join` appends in
        // place (a copy left behind made every append copy-on-write: perf, 35% of page faults).
        let parts = results.withLock { slots in
            defer { slots = [nil, nil] }
            return slots
        }
        // The first part's error comes first in the file.
        var first = try parts[0]!.get()
        let second = try parts[1]!.get()
        join(&first, second)
        first.closeGroups()
        return first
    }

    /// Drops a part's pages from the mapping: ranges come relative to the part, which starts at `offset`.
    private static func dropper(_ mapping: MappedFile?, offset: Int) -> ((Range<Int>) -> Void)? {
        guard let mapping else { return nil }
        return { range in mapping.release((range.lowerBound + offset)..<(range.upperBound + offset)) }
    }

    /// Just past the first line break at or after five ninths of the file, or nil when there is
    /// none. The second thread counts the first part before parsing its own, and counting costs
    /// about a fifth of parsing per byte (perf), so the first part is the larger: p·f = c·f +
    /// p·(1 − f) gives f = 1 / (2 − c/p) ≈ 5/9.
    static func cutPoint(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var k = bytes.count / 9 * 5
        // Not after a line a `\` continues: the statement would be cut in two.
        func continued(_ k: Int) -> Bool {
            var e = k - 1
            if e >= 0, bytes[e] == 0x0D { e -= 1 }
            return e >= 0 && bytes[e] == UInt8(ascii: "\\")
        }
        while k < bytes.count, bytes[k] != 0x0A || continued(k) { k += 1 }
        return k < bytes.count - 1 ? k + 1 : nil
    }

    /// `v`, `vt` and `vn` statements and line breaks in a part. It runs before the second part's
    /// parse on the same thread, so it is on the critical path: one compare per byte, looking at a
    /// line's first letters only after a line break (perf: a per-byte line-start flag made this
    /// scan 12% of the whole read).
    static func counts(_ p: UnsafeBufferPointer<UInt8>) -> (OBJParser.Counts, lines: Int) {
        var counts = OBJParser.Counts()
        var lines = 0
        do {
            @inline(__always) func isBlank(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
            /// Counts the statement starting at `start`, a line's first byte.
            @inline(__always) func classify(_ start: Int) {
                var s = start
                while s < p.count, isBlank(p[s]) { s += 1 }
                guard s + 2 < p.count, p[s] == UInt8(ascii: "v") else { return }
                let c1 = p[s + 1]
                if isBlank(c1) { counts.positions += 1; return }
                guard isBlank(p[s + 2]) else { return }
                if c1 == UInt8(ascii: "t") { counts.texcoords += 1 } else if c1 == UInt8(ascii: "n") { counts.normals += 1 }
            }
            guard let base = p.baseAddress else { return (counts, lines) }
            classify(0)
            var k = 0
            while k < p.count {
                if base[k] == 0x0A {
                    lines += 1
                    classify(k + 1)
                }
                k += 1
            }
        }
        return (counts, lines)
    }

    /// Appends the second part to the first: elements, material names (by name), and groups, the
    /// second part's first group continuing the first part's open one when it does.
    static func join(_ first: inout OBJParser, _ second: OBJParser) {
        if !first.colors.isEmpty || !second.colors.isEmpty {
            first.colors += [SIMD3<Float>](repeating: .one, count: first.positions.count - first.colors.count)
            first.colors += second.colors + [SIMD3<Float>](repeating: .one, count: second.positions.count - second.colors.count)
        }
        first.positions += second.positions
        first.texcoords += second.texcoords
        first.normals += second.normals
        var materialIndex: [String: Int32] = [:]
        for (k, name) in first.materialNames.enumerated() { materialIndex[name] = Int32(k) }
        let remap = second.materialNames.map { name -> Int32 in
            if let known = materialIndex[name] { return known }
            first.materialNames.append(name)
            materialIndex[name] = Int32(first.materialNames.count - 1)
            return Int32(first.materialNames.count - 1)
        }
        let inherited = first.finalMaterial
        func remapped(_ group: OBJParser.Group) -> OBJParser.Group {
            var group = group
            group.faceMaterials = group.faceMaterials.map { $0 == OBJParser.inheritedMaterial ? inherited : ($0 >= 0 ? remap[Int($0)] : $0) }
            return group
        }
        // The second part's groups in order, its open one last; only the first can continue the
        // group the first part left open.
        var sequence = (second.groups + [second.openGroup]).map(remapped)
        if sequence[0].continuesPrevious {
            let continuation = sequence.removeFirst()
            first.openGroup.positions += continuation.positions
            first.openGroup.texcoords += continuation.texcoords
            first.openGroup.normals += continuation.normals
            first.openGroup.faceSizes += continuation.faceSizes
            first.openGroup.faceMaterials += continuation.faceMaterials
            first.openGroup.points += continuation.points
        }
        if let last = sequence.last {
            first.closeGroups()
            first.groups += sequence.dropLast()
            first.openGroup = last
        }
        first.finalMaterial = second.finalMaterial == OBJParser.inheritedMaterial ? inherited
            : (second.finalMaterial >= 0 ? remap[Int(second.finalMaterial)] : second.finalMaterial)
        first.skippedStatements.merge(second.skippedStatements, uniquingKeysWith: +)
        for (kinds, more) in [(\OBJParser.droppedFaces, second.droppedFaces), (\.lostAttributes, second.lostAttributes)] {
            first[keyPath: kinds].merge(more) { a, b in
                var merged = a
                merged.merge(b)
                return merged
            }
        }
        first.materialLibraries += second.materialLibraries
        first.droppedPoints += second.droppedPoints
    }
}
