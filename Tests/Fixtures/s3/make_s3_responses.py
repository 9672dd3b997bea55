"""Captures real S3 answers (SeaweedFS's, through botocore's signer) as the fuzz seeds and parser
fixtures of `S3Listing` and `S3ErrorDocument`: a truncated listing page with its continuation token,
a url-encoded listing of unicode and reserved keys, an error document and a multipart upload's
initiation. Run against a server with a bucket `assets` (AWS_ENDPOINT_URL and keys in the
environment): python3 make_s3_responses.py"""
import os
import pathlib
import urllib.request

import boto3
from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest

HERE = pathlib.Path(__file__).resolve().parent
ENDPOINT = os.environ["AWS_ENDPOINT_URL"]
REGION = os.environ.get("AWS_REGION", "us-east-1")
KEYS = ["fixtures/ship.usdz", "fixtures/caf\u00e9.glb", "fixtures/cafe\u0301.glb", "fixtures/a+b & c <d>.obj", "fixtures/deep/tab\there.dae"]


def raw(method, path, query=""):
    credentials = boto3.Session().get_credentials()
    request = AWSRequest(method=method, url=f"{ENDPOINT}{path}" + (f"?{query}" if query else ""), data=b"")
    S3SigV4Auth(credentials, "s3", REGION).add_auth(request)
    prepared = urllib.request.Request(request.url, method=method, headers=dict(request.headers.items()))
    try:
        with urllib.request.urlopen(prepared) as response:
            return response.read()
    except urllib.error.HTTPError as error:
        return error.read()


def main():
    s3 = boto3.client("s3")
    for key in KEYS:
        s3.put_object(Bucket="assets", Key=key, Body=key.encode())
    (HERE / "listing_truncated.xml").write_bytes(raw("GET", "/assets", "list-type=2&max-keys=2&prefix=fixtures%2F"))
    (HERE / "listing_url_encoded.xml").write_bytes(raw("GET", "/assets", "encoding-type=url&list-type=2&prefix=fixtures%2F"))
    (HERE / "error_no_such_key.xml").write_bytes(raw("GET", "/assets/fixtures/missing.usdz"))
    (HERE / "multipart_initiated.xml").write_bytes(raw("POST", "/assets/fixtures/big.usdz", "uploads="))
    for key in KEYS:
        s3.delete_object(Bucket="assets", Key=key)


if __name__ == "__main__":
    main()
