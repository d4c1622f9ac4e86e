"""axe-core finds no violation (every rule it runs by default) on the site's pages a player uses: the play
page of both families (in play, right after a deal ended, the game over), home, group, new game, score
sheet, rules, a game's log and its replay; in English and Arabic, light and dark. Without axe-core
installed (node_modules/, `npm ci`) the tests skip with the reason (fail under CI=true). Screenshots of
the play pages go to test-artifacts/."""

import pytest
from django.urls import reverse

from games import engine
from games.models import GameStatus
from games.services import playing, seating
from scoring.services.deals import add_deal
from tests.browser.axe import require_axe, violations
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.scoring.conftest import hand, make_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _played(group, amira, variant, seed, until):
    """A game Amira against a bot, played by both (Amira with the bot's choices) until ``until(state)``."""
    game = seating.create_game(
        group=group, created_by=amira, variant=variant, options={}, seats=[amira, seating.BOT], seed=seed
    )
    for _ in range(3000):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if game.status == GameStatus.FINISHED or until(state):
            return game
        playing.play(game_id=game.pk, user=amira, version=game.version, action=engine.bot_action(state, 0))
    raise AssertionError(f"{variant} never reached the wanted position")


def _in_play(state):
    return state.current == 0 and state.deal.phase == engine.PLAY and bool(state.deal.melds)


def _deal_over(state):
    return state.deal.number >= 1  # the first deal just ended: its result is on the table


def _never(state):
    return False


@pytest.fixture
def site():
    """The pages to check, by name: a group with games of both families in three positions each, a
    score sheet with deals."""
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    badr = MembershipFactory(group=group, user__display_name="بدر").user
    pages = {
        "home": reverse("home"),
        "group": group.get_absolute_url(),
        "new game": reverse("games:new", args=[group.slug]),
        "rules": reverse("games:rules", args=["classic"]),
    }
    for variant, seed in (("classic", 31), ("hand-and-foot", 5)):
        for position, until in (("in play", _in_play), ("deal over", _deal_over), ("game over", _never)):
            game = _played(group, amira, variant, seed, until)
            pages[f"{variant} {position}"] = game.get_absolute_url()
        pages[f"{variant} log"] = reverse("games:log", args=[group.slug, game.pk])
        pages[f"{variant} replay"] = reverse("games:replay", args=[group.slug, game.pk]) + "?step=20"
    sheet = make_sheet(group, amira, "classic", [amira, badr, "Layla"], title="Thursday")
    for deal in range(3):
        held = [None if seat == deal else 10 + 7 * seat for seat in range(3)]
        add_deal(sheet, by=amira, facts=hand(deal, [True] * 3, held))
    pages["score sheet"] = sheet.get_absolute_url()
    return amira, pages


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_axe_finds_no_violation_on_the_pages_players_use(open_as, site, screenshot, width, language, dark):
    require_axe()
    amira, pages = site
    found = []
    page = None
    for name, url in pages.items():
        if page is None:
            page = open_as(amira, url, width, language=language, dark=dark)
        else:
            page.goto(url)
        page.wait_for_load_state("load")
        found += [f"{name}: {line}" for line in violations(page)]
        if name.endswith(("in play", "game over")):
            scheme = "dark" if dark else "light"
            screenshot(page, f"axe-{name.replace(' ', '-')}-{width}-{language}-{scheme}")
    assert not found, f"{len(found)} violations:\n" + "\n".join(found)
