"""`import AssetKit` alone on a bucket, exactly as the CLI: the library suite AssetKitBucketTests (which is
enabled only when a server is named) converts, validates, renders and reports on an s3:// prefix of a
SeaweedFS server through a StoreOpener of its own (unsigned requests, path-style, over URLSession). Here the
server is started with an anonymous identity and filled, the suite is run, and what it wrote is compared
with what the assetc executable says of the same objects: the same figures, verdicts and picture bytes."""
import json
import os
import subprocess

import pytest

from conftest import FIXTURES, ROOT, assetc_binary
from s3_server import ACCESS_KEY, REGION, SECRET_KEY, SeaweedFS, put_tree

LIBRARY = FIXTURES / "library"


@pytest.fixture(scope="module")
def server():
    seaweed = SeaweedFS(anonymous=True)
    seaweed.start()
    client = seaweed.client()
    client.create_bucket(Bucket="lib")
    put_tree(client, "lib", LIBRARY, "library")
    yield seaweed
    seaweed.close()


def cli(server, *args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY, AWS_REGION=REGION, AWS_ENDPOINT_URL=server.endpoint,
               AWS_EC2_METADATA_DISABLED="true")
    return subprocess.run([assetc_binary(), *map(str, args)], capture_output=True, text=True, timeout=600, env=env)


def test_the_library_alone_does_on_a_bucket_what_the_cli_does(server, tmp_path):
    report_path = tmp_path / "library.json"
    env = dict(os.environ, ASSETC_LIBRARY_S3_ENDPOINT=server.endpoint, ASSETC_LIBRARY_S3_REPORT=str(report_path))
    run = subprocess.run(["swift", "test", "--skip-build", "--filter", "AssetKitBucketTests"], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=900)
    output = run.stdout + run.stderr
    assert run.returncode == 0, output[-4000:]
    assert "convertsValidatesRendersAndReportsOnABucketPrefix() passed" in output, output[-4000:]
    library = json.loads(report_path.read_text())

    info = cli(server, "info", "--json", "--asset-root", "s3://lib/library", "s3://lib/library/scenes/room.usda")
    assert info.returncode == 0, info.stderr
    figures = json.loads(info.stdout)
    assert figures["triangles"] == library["triangles"] == 36
    assert figures["file"] == library["file"] == "s3://lib/library/scenes/room.usda"

    verdicts = cli(server, "validate", "--json", "--asset-root", "s3://lib/library", "s3://lib/out/room.usdz", "s3://lib/library/props")
    cli_errors = {entry["file"]: entry["errors"] for entry in json.loads(verdicts.stdout)["files"]}
    assert cli_errors == library["verdicts"], (cli_errors, library["verdicts"])

    thumbs = cli(server, "thumbnail", "--asset-root", "s3://lib/library", "s3://lib/library/props", "--out", "s3://lib/cli-thumbs")
    assert thumbs.returncode == 0, thumbs.stderr
    client = server.client()
    names = sorted(obj["Key"].removeprefix("thumbs/") for obj in client.list_objects_v2(Bucket="lib", Prefix="thumbs/")["Contents"])
    cli_names = sorted(obj["Key"].removeprefix("cli-thumbs/") for obj in client.list_objects_v2(Bucket="lib", Prefix="cli-thumbs/")["Contents"])
    assert names == cli_names and names == sorted(t.removeprefix("s3://lib/thumbs/") for t in library["thumbnails"])
    for name in names:
        mine = client.get_object(Bucket="lib", Key=f"thumbs/{name}")["Body"].read()
        theirs = client.get_object(Bucket="lib", Key=f"cli-thumbs/{name}")["Body"].read()
        assert mine == theirs, f"{name}: the library's picture differs from the CLI's"
