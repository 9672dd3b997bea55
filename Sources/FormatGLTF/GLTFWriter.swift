import AssetCore
import Foundation

/// glTF 2.0, as `.gltf` (JSON) with a `.bin` buffer and textures beside it, or as one `.glb`
/// with the textures embedded. Triangles only, Y up, metres (the converter makes the scene so);
/// metallic-roughness materials; texture coordinates flipped to glTF's top-left origin;
/// accessors with min/max for positions; buffer views 4-byte aligned.
public struct GLTFWriter: SceneWriter {
    public let format: AssetFormat
    public let requirements = WriterRequirements(triangles: true, upAxis: .y, metersPerUnit: 1, keepsCurves: true, affineTransforms: true,
                                                   keepsAnimation: true, keepsMaterialAnimation: true, keepsTextureTransforms: true, keepsMaterialVariants: true,
                                                   keepsSplats: true)
    let binary: Bool

    public static let gltf = GLTFWriter(binary: false)
    public static let glb = GLTFWriter(binary: true)

    init(binary: Bool) {
        self.binary = binary
        format = binary
            ? .glb   // textures embedded
            : .gltf  // JSON with a .bin and texture files beside it
    }

    public func write(_ scene: Scene, context: WriteContext) throws(AssetError) -> WriteResult {
        var builder = GLTFBuilder(scene: scene, binary: binary, context: context)
        builder.build()
        var document = builder.document
        var files: [OutputFile] = []
        let binName = "\(context.outputStem).bin"
        switch context.meshCompression {
        case .none:
            document.buffers = [GLTFDocument.Buffer(byteLength: builder.buffer.count, uri: binary ? nil : binName)]
        case .meshopt(let positionBits, let attributeBits):
            builder.buffer = GLTFMeshoptEncoder.compress(&document, buffer: builder.buffer.bytes, positionBits: positionBits, attributeBits: attributeBits)
            document.buffers[0].uri = binary ? nil : binName
        case .draco(let positionBits, let normalBits, let texcoordBits, let genericBits):
            var encoder = GLTFDracoEncoder(positionBits: positionBits, normalBits: normalBits, texcoordBits: texcoordBits, genericBits: genericBits)
            builder.buffer = try encoder.compress(&document, buffer: builder.buffer.bytes, diagnostics: &builder.diagnostics)
            document.buffers[0].uri = binary ? nil : binName
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = binary ? [.sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let json: [UInt8]
        do { json = Array(try encoder.encode(document)) } catch {
            throw AssetError(.malformed("cannot encode glTF JSON: \(error)"))  // only non-finite numbers can fail, and none are written
        }
        if binary {
            var jsonChunk = ByteWriter()
            jsonChunk.append(json)
            jsonChunk.pad(to: 4, with: 0x20)  // the JSON chunk pads with spaces
            // The binary chunk stays where the builder wrote it, and the header and JSON go in front:
            // copying a mesh's buffer into a new file-sized array would be one more pass over fresh memory.
            var binChunk = builder.buffer
            builder.buffer = ByteWriter()
            binChunk.pad(to: 4)
            var head = ByteWriter(capacity: 28 + jsonChunk.count)
            head.u32(0x4654_6C67)  // "glTF"
            head.u32(2)
            head.u32(UInt32(12 + 8 + jsonChunk.count + 8 + binChunk.count))
            head.u32(UInt32(jsonChunk.count)); head.u32(0x4E4F_534A)  // "JSON"
            head.append(jsonChunk.bytes)
            head.u32(UInt32(binChunk.count)); head.u32(0x004E_4942)  // "BIN\0"
            binChunk.prepend(head.bytes)
            files.append(OutputFile(relativePath: context.outputName, bytes: binChunk.bytes))
        } else {
            files.append(OutputFile(relativePath: context.outputName, bytes: json))
            files.append(OutputFile(relativePath: binName, bytes: builder.buffer.bytes))
            files += builder.textureFiles
        }
        var warnings = builder.diagnostics
        if let ambient = builder.ambientLightsWarning { warnings.append(ambient) }
        warnings += scene.droppedContentWarnings(format: "glTF", keepsMaterials: true, keepsTexcoordSets: Int.max,
                                                 keepsNormals: true, keepsColors: true, keepsCamerasAndLights: true)
        return WriteResult(files: files, diagnostics: warnings)
    }
}
