from allauth.account.adapter import DefaultAccountAdapter
from django.contrib import messages
from django.utils.translation import gettext as _

from handsite import services

PENDING_INVITATION_SESSION_KEY = "handsite_pending_invitation"
JOINED_GROUP_URL_SESSION_KEY = "handsite_joined_group_url"


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        """At sign-up, remember the invitation the person followed on the new user, not only in this
        browser's session: with mandatory e-mail verification they may open the confirmation link and
        log in from another browser, and must still land in the group."""
        user = super().save_user(request, user, form, commit=False)
        token = request.session.get(PENDING_INVITATION_SESSION_KEY)
        return services.save_new_user(user, invitation_token=token, commit=commit)

    def login(self, request, user):
        """After any log-in (including right after sign-up or e-mail confirmation, in any browser), join
        the group whose invitation the person followed while logged out."""
        token = request.session.pop(PENDING_INVITATION_SESSION_KEY, None)
        remembered = services.take_pending_invitation(user)  # cleared either way: it is used once
        token = token or remembered
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
        request.session[JOINED_GROUP_URL_SESSION_KEY] = membership.group.get_absolute_url()

    def get_login_redirect_url(self, request):
        """Straight into the group whose invitation brought the person here (an explicit ?next= still
        wins, as allauth checks it first)."""
        joined = request.session.pop(JOINED_GROUP_URL_SESSION_KEY, None)
        return joined or super().get_login_redirect_url(request)

    def get_signup_redirect_url(self, request):
        joined = request.session.pop(JOINED_GROUP_URL_SESSION_KEY, None)
        return joined or super().get_signup_redirect_url(request)
