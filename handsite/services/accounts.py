"""People's accounts: sign-up (allauth's ``save_user``), the invitation remembered across log-in, the
profile and the person's language."""

from __future__ import annotations

import contextlib

from handsite.services.invitations import InvitationError, check_invitation


def save_new_user(user, *, invitation_token: str | None = None, commit: bool = True):
    """A person signing up (allauth's ``save_user``). The invitation they followed while logged out is
    remembered on the account, not only in this browser's session: with e-mail verification they may
    confirm and log in from another browser and must still land in the group. An unusable token is not
    remembered (logging in tells the person why)."""
    if invitation_token:
        with contextlib.suppress(InvitationError):
            user.pending_invitation = check_invitation(invitation_token)
    if commit:
        user.save()
    return user


def take_pending_invitation(user) -> str | None:
    """At log-in: the token of the invitation remembered at sign-up (see :func:`save_new_user`), cleared
    from the account so it is used once; None without one."""
    if not user.pending_invitation_id:
        return None
    token = user.pending_invitation.token
    user.pending_invitation = None
    user.save(update_fields=["pending_invitation"])
    return token


def set_signup_details(user, *, display_name: str, language: str):
    """The sign-up form's own fields (the name others see, the language of pages and e-mails)."""
    user.display_name = display_name.strip()
    user.language = language
    user.save(update_fields=["display_name", "language"])
    return user


def update_profile(user, *, display_name: str, language: str):
    """The profile page: the name others see and the person's language."""
    user.display_name = display_name
    user.language = language
    user.save(update_fields=["display_name", "language"])
    return user


def set_language(user, code: str) -> None:
    """Remember ``code`` (already one of the site's) as the person's language, if it changed."""
    if code and user.language != code:
        user.language = code
        user._meta.model.objects.filter(pk=user.pk).update(language=code)
