"""A PostgreSQL server of the test's own, from Debian's binaries (those Scripts/lib/postgres.sh
installs), that a fault test may stop at once (`pg_ctl stop -m immediate`, as a crash or a lost
host would) and start again on the same port and data folder.
"""
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time


def _bindir():
    found = sorted((d for d in glob.glob("/usr/lib/postgresql/*/bin") if os.path.exists(os.path.join(d, "pg_ctl"))),
                   key=lambda d: int(d.split("/")[-2]))
    if not found:
        raise RuntimeError("no PostgreSQL binaries: run Scripts/test, which installs Debian's postgresql package")
    return found[-1]


def _as_owner(command):
    """The server refuses to run as root; as root it runs as Debian's `postgres` user."""
    return ["runuser", "-u", "postgres", "--"] + command if os.getuid() == 0 else command


class PostgresServer:
    def __init__(self):
        self.bin = _bindir()
        self.folder = tempfile.mkdtemp(prefix="assetc-pgfault.")
        os.chmod(self.folder, 0o755)
        if os.getuid() == 0:
            shutil.chown(self.folder, "postgres")
        self.data = os.path.join(self.folder, "data")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        subprocess.run(_as_owner([f"{self.bin}/initdb", "-D", self.data, "-U", "postgres", "--auth=trust",
                                  "--encoding=UTF8", "--locale=C.UTF-8"]), check=True, capture_output=True, timeout=120)
        self.url = f"postgres://postgres@127.0.0.1:{self.port}/postgres?sslmode=disable"

    def start(self):
        subprocess.run(_as_owner([f"{self.bin}/pg_ctl", "-D", self.data, "-l", os.path.join(self.folder, "server.log"),
                                  "-w", "-t", "60", "-o",
                                  f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.folder} -c fsync=off",
                                  "start"]), check=True, capture_output=True, timeout=90)

    def stop_immediately(self):
        subprocess.run(_as_owner([f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"]),
                       check=True, capture_output=True, timeout=60)

    def close(self):
        subprocess.run(_as_owner([f"{self.bin}/pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop"]),
                       capture_output=True, timeout=60)
        shutil.rmtree(self.folder, ignore_errors=True)
