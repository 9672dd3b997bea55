"""assetc on object storage: a real S3 server on loopback (SeaweedFS, `s3_server.py`) behind a counting
proxy, filled with boto3. What is read from the bucket must agree with what is read from the same files on
disk; an unchanged re-index must read no object; workers with no shared disk render into the store; the
service answers from it; references that leave the prefix, hostile keys and a store that goes away are
handled as Docs/TeamSetup.md says."""
import io
import json
import os
import pathlib
import sqlite3
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from conftest import ROOT, FIXTURES, assetc_binary, free_port
from s3_server import ACCESS_KEY, REGION, SECRET_KEY, put_tree, started_behind_proxy

LIBRARY = FIXTURES / "library"


@pytest.fixture(scope="module")
def s3():
    server, client = started_behind_proxy()
    for base, prefix in ((LIBRARY, "library"), (ROOT / "Assets", "sample")):
        put_tree(client, "assets", base, prefix)
    # A USD with sublayers and a glTF with an external buffer and image, each beside what it names.
    for name in ("sublayers.usda", "layers/base.usda", "layers/lift.usda"):
        client.put_object(Bucket="assets", Key=f"refs/usd/{name}", Body=(FIXTURES / "usd" / name).read_bytes())
    for name in ("materials.gltf", "materials.bin", "textures/checker.png"):
        client.put_object(Bucket="assets", Key=f"refs/gltf/{name}", Body=(FIXTURES / "gltf" / name).read_bytes())
    yield server
    server.proxy.close()
    server.close()


def environment(s3, endpoint=None, **extra):
    env = dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY, AWS_REGION=REGION,
               AWS_ENDPOINT_URL=endpoint or s3.proxy.endpoint)
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_ENDPOINT_URL_S3"):
        env.pop(name, None)
    env.update(extra)
    return env


def assetc(s3, *args, cwd=None, timeout=300, **env):
    return subprocess.run([assetc_binary(), *map(str, args)], capture_output=True, text=True, timeout=timeout, cwd=cwd,
                          env=environment(s3, **env))


def records(database):
    with sqlite3.connect(database) as db:
        db.row_factory = sqlite3.Row
        return {row["id"]: dict(row) for row in db.execute("SELECT * FROM asset")}


FIGURES = ("kind", "format", "byteSize", "contentHash", "nodes", "meshes", "points", "faces", "triangles", "materials", "textures",
           "missingTextures", "warningCount", "upAxis", "metersPerUnit", "minX", "minY", "minZ", "maxX", "maxY", "maxZ", "arkitErrors", "arkitWarnings")


def test_a_bucket_indexes_as_the_same_files_on_disk(s3, tmp_path):
    on_disk = assetc(s3, "index", LIBRARY, "--db", tmp_path / "disk.sqlite")
    assert on_disk.returncode == 0, on_disk.stderr
    in_bucket = assetc(s3, "index", "s3://assets/library", "--db", tmp_path / "bucket.sqlite", cwd=tmp_path)
    assert in_bucket.returncode == 0, in_bucket.stderr
    disk, bucket = records(tmp_path / "disk.sqlite"), records(tmp_path / "bucket.sqlite")
    assert sorted(disk) == sorted(bucket) and len(disk) == 8
    for asset_id, row in disk.items():
        assert {k: row[k] for k in FIGURES} == {k: bucket[asset_id][k] for k in FIGURES}, asset_id
        assert bucket[asset_id]["root"] == "s3://assets/library"
        assert bucket[asset_id]["etag"]
    # The room references props and materials across the library: all resolved from the bucket.
    assert bucket["library/scenes/room.usda"]["triangles"] == 36 and bucket["library/scenes/room.usda"]["missingTextures"] == 0
    # Warnings name the bucket, never the staging folder; the stray prop's escape is refused at the prefix.
    with sqlite3.connect(tmp_path / "bucket.sqlite") as db:
        warnings = [w for (w,) in db.execute("SELECT message FROM assetWarning")]
    assert warnings and all("assetc-stage" not in w for w in warnings)
    assert any("s3://assets/library/props/stray/stray.usda" in w and "outside the asset root s3://assets/library" in w for w in warnings), warnings


def test_an_unchanged_reindex_reads_no_object_and_changes_are_seen(s3, tmp_path):
    database = tmp_path / "c.sqlite"
    first = assetc(s3, "index", "s3://assets/library", "--db", database)
    assert first.returncode == 0, first.stderr
    s3.proxy.reset()
    again = assetc(s3, "index", "s3://assets/library", "--db", database)
    assert again.returncode == 0, again.stderr
    assert "8 unchanged" in again.stdout
    assert s3.proxy.object_reads() == []
    assert any("list-type=2" in query for _, _, query in s3.proxy.requests)
    # One object changed, one deleted: the changed one is read (with what it references), the other leaves.
    client = s3.client()
    table = (LIBRARY / "props/table/table.usda").read_text().replace("metersPerUnit = 0.01", "metersPerUnit = 0.02")
    client.put_object(Bucket="assets", Key="library-changes/props/table/table.usda", Body=table.encode())
    for path in LIBRARY.rglob("*"):
        if path.is_file() and path.name != "table.usda" and path.name != "wood.usda":
            client.put_object(Bucket="assets", Key=f"library-changes/{path.relative_to(LIBRARY)}", Body=path.read_bytes())
    client.put_object(Bucket="assets", Key="library-changes/props/table/table.usda", Body=(LIBRARY / "props/table/table.usda").read_bytes())
    client.put_object(Bucket="assets", Key="library-changes/materials/wood.usda", Body=(LIBRARY / "materials/wood.usda").read_bytes())
    moving = tmp_path / "moving.sqlite"
    assert assetc(s3, "index", "s3://assets/library-changes", "--db", moving).returncode == 0
    client.put_object(Bucket="assets", Key="library-changes/props/table/table.usda", Body=table.encode())
    client.delete_object(Bucket="assets", Key="library-changes/props/stray/stray.usda")
    s3.proxy.reset()
    changed = assetc(s3, "index", "s3://assets/library-changes", "--db", moving)
    assert changed.returncode == 0, changed.stderr
    assert "1 updated" in changed.stdout and "1 removed" in changed.stdout, changed.stdout
    reads = s3.proxy.object_reads()
    assert "/assets/library-changes/props/table/table.usda" in reads
    assert all(not r.endswith("stray.usda") and not r.endswith("chair.usda") for r in reads), reads
    assert records(moving)["library-changes/props/table/table.usda"]["metersPerUnit"] == 0.02


def test_usd_sublayers_and_gltf_buffers_and_images_resolve_in_the_bucket(s3):
    for key, local in (("refs/usd/sublayers.usda", FIXTURES / "usd/sublayers.usda"), ("refs/gltf/materials.gltf", FIXTURES / "gltf/materials.gltf")):
        from_bucket = assetc(s3, "info", "--json", f"s3://assets/{key}")
        assert from_bucket.returncode == 0, from_bucket.stderr
        from_disk = assetc(s3, "info", "--json", local)
        ours, theirs = json.loads(from_bucket.stdout), json.loads(from_disk.stdout)
        assert {k: v for k, v in ours.items() if k not in ("file", "warnings")} == {k: v for k, v in theirs.items() if k not in ("file", "warnings")}
        folder = f"s3://assets/{key.rsplit('/', 1)[0]}"
        assert [w.replace(folder, str(local.parent)) for w in ours["warnings"]] == [w.replace(str(local.parent.relative_to(ROOT)), str(local.parent)) for w in theirs["warnings"]]
        assert not any("not found" in w for w in ours["warnings"]), ours["warnings"]
        assert ours["triangles"] > 0 and ours["nodes"] > 0
        assert "assetc-stage" not in from_bucket.stdout
        assert f"s3://assets/{key}" in from_bucket.stdout


def test_references_out_of_the_prefix_are_refused_and_never_fetched(s3, tmp_path):
    client = s3.client()
    client.put_object(Bucket="assets", Key="secret.usda", Body=b'#usda 1.0\ndef Mesh "Secret" { point3f[] points = [(0,0,0)] }\n')
    client.put_object(Bucket="assets", Key="other.bin", Body=b"\0" * 64)
    client.put_object(Bucket="assets", Key="jail/escape.usda", Body=b"""#usda 1.0
(
    subLayers = [@../secret.usda@, @/etc/hostname@]
)
def Xform "Root" (references = @../../secret.usda@) {}
""")
    gltf = {"asset": {"version": "2.0"}, "buffers": [{"uri": "../other.bin", "byteLength": 64}, {"uri": "s3://assets/other.bin", "byteLength": 64}],
            "images": [{"uri": "%2E%2E/other.png"}]}
    client.put_object(Bucket="assets", Key="jail/escape.gltf", Body=json.dumps(gltf).encode())
    s3.proxy.reset()
    for name in ("escape.usda", "escape.gltf"):
        result = assetc(s3, "info", f"s3://assets/jail/{name}")
        combined = result.stdout + result.stderr
        assert "refused" in combined or "outside the asset root" in combined or "not a relative path" in combined, combined
    reads = s3.proxy.object_reads()
    assert reads and all(r.startswith("/assets/jail/") for r in reads), reads
    database = tmp_path / "jail.sqlite"
    indexed = assetc(s3, "index", "s3://assets/jail", "--db", database)
    assert indexed.returncode == 0, indexed.stderr
    assert all(r.startswith("/assets/jail/") for r in s3.proxy.object_reads())


# Keys of many short folders: 1,017 bytes (S3 allows 1,024) and 1,117 (past it, if a server stores it).
LONG_OK = "hostile/" + "/".join(["d" * 49] * 20) + "/cube.usda"
LONG_OVER = "hostile/" + "/".join(["e" * 49] * 22) + "/cube.usda"


def test_hostile_keys_stay_in_the_prefix_and_out_of_the_html(s3, tmp_path):
    client = s3.client()
    cube = (LIBRARY / "_common/unit_cube.usda").read_bytes()
    keys = ["hostile/caf\u00e9.usda", "hostile/cafe\u0301.usda", "hostile/<script>alert(1)<\\script>.usda",
            "hostile/ctl\u0001char.usda", "hostile/" + "k" * 1000 + ".usda", "hostile/deep/../../escape.usda",
            LONG_OK, LONG_OVER]
    for key in keys:
        try:
            client.put_object(Bucket="assets", Key=key, Body=cube)
        except Exception:  # a server may refuse some of these keys itself; the rest are still tested
            pass
    stored = [o["Key"] for o in client.list_objects_v2(Bucket="assets", Prefix="hostile/", EncodingType="url").get("Contents", [])]
    stored = [urllib.parse.unquote_plus(k) for k in stored]
    assert "hostile/caf\u00e9.usda" in stored and "hostile/cafe\u0301.usda" in stored and any("<script>" in k for k in stored)
    database = tmp_path / "hostile.sqlite"
    result = assetc(s3, "index", "s3://assets/hostile", "--db", database)
    assert result.returncode == 0, result.stderr
    rows = records(database)
    ids = list(rows)
    assert all(i.startswith("hostile/") and "/../" not in i and "\u0001" not in i for i in ids), ids
    twins = [i for i in ids if i in ("hostile/caf\u00e9.usda", "hostile/cafe\u0301.usda")]
    assert sorted(t.encode() for t in twins) == sorted(["hostile/caf\u00e9.usda".encode(), "hostile/cafe\u0301.usda".encode()])
    assert all(rows[t]["triangles"] == 12 for t in twins)
    if "hostile/ctl\u0001char.usda" in stored:
        assert "control characters; not indexed" in result.stderr
    if "hostile/deep/../../escape.usda" in stored:
        assert "a key with a '..' component; not indexed" in result.stderr
    long_key = "hostile/" + "k" * 1000 + ".usda"
    if long_key in stored:
        # Within S3's 1,024 bytes, but no file system names a 1,005-byte component: recorded as unreadable.
        assert long_key in ids and "File name too long" in (rows[long_key]["error"] or ""), rows.get(long_key)
    assert LONG_OK in stored and rows[LONG_OK]["triangles"] == 12 and len(LONG_OK.encode()) <= 1024
    if LONG_OVER in stored:
        assert LONG_OVER not in ids and "bytes (at most 1024)" in result.stderr
    unchanged = assetc(s3, "index", "s3://assets/hostile", "--db", database)
    assert "0 added, 0 updated" in unchanged.stdout, unchanged.stdout
    port = free_port()
    server = subprocess.Popen([assetc_binary(), "serve", "--db", str(database), "--port", str(port), "--log-level", "error"],
                              env=environment(s3), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        page = wait_for(f"http://127.0.0.1:{port}/")
        assert "<script>alert(1)" not in page
        for twin in twins:
            body = fetch(f"http://127.0.0.1:{port}/api/assets/" + urllib.parse.quote(twin))
            assert json.loads(body)["record"]["id"] == twin
    finally:
        server.terminate()
        server.wait(timeout=30)


import urllib.parse  # noqa: E402


def fetch(url, timeout=30):
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return response.read().decode("utf-8", "replace")


def wait_for(url, seconds=60):
    deadline = time.time() + seconds
    while True:
        try:
            return fetch(url)
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.2)


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture
def postgres():
    """A new database on the PostgreSQL server Scripts/test starts: with the catalog there and the assets
    and thumbnails in the bucket, the workers share no disk at all."""
    import uuid
    from urllib.parse import urlsplit, urlunsplit
    server = os.environ.get("ASSETC_TEST_POSTGRES")
    if not server:
        pytest.fail("no PostgreSQL server: run Scripts/test, which starts one, or set ASSETC_TEST_POSTGRES")
    name = "assetc_bucket_" + uuid.uuid4().hex
    subprocess.run(["psql", "-X", "-q", server, "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True, timeout=60)
    parts = urlsplit(server)
    url = urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, ""))
    yield url
    subprocess.run(["psql", "-X", "-q", server, "-c", f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"], capture_output=True, timeout=60)


def sql(url, statement):
    result = subprocess.run(["psql", "-X", "-q", "-t", "-A", url, "-c", statement], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return [line.split("|") for line in result.stdout.strip().splitlines()]


def test_two_workers_with_no_shared_disk_render_into_the_bucket_and_serve_answers_from_it(s3, postgres, tmp_path):
    from PIL import Image
    database = postgres
    indexed = assetc(s3, "index", "s3://assets/sample", "--db", database, "--defer-thumbnails", "--thumbnail-store", "s3://assets/.team-store",
                     cwd=tmp_path)
    assert indexed.returncode == 0, indexed.stderr
    assert "3 thumbnail jobs recorded" in indexed.stdout
    workers = []
    for name in ("one", "two"):
        home = tmp_path / name
        (home / "tmp").mkdir(parents=True)
        workers.append(subprocess.Popen([assetc_binary(), "worker", "--db", str(database), "--thumbnail-store", "s3://assets/.team-store",
                                         "--batch", "1", "--name", name], cwd=home,
                                        env=environment(s3, TMPDIR=str(home / "tmp"), ASSETC_STAGING_DIR=str(home / "tmp")),
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    outcomes = [worker.communicate(timeout=300) for worker in workers]
    assert all(worker.returncode == 0 for worker in workers), outcomes
    assert sum(int(out.split()[1]) for out, _ in outcomes) == 3, outcomes
    for name in ("one", "two"):
        assert list((tmp_path / name / "tmp").iterdir()) == [], "a worker left staged objects behind"
        assert list((tmp_path / name).iterdir()) == [tmp_path / name / "tmp"]
    client = s3.client()
    stored = client.list_objects_v2(Bucket="assets", Prefix=".team-store/thumbnails/")["Contents"]
    assert len(stored) == 3
    thumbnails = dict(sql(database, "SELECT id, thumbnail FROM asset WHERE kind = 'model'"))
    assert set(thumbnails.values()) == {obj["Key"].removeprefix(".team-store/") for obj in stored}
    assert {row[0] for row in sql(database, "SELECT worker FROM thumbnailJob")} <= {"one", "two"}
    for obj in stored:
        head = client.head_object(Bucket="assets", Key=obj["Key"])
        assert head["ContentType"] == "image/png"
        picture = Image.open(io.BytesIO(client.get_object(Bucket="assets", Key=obj["Key"])["Body"].read()))
        assert picture.size == (256, 256) and picture.getextrema()[3][1] == 255  # something opaque was drawn
    # The service, with the workers' look (no ground shadow), answers from the store.
    port = free_port()
    server = subprocess.Popen([assetc_binary(), "serve", "--db", str(database), "--thumbnail-store", "s3://assets/.team-store", "--port", str(port),
                               "--no-shadow", "--log-level", "error"], env=environment(s3), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(f"http://127.0.0.1:{port}/health")
        s3.proxy.reset()
        url = f"http://127.0.0.1:{port}/api/assets/sample/Art.scnassets/ship.dae/thumbnail.png"
        with urllib.request.urlopen(url, timeout=60) as response:
            served = response.read()
        ship_key = ".team-store/" + thumbnails["sample/Art.scnassets/ship.dae"]
        assert served == client.get_object(Bucket="assets", Key=ship_key)["Body"].read()
        assert all(".team-store" in r for r in s3.proxy.object_reads()), "a stored thumbnail was rendered again"
        # A conversion is made once into the store, then sent from it by ranged reads.
        convert_url = f"http://127.0.0.1:{port}/api/assets/sample/Art.scnassets/ship.dae/convert?to=glb"
        with urllib.request.urlopen(convert_url, timeout=120) as response:
            made = response.read()
        glb_key = ".team-store/converted/" + sql(database, "SELECT contentHash FROM asset WHERE id = 'sample/Art.scnassets/ship.dae'")[0][0] + "/ship.glb"
        assert client.get_object(Bucket="assets", Key=glb_key)["Body"].read() == made and made[:4] == b"glTF"
        s3.proxy.reset()
        with urllib.request.urlopen(convert_url, timeout=120) as response:
            assert response.read() == made and int(response.headers["Content-Length"]) == len(made)
        assert s3.proxy.ranged == [("/assets/" + glb_key, f"bytes=0-{len(made) - 1}")]
    finally:
        server.terminate()
        server.wait(timeout=30)
    # With --redirect-to-store, a 302 to a presigned URL that needs no credentials.
    port = free_port()
    server = subprocess.Popen([assetc_binary(), "serve", "--db", str(database), "--thumbnail-store", "s3://assets/.team-store", "--port", str(port),
                               "--no-shadow", "--redirect-to-store", "--redirect-expires", "120", "--log-level", "error"], env=environment(s3),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/health")
        opener = urllib.request.build_opener(NoRedirect)
        with pytest.raises(urllib.error.HTTPError) as answer:
            opener.open(f"http://127.0.0.1:{port}/api/assets/sample/Art.scnassets/ship.dae/thumbnail.png", timeout=60)
        assert answer.value.code == 302
        location = answer.value.headers["Location"]
        assert "X-Amz-Signature=" in location and "X-Amz-Expires=120" in location and SECRET_KEY not in location
        with urllib.request.urlopen(location, timeout=30) as response:
            assert response.read() == served
        with pytest.raises(urllib.error.HTTPError) as download:
            opener.open(f"http://127.0.0.1:{port}/api/assets/sample/Art.scnassets/ship.dae/file", timeout=60)
        assert download.value.code == 302
        with urllib.request.urlopen(download.value.headers["Location"], timeout=30) as response:
            assert response.read() == (ROOT / "Assets/Art.scnassets/ship.dae").read_bytes()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_serve_indexes_a_bucket_itself_and_keeps_its_pictures_in_one(s3, tmp_path):
    port = free_port()
    database = tmp_path / "served.sqlite"
    server = subprocess.Popen([assetc_binary(), "serve", "s3://assets/library", "--db", str(database), "--thumbnail-store", "s3://assets/.served",
                               "--port", str(port), "--log-level", "error"], cwd=tmp_path, env=environment(s3),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        health = json.loads(wait_for(f"http://127.0.0.1:{port}/health", seconds=120))
        assert health["assets"] == "8"
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/assets/library/scenes/room.usda/thumbnail.png?size=128", timeout=60) as response:
            assert response.headers["Content-Type"] == "image/png" and response.read()[:4] == b"\x89PNG"
        stored = [o["Key"] for o in s3.client().list_objects_v2(Bucket="assets", Prefix=".served/thumbnails/")["Contents"]]
        assert len(stored) >= 7 and any("-128-" in key for key in stored)  # the index's, then the one asked for
        assert not (tmp_path / "thumbnails").exists()
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_convert_validate_and_thumbnail_read_and_write_buckets(s3, tmp_path):
    converted = assetc(s3, "convert", "s3://assets/library/scenes/room.usda", "s3://assets/out/room.usdz", "--asset-root", "s3://assets/library", "--force")
    assert converted.returncode == 0, converted.stderr
    assert "wrote s3://assets/out/room.usdz" in converted.stdout
    again = assetc(s3, "convert", "s3://assets/library/scenes/room.usda", "s3://assets/out/room.usdz", "--asset-root", "s3://assets/library")
    assert again.returncode == 3 and "exists" in again.stderr
    local = tmp_path / "room.usdz"
    assert assetc(s3, "convert", LIBRARY / "scenes/room.usda", local, "--asset-root", LIBRARY).returncode == 0
    uploaded = s3.client().get_object(Bucket="assets", Key="out/room.usdz")
    assert uploaded["ContentType"] == "model/vnd.usdz+zip"
    from_bucket, from_disk = (json.loads(assetc(s3, "info", "--json", where).stdout) for where in ("s3://assets/out/room.usdz", local))
    assert from_bucket["triangles"] == from_disk["triangles"] == 36
    assert from_bucket["textures"] == from_disk["textures"] == 1 and from_bucket["bounds"] == from_disk["bounds"]
    validated = assetc(s3, "validate", "s3://assets/out/room.usdz")
    assert validated.returncode == 0 and "s3://assets/out/room.usdz" in validated.stdout, validated.stdout + validated.stderr
    batch = assetc(s3, "convert", "s3://assets/library/props", "--to", "glb", "--out-dir", "s3://assets/out/glb", "--asset-root", "s3://assets/library")
    assert batch.returncode == 0, batch.stderr
    keys = sorted(o["Key"] for o in s3.client().list_objects_v2(Bucket="assets", Prefix="out/glb/")["Contents"])
    assert keys == ["out/glb/chair/chair.glb", "out/glb/stray/stray.glb", "out/glb/table/table.glb"]  # named below the folder given, as on disk
    pictures = assetc(s3, "thumbnail", "s3://assets/sample", "--out", "s3://assets/out/pictures")
    assert pictures.returncode == 0, pictures.stderr
    assert "assetc-stage" not in pictures.stdout + pictures.stderr
    assert len(s3.client().list_objects_v2(Bucket="assets", Prefix="out/pictures/sample/")["Contents"]) == 3


def test_large_objects_go_up_in_parts(s3, tmp_path):
    big = tmp_path / "big.bin"
    big.write_bytes(os.urandom(70 * 1024 * 1024))
    result = assetc(s3, "storage", "cp", big, "s3://assets/big/big.bin", "--force")
    assert result.returncode == 0, result.stderr
    head = s3.client().head_object(Bucket="assets", Key="big/big.bin")
    assert head["ContentLength"] == big.stat().st_size and head["ETag"].strip('"').endswith("-5")
    back = tmp_path / "back.bin"
    assert assetc(s3, "storage", "cp", "s3://assets/big/big.bin", back).returncode == 0
    assert back.read_bytes() == big.read_bytes()


def test_storage_rm_deletes_an_object_or_a_prefix(s3, tmp_path):
    client = s3.client()
    for key in ("trash/a.usda", "trash/sub/b.usda", "trash/c d.usda", "keep/x.usda"):
        client.put_object(Bucket="assets", Key=key, Body=b"#usda 1.0\n")
    s3.proxy.reset()
    one = assetc(s3, "storage", "rm", "s3://assets/trash/c d.usda")
    assert one.returncode == 0 and "deleted 1 object" in one.stdout, one.stderr
    assert ("DELETE", "/assets/trash/c d.usda", "") in s3.proxy.requests
    assert assetc(s3, "storage", "rm", "s3://assets/trash/c d.usda").returncode == 0, "deleting what is gone is not an error"
    rest = assetc(s3, "storage", "rm", "s3://assets/trash", "--recursive")
    assert rest.returncode == 0 and "deleted 2 objects" in rest.stdout, rest.stderr
    assert client.list_objects_v2(Bucket="assets", Prefix="trash/")["KeyCount"] == 0
    assert client.head_object(Bucket="assets", Key="keep/x.usda")["ContentLength"] == 10
    local = assetc(s3, "storage", "rm", tmp_path)
    assert local.returncode != 0 and "does not delete local files" in local.stderr


def test_an_object_over_the_read_limit_is_a_located_error_before_it_is_read(s3):
    s3.client().put_object(Bucket="assets", Key="limits/large.usda", Body=b"#usda 1.0\n" + b"#" * 4096 + b"\n")
    result = assetc(s3, "info", "s3://assets/limits/large.usda", "--max-file-size", "1K")
    assert result.returncode == 1, result.stderr
    assert "assetc: error: s3://assets/limits/large.usda: limit exceeded: the object is 4107 bytes (at most 1024)" in result.stderr
    assert assetc(s3, "info", "s3://assets/limits/large.usda", "--max-file-size", "5K").returncode == 0
    # A reference over the limit: the reader sees it missing, and the warning says why.
    referenced = assetc(s3, "info", "s3://assets/library/scenes/room.usda", "--asset-root", "s3://assets/library", "--max-file-size", "400")
    assert "s3://assets/library/props/chair/chair.usda: limit exceeded: the object is 914 bytes (at most 400)" in referenced.stderr, referenced.stderr


def test_a_reference_the_store_refuses_is_named_by_info_worker_and_serve(s3, tmp_path):
    """A texture a bucket policy denies: the model is still read and pictured, and every command says which
    object was refused and why, not only the reader's "not found"."""
    database = tmp_path / "denied.sqlite"
    indexed = assetc(s3, "index", "s3://assets/sample/Art.scnassets", "--db", database, "--defer-thumbnails")
    assert indexed.returncode == 0, indexed.stderr
    texture = "s3://assets/sample/Art.scnassets/textures/planks.png"
    s3.proxy.forbidden = {"/assets/sample/Art.scnassets/textures/planks.png"}
    try:
        info = assetc(s3, "info", "s3://assets/sample/Art.scnassets/ship.dae")
        assert info.returncode == 0, info.stderr
        assert f"{texture}: " in info.stderr and "AccessDenied" in info.stderr, info.stderr
        worker = assetc(s3, "worker", "--db", database)
        assert worker.returncode == 0 and "rendered 1 thumbnails" in worker.stdout, worker.stdout + worker.stderr
        assert f"assetc: worker: warning: {texture}: " in worker.stderr and "AccessDenied" in worker.stderr, worker.stderr
        port = free_port()
        server = subprocess.Popen([assetc_binary(), "serve", "--db", str(database), "--port", str(port), "--log-level", "warning"],
                                  env=environment(s3), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            wait_for(f"http://127.0.0.1:{port}/health")
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/assets/Art.scnassets/ship.dae/thumbnail.png?size=96", timeout=120) as answer:
                assert answer.status == 200 and answer.read()[:4] == b"\x89PNG"
        finally:
            server.terminate()
            _, log = server.communicate(timeout=30)
        assert "a reference was not fetched" in log and texture in log and "AccessDenied" in log, log
    finally:
        s3.proxy.forbidden = set()


def test_listings_follow_continuation_tokens_and_slow_down_is_retried(s3, tmp_path):
    folder = tmp_path / "many"
    for i in range(1005):
        (folder / f"set{i % 3}").mkdir(parents=True, exist_ok=True)
        (folder / f"set{i % 3}" / f"part{i:04d}.png").write_bytes(b"\x89PNG" + i.to_bytes(4, "big"))
    assert assetc(s3, "storage", "cp", folder, "s3://assets/many").returncode == 0
    s3.proxy.reset()
    s3.proxy.slow_down = 3
    listed = assetc(s3, "storage", "ls", "s3://assets/many", "--json")
    assert listed.returncode == 0, listed.stderr
    assert listed.stderr.count("SlowDown; trying again") == 3
    keys = [json.loads(line)["key"] for line in listed.stdout.splitlines()]
    assert len(keys) == len(set(keys)) == 1005 and keys == sorted(keys)
    pages = [query for method, _, query in s3.proxy.requests if "list-type=2" in query]
    assert len(pages) == 3 + 2 and sum("continuation-token=" in q for q in pages) >= 1  # 3 refused, then 2 pages of 1,000 and 5
    # A listing whose bytes do not decode in the encoding it declares: one error line, no libxml2 noise.
    s3.proxy.garbled = 1
    garbled = assetc(s3, "storage", "ls", "s3://assets/many")
    assert garbled.returncode != 0 and garbled.stderr.startswith("assetc: error: s3://assets/many"), garbled.stderr
    assert "encoding error" not in garbled.stderr and len(garbled.stderr.splitlines()) == 1, garbled.stderr


def test_wrong_credentials_exit_3_with_s3s_code_and_no_secret(s3, tmp_path):
    result = assetc(s3, "index", "s3://assets/library", "--db", tmp_path / "c.sqlite", AWS_SECRET_ACCESS_KEY="wrong-secret-value")
    assert result.returncode == 3, result.stderr
    assert "SignatureDoesNotMatch" in result.stderr
    assert "wrong-secret-value" not in result.stderr + result.stdout
    unknown = assetc(s3, "storage", "ls", "s3://assets/library", AWS_ACCESS_KEY_ID="NOSUCHKEY")
    assert unknown.returncode == 3 and ("InvalidAccessKeyId" in unknown.stderr or "AccessDenied" in unknown.stderr), unknown.stderr


def test_an_object_deleted_between_listing_and_reading_is_skipped(s3, tmp_path):
    s3.proxy.deleted.add("/assets/library/props/stray/stray.usda")
    try:
        result = assetc(s3, "index", "s3://assets/library", "--db", tmp_path / "c.sqlite")
    finally:
        s3.proxy.deleted.clear()
    assert result.returncode == 0, result.stderr
    assert "stray.usda: deleted after the listing; left out" in result.stderr
    assert "library/props/stray/stray.usda" not in records(tmp_path / "c.sqlite")


def test_the_store_going_away_and_coming_back(s3, tmp_path):
    database = tmp_path / "c.sqlite"
    assert assetc(s3, "index", "s3://assets/sample", "--db", database, "--defer-thumbnails", "--thumbnail-store", "s3://assets/.fault-store").returncode == 0
    port = free_port()
    server = subprocess.Popen([assetc_binary(), "serve", "--db", str(database), "--thumbnail-store", "s3://assets/.fault-store", "--port", str(port),
                               "--log-level", "error"], env=environment(s3), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for(f"http://127.0.0.1:{port}/health")
        s3.kill()
        # index and worker try within their bound, then exit 75 naming the endpoint.
        started = time.time()
        index = assetc(s3, "index", "s3://assets/sample", "--db", tmp_path / "other.sqlite", "--retry-for", "3")
        assert index.returncode == 75, index.stderr
        assert s3.proxy.endpoint in index.stderr and time.time() - started < 30
        worker = assetc(s3, "worker", "--db", database, "--thumbnail-store", "s3://assets/.fault-store", "--retry-for", "3")
        assert worker.returncode == 75, worker.stdout + worker.stderr
        assert s3.proxy.endpoint in worker.stderr
        # The service answers 503 with Retry-After within 5 seconds...
        started = time.time()
        with pytest.raises(urllib.error.HTTPError) as answer:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/assets/sample/Art.scnassets/ship.dae/thumbnail.png", timeout=10)
        assert answer.value.code == 503 and answer.value.headers["Retry-After"]
        assert time.time() - started < 5
        # ...a run started while the store is down finishes once it is back...
        pending = subprocess.Popen([assetc_binary(), "worker", "--db", str(database), "--thumbnail-store", "s3://assets/.fault-store"],
                                   env=environment(s3), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(2)
        s3.start()
        out, err = pending.communicate(timeout=300)
        assert pending.returncode == 0, out + err
        assert "rendered 3 thumbnails" in out and "trying again" in err
        # ...and the service recovers by itself.
        deadline = time.time() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/assets/sample/Art.scnassets/ship.dae/thumbnail.png", timeout=30) as response:
                    assert response.status == 200
                    break
            except urllib.error.HTTPError as error:
                assert error.code == 503 and time.time() < deadline
                time.sleep(0.5)
    finally:
        if s3.process is None:
            s3.start()
        server.terminate()
        server.wait(timeout=30)


def test_the_store_stopping_in_the_middle_of_an_index(s3, tmp_path):
    """The server is killed while an index is fetching its batches: with room to wait, the index rides it
    out and finishes; without, it exits 75, keeps what it recorded, and the next run reads only the rest."""
    client = s3.client()
    layer = (FIXTURES / "usd" / "minimal_mesh.usda").read_text()
    for k in range(120):
        client.put_object(Bucket="assets", Key=f"stopping/quad{k:03}.usda", Body=layer.replace('"Quad"', f'"Quad{k}"').encode())
    def index_while_killed(database, *extra, restart_after):
        s3.proxy.reset()
        s3.proxy.delay = 0.05
        run = subprocess.Popen([assetc_binary(), "index", "s3://assets/stopping", "--db", str(database), *extra], env=environment(s3),
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            deadline = time.time() + 60
            while len(s3.proxy.object_reads()) < 20:
                assert run.poll() is None and time.time() < deadline, "the index ended before the server could be stopped"
                time.sleep(0.02)
            s3.kill()
            if restart_after is not None:
                time.sleep(restart_after)
                s3.start()
            out, err = run.communicate(timeout=300)
            return run.returncode, out, err
        finally:
            s3.proxy.delay = 0
            if s3.process is None:
                s3.start()
    rides_out = tmp_path / "rides-out.sqlite"
    code, out, err = index_while_killed(rides_out, "--retry-for", "120", restart_after=2)
    assert code == 0 and "120 added" in out and "trying again" in err, out + err
    assert len(records(rides_out)) == 120
    gives_up = tmp_path / "gives-up.sqlite"
    code, out, err = index_while_killed(gives_up, "--retry-for", "2", restart_after=None)
    assert code == 75 and s3.proxy.endpoint in err, out + err
    kept = records(gives_up) if gives_up.exists() else {}
    assert len(kept) < 120
    s3.proxy.reset()
    resumed = assetc(s3, "index", "s3://assets/stopping", "--db", gives_up)
    assert resumed.returncode == 0, resumed.stderr
    assert len(records(gives_up)) == 120
    assert len(s3.proxy.object_reads()) == 120 - len(kept), "what the stopped run recorded was read again"
    hashes = {k: v["contentHash"] for k, v in records(gives_up).items()}
    assert hashes == {k: v["contentHash"] for k, v in records(rides_out).items()}
