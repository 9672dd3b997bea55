"""The bucket rows of Scripts/bench-catalog: indexing COUNT objects from SeaweedFS on loopback against
the same library on disk, in one run (release build, SQLite catalog, no thumbnails), the unchanged
re-index of each (and how many objects that re-index read, counted by a proxy), and `assetc worker`
throughput on JOBS deferred thumbnail jobs rendered from the bucket into an s3:// store, with one and
two workers in folders of their own. Then one large usdz (a layer and four 4096 px noise textures, made
by usd-core): `info` and a 128 px `thumbnail` of it on disk and in the bucket, read by ranged GETs from
its central directory, beside what fetching the object whole costs (`storage cp` to a file), with the
bytes each bucket read fetched, counted by the proxy.

    python3 Benchmarks/bench_bucket.py ASSETC LIBRARY WORK [JOBS]
"""
import os
import pathlib
import shutil
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent / "Tests" / "CrossCheck"))
from s3_server import ACCESS_KEY, REGION, SECRET_KEY, CountingProxy, SeaweedFS  # noqa: E402


def main():
    assetc, library, work = os.path.abspath(sys.argv[1]), pathlib.Path(sys.argv[2]).resolve(), pathlib.Path(sys.argv[3]).resolve()
    jobs = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    server = SeaweedFS()
    server.start()
    proxy = CountingProxy(server.ports["s3"])
    env = dict(os.environ, AWS_ACCESS_KEY_ID=ACCESS_KEY, AWS_SECRET_ACCESS_KEY=SECRET_KEY, AWS_REGION=REGION, AWS_ENDPOINT_URL=server.endpoint)

    def run(*args, endpoint=None, cwd=None):
        start = time.perf_counter()
        result = subprocess.run([assetc, *map(str, args)], capture_output=True, text=True, cwd=cwd,
                                env=dict(env, AWS_ENDPOINT_URL=endpoint or server.endpoint))
        if result.returncode != 0:
            raise SystemExit(f"{' '.join(map(str, args))} failed: {result.stderr[-2000:]}")
        return time.perf_counter() - start, result.stdout

    try:
        count = sum(1 for p in library.rglob("*") if p.is_file())
        server.client().create_bucket(Bucket="bench")
        upload, _ = run("storage", "cp", library, "s3://bench/lib", "--force")
        print(f"uploaded {count} objects in {upload:.1f} s (assetc storage cp, one at a time)")
        print(f"== index {count} objects, SQLite catalog, no thumbnails")
        disk, _ = run("index", library, "--db", work / "disk.sqlite")
        bucket, _ = run("index", "s3://bench/lib", "--db", work / "bucket.sqlite", cwd=work)
        print(f"disk      {disk:8.2f} s  {count / disk:8.0f} objects/s")
        print(f"bucket    {bucket:8.2f} s  {count / bucket:8.0f} objects/s  ({bucket / disk:.2f}x the disk time)")
        disk_again, _ = run("index", library, "--db", work / "disk.sqlite")
        bucket_again, _ = run("index", "s3://bench/lib", "--db", work / "bucket.sqlite", cwd=work)
        proxy.reset()
        run("index", "s3://bench/lib", "--db", work / "bucket.sqlite", endpoint=proxy.endpoint, cwd=work)
        print(f"unchanged re-index: disk {disk_again:.2f} s, bucket {bucket_again:.2f} s; objects read by the bucket's: "
              f"{len(proxy.object_reads())} ({len(proxy.requests)} requests, all listings)")
        print(f"== worker throughput, {jobs} deferred jobs (256 px) rendered from the bucket into s3://bench/.store")
        subset = sorted(library.iterdir())[0]
        for workers in (1, 2):
            store = f"s3://bench/.store-{workers}"
            database = work / f"jobs-{workers}.sqlite"
            run("index", f"s3://bench/lib/{subset.name}", "--db", database, "--defer-thumbnails", "--thumbnail-store", store, cwd=work)
            start = time.perf_counter()
            processes = []
            for k in range(workers):
                home = work / f"worker-{workers}-{k}"
                home.mkdir()
                processes.append(subprocess.Popen([assetc, "worker", "--db", str(database), "--thumbnail-store", store, "--name", f"w{k}"],
                                                  cwd=home, env=dict(env, TMPDIR=str(home), ASSETC_STAGING_DIR=str(home)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
            rendered = 0
            for process in processes:
                out, err = process.communicate()
                if process.returncode != 0:
                    raise SystemExit(f"worker failed: {err[-2000:]}")
                rendered += int(out.split()[1])
            seconds = time.perf_counter() - start
            print(f"{workers} worker(s)  {seconds:6.2f} s  {rendered / seconds:6.1f} thumbnails/s  ({rendered} rendered)")
        large_package_rows(run, proxy, server, work)
    finally:
        proxy.close()
        server.close()


def large_package_rows(run, proxy, server, work):
    from usdz_package import textured_quad_package

    package = textured_quad_package(work / "package", textures=4, pixels=4096, compress_level=1)
    size = package.stat().st_size
    run("storage", "cp", package, "s3://bench/packages/large.usdz", "--force")
    print(f"== one usdz of {size / 1e6:.1f} MB: on disk, and in the bucket read by ranges")
    whole, _ = run("storage", "cp", "s3://bench/packages/large.usdz", work / "fetched.usdz", "--force")
    print(f"fetching it whole (storage cp)  {whole:6.2f} s")
    for args in (("info",), ("thumbnail", "--size", "128", "--out")):
        def out(where):
            return [work / f"thumbnails-{where}"] if args[0] == "thumbnail" else []
        disk, _ = run(*args, *out("disk"), package)
        proxy.reset()
        bucket, _ = run(*args, *out("bucket"), "s3://bench/packages/large.usdz", endpoint=proxy.endpoint)
        spans = [r.removeprefix("bytes=").split("-") for p, r in proxy.ranged if p.endswith("large.usdz")]
        fetched = sum(int(b) - int(a) + 1 for a, b in spans)
        print(f"{args[0]:10} disk {disk:6.2f} s  bucket {bucket:6.2f} s  {len(spans)} ranged GETs, {fetched / 1e6:.2f} MB of {size / 1e6:.1f} MB; "
              f"{len(proxy.object_reads()) - len(spans)} whole GETs")


if __name__ == "__main__":
    main()
