"""A stand-in for the outside world's mail server, started by a test on 127.0.0.1 (an ephemeral port):
``answering`` speaks enough SMTP to take messages (kept in ``messages``), ``hanging`` accepts the
connection and never says a word (a mail server that hangs), and :func:`refusing_port` is a port where
nothing listens (a mail server that is down)."""

from __future__ import annotations

import contextlib
import email
import email.policy
import socket
import socketserver
import threading


class _Handler(socketserver.StreamRequestHandler):
    def handle(self):
        server = self.server
        if server.mode == "hanging":
            server.release.wait(60)
            return
        self.wfile.write(b"220 stand-in ESMTP\r\n")
        data, in_data = [], False
        while True:
            line = self.rfile.readline()
            if not line:
                return
            if in_data:
                if line in (b".\r\n", b".\n"):
                    in_data = False
                    raw = b"".join(data)
                    server.messages.append(email.message_from_bytes(raw, policy=email.policy.default))
                    data = []
                    self.wfile.write(b"250 queued\r\n")
                else:
                    data.append(line[1:] if line.startswith(b"..") else line)
                continue
            verb = line.split(b" ", 1)[0].strip().upper()
            if verb == b"EHLO":
                self.wfile.write(b"250-stand-in\r\n250 8BITMIME\r\n")
            elif verb == b"DATA":
                in_data = True
                self.wfile.write(b"354 go on\r\n")
            elif verb == b"QUIT":
                self.wfile.write(b"221 bye\r\n")
                return
            else:  # HELO, MAIL, RCPT, RSET, NOOP
                self.wfile.write(b"250 ok\r\n")


class SMTPStandIn(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, mode: str = "answering"):
        super().__init__(("127.0.0.1", 0), _Handler)
        self.mode = mode
        self.messages: list[email.message.EmailMessage] = []
        self.release = threading.Event()
        self.thread = threading.Thread(target=self.serve_forever, daemon=True)
        self.thread.start()

    @property
    def port(self) -> int:
        return self.server_address[1]

    def mailers(self, timeout: int = 2) -> dict:
        """The MAILERS setting that sends through this stand-in."""
        return mailers_at(self.port, timeout)

    def stop(self) -> None:
        self.release.set()
        self.shutdown()
        self.server_close()


def mailers_at(port: int, timeout: int = 2) -> dict:
    return {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "use_tls": False, "timeout": timeout},
        }
    }


def refusing_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def smtp_standin(mode: str = "answering"):
    server = SMTPStandIn(mode)
    try:
        yield server
    finally:
        server.stop()
