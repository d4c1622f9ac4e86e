"""No request, however hostile, gets a 5xx, and a refused request changes nothing.

Every URL of the site (enumerated from the URL conf, so a new view is covered without touching this
file; Django's own admin is left out) is requested with GET and POST as the group's owner, a member, an
outsider and a logged-out visitor. The form data starts from what the site's own pages put in their
forms (harvested from the pages as members see them: hidden fields such as the game version, button
values, option values), then:

- fixed hostile payloads: every field a 5,000-digit integer (Python refuses to parse those: ValueError),
  or a digit only to ``str.isdigit()`` ("²", "①": ``int()`` refuses them),
  deeply nested JSON (RecursionError), every move button with huge card ids and meld numbers;
- random ones drawn by hypothesis: random keys and the pages' keys, values among huge integers, nested
  JSON, random unicode (NUL included), long text and the pages' own values with their numbers blown up.

Each request runs in a savepoint rolled back afterwards, so every request meets the same site. Asserted:
no 5xx, no Python-internal message shown, and for the outsider, the logged-out visitor and any 4xx answer
the rows of the site's apps (every column, so versions too) are exactly as before (the outsider's
requests to their own profile, settings and invitations are theirs to make).
"""

from __future__ import annotations

import json
import logging
import re
from html.parser import HTMLParser
from urllib.parse import urlsplit

import pytest
from django.apps import apps
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from games.services import seating
from handsite.models import Invitation, Notification
from handsite.push.models import PushSubscription
from scoring.services.deals import add_deal
from tests.scoring.conftest import hand, make_sheet

pytestmark = pytest.mark.django_db

HUGE = "9" * 5000
UNICODE_DIGITS = "²①١"  # str.isdigit() says yes; int() refuses the first two
NESTED_LIST = "[" * 5000 + "]" * 5000
NESTED_DICT = '{"cards":' * 3000 + "1" + "}" * 3000
ROLES = ("owner", "member", "outsider", "anonymous")
APPS = ("handsite", "games", "scoring", "account")
VOLATILE = {"last_login"}
KNOWN = {  # values the pages' forms send that a page at rest may not show (the move buttons of later turns)
    "act": [
        "draw",
        "discard",
        "meld",
        "take",
        "declare_hand",
        "redeal",
        "lay_down",
        "stage",
        "stage_take",
        "lay_off:0",
        "unstage:0",
    ],
    "do": ["accept", "decline", "take", "bot", "cancel", "save", "vacation", "end_vacation"],
}
INTERNAL = ("Exceeds the limit", "Traceback", "maximum recursion", "invalid literal for int()")
RANDOM_EXAMPLES = 2
SETTINGS = settings(
    max_examples=RANDOM_EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


class _Rollback(Exception):
    pass


# --- The site's URLs and the values their forms carry --------------------------------------------------


def _routes(patterns=None, prefix: str = "", names: tuple = ()):
    """(view name, parameter names) of every URL pattern but the admin's."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        params = tuple(pattern.pattern.regex.groupindex)
        if isinstance(pattern, URLResolver):
            if pattern.app_name == "admin":
                continue
            namespace = (pattern.namespace,) if pattern.namespace else ()
            yield from _routes(pattern.url_patterns, prefix, names + namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            converters = tuple(getattr(pattern.pattern, "converters", {}))
            yield ":".join((*names, pattern.name)), tuple(dict.fromkeys(params + converters))


class _Forms(HTMLParser):
    """(action URL, field name, value) of every form field and button of a page."""

    def __init__(self, page_url: str):
        super().__init__()
        self.page_url = page_url
        self.action = page_url
        self.select = None
        self.fields: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "form":
            action = attrs.get("hx-post") or attrs.get("action") or self.page_url
            self.action = urlsplit(action).path or self.page_url
        elif tag in ("input", "button", "textarea") and attrs.get("name"):
            action = attrs.get("formaction") or attrs.get("hx-post") or self.action
            self.fields.append((urlsplit(action).path, attrs["name"], attrs.get("value") or ""))
        elif tag == "select":
            self.select = attrs.get("name")
        elif tag == "option" and self.select:
            self.fields.append((self.action, self.select, attrs.get("value") or ""))

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.action = self.page_url


def _blow_up(value: str) -> str:
    """The value with every number in it a 5,000-digit one."""
    return re.sub(r"\d+", HUGE, value) if re.search(r"\d", value) else HUGE


def _payload(base: dict, override: dict) -> dict:
    data = {key: list(values) for key, values in base.items()}
    data.update({key: list(values) for key, values in override.items()})
    return data


# --- The site under attack -------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _quiet_logs():
    """A 4xx is logged with its traceback by Django; thousands of them would only slow the test."""
    loggers = [logging.getLogger(name) for name in ("django.request", "django.security")]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    yield
    for logger, level in zip(loggers, levels, strict=True):
        logger.setLevel(level)


@pytest.fixture
def site(group, owner, member, outsider, admin):
    duel = seating.create_game(
        group=group, created_by=owner, variant="classic", options={}, seats=[owner, member], seed=77
    )
    seating.accept_seat(game_id=duel.pk, user=member)
    waiting = seating.create_game(
        group=group, created_by=owner, variant="classic", options={}, seats=[owner, admin, member], seed=78
    )
    sheet = make_sheet(group, owner, "jordanian", [owner, member, "Gina"])
    deal = add_deal(sheet, by=owner, facts=hand(0, [True] * 3, [None, 40, 10]))
    link = Invitation.objects.filter(group=group).first() or Invitation.objects.create(
        group=group, created_by=owner
    )
    notification = Notification.objects.filter(user=member).first()
    emailed = Invitation.objects.create(group=group, created_by=owner, email="friend@example.com")
    device = PushSubscription.objects.create(
        user=member, endpoint="https://push.example.com/send/1", p256dh="k", auth="a"
    )
    values = {
        "group_slug": [group.slug],
        "game_id": [duel.pk, waiting.pk],
        "membership_id": [member.memberships.get(group=group).pk],
        "notification_id": [notification.pk if notification else 1],
        "invitation_id": [emailed.pk],
        "device_id": [device.pk],
        "token": [link.token],
        "sheet_id": [sheet.pk],
        "deal_id": [deal.pk],
        "change_id": [deal.changes.get().pk],
        "rule_set": ["jordanian"],
        "slug": ["classic"],
        "fmt": ["csv"],
        "uidb36": ["1"],
        "key": ["x"],
        "answer": ["accept", "decline"],
    }
    urls = []
    for name, params in _routes():
        combos = [{}]
        for param in params:
            combos = [{**c, param: v} for c in combos for v in values.get(param, ["x"])]
        for kwargs in combos:
            urls.append((name, reverse(name, kwargs=kwargs)))
    people = {"owner": owner, "member": member, "outsider": outsider, "anonymous": None}
    return {"urls": urls, "people": people, "game": Game.objects.get(pk=duel.pk)}


def _client(person) -> Client:
    client = Client(raise_request_exception=False)
    if person is not None:
        client.force_login(person)
    return client


def _harvest(site) -> tuple[dict[str, dict[str, list[str]]], set[str]]:
    """Per form action URL: its fields' first values (the page's defaults). And every value seen."""
    forms: dict[str, dict[str, list[str]]] = {}
    values: set[str] = set()
    for role in ("owner", "member"):
        client = _client(site["people"][role])
        for _name, url in site["urls"]:
            response = client.get(url)
            if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
                continue
            parser = _Forms(url)
            parser.feed(response.content.decode())
            for action, field, value in parser.fields:
                fields = forms.setdefault(action, {})
                if field not in fields and field != "csrfmiddlewaretoken":
                    fields[field] = [value]
                values.add(value)
    return forms, values


def _snapshot() -> dict:
    rows = {}
    for label in APPS:
        for model in apps.get_app_config(label).get_models():
            names = [f.attname for f in model._meta.concrete_fields if f.attname not in VOLATILE]
            rows[model._meta.label] = list(model.objects.order_by("pk").values_list(*names))
    return rows


def _check(problems, client, role, method, url, data=None):
    """One request in a rolled-back savepoint; what breaks the module docstring's rules goes in
    ``problems`` (all are reported at the end, one per kind of request)."""
    before = _snapshot()
    try:
        with transaction.atomic():
            send = client.get if method == "GET" else client.post
            response = send(url, data or {})
            after = _snapshot()
            raise _Rollback
    except _Rollback:
        pass
    where = (role, method, url)
    detail = _short(data)
    if response.status_code >= 500:
        problems.setdefault(where, f"{response.status_code}: {detail}")
    content_type = response.get("Content-Type", "")
    body = response.content.decode(errors="replace") if content_type.startswith("text") else ""
    for text in INTERNAL:
        if text in body:
            problems.setdefault(where, f"{text!r} shown: {detail}")
    group_page = url.startswith("/groups/")  # an outsider's own profile, settings or invitation are theirs
    if role == "anonymous" or (role == "outsider" and group_page) or 400 <= response.status_code < 500:
        changed = [label for label in before if before[label] != after[label]]
        if changed:
            problems.setdefault(where, f"{changed} changed ({response.status_code}): {detail}")


def _short(data) -> str:
    text = json.dumps(data, ensure_ascii=False, default=str) if data else ""
    return text if len(text) < 300 else text[:300] + "…"


def _values(seen: set[str]):
    seen_list = sorted(seen)
    return st.one_of(
        st.just(HUGE),
        st.sampled_from(UNICODE_DIGITS),
        st.just("-" + HUGE),
        st.just(NESTED_LIST),
        st.just(NESTED_DICT),
        st.text(max_size=40),
        st.text(alphabet=st.characters(codec="utf-8"), min_size=5000, max_size=5000),
        st.integers(min_value=-(2**70), max_value=2**70).map(str),
        st.sampled_from(seen_list),
        st.sampled_from(seen_list).map(_blow_up),
    )


def _random_data(keys: list[str], seen: set[str]):
    key = st.one_of(st.sampled_from(keys), st.text(max_size=12))
    return st.dictionaries(key, st.lists(_values(seen), min_size=1, max_size=3), max_size=6)


def _random_requests(problems, client, role, url, base, keys, seen):
    """RANDOM_EXAMPLES random GET or POST requests (POST: the page's own fields, some overridden)."""

    @SETTINGS
    @given(data=_random_data(keys, seen), method=st.sampled_from(["GET", "POST"]))
    def random_requests(data, method):
        payload = _payload(base, data) if method == "POST" else data
        _check(problems, client, role, method, url, payload)

    random_requests()


def test_every_view_of_the_site_is_attacked(site):
    names = {name for name, _url in site["urls"]}
    assert {
        "games:move",
        "games:seat",
        "games:poll",
        "scoring:deal_new",
        "profile",
        "account_signup",
        "healthz",
        "invitation",
    } <= names
    assert len(site["urls"]) > 50


def test_no_hostile_request_gets_a_5xx_or_changes_anything_it_is_refused(site):
    forms, seen = _harvest(site)
    seen |= {value for values in KNOWN.values() for value in values}
    every_key = sorted({key for fields in forms.values() for key in fields} | set(KNOWN) | {"u", "r", "t"})
    problems: dict = {}
    clients = {role: _client(person) for role, person in site["people"].items()}
    urls = [url for _name, url in site["urls"]]

    for url in urls:
        base = forms.get(url, {})
        keys = sorted(set(base) | set(KNOWN)) or every_key
        fixed = [
            {key: [HUGE] for key in keys},
            _payload(base, {key: [HUGE] for key in keys if key != "version"}),
            _payload(base, {key: [NESTED_LIST] for key in keys if key != "version"}),
            _payload(base, {"staged": [NESTED_DICT], "preset": [NESTED_DICT], "act": ["lay_down"]}),
            _payload(base, {key: [UNICODE_DIGITS[0]] for key in keys if key != "version"}),
            _payload(base, {key: [UNICODE_DIGITS[1]] for key in keys if key != "version"}),
        ]
        if "act" in base:  # the move form: each button with huge card ids, meld numbers and nested melds
            for act in KNOWN["act"]:
                fixed.append(
                    _payload(base, {"act": [_blow_up(act)], "cards": [HUGE, "1"], "staged": [NESTED_DICT]})
                )
                fixed.append(_payload(base, {"act": [act], "cards": [HUGE], "meld": [HUGE]}))
        if "do" in base:
            for do in KNOWN["do"]:
                fixed.append(_payload(base, {"do": [do], "number": [HUGE], "days": [HUGE]}))
        for role, client in clients.items():
            _check(problems, client, role, "GET", url, dict.fromkeys(every_key, HUGE))
            _check(problems, client, role, "GET", url, dict.fromkeys(every_key, UNICODE_DIGITS[0]))
            for data in fixed if role in ("owner", "member") else fixed[:4]:
                _check(problems, client, role, "POST", url, data)

            _random_requests(problems, client, role, url, base, sorted(set(keys) | set(every_key)), seen)
    report = "\n".join(f"{' '.join(where)}: {what}" for where, what in sorted(problems.items()))
    assert not problems, f"{len(problems)} hostile requests broke the rules:\n{report}"
