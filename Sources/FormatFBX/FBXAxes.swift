import AssetCore

/// GlobalSettings as assetc's up axis, units and frame rate. The file's axes (UpAxis, FrontAxis,
/// CoordAxis and their signs) are compared with the usual frame for its up axis (Y up: X right, Z
/// front; Z up: X right, -Y front); where they differ, `correction` turns the root models into it.
/// UnitScaleFactor is centimetres per unit. TimeMode names the frame rate (CustomFrameRate for 14).
struct FBXAxes {
    var upAxis: UpAxis = .y
    var metersPerUnit = 0.01
    var correction = Matrix4x4.identity
    var framesPerSecond: Double?
    var warning: String?

    init(_ objects: FBXObjects) {
        func axis(_ name: String, _ fallback: Int) -> Int { objects.globals[name]?.first?.int ?? fallback }
        func sign(_ name: String) -> Double { (objects.global(name) ?? 1) < 0 ? -1 : 1 }
        let up = axis("UpAxis", 1), front = axis("FrontAxis", 2), coord = axis("CoordAxis", 0)
        if let scale = objects.global("UnitScaleFactor"), scale > 0 { metersPerUnit = scale / 100 }
        framesPerSecond = Self.frameRate(mode: objects.globals["TimeMode"]?.first?.int ?? -1, custom: objects.global("CustomFrameRate"))
        guard Set([up, front, coord]) == [0, 1, 2] else {
            warning = "GlobalSettings name the axes \(coord), \(up), \(front), not three different ones; Y up is assumed"
            return
        }
        func unit(_ index: Int, _ s: Double) -> SIMD3<Double> {
            var v = SIMD3<Double>.zero
            v[index] = s
            return v
        }
        // Where the file's right, up and front directions point, in its own coordinates.
        let right = unit(coord, sign("CoordAxisSign")), upward = unit(up, sign("UpAxisSign")), forward = unit(front, sign("FrontAxisSign"))
        upAxis = up == 2 ? .z : up == 0 ? .x : .y
        if upAxis == .x { upAxis = .y }  // corrected below into Y up
        // The usual frame for the up axis assetc keeps: the directions right, up and front should have.
        let (wantRight, wantUp, wantFront): (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) =
            upAxis == .z ? (SIMD3(1, 0, 0), SIMD3(0, 0, 1), SIMD3(0, -1, 0)) : (SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))
        guard right != wantRight || upward != wantUp || forward != wantFront else { return }
        // M maps the file's right/up/front onto the wanted ones: M = W · F⁻¹, F's columns the file's.
        let file = Matrix4x4(c0: SIMD4(right, 0), c1: SIMD4(upward, 0), c2: SIMD4(forward, 0), c3: SIMD4(0, 0, 0, 1))
        let wanted = Matrix4x4(c0: SIMD4(wantRight, 0), c1: SIMD4(wantUp, 0), c2: SIMD4(wantFront, 0), c3: SIMD4(0, 0, 0, 1))
        correction = wanted * (file.inverse ?? .identity)
        if correction.linearDeterminant < 0 {
            warning = "GlobalSettings give a left-handed frame; it is mirrored into a right-handed one"
        }
    }

    /// FbxTime::EMode frame rates.
    static func frameRate(mode: Int, custom: Double?) -> Double? {
        let rates: [Int: Double] = [1: 120, 2: 100, 3: 60, 4: 50, 5: 48, 6: 30, 7: 30, 8: 29.97, 9: 29.97, 10: 25, 11: 24, 12: 1000, 13: 23.976,
                                    15: 96, 16: 72, 17: 59.94, 18: 119.88]
        if mode == 14 { return custom.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } }
        return rates[mode]
    }
}
