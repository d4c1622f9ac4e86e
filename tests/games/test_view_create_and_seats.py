from django.urls import reverse

from games import engine
from games.models import Game, GameStatus


def test_a_member_starts_a_game_with_options_from_the_rule_set(client, owner, member):
    client.force_login(owner)
    url = reverse("games:new", args=["thursday-hand"])
    page = client.get(url, {"variant": "kuwaiti"})
    assert 'name="opt_deals"' in page.content.decode()
    response = client.post(
        url,
        {
            "variant": "kuwaiti",
            "opt_deals": "9",
            "seat_0": str(owner.pk),
            "seat_1": str(member.pk),
            "seat_2": "bot",
            "move_hours": "24",
            "timeout_rule": "auto_move",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert response.url == game.get_absolute_url()
    unticked = {
        option.name: False for option in engine.HAND_VARIANTS["kuwaiti"].options if option.kind == "bool"
    }
    assert unticked  # the rule set has boxes to leave unticked
    assert game.options == engine.validate_options("kuwaiti", 3, {**unticked, "deals": 9})  # unticked: off
    assert game.status == GameStatus.WAITING
    assert [s.is_filled for s in game.seats.order_by("number")] == [True, False, True]


def test_starting_a_game_refuses_a_bad_choice_with_a_message(client, owner):
    client.force_login(owner)
    url = reverse("games:new", args=["thursday-hand"])
    response = client.post(
        url,
        {
            "variant": "classic",
            "partnership": "teams",
            "opt_max_wild_per_meld": "1",
            "seat_0": str(owner.pk),
            "seat_1": "bot",
            "move_hours": "0",
            "timeout_rule": "nothing",
        },
    )
    assert response.status_code == 200
    assert "A partnership needs four players: fill seats 1 to 4." in response.content.decode()
    assert not Game.objects.exists()


def test_an_outsider_cannot_start_a_game(client, outsider, group):
    client.force_login(outsider)
    assert client.get(reverse("games:new", args=[group.slug])).status_code == 404


def test_the_invited_member_accepts_and_the_game_deals(client, owner, member, start_game):
    game = start_game([owner, member])
    client.force_login(member)
    response = client.post(
        reverse("games:seat", args=[game.group.slug, game.pk]), {"do": "accept"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "Your hand" in response.content.decode()
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE


def test_the_group_page_and_home_list_the_game(client, owner, member, start_game):
    game = start_game([owner, member])
    client.force_login(member)
    home = client.get("/").content.decode()
    assert game.get_absolute_url() in home
    assert "invited" in home
    group_page = client.get(reverse("group_detail", args=[game.group.slug])).content.decode()
    assert game.get_absolute_url() in group_page
    assert "Start a game" in group_page


def test_home_lists_games_where_it_is_your_turn_first(client, owner, member, start_game):
    from games.services import seating

    waiting = start_game([owner, member])
    my_turn = start_game([owner, seating.BOT], seed=4)
    client.force_login(owner)
    home = client.get("/").content.decode()
    assert home.index(my_turn.get_absolute_url()) < home.index(waiting.get_absolute_url())
    assert "your turn" in home


def test_the_replay_steps_through_a_finished_game_only(client, owner, start_game):
    from games import engine
    from games.services import playing, seating

    game = start_game([owner, seating.BOT], seed=11)
    client.force_login(owner)
    url = reverse("games:replay", args=[game.group.slug, game.pk])
    assert client.get(url).status_code == 404
    while game.status == GameStatus.ACTIVE:
        state = engine.from_json(game.state)
        playing.play(game_id=game.pk, user=owner, version=game.version, action=engine.bot_action(state, 0))
        game.refresh_from_db()
    response = client.get(url, {"step": 5})
    assert response.status_code == 200
    assert "Move 5 of" in response.content.decode()
    page = client.get(game.get_absolute_url()).content.decode()
    assert "Final standings" in page


def test_the_kuwaiti_form_ticks_the_reshuffle_by_default_and_says_why(client, owner):
    client.force_login(owner)
    page = client.get(reverse("games:new", args=["thursday-hand"]), {"variant": "kuwaiti"}).content.decode()
    box = page[
        page.index('name="opt_reshuffle_discards"') - 200 : page.index('name="opt_reshuffle_discards"') + 200
    ]
    assert "checked" in box
    assert "On by default: without it, with 3 or 5 players nearly every deal would end void" in page


def test_a_kuwaiti_game_created_with_the_reshuffle_off_keeps_it_off_when_dealt(owner, member, start_game):
    """Options are frozen at creation: a game created while the default was off deals with it off."""
    from games.services import core as game_core
    from games.services import seating

    game = start_game([owner, member, "bot"], variant="kuwaiti", options={"reshuffle_discards": False})
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    assert game.options["reshuffle_discards"] is False
    assert game_core.load_state(game).options["reshuffle_discards"] is False
