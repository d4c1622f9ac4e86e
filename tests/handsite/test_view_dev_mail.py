"""In development every e-mail is one .eml file under var/mail/, and /dev/mail/ shows them decoded:
links whole (no quoted-printable breaks), Arabic readable (no base64). Only with DEBUG, for staff or a
browser on this machine."""

import pytest
from django.core.mail import EmailMultiAlternatives
from django.urls import reverse

from handsite.devmail import EmlBackend

pytestmark = pytest.mark.django_db

LINK = (
    "http://127.0.0.1:8000/accounts/confirm-email/MTI:1vQxYz:"
    + "a" * 60
    + "/?next=%2Fgroups%2Fthursday-hand%2F"
)
ARABIC = "مرحبا يا أميرة، دورك في لعبة الهاند. افتحي اللعبة من هنا:"


@pytest.fixture
def mail_dir(tmp_path, settings):
    settings.DEBUG = True
    settings.MAILERS = {
        "default": {"BACKEND": "handsite.devmail.EmlBackend", "OPTIONS": {"file_path": str(tmp_path)}}
    }
    return tmp_path


def _send(folder, subject, body, to="amira@example.com"):
    message = EmailMultiAlternatives(subject, body, "Hand <noreply@localhost>", [to])
    message.attach_alternative(f"<p>{body}</p>", "text/html")
    assert EmlBackend(file_path=str(folder)).send_messages([message]) == 1


def test_each_message_is_its_own_eml_file(mail_dir):
    _send(mail_dir, "First", "one")
    _send(mail_dir, "Second", "two")
    files = sorted(mail_dir.glob("*.eml"))
    assert len(files) == 2
    assert [b"Subject: First" in f.read_bytes() or b"Subject: Second" in f.read_bytes() for f in files] == [
        True,
        True,
    ]


def test_the_page_shows_the_newest_message_decoded_with_its_link_whole(client, mail_dir):
    _send(mail_dir, "Older", "nothing")
    _send(mail_dir, "[Hand] دورك", f"{ARABIC}\n{LINK}\n")
    raw = max(mail_dir.glob("*.eml")).read_bytes()
    assert LINK.encode() not in raw  # on disk the body is encoded (base64 or quoted-printable)
    html = client.get(reverse("dev_mail")).content.decode()
    assert ARABIC in html
    assert f'href="{LINK}"' in html
    assert "[Hand] دورك" in html
    assert "Older" in html  # listed


def test_one_message_has_its_own_address(client, mail_dir):
    _send(mail_dir, "Only this", "see http://127.0.0.1:8000/join/abc/")
    name = next(mail_dir.glob("*.eml")).name
    html = client.get(reverse("dev_mail_message", args=[name])).content.decode()
    assert 'href="http://127.0.0.1:8000/join/abc/"' in html


@pytest.mark.parametrize("name", ["nothing.eml", "..%2F..%2Fetc%2Fpasswd", "a\x00.eml", "x.txt"])
def test_a_name_that_is_not_a_message_is_not_found(client, mail_dir, name):
    assert client.get(f"/dev/mail/{name}/").status_code == 404


def test_without_debug_the_page_does_not_exist(client, mail_dir, settings, owner):
    settings.DEBUG = False
    owner.is_staff = True
    owner.save()
    client.force_login(owner)
    assert client.get(reverse("dev_mail")).status_code == 404


def test_from_another_machine_only_staff_may_read_it(client, mail_dir, member, owner):
    assert client.get(reverse("dev_mail"), REMOTE_ADDR="10.1.2.3").status_code == 404
    client.force_login(member)
    assert client.get(reverse("dev_mail"), REMOTE_ADDR="10.1.2.3").status_code == 404
    owner.is_staff = True
    owner.save()
    client.force_login(owner)
    assert client.get(reverse("dev_mail"), REMOTE_ADDR="10.1.2.3").status_code == 200
