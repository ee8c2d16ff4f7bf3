#!/usr/bin/env python3
"""Verify a fairhold certification report, report.json, without fairhold.

The example of docs/report-format.md section 7: the DSSE envelope, PAE and
SHA-256 checks in plain Python; the signatures with the `cryptography`
package (Ed25519; ML-DSA-65 where the package has it, 47 and later).

    python3 verify_report.py DIR/report.json --key lab.pub [--key regulator.pub ...] [--subjects DIR]

Exit codes as `fairhold report verify`: 0 verified, 3 a signature or a
subject failed, 2 malformed input or an unsupported key. It does not check
that the file is byte for byte in fairhold's form; fairhold does.
"""
import argparse
import base64
import hashlib
import json
import os
import sys

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization

PAYLOAD_TYPE = "application/vnd.in-toto+json"
STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
# Version 2 is what fairhold writes; version 1 reports are still read.
PREDICATE_TYPES = ("https://fairhold.dev/certification/v2", "https://fairhold.dev/certification/v1")


def pae(payload_type: bytes, body: bytes) -> bytes:
    """DSSE pre-authentication encoding: the bytes that are signed."""
    return b"DSSEv1 %d %s %d %s" % (len(payload_type), payload_type, len(body), body)


def sha256_file(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 16), b""):
            h.update(chunk)
    return h.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("report")
    ap.add_argument("--key", action="append", required=True, help="a public key (.pub) that must have signed")
    ap.add_argument("--subjects", help="directory of the subjects (default: the report's)")
    args = ap.parse_args()

    try:
        with open(args.report, "rb") as f:
            env = json.load(f)
        body = base64.b64decode(env["payload"], validate=True)
        signatures = [(s["keyid"], base64.b64decode(s["sig"], validate=True)) for s in env["signatures"]]
        message = pae(env["payloadType"].encode(), body)
    except (ValueError, KeyError, TypeError) as e:
        print(f"{args.report}: malformed envelope: {e!r}", file=sys.stderr)
        return 2

    ok = True
    for path in args.key:
        try:
            with open(path, "rb") as f:
                key = serialization.load_pem_public_key(f.read())
        except Exception as e:  # unsupported algorithm, not a public key
            print(f"{path}: unsupported or malformed key: {e}", file=sys.stderr)
            return 2
        der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
        keyid = hashlib.sha256(der).hexdigest()  # the keyid: SHA-256 of the DER SubjectPublicKeyInfo
        sigs = [sig for kid, sig in signatures if kid == keyid]
        if not sigs:
            print(f"FAIL  no signature by key {keyid} ({path})")
            ok = False
        for sig in sigs:
            try:
                key.verify(sig, message)  # Ed25519 and ML-DSA-65 (empty context) alike
                print(f"ok    signature by key {keyid} ({path})")
            except InvalidSignature:
                print(f"FAIL  the signature by key {keyid} ({path}) does not verify")
                ok = False
    if not ok:
        print("NOT verified")
        return 3

    # Only now, the signatures verified, is the payload read (DSSE).
    try:
        if env["payloadType"] != PAYLOAD_TYPE:
            raise ValueError(f"payloadType {env['payloadType']!r}")
        st = json.loads(body)
        if st["_type"] != STATEMENT_TYPE or st["predicateType"] not in PREDICATE_TYPES:
            raise ValueError(f"statement type {st['_type']!r}, predicate type {st['predicateType']!r}")
        certificate = st["predicate"].get("certificate_id")
        if st["predicateType"] == PREDICATE_TYPES[0] and not certificate:
            raise ValueError("a version 2 predicate without certificate_id")
        if certificate and certificate.startswith("fh-"):
            # A derived id (docs/report-format.md section 5.1): the SHA-256 of
            # the payload without its certificate_id member.
            member = b'"certificate_id":' + json.dumps(certificate).encode() + b","
            if body.count(member) != 1:
                raise ValueError("certificate_id is not in the payload's one encoding")
            derived = "fh-" + hashlib.sha256(body.replace(member, b"", 1)).hexdigest()[:24]
            if derived != certificate:
                raise ValueError(f"certificate_id {certificate!r} is not the derived {derived!r}")
        subjects = [(s["name"], s["digest"]["sha256"]) for s in st["subject"]]
        verdict = st["predicate"]["verdict"]
        statuses = [r["status"] for r in st["predicate"]["requirements"]]
        decided = "fail" if "fail" in statuses else "pass" if statuses and set(statuses) == {"pass"} else "incomplete"
        if verdict != decided:
            raise ValueError(f"verdict {verdict!r}, but the requirements' statuses give {decided!r}")
    except (ValueError, KeyError, TypeError) as e:
        print(f"{args.report}: malformed statement: {e!r}", file=sys.stderr)
        return 2

    root = args.subjects or os.path.dirname(os.path.abspath(args.report))
    for name, want in subjects:
        parts = name.split("/")
        if name.startswith("/") or any(p in ("", ".", "..") for p in parts):
            print(f"{args.report}: subject name {name!r} is not a relative path", file=sys.stderr)
            return 2
        path = os.path.join(root, *parts)
        if not os.path.isfile(path):
            print(f"FAIL  subject {name}: missing (expected sha256 {want})")
            ok = False
            continue
        got = sha256_file(path)
        if got == want:
            print(f"ok    subject {name}")
        else:
            print(f"FAIL  subject {name}: expected sha256 {want}, actual {got}")
            ok = False

    if certificate:
        print(f"certificate: {certificate}")
    print(f"report verdict: {verdict}")
    print("verified" if ok else "NOT verified")
    return 0 if ok else 3


if __name__ == "__main__":
    sys.exit(main())
