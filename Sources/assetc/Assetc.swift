import ArgumentParser
import AssetKit

@main
struct Assetc: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assetc",
        abstract: "Convert, validate, catalog and preview 3D assets headless on Linux: USD, Collada, glTF, OBJ, STL, PLY, SPZ and FBX.",
        discussion: """
            Reads USD (.usdz, .usda, .usdc), Collada (.dae), glTF (.gltf, .glb), OBJ, STL, PLY, SPZ and FBX; \
            writes USD (.usdz, .usda, .usdc), Collada, glTF, OBJ, STL, PLY, SPZ and FBX (binary 7.4). Skeletons, skins, blend shapes \
            and animation are carried between them, and Gaussian splats (3DGS PLY, SPZ, glTF \
            KHR_gaussian_splatting, USD ParticleField3DGaussianSplat) between the forms that hold them.

            convert turns any of them into any written format (many at once, within budgets); validate checks \
            USD against ARKit's rules and glTF against Khronos's; info reports figures; thumbnail renders \
            transparent PNGs on the CPU; index, query, search and show keep a catalog (SQLite, or PostgreSQL \
            for a team, with workers); serve browses it over HTTP; storage lists, copies and signs objects of \
            an S3-compatible bucket (s3://BUCKET/PREFIX works wherever a path does).

            Exit status: 0 success; 1 an asset could not be read (malformed, refused, over a limit); \
            2 unsupported format; 3 missing file or I/O error; 64 bad command line; 65 an --environment \
            image that does not decode or is over its budget; 75 a database or S3 store that does not \
            answer (try again later).
            """,
        version: AssetcVersion.current,
        subcommands: [InfoCommand.self, ConvertCommand.self, ValidateCommand.self, ThumbnailCommand.self, IndexCommand.self, QueryCommand.self, SearchCommand.self, ShowCommand.self, ServeCommand.self, WorkerCommand.self, JobsCommand.self, StorageCommand.self]
    )

    static func main() async {
        LocalTimeZone.pin()
        await main(nil)
    }
}
