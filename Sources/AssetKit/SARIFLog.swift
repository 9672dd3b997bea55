import AssetCore
import AssetValidate

/// `validate --sarif`: a SARIF 2.1.0 log (OASIS, sarif-v2.1.0), the format GitHub code scanning
/// turns into annotations on a pull request. One run, the ARKit rules as its rule metadata.
public struct SARIFLog: Encodable {
    /// The rule id a file that could not be read at all is reported under.
    static let readFailureRule = "assetc.unreadable"

    struct Run: Encodable {
        var tool: Tool
        var results: [Result]
    }

    struct Tool: Encodable {
        var driver: Driver
    }

    struct Driver: Encodable {
        var name = "assetc"
        var version = AssetcVersion.current
        var informationUri = "https://openusd.org/release/toolset.html#usdchecker"
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var properties: [String: [String]]
    }

    struct Text: Encodable {
        var text: String
    }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int
        var level: String
        var message: Text
        var locations: [Location]
    }

    struct Location: Encodable {
        var physicalLocation: PhysicalLocation
        var logicalLocations: [LogicalLocation]?
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region?
    }

    struct ArtifactLocation: Encodable {
        var uri: String
    }

    struct Region: Encodable {
        var startLine: Int
    }

    struct LogicalLocation: Encodable {
        var fullyQualifiedName: String
    }

    let version = "2.1.0"
    var runs: [Run]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode("https://json.schemastore.org/sarif-2.1.0.json", forKey: .schema)
        try container.encode(version, forKey: .version)
        try container.encode(runs, forKey: .runs)
    }

    public init(_ outcomes: [ValidateUseCase.Outcome]) {
        var rules = ARKitRule.allCases.map {
            Rule(id: $0.rawValue, name: $0.rawValue, shortDescription: Text(text: $0.summary), properties: ["validators": $0.validators])
        }
        rules += GLTFIssue.all.filter(\.checked).map {
            Rule(id: $0.code, name: $0.code, shortDescription: Text(text: $0.summary), properties: ["validators": ["KhronosGroup/glTF-Validator"]])
        }
        rules.append(Rule(id: Self.readFailureRule, name: "Unreadable", shortDescription: Text(text: "The file could not be read as a USD stage or a glTF asset."),
                          properties: [:]))
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.id, $0) })
        var results: [Result] = []
        for outcome in outcomes {
            switch outcome {
            case .report(let report):
                for finding in report.findings {
                    results.append(Result(ruleId: finding.rule, ruleIndex: index[finding.rule] ?? 0, level: Self.level(finding.severity),
                                          message: Text(text: finding.message), locations: [Self.location(finding.location, file: report.file)]))
                }
            case .failed(let file, let error):
                results.append(Result(ruleId: Self.readFailureRule, ruleIndex: index[Self.readFailureRule]!, level: "error",
                                      message: Text(text: error.message), locations: [Self.location(error.location, file: file)]))
            }
        }
        runs = [Run(tool: Tool(driver: Driver(rules: rules)), results: results)]
    }

    /// SARIF's levels: glTF's information and hints are notes.
    static func level(_ severity: ValidationFinding.Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .info, .hint: return "note"
        }
    }

    /// A package entry (`a.usdz[b.usda]`) points at the package on disk, with no line: lines in an
    /// entry are not lines of the zip. The prim or property path goes in a logical location.
    static func location(_ location: SourceLocation, file: String) -> Location {
        let written = location.file ?? file
        let onDisk = written.firstIndex(of: "[").map { String(written[..<$0]) } ?? written
        let region = onDisk == written ? location.line.map(Region.init) : nil
        return Location(physicalLocation: PhysicalLocation(artifactLocation: ArtifactLocation(uri: onDisk), region: region),
                        logicalLocations: location.elementPath.map { [LogicalLocation(fullyQualifiedName: $0)] })
    }
}
