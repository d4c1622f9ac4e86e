from allauth.account.adapter import DefaultAccountAdapter
from django.contrib import messages
from django.utils.translation import gettext as _

from handsite import services

PENDING_INVITATION_SESSION_KEY = "handsite_pending_invitation"


class AccountAdapter(DefaultAccountAdapter):
    def login(self, request, user):
        """After any log-in (including right after sign-up or e-mail confirmation), join the group whose
        invitation the person followed while logged out."""
        token = request.session.pop(PENDING_INVITATION_SESSION_KEY, None)
        super().login(request, user)
        if not token:
            return
        try:
            membership, created = services.accept_invitation(token=token, user=user)
        except services.InvitationError as error:
            messages.error(request, error.message)
            return
        if created:
            messages.success(request, _("Welcome to %(group)s!") % {"group": membership.group.name})
