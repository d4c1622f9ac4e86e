from django import forms
from django.forms.renderers import TemplatesSetting
from django.utils.translation import gettext_lazy as _

from handsite.models import PlayerGroup, Role, User


class SiteFormRenderer(TemplatesSetting):
    """FORM_RENDERER: ``{{ form }}`` renders templates/forms/form.html (every error listed at the top, then
    the fields). Pages that lay fields out by hand include templates/forms/errors.html."""

    form_template_name = "forms/form.html"


class SignupExtraForm(forms.Form):
    """Extra fields on allauth's sign-up form (ACCOUNT_SIGNUP_FORM_CLASS)."""

    display_name = forms.CharField(
        label=_("Display name"),
        max_length=60,
        required=False,
        help_text=_("The name other players see."),
    )

    def signup(self, request, user):
        user.display_name = self.cleaned_data.get("display_name", "").strip()
        user.save(update_fields=["display_name"])


class ProfileForm(forms.ModelForm):
    class Meta:
        model = User
        fields = ["display_name"]


class GroupForm(forms.ModelForm):
    class Meta:
        model = PlayerGroup
        fields = ["name", "description"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}


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
