import pytest

from handsite import services, tasks
from tests.support import membership_of

pytestmark = pytest.mark.django_db


def test_an_invitation_email_is_sent_only_once(owner, group, mailoutbox, django_capture_on_commit_callbacks):
    invitation = services.invite_by_email(actor_membership=membership_of(owner, group), email="a@example.com")
    assert tasks.send_invitation_email(invitation.pk) is True
    assert tasks.send_invitation_email(invitation.pk) is False
    assert len(mailoutbox) == 1


def test_a_revoked_invitation_is_not_sent(owner, group, mailoutbox):
    invitation = services.invite_by_email(actor_membership=membership_of(owner, group), email="a@example.com")
    invitation.revoked_at = invitation.created_at
    invitation.save()
    assert tasks.send_invitation_email(invitation.pk) is False
    assert mailoutbox == []


def test_the_beat_schedule_names_real_tasks():
    from django.conf import settings

    from handsite.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
