import AssetCore
import Testing

/// Several clips on one timeline (what the USD writers lay down) split back into the same clips.
@Suite struct ClipTimelineTests {
    static let walk = AnimationClip(name: "walk", channels: [
        AnimationChannel(nodePath: "/Root", property: .translation, times: [1, 2, 3], values: [0, 0, 0, 1, 0, 0, 2, 0, 0]),
        AnimationChannel(nodePath: "/Root/Arm", property: .rotation, interpolation: .step, times: [1, 2], values: [0, 0, 0, 1, 0, 0, 1, 0]),
    ])
    static let wave = AnimationClip(name: "wave", channels: [
        AnimationChannel(nodePath: "/Root/Arm", property: .rotation, times: [0, 0.5], values: [0, 0, 0, 1, 0, 1, 0, 0]),
    ])

    @Test func clipsFollowEachOtherAGapApartAndSplitBack() throws {
        let (merged, timeline) = ClipTimeline.laidEndToEnd([Self.walk, Self.wave], gap: 1, rest: { _ in nil })
        #expect(timeline.spans == [ClipTimeline.Span(name: "walk", start: 1, end: 3, sourceStart: 1),
                                   ClipTimeline.Span(name: "wave", start: 4, end: 4.5, sourceStart: 0)])
        #expect(merged.channels.count == 2, "one channel per node property through every clip")
        let arm = try #require(merged.channels.first { $0.nodePath == "/Root/Arm" })
        #expect(arm.interpolation == .linear, "a step part beside a linear one is resampled to linear keys")
        #expect(arm.sample(at: 1.9) == [0, 0, 0, 1] && arm.sample(at: 4.5) == [0, 1, 0, 0])
        let split = timeline.split(merged)
        #expect(split.map(\.name) == ["walk", "wave"])
        #expect(split[0].timeRange == 1...3 && split[1].timeRange == 0...0.5)
        #expect(split[1].channels.map(\.nodePath) == ["/Root/Arm"], "walk's translation has no key in wave's span")
        #expect(split[0].channels[0] == Self.walk.channels[0], "keys come back at the times they had")
    }

    /// A clip that does not key a channel holds the rest value over its span, and the split leaves the hold out.
    @Test func aChannelHoldsItsRestWhereItsClipDoesNotKeyIt() throws {
        let rest: (AnimationChannel) -> [Float]? = { $0.property == .translation ? [0, 5, 0] : nil }
        let (merged, timeline) = ClipTimeline.laidEndToEnd([Self.walk, Self.wave], gap: 1, rest: rest)
        let root = try #require(merged.channels.first { $0.nodePath == "/Root" })
        #expect(root.sample(at: 4.25) == [0, 5, 0], "during wave the root stands where it rests, not where walk left it")
        #expect(timeline.split(merged)[1].channels.map(\.nodePath) == ["/Root/Arm"])
    }

    /// A clip's single key at its start, held to its end, is the clip's own channel, not a hold to leave out.
    @Test func aSingleKeyAtAClipsStartSurvivesTheSplit() throws {
        let pose = AnimationClip(name: "pose", channels: [
            AnimationChannel(nodePath: "/A", property: .translation, times: [0], values: [1, 2, 3]),
            AnimationChannel(nodePath: "/B", property: .translation, times: [0, 1], values: [0, 0, 0, 1, 0, 0]),
        ])
        let rest: (AnimationChannel) -> [Float]? = { _ in [1, 2, 3] }
        let (merged, timeline) = ClipTimeline.laidEndToEnd([Self.wave, pose], gap: 1, rest: rest)
        let split = timeline.split(merged)
        #expect(split[1].channels.map(\.nodePath).sorted() == ["/A", "/B"], "the pose keeps its one-key channel")
        #expect(split[0].channels.map(\.nodePath) == ["/Root/Arm"], "wave's rest holds are left out")
    }

    /// A clip's channel that starts after its clip does holds its first value from the span's start.
    @Test func aChannelCoversItsClipsWholeSpan() throws {
        let late = AnimationClip(name: "late", channels: [
            AnimationChannel(nodePath: "/A", property: .scale, times: [0, 2], values: [1, 1, 1, 2, 2, 2]),
            AnimationChannel(nodePath: "/B", property: .scale, times: [1, 2], values: [3, 3, 3, 4, 4, 4]),
        ])
        let (merged, _) = ClipTimeline.laidEndToEnd([late, Self.wave], gap: 1)
        let b = try #require(merged.channels.first { $0.nodePath == "/B" })
        #expect(b.times.first == 0 && b.sample(at: 0.5) == [3, 3, 3])
    }

    /// Material channels ride the timeline as node channels do: held at the material's constant where
    /// their clip is not playing, and split back to their own clip with their own times.
    @Test func materialChannelsAreLaidOutAndSplitBack() throws {
        var fade = Self.walk
        fade.materialChannels = [MaterialAnimationChannel(material: 0, input: .baseColor, times: [1, 3], values: [1, 0, 0, 0, 0, 1])]
        let paint = Material(name: "Paint", baseColor: .init(SIMD3(0.5, 0.5, 0.5)))
        let (merged, timeline) = ClipTimeline.laidEndToEnd([fade, Self.wave], gap: 1, materials: [paint])
        #expect(merged.channels.count == 2, "material channels are not node channels")
        let colour = try #require(merged.materialChannels.first)
        #expect(colour.sample(at: 2) == [0.5, 0, 0.5] && colour.sample(at: 4.25) == [0.5, 0.5, 0.5],
                "during wave the material holds its own colour")
        let split = timeline.split(merged)
        #expect(split[0].materialChannels == fade.materialChannels)
        #expect(split[1].materialChannels.isEmpty && split[1].channels.map(\.nodePath) == ["/Root/Arm"])
    }

    /// Posing sets each animated material input to its value at the time.
    @Test func posingSetsTheAnimatedMaterialInputs() throws {
        var scene = Scene(materials: [Material(name: "Paint"), Material(name: "Glass")])
        scene.animations = [AnimationClip(name: "fade", materialChannels: [
            MaterialAnimationChannel(material: 1, input: .opacity, interpolation: .step, times: [0, 1], values: [1, 0.25]),
            MaterialAnimationChannel(material: 0, input: .emissive, times: [0, 2], values: [0, 0, 0, 2, 4, 6]),
        ])]
        #expect(scene.animations[0].timeRange == 0...2, "material keys count toward the clip's length")
        let posed = scene.posed(at: 0.5)
        #expect(posed.materials[1].opacity.value == 1 && scene.posed(at: 1).materials[1].opacity.value == 0.25)
        #expect(posed.materials[0].emissive.value == SIMD3(0.5, 1, 1.5) && posed.animations.isEmpty)
        #expect(scene.stats.animatedMaterials == 2 && scene.stats.animatedNodes == 0)
    }

    /// Light channels ride the timeline too, holding the light's own value where their clip is not
    /// playing; posing sets the light's colour and intensity.
    @Test func lightChannelsAreLaidOutSplitBackAndPosed() throws {
        var dim = Self.walk
        dim.lightChannels = [LightAnimationChannel(light: 0, input: .intensity, times: [1, 3], values: [4, 2])]
        let sun = Light(name: "Sun", kind: .directional, color: SIMD3(1, 0.5, 0.25), intensity: 8)
        let (merged, timeline) = ClipTimeline.laidEndToEnd([dim, Self.wave], gap: 1, lights: [sun])
        let intensity = try #require(merged.lightChannels.first)
        #expect(merged.channels.count == 2 && merged.materialChannels.isEmpty, "light channels are not node or material channels")
        #expect(intensity.sample(at: 2) == [3] && intensity.sample(at: 4.25) == [8], "during wave the light holds its own intensity")
        let split = timeline.split(merged)
        #expect(split[0].lightChannels == dim.lightChannels && split[1].lightChannels.isEmpty)
        var scene = Scene(lights: [sun])
        scene.animations = [AnimationClip(name: "fade", lightChannels: [
            LightAnimationChannel(light: 0, input: .color, interpolation: .step, times: [0, 1], values: [1, 0, 0, 0, 0, 1]),
        ])]
        #expect(scene.posed(at: 0.5).lights[0].color == SIMD3(1, 0, 0) && scene.posed(at: 1).lights[0].color == SIMD3(0, 0, 1))
        #expect(scene.stats.animatedLights == 1 && scene.animations[0].timeRange == 0...1)
    }
}
