"""Partnership as a real choice in game creation: "each for themselves" or "Partnership Hand" (4 players,
two teams, partners opposite), partners as seated or drawn by the site; the waiting page shows the teams."""

import re

import pytest
from django import forms
from django.urls import reverse

from games import engine
from games.forms import GameForm, PartnershipFields, partnership_mode
from games.models import Game

NEW = reverse("games:new", args=["thursday-hand"])


def post(client, **fields):
    data = {
        "variant": "classic",
        "opt_max_wild_per_meld": "1",
        "move_hours": "0",
        "timeout_rule": "nothing",
        **fields,
    }
    return client.post(NEW, data)


def players_of(game) -> list:
    return [seat.user or "bot" for seat in game.seats.order_by("number")]


def test_the_partnership_is_a_choice_of_how_you_play_not_an_option_box(client, owner):
    client.force_login(owner)
    html = client.get(NEW, {"variant": "classic"}).content.decode()
    assert "Each for themselves" in html
    assert "Partnership Hand: 4 players, two teams" in html
    assert "Let the site draw the partners" in html
    assert 'name="opt_teams"' not in html
    assert 'name="partnership" value="solo"' in html
    assert re.search(r'name="partnership" value="solo"[^>]*checked', html)


def test_kuwaiti_is_never_played_in_partnership(client, owner):
    client.force_login(owner)
    html = client.get(NEW, {"variant": "kuwaiti"}).content.decode()
    assert 'name="partnership"' not in html
    assert 'name="partners"' not in html


def test_the_creator_picks_the_partners_who_sit_opposite(client, owner, admin, member):
    client.force_login(owner)
    response = post(
        client,
        partnership="teams",
        partners="chosen",
        seat_0=str(owner.pk),
        seat_1=str(admin.pk),
        seat_2=str(member.pk),
        seat_3="bot",
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.options["teams"] is True
    assert game.random_order is False
    assert players_of(game) == [owner, admin, member, "bot"]  # owner+member against admin+bot
    assert engine.sides(4, game.options["teams"]) == ((0, 2), (1, 3))


def test_the_site_can_draw_the_partners(client, owner, admin, member):
    client.force_login(owner)
    post(
        client,
        partnership="teams",
        partners="drawn",
        seat_0=str(owner.pk),
        seat_1=str(admin.pk),
        seat_2=str(member.pk),
        seat_3="bot",
        random_order="",  # the solo-only box plays no part in a partnership
    )
    game = Game.objects.get()
    assert game.options["teams"] is True
    assert game.random_order is True  # drawn once at creation: the waiting page shows the teams
    assert sorted(map(str, players_of(game))) == sorted(map(str, [owner, admin, member, "bot"]))


def test_a_partnership_needs_all_four_seats_and_changes_nothing_otherwise(client, owner, member):
    client.force_login(owner)
    response = post(client, partnership="teams", seat_0=str(owner.pk), seat_1="bot", seat_3=str(member.pk))
    assert response.status_code == 200
    assert "A partnership needs four players: fill seats 1 to 4." in response.content.decode()
    assert not Game.objects.exists()
    # the choice is kept on the page shown again
    assert re.search(r'name="partnership" value="teams"[^>]*checked', response.content.decode())


def test_a_fifth_seat_plays_no_part_in_a_partnership(client, owner, member):
    client.force_login(owner)
    post(
        client,
        partnership="teams",
        seat_0=str(owner.pk),
        seat_1="bot",
        seat_2=str(member.pk),
        seat_3="bot",
        seat_4="bot",
    )
    game = Game.objects.get()
    assert game.players == 4
    assert game.options["teams"] is True


def test_four_players_each_for_themselves_is_no_partnership(client, owner, member):
    client.force_login(owner)
    post(client, partnership="solo", seat_0=str(owner.pk), seat_1="bot", seat_2=str(member.pk), seat_3="bot")
    game = Game.objects.get()
    assert game.options["teams"] is False
    assert game.players == 4


def test_the_waiting_page_shows_the_teams(client, owner, admin, member):
    client.force_login(owner)
    post(
        client,
        variant="jordanian",
        partnership="teams",
        seat_0=str(owner.pk),
        seat_1=str(admin.pk),
        seat_2=str(member.pk),
        seat_3="bot",
    )
    game = Game.objects.get()
    html = client.get(game.get_absolute_url()).content.decode()
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html))
    assert "Team 1: Olivia Owner and Mona Member" in text
    assert "Team 2: Adam Admin and Bot 4" in text
    assert "Partners sit opposite each other." in text


def test_a_game_each_for_themselves_shows_no_teams(client, owner, member):
    client.force_login(owner)
    post(client, seat_0=str(owner.pk), seat_1=str(member.pk), seat_2="bot", seat_3="bot")
    game = Game.objects.get()
    assert 'id="teams"' not in client.get(game.get_absolute_url()).content.decode()


def test_partnership_mode_follows_the_rule_set():
    assert partnership_mode(engine.VARIANTS["classic"]) == "choice"
    assert partnership_mode(engine.VARIANTS["kuwaiti"]) == "never"
    assert partnership_mode(engine.VARIANTS["hand-and-foot"]) == "never"
    assert partnership_mode(engine.VARIANTS["hand-and-foot-teams"]) == "always"


class TeamSeatsForm(PartnershipFields, forms.Form):
    """A form seating players as Hand and Foot's team rules will (the piece GameForm reuses)."""

    seat_0 = forms.CharField(required=False)
    seat_1 = forms.CharField(required=False)
    seat_2 = forms.CharField(required=False)
    seat_3 = forms.CharField(required=False)

    def __init__(self, *args, variant, **kwargs):
        super().__init__(*args, **kwargs)
        self.add_partnership_fields(variant)

    def clean(self):
        cleaned = super().clean()
        cleaned["partnership"] = self.partnership_seats(cleaned, str)
        return cleaned


@pytest.mark.parametrize(("partners", "drawn"), [("chosen", False), ("drawn", True)])
def test_a_team_rule_set_always_seats_partners_opposite(partners, drawn):
    data = {"seat_0": "a", "seat_1": "b", "seat_2": "c", "seat_3": "d", "partners": partners}
    form = TeamSeatsForm(data, variant=engine.VARIANTS["hand-and-foot-teams"])
    assert "partnership" not in form.fields  # no "each for themselves" for a team rule set
    assert form.is_valid(), form.errors
    assert form.cleaned_data["partnership"] == (["a", "b", "c", "d"], drawn)
    short = TeamSeatsForm({"seat_0": "a", "seat_1": "b"}, variant=engine.VARIANTS["hand-and-foot-teams"])
    assert not short.is_valid()


def test_game_form_is_built_from_the_partnership_piece():
    assert issubclass(GameForm, PartnershipFields)


def test_a_forged_partnership_value_is_refused_with_a_message(client, owner, member):
    client.force_login(owner)
    response = post(client, partnership="trio", seat_0=str(owner.pk), seat_1=str(member.pk))
    assert response.status_code == 200
    assert "Select a valid choice. trio is not one of the available choices." in response.content.decode()
    assert not Game.objects.exists()


def test_the_partners_choice_plays_no_part_when_each_plays_for_themselves(client, owner, member):
    client.force_login(owner)
    response = post(
        client, partnership="solo", partners="forged", seat_0=str(owner.pk), seat_1=str(member.pk)
    )
    assert response.status_code == 302
    assert Game.objects.get().options["teams"] is False
