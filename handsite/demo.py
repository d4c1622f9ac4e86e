"""Demo content for `manage.py demo_data`.

Extension point: any project app may have a `demo.py` module with a function `load(demo)`; the command
calls it after the site's base data exists, passing a Demo object (users, group, write). It must be
idempotent (get_or_create by a fixed key), like this module.

    # games/demo.py
    def load(demo):
        amira, omar = demo.users["amira"], demo.users["omar"]
        ... create a game in demo.group unless it exists ...
        demo.write("Demo game: /groups/.../games/...")
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from allauth.account.models import EmailAddress
from django.db import transaction

from handsite.models import Invitation, Membership, PlayerGroup, Role, User

DEMO_PASSWORD = "play-hand-demo"
DEMO_GROUP_SLUG = "demo-thursday-hand"
# key -> (e-mail, display name, role in the demo group)
DEMO_PEOPLE = {
    "amira": ("amira@example.com", "Amira", Role.OWNER),
    "omar": ("omar@example.com", "Omar", Role.ADMIN),
    "layla": ("layla@example.com", "Layla", Role.MEMBER),
    "sam": ("sam@example.com", "Sam", Role.MEMBER),
}


@dataclass
class Demo:
    users: dict[str, User]
    group: PlayerGroup
    password: str
    write: Callable[[str], None]
    notes: list[str] = field(default_factory=list)


@transaction.atomic
def load_base(write: Callable[[str], None]) -> Demo:
    users = {}
    for key, (email, display_name, _role) in DEMO_PEOPLE.items():
        user, created = User.objects.get_or_create(
            email=email, defaults={"username": email, "display_name": display_name}
        )
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        EmailAddress.objects.get_or_create(
            user=user, email=email, defaults={"verified": True, "primary": True}
        )
        users[key] = user
    group, _created = PlayerGroup.objects.get_or_create(
        slug=DEMO_GROUP_SLUG,
        defaults={"name": "Thursday Hand Night", "description": "Demo group: cards every Thursday."},
    )
    for key, (_email, _name, role) in DEMO_PEOPLE.items():
        Membership.objects.get_or_create(group=group, user=users[key], defaults={"role": role})
    if group.active_link_invitation() is None:
        Invitation.objects.create(group=group, created_by=users["amira"])
    return Demo(users=users, group=group, password=DEMO_PASSWORD, write=write)
