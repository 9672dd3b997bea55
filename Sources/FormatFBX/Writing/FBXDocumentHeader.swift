/// The records around a file's objects: `FBXHeaderExtension`, `FileId`, `CreationTime`, `Creator`,
/// `GlobalSettings`, `Documents`, `References`, `Definitions`, and `Takes` after the connections.
/// The identifier and creation time are fixed, as Blender and assimp write them, so the same scene
/// always gives the same bytes.
struct FBXDocumentHeader {
    /// metres per unit x 100: FBX's unit is centimetres per unit.
    var unitScaleFactor: Double
    var creator: String
    var frameRate: Double
    /// The span of every clip, in FBX ticks, and the name of the first stack.
    var timeSpan: (start: Int64, stop: Int64)
    var activeStack: String

    static let fileID: [UInt8] = [0x28, 0xB3, 0x2A, 0xEB, 0xB6, 0x24, 0xCC, 0xC2, 0xBF, 0xC8, 0xB0, 0x2A, 0xA9, 0x2B, 0xFC, 0xF1]
    static let creationTime = "1970-01-01 10:00:00:000"

    var leading: [FBXRecord] {
        let stamp = FBXRecord("CreationTimeStamp", children: [
            FBXRecord("Version", .int32(1000)), FBXRecord("Year", .int32(1970)), FBXRecord("Month", .int32(1)), FBXRecord("Day", .int32(1)),
            FBXRecord("Hour", .int32(10)), FBXRecord("Minute", .int32(0)), FBXRecord("Second", .int32(0)), FBXRecord("Millisecond", .int32(0)),
        ])
        var info = FBXProperties70()
        info.compound("Original")
        info.string("Original|ApplicationVendor", "assetc")
        info.string("Original|ApplicationName", "assetc")
        info.compound("LastSaved")
        info.string("LastSaved|ApplicationVendor", "assetc")
        info.string("LastSaved|ApplicationName", "assetc")
        let sceneInfo = FBXRecord("SceneInfo", FBXRecord.objectName("GlobalInfo", "SceneInfo"), .string("UserData"), children: [
            FBXRecord("Type", .string("UserData")), FBXRecord("Version", .int32(100)),
            FBXRecord("MetaData", children: [FBXRecord("Version", .int32(100))] + ["Title", "Subject", "Author", "Keywords", "Revision", "Comment"].map {
                FBXRecord($0, .string(""))
            }),
            info.record,
        ])
        let header = FBXRecord("FBXHeaderExtension", children: [
            FBXRecord("FBXHeaderVersion", .int32(1003)), FBXRecord("FBXVersion", .int32(7400)), FBXRecord("EncryptionType", .int32(0)),
            stamp, FBXRecord("Creator", .string(creator)), sceneInfo,
        ])
        return [header, FBXRecord("FileId", .raw(Self.fileID)), FBXRecord("CreationTime", .string(Self.creationTime)),
                FBXRecord("Creator", .string(creator)), globalSettings, documents, FBXRecord("References")]
    }

    /// Y up, right-handed (UpAxis 1, FrontAxis 2, CoordAxis 0, all positive): the one combination
    /// Blender's importer does not read as Z up, and what Unity, Unreal and Godot expect.
    private var globalSettings: FBXRecord {
        var p = FBXProperties70()
        p.int("UpAxis", 1); p.int("UpAxisSign", 1)
        p.int("FrontAxis", 2); p.int("FrontAxisSign", 1)
        p.int("CoordAxis", 0); p.int("CoordAxisSign", 1)
        p.int("OriginalUpAxis", 1); p.int("OriginalUpAxisSign", 1)
        p.double("UnitScaleFactor", unitScaleFactor)
        p.double("OriginalUnitScaleFactor", unitScaleFactor)
        p.colorRGB("AmbientColor", .zero)
        p.string("DefaultCamera", "Producer Perspective")
        let (mode, rate) = Self.timeMode(frameRate)
        p.enumeration("TimeMode", mode)
        p.time("TimeSpanStart", timeSpan.start)
        p.time("TimeSpanStop", timeSpan.stop)
        p.double("CustomFrameRate", rate)
        return FBXRecord("GlobalSettings", children: [FBXRecord("Version", .int32(1000)), p.record])
    }

    /// FBX's time modes for the common rates; anything else is custom (14) with its rate.
    static func timeMode(_ rate: Double) -> (Int, Double) {
        let modes: [(Double, Int)] = [(120, 1), (100, 2), (60, 3), (50, 4), (48, 5), (30, 6), (25, 10), (24, 11), (96, 15), (72, 16)]
        if let known = modes.first(where: { abs($0.0 - rate) < 1e-9 }) { return (known.1, rate) }
        return (14, rate)
    }

    private var documents: FBXRecord {
        var p = FBXProperties70()
        p.object("SourceObject")
        p.string("ActiveAnimStackName", activeStack)
        return FBXRecord("Documents", children: [
            FBXRecord("Count", .int32(1)),
            FBXRecord("Document", .int64(1_000_000_000), .string("Scene"), .string("Scene"), children: [p.record, FBXRecord("RootNode", .int64(0))]),
        ])
    }

    /// `Definitions`: how many objects of each type the file holds. No property templates: every
    /// property an importer needs is written on the object itself.
    static func definitions(_ counts: [(type: String, count: Int)]) -> FBXRecord {
        let kinds = [("GlobalSettings", 1)] + counts.filter { $0.count > 0 }
        return FBXRecord("Definitions", children: [FBXRecord("Version", .int32(100)), FBXRecord("Count", .int32(Int32(kinds.reduce(0) { $0 + $1.1 })))]
                         + kinds.map { FBXRecord("ObjectType", .string($0.0), children: [FBXRecord("Count", .int32(Int32($0.1)))]) })
    }

    /// `Takes`: one take per stack with its span, as the SDK lists them beside the stacks.
    static func takes(_ stacks: [(name: String, start: Int64, stop: Int64)]) -> FBXRecord {
        FBXRecord("Takes", children: [FBXRecord("Current", .string(stacks.first?.name ?? ""))] + stacks.map { stack in
            FBXRecord("Take", .string(stack.name), children: [
                FBXRecord("FileName", .string(stack.name + ".tak")),
                FBXRecord("LocalTime", .int64(stack.start), .int64(stack.stop)),
                FBXRecord("ReferenceTime", .int64(stack.start), .int64(stack.stop)),
            ])
        })
    }
}
