"""Web Push tests: VAPID keys made for the test, devices with real P-256 keys (the test can decrypt what
they receive) and a stand-in push service on 127.0.0.1 (the only thing replaced)."""

from __future__ import annotations

import base64
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from handsite.management.commands.vapid_keys import new_keys
from handsite.push.models import PushSubscription
from tests.notifications.conftest import game, make_game, prefs  # noqa: F401 (fixtures)


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture
def vapid(settings):
    private, public = new_keys()
    settings.HANDSITE_VAPID_PRIVATE_KEY = private
    settings.HANDSITE_VAPID_PUBLIC_KEY = public
    settings.HANDSITE_VAPID_SUBJECT = "mailto:admin@hand.example"
    settings.HANDSITE_PUSH_ALLOW_HTTP = True
    return public


class PushService:
    """A push service on 127.0.0.1: records each POST (path, headers, body) and answers ``status``."""

    def __init__(self):
        self.received: list[dict] = []
        self.status = 201
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                service.received.append(
                    {
                        "path": self.path,
                        "headers": {k.lower(): v for k, v in self.headers.items()},
                        "body": body,
                    }
                )
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def push_service():
    service = PushService()
    yield service
    service.close()


class Device:
    """A browser's side of a subscription: its key pair and auth secret, to decrypt what arrives."""

    def __init__(self, endpoint: str):
        self.private_key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        self.endpoint = endpoint
        self.p256dh = b64url(
            self.private_key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        )

    def decrypt(self, body: bytes) -> dict:
        import http_ece

        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


@pytest.fixture
def add_device(push_service):
    """add_device(user, name): a device of ``user`` subscribed at the stand-in (path /name)."""

    def add(user, name: str) -> tuple[Device, PushSubscription]:
        device = Device(f"{push_service.url}/{name}")
        row = PushSubscription.objects.create(
            user=user, endpoint=device.endpoint, p256dh=device.p256dh, auth=b64url(device.auth), label=name
        )
        return device, row

    return add
