import AssetCore
import AssetStorage
import Testing

struct ObjectKeyTests {
    @Test func plainRelativeKeysPass() {
        for key in ["a.usdz", "library/ships/ship.dae", "caf\u{e9}/x.png", "cafe\u{301}/x.png", "a b+c&d=e.obj", "..hidden.usda", "a/.b/c"] {
            #expect(ObjectKey.problem(key) == nil, "\(key)")
        }
    }

    @Test func keysThatCouldLeaveTheirPrefixAreRefused() {
        let refused = ["", "/etc/passwd", "../x", "a/../../x", "a/./b", "a//b", "a/", "x\u{0}y", "tab\there", "del\u{7F}",
                       String(repeating: "k", count: 1025)]
        for key in refused {
            #expect(ObjectKey.problem(key) != nil, "\(ObjectKey.printable(key))")
        }
        #expect(ObjectKey.problem(String(repeating: "k", count: 1024)) == nil)
    }

    @Test func printableShowsControlCharactersAndCutsLongKeys() {
        #expect(ObjectKey.printable("a\nb") == "a\\u{a}b")
        #expect(ObjectKey.printable(String(repeating: "x", count: 300)).count == 201)
    }

    @Test func checkedLocatesTheRefusal() throws {
        #expect(throws: AssetError.self) { try ObjectKey.checked("../x", in: "s3://b/p") }
        do { _ = try ObjectKey.checked("../x", in: "s3://b/p") } catch {
            #expect(error.location.file == "s3://b/p/../x")
            guard case .refusedPath = error.kind else { Issue.record("not refusedPath: \(error)"); return }
        }
    }
}

struct StorageLocationTests {
    @Test func bucketsAndPrefixes() throws {
        #expect(try StorageLocation.parse("lib/folder") == .local("lib/folder"))
        #expect(try StorageLocation.parse("s3://assets") == .bucket(.init(bucket: "assets", prefix: "")))
        #expect(try StorageLocation.parse("s3://assets/library/") == .bucket(.init(bucket: "assets", prefix: "library")))
        #expect(try StorageLocation.parse("s3://my.assets-1/a/b?path_style=1") == .bucket(.init(bucket: "my.assets-1", prefix: "a/b", pathStyle: true)))
        guard case .bucket(let address) = try StorageLocation.parse("s3://assets/library/ships") else { Issue.record("not a bucket"); return }
        #expect(address.name == "ships")
        #expect(address.description == "s3://assets/library/ships")
    }

    @Test func badLocationsAreErrors() {
        for text in ["s3://", "s3://A_B/x", "s3://ab/x", "s3://assets/../x", "s3://assets/a//b", "s3://assets/x?region=eu"] {
            #expect(throws: AssetError.self, "\(text)") { try StorageLocation.parse(text) }
        }
    }
}
