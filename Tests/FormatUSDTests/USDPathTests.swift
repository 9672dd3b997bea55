import Testing
@testable import FormatUSD

@Suite struct USDPathTests {
    @Test func relativePathsBecomeAbsolute() {
        #expect(USDPath.absolute("/A/B", anchor: "/X") == "/A/B")
        #expect(USDPath.absolute("../Looks/M", anchor: "/World/Mesh") == "/World/Looks/M")
        #expect(USDPath.absolute("Child", anchor: "/World") == "/World/Child")
        #expect(USDPath.absolute(".outputs:rgb", anchor: "/M/Tex") == "/M/Tex.outputs:rgb")
        #expect(USDPath.absolute("../Tex.outputs:rgb", anchor: "/M/Surface") == "/M/Tex.outputs:rgb")
        #expect(USDPath.absolute("../../..", anchor: "/A") == nil)
    }

    @Test func propertyPathsSplit() {
        #expect(USDPath.primPath(of: "/M/Tex.outputs:rgb") == "/M/Tex")
        #expect(USDPath.propertyName(of: "/M/Tex.outputs:rgb") == "outputs:rgb")
        #expect(USDPath.propertyName(of: "/M/Tex") == nil)
    }

    @Test func mappingFollowsReferenceArcs() {
        let mapping = USDPathMapping.identity.adding(source: "/World/Chair", target: "/Room/ChairA")
            .adding(source: "/Chair", target: "/World/Chair")
        #expect(mapping.map("/Chair/Looks/Wood") == "/Room/ChairA/Looks/Wood")
        #expect(mapping.map("/Chair.outputs:x") == "/Room/ChairA.outputs:x")
        #expect(mapping.map("/Elsewhere") == nil)
        #expect(mapping.map("/ChairLeg") == nil, "a name that only starts like the source is not under it")
    }

    @Test func packagePathsStayInside() {
        #expect(PathArithmetic.normalizeBelow("geom/../textures/a.png") == "textures/a.png")
        #expect(PathArithmetic.normalizeBelow("../a.png") == nil)
        #expect(PathArithmetic.normalizeBelow("a/../../b") == nil)
        #expect(PathArithmetic.normalize("../models/./a.usda") == "../models/a.usda")
        #expect(PathArithmetic.normalize("/a/../../b") == nil)
        #expect(USDZArchive.isSafeEntryName("textures/a.png"))
        #expect(!USDZArchive.isSafeEntryName("../a.usda"))
        #expect(!USDZArchive.isSafeEntryName("/etc/passwd"))
        #expect(!USDZArchive.isSafeEntryName("C:/x.usda"))
        #expect(!USDZArchive.isSafeEntryName("a\\..\\b"))
        #expect(!USDZArchive.isSafeEntryName(""))
        #expect(!USDZArchive.isSafeEntryName("textures/../../a.png"))
        #expect(!USDZArchive.isSafeEntryName("a/.."))
        #expect(USDZArchive.isSafeEntryName("a/..b/c..d"))
        #expect(USDZArchive.isSafeEntryName("ü/ß.usda"))
    }
}
