import AssetCore

/// One pass over an OBJ file's bytes: `v` (with optional r g b after x y z), `vt`, `vn` into flat
/// arrays, `f` corners (v, v/vt, v//vn, v/vt/vn; negative indices counted back from the end)
/// into per-group corner streams, `o`/`g` starting groups, `usemtl` switching the material of
/// the faces that follow, `mtllib` naming material files, `p` points into the group's point cloud.
/// Numbers go through the shared decimal parser straight from the bytes. Statements assetc does
/// not use (`s`, `l`, curves) are
/// skipped; a malformed one is an error naming its line.
struct OBJParser {
    struct Group {
        var name: String
        /// Per corner, 1-based-resolved 0-based indices: position, texcoord (-1 none), normal (-1 none).
        var positions: [Int32] = []
        var texcoords: [Int32] = []
        var normals: [Int32] = []
        var faceSizes: [Int32] = []
        /// Per face, the index into `materialNames` (-1: none).
        var faceMaterials: [Int32] = []
        /// `p` statements' points, 0-based position indices: the group's point cloud.
        var points: [Int32] = []
        var line: Int
        /// The group the previous part of a split file left open: its faces continue it.
        var continuesPrevious = false
    }

    /// How many `v`, `vt` and `vn` come before a part of the file (the part before it, parsed apart).
    struct Counts: Sendable {
        var positions = 0, texcoords = 0, normals = 0
    }

    /// How many faces one kind of unresolvable corner cost, and where and why the first went.
    struct DroppedFaces: Sendable {
        var count: Int
        var firstLine: Int
        var firstReason: String

        mutating func merge(_ other: DroppedFaces) {
            count += other.count
            if other.firstLine < firstLine { firstLine = other.firstLine; firstReason = other.firstReason }
        }
    }

    /// Faces whose material is the one the previous part left selected.
    static let inheritedMaterial: Int32 = -2

    var positions: [SIMD3<Float>] = []
    var colors: [SIMD3<Float>] = []
    var texcoords: [SIMD2<Float>] = []
    var normals: [SIMD3<Float>] = []
    var groups: [Group] = []
    var materialNames: [String] = []
    var materialLibraries: [(name: String, line: Int)] = []
    var skippedStatements: [String: Int] = [:]
    /// Faces left out because a corner's position points at nothing, by the kind of problem.
    var droppedFaces: [String: DroppedFaces] = [:]
    /// Faces kept without their texcoords or normals because a corner's index points at nothing.
    var lostAttributes: [String: DroppedFaces] = [:]
    /// `p` points whose index points at nothing.
    var droppedPoints = 0
    private enum Stream { case texcoords, normals }
    /// The group faces go to at the end of the part, not yet in `groups` (`closeGroups()` adds it).
    var openGroup = Group(name: "", line: 1)
    /// The `usemtl` in force at the end of the part.
    var finalMaterial: Int32 = -1

    let file: String
    let budget: ReadBudget

    init(file: String, budget: ReadBudget) {
        self.file = file
        self.budget = budget
    }

    /// Parses `bytes`, a whole file or one part of it: `base` counts the elements before the part
    /// (negative indices count back from them too), `firstLine` is the part's first line, and a
    /// part that `continues` a previous one starts in that part's group and material.
    mutating func parse(_ bytes: ArraySlice<UInt8>, base: Counts = Counts(), firstLine: Int = 1, continues: Bool = false) throws(AssetError) {
        try bytes.withUnsafeBufferPointer { (p) throws(AssetError) in try parse(p, base: base, firstLine: firstLine, continues: continues) }
    }

    /// Bytes read past are handed to `dropping` every `dropStep`, so a mapped file's pages can
    /// leave memory behind the parse.
    static let dropStep = 4 << 20

    mutating func parse(_ p: UnsafeBufferPointer<UInt8>, base: Counts = Counts(), firstLine: Int = 1, continues: Bool = false,
                        dropping: ((Range<Int>) -> Void)? = nil) throws(AssetError) {
        var failure: AssetError?
        // The group faces go to: a local, not `groups[g]`, so each append is a plain array append.
        var current = Group(name: "", line: firstLine, continuesPrevious: continues)
        var currentMaterial: Int32 = continues ? Self.inheritedMaterial : -1
        reserveForLarge(p.count, group: &current)
        do {
            var dropped = 0
            var i = 0, line = firstLine
            var failed = false
            var materialIndex: [String: Int32] = [:]
            var corners = 0
            func malformed(_ message: String) {
                failure = AssetError(.malformed(message), at: SourceLocation(file: file, line: line))
                failed = true
            }
            /// Blanks, and a `\` that ends a line: the statement continues on the next (Blender,
            /// trimesh and assimp read such faces whole).
            func skipBlanks() {
                while i < p.count {
                    if p[i] == 0x20 || p[i] == 0x09 { i += 1; continue }
                    guard p[i] == UInt8(ascii: "\\") else { return }
                    var k = i + 1
                    if k < p.count, p[k] == 0x0D { k += 1 }
                    guard k < p.count, p[k] == 0x0A else { return }
                    i = k + 1
                    line += 1
                }
            }
            func endOfLine() {
                while i < p.count, p[i] != 0x0A { i += 1 }
                if i < p.count { i += 1; line += 1 }
            }
            func rest() -> String {
                skipBlanks()
                let start = i
                while i < p.count, p[i] != 0x0A, p[i] != 0x0D { i += 1 }
                var end = i
                while end > start, p[end - 1] == 0x20 || p[end - 1] == 0x09 { end -= 1 }
                return String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
            }
            func float() -> Float? {
                skipBlanks()
                return DecimalNumberParser.parseFloat(p, &i)
            }
            func atLineEnd() -> Bool {
                skipBlanks()
                return i >= p.count || p[i] == 0x0A || p[i] == 0x0D || p[i] == UInt8(ascii: "#")
            }
            /// A 1-based index, negative counting back from `count`, as a 0-based one; nil when it
            /// points at nothing, with the reason kept for the dropped face's warning.
            func resolve(_ raw: Int32, count: Int, what: String, problem: inout (kind: String, text: String)?) -> Int32? {
                let resolved = raw > 0 ? Int(raw) - 1 : count + Int(raw)
                guard raw != 0, resolved >= 0, resolved < count else {
                    guard problem == nil else { return nil }
                    problem = (what, raw == 0 ? "\(what) index 0 (OBJ counts from 1)" : "\(what) index \(raw) past the \(count) defined")
                    return nil
                }
                return Int32(resolved)
            }
            func startsNumber() -> Bool {
                i < p.count && (p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") || (p[i] >= 0x30 && p[i] <= 0x39))
            }
            while i < p.count, !failed {
                if let dropping, i - dropped >= Self.dropStep {
                    dropping(dropped..<i)
                    dropped = i
                }
                skipBlanks()
                guard i < p.count else { break }
                let c0 = p[i]
                let c1: UInt8 = i + 1 < p.count ? p[i + 1] : 0
                let c2: UInt8 = i + 2 < p.count ? p[i + 2] : 0
                func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 }
                if c0 == UInt8(ascii: "v") && isSpace(c1) {
                    i += 2
                    guard let x = float(), let y = float(), let z = float() else { malformed("a 'v' needs x y z"); break }
                    positions.append(SIMD3(x, y, z))
                    if !atLineEnd() {
                        // x y z w, or x y z r g b (a common extension for vertex colours).
                        guard let a = float() else { malformed("unexpected text after 'v x y z'"); break }
                        if let g = float(), let b = float() {
                            if colors.count < positions.count - 1 { colors += [SIMD3<Float>](repeating: .one, count: positions.count - 1 - colors.count) }
                            colors.append(SIMD3(a, g, b))
                        }
                    }
                } else if c0 == UInt8(ascii: "v") && c1 == UInt8(ascii: "t") && isSpace(c2) {
                    i += 3
                    guard let u = float() else { malformed("a 'vt' needs u [v [w]]"); break }
                    let v = atLineEnd() ? 0 : (float() ?? 0)
                    texcoords.append(SIMD2(u, v))
                } else if c0 == UInt8(ascii: "v") && c1 == UInt8(ascii: "n") && isSpace(c2) {
                    i += 3
                    guard let x = float(), let y = float(), let z = float() else { malformed("a 'vn' needs x y z"); break }
                    normals.append(SIMD3(x, y, z))
                } else if c0 == UInt8(ascii: "f") && isSpace(c1) {
                    i += 2
                    var size: Int32 = 0
                    // Exporters in the wild write corners other readers take in their stride
                    // (`1//`, `1/`), and corners that point at nothing. A position that points at
                    // nothing drops its face; a texcoord or normal that does leaves the face
                    // without that attribute (trimesh's `cubevt.obj` indexes texcoords it never
                    // defines). Either is counted and named once, and the rest of the file is read.
                    var problem: (kind: String, text: String)?
                    var lostTexcoord: (kind: String, text: String)?, lostNormal: (kind: String, text: String)?
                    while !atLineEnd() {
                        guard startsNumber(), let rawV = DecimalNumberParser.parseInt32(p, &i) else {
                            problem = ("no position", "a corner with no position index")
                            break
                        }
                        guard let v = resolve(rawV, count: base.positions + positions.count, what: "position", problem: &problem) else { break }
                        var t: Int32 = -1, n: Int32 = -1
                        if i < p.count && p[i] == UInt8(ascii: "/") {
                            i += 1
                            if startsNumber() {
                                guard let raw = DecimalNumberParser.parseInt32(p, &i) else { problem = ("texcoord", "a texcoord index that is not a number"); break }
                                t = resolve(raw, count: base.texcoords + texcoords.count, what: "texcoord", problem: &lostTexcoord) ?? -1
                            }
                            if i < p.count && p[i] == UInt8(ascii: "/") {
                                i += 1
                                if startsNumber() {
                                    guard let raw = DecimalNumberParser.parseInt32(p, &i) else { problem = ("normal", "a normal index that is not a number"); break }
                                    n = resolve(raw, count: base.normals + normals.count, what: "normal", problem: &lostNormal) ?? -1
                                }
                            }
                        }
                        if i < p.count, p[i] != 0x20, p[i] != 0x09, p[i] != 0x0A, p[i] != 0x0D, p[i] != UInt8(ascii: "#") {
                            problem = ("malformed", "a corner with unexpected text after its indices")
                            break
                        }
                        current.positions.append(v)
                        current.texcoords.append(t)
                        current.normals.append(n)
                        size += 1
                    }
                    if let problem {
                        current.positions.removeLast(Int(size)); current.texcoords.removeLast(Int(size)); current.normals.removeLast(Int(size))
                        if droppedFaces[problem.kind] == nil { droppedFaces[problem.kind] = DroppedFaces(count: 0, firstLine: line, firstReason: problem.text) }
                        droppedFaces[problem.kind]!.count += 1
                    } else if size < 3 {
                        // Drop the corners of a face too small to be one.
                        current.positions.removeLast(Int(size)); current.texcoords.removeLast(Int(size)); current.normals.removeLast(Int(size))
                        skippedStatements["faces with fewer than 3 corners", default: 0] += 1
                    } else {
                        // A face has an attribute on every corner or on none.
                        let first = current.positions.count - Int(size)
                        for (lost, kind) in [(lostTexcoord, Stream.texcoords), (lostNormal, .normals)] {
                            guard let lost else { continue }
                            switch kind {
                            case .texcoords: for c in first..<current.texcoords.count { current.texcoords[c] = -1 }
                            case .normals: for c in first..<current.normals.count { current.normals[c] = -1 }
                            }
                            if lostAttributes[lost.kind] == nil { lostAttributes[lost.kind] = DroppedFaces(count: 0, firstLine: line, firstReason: lost.text) }
                            lostAttributes[lost.kind]!.count += 1
                        }
                        current.faceSizes.append(size)
                        current.faceMaterials.append(currentMaterial)
                        corners += Int(size)
                        if corners >= 1 << 18 {
                            do throws(AssetError) { try budget.spend(work: corners, for: "OBJ face corners", at: SourceLocation(file: file, line: line)) } catch {
                                failure = error
                                failed = true
                                break
                            }
                            corners = 0
                        }
                    }
                } else if c0 == UInt8(ascii: "#") || c0 == 0x0A || c0 == 0x0D {
                    // a comment or an empty line
                } else {
                    let start = i
                    while i < p.count, p[i] > 0x20 { i += 1 }
                    let keyword = String(decoding: UnsafeBufferPointer(rebasing: p[start..<i]), as: UTF8.self)
                    switch keyword {
                    case "o", "g":
                        let name = rest()
                        // A `g` right after an `o` names the same faces: keep one group for them.
                        if current.faceSizes.isEmpty && current.points.isEmpty {
                            if !name.isEmpty { current.name = name }
                            current.line = line
                            current.continuesPrevious = false
                        } else {
                            groups.append(current)
                            current = Group(name: name, line: line)
                        }
                    case "p":
                        // Points: position indices only (a `v/vt` form keeps its position).
                        var problem: (kind: String, text: String)?
                        while !atLineEnd() {
                            guard startsNumber(), let raw = DecimalNumberParser.parseInt32(p, &i) else {
                                problem = ("malformed", "a point that is not a position index")
                                break
                            }
                            while i < p.count, p[i] > 0x20, p[i] != UInt8(ascii: "#") { i += 1 }
                            if let v = resolve(raw, count: base.positions + positions.count, what: "position", problem: &problem) {
                                current.points.append(v)
                            } else {
                                problem = nil
                                droppedPoints += 1
                            }
                        }
                        if let problem { malformed(problem.text) }
                    case "usemtl":
                        let name = rest()
                        if let known = materialIndex[name] { currentMaterial = known } else {
                            materialNames.append(name)
                            currentMaterial = Int32(materialNames.count - 1)
                            materialIndex[name] = currentMaterial
                        }
                    case "mtllib":
                        let names = rest()
                        // Several files may follow, separated by spaces; a single name may itself hold spaces.
                        materialLibraries.append((names, line))
                    default:
                        skippedStatements[keyword, default: 0] += 1
                    }
                }
                endOfLine()
            }
            if !failed, corners > 0 {
                do throws(AssetError) { try budget.spend(work: corners, for: "OBJ face corners", at: SourceLocation(file: file, line: line)) } catch {
                    failure = error
                }
            }
        }
        if let failure { throw failure }
        openGroup = current
        finalMaterial = currentMaterial
        if !colors.isEmpty && colors.count < positions.count {
            colors += [SIMD3<Float>](repeating: .one, count: positions.count - colors.count)
        }
    }

    /// Reserves room for what a large part can hold and asks for huge pages before anything is
    /// written: growing by doubling faulted every array in 4 KB pages twice over (perf, 100 MB
    /// file: 46,000 page faults, and a system time that swung from 0.10 s to 0.25 s between runs
    /// in this VM). The guesses are generous, since capacity never touched costs address space,
    /// not memory; each is capped so a huge file asks for no more than a bounded reservation, and
    /// a file denser than the guess simply grows as before.
    private mutating func reserveForLarge(_ byteCount: Int, group: inout Group) {
        guard byteCount >= HugePages.threshold else { return }
        let cap = 1 << 26
        func reserve<T>(_ array: inout [T], _ count: Int) {
            array.reserveCapacity(array.count + min(count, cap))
            HugePages.advise(&array)
        }
        // "v x y z" lines are rarely under 16 bytes, face corners ("1/2/3 ") rarely under 6.
        reserve(&positions, byteCount / 16)
        reserve(&texcoords, byteCount / 16)
        reserve(&normals, byteCount / 16)
        reserve(&group.positions, byteCount / 6)
        reserve(&group.texcoords, byteCount / 6)
        reserve(&group.normals, byteCount / 6)
        reserve(&group.faceSizes, byteCount / 16)
        reserve(&group.faceMaterials, byteCount / 16)
    }

    /// Adds the open group to `groups` when it has faces: the parse is complete.
    mutating func closeGroups() {
        if !openGroup.faceSizes.isEmpty || !openGroup.points.isEmpty { groups.append(openGroup) }
        openGroup = Group(name: "", line: openGroup.line)
    }
}
