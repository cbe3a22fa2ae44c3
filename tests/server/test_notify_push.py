"""Web Push notifications (issue 32): the subscription endpoint (CSRF as the other account routes), and
the encrypted request ``pywebpush`` sends to a push endpoint (a real local HTTP server started by the
test): a VAPID ``Authorization`` whose JWT the server's public key verifies, ``Content-Encoding:
aes128gcm``, and a body the subscriber's keys decrypt to the one line and the table's page."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path
from typing import Any

import http_ece
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from starlette.testclient import TestClient

from .accounts_helpers import one_line_error
from .notify_helpers import PUBLIC, Receiver, asked, bound_table, move, notify_client, outbox, sql, wait_until


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def browser_keys() -> tuple[ec.EllipticCurvePrivateKey, bytes, dict[str, str]]:
    """What a browser makes for a subscription: an ECDH P-256 key pair and a 16-byte auth secret."""
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    auth = os.urandom(16)
    return private, auth, {"p256dh": b64(public), "auth": b64(auth)}


def test_a_push_message_is_vapid_signed_aes128gcm_and_decrypts_to_the_line_and_the_table(db: Path) -> None:
    with Receiver() as endpoint, notify_client(db) as client:
        made = bound_table(client, db)
        csrf = {"x-csrf-token": made["csrf"][1]}  # the signed-in account holds seat 1
        private, auth, keys = browser_keys()
        subscription = {"endpoint": endpoint.url, "expirationTime": None, "keys": keys}
        one_line_error(client.post("/api/me/push", json=subscription), 403)  # no CSRF token
        one_line_error(
            client.post("/api/me/push", json={"endpoint": "ftp://x/", "keys": keys}, headers=csrf), 400
        )
        one_line_error(
            client.post("/api/me/push", json={"endpoint": endpoint.url, "keys": {}}, headers=csrf), 400
        )
        assert client.post("/api/me/push", json=subscription, headers=csrf).status_code == 201
        assert sql(db, "SELECT account_id, endpoint FROM push_subscriptions") == [
            (made["accounts"][1], endpoint.url)
        ]
        server_key = client.get("/api/me/notifications").json()["push_key"]
        if asked(client, made["table"]) == [1]:
            move(client, made)
        move(client, made)
        assert asked(client, made["table"]) == [1]
        wait_until(lambda: endpoint.posts)
        path, headers, body = endpoint.posts[0]
        assert path == "/hook" and headers["content-encoding"] == "aes128gcm" and int(headers["ttl"]) > 0
        check_vapid(headers["authorization"], server_key, endpoint.url)
        clear = http_ece.decrypt(body, private_key=private, auth_secret=auth, version="aes128gcm")
        shown = json.loads(clear)
        table = made["table"]
        assert shown == {
            "title": "Parlour",
            "body": f"Parlour: table {table} (Venture) is waiting for you",
            "url": f"{PUBLIC}/t/{table}",
        }
        wait_until(lambda: [r[6] for r in outbox(db)] == ["sent"])


def check_vapid(header: str, server_key: str, endpoint: str) -> None:
    """Checks ``vapid t=JWT, k=KEY`` (RFC 8292): the key is the server's, the JWT is ES256-signed by it
    and names the push service's origin."""
    scheme, _, rest = header.partition(" ")
    assert scheme == "vapid"
    fields = dict(part.strip().split("=", 1) for part in rest.split(","))
    assert fields["k"] == server_key
    head, claims, signature = fields["t"].split(".")
    assert json.loads(unb64(head)) == {"typ": "JWT", "alg": "ES256"}
    found: dict[str, Any] = json.loads(unb64(claims))
    assert found["aud"] == endpoint.rsplit("/", 1)[0] and found["sub"] == "mailto:parlour@localhost"
    raw = unb64(signature)
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))


def subscribe_and_ask(client: TestClient, db: Path, endpoint: Receiver) -> dict[str, str]:
    """Subscribes the signed-in account (seat 1's) at ``endpoint`` and has its seat asked; returns the
    CSRF header."""
    made = bound_table(client, db)
    csrf = {"x-csrf-token": made["csrf"][1]}
    _, _, keys = browser_keys()
    reply = client.post("/api/me/push", json={"endpoint": endpoint.url, "keys": keys}, headers=csrf)
    assert reply.status_code == 201
    if asked(client, made["table"]) == [1]:
        move(client, made)
    move(client, made)
    return csrf


def test_a_subscription_its_push_service_calls_gone_is_forgotten(db: Path) -> None:
    with Receiver() as endpoint, notify_client(db) as client:
        endpoint.status = 410
        csrf = subscribe_and_ask(client, db, endpoint)
        wait_until(lambda: endpoint.posts)
        wait_until(lambda: sql(db, "SELECT count(*) FROM push_subscriptions") == [(0,)])
        assert client.delete("/api/me/push", headers=csrf).json() == {"subscribed": False}


def test_the_vapid_keys_are_made_once_and_kept_across_a_restart(db: Path) -> None:
    with notify_client(db) as client:
        bound_table(client, db)
        first = client.get("/api/me/notifications").json()["push_key"]
    with notify_client(db) as client:
        client.post(
            "/api/login",
            json={
                "username": sql(db, "SELECT username FROM accounts")[0][0],
                "password": "correct horse battery",
            },
        )
        assert client.get("/api/me/notifications").json()["push_key"] == first
    assert len(unb64(first)) == 65 and sql(db, "SELECT count(*) FROM vapid_keys") == [(1,)]


def test_a_push_endpoint_in_the_servers_own_network_is_refused_by_default(db: Path) -> None:
    with Receiver() as endpoint, notify_client(db) as client:
        client.app.state.deliverer.channels.private_hosts = False  # type: ignore[attr-defined]
        subscribe_and_ask(client, db, endpoint)
        wait_until(lambda: [r[7] for r in outbox(db)] == [1])
        assert "not a public address" in outbox(db)[0][8] and endpoint.posts == []


def test_serve_takes_a_push_contact_checks_it_and_derives_one_from_the_public_url_or_the_sender() -> None:
    from parlour.cli.main import build_parser
    from parlour.cli.serve import push_contact
    from parlour.core.errors import OptionError
    from parlour.server.accounts.mail import MailSettings

    mail = MailSettings("mail.example.org", 587, None, None, "games@example.org", "starttls")
    args = build_parser().parse_args(["serve", "--push-contact", "mailto:ops@example.org"])
    assert push_contact(args.push_contact, "http://127.0.0.1:8000", mail) == "mailto:ops@example.org"
    assert push_contact("https://parlour.example.org/contact", "http://x", None) == (
        "https://parlour.example.org/contact"
    )
    assert build_parser().parse_args(["serve"]).push_contact is None
    assert push_contact(None, "https://parlour.example.org", mail) == "https://parlour.example.org"
    assert push_contact(None, "http://127.0.0.1:8000", mail) == "mailto:games@example.org"
    assert push_contact(None, "http://127.0.0.1:8000", None) == "mailto:parlour@localhost"
    bad = [
        "ops@example.org",  # no scheme
        "http://parlour.example.org",  # not https
        "mailto:",
        "mailto:ops",
        "mailto:a@b@c",
        "mailto:ops@example.org\r\nX-Injected: 1",
        "mailto:ops@exämple.org",
        "https://user:secret@parlour.example.org",
        "https://parlour.example.org:99999/",
        "https://",
        "javascript:alert(1)",
        "mailto:" + "a" * 200 + "@example.org",
        "",
    ]
    for contact in bad:
        with pytest.raises(OptionError, match="--push-contact"):
            push_contact(contact, "https://parlour.example.org", mail)
