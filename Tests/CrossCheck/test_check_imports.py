"""Scripts/check-imports holds Docs/Architecture.md's arrows: it passes on a package whose layers follow
them and fails, naming the arrow, on one that breaks one. The packages are small ones made here (a
Package.swift and one file a target), so the check is run on a deliberate violation without
touching the real tree."""
import os
import subprocess
import textwrap
from pathlib import Path

from conftest import ROOT

CHECK = ROOT / "Scripts" / "check-imports"


def make_package(folder: Path, render_dependencies, render_imports):
    """A package shaped like assetc's layers: AssetCore, AssetImage, a format, AssetRender, AssetKit."""
    targets = {
        "AssetCore": ([], []),
        "AssetImage": (["AssetCore"], ["AssetCore"]),
        "FormatGLTF": (["AssetCore"], ["AssetCore"]),
        "AssetRender": (render_dependencies, render_imports),
        "AssetKit": (["AssetCore", "AssetRender"], ["AssetCore", "AssetRender"]),
    }
    lines = []
    for name, (dependencies, imports) in targets.items():
        source = folder / "Sources" / name
        source.mkdir(parents=True)
        body = "".join(f"import {module}\n" for module in imports)
        (source / f"{name}.swift").write_text(body + f"public enum {name}Marker {{}}\n")
        lines.append(f'.target(name: "{name}", dependencies: {dependencies!r}),'.replace("'", '"'))
    (folder / "Package.swift").write_text(textwrap.dedent("""\
        // swift-tools-version: 6.0
        import PackageDescription
        let package = Package(name: "layers", targets: [
        """) + "\n".join("    " + line for line in lines) + "\n])\n")


def run_check(folder: Path):
    return subprocess.run([str(CHECK)], env=dict(os.environ, ASSETC_ROOT=str(folder)),
                          capture_output=True, text=True, timeout=600)


def test_layers_that_follow_the_arrows_pass(tmp_path):
    make_package(tmp_path, ["AssetCore", "AssetImage"], ["AssetCore", "AssetImage"])
    result = run_check(tmp_path)
    assert result.returncode == 0, result.stderr


def test_a_renderer_that_imports_a_format_module_fails(tmp_path):
    make_package(tmp_path, ["AssetCore", "AssetImage", "FormatGLTF"], ["AssetCore", "FormatGLTF"])
    result = run_check(tmp_path)
    assert result.returncode == 1
    assert "AssetRender depends on FormatGLTF" in result.stderr, result.stderr
    assert "no format module" in result.stderr


def test_an_undeclared_import_fails(tmp_path):
    make_package(tmp_path, ["AssetCore"], ["AssetCore", "AssetImage"])
    result = run_check(tmp_path)
    assert result.returncode == 1
    assert "imports AssetImage, which AssetRender does not declare" in result.stderr, result.stderr
