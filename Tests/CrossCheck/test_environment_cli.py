"""`--environment` from the command line: a bad environment stops the command with a located error
and the right exit status before anything is written; a good one is prefiltered once and cached in
the catalog's store, where a damaged cache file is prefiltered again, never trusted."""
import hashlib
import shutil
import sys

from conftest import ROOT, run_assetc

HEAD = ROOT / "Assets" / "SceneKitAssetCatalog.scnassets" / "LoomisHead.usdz"
sys.path.insert(0, str(ROOT / "Benchmarks"))
from make_hdr_environment import environment, rgbe  # noqa: E402


def write_hdr(path, width=64):
    with open(path, "wb") as f:
        f.write(f"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y {width // 2} +X {width}\n".encode())
        f.write(rgbe(environment(width)).tobytes())
    return path


def test_a_missing_environment_is_a_usage_error_and_nothing_is_written(tmp_path):
    result = run_assetc("thumbnail", str(HEAD), "--out", str(tmp_path / "out"), "--environment", str(tmp_path / "nowhere.hdr"))
    assert result.returncode == 64, result.stderr
    assert "--environment" in result.stderr and "nowhere.hdr" in result.stderr
    assert not (tmp_path / "out").exists()


def test_an_environment_that_is_not_an_image_is_a_data_error(tmp_path):
    bogus = tmp_path / "bogus.hdr"
    bogus.write_text("this is not a picture")
    result = run_assetc("thumbnail", str(HEAD), "--out", str(tmp_path / "out"), "--environment", str(bogus))
    assert result.returncode == 65, result.stderr
    assert "bogus.hdr" in result.stderr and "not an environment image" in result.stderr
    assert not (tmp_path / "out").exists()
    huge = tmp_path / "huge.hdr"
    huge.write_bytes(b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 30000 +X 60000\n" + bytes(64))
    result = run_assetc("thumbnail", str(HEAD), "--out", str(tmp_path / "out"), "--environment", str(huge))
    assert result.returncode == 65 and "at most" in result.stderr, result.stderr


def test_the_environment_changes_the_picture_and_its_rotation_turns_it(tmp_path):
    hdr = write_hdr(tmp_path / "sky.hdr")
    pictures = {}
    for name, extra in [("studio", []), ("sky", ["--environment", str(hdr)]), ("turned", ["--environment", str(hdr), "--environment-rotation", "180"])]:
        out = tmp_path / name
        result = run_assetc("thumbnail", str(HEAD), "--out", str(out), "--size", "64", *extra)
        assert result.returncode == 0, result.stderr
        pictures[name] = next(out.rglob("*.png")).read_bytes()
    assert len(set(pictures.values())) == 3, "the studio, the sky and the turned sky give three pictures"


def test_index_caches_the_prefilter_in_the_store_and_recomputes_a_damaged_one(tmp_path):
    library = tmp_path / "lib"
    library.mkdir()
    shutil.copy(HEAD, library / "head.usdz")
    hdr = write_hdr(tmp_path / "sky.hdr")
    database = tmp_path / "catalog.sqlite"
    first = run_assetc("index", str(library), "--db", str(database), "--thumbnails", "--thumbnail-size", "64", "--environment", str(hdr), timeout=120)
    assert first.returncode == 0, first.stderr
    cached = tmp_path / "thumbnails" / "environments" / (hashlib.sha256(hdr.read_bytes()).hexdigest() + ".prefiltered")
    assert cached.exists(), sorted(p.name for p in tmp_path.rglob("*"))
    assert cached.read_bytes()[:8] == b"ASTCENV2"
    damaged = bytearray(cached.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    cached.write_bytes(bytes(damaged))
    again = run_assetc("index", str(library), "--db", str(database), "--thumbnails", "--thumbnail-size", "64", "--environment", str(hdr), timeout=120)
    assert again.returncode == 0, again.stderr
    assert "unusable" in again.stderr and "prefiltering again" in again.stderr, again.stderr
    assert cached.read_bytes() != bytes(damaged), "the damaged file was replaced"


def test_an_openexr_environment_lights_as_the_same_sky_in_radiance_format(tmp_path):
    """sky_64.exr (written by OpenEXR's own bindings, half floats, ZIP) holds sky_64.hdr's sky: the
    two thumbnails differ only by the formats' precision, while the studio's differs plainly."""
    import numpy as np
    from PIL import Image
    fixtures = ROOT / "Tests" / "Fixtures" / "render"
    pictures = {}
    for name, extra in [("hdr", ["--environment", str(fixtures / "sky_64.hdr")]),
                        ("exr", ["--environment", str(fixtures / "sky_64.exr")]),
                        ("tiled", ["--environment", str(fixtures / "sky_64_tiled.exr")]), ("studio", [])]:
        out = tmp_path / name
        result = run_assetc("thumbnail", str(HEAD), "--out", str(out), "--size", "64", *extra)
        assert result.returncode == 0, result.stderr
        pictures[name] = np.asarray(Image.open(next(out.rglob("*.png"))).convert("RGBA"), np.float32)
    for name in ("exr", "tiled"):
        assert np.abs(pictures[name] - pictures["hdr"]).max() <= 3, name
    assert np.abs(pictures["studio"] - pictures["hdr"]).mean() > 5


def thumbnail_with(env_extra, hdr, out, *extra):
    import os
    import subprocess
    from conftest import assetc_binary
    env = {k: v for k, v in os.environ.items() if k not in ("ASSETC_CACHE_DIR", "XDG_CACHE_HOME")}
    env.update(env_extra)
    result = subprocess.run([assetc_binary(), "thumbnail", str(HEAD), "--out", str(out), "--size", "64", "--environment", str(hdr), *extra],
                            capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode == 0, result.stderr
    return next(out.rglob("*.png")).read_bytes(), result.stderr


def test_thumbnail_keeps_the_prefilter_in_the_user_cache_folder(tmp_path):
    import os
    import time
    hdr = write_hdr(tmp_path / "sky.hdr")
    name = hashlib.sha256(hdr.read_bytes()).hexdigest() + ".prefiltered"
    # ASSETC_CACHE_DIR first, else $XDG_CACHE_HOME/assetc, else ~/.cache/assetc.
    own, xdg, home = tmp_path / "own", tmp_path / "xdg", tmp_path / "home"
    first, _ = thumbnail_with({"ASSETC_CACHE_DIR": str(own), "XDG_CACHE_HOME": str(xdg), "HOME": str(home)}, hdr, tmp_path / "a")
    assert (own / "environments" / name).read_bytes()[:8] == b"ASTCENV2" and not xdg.exists() and not home.exists()
    second, _ = thumbnail_with({"XDG_CACHE_HOME": str(xdg), "HOME": str(home)}, hdr, tmp_path / "b")
    assert (xdg / "assetc" / "environments" / name).exists() and not home.exists()
    third, _ = thumbnail_with({"HOME": str(home)}, hdr, tmp_path / "c")
    assert (home / ".cache" / "assetc" / "environments" / name).exists()
    # Taken from the cache, the picture is the one prefiltering gives.
    warm, _ = thumbnail_with({"ASSETC_CACHE_DIR": str(own)}, hdr, tmp_path / "d")
    assert first == second == third == warm
    # --no-cache neither reads nor writes it.
    fresh = tmp_path / "fresh"
    uncached, _ = thumbnail_with({"ASSETC_CACHE_DIR": str(fresh)}, hdr, tmp_path / "e", "--no-cache")
    assert uncached == first and not fresh.exists()
    # A damaged file is prefiltered again, named in a warning, and rewritten.
    cached = own / "environments" / name
    damaged = bytearray(cached.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    cached.write_bytes(bytes(damaged))
    again, stderr = thumbnail_with({"ASSETC_CACHE_DIR": str(own)}, hdr, tmp_path / "f")
    assert again == first and "unusable" in stderr and cached.read_bytes() != bytes(damaged), stderr
    # The folder is bounded: the least recently used go first, the one just written stays.
    for k in range(40):
        stale = own / "environments" / f"{k:064x}.prefiltered"
        stale.write_bytes(b"stale")
        os.utime(stale, (time.time() - 1000 + k, time.time() - 1000 + k))
    cached.unlink()
    thumbnail_with({"ASSETC_CACHE_DIR": str(own)}, hdr, tmp_path / "g")
    left = sorted(p.name for p in (own / "environments").iterdir())
    assert len(left) == 32 and name in left and f"{0:064x}.prefiltered" not in left and f"{39:064x}.prefiltered" in left, left
