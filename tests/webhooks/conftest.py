"""Group chat ping tests: a stand-in chat service on 127.0.0.1 (the only thing replaced)."""

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.notifications.conftest import game, make_game  # noqa: F401 (fixtures)


class Receiver:
    """Records each POST's path and JSON body; answers ``status``."""

    def __init__(self):
        self.received: list[dict] = []
        self.status = 204
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                receiver.received.append({"path": self.path, "json": json.loads(body or b"null")})
                self.send_response(receiver.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def url(self, path: str = "/api/webhooks/123/s3cr3t-token") -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}{path}"

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    service = Receiver()
    yield service
    service.close()
