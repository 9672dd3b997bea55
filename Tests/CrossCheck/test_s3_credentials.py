"""The credentials machines in a cloud get without keys in files, each used to index a bucket: the instance
metadata service (IMDSv2, a stub of the test's own on loopback that hands out short-lived keys, so the run
must fetch them again part way), a web identity traded with STS (moto's server answers
AssumeRoleWithWebIdentity and serves the bucket), and a profile's credential_process. The secret never
appears in anything assetc prints."""
import datetime
import http.server
import json
import os
import socketserver
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from conftest import FIXTURES, assetc_binary, free_port
from s3_server import ACCESS_KEY, REGION, SECRET_KEY, CountingProxy, put_tree, started_behind_proxy

LIBRARY = FIXTURES / "library"
LIBRARY_FILES = sorted(p for p in LIBRARY.rglob("*") if p.is_file())


@pytest.fixture(scope="module")
def s3():
    server, client = started_behind_proxy()
    put_tree(client, "assets", LIBRARY, "library")
    yield server
    server.proxy.close()
    server.close()


def keyless_environment(home, **extra):
    """No keys anywhere: the chain has to find them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("AWS_")}
    env.update(HOME=str(home), AWS_REGION=REGION, **extra)
    return env


def run(env, *args, timeout=600):
    return subprocess.run([assetc_binary(), *map(str, args)], capture_output=True, text=True, timeout=timeout, env=env)


def indexed_ids(database):
    import sqlite3
    with sqlite3.connect(database) as db:
        return sorted(row[0] for row in db.execute("SELECT id FROM asset"))


class MetadataStub:
    """IMDSv2 as EC2 answers it: a session token by PUT, then the role and its keys only with that token.
    Keys live `lifetime` seconds; each fetch hands out the next session token."""

    def __init__(self, lifetime):
        self.lifetime = lifetime
        self.token = "imds-session-token"
        self.token_requests = 0
        self.refused = 0
        self.issued = []
        stub = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def _send(self, status, body):
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_PUT(self):
                if self.path != "/latest/api/token" or not self.headers.get("X-aws-ec2-metadata-token-ttl-seconds"):
                    return self._send(400, "bad token request")
                stub.token_requests += 1
                self._send(200, stub.token)

            def do_GET(self):
                if self.headers.get("X-aws-ec2-metadata-token") != stub.token:
                    stub.refused += 1
                    return self._send(401, "")
                if self.path == "/latest/meta-data/iam/security-credentials/":
                    return self._send(200, "assetc-indexer")
                if self.path == "/latest/meta-data/iam/security-credentials/assetc-indexer":
                    session = f"session-{len(stub.issued) + 1}"
                    stub.issued.append(session)
                    expiry = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=stub.lifetime)
                    return self._send(200, json.dumps({
                        "Code": "Success", "Type": "AWS-HMAC", "AccessKeyId": ACCESS_KEY, "SecretAccessKey": SECRET_KEY,
                        "Token": session, "Expiration": expiry.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"}))
                self._send(404, "")

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.endpoint = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


@pytest.fixture(scope="module")
def moto():
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    endpoint = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while time.time() < deadline:
        try:
            urllib.request.urlopen(endpoint + "/moto-api/", timeout=2)
            break
        except Exception:
            time.sleep(0.3)
    else:
        process.kill()
        pytest.fail("moto's server did not start")
    import boto3
    client = boto3.client("s3", endpoint_url=endpoint, region_name=REGION, aws_access_key_id="testing", aws_secret_access_key="testing")
    client.create_bucket(Bucket="team")
    put_tree(client, "team", LIBRARY, "library")
    # moto's S3 takes any key, session tokens too (SeaweedFS refuses a token it did not issue); the
    # proxy in front records which session signed each request.
    proxy = CountingProxy(port)
    yield endpoint, proxy
    proxy.close()
    process.kill()
    process.wait()


def test_instance_metadata_keys_index_a_bucket_and_are_fetched_again_before_they_expire(moto, tmp_path):
    _, proxy = moto
    stub = MetadataStub(lifetime=2)
    try:
        proxy.reset()
        # A slow listing (held 1.5 s) makes the run outlast the keys, which live 2 s and are fetched
        # again at half their life: the reads after it must be signed by a newer session.
        proxy.listing_delay = 1.5
        env = keyless_environment(tmp_path, AWS_EC2_METADATA_SERVICE_ENDPOINT=stub.endpoint, AWS_ENDPOINT_URL=proxy.endpoint)
        result = run(env, "index", "s3://team/library", "--db", tmp_path / "c.sqlite")
    finally:
        proxy.listing_delay = 0
        stub.close()
    assert result.returncode == 0, result.stderr
    assert len(indexed_ids(tmp_path / "c.sqlite")) == 8
    assert stub.token_requests >= 1 and stub.refused == 0, "every metadata read carried the IMDSv2 session token"
    assert len(stub.issued) >= 2, f"the keys were fetched again as they neared expiry ({stub.issued})"
    used = set(proxy.tokens)
    assert None not in used, "every S3 request carried the session token"
    assert len(used) >= 2 and used <= set(stub.issued), (used, stub.issued)
    assert SECRET_KEY not in result.stdout + result.stderr


def test_a_metadata_service_that_is_off_or_away_is_named(tmp_path):
    off = keyless_environment(tmp_path, AWS_EC2_METADATA_DISABLED="true", AWS_ENDPOINT_URL="http://127.0.0.1:9")
    result = run(off, "storage", "ls", "s3://assets/library")
    assert result.returncode == 3 and "no S3 credentials" in result.stderr and "AWS_EC2_METADATA_DISABLED" in result.stderr
    away = keyless_environment(tmp_path, AWS_EC2_METADATA_SERVICE_ENDPOINT=f"http://127.0.0.1:{free_port()}",
                               AWS_ENDPOINT_URL="http://127.0.0.1:9")
    result = run(away, "storage", "ls", "s3://assets/library")
    assert result.returncode == 75 and "instance metadata service" in result.stderr and "does not answer" in result.stderr, result.stderr


def write_profile(folder, profile, **settings):
    config = folder / "config"
    config.write_text(f"[profile {profile}]\n" + "".join(f"{k} = {v}\n" for k, v in settings.items()))
    return config


def test_credential_process_keys_list_and_index_a_bucket(s3, tmp_path):
    helper = tmp_path / "vault.py"
    expiry = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    helper.write_text("import json\nprint(json.dumps(" + repr({"Version": 1, "AccessKeyId": ACCESS_KEY, "SecretAccessKey": SECRET_KEY,
                                                                "Expiration": expiry}) + "))\n")
    config = write_profile(tmp_path, "tools", credential_process=f"{sys.executable} {helper}")
    env = keyless_environment(tmp_path, AWS_PROFILE="tools", AWS_CONFIG_FILE=str(config), AWS_EC2_METADATA_DISABLED="true",
                              AWS_ENDPOINT_URL=s3.proxy.endpoint)
    listed = run(env, "storage", "ls", "s3://assets/library", "--json")
    assert listed.returncode == 0, listed.stderr
    keys = sorted(json.loads(line)["key"] for line in listed.stdout.splitlines())
    assert len(keys) == len(LIBRARY_FILES) and any(key.endswith("props/chair/chair.usda") for key in keys), keys
    indexed = run(env, "index", "s3://assets/library", "--db", tmp_path / "c.sqlite")
    assert indexed.returncode == 0 and len(indexed_ids(tmp_path / "c.sqlite")) == 8, indexed.stderr
    assert SECRET_KEY not in listed.stdout + listed.stderr + indexed.stdout + indexed.stderr
    # A helper that fails says why, through its own words, and the command stops with status 3.
    failing = write_profile(tmp_path, "tools", credential_process=f"{sys.executable} -c \"import sys; sys.exit('vault is sealed')\"")
    result = run(dict(env, AWS_CONFIG_FILE=str(failing)), "storage", "ls", "s3://assets/library")
    assert result.returncode == 3 and "credential_process exited with status 1: vault is sealed" in result.stderr, result.stderr


def test_a_web_identity_traded_with_sts_indexes_a_bucket(moto, tmp_path):
    endpoint, _ = moto
    token = tmp_path / "token"
    token.write_text("eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzeXN0ZW06c2VydmljZWFjY291bnQ6YXNzZXRzOmluZGV4ZXIifQ.c2lnbmF0dXJl\n")
    env = keyless_environment(tmp_path, AWS_WEB_IDENTITY_TOKEN_FILE=str(token), AWS_ROLE_ARN="arn:aws:iam::123456789012:role/assetc-indexer",
                              AWS_ROLE_SESSION_NAME="indexer", AWS_ENDPOINT_URL=endpoint, AWS_EC2_METADATA_DISABLED="true")
    result = run(env, "index", "s3://team/library", "--db", tmp_path / "c.sqlite")
    assert result.returncode == 0, result.stderr
    assert len(indexed_ids(tmp_path / "c.sqlite")) == 8
    assert "eyJhbGci" not in result.stdout + result.stderr, "the identity token is never printed"
    # A role STS refuses is named with STS's own code, exit 3.
    token.write_text("")
    refused = run(env, "storage", "ls", "s3://team/library")
    assert refused.returncode != 0 and "web identity token file" in refused.stderr and "is empty" in refused.stderr, refused.stderr
