import AssetCore

extension USDANumericArrayScanner {
    /// How one array kind is parsed and laid out; a protocol rather than a closure so each kind
    /// gets its own specialised, inlined loop.
    protocol NumberKind: SendableMetatype {
        /// What the array holds.
        associatedtype Element: Sendable, BitwiseCopyable
        /// What one number parses to.
        associatedtype Number: BitwiseCopyable
        /// Bare numbers only, no groups (`int[]`, `float[]`).
        static var scalarsOnly: Bool { get }
        /// For vector kinds, the numbers in every group (each group is one element); 0 for flat
        /// kinds, whose elements are stored number after number and may be groups of any size.
        static var groupSize: Int { get }
        /// Numbers an element takes in memory: `SIMD3<Float>` keeps a fourth lane, written as
        /// `padding`. 1 for flat kinds.
        static var lanes: Int { get }
        static var padding: Number { get }
        static func parse(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Number?
    }

    enum Doubles: NumberKind {
        typealias Element = Double
        @inline(__always) static func parse(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Double? {
            DecimalNumberParser.parseDouble(p, &i)
        }
    }

    enum Int32s: NumberKind {
        typealias Element = Int32
        static var scalarsOnly: Bool { true }
        @inline(__always) static func parse(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Int32? {
            DecimalNumberParser.parseInt32(p, &i)
        }
    }

    /// `float[]` and its kin, scalars.
    enum Floats: SinglePrecisionKind {
        typealias Element = Float
        static var scalarsOnly: Bool { true }
    }

    /// `texCoord2f[]`, `float2[]`: pairs straight into the `SIMD2<Float>` a mesh keeps.
    enum FloatPairs: SinglePrecisionKind {
        typealias Element = SIMD2<Float>
        static var groupSize: Int { 2 }
        static var lanes: Int { 2 }
    }

    /// `point3f[]`, `normal3f[]`, `color3f[]`...: triples straight into `SIMD3<Float>`.
    enum FloatTriples: SinglePrecisionKind {
        typealias Element = SIMD3<Float>
        static var groupSize: Int { 3 }
        static var lanes: Int { 4 }
    }
}

/// Flat kinds of groups of any size unless they say otherwise.
extension USDANumericArrayScanner.NumberKind {
    static var scalarsOnly: Bool { false }
    static var groupSize: Int { 0 }
    static var lanes: Int { 1 }
}

extension USDANumericArrayScanner.NumberKind where Number: ExpressibleByIntegerLiteral {
    static var padding: Number { 0 }
}

/// Single-precision numbers as OpenUSD's text reader makes them: the correctly rounded Double of
/// the text, narrowed to Float (not the Float nearest the text, which differs when that Double
/// lies halfway between two Floats). So values are the ones the Double path gave once the scene
/// converted them.
protocol SinglePrecisionKind: USDANumericArrayScanner.NumberKind where Number == Float {}

extension SinglePrecisionKind {
    @inline(__always) static func parse(_ p: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Float? {
        guard let d = DecimalNumberParser.parseDouble(p, &i) else { return nil }
        return Float(d)
    }
}
