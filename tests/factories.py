"""factory_boy factories for the site's models. Later apps reuse these (and the cast in conftest.py)."""

import factory

from handsite.models import Invitation, Membership, PlayerGroup, Role, User

PASSWORD = "a-long-test-password-42"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    email = factory.Sequence(lambda n: f"player{n}@example.com")
    username = factory.LazyAttribute(lambda u: u.email)
    display_name = factory.Sequence(lambda n: f"Player {n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def _save(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class PlayerGroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = PlayerGroup

    name = factory.Sequence(lambda n: f"Group {n}")
    slug = factory.Sequence(lambda n: f"group-{n}")
    description = "We play on Thursdays."


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    group = factory.SubFactory(PlayerGroupFactory)
    user = factory.SubFactory(UserFactory)
    role = Role.MEMBER


class InvitationFactory(factory.django.DjangoModelFactory):
    """The group's shareable link by default; pass email=... for an e-mail invitation."""

    class Meta:
        model = Invitation

    group = factory.SubFactory(PlayerGroupFactory)
    email = ""
