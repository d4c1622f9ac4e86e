"""The live rule-state sentences (engine.rule_state): what is wild this deal, what an opening needs now,
who has opened, and (kuwaiti) when each player may announce."""

from __future__ import annotations

from games.engine import apply, bot_action, new_game, view
from games.engine.actions import may_announce
from games.engine.rule_state import TEMPLATES, announce_from_turn, rule_state
from tests.rigging import Deck


def lines(state, seat):
    return rule_state(view(state, seat))


def kinds(state, seat) -> list[str]:
    by_template = {template: kind for kind, template in TEMPLATES.items()}
    return [by_template[template] for template, _params in lines(state, seat)]


def test_every_template_is_a_sentence_with_named_parameters():
    for template in TEMPLATES.values():
        assert template.strip()
        assert "{}" not in template


def test_jordanian_with_a_non_ace_indicator_says_the_two_aces_of_its_suit_are_wild():
    game = new_game("jordanian", 3, seed=11)
    game.deal.indicator = Deck("jordanian", 3).pick("7H")[0]
    template, params = lines(game, 0)[0]
    assert template == TEMPLATES["wild_aces"]
    assert params == {"card": "AH"}


def test_an_ace_indicator_makes_the_jokers_wild():
    game = new_game("egyptian", 2, seed=12)
    game.deal.indicator = Deck("egyptian").pick("AS")[0]
    assert lines(game, 1)[0] == (TEMPLATES["wild_jokers_indicator"], {"indicator": "AS"})


def test_classic_says_the_requirement_and_who_has_opened():
    game = new_game("classic", 4, {"teams": True}, seed=13)
    assert kinds(game, 0) == ["opening_fixed", "nobody_opened"]
    assert lines(game, 0)[0][1] == {"minimum": 51}
    game.deal.opened[2] = True
    game.deal.opened[3] = True
    assert lines(game, None)[1] == (TEMPLATES["opened"], {"seats": [2, 3]})


def test_saudi_shows_the_rising_requirement_and_whose_opening_raised_it():
    game = new_game("saudi", 3, seed=14)
    assert lines(game, 0)[0] == (TEMPLATES["opening_first"], {"minimum": 51})
    game.deal.opened[1] = True
    game.deal.opening_totals[1] = 55
    game.deal.opened[2] = True
    game.deal.opening_totals[2] = 63
    game.deal.last_opening = 63
    assert lines(game, 0)[0] == (TEMPLATES["opening_raised"], {"minimum": 64, "total": 63, "seat": 2})
    assert lines(game, 0)[1] == (TEMPLATES["opened"], {"seats": [1, 2]})


def test_a_finished_game_has_no_rule_state():
    game = new_game("classic", 2, seed=15)
    game.records = []
    assert rule_state({**view(game, 0), "finished": True}) == []


def test_kuwaiti_counts_down_to_the_announcement_for_the_viewer():
    game = new_game("kuwaiti", 3, seed=16)
    first, dealer = game.deal.first, game.deal.dealer
    other = 3 - first - dealer
    game.deal.turns = [5, 5, 5]
    game.deal.turns[first] = 6  # the first player's 6th turn: the others have started 5 each
    game.deal.current = first
    template, params = lines(game, first)[0]
    assert template == TEMPLATES["announce_you_wait"]
    assert params == {"from_turn": 9, "turn": 6, "left": 3}
    template, params = lines(game, dealer)[0]
    assert template == TEMPLATES["announce_you_next"]
    assert params == {"from_turn": 8, "turn": 6, "left": 2}
    announce_all = lines(game, None)[-1]
    assert announce_all[0] == TEMPLATES["announce_all"]
    assert announce_all[1]["minimum"] == 51
    items = announce_all[1]["items"]
    assert items[dealer] == (TEMPLATES["announce_item_wait"], {"seat": dealer, "turn": 5, "from_turn": 8})
    assert items[first] == (TEMPLATES["announce_item_wait"], {"seat": first, "turn": 6, "from_turn": 9})
    game.deal.opened[other] = True
    assert lines(game, None)[-1][1]["items"][other] == (TEMPLATES["announce_item_done"], {"seat": other})
    assert lines(game, other)[0] == (TEMPLATES["announce_you_done"], {})


def test_kuwaiti_from_turn_is_the_first_turn_in_which_announcing_is_allowed():
    """Bots play kuwaiti deals: in every turn, "you may announce now" is said exactly when the engine
    allows it, and the first such turn of every seat is the turn the line announced."""
    checked = 0
    for seed in range(6):
        game = new_game("kuwaiti", 3 + seed % 3, seed=seed)
        deal_number, dealer = game.deal.number, game.deal.dealer
        first_allowed: dict[int, int] = {}
        for _step in range(400):
            if game.finished or game.deal.number != deal_number:
                break
            seat = game.deal.current
            if game.phase == "play":
                text = kinds(game, seat)[0]
                if not game.deal.opened[seat]:
                    allowed = may_announce(game)
                    assert (text == "announce_you_now") == allowed
                    if allowed:
                        first_allowed.setdefault(seat, game.deal.turns[seat])
                        checked += 1
            action = bot_action(game, seat)
            if action is None:
                break
            apply(game, seat, action)
        for seat, turn in first_allowed.items():
            assert turn == announce_from_turn({"variant": "kuwaiti", "deal": {"dealer": dealer}}, seat)
    assert checked  # some deal reached the announcement
