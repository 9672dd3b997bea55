// Fixture helper for make_draco_spheres.py: encodes a triangle mesh with Debian's libdraco the way
// glTF tools do. Positions are either floats that Draco quantizes itself (`float Q`) or int16 values a
// KHR_mesh_quantization writer has already quantized (`int16`, with int8 normals), which Draco then
// stores as plain integers: the second shape is what glTF-Transform writes for `quantize` + `draco`.
// Reads "p x y z", "n x y z" and "f a b c" lines on stdin; attribute unique ids are 0 (POSITION) and 1 (NORMAL).
#include <draco/compression/encode.h>
#include <draco/mesh/mesh.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

int main(int argc, char **argv) {
    if (argc < 3) { std::fprintf(stderr, "usage: draco_pack OUT float Q | OUT int16\n"); return 2; }
    const bool integers = std::strcmp(argv[2], "int16") == 0;
    const int bits = argc > 3 ? std::atoi(argv[3]) : 14;
    std::vector<double> p, n;
    std::vector<uint32_t> f;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string kind;
        in >> kind;
        double a, b, c;
        in >> a >> b >> c;
        auto &into = kind == "p" ? p : n;
        if (kind == "f") { f.push_back(uint32_t(a)); f.push_back(uint32_t(b)); f.push_back(uint32_t(c)); }
        else { into.push_back(a); into.push_back(b); into.push_back(c); }
    }
    const uint32_t points = uint32_t(p.size() / 3);
    draco::Mesh mesh;
    mesh.set_num_points(points);
    draco::GeometryAttribute position, normal;
    position.Init(draco::GeometryAttribute::POSITION, nullptr, 3, integers ? draco::DT_INT16 : draco::DT_FLOAT32, false,
                  integers ? 6 : 12, 0);
    normal.Init(draco::GeometryAttribute::NORMAL, nullptr, 3, integers ? draco::DT_INT8 : draco::DT_FLOAT32, false,
                integers ? 3 : 12, 0);
    const int pid = mesh.AddAttribute(position, true, points), nid = mesh.AddAttribute(normal, true, points);
    for (uint32_t i = 0; i < points; ++i) {
        if (integers) {
            int16_t pv[3] = {int16_t(p[3 * i]), int16_t(p[3 * i + 1]), int16_t(p[3 * i + 2])};
            int8_t nv[3] = {int8_t(n[3 * i]), int8_t(n[3 * i + 1]), int8_t(n[3 * i + 2])};
            mesh.attribute(pid)->SetAttributeValue(draco::AttributeValueIndex(i), pv);
            mesh.attribute(nid)->SetAttributeValue(draco::AttributeValueIndex(i), nv);
        } else {
            float pv[3] = {float(p[3 * i]), float(p[3 * i + 1]), float(p[3 * i + 2])};
            float nv[3] = {float(n[3 * i]), float(n[3 * i + 1]), float(n[3 * i + 2])};
            mesh.attribute(pid)->SetAttributeValue(draco::AttributeValueIndex(i), pv);
            mesh.attribute(nid)->SetAttributeValue(draco::AttributeValueIndex(i), nv);
        }
    }
    for (size_t k = 0; k + 2 < f.size(); k += 3) {
        draco::Mesh::Face face;
        for (int c = 0; c < 3; ++c) face[c] = draco::PointIndex(f[k + c]);
        mesh.AddFace(face);
    }
    draco::Encoder encoder;
    if (!integers) {
        encoder.SetAttributeQuantization(draco::GeometryAttribute::POSITION, bits);
        encoder.SetAttributeQuantization(draco::GeometryAttribute::NORMAL, 10);
    }
    encoder.SetSpeedOptions(5, 5);
    draco::EncoderBuffer buffer;
    const draco::Status status = encoder.EncodeMeshToBuffer(mesh, &buffer);
    if (!status.ok()) { std::fprintf(stderr, "draco: %s\n", status.error_msg()); return 1; }
    std::ofstream(argv[1], std::ios::binary).write(buffer.data(), buffer.size());
    return 0;
}
