import unicodedata

from django import forms
from django.core.exceptions import ValidationError
from django.forms.renderers import TemplatesSetting
from django.utils import translation
from django.utils.translation import gettext_lazy as _

from handsite.i18n import LANGUAGE_CHOICES, language_of, proposed_language, supported
from handsite.models import PlayerGroup, Role, User
from handsite.services import accounts, preferences
from handsite.zones import ZoneField


class SiteFormRenderer(TemplatesSetting):
    """FORM_RENDERER: ``{{ form }}`` renders templates/forms/form.html (every error listed at the top, then
    the fields). Pages that lay fields out by hand include templates/forms/errors.html."""

    form_template_name = "forms/form.html"


DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Embeddings, overrides and isolates: in a name they turn the text around it (the marks LRM and RLM stay
allowed)."""


def refuse_control_characters(value: str) -> None:
    """A name people see (display name, group name) holds no control character: NUL, tabs, line
    breaks, escapes and direction overrides break the pages, e-mails and pictures that show it."""
    if any(unicodedata.category(c) in ("Cc", "Cs") or c in DIRECTION_CONTROLS for c in value or ""):
        raise ValidationError(
            _("Names cannot contain control characters (such as tabs, line breaks or direction overrides)."),
            code="control_characters",
        )


class SignupExtraForm(forms.Form):
    """Extra fields on allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=60,
        required=False,
        help_text=_("The name other players see."),
        validators=[refuse_control_characters],
    )
    language = forms.ChoiceField(
        label=_("Language"),
        choices=LANGUAGE_CHOICES,
        required=False,
        help_text=_("Pages and e-mails for you are in this language."),
    )
    # Proposed from the browser (site.js fills it from the Intl API); times in pages and e-mails.
    time_zone = ZoneField(required=False, propose=True)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Proposed: the language the page is shown in (the browser's, or the one picked in the footer).
        self.fields["language"].initial = supported(translation.get_language()) or "en"

    def signup(self, request, user):
        accounts.set_signup_details(
            user,
            display_name=self.cleaned_data.get("display_name", ""),
            language=supported(self.cleaned_data.get("language")) or proposed_language(request),
        )
        if self.cleaned_data.get("time_zone"):
            preferences.adopt_time_zone(user, self.cleaned_data["time_zone"])


class ProfileForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("Language"),
        choices=LANGUAGE_CHOICES,
        required=False,
        help_text=_("Pages and e-mails for you are in this language."),
    )

    class Meta:
        model = User
        fields = ["display_name", "language"]

    def clean_display_name(self):
        refuse_control_characters(self.cleaned_data["display_name"])
        return self.cleaned_data["display_name"]

    def clean_language(self):
        """Left out of the POST: the person's language stays as it is."""
        return self.cleaned_data["language"] or language_of(self.instance)


class GroupForm(forms.ModelForm):
    class Meta:
        model = PlayerGroup
        fields = ["name", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def clean_name(self):
        refuse_control_characters(self.cleaned_data["name"])
        return self.cleaned_data["name"]


class NewGroupForm(GroupForm):
    """A new group, with its invite link made at once unless the organiser turns that off."""

    invite_link = forms.BooleanField(
        label=_("Make an invite link now"),
        help_text=_("Anyone with the link can join. You can switch it off or make a new one later."),
        required=False,
        initial=True,
    )


class InviteLinkForm(forms.Form):
    EXPIRY_CHOICES = [
        ("", _("Never expires")),
        ("1", _("Expires in 1 day")),
        ("7", _("Expires in 7 days")),
        ("30", _("Expires in 30 days")),
    ]
    action = forms.ChoiceField(choices=[("regenerate", _("New link")), ("revoke", _("Switch off"))])
    expires_in_days = forms.TypedChoiceField(
        label=_("Expiry"), choices=EXPIRY_CHOICES, coerce=int, empty_value=None, required=False
    )


class InviteEmailForm(forms.Form):
    email = forms.EmailField(label=_("E-mail address"))


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices)
