"""A PostgreSQL catalog whose server goes away (issue 38): the test stops its own server at once
(`pg_ctl stop -m immediate`, as a crash or a lost host) while `index`, `serve` and `worker` run,
then starts it again.

- `index` stops within seconds with "database unreachable" and status 75; a re-run records every
  asset once, exactly as an undisturbed SQLite index does.
- `serve` answers `/health` and the API with 503 and a JSON error within two seconds while the
  server is down, and answers normally again by itself once it is back.
- `worker` keeps what it rendered, retries, and finishes every job once.
"""
import json
import os
import socket
import subprocess
import time
import urllib.error
import urllib.request

import pytest

from conftest import assetc_binary, run_assetc
from postgres_server import PostgresServer
from test_shared_catalog import comparable, psql, reference_rows, write_library


@pytest.fixture
def server():
    server = PostgresServer()
    server.start()
    yield server
    server.close()


def count(server, sql):
    return int(psql(server.url, sql) or 0)


def wait_for(condition, seconds, step=0.02):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(step)
    return False


def test_index_stops_within_seconds_and_a_rerun_records_every_asset_once(tmp_path, server):
    # An indexer that finishes before the server is stopped proves nothing: then the library is
    # four times larger and the catalog emptied.
    for size in (8000, 32000):
        library = tmp_path / f"lib{size}"
        write_library(library, size)
        indexer = subprocess.Popen([assetc_binary(), "index", str(library), "--db", server.url],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert wait_for(lambda: indexer.poll() is not None or
                        psql(server.url, "SELECT to_regclass('asset') IS NOT NULL") == "t" and count(server, "SELECT COUNT(*) FROM asset") > 0, 300)
        stored = count(server, "SELECT COUNT(*) FROM asset")
        stopped = time.time()
        server.stop_immediately()
        out, err = indexer.communicate(timeout=120)
        waited = time.time() - stopped
        if indexer.returncode != 0:
            break
        server.start()
        psql(server.url, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
    assert indexer.returncode == 75, (out, err)
    assert waited < 10, f"index took {waited:.1f} s to give up"
    assert err.count("assetc: error:") == 1 and "database unreachable" in err, err
    # What the indexer was doing decides which it saw first: a new connection refused, or its own closed.
    assert any(why in err for why in ("connection refused", "connection reset by peer", "the server closed the connection")), err
    assert len(err.strip().splitlines()) == 1, err
    assert "127.0.0.1" in err, "the error names the database"

    server.start()
    partial = count(server, "SELECT COUNT(*) FROM asset")
    assert stored <= partial < size
    rerun = run_assetc("index", str(library), "--db", server.url, timeout=600)
    assert rerun.returncode == 0, rerun.stderr
    assert f"{size - partial} added" in rerun.stdout and f"{partial} unchanged" in rerun.stdout, rerun.stdout
    expected, names = reference_rows(library, tmp_path)
    final = {r["id"]: comparable(r) for r in json.loads(run_assetc("query", "--db", server.url, "--json", timeout=300).stdout)}
    assert final == {k: comparable(v) for k, v in expected.items()}
    assert count(server, "SELECT COUNT(*) FROM assetName") == sum(names.values()), "no child row lost or doubled"
    assert count(server, "SELECT COUNT(*) FROM asset a LEFT JOIN assetSearch s ON s.assetId = a.id WHERE s.assetId IS NULL") == 0


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url):
    """(status, headers, body, seconds) of one GET, whatever the status."""
    started = time.time()
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers, response.read(), time.time() - started
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read(), time.time() - started


def test_serve_answers_503_within_two_seconds_while_the_database_is_down_and_recovers(tmp_path, server):
    library = tmp_path / "lib"
    write_library(library, 20)
    assert run_assetc("index", str(library), "--db", server.url, timeout=120).returncode == 0
    port = free_port()
    service = subprocess.Popen([assetc_binary(), "serve", "--db", server.url, "--port", str(port)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        base = f"http://127.0.0.1:{port}"
        assert wait_for(lambda: service.poll() is None and _answers(base + "/health"), 60, step=0.1), service.stderr
        status, _, body, _ = get(base + "/health")
        assert status == 200 and json.loads(body)["assets"] == "20"

        server.stop_immediately()
        asset = "lib/set0/box0000.obj"
        for path in ("/health", "/api/assets?limit=5", "/api/search?q=part3", f"/api/assets/{asset}", "/health"):
            status, headers, body, seconds = get(base + path)
            assert status == 503, (path, status, body)
            assert seconds < 2, f"{path} took {seconds:.2f} s"
            message = json.loads(body)["error"]["message"]
            assert "database unreachable" in message and "127.0.0.1" in message, message
            assert headers["Retry-After"] == "1"

        server.start()
        back = time.time()
        assert wait_for(lambda: get(base + "/health")[0] == 200, 15, step=0.1), "serve never recovered"
        print(f"recovered {time.time() - back:.2f} s after the server started")
        status, _, body, _ = get(base + "/api/assets?limit=100")
        assert status == 200 and len(json.loads(body)["items"]) == 20
        status, _, body, _ = get(base + f"/api/assets/{asset}")
        assert status == 200 and json.loads(body)["record"]["id"] == asset
    finally:
        service.terminate()
        service.communicate(timeout=30)


def _answers(url):
    try:
        return get(url)[0] == 200
    except OSError:
        return False


def test_a_worker_rides_out_an_outage_and_finishes_every_job_once(tmp_path, server):
    library = tmp_path / "lib"
    write_library(library, 120)
    store = tmp_path / "store"
    index = run_assetc("index", str(library), "--db", server.url, "--defer-thumbnails", "--thumbnail-size", "64",
                       "--thumbnail-store", str(store), timeout=300)
    assert index.returncode == 0 and "120 thumbnail jobs recorded" in index.stdout, index.stdout + index.stderr
    # --watch: a worker that only polls stops when it finds no pending job; this one waits for the
    # server. A short lease lets a claim whose answer the outage swallowed come back quickly.
    worker = subprocess.Popen([assetc_binary(), "worker", "--db", server.url, "--thumbnail-store", str(store),
                               "--watch", "--batch", "4", "--lease", "5", "--name", "w1"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: count(server, "SELECT COUNT(*) FROM thumbnailJob WHERE state = 'done'") > 0, 120)
        server.stop_immediately()
        time.sleep(4)
        assert worker.poll() is None, "the worker keeps waiting for the database"
        server.start()
        assert wait_for(lambda: count(server, "SELECT COUNT(*) FROM thumbnailJob WHERE state = 'done'") == 120, 120, step=0.2), \
            psql(server.url, "SELECT state, COUNT(*) FROM thumbnailJob GROUP BY state")
    finally:
        worker.terminate()
        out, err = worker.communicate(timeout=60)
    assert worker.returncode == 0, err
    assert "database unreachable" in err and "trying again in" in err, err
    assert "rendered 120 thumbnails, 0 failed" in out, out
    assert count(server, "SELECT COUNT(*) FROM asset WHERE thumbnail IS NOT NULL") == 120
    assert count(server, "SELECT COUNT(*) FROM thumbnailJob WHERE attempts > 1") == 0, "no job was claimed twice"
    assert len(list((store / "thumbnails").glob("*-64-iso-*.png"))) == len(set(
        psql(server.url, "SELECT contentHash FROM asset").split()))


def test_a_worker_started_without_retries_gives_up_with_status_75(tmp_path, server):
    library = tmp_path / "lib"
    write_library(library, 8)
    store = tmp_path / "store"
    assert run_assetc("index", str(library), "--db", server.url, "--defer-thumbnails", "--thumbnail-store", str(store)).returncode == 0
    server.stop_immediately()
    started = time.time()
    refused = run_assetc("worker", "--db", server.url, "--thumbnail-store", str(store), timeout=60)
    assert refused.returncode == 75 and "cannot open the catalog" in refused.stderr and "connection refused" in refused.stderr, refused.stderr
    assert time.time() - started < 5
    assert run_assetc("query", "--db", server.url, "--db-connect-timeout", "0").returncode == 64, "--db-connect-timeout takes seconds"
    # A server that answers with a refusal is not an outage: no retrying helps a missing database.
    server.start()
    missing = run_assetc("query", "--db", server.url.replace("/postgres?", "/no_such_database?"))
    assert missing.returncode == 3 and "does not exist" in missing.stderr, missing.stderr


def test_a_statement_past_its_timeout_is_cancelled_by_the_server_and_named(tmp_path, server):
    library = tmp_path / "lib"
    write_library(library, 4)
    assert run_assetc("index", str(library), "--db", server.url).returncode == 0
    # Another session holds the table: assetc's statement waits on the lock until the server
    # cancels it, which a server that answers does after statement_timeout.
    holder = subprocess.Popen(["psql", "-X", "-q", server.url, "-c",
                               "BEGIN; LOCK TABLE asset IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(30); COMMIT;"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: count(server, "SELECT COUNT(*) FROM pg_locks WHERE mode = 'AccessExclusiveLock' AND relation = 'asset'::regclass") > 0, 30)
        started = time.time()
        slow = run_assetc("query", "--db", server.url, "--db-statement-timeout", "1", timeout=60)
        took = time.time() - started
        assert slow.returncode == 3, slow.stderr
        assert "statement timeout" in slow.stderr and "--db-statement-timeout allows longer" in slow.stderr, slow.stderr
        assert 1 <= took < 5, f"{took:.1f} s"
        via_string = run_assetc("query", "--db", server.url + "&statement_timeout=1", timeout=60)
        assert via_string.returncode == 3 and "statement timeout" in via_string.stderr, via_string.stderr
    finally:
        # The server's session, not only the psql client, must go for the lock to be released.
        psql(server.url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE '%pg_sleep(30)%' AND pid <> pg_backend_pid()")
        holder.communicate(timeout=30)
    assert run_assetc("query", "--db", server.url + "&statement_timeout=soon").returncode == 1
    assert run_assetc("query", "--db", server.url, "--db-statement-timeout", "1").returncode == 0, "with the lock gone"
