"""assetc's SigV4 signer against botocore's (PyPI `botocore`, `S3SigV4Auth` and `S3SigV4QueryAuth`),
request by request: the canonical request, the string to sign and the signature of GET, PUT, a ranged
GET, a listing with a continuation token and presigned URLs, with unicode and reserved characters in
the keys, with and without a session token. `assetc storage sign` prints what the signer makes of each
request; botocore signs the same request at the same instant."""
import datetime
import json
import subprocess
from urllib.parse import parse_qsl, urlsplit

import pytest

from conftest import assetc_binary

botocore = pytest.importorskip("botocore")
from botocore.auth import S3SigV4Auth, S3SigV4QueryAuth  # noqa: E402
from botocore.awsrequest import AWSRequest  # noqa: E402
from botocore.config import Config  # noqa: E402
from botocore.credentials import Credentials  # noqa: E402
from botocore.utils import percent_encode  # noqa: E402
import botocore.auth  # noqa: E402

WHEN = datetime.datetime(2026, 11, 27, 12, 34, 56, tzinfo=datetime.timezone.utc)
KEYS = [
    "library/ship.usdz",
    "library/Träger/caf\u00e9 model (v2).glb",          # composed é
    "library/Träger/cafe\u0301 model (v2).glb",          # the same name, decomposed
    "lib/a+b=c&d;e,f:g@h$i!j*k'l(m)n[o]p~q.usda",
    "lib/日本語/テクスチャ #1.png",
    "lib/spaces  and\ttab%20literal.obj",
]
SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
ACCESS = "AKIAIOSFODNN7EXAMPLE"


def cases():
    out = []
    for token in (None, "FQoGZXIvYXdzEJr//////////wEaDOEXAMPLETOKEN+/="):
        for host, scheme, path_style in (("127.0.0.1:8333", "http", True), ("assets.s3.eu-west-1.amazonaws.com", "https", False)):
            for key in KEYS:
                base = dict(scheme=scheme, host=host, region="eu-west-1", accessKey=ACCESS, secretKey=SECRET,
                            sessionToken=token, time=WHEN.timestamp())
                path = ("/assets/" if path_style else "/") + percent_encode(key, safe="/~")
                out.append(dict(base, name=f"GET {key}", method="GET", path=path, query=[], headers=[], payload=""))
                out.append(dict(base, name=f"ranged GET {key}", method="GET", path=path, query=[],
                                headers=[["range", "bytes=1024-2047"]], payload=""))
                out.append(dict(base, name=f"PUT {key}", method="PUT", path=path, query=[],
                                headers=[["content-type", "model/vnd.usdz+zip"]], payload="#usda 1.0\n(\n)\n\u00fcber"))
                out.append(dict(base, name=f"presign {key}", method="GET", path=path, query=[], headers=[], payload="",
                                expires=900))
            listing = "/assets" if path_style else "/"
            out.append(dict(base, name="list with continuation", method="GET", path=listing,
                            query=[["list-type", "2"], ["encoding-type", "url"], ["prefix", "lib/日本語 & co/"],
                                   ["continuation-token", "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM="]],
                            headers=[], payload=""))
            out.append(dict(base, name="multipart part", method="PUT", path=path, query=[["partNumber", "3"], ["uploadId", "VXBsb2FkIElE+/="]],
                            headers=[], payload="part bytes"))
    return out


def assetc_signs(requests):
    result = subprocess.run([assetc_binary(), "storage", "sign"], input=json.dumps(requests), capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def botocore_signs(case, monkeypatch):
    monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: WHEN.replace(tzinfo=None))
    credentials = Credentials(ACCESS, SECRET, case["sessionToken"])
    url = f"{case['scheme']}://{case['host']}{case['path']}"
    if case["query"]:
        url += "?" + "&".join(f"{percent_encode(k)}={percent_encode(v)}" for k, v in case["query"])
    request = AWSRequest(method=case["method"], url=url, data=case["payload"].encode(), headers=dict(case["headers"]))
    request.context["client_config"] = Config(s3={"payload_signing_enabled": True})
    if "expires" in case:
        signer = S3SigV4QueryAuth(credentials, "s3", case["region"], expires=case["expires"])
    else:
        signer = S3SigV4Auth(credentials, "s3", case["region"])
    # add_auth's steps, keeping the texts it logs.
    request.context["timestamp"] = WHEN.strftime("%Y%m%dT%H%M%SZ")
    signer._modify_request_before_signing(request)
    canonical = signer.canonical_request(request)
    to_sign = signer.string_to_sign(request, canonical)
    signature = signer.signature(to_sign, request)
    signer._inject_signature_to_request(request, signature)
    return canonical, to_sign, signature, request


def test_signer_agrees_with_botocore_request_by_request(monkeypatch):
    requests = cases()
    ours = assetc_signs(requests)
    assert len(ours) == len(requests)
    for case, mine in zip(requests, ours):
        canonical, to_sign, signature, signed = botocore_signs(case, monkeypatch)
        assert mine["canonicalRequest"] == canonical, case["name"]
        assert mine["stringToSign"] == to_sign, case["name"]
        assert mine["signature"] == signature, case["name"]
        if "expires" in case:
            theirs = dict(parse_qsl(urlsplit(signed.url).query, keep_blank_values=True))
            ours_query = dict(parse_qsl(urlsplit(mine["url"]).query, keep_blank_values=True))
            assert ours_query == theirs, case["name"]
            assert urlsplit(mine["url"]).path == urlsplit(signed.url).path
        else:
            assert mine["headers"]["authorization"] == signed.headers["Authorization"], case["name"]


def test_keys_are_encoded_as_botocore_encodes_them():
    """The client builds paths from bucket and key itself; they must be the paths botocore sends."""
    requests = [dict(method="GET", scheme="http", host="127.0.0.1:8333", bucket="assets", key=key, query=[], headers=[], payload="",
                     time=WHEN.timestamp(), region="us-east-1", accessKey=ACCESS, secretKey=SECRET) for key in KEYS]
    for key, mine in zip(KEYS, assetc_signs(requests)):
        assert mine["canonicalRequest"].split("\n")[1] == "/assets/" + percent_encode(key, safe="/~")


def test_a_one_byte_change_changes_the_signature():
    base = dict(method="GET", scheme="http", host="127.0.0.1:8333", path="/assets/a.usdz", query=[], headers=[], payload="",
                time=WHEN.timestamp(), region="us-east-1", accessKey=ACCESS, secretKey=SECRET)
    first, second = assetc_signs([base, dict(base, secretKey=SECRET[:-1] + "X")])
    assert first["signature"] != second["signature"]
    assert SECRET not in json.dumps([first, second])
