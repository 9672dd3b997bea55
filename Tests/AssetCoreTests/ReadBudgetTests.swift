import Testing
@testable import AssetCore

@Suite struct ReadBudgetTests {
    @Test func spendingPastALimitFailsNamingTheLimitAndItsFlag() throws {
        let budget = ReadBudget(ReadLimits(maxMemoryBytes: 1000, maxWork: 100))
        try budget.spend(bytes: 600, for: "a table", at: SourceLocation(file: "a.usdc"))
        try budget.spend(work: 100, for: "an array", at: SourceLocation(file: "a.usdc"))
        #expect(budget.bytesSpent == 600 && budget.workSpent == 100)
        do {
            try budget.spend(bytes: 401, for: "the PATHS table", at: SourceLocation(file: "a.usdc", elementPath: "PATHS"))
            Issue.record("a charge past the memory limit was accepted")
        } catch {
            #expect(error.location.file == "a.usdc" && error.location.elementPath == "PATHS")
            #expect(error.message.contains("the PATHS table needs 401 bytes") && error.message.contains("--max-memory"))
        }
        do {
            try budget.spend(work: 1, for: "mesh /M", at: SourceLocation(file: "a.usda", line: 3))
            Issue.record("a charge past the work limit was accepted")
        } catch {
            #expect(error.message.contains("mesh /M: the read is past its work budget of 100 units"))
            #expect(error.message.contains("--max-work"))
        }
    }

    @Test func chargesFromFileClaimsSaturateInsteadOfTrapping() throws {
        let budget = ReadBudget(ReadLimits(maxWork: .max))
        #expect(throws: AssetError.self) { try budget.spend(bytes: .max, for: "x", at: SourceLocation()) }
        #expect(throws: AssetError.self) { try budget.spend(bytes: .max, for: "x", at: SourceLocation()) }
        #expect(budget.bytesSpent == .max)
        // Negative amounts (a corrupt count that slipped through) charge nothing rather than refund.
        try budget.spend(work: -5, for: "x", at: SourceLocation())
        #expect(budget.workSpent == 0)
    }

    @Test func byteSizesParseWithBinaryUnits() {
        #expect(ByteCount.parse("1048576") == 1 << 20)
        #expect(ByteCount.parse("512M") == 512 << 20)
        #expect(ByteCount.parse("4G") == 4 << 30)
        #expect(ByteCount.parse("1.5GiB") == 3 << 29)
        #expect(ByteCount.parse("300mb") == 300 << 20)
        for bad in ["", "G", "-1G", "0", "lots", "1e400", "9999999T"] { #expect(ByteCount.parse(bad) == nil, "\(bad)") }
        #expect(ByteCount.text(3 << 30) == "3 GiB")
        #expect(ByteCount.text(1536) == "1.5 KiB")
        #expect(ByteCount.text(12) == "12 bytes")
    }

    @Test func theDefaultMemoryBudgetIsHalfOfWhatTheProcessMayHave() {
        #expect(SystemMemory.available > 0)
        #expect(ReadLimits.defaultMemoryBytes == SystemMemory.available / 2)
    }
}
