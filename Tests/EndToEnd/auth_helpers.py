"""Helpers for the account-flow tests: the inbox, TOTP codes (computed here, independently of
snm's SNMCrypto), token claims."""
import base64
import hashlib
import hmac
import json
import struct
import time
import uuid

import httpx


def new_email(prefix="user"):
    return f"{prefix}-{uuid.uuid4().hex[:10]}@example.com"


def claims_of(token):
    payload = token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def service_headers(project, key=None):
    key = key or project.status["secret_key"]
    return {"apikey": key}


def inbox(project, address=None, key=None, limit=None):
    """The project's mails (newest first) for `address`, via GET /inbox/v1/messages."""
    params = {}
    if address:
        params["to"] = address
    if limit:
        params["limit"] = str(limit)
    answer = httpx.get(project.url + "/inbox/v1/messages", params=params,
                       headers=service_headers(project, key))
    assert answer.status_code == 200, answer.text
    return answer.json()


def newest_mail(project, address, kind=None):
    for mail in inbox(project, address):
        if kind is None or mail["kind"] == kind:
            return mail
    raise AssertionError(f"no {kind or ''} mail for {address}")


def totp(secret, at=None, step_offset=0):
    """RFC 6238 (HMAC-SHA1, 30 s, 6 digits) of a base32 secret."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    counter = int((at if at is not None else time.time()) // 30) + step_offset
    digest = hmac.new(key, struct.pack(">Q", counter), hashlib.sha1).digest()
    offset = digest[-1] & 15
    number = (struct.unpack(">I", digest[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000
    return f"{number:06d}"

