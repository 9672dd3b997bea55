"""A usdz in a bucket is read from its central directory by ranged GETs: `info` and `thumbnail` fetch the
members they need and never the whole object, and give what the same package on disk gives; whatever reads
the package as a file (validation's layout checks) gets all of it in one GET. The package is made by
usd-core's UsdUtils.CreateNewUsdzPackage, the tool users package with."""
import json
import re

import numpy as np
import pytest
from PIL import Image

from s3_server import CountingProxy, SeaweedFS
from test_s3_storage import assetc
from usdz_package import textured_quad_package


KEY = "packages/quad.usdz"
PATH = f"/assets/{KEY}"


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    # One 1024 px noise texture: a package of about 3 MB, well past the 1 MiB under which a package is
    # fetched whole.
    package = textured_quad_package(tmp_path_factory.mktemp("package"))
    server = SeaweedFS()
    server.start()
    server.proxy = CountingProxy(server.ports["s3"])
    server.client().put_object(Bucket="assets", Key=KEY, Body=package.read_bytes())
    server.package = package
    # Past 16 MiB (a request's default body limit, which once refused the HEAD of such an object), with
    # members larger than a read-ahead, fetched as asked.
    large = textured_quad_package(tmp_path_factory.mktemp("large"), textures=2, pixels=1800, compress_level=1)
    server.client().put_object(Bucket="assets", Key="packages/large.usdz", Body=large.read_bytes())
    server.large = large
    yield server
    server.proxy.close()
    server.close()


def fetched(s3):
    """GETs of the package: (whole ones, bytes asked for by ranges)."""
    reads = [p for p in s3.proxy.object_reads() if p == PATH]
    ranges = [r for p, r in s3.proxy.ranged if p == PATH]
    spans = [re.fullmatch(r"bytes=(\d+)-(\d+)", r).groups() for r in ranges]
    return len(reads) - len(ranges), sum(int(b) - int(a) + 1 for a, b in spans)


def without_file(info):
    return {k: v for k, v in info.items() if k != "file"}


def test_info_reads_the_members_it_needs_by_ranges(s3):
    size = s3.package.stat().st_size
    assert size > 2 << 20
    local = assetc(s3, "info", "--json", s3.package)
    assert local.returncode == 0, local.stderr
    s3.proxy.reset()
    remote = assetc(s3, "info", "--json", f"s3://assets/{KEY}")
    assert remote.returncode == 0, remote.stderr
    assert without_file(json.loads(remote.stdout)) == without_file(json.loads(local.stdout))
    assert json.loads(remote.stdout)["textures"] == 1 and json.loads(remote.stdout)["warnings"] == []
    whole, ranged = fetched(s3)
    assert whole == 0, s3.proxy.requests
    # The tail with the central directory, the root layer and the texture's header, not its 3 MB.
    assert 0 < ranged < size // 4, (ranged, size)
    # Every range is pinned to the ETag the HEAD saw, and the server refuses a range of another version.
    etag = s3.client().head_object(Bucket="assets", Key=KEY)["ETag"]
    assert s3.proxy.conditions and all(c == (PATH, etag) for c in s3.proxy.conditions), s3.proxy.conditions
    with pytest.raises(Exception) as refused:
        s3.client().get_object(Bucket="assets", Key=KEY, Range="bytes=0-99", IfMatch='"0123456789abcdef0123456789abcdef"')
    assert "412" in str(refused.value) or "PreconditionFailed" in str(refused.value)


def test_a_thumbnail_from_the_bucket_matches_the_one_from_disk(s3, tmp_path):
    local = assetc(s3, "thumbnail", s3.package, "--out", tmp_path / "local", "--size", 128)
    assert local.returncode == 0, local.stderr
    s3.proxy.reset()
    remote = assetc(s3, "thumbnail", f"s3://assets/{KEY}", "--out", tmp_path / "remote", "--size", 128)
    assert remote.returncode == 0, remote.stderr
    [a] = (tmp_path / "local").glob("*.png")
    [b] = (tmp_path / "remote").glob("*.png")
    pixels = np.asarray(Image.open(b))
    assert np.array_equal(np.asarray(Image.open(a)), pixels)
    assert pixels[..., :3].std() > 20, "the noise texture was drawn"
    whole, ranged = fetched(s3)
    assert whole == 0
    assert ranged >= (s3.package.stat().st_size * 9) // 10, "the texture came by ranges"


def test_validation_reads_the_package_whole_and_agrees_with_disk(s3):
    local = assetc(s3, "validate", "--json", s3.package)
    s3.proxy.reset()
    remote = assetc(s3, "validate", "--json", f"s3://assets/{KEY}")
    assert remote.returncode == local.returncode, remote.stderr
    def findings(out):
        return sorted((f["rule"], f["message"]) for file in json.loads(out)["files"] for f in file["findings"])
    assert findings(remote.stdout) == findings(local.stdout)
    whole, _ = fetched(s3)
    assert whole == 1, s3.proxy.requests


def test_a_package_past_16_mib_opens_by_ranges_and_its_large_members_read_alike(s3, tmp_path):
    size = s3.large.stat().st_size
    assert size > 16 << 20
    s3.proxy.reset()
    info = assetc(s3, "info", "--json", "s3://assets/packages/large.usdz")
    assert info.returncode == 0, info.stderr
    assert without_file(json.loads(info.stdout)) == without_file(json.loads(assetc(s3, "info", "--json", s3.large).stdout))
    ranges = [r for p, r in s3.proxy.ranged if p == "/assets/packages/large.usdz"]
    assert ranges and len([p for p in s3.proxy.object_reads() if p == "/assets/packages/large.usdz"]) == len(ranges)
    local = assetc(s3, "thumbnail", s3.large, "--out", tmp_path / "local", "--size", 64)
    remote = assetc(s3, "thumbnail", "s3://assets/packages/large.usdz", "--out", tmp_path / "remote", "--size", 64)
    assert local.returncode == 0 and remote.returncode == 0, local.stderr + remote.stderr
    [a], [b] = (tmp_path / "local").glob("*.png"), (tmp_path / "remote").glob("*.png")
    assert np.array_equal(np.asarray(Image.open(a)), np.asarray(Image.open(b)))
