"""Starting a sheet: rule set, options, players (members or guests) in seat order, first dealer."""

from __future__ import annotations

from django.urls import reverse

from scoring.models import Sheet


def test_a_member_starts_a_partnership_sheet_with_guests(client, group, owner, member):
    client.force_login(member)
    url = reverse("scoring:sheet_create", args=[group.slug, "jordanian"])
    assert "Partnership" in client.get(url).content.decode()
    response = client.post(
        url,
        {
            "member_0": member.pk,
            "guest_1": "Gina",
            "member_2": owner.pk,
            "guest_3": "Hadi",
            "first_dealer": "1",
            "option_teams": "on",
            "option_no_out_first_turn": "on",
            "option_redeal": "on",
            "title": "Eid",
        },
    )
    sheet = Sheet.objects.get()
    assert response["Location"] == sheet.get_absolute_url()
    assert sheet.options["teams"] is True
    assert sheet.first_dealer == 1
    assert [p.display_name for p in sheet.players.all()] == ["Mona Member", "Gina", "Olivia Owner", "Hadi"]
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Mona Member &amp; Olivia Owner" in page
    assert "Deal 1 is dealt by <strong>Gina</strong>" in page


def test_a_player_count_the_rules_do_not_allow_is_refused(client, group, member):
    client.force_login(member)
    url = reverse("scoring:sheet_create", args=[group.slug, "classic"])
    response = client.post(url, {"member_0": member.pk})
    assert "played by 2 to 5 players, not 1" in response.content.decode()
    response = client.post(url, {"member_0": member.pk, "guest_1": "A", "guest_2": "B", "option_teams": "on"})
    assert "Partnership play needs exactly 4 players." in response.content.decode()
    assert not Sheet.objects.exists()


def test_an_unknown_rule_set_is_404(client, group, member):
    client.force_login(member)
    assert client.get(reverse("scoring:sheet_create", args=[group.slug, "poker"])).status_code == 404
