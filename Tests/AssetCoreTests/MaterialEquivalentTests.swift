import AssetCore
import Testing

/// The nearest metallic-roughness material to a specular-workflow one (KHR_materials_pbrSpecularGlossiness's
/// published conversion).
@Suite struct MaterialEquivalentTests {
    func specular(diffuse: SIMD3<Float>, specular: SIMD3<Float>) -> Material {
        var material = Material(name: "m", baseColor: .init(diffuse), roughness: .init(0.4))
        material.usesSpecularWorkflow = true
        material.specularColor = .init(specular)
        return material
    }

    @Test func aDielectricsReflectanceIsNotMetal() {
        let m = specular(diffuse: SIMD3(0.5, 0.2, 0.1), specular: SIMD3(repeating: 0.04)).metallicRoughnessEquivalent
        #expect(m.metallic.value == 0 && !m.usesSpecularWorkflow)
        #expect(abs(m.baseColor.value.x - 0.5) < 1e-3 && abs(m.baseColor.value.y - 0.2) < 1e-3, "the diffuse colour, all but unchanged")
        #expect(m.roughness.value == 0.4)
    }

    @Test func aColouredReflectionOverBlackIsMetal() {
        let m = specular(diffuse: .zero, specular: SIMD3(1, 0.78, 0.34)).metallicRoughnessEquivalent
        #expect(m.metallic.value > 0.99)
        #expect(abs(m.baseColor.value.y - 0.78) < 0.02 && abs(m.baseColor.value.z - 0.34) < 0.02, "the specular colour becomes the base colour")
    }

    @Test func aTexturedSpecularIsTakenAsADielectric() {
        var material = specular(diffuse: SIMD3(0.5, 0.2, 0.1), specular: .one)
        material.specularColor.texture = TextureReference(texture: 0)
        let m = material.metallicRoughnessEquivalent
        #expect(m.metallic.value == 0 && m.baseColor.value == SIMD3(0.5, 0.2, 0.1))
    }

    @Test func aMetallicRoughnessMaterialIsItsOwnEquivalent() {
        let m = Material(name: "m", metallic: .init(0.7))
        #expect(m.metallicRoughnessEquivalent == m)
        #expect(m.inputsBeyondPhong.isEmpty)
        var coated = m
        coated.clearcoat.value = 0.5
        coated.ior = 1.33
        #expect(coated.inputsBeyondPhong == ["clearcoat", "ior 1.33"])
        var masked = Material(name: "Leaf", opacity: .init(1, texture: TextureReference(texture: 0, channels: .a)), opacityThreshold: 0.5)
        masked.alphaMode = .mask
        #expect(masked.inputsBeyondPhong == ["alpha cutoff 0.5"], "Phong formats have no cutoff: named, not dropped")
    }
}
