"""Every form of the site shows every error: the form's own, each field's (hidden ones included), listed at
the top of the form (templates/forms/errors.html), whether the page renders ``{{ form }}`` or lays its
fields out by hand and includes the list."""

import pytest
from django import forms
from django.template import Context, Template
from django.urls import reverse

pytestmark = pytest.mark.django_db


class _Tampered(forms.Form):
    name = forms.CharField(label="Name", max_length=5)
    member_3 = forms.IntegerField(label="Player 4", widget=forms.HiddenInput)

    def clean(self):
        raise forms.ValidationError("The sheet needs two players.")


def _summary(html: str) -> str:
    start = html.index('class="form-errors"')
    return html[start : html.index("</div>", start)]


def test_form_renders_the_forms_own_error_and_every_fields_including_hidden_ones():
    form = _Tampered({"name": "far too long", "member_3": "x"})
    summary = _summary(Template("{{ form }}").render(Context({"form": form})))
    assert "The sheet needs two players." in summary
    assert '<a href="#id_name">Name</a>: Ensure this value has at most 5 characters' in summary
    assert "Player 4: Enter a whole number." in summary


def test_the_include_lists_the_same_errors_for_a_hand_made_layout():
    form = _Tampered({"name": "ok", "member_3": "x"})
    html = Template('{% include "forms/errors.html" with form=form %}').render(Context({"form": form}))
    summary = _summary(html)
    assert "The sheet needs two players." in summary
    assert "Player 4: Enter a whole number." in summary


def test_a_valid_or_unbound_form_shows_no_error_list():
    html = Template("{{ form }}").render(Context({"form": _Tampered()}))
    assert "form-errors" not in html


def test_the_profile_page_lists_a_too_long_name(client, member):
    client.force_login(member)
    response = client.post(reverse("profile"), {"display_name": "x" * 200})
    assert response.status_code == 200
    assert 'href="#id_display_name"' in _summary(response.content.decode())


def test_the_sign_up_page_lists_its_errors(client):
    response = client.post(reverse("account_signup"), {"email": "not an address", "password1": "a"})
    assert response.status_code == 200
    summary = _summary(response.content.decode())
    assert 'href="#id_email"' in summary


def test_the_reminder_settings_page_lists_a_tampered_time_zone(client, member):
    client.force_login(member)
    response = client.post(reverse("notification_settings"), {"do": "save", "time_zone": "Mars/Olympus"})
    assert response.status_code == 200
    assert 'href="#id_time_zone"' in _summary(response.content.decode())
