import AssetCatalog
import AssetKit
import Foundation
import Hummingbird

/// The HTML gallery: server-rendered pages that work without JavaScript.
extension AssetServer {
    static func html(_ body: String, title: String, status: HTTPResponse.Status = .ok) -> Response {
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
            <title>\(MarkupText.escape(title))</title>
            <style>
            \(HTMLPage.baseStyle)
            body { margin: 0 }
            header { background: #1f2a36; color: #fff; padding: .8em 1.5em; display: flex; gap: 1.5em; align-items: center }
            header a { color: #fff; text-decoration: none; font-weight: 600 }
            header form { flex: 1; display: flex; gap: .5em }
            header input[type=text] { flex: 1; padding: .45em; font: inherit; border-radius: 4px; border: 0 }
            main { padding: 1.5em }
            .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(220px, 1fr)); gap: 1em }
            .card { background: #fff; border: 1px solid #ddd; border-radius: 6px; padding: 8px; position: relative }
            .card > a.open { color: inherit; text-decoration: none; display: block }
            .card .ar { position: absolute; top: 12px; right: 12px; line-height: 0 }
            .card .ar img { width: 32px; height: 32px; border-radius: 4px; border: 1px solid #ccc; background: #fff }
            p.ar { display: flex; gap: .8em; align-items: center }
            #viewer canvas { width: 640px; max-width: 100%; height: auto; border: 1px solid #ddd; border-radius: 6px; background: #f4f4f4; touch-action: none }
            #viewer .controls { display: flex; gap: 1em; align-items: center; margin: .4em 0 1em }
            .card .moving { display: none }
            .card:hover .moving, .card:focus-within .moving { display: block }
            .card:hover .still.moves, .card:focus-within .still.moves { display: none }
            .card img, .views img { width: 100% }
            .card b { display: block; margin-top: .4em; word-break: break-all }
            .badge { display: inline-block; margin-top: .3em; padding: .05em .5em; border-radius: 3px; font-size: .85em; color: #fff }
            .badge.fail { background: #b3261e } .badge.warn { background: #a15c00 } .badge.pass { background: #2e7d32 }
            .views { display: grid; grid-template-columns: repeat(4, minmax(0, 256px)); gap: .8em }
            table { border-collapse: collapse } td { padding: .2em 1em .2em 0; vertical-align: top }
            ul.materials { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: .4em 1.4em }
            ul.materials li { display: flex; gap: .5em; align-items: center }
            .swatch { width: 32px; height: 32px; flex: none; border: 1px solid #ccc; border-radius: 4px; background-repeat: no-repeat }
            pre { background: #fff; border: 1px solid #ddd; padding: .8em; overflow: auto }
            </style></head>
            <body><header><a href="/">assetc</a>
            <form action="/" method="get"><input type="text" name="where" placeholder="triangles &gt; 1000 and format = usdz" aria-label="query">
            <input type="submit" value="Search"></form></header>
            <main>\(body)</main></body></html>

            """
        return Response(status: status, headers: [.contentType: "text/html; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    func galleryPage(_ request: Request) async throws -> Response {
        let params = request.uri.queryParameters
        let offset = max(Int(params["cursor"] ?? "0") ?? 0, 0)
        let pageSize = 60
        let expression = try self.expression(request)
        let records: [CatalogRecord]
        do throws(AssetError) {
            records = try await catalog.query(expression, sort: params.get("sort"), limit: pageSize + 1, offset: offset)
        } catch {
            // A page, not JSON: the person who typed the query reads the error where they typed it.
            let message = "<p class=error>\(MarkupText.escape(error.description))</p><p>Fields: \(CatalogQuery.fieldNames.joined(separator: ", ")).</p>"
            return Self.html(message, title: "assetc: bad query", status: .badRequest)
        }
        var body = expression.isEmpty ? "<h1>All assets</h1>" : "<h1>Assets where <code>\(MarkupText.escape(expression))</code></h1>"
        body += "<div class=grid>"
        for r in records.prefix(pageSize) {
            let link = "/assets/" + AssetPath.encode(r.id)
            let image: String
            switch (r.kind, r.error) {
            case (.model, nil):
                // An asset that moves plays its animated preview under the pointer (or keyboard
                // focus), in CSS alone; the browser fetches it only then (a hidden lazy image waits).
                let api = "/api/assets/\(AssetPath.encode(r.id))"
                let moves = r.hasPreview
                image = "<img class=\"thumbnail still\(moves ? " moves" : "")\" src=\"\(api)/thumbnail.png?size=256\" alt=\"\" loading=lazy>"
                    + (moves ? "<img class=\"thumbnail moving\" src=\"\(api)/preview.webp?size=256\" alt=\"animated preview\" loading=lazy>" : "")
            case (.texture, _): image = "<img class=thumbnail src=\"/api/assets/\(AssetPath.encode(r.id))/file\" alt=\"\" loading=lazy style=\"object-fit: contain\">"
            default: image = "<div class=muted>unreadable</div>"
            }
            let figures = r.error.map { "<span class=error>\(MarkupText.escape($0))</span>" }
                ?? "\(r.format) · \(r.triangles.map { "\(PeopleFigures.count($0)) triangles" } ?? r.kind.rawValue) · \(PeopleFigures.bytes(r.byteSize))"
            // The AR link sits beside the card's own link: anchors do not nest.
            let ar = Self.hasARView(r) ? Self.arLink(r.id, imageSize: 32, caption: "View \(r.id) in AR") : ""
            body += "<div class=card><a class=open href=\"\(link)\">\(image)<b>\(MarkupText.escape(r.id))</b><span class=muted>\(figures)</span>"
                + "\(Self.arkitBadge(r))</a>\(ar)</div>"
        }
        body += "</div>"
        if records.isEmpty { body += "<p class=muted>No assets match.</p>" }
        if records.count > pageSize {
            var next = request.uri.queryParameters
            next["cursor"] = Substring(String(offset + pageSize))
            let query = next.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))) ?? "")" }.joined(separator: "&")
            body += "<p><a href=\"/?\(MarkupText.escape(query))\">Next page</a></p>"
        }
        return Self.html(body, title: "assetc catalog")
    }

    /// The ARKit verdict as a badge: red with the error count, amber with warnings only, green when
    /// clean; nothing for assets that were not validated.
    static func arkitBadge(_ r: CatalogRecord) -> String {
        guard let errors = r.arkitErrors else { return "" }
        let warnings = r.arkitWarnings ?? 0
        if errors > 0 { return "<span class=\"badge fail\">ARKit: \(errors) error\(errors == 1 ? "" : "s")</span>" }
        if warnings > 0 { return "<span class=\"badge warn\">ARKit: \(warnings) warning\(warnings == 1 ? "" : "s")</span>" }
        return "<span class=\"badge pass\">ARKit: passes</span>"
    }

    func assetPage(_ segments: [Substring]) async throws -> Response {
        let (id, _) = try AssetPath.parse(segments)
        let entry = try await record(id)
        let r = entry.record
        let api = "/api/assets/" + AssetPath.encode(id)
        var body = "<h1>\(MarkupText.escape(id))</h1>"
        if r.kind == .model && r.error == nil {
            body += "<div class=views>" + ["iso", "front", "right", "top"].map {
                "<figure><img class=thumbnail src=\"\(api)/thumbnail.png?size=256&amp;view=\($0)\" alt=\"\($0) view\"><figcaption>\($0)</figcaption></figure>"
            }.joined()
            if r.hasPreview {
                let caption = (r.animations ?? 0) > 0 ? "animation" : "turntable"
                body += "<figure><img class=thumbnail src=\"\(api)/preview.webp?size=256\" alt=\"\(caption) preview\"><figcaption>\(caption)</figcaption></figure>"
            }
            body += "</div>"
            body += Self.viewer(id: id, animated: (r.animations ?? 0) > 0, splats: (r.splats ?? 0) > 0, missing: threeMissing, look: viewerLook)
            if Self.hasARView(r) {
                body += "<p class=ar>\(Self.arLink(id, imageSize: 128, caption: "View in AR"))<span>View in AR: on an iPhone or iPad, "
                    + "the picture opens the model in AR Quick Look (<a href=\"\(api)/ar.usdz\">the usdz</a>)</span></p>"
            } else {
                body += "<p class=muted>No AR view: AR Quick Look does not draw Gaussian splats.</p>"
            }
        }
        // Cells are HTML: plain values are escaped here, where they are made.
        var rows: [(String, String)] = [("kind", r.kind.rawValue), ("format", r.format.name), ("size", "\(PeopleFigures.bytes(r.byteSize)) (\(PeopleFigures.count(Int(r.byteSize))) bytes)"),
                                        ("hash", MarkupText.escape(r.contentHash))]
        if let e = r.error { rows.append(("error", "<span class=error>\(MarkupText.escape(e))</span>")) }
        if r.arkitErrors != nil {
            let rules = entry.arkitRules.map { rule in
                "<a href=\"/?where=\(MarkupText.escape(("rule = " + rule).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))\">\(MarkupText.escape(rule))</a>"
            }
            rows.append(("ARKit", Self.arkitBadge(r) + (rules.isEmpty ? "" : " " + rules.joined(separator: ", "))))
        }
        if r.kind == .model && r.error == nil {
            let n = { (value: Int?) in PeopleFigures.count(value ?? 0) }
            rows += [("nodes", n(r.nodes)), ("meshes", n(r.meshes)), ("points", n(r.points)),
                     ("faces", n(r.faces)), ("triangles", n(r.triangles)), ("materials", n(r.materials)),
                     ("up axis", MarkupText.escape(r.upAxis ?? "-")), ("metres per unit", r.metersPerUnit.map { "\($0)" } ?? "-")]
            if (r.skeletons ?? 0) + (r.blendShapes ?? 0) + (r.animations ?? 0) > 0 {
                rows += [("skeletons", "\(r.skeletons ?? 0) (\(r.joints ?? 0) joints, \(r.skinnedMeshes ?? 0) skinned meshes)"),
                         ("blend shapes", "\(r.blendShapes ?? 0)"),
                         ("animation", "\(r.animations ?? 0) clips, \(PeopleFigures.seconds(r.duration ?? 0)), \(r.animatedNodes ?? 0) animated nodes")]
            }
            if let splats = r.splats, splats > 0 { rows.append(("splats", "\(n(splats)) (SH degree \(r.splatSHDegree ?? 0))")) }
            if let b = r.bounds { rows.append(("bounds", "min (\(b.min.x), \(b.min.y), \(b.min.z))<br>max (\(b.max.x), \(b.max.y), \(b.max.z))")) }
        }
        body += "<table>" + rows.map { "<tr><td class=muted>\($0.0)</td><td>\($0.1)</td></tr>" }.joined() + "</table>"
        body += "<p><a href=\"\(api)/file\">Download the original</a>"
        if r.kind == .model && r.error == nil {
            // SPZ holds splats only: offered for assets that have some.
            let targets = Self.conversionFormats.filter { $0 != .spz || (r.splats ?? 0) > 0 }
            body += " · convert to " + targets.map { "<a href=\"\(api)/convert?to=\($0)\">\($0)</a>" }.joined(separator: " ")
        }
        body += "</p>"
        if !entry.nodeNames.isEmpty {
            let tree = entry.nodeNames.map { path -> String in
                let depth = path.split(separator: "/").count - 1
                return String(repeating: "  ", count: depth) + (path.split(separator: "/").last.map(String.init) ?? path)
            }
            body += "<h2>Nodes</h2><pre>\(MarkupText.escape(tree.joined(separator: "\n")))</pre>"
        }
        if !entry.materialNames.isEmpty { body += Self.materialList(entry.materialNames, id: id) }
        if !entry.textureReferences.isEmpty {
            body += "<h2>Textures</h2><ul>" + entry.textureReferences.map { t in
                let target = t.resolvedID.map { " → <a href=\"/assets/\(AssetPath.encode($0))\">\(MarkupText.escape($0))</a>" } ?? ""
                return "<li>\(MarkupText.escape(t.path)) \(t.resolves ? "ok" : "<span class=error>missing</span>")\(target)</li>"
            }.joined() + "</ul>"
        }
        if !entry.warnings.isEmpty { body += "<h2>Warnings</h2><ul>" + entry.warnings.map { "<li>\(MarkupText.escape($0))</li>" }.joined() + "</ul>" }
        return Self.html(body, title: "assetc: \(id)")
    }

    /// The material names, each beside its square of the swatch picture (a CSS sprite: one request
    /// for all of them, and no script). Past `MaterialSwatches.maxCount` a name stands alone.
    static func materialList(_ names: [String], id: String) -> String {
        let picture = "/api/assets/\(AssetPath.encode(id))/swatches.png"
        let size = swatchSize
        return "<h2>Materials</h2><ul class=materials>" + names.enumerated().map { index, name in
            guard index < MaterialSwatches.maxCount else { return "<li>\(MarkupText.escape(name))</li>" }
            let (column, row) = MaterialSwatches.cell(index, count: names.count)
            let style = "background-image:url(&quot;\(picture)&quot;);background-position:\(-column * size)px \(-row * size)px"
            return "<li><span class=swatch aria-hidden=true style=\"\(style)\"></span>\(MarkupText.escape(name))</li>"
        }.joined() + "</ul>"
    }
}
