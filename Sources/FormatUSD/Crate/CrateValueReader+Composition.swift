import AssetCore

/// The structured values behind composition arcs, children lists and animation.
extension CrateValueReader {
    mutating func tokenVector(_ rep: ValueRep) throws(AssetError) -> [String] {
        guard rep.type == .tokenVector else { return [] }
        var r = try reader(at: rep)
        let n = try r.count(of: "token vector", elementSize: 4)
        return try (0..<n).map { (_) throws(AssetError) in try token(try r.u32()) }
    }

    mutating func pathVector(_ rep: ValueRep) throws(AssetError) -> [String] {
        var r = try reader(at: rep)
        let n = try r.count(of: "path vector", elementSize: 4)
        return try (0..<n).map { (_) throws(AssetError) in try path(try r.u32()) }
    }

    /// The items a list op leaves in a single layer: its explicit items if it is explicit,
    /// otherwise prepended, added, then appended items, less deleted ones.
    func listOp<T: Equatable>(_ rep: ValueRep, item: (inout CrateByteReader) throws(AssetError) -> T) throws(AssetError) -> [T] {
        var r = try reader(at: rep)
        let header = try r.u8()
        var byBit: [Int: [T]] = [:]
        // Header bit 0 marks an explicit list op; bits 1-6 say which item lists follow, in order:
        // explicit, added, deleted, ordered, prepended, appended.
        for bit in 1...6 where header & (1 << bit) != 0 {
            let n = try r.count(of: "list op", elementSize: 4)
            var items: [T] = []
            items.reserveCapacity(n)
            for _ in 0..<n { items.append(try item(&r)) }
            byBit[bit] = items
        }
        if header & 1 != 0 { return byBit[1] ?? [] }
        let deleted = byBit[3] ?? []
        return ((byBit[5] ?? []) + (byBit[2] ?? []) + (byBit[6] ?? [])).filter { !deleted.contains($0) }
    }

    /// Relationship or connection targets; nil when the list op only deletes or reorders, as the
    /// usda parser leaves a `delete rel` without targets.
    func targets(_ rep: ValueRep) throws(AssetError) -> [String]? {
        let items = try pathListOp(rep)
        guard items.isEmpty, rep.type == .pathListOp else { return items }
        var r = try reader(at: rep)
        let header = try r.u8()
        // Explicit (bit 0), or any of explicit, added, prepended or appended items (bits 1, 2, 5, 6).
        return header & 0b0110_0111 != 0 ? [] : nil
    }

    func pathListOp(_ rep: ValueRep) throws(AssetError) -> [String] {
        guard rep.type == .pathListOp else { return [] }
        return try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in try path(try r.u32()) }
    }

    /// References, a payload, or payload list op, as the usda parser records them.
    mutating func references(_ rep: ValueRep) throws(AssetError) -> [USDReference] {
        if let type = rep.type { try requireVersion(for: type, at: rep.payload) }
        switch rep.type {
        case .referenceListOp:
            return try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in
                let reference = try arc(&r, hasLayerOffset: true)
                try skipDictionary(&r)
                return reference
            }
        case .payloadListOp:
            return try listOp(rep) { (r: inout CrateByteReader) throws(AssetError) in
                try arc(&r, hasLayerOffset: version >= Version(0, 8, 0))
            }
        case .payload:
            var r = try reader(at: rep)
            return [try arc(&r, hasLayerOffset: version >= Version(0, 8, 0))]
        default:
            return []
        }
    }

    /// Asset path, prim path and layer offset (which assetc, evaluating one time, does not use).
    func arc(_ r: inout CrateByteReader, hasLayerOffset: Bool) throws(AssetError) -> USDReference {
        let asset = try string(try r.u32())
        let primPath = try path(try r.u32())
        if hasLayerOffset { _ = try r.f64(); _ = try r.f64() }
        return USDReference(assetPath: asset, primPath: primPath.isEmpty ? nil : primPath, line: 0)
    }

    /// A reference's customData: read past, since nothing in assetc uses it.
    func skipDictionary(_ r: inout CrateByteReader) throws(AssetError) {
        let n = try r.count(of: "dictionary", elementSize: 12)
        for _ in 0..<n {
            _ = try r.u32()
            _ = try nestedRep(&r)
        }
    }

    func variantSelections(_ rep: ValueRep) throws(AssetError) -> [String: String] {
        guard rep.type == .variantSelectionMap else { return [:] }
        var r = try reader(at: rep)
        let n = try r.count(of: "variant selections", elementSize: 8)
        var selections: [String: String] = [:]
        for _ in 0..<n {
            let set = try string(try r.u32())
            selections[set] = try string(try r.u32())
        }
        return selections
    }

    /// `[i64 jump][times data][times rep][i64 jump][values data][u64 count][count reps]`.
    mutating func timeSamples(_ rep: ValueRep, nesting: Int = 0) throws(AssetError) -> [(time: Double, value: USDValue)] {
        guard rep.type == .timeSamples else { return [] }
        var r = try reader(at: rep)
        let timesRep = try nestedRep(&r)
        let times = try value(timesRep, nesting: nesting + 1).flatNumbers ?? []
        let jumpStart = r.position
        let jump = try r.i64()
        let target = Int64(jumpStart).addingReportingOverflow(jump)
        guard !target.overflow, target.partialValue >= 0 else { throw malformed("time sample values offset \(jump) leaves the file", at: UInt64(jumpStart)) }
        try r.seek(UInt64(target.partialValue))
        let n = try r.count(of: "time samples", elementSize: 8)
        guard n == times.count else { throw malformed("\(times.count) sample times but \(n) sample values", at: UInt64(jumpStart)) }
        var samples: [(time: Double, value: USDValue)] = []
        samples.reserveCapacity(n)
        for time in times {
            samples.append((time, try value(ValueRep(bits: try r.u64()), nesting: nesting + 1)))
        }
        return samples
    }
}
