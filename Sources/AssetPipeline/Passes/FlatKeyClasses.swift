/// Numbers equal keys alike: `keys` holds `count` keys of `width` words each, end to end, and each
/// key gets the number of its first occurrence among the distinct keys, in order of first
/// appearance. An open-addressing table over the flat buffer, written here because a Swift
/// Dictionary keyed by arrays or SIMD values hashed each key generically and allocated per entry:
/// welding a million-triangle mesh spent a third of its time there.
struct FlatKeyClasses {
    /// The class of each key.
    private(set) var classOf: [Int32]
    /// The key index that first had each class.
    private(set) var firstOf: [Int32]

    init(keys: [UInt32], width: Int) {
        precondition(width > 0 && keys.count % width == 0)
        let count = keys.count / width
        var capacity = 16
        while capacity < 2 * count { capacity <<= 1 }
        // Each slot holds the key index of its class's first key and the class, side by side, so a
        // probe costs one cache miss, not two; -1 marks an empty slot.
        var table = [SIMD2<Int32>](repeating: SIMD2(-1, -1), count: capacity)
        var classOf = [Int32](repeating: 0, count: count)
        var firstOf: [Int32] = []
        firstOf.reserveCapacity(count / 2)
        keys.withUnsafeBufferPointer { k in
            table.withUnsafeMutableBufferPointer { slots in
                classOf.withUnsafeMutableBufferPointer { classes in
                    let mask = capacity - 1
                    for i in 0..<count {
                        let base = i * width
                        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
                        for w in 0..<width { hash = (hash ^ UInt64(k[base + w])) &* 0xFF51_AFD7_ED55_8CCD; hash ^= hash >> 29 }
                        var slot = Int(truncatingIfNeeded: hash) & mask
                        while true {
                            let entry = slots[slot]
                            if entry.x < 0 {
                                let newClass = Int32(firstOf.count)
                                slots[slot] = SIMD2(Int32(i), newClass)
                                classes[i] = newClass
                                firstOf.append(Int32(i))
                                break
                            }
                            let otherBase = Int(entry.x) * width
                            var same = true
                            for w in 0..<width where k[base + w] != k[otherBase + w] { same = false; break }
                            if same {
                                classes[i] = entry.y
                                break
                            }
                            slot = (slot + 1) & mask
                        }
                    }
                }
            }
        }
        self.classOf = classOf
        self.firstOf = firstOf
    }

    var classCount: Int { firstOf.count }
}
