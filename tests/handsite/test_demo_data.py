import sys
import types

import pytest
from django.core.management import call_command

from handsite.demo import DEMO_GROUP_SLUG, DEMO_PASSWORD
from handsite.management.commands import demo_data
from handsite.models import Membership, PlayerGroup, User

pytestmark = pytest.mark.django_db


def test_it_prints_the_demo_logins(capsys):
    call_command("demo_data")
    out = capsys.readouterr().out
    assert "amira@example.com" in out
    assert DEMO_PASSWORD in out
    user = User.objects.get(email="amira@example.com")
    assert user.check_password(DEMO_PASSWORD)


def test_running_it_twice_creates_nothing_new():
    call_command("demo_data")
    counts = (User.objects.count(), PlayerGroup.objects.count(), Membership.objects.count())
    call_command("demo_data")
    assert (User.objects.count(), PlayerGroup.objects.count(), Membership.objects.count()) == counts
    assert PlayerGroup.objects.get(slug=DEMO_GROUP_SLUG).memberships.count() == 4


def test_apps_add_their_demo_content_through_a_demo_module(monkeypatch):
    calls = []
    fake = types.ModuleType("games.demo")
    fake.load = lambda demo: calls.append((sorted(demo.users), demo.group.slug))
    monkeypatch.setitem(sys.modules, "games.demo", fake)
    monkeypatch.setattr(demo_data, "project_demo_modules", lambda: iter([fake]))
    call_command("demo_data")
    assert calls == [(["amira", "layla", "omar", "sam"], DEMO_GROUP_SLUG)]
