import AssetCore
import Foundation

/// `index.html` for a thumbnail folder: a grid of the images with names and figures, and the
/// files that failed with their errors. Plain HTML and CSS, to keep as a CI artifact.
public enum ThumbnailGallery {
    public static func html(_ outcomes: [ThumbnailUseCase.Outcome], title: String = "assetc thumbnails") -> String {
        let escape = MarkupText.escape
        var cards = ""
        for outcome in outcomes {
            guard let info = outcome.info else { continue }
            let warnings = outcome.warnings.isEmpty ? "" : " · \(outcome.warnings.count) warning\(outcome.warnings.count == 1 ? "" : "s")"
            cards += """
                <figure><img class="thumbnail" src="\(escape(outcome.preview ?? outcome.job.output))" alt="\(escape(outcome.job.input))" width="256" height="256">
                <figcaption><b>\(escape(outcome.job.input))</b><br>\(info.format?.name ?? "") · \(info.triangles) triangles · \(info.meshes) meshes · \(info.upAxis.rawValue)-up\(warnings)</figcaption></figure>

                """
        }
        let failures = outcomes.compactMap { o in o.error.map { "<li><b>\(escape(o.job.input))</b>: \(escape($0.description))</li>" } }
        let failed = failures.isEmpty ? "" : "<h2>Failed</h2><ul>\(failures.joined())</ul>"
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>\(escape(title))</title>
            <style>
            \(HTMLPage.baseStyle)
            body { margin: 2em }
            main { display: grid; grid-template-columns: repeat(auto-fill, minmax(270px, 1fr)); gap: 1em }
            figure { margin: 0; padding: 7px; background: #fff; border: 1px solid #ddd; border-radius: 6px }
            img.thumbnail { width: 256px; height: 256px }
            figcaption { margin-top: .5em; word-break: break-all }
            </style></head>
            <body><h1>\(escape(title))</h1><p>\(outcomes.count) assets, \(failures.count) failed.</p>
            <main>
            \(cards)</main>
            \(failed)
            </body></html>

            """
    }
}
