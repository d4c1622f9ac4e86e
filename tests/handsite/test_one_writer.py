"""One writer per app: each app's ``services.py`` (or the modules of its ``services/`` package) writes its
rows; views, forms, the allauth adapter, tasks, template tags and the rest call it. Read from the source
(an AST walk), so a write added anywhere else fails here before it is ever run."""

import ast
from pathlib import Path

import pytest

from handsite.services import accounts, invitations
from tests.support import membership_of

ROOT = Path(__file__).resolve().parents[2]
APPS = ("handsite", "games", "scoring")

WRITES = {
    "save",
    "delete",
    "create",
    "update",
    "get_or_create",
    "update_or_create",
    "bulk_create",
    "bulk_update",
}
"""Method names that write rows (a model's or a queryset's)."""

THIN = ("views.py", "forms.py", "adapters.py", "tasks.py")
"""Modules that must stay thin: no call of any of :data:`WRITES`, whatever the receiver (a dict is
merged with ``|=``, so that a ``.update(`` there can only be a queryset's)."""

ALLOWED = {
    "services.py": "the app's one writer",
    "services/": "the app's one writer, split by concern (games/services/)",
    "movesql.py": "the move's statements written by hand and their ORM equivalents, run by games/services/",
    "models.py": "a model's own save()",
    "sessions.py": "the session engine's own save() and delete() (Django's cached_db store, extended)",
    "demo.py": "handsite's demo data (manage.py demo), written once by its management command",
    "apps.py": "the Site row set after migrate (post_migrate signal)",
    "settings.py": "no model: the DATABASES dict",
}
"""Modules left out, with why."""


def _receiver_is_a_query(node: ast.expr) -> bool:
    """``X.objects....update(...)``, ``qs.filter(...).update(...)``: a call chain or a manager."""
    return isinstance(node, ast.Call) or "objects" in ast.unparse(node).split(".")


def writes_in(source: str, *, thin: bool) -> list[str]:
    """The write calls in ``source``: in a thin module every call named in :data:`WRITES`; elsewhere
    those whose receiver cannot be a dict (``.update(`` on a queryset or a manager; every other name)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        name = node.func.attr
        if name not in WRITES:
            continue
        if thin or name != "update" or _receiver_is_a_query(node.func.value):
            found.append(f"{node.lineno}: {ast.unparse(node.func)}(...)")
    return found


def _modules():
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if "migrations" in relative.parts or relative.parts[:2] == ("games", "engine"):
                continue  # migrations write by design; the engine imports no Django at all
            if path.name in ALLOWED or "services" in relative.parts[1:-1]:
                continue  # an app's services package is its one writer, split by concern
            yield relative, path.name.endswith(THIN) or bool({"templatetags", "views"} & set(relative.parts))


def test_no_view_form_adapter_or_task_writes_a_row_itself():
    offenders = [
        f"{relative}:{line}"
        for relative, thin in _modules()
        for line in writes_in((ROOT / relative).read_text(), thin=thin)
    ]
    assert offenders == [], "call the app's services.py instead (merge dicts with |=)"


def test_the_scan_covers_the_views_forms_and_adapters_of_every_app():
    scanned = {str(relative): thin for relative, thin in _modules()}
    for thin_module in (
        "handsite/views.py",
        "handsite/notification_views.py",
        "handsite/forms.py",
        "handsite/adapters.py",
        "handsite/tasks.py",
        "handsite/i18n.py",
        "games/views.py",
        "games/forms.py",
        "games/deadlines.py",
        "scoring/views/deals.py",
        "scoring/views/sheets.py",
        "scoring/forms.py",
    ):
        assert thin_module in scanned, thin_module
    assert scanned["handsite/views.py"]
    assert scanned["games/views.py"]
    assert scanned["scoring/views/deals.py"]
    assert not [module for module in scanned if module.startswith("scoring/services/")]
    assert not scanned["handsite/i18n.py"]


@pytest.mark.parametrize(
    "source",
    [
        "def profile(request):\n    form.save()\n",
        "def v(request):\n    Membership.objects.create(group=g, user=u)\n",
        "def v(request):\n    game.delete()\n",
        "def v(request):\n    Game.objects.filter(pk=1).update(status='x')\n",
        "def v(request):\n    context.update(extra)\n",  # a thin module merges dicts with |=
        "def v(request):\n    User.objects.get_or_create(email=e)\n",
    ],
)
def test_the_scan_catches_a_write_in_a_view(source):
    assert writes_in(source, thin=True)


def test_outside_thin_modules_only_a_dicts_update_is_let_through():
    assert writes_in("lines.update({1: 'a'})\n", thin=False) == []
    assert writes_in("context |= extra\n", thin=True) == []
    assert writes_in("User.objects.filter(pk=1).update(language='ar')\n", thin=False)
    assert writes_in("rows.filter(read_at=None).update(read_at=now)\n", thin=False)
    assert writes_in("user.save(update_fields=['language'])\n", thin=False)


@pytest.mark.django_db
def test_the_account_writes_live_in_handsite_services(outsider, owner, group):
    """What the adapter, the sign-up form, the profile page and the language middleware used to save
    themselves."""
    link = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    accounts.save_new_user(outsider, invitation_token=link.token)
    outsider.refresh_from_db()
    assert outsider.pending_invitation_id == link.pk
    assert accounts.take_pending_invitation(outsider) == link.token
    outsider.refresh_from_db()
    assert outsider.pending_invitation_id is None
    assert accounts.take_pending_invitation(outsider) is None  # used once
    accounts.save_new_user(outsider, invitation_token="not-a-token")  # not remembered, no error
    outsider.refresh_from_db()
    assert outsider.pending_invitation_id is None
    accounts.set_signup_details(outsider, display_name="  Nour ", language="ar")
    outsider.refresh_from_db()
    assert (outsider.display_name, outsider.language) == ("Nour", "ar")
    accounts.update_profile(outsider, display_name="Nour K.", language="en")
    accounts.set_language(outsider, "ar")
    outsider.refresh_from_db()
    assert (outsider.display_name, outsider.language) == ("Nour K.", "ar")
