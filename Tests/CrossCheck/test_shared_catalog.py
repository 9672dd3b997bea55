"""Several assetc processes on one PostgreSQL catalog (issue 20): two indexers on the same folder and
two thumbnail workers, all at once, end with every asset recorded once with its thumbnail; an
indexer killed mid-run leaves a catalog that answers queries, and the next run completes it.

The server is the throwaway one Scripts/test starts (Scripts/lib/postgres.sh, ASSETC_TEST_POSTGRES);
each test gets a database of its own. The SQLite catalog of the same folder is the reference for
what a single, undisturbed indexer records.
"""
import json
import re
import os
import signal
import sqlite3
import subprocess
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from conftest import assetc_binary, run_assetc


def server_url():
    url = os.environ.get("ASSETC_TEST_POSTGRES")
    if not url:
        pytest.fail("no PostgreSQL server: run Scripts/test, which starts one, or set ASSETC_TEST_POSTGRES")
    return url


def psql(url, sql):
    result = subprocess.run(["psql", "-X", "-q", "-t", "-A", "-v", "ON_ERROR_STOP=1", url, "-c", sql],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, f"psql {sql}: {result.stderr}"
    return result.stdout.strip()


@pytest.fixture
def database():
    """A new, empty database on the test server; dropped afterwards."""
    server = server_url()
    name = "assetc_shared_" + uuid.uuid4().hex
    psql(server, f"CREATE DATABASE {name}")
    parts = urlsplit(server)
    yield urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, ""))
    psql(server, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def write_library(folder, count):
    """`count` small OBJ models, each a box of its own size, in a few subfolders."""
    for i in range(count):
        sub = folder / f"set{i % 7}"
        sub.mkdir(parents=True, exist_ok=True)
        sx, sy, sz = 1 + i % 5, 1 + (i // 5) % 3, 0.5 + (i % 11) / 4
        corners = [(x * sx, y * sy, z * sz) for x in (0, 1) for y in (0, 1) for z in (0, 1)]
        faces = [(1, 2, 4, 3), (5, 7, 8, 6), (1, 5, 6, 2), (3, 4, 8, 7), (1, 3, 7, 5), (2, 6, 8, 4)]
        lines = [f"o part{i}"] + [f"v {x} {y} {z}" for x, y, z in corners] + ["f " + " ".join(map(str, f)) for f in faces]
        (sub / f"box{i:04d}.obj").write_text("\n".join(lines) + "\n")


def reference_rows(folder, tmp_path):
    """What one undisturbed indexer records: (id -> record) and child-row counts, from SQLite."""
    db = tmp_path / "reference.sqlite"
    result = run_assetc("index", str(folder), "--db", str(db), timeout=600)
    assert result.returncode == 0, result.stderr
    records = json.loads(run_assetc("query", "--db", str(db), "--json", timeout=120).stdout)
    with sqlite3.connect(db) as connection:
        names = dict(connection.execute("SELECT assetId, COUNT(*) FROM assetName GROUP BY assetId").fetchall())
    return {r["id"]: r for r in records}, names


def comparable(record):
    return {k: v for k, v in record.items() if k not in ("indexedAt", "thumbnail")}


def test_two_indexers_and_two_workers_record_every_asset_once(tmp_path, database):
    library = tmp_path / "lib"
    write_library(library, 240)
    store = tmp_path / "thumbnails"
    expected, expected_names = reference_rows(library, tmp_path)
    assert len(expected) == 240

    common = ["--db", database, "--thumbnail-store", str(store)]
    # The schema is made by whichever process comes first; the others wait on its lock.
    workers = [subprocess.Popen([assetc_binary(), "worker", "--watch", "--batch", "4", "--name", f"w{k}", *common],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(2)]
    indexers = [subprocess.Popen([assetc_binary(), "index", str(library), "--defer-thumbnails", "--thumbnail-size", "64", *common],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    try:
        for indexer in indexers:
            out, err = indexer.communicate(timeout=600)
            assert indexer.returncode == 0, err
            assert "240 models" in out, out
        deadline = time.time() + 600
        while time.time() < deadline:
            counts = json.loads(run_assetc("jobs", "--json", *common).stdout)
            if counts["pending"] == 0 and counts["running"] == 0:
                break
            time.sleep(0.5)
        else:
            pytest.fail(f"jobs never finished: {counts}")
    finally:
        for worker in workers:
            worker.send_signal(signal.SIGTERM)
    rendered = 0
    for worker in workers:
        out, err = worker.communicate(timeout=120)
        assert worker.returncode == 0, err
        rendered += int(out.split("rendered ")[1].split(" ")[0])

    # Every asset once, each exactly as the undisturbed indexer recorded it, children not doubled.
    assert psql(database, "SELECT COUNT(*), COUNT(DISTINCT id) FROM asset") == "240|240"
    got = {r["id"]: r for r in json.loads(run_assetc("query", "--db", database, "--json", timeout=120).stdout)}
    assert {k: comparable(v) for k, v in got.items()} == {k: comparable(v) for k, v in expected.items()}
    names = dict(line.split("|") for line in psql(database, "SELECT assetId, COUNT(*) FROM assetName GROUP BY assetId").splitlines())
    assert {k: int(v) for k, v in names.items()} == expected_names
    assert psql(database, "SELECT COUNT(*) FROM assetSearch") == "240"

    # Every thumbnail rendered once, attached to its record and present in the shared store.
    counts = json.loads(run_assetc("jobs", "--json", *common).stdout)
    assert counts == {"pending": 0, "running": 0, "done": 240, "failed": 0}
    assert rendered == 240, "the second indexer's jobs for the same content kept the first's state: nothing rendered twice"
    for record in got.values():
        assert re.fullmatch(rf"thumbnails/{record['contentHash']}-64-iso-[0-9a-f]{{8}}\.png", record["thumbnail"]), record["thumbnail"]
        assert (store / record["thumbnail"]).read_bytes()[:4] == b"\x89PNG"
    found = run_assetc("search", "box0007", "--db", database, "--json")
    assert [r["id"] for r in json.loads(found.stdout)] == ["lib/set0/box0007.obj"]


def test_a_killed_indexer_leaves_a_readable_catalog_and_the_next_run_completes(tmp_path, database):
    # An indexer that finishes before the first committed row is seen cannot be killed midway: the
    # attempt is repeated on a library four times larger (on an empty catalog), never passed over.
    for count in (400, 1600, 6400):
        library = tmp_path / f"lib{count}"
        write_library(library, count)
        indexer = subprocess.Popen([assetc_binary(), "index", str(library), "--db", database],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # Killed once some transactions have committed, and before all have.
        deadline = time.time() + 300
        stored = 0
        while time.time() < deadline and indexer.poll() is None:
            if "asset" in psql(database, "SELECT string_agg(tablename, ',') FROM pg_tables WHERE tablename = 'asset'"):
                stored = int(psql(database, "SELECT COUNT(*) FROM asset"))
                if stored > 0:
                    break
            time.sleep(0.02)
        indexer.kill()
        indexer.communicate(timeout=60)
        if indexer.returncode == -signal.SIGKILL:
            break
        psql(database, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    assert indexer.returncode == -signal.SIGKILL, "the indexer was still running when killed"
    assert 0 < stored < count
    expected, _ = reference_rows(library, tmp_path)

    # Readable: every recorded asset is whole (its search row written in the same transaction).
    listed = run_assetc("query", "--db", database, "--json")
    assert listed.returncode == 0, listed.stderr
    partial = json.loads(listed.stdout)
    assert 0 < len(partial) < count
    assert psql(database, "SELECT COUNT(*) FROM asset a LEFT JOIN assetSearch s ON s.assetId = a.id WHERE s.assetId IS NULL") == "0"
    for record in partial:
        assert comparable(record) == comparable(expected[record["id"]])

    rerun = run_assetc("index", str(library), "--db", database, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{count - len(partial)} added" in rerun.stdout and f"{len(partial)} unchanged" in rerun.stdout, rerun.stdout
    final = {r["id"]: comparable(r) for r in json.loads(run_assetc("query", "--db", database, "--json", timeout=120).stdout)}
    assert final == {k: comparable(v) for k, v in expected.items()}


def test_a_wrong_connection_string_is_one_located_error(tmp_path):
    closed_port = "postgres://nobody@127.0.0.1:1/none?sslmode=disable&connect_timeout=5"
    result = run_assetc("query", "--db", closed_port)
    assert result.returncode == 75, "a server that is not there is a failure to try again later: " + result.stderr
    assert result.stderr.count("assetc: error:") == 1
    assert "postgres://nobody@127.0.0.1:1/none" in result.stderr and "connect" in result.stderr.lower(), result.stderr
    bad = run_assetc("query", "--db", "postgres://host/db?sslmode=sometimes")
    assert bad.returncode == 1 and "sslmode 'sometimes'" in bad.stderr, bad.stderr
    secret = run_assetc("query", "--db", "postgres://me:hunter2@127.0.0.1:1/db?sslmode=disable&connect_timeout=5")
    assert secret.returncode == 75 and "hunter2" not in secret.stderr, "the password is never printed"


def test_assetc_db_names_the_catalog_and_the_store_goes_with_postgres(tmp_path, database):
    library = tmp_path / "lib"
    write_library(library, 3)
    env = dict(os.environ, ASSETC_DB=database)
    index = subprocess.run([assetc_binary(), "index", str(library), "--thumbnail-store", str(tmp_path / "store"), "--thumbnails",
                            "--thumbnail-size", "32"], capture_output=True, text=True, env=env, timeout=120)
    assert index.returncode == 0, index.stderr
    assert "into postgres://" in index.stdout and "3 added" in index.stdout, index.stdout
    assert len(list((tmp_path / "store" / "thumbnails").glob("*-32-iso-*.png"))) == 3
    listed = subprocess.run([assetc_binary(), "query", "--json"], capture_output=True, text=True, env=env, timeout=60)
    assert [r["id"] for r in json.loads(listed.stdout)] == ["lib/set0/box0000.obj", "lib/set1/box0001.obj", "lib/set2/box0002.obj"]
    explicit = subprocess.run([assetc_binary(), "query", "--db", str(tmp_path / "none.sqlite")], capture_output=True, text=True,
                              env=env, timeout=60)
    assert explicit.returncode == 3 and "run assetc index first" in explicit.stderr, "--db wins over ASSETC_DB"
    sqlite_store = run_assetc("index", str(library), "--db", str(tmp_path / "c.sqlite"), "--thumbnail-store", str(tmp_path / "s"))
    assert sqlite_store.returncode == 1 and "--thumbnail-store is for a PostgreSQL catalog" in sqlite_store.stderr, sqlite_store.stderr


def test_two_indexers_creating_one_sqlite_catalog_take_turns(tmp_path):
    """Both find no tables; the second waits for the first's schema instead of making it again."""
    library = tmp_path / "lib"
    write_library(library, 40)
    for attempt in range(6):
        db = tmp_path / f"fresh{attempt}" / "catalog.sqlite"
        runs = [subprocess.Popen([assetc_binary(), "index", str(library / f"set{k}"), "--db", str(db)],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for k in range(2)]
        for run in runs:
            _, err = run.communicate(timeout=120)
            assert run.returncode == 0, err
        with sqlite3.connect(db) as connection:
            assert connection.execute("SELECT COUNT(*) FROM asset").fetchone()[0] == 12
