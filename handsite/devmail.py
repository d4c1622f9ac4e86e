"""Development e-mail: the file backend writes one ``.eml`` per message under ``var/mail/``
(EMAIL_MODE=file), and the development-only page (``/dev/mail/``, views.dev_mail) reads them back
decoded: subject and addresses in plain words, the text body without quoted-printable soft breaks or
base64 (Arabic readable), and every link whole."""

from __future__ import annotations

import datetime
import email
import email.policy
import re
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from django.core.mail.backends import filebased

NAME = re.compile(r"^[0-9A-Za-z_.-]{1,80}\.eml$")
LINK = re.compile(r"https?://[^\s<>\"')\]]+")
SHOWN = 200  # the newest messages listed


class EmlBackend(filebased.EmailBackend):
    """Django's file backend, one file per message (``<time>-<random>.eml``, written whole then
    renamed, so the page never reads half a message)."""

    def send_messages(self, email_messages):
        sent = 0
        for message in email_messages:
            try:
                stamp = datetime.datetime.now(datetime.UTC).strftime("%Y%m%d-%H%M%S-%f")
                path = Path(self.file_path) / f"{stamp}-{uuid.uuid4().hex[:6]}.eml"
                partial = path.with_suffix(".part")
                partial.write_bytes(message.message().as_bytes())
                partial.replace(path)
                sent += 1
            except Exception:
                if not self.fail_silently:
                    raise
        return sent


@dataclass
class Mail:
    name: str
    subject: str = ""
    sender: str = ""
    to: str = ""
    date: str = ""
    text: str = ""
    links: list[str] = field(default_factory=list)


def names(folder: Path) -> list[str]:
    """The messages in ``folder``, newest first."""
    if not folder.is_dir():
        return []
    return sorted((p.name for p in folder.glob("*.eml") if NAME.match(p.name)), reverse=True)[:SHOWN]


def read(folder: Path, name: str, *, body: bool = True) -> Mail | None:
    """One message decoded, or None when ``name`` is not a message of ``folder``."""
    if not NAME.match(name) or not (folder / name).is_file():
        return None
    message = email.message_from_bytes((folder / name).read_bytes(), policy=email.policy.default)
    mail = Mail(
        name=name,
        subject=str(message.get("Subject", "")),
        sender=str(message.get("From", "")),
        to=str(message.get("To", "")),
        date=str(message.get("Date", "")),
    )
    if body:
        part = message.get_body(preferencelist=("plain", "html"))
        mail.text = part.get_content() if part is not None else ""
        mail.links = list(dict.fromkeys(LINK.findall(mail.text)))
    return mail
