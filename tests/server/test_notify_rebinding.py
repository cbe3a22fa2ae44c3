"""Webhooks and push endpoints are safe from DNS rebinding (issue 32): the host is resolved once, every
address it resolves to must be public, and the connection goes to the address checked, with the URL's
host in the Host header. The resolver is a parameter (the tests give their own answers); the receiver
is a real local HTTP server."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from parlour.server.notify import pinned
from parlour.server.notify.pinned import is_public, resolve
from parlour.server.notify.webhook import post

from .notify_helpers import Receiver, bound_table, move, notify_client, outbox, set_for, wait_until
from .test_notify_push import browser_keys

NAME = "hooks.example.test"
"""A name no DNS server knows: only the tests' resolvers answer for it."""


class Rebinding:
    """A resolver whose first answer is ``first`` and every later one ``later`` (a rebinding DNS server);
    it counts the questions."""

    def __init__(self, first: list[str], later: list[str]) -> None:
        self.first, self.later, self.asked = first, later, 0

    def __call__(self, host: str, port: int) -> list[str]:
        assert host == NAME, host
        self.asked += 1
        return self.first if self.asked == 1 else self.later


@pytest.mark.parametrize(
    "address",
    [
        "127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254", "100.64.0.1", "0.0.0.0",
        "224.0.0.1", "240.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fc00::1", "ff02::1",
        "::ffff:127.0.0.1", "::ffff:10.0.0.1", "64:ff9b::7f00:1", "fec0::1", "2001:db8::1",
    ],
)  # fmt: skip
def test_an_address_of_the_servers_own_network_or_of_no_one_is_not_public(address: str) -> None:
    assert not is_public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:8.8.8.8"])
def test_a_public_unicast_address_is_public(address: str) -> None:
    assert is_public(ipaddress.ip_address(address))


def test_a_host_resolving_to_loopback_is_refused_by_default() -> None:
    with Receiver() as receiver:
        with pytest.raises(OSError, match="not a public address"):
            post(f"http://localhost:{receiver.port}/hook", "hello")
        assert receiver.posts == []


def test_one_private_address_among_public_ones_refuses_the_host() -> None:
    both = Rebinding(["93.184.216.34", "127.0.0.1"], [])
    with pytest.raises(OSError, match="not a public address"):
        resolve(NAME, 80, both, private=False)
    assert resolve(NAME, 80, Rebinding(["93.184.216.34", "8.8.8.8"], []), private=False) == "93.184.216.34"
    with pytest.raises(OSError, match="not found"):
        resolve(NAME, 80, Rebinding([], []), private=False)


def test_the_connection_goes_to_the_address_checked_and_a_second_dns_answer_changes_nothing() -> None:
    with Receiver() as receiver:
        dns = Rebinding(["127.0.0.1"], ["127.0.0.2"])  # nothing listens on 127.0.0.2
        post(f"http://{NAME}:{receiver.port}/hook", "hello", private=True, resolver=dns)
        assert dns.asked == 1
        ((path, headers, body),) = receiver.posts
        assert path == "/hook" and headers["host"] == f"{NAME}:{receiver.port}"
        assert body == b'{"content": "hello", "text": "hello"}'
        with pytest.raises(OSError):  # where the resolver points is where it connects: nothing there
            post(
                f"http://{NAME}:{receiver.port}/hook",
                "hello",
                private=True,
                resolver=Rebinding(["127.0.0.2"], []),
            )
        assert len(receiver.posts) == 1


def test_a_push_message_goes_to_the_address_its_endpoints_host_resolved_to(db: Path) -> None:
    with Receiver() as endpoint, notify_client(db) as client:
        dns = Rebinding(["127.0.0.1"], ["127.0.0.1"])
        client.app.state.deliverer.channels.resolver = dns  # type: ignore[attr-defined]
        made = bound_table(client, db)
        url = f"http://{NAME}:{endpoint.port}/push"
        _, _, keys = browser_keys()
        csrf = {"x-csrf-token": made["csrf"][1]}
        assert (
            client.post("/api/me/push", json={"endpoint": url, "keys": keys}, headers=csrf).status_code == 201
        )
        set_for(db, made["accounts"][0], webhook_url=f"http://{NAME}:{endpoint.port}/hook")
        move(client, made)  # one seat asked: its message goes out
        wait_until(lambda: len(endpoint.posts) == 1)
        move(client, made)  # the other seat asked: its message goes out
        wait_until(lambda: len(endpoint.posts) == 2)
        assert sorted(path for path, _, _ in endpoint.posts) == ["/hook", "/push"]
        assert {headers["host"] for _, headers, _ in endpoint.posts} == {f"{NAME}:{endpoint.port}"}
        assert dns.asked == 2  # once per delivery
        wait_until(
            lambda: [row[6] for row in outbox(db)] == ["sent", "sent"]
        )  # the posts land before the rows say so


def certificate(tmp: Path, name: str) -> tuple[Path, Path, Path]:
    """Makes a CA and a certificate for ``name`` signed by it; returns the CA's, the certificate's and
    its key's files (PEM)."""
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.UTC)
    ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Parlour test CA")])
    ca = (
        x509.CertificateBuilder()
        .subject_name(ca_name)
        .issuer_name(ca_name)
        .public_key(ca_key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    leaf = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    files = tmp / "ca.pem", tmp / "cert.pem", tmp / "key.pem"
    files[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    files[1].write_bytes(leaf.public_bytes(serialization.Encoding.PEM))
    files[2].write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
    )
    return files


def test_over_https_the_server_name_and_the_certificate_are_the_urls_host(tmp_path: Path) -> None:
    ca, cert, key = certificate(tmp_path, NAME)
    trusted = ssl.create_default_context(cafile=str(ca))
    with Receiver() as receiver:
        serving = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        serving.load_cert_chain(cert, key)
        names: list[str | None] = []

        def heard(sock: ssl.SSLObject, name: str | None, context: ssl.SSLContext) -> None:
            names.append(name)

        serving.sni_callback = heard  # the TLS server name the client sends
        receiver.server.socket = serving.wrap_socket(receiver.server.socket, server_side=True)
        dns = Rebinding(["127.0.0.1"], ["127.0.0.2"])
        answer = pinned.post(
            f"https://{NAME}:{receiver.port}/hook", b"{}", {}, private=True, resolver=dns, tls=trusted
        )
        assert answer.status == 200 and dns.asked == 1 and names == [NAME]
        assert receiver.posts[0][1]["host"] == f"{NAME}:{receiver.port}"
        with pytest.raises(OSError):  # the same server under another name: its certificate does not match
            pinned.post(
                f"https://other.example.test:{receiver.port}/hook",
                b"{}",
                {},
                private=True,
                resolver=lambda host, port: ["127.0.0.1"],
                tls=trusted,
            )
        assert len(receiver.posts) == 1
