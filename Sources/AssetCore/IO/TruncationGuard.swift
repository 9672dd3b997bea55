#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Keeps a file that shrinks while it is mapped from killing the process.
///
/// A mapped file that another process truncates (`cp` over it, an exporter rewriting it in place)
/// raises SIGBUS on the next read of a page past its new end. For the ranges registered here the
/// handler maps a page of zeros over the faulting one and marks the range damaged, so the read
/// goes on over zeros (which the parsers refuse like any other bad byte) and the reader reports
/// the file as changed instead of crashing. A SIGBUS anywhere else goes to whichever handler was
/// there before (the Swift runtime's backtracer, or the default action).
enum TruncationGuard {
    /// Mappings that may be guarded at once; a reader that finds no free slot reads the file instead.
    static let capacity = 64

    /// Per slot: start address, end address, damaged flag. Zero start means free.
    /// `nonisolated(unsafe)`: the words are only reached through their atomics.
    nonisolated(unsafe) private static let slots: UnsafeMutablePointer<Atomic<UInt>> = {
        let words = UnsafeMutablePointer<Atomic<UInt>>.allocate(capacity: capacity * 3)
        for k in 0..<(capacity * 3) { (words + k).initialize(to: Atomic(0)) }
        return words
    }()

    /// The SIGBUS action found at installation, given the signal back for addresses not ours.
    /// Written once, by `sigaction` at installation, before the handler can read it.
    nonisolated(unsafe) private static let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: 1)

    private static let pageSize = UInt(getpagesize())

    /// Installs the handler once; false if the system refused it.
    private static let installed: Bool = {
        // Initialised before the handler can run: it must not be the one to take the lazy-global lock.
        _ = slots
        _ = pageSize
        var action = sigaction()
        action.__sigaction_handler.sa_sigaction = { signal, info, context in
            guard let info, TruncationGuard.zeroPage(at: UInt(bitPattern: info.pointee._sifields._sigfault.si_addr)) else {
                // Not a guarded mapping: the faulting access runs again under the previous action.
                sigaction(SIGBUS, TruncationGuard.previous, nil)
                return
            }
        }
        action.sa_flags = SA_SIGINFO
        sigemptyset(&action.sa_mask)
        return sigaction(SIGBUS, &action, previous) == 0
    }()

    /// Guards `range` (a mapping's addresses): the slot to pass to `release` and `isDamaged`, or nil.
    static func register(_ range: Range<UInt>) -> Int? {
        guard installed, range.lowerBound != 0 else { return nil }
        for slot in 0..<capacity {
            if slots[slot * 3].compareExchange(expected: 0, desired: range.lowerBound, ordering: .acquiringAndReleasing).exchanged {
                slots[slot * 3 + 2].store(0, ordering: .releasing)
                slots[slot * 3 + 1].store(range.upperBound, ordering: .releasing)
                return slot
            }
        }
        return nil
    }

    /// Frees a slot; the mapping must be unmapped after this, never before.
    static func release(_ slot: Int) {
        slots[slot * 3 + 1].store(0, ordering: .releasing)
        slots[slot * 3].store(0, ordering: .releasing)
    }

    /// Whether a read of the slot's mapping met a page past the file's end.
    static func isDamaged(_ slot: Int) -> Bool {
        slots[slot * 3 + 2].load(ordering: .acquiring) != 0
    }

    /// Called from the signal handler: only atomics and one mmap(2).
    private static func zeroPage(at address: UInt) -> Bool {
        for slot in 0..<capacity {
            let start = slots[slot * 3].load(ordering: .acquiring)
            let end = slots[slot * 3 + 1].load(ordering: .acquiring)
            guard start != 0, address >= start, address < end else { continue }
            let page = pageSize
            let zeros = mmap(UnsafeMutableRawPointer(bitPattern: address & ~(page - 1)), Int(page), PROT_READ,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0)
            guard zeros != MAP_FAILED else { return false }
            slots[slot * 3 + 2].store(1, ordering: .releasing)
            return true
        }
        return false
    }
}
