from django import forms
from django.utils.translation import gettext_lazy as _

from handsite.webhooks.models import WebhookKind


class WebhookForm(forms.Form):
    kind = forms.ChoiceField(label=_("Chat service"), choices=WebhookKind.choices)
    url = forms.URLField(
        label=_("Webhook address"),
        max_length=1000,
        assume_scheme="https",
        help_text=_(
            "Discord: channel settings → Integrations → Webhooks → Copy URL. Slack: an incoming webhook. "
            "Telegram: api.telegram.org/bot‹token›/sendMessage and the chat's id below. "
            "It is a secret: once saved it is never shown again."
        ),
        widget=forms.TextInput(
            attrs={"dir": "ltr", "autocomplete": "off", "inputmode": "url", "spellcheck": "false"}
        ),
    )
    chat_id = forms.CharField(label=_("Telegram chat id"), max_length=64, required=False)
