import secrets

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib import messages
from django.contrib.auth.hashers import make_password
from django.utils import translation
from django.utils.translation import gettext as _

from handsite.i18n import language_of, supported
from handsite.models import User
from handsite.services import accounts, email_outbox, invitations

PENDING_INVITATION_SESSION_KEY = "handsite_pending_invitation"
JOINED_GROUP_URL_SESSION_KEY = "handsite_joined_group_url"


class AccountAdapter(DefaultAccountAdapter):
    def save_user(self, request, user, form, commit=True):
        """At sign-up, remember the invitation the person followed on the new user, not only in this
        browser's session: with mandatory e-mail verification they may open the confirmation link and
        log in from another browser, and must still land in the group."""
        user = super().save_user(request, user, form, commit=False)
        token = request.session.get(PENDING_INVITATION_SESSION_KEY)
        return accounts.save_new_user(user, invitation_token=token, commit=commit)

    def login(self, request, user):
        """After any log-in (including right after sign-up or e-mail confirmation, in any browser), join
        the group whose invitation the person followed while logged out."""
        token = request.session.pop(PENDING_INVITATION_SESSION_KEY, None)
        remembered = accounts.take_pending_invitation(user)  # cleared either way: it is used once
        token = token or remembered
        super().login(request, user)
        if not token:
            return
        try:
            membership, created = invitations.accept_invitation(token=token, user=user)
        except invitations.InvitationError as error:
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

    def send_mail(self, template_prefix, email, context):
        """Every account e-mail (confirm the address, reset the password, "you already have an
        account", "no account here") goes to the outbox and a Celery worker, never to the mail server
        from the request: the page answers at once whatever the mail server does, and a failed send is
        retried and visible on its row. Written in the account's language (the one chosen on the
        sign-up form, or the profile's), else the language of the page the form was on."""
        with translation.override(self._language_for(email, context.get("user"))):
            message = self.render_mail(template_prefix, email, {"email": email, **self._context(context)})
        email_outbox.queue_email(message, purpose=template_prefix.rsplit("/", 1)[-1])

    def _context(self, context):
        from allauth.account.adapter import context as allauth_context
        from django.contrib.sites.shortcuts import get_current_site

        request = allauth_context.request
        return {"request": request, "current_site": get_current_site(request), **context}

    @staticmethod
    def _language_for(email, user):
        if user is None or not getattr(user, "language", ""):
            user = User.objects.filter(email__iexact=email).only("language").first() or user
        if user is not None and getattr(user, "language", ""):
            return language_of(user)
        return supported(translation.get_language()) or "en"

    def send_account_already_exists_mail(self, email):
        """Sign-up with an address that has an account: hash a password as a new account's sign-up
        does, so that the answer takes as long and does not tell whether the address is known."""
        make_password(secrets.token_urlsafe(16))
        return super().send_account_already_exists_mail(email)
