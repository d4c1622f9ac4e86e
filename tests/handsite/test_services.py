import datetime

import pytest
import time_machine
from django.utils import timezone

from handsite.models import Invitation, Membership, Role
from handsite.services import groups, invitations
from tests.factories import InvitationFactory, UserFactory
from tests.support import membership_of

pytestmark = pytest.mark.django_db


def test_the_creator_of_a_group_is_its_owner(outsider):
    group = groups.create_group(owner=outsider, name="  Cousins  ", description="Fridays")
    assert group.name == "Cousins"
    assert membership_of(outsider, group).role == Role.OWNER
    assert group.slug.startswith("cousins-")


def test_a_person_can_be_in_many_groups(owner, group):
    other = groups.create_group(owner=owner, name="Work friends")
    assert set(owner.player_groups.all()) == {group, other}


def test_two_groups_with_the_same_name_get_different_slugs(outsider):
    first = groups.create_group(owner=outsider, name="Cousins")
    second = groups.create_group(owner=outsider, name="Cousins")
    assert first.slug != second.slug


def test_a_group_needs_a_name(outsider):
    with pytest.raises(groups.GroupError, match="needs a name"):
        groups.create_group(owner=outsider, name="   ")


def test_an_admin_makes_a_member_an_admin(admin, member, group):
    groups.change_role(
        actor_membership=membership_of(admin, group), membership=membership_of(member, group), role=Role.ADMIN
    )
    assert membership_of(member, group).role == Role.ADMIN


def test_a_member_cannot_change_roles(admin, member, group):
    with pytest.raises(groups.GroupError, match="owners and admins"):
        groups.change_role(
            actor_membership=membership_of(member, group),
            membership=membership_of(admin, group),
            role=Role.MEMBER,
        )
    assert membership_of(admin, group).role == Role.ADMIN


def test_an_admin_cannot_make_anyone_an_owner(admin, member, group):
    with pytest.raises(groups.GroupError, match="Only an owner"):
        groups.change_role(
            actor_membership=membership_of(admin, group),
            membership=membership_of(member, group),
            role=Role.OWNER,
        )
    assert membership_of(member, group).role == Role.MEMBER


def test_an_admin_cannot_demote_an_owner(owner, admin, group):
    with pytest.raises(groups.GroupError, match="Only an owner"):
        groups.change_role(
            actor_membership=membership_of(admin, group),
            membership=membership_of(owner, group),
            role=Role.MEMBER,
        )
    assert membership_of(owner, group).role == Role.OWNER


def test_an_unknown_role_is_refused(owner, member, group):
    with pytest.raises(groups.GroupError, match="not a role"):
        groups.change_role(
            actor_membership=membership_of(owner, group), membership=membership_of(member, group), role="king"
        )


def test_the_last_owner_cannot_step_down(owner, group):
    mine = membership_of(owner, group)
    with pytest.raises(groups.GroupError, match="last owner"):
        groups.change_role(actor_membership=mine, membership=mine, role=Role.ADMIN)
    assert membership_of(owner, group).role == Role.OWNER


def test_an_owner_can_step_down_once_someone_else_is_owner(owner, admin, group):
    mine = membership_of(owner, group)
    groups.change_role(actor_membership=mine, membership=membership_of(admin, group), role=Role.OWNER)
    groups.change_role(actor_membership=mine, membership=mine, role=Role.MEMBER)
    assert membership_of(owner, group).role == Role.MEMBER
    assert membership_of(admin, group).role == Role.OWNER


def test_roles_in_another_group_cannot_be_changed(owner, group, outsider):
    elsewhere = groups.create_group(owner=outsider, name="Elsewhere")
    with pytest.raises(groups.GroupError, match="not in this group"):
        groups.change_role(
            actor_membership=membership_of(owner, group),
            membership=membership_of(outsider, elsewhere),
            role=Role.MEMBER,
        )


def test_an_admin_removes_a_member(admin, member, group):
    groups.remove_member(
        actor_membership=membership_of(admin, group), membership=membership_of(member, group)
    )
    assert not Membership.objects.filter(user=member, group=group).exists()


def test_an_admin_cannot_remove_an_owner(owner, admin, group):
    with pytest.raises(groups.GroupError, match="Only an owner"):
        groups.remove_member(
            actor_membership=membership_of(admin, group), membership=membership_of(owner, group)
        )
    assert Membership.objects.filter(user=owner, group=group).exists()


def test_a_member_cannot_remove_anyone(admin, member, group):
    with pytest.raises(groups.GroupError):
        groups.remove_member(
            actor_membership=membership_of(member, group), membership=membership_of(admin, group)
        )
    assert Membership.objects.filter(user=admin, group=group).exists()


def test_removing_yourself_points_to_leaving(owner, group):
    mine = membership_of(owner, group)
    with pytest.raises(groups.GroupError, match="Leave group"):
        groups.remove_member(actor_membership=mine, membership=mine)


def test_a_member_leaves(member, group):
    groups.leave_group(membership=membership_of(member, group))
    assert not Membership.objects.filter(user=member, group=group).exists()


def test_the_last_owner_cannot_leave(owner, member, group):
    with pytest.raises(groups.GroupError, match="last owner"):
        groups.leave_group(membership=membership_of(owner, group))
    assert membership_of(owner, group).role == Role.OWNER


def test_an_owner_can_leave_when_another_owner_remains(owner, admin, group):
    groups.change_role(
        actor_membership=membership_of(owner, group), membership=membership_of(admin, group), role=Role.OWNER
    )
    groups.leave_group(membership=membership_of(owner, group))
    assert list(group.memberships.values_list("role", flat=True)) == [Role.OWNER]


def test_regenerating_the_link_switches_the_old_one_off(owner, group):
    first = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    second = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    first.refresh_from_db()
    assert first.revoked_at is not None
    assert group.active_link_invitation() == second
    with pytest.raises(invitations.InvitationError, match="switched off"):
        invitations.check_invitation(first.token)


def test_invite_tokens_are_long_and_random(owner, group):
    tokens = {
        invitations.regenerate_invite_link(actor_membership=membership_of(owner, group)).token
        for _ in range(5)
    }
    assert len(tokens) == 5
    assert all(len(token) >= 32 for token in tokens)


def test_a_member_cannot_make_an_invite_link(member, group):
    with pytest.raises(groups.GroupError):
        invitations.regenerate_invite_link(actor_membership=membership_of(member, group))
    assert not Invitation.objects.exists()


def test_revoking_switches_the_link_off(owner, group):
    link = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    assert invitations.revoke_invite_link(actor_membership=membership_of(owner, group)) == 1
    assert group.active_link_invitation() is None
    with pytest.raises(invitations.InvitationError):
        invitations.check_invitation(link.token)


def test_a_valid_link_adds_a_member(owner, group, outsider):
    link = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    membership, created = invitations.accept_invitation(token=link.token, user=outsider)
    assert created
    assert membership.role == Role.MEMBER
    assert membership.group == group


def test_a_link_serves_many_people(owner, group):
    link = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    for user in UserFactory.create_batch(3):
        invitations.accept_invitation(token=link.token, user=user)
    assert group.memberships.count() == 4


def test_joining_twice_creates_no_second_membership(owner, group, outsider):
    link = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    invitations.accept_invitation(token=link.token, user=outsider)
    _membership, created = invitations.accept_invitation(token=link.token, user=outsider)
    assert not created
    assert Membership.objects.filter(user=outsider, group=group).count() == 1


def test_an_unknown_token_creates_nothing(outsider):
    with pytest.raises(invitations.InvitationError, match="not valid"):
        invitations.accept_invitation(token="no-such-token", user=outsider)
    assert not Membership.objects.filter(user=outsider).exists()


def test_an_expired_link_creates_nothing(owner, group, outsider):
    link = invitations.regenerate_invite_link(
        actor_membership=membership_of(owner, group), expires_in=datetime.timedelta(days=1)
    )
    later = timezone.now() + datetime.timedelta(days=1, seconds=1)
    with time_machine.travel(later), pytest.raises(invitations.InvitationError, match="expired"):
        invitations.accept_invitation(token=link.token, user=outsider)
    assert not Membership.objects.filter(user=outsider, group=group).exists()


def test_a_link_works_until_it_expires(owner, group, outsider):
    link = invitations.regenerate_invite_link(
        actor_membership=membership_of(owner, group), expires_in=datetime.timedelta(days=1)
    )
    with time_machine.travel(timezone.now() + datetime.timedelta(hours=23)):
        invitations.accept_invitation(token=link.token, user=outsider)
    assert Membership.objects.filter(user=outsider, group=group).exists()


def test_an_email_invitation_is_used_once(owner, group, outsider):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=outsider, email=outsider.email, verified=True, primary=True)
    invitation = invitations.invite_by_email(
        actor_membership=membership_of(owner, group), email=outsider.email
    )
    invitations.accept_invitation(token=invitation.token, user=outsider)
    with pytest.raises(invitations.InvitationError, match="already been used"):
        invitations.accept_invitation(token=invitation.token, user=UserFactory())
    invitation.refresh_from_db()
    assert invitation.accepted_by == outsider


def test_inviting_someone_already_in_the_group_is_refused(owner, member, group):
    with pytest.raises(groups.GroupError, match="already in this group"):
        invitations.invite_by_email(actor_membership=membership_of(owner, group), email=member.email.upper())
    assert not Invitation.objects.exists()


def test_stale_invitations_are_purged_after_thirty_days(owner, group):
    old = InvitationFactory(group=group, revoked_at=timezone.now() - datetime.timedelta(days=31))
    recent = InvitationFactory(group=group, revoked_at=timezone.now() - datetime.timedelta(days=1))
    live = InvitationFactory(group=group)
    assert invitations.purge_stale_invitations() == 1
    assert set(Invitation.objects.all()) == {recent, live}
    assert old.pk is not None
