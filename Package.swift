// swift-tools-version: 6.0
// The target graph below is the architecture of Docs/Architecture.md: data flows one way,
// bytes -> format document -> Scene -> (writer | renderer | catalog record).
// Format modules import AssetCore and their own C shim, never each other.
import PackageDescription

let package = Package(
    name: "assetc",
    // macOS 15 for the standard library's Synchronization.Mutex (on Linux it is always there).
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "assetc", targets: ["assetc"]),
        .library(name: "AssetKit", targets: ["AssetKit"]),
        .library(name: "AssetCore", targets: ["AssetCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // S3: HTTP with a shared connection pool, and HMAC-SHA256 for SigV4. swift-crypto is in the
        // executable already (postgres-nio's SCRAM), so signing with it builds nothing more.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    ],
    targets: [
        // C libraries from Debian's -dev packages (installed by Scripts/setup).
        //
        // Those whose -dev package ships a static archive and whose headers need no include path
        // of their own (PNG, WebP, TurboJPEG, stb, LZ4, and draco below) are linked from that
        // archive: their module maps name it (`link ":libpng16.a"`) and they have no pkgConfig,
        // whose `-lpng16` would add the shared library back. Every shared library costs process
        // start its loading and symbol binding: measured on the release binary, these six took
        // 1.5-2.3 ms of the 10-11.5 ms an `assetc info` of a tiny file took (`perf stat -r 30`,
        // three alternating rounds). libxml2 (its include path comes from pkg-config),
        // libzip and libmeshoptimizer (no archive), libcrypto and zlib (libzip loads them anyway)
        // and GRDB's SQLite stay shared.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CLibZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CPNG", providers: [.apt(["libpng-dev"])]),
        .systemLibrary(name: "CMeshOptimizer", providers: [.apt(["libmeshoptimizer-dev"])]),
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        .systemLibrary(name: "CTurboJPEG", providers: [.apt(["libturbojpeg0-dev"])]),
        .systemLibrary(name: "CSTBImage", providers: [.apt(["libstb-dev"])]),
        .systemLibrary(name: "COpenEXRCore", providers: [.apt(["libopenexr-dev"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"])]),
        .systemLibrary(name: "CLZ4", providers: [.apt(["liblz4-dev"])]),
        .systemLibrary(name: "CZstd", providers: [.apt(["libzstd-dev"])]),
        .systemLibrary(name: "CDeflate", providers: [.apt(["libdeflate-dev"])]),
        // OpenSSL's libcrypto for content hashes: the system's copy costs no build time, where
        // swift-crypto compiled BoringSSL from source.
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),

        // The scene model, math, diagnostics and the reader/writer protocols. Imports nothing of ours
        // (Scripts/check-imports holds every arrow drawn in Docs/Architecture.md).
        .target(name: "AssetCore"),

        // USD: usda text and usdc crate layers (LZ4 sections), usdz packages (libzip), composition,
        // scene building; writing builds one layer document, printed as usda or encoded as usdc.
        .target(name: "FormatUSD", dependencies: ["AssetCore", "CLibZip", "CZlib", "CLZ4", "CLibXML2"]),

        // Collada: libxml2 SAX into a Collada-shaped document, then scene building.
        .target(name: "FormatCollada", dependencies: ["AssetCore", "CLibXML2"]),

        // glTF/GLB, OBJ, STL and PLY: readers and writers, each its own module; FBX: a reader.
        // libdraco's API is C++: a small C++ target gives FormatGLTF a C interface to it.
        .target(name: "CDracoBridge", linkerSettings: [.linkedLibrary(":libdraco.a")]),
        .target(name: "FormatGLTF", dependencies: ["AssetCore", "AssetImage", "CMeshOptimizer", "CDracoBridge"]),
        .target(name: "FormatOBJ", dependencies: ["AssetCore"]),
        .target(name: "FormatSTL", dependencies: ["AssetCore"]),
        .target(name: "FormatPLY", dependencies: ["AssetCore"]),
        .target(name: "FormatSPZ", dependencies: ["AssetCore", "CZlib", "CZstd"]),
        .target(name: "FormatFBX", dependencies: ["AssetCore", "CZlib", "CDeflate"]),

        // Format registry and scene passes; the only module that knows every format module.
        .target(name: "AssetPipeline", dependencies: [
            "AssetCore", "FormatUSD", "FormatCollada", "FormatGLTF", "FormatOBJ", "FormatSTL", "FormatPLY", "FormatSPZ", "FormatFBX", "AssetImage", "CMeshOptimizer",
        ]),

        // Validation: OpenUSD's ARKit rules over the layer, package and prim facts a USD read records, and the
        // Khronos glTF checks over the raw JSON and buffers (FormatGLTF resolves their URIs and decodes Draco and meshopt).
        .target(name: "AssetValidate", dependencies: ["AssetCore", "FormatUSD", "FormatGLTF"]),

        // Images: PNG, JPEG, WebP, TIFF, DDS and stb's legacy decoders and the encoders, the resampler,
        // sRGB, and HDR environments (Radiance, OpenEXR). The renderer and the converter share it.
        .target(name: "AssetImage", dependencies: ["AssetCore", "CPNG", "CDeflate", "CTurboJPEG", "CWebP", "CSTBImage", "COpenEXRCore", "CTIFF"]),

        // The CPU renderer: imports AssetCore and AssetImage only.
        // The renderer's built-in studio and split-sum tables, computed ahead of time (Scripts/generate-studio-tables).
        .target(name: "CStudioTables"),
        .target(name: "AssetRender", dependencies: ["AssetCore", "AssetImage", "CStudioTables"]),

        // Where bytes live, as the use cases see it: the `ObjectStore` protocol, object keys that
        // cannot leave their prefix, the local file system's store, and bucket objects staged for
        // the readers. Pure Swift over AssetCore, so AssetKit can take a store without SwiftNIO.
        .target(name: "AssetStorage", dependencies: ["AssetCore"]),
        // S3-compatible object storage behind `ObjectStore`: SigV4, credentials as the AWS tools
        // read them, and a client on async-http-client. Only the executable links it (like the
        // catalog engines), so the AssetKit library stays free of SwiftNIO.
        .target(name: "StorageS3", dependencies: [
            "AssetStorage", "AssetCore", "CLibXML2",
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "Crypto", package: "swift-crypto"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),

        // The catalog as the use cases see it: the `Catalog` protocol, plain Codable records, the
        // query language and thumbnail jobs, in pure Swift. Imports AssetCore only.
        .target(name: "AssetCatalog", dependencies: ["AssetCore"]),
        // The two engines behind it, each a target of its own so that only the executables link them.
        .target(name: "CatalogSQLite", dependencies: [
            "AssetCatalog", "AssetCore", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .target(name: "CatalogPostgres", dependencies: [
            "AssetCatalog", "AssetCore", .product(name: "PostgresNIO", package: "postgres-nio"),
        ]),
        // The one factory that turns a `--db` value into an engine; only executables (and the test
        // support that opens catalogs on both engines) depend on it.
        .target(name: "CatalogEngines", dependencies: ["AssetCatalog", "AssetCore", "CatalogSQLite", "CatalogPostgres"]),

        // Use cases shared by the CLI and the service: the only way either reaches the pipeline,
        // the renderer and validation. It depends on the catalog protocol, never on an engine, so
        // a package using AssetKit links neither GRDB nor SwiftNIO (Scripts/check-imports checks).
        .target(name: "AssetKit", dependencies: ["AssetCore", "AssetImage", "AssetPipeline", "AssetRender", "AssetCatalog", "AssetValidate", "AssetStorage", "CLibCrypto"]),

        // The HTTP catalog: JSON API and HTML gallery on Hummingbird. It reaches assetc's work
        // through AssetKit (which re-exports AssetCore's value types, AssetStorage's stores and the
        // renderer's look) and the catalog protocol only.
        .target(name: "AssetService", dependencies: [
            "AssetKit", "AssetCatalog",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "Logging", package: "swift-log"),
        ]),

        // The CLI: use cases through AssetKit; the engines through CatalogEngines' factory;
        // AssetCore, AssetRender, AssetCatalog and AssetValidate only for the value types its options and results are made of.
        .executableTarget(
            name: "assetc",
            dependencies: [
                "AssetKit", "AssetCore", "AssetRender", "AssetCatalog", "AssetValidate", "AssetService", "CatalogEngines",
                "AssetStorage", "StorageS3",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // Process start is a tenth of validating a folder of small packages. The Swift runtime's
            // backtracer asks dladdr about itself at start, which walks every exported symbol (49,000
            // with the default --export-dynamic; nothing loads plugins into assetc, so none need to
            // be); packed relative relocations (lld) shrink the 168,000 the loader applies. Measured:
            // `--version` 11-13.5 ms before, 10.4-11 ms after (100 runs each, alternating).
            linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                                           "-Xlinker", "--no-export-dynamic"], .when(configuration: .release))]
        ),

        // Helpers every test target shares (temporary folders that clean up after themselves).
        .target(name: "AssetTestSupport", path: "Tests/TestSupport"),

        // Empty catalogs on either engine, for the catalog and service suites that run on both.
        .target(name: "CatalogTestSupport", dependencies: [
            "AssetCatalog", "CatalogSQLite", "CatalogEngines", .product(name: "GRDB", package: "GRDB.swift"),
        ], path: "Tests/CatalogTestSupport"),

        .testTarget(name: "AssetCoreTests", dependencies: ["AssetCore", "AssetTestSupport"]),
        // Fixtures live in Tests/Fixtures/<format>/ and are found from #filePath.
        .testTarget(name: "FormatUSDTests", dependencies: ["FormatUSD", "AssetCore", "AssetTestSupport"]),
        .testTarget(name: "FormatColladaTests", dependencies: ["FormatCollada", "AssetCore", "AssetTestSupport"]),
        .testTarget(name: "FormatGLTFTests", dependencies: ["FormatGLTF", "AssetCore", "AssetTestSupport"]),
        .testTarget(name: "FormatOBJTests", dependencies: ["FormatOBJ", "AssetCore", "AssetTestSupport"]),
        .testTarget(name: "FormatSTLTests", dependencies: ["FormatSTL", "AssetCore", "AssetTestSupport"]),
        .testTarget(name: "FormatPLYTests", dependencies: ["FormatPLY", "AssetCore", "AssetTestSupport"]),
        .testTarget(name: "FormatSPZTests", dependencies: ["FormatSPZ", "AssetCore", "AssetTestSupport"]),
        .testTarget(name: "FormatFBXTests", dependencies: ["FormatFBX", "AssetCore", "AssetTestSupport"]),
        .testTarget(name: "AssetPipelineTests", dependencies: ["AssetPipeline", "AssetCore", "FormatUSD", "FormatGLTF", "AssetTestSupport"]),
        .testTarget(name: "AssetValidateTests", dependencies: ["AssetValidate", "AssetCore", "FormatUSD", "AssetTestSupport"]),
        .testTarget(name: "AssetKitTests", dependencies: ["AssetKit", "AssetCore", "AssetTestSupport"]),
        .testTarget(name: "AssetStorageTests", dependencies: ["AssetStorage", "AssetCore", "StorageS3", "FormatUSD", "AssetTestSupport"]),
        .testTarget(name: "AssetRenderTests", dependencies: ["AssetRender", "AssetImage", "AssetCore", "AssetKit", "AssetPipeline", "CSTBImage"]),
        .testTarget(name: "AssetCatalogTests", dependencies: [
            "AssetCatalog", "AssetCore", "AssetKit", "AssetTestSupport", "CatalogTestSupport",
        ]),
        .testTarget(name: "CatalogSQLiteTests", dependencies: [
            "CatalogSQLite", "AssetCatalog", "AssetCore", "AssetTestSupport", .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // What a package that depends on the AssetKit library alone gets: convert and validate with
        // no catalog engine in the build (it names AssetKit and nothing else).
        .testTarget(name: "AssetKitLibraryTests", dependencies: ["AssetKit"]),
        // Against a live server on loopback through Foundation's URLSession: HummingbirdTesting
        // would bring AsyncHTTPClient and a second BoringSSL into every test build.
        .testTarget(name: "AssetServiceTests", dependencies: [
            "AssetService", "AssetCatalog", "AssetKit", "AssetCore", "AssetRender", "AssetImage", "AssetTestSupport", "CatalogTestSupport",
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        // Runs the built `assetc` binary as a user would; depends on it so `swift test` builds it.
        .testTarget(name: "AssetcCLITests", dependencies: ["assetc", "AssetTestSupport"]),
    ]
)

// The libFuzzer targets, one per reader of untrusted bytes, exist only when Scripts/fuzz builds
// them (ASSETC_FUZZ=1): they have no main, so ordinary builds and `swift test` must not link them.
if Context.environment["ASSETC_FUZZ"] != nil {
    // What every file-reading target does with an input (limits, a temporary file, the read).
    package.targets.append(.target(name: "FuzzSupport", dependencies: ["AssetCore"], path: "Fuzz/FuzzSupport"))
    for (name, dependencies) in [("FuzzCrateReader", ["FormatUSD", "AssetCore"]), ("FuzzUSDAParser", ["FormatUSD", "AssetCore"]),
                                 ("FuzzUSDZPackage", ["FormatUSD", "AssetCore"]), ("FuzzUSDStage", ["FormatUSD", "AssetCore", "FuzzSupport"]), ("FuzzColladaReader", ["FormatCollada", "AssetCore", "FuzzSupport"]),
                                 ("FuzzCatalogQuery", ["AssetCatalog", "AssetCore"]), ("FuzzGLTFReader", ["FormatGLTF", "AssetCore", "FuzzSupport"]),
                                 ("FuzzGLTFValidator", ["AssetValidate", "AssetCore", "FuzzSupport"]),
                                 ("FuzzOBJReader", ["FormatOBJ", "AssetCore", "FuzzSupport"]), ("FuzzSTLReader", ["FormatSTL", "AssetCore", "FuzzSupport"]),
                                 ("FuzzPLYReader", ["FormatPLY", "AssetCore", "FuzzSupport"]),
                                 ("FuzzSPZReader", ["FormatSPZ", "AssetCore", "FuzzSupport"]),
                                 ("FuzzFBXReader", ["FormatFBX", "AssetCore", "FuzzSupport"]), ("FuzzLegacyImage", ["AssetImage", "AssetCore"]),
                                 ("FuzzEnvironment", ["AssetImage", "AssetRender", "AssetCore"]), ("FuzzTextureImage", ["AssetImage", "AssetCore"]),
                                 ("FuzzMaterialXLayer", ["FormatUSD", "AssetCore"]), ("FuzzS3Response", ["StorageS3", "AssetCore"]),
                                 ("FuzzRenderBudget", ["FormatCollada", "AssetRender", "AssetCore", "FuzzSupport"])] {
        package.targets.append(.executableTarget(name: name, dependencies: dependencies.map { .target(name: $0) }, path: "Fuzz/\(name)"))
    }
}
