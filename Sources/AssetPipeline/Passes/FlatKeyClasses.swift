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
        var slots = [Int32](repeating: -1, count: capacity)  // key index of the class's first key, or -1
        var classOf = [Int32](repeating: 0, count: count)
        var firstOf: [Int32] = []
        var classAt = [Int32](repeating: -1, count: capacity)
        keys.withUnsafeBufferPointer { k in
            let mask = capacity - 1
            for i in 0..<count {
                let base = i * width
                var hash: UInt64 = 0x9E37_79B9_7F4A_7C15
                for w in 0..<width { hash = (hash ^ UInt64(k[base + w])) &* 0xFF51_AFD7_ED55_8CCD; hash ^= hash >> 29 }
                var slot = Int(truncatingIfNeeded: hash) & mask
                while true {
                    let other = Int(slots[slot])
                    if other < 0 {
                        slots[slot] = Int32(i)
                        classAt[slot] = Int32(firstOf.count)
                        classOf[i] = Int32(firstOf.count)
                        firstOf.append(Int32(i))
                        break
                    }
                    var same = true
                    let otherBase = other * width
                    for w in 0..<width where k[base + w] != k[otherBase + w] { same = false; break }
                    if same {
                        classOf[i] = classAt[slot]
                        break
                    }
                    slot = (slot + 1) & mask
                }
            }
        }
        self.classOf = classOf
        self.firstOf = firstOf
    }

    var classCount: Int { firstOf.count }
}
