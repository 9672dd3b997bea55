/// glTF mesh compression (`--compress`): EXT_meshopt_compression or KHR_draco_mesh_compression.
public enum MeshCompression: Sendable, Equatable {
    case none
    /// meshoptimizer's vertex and index codecs; floats keep `positionBits` and `attributeBits`
    /// bits of mantissa (its exponent filter), 23 for exact.
    case meshopt(positionBits: Int, attributeBits: Int)
    /// Draco's edgebreaker coder with its quantization bits per attribute kind.
    case draco(positionBits: Int, normalBits: Int, texcoordBits: Int, genericBits: Int)
}
