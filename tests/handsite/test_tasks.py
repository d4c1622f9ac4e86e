import pytest

from handsite import tasks
from handsite.models import Invitation, OutgoingEmail
from handsite.services import invitations
from tests.support import membership_of

pytestmark = pytest.mark.django_db


def test_an_invitation_email_is_queued_only_once(
    owner, group, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        invitation = invitations.invite_by_email(
            actor_membership=membership_of(owner, group), email="a@example.com"
        )
        # a task queued before the outbox existed finds it queued already
        assert tasks.send_invitation_email(invitation.pk) is False
    assert OutgoingEmail.objects.get().purpose == "invitation"
    assert len(mailoutbox) == 1


def test_an_invitation_made_before_the_outbox_is_queued_by_its_old_task(owner, group, mailoutbox):
    invitation = invitations.invite_by_email(
        actor_membership=membership_of(owner, group), email="a@example.com"
    )
    OutgoingEmail.objects.all().delete()
    Invitation.objects.filter(pk=invitation.pk).update(sent_at=None)
    assert tasks.send_invitation_email(invitation.pk) is True
    assert tasks.send_invitation_email(invitation.pk) is False
    assert OutgoingEmail.objects.count() == 1


def test_a_revoked_invitation_is_not_queued(owner, group, mailoutbox):
    invitation = invitations.invite_by_email(
        actor_membership=membership_of(owner, group), email="a@example.com"
    )
    OutgoingEmail.objects.all().delete()
    Invitation.objects.filter(pk=invitation.pk).update(sent_at=None, revoked_at=invitation.created_at)
    assert tasks.send_invitation_email(invitation.pk) is False
    assert not OutgoingEmail.objects.exists()
    assert mailoutbox == []


def test_the_beat_schedule_names_real_tasks():
    from django.conf import settings

    from handsite.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
