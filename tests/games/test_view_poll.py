from django.urls import reverse

from games import engine
from games.services import playing
from games.views import poll_token
from tests.celery.conftest import own_redis  # noqa: F401 (fixture)


def poll(client, game, revision, user, token=None):
    url = reverse("games:poll", args=[game.group.slug, game.pk])
    query = {"r": revision, "u": user.pk, "t": token or poll_token(game.pk, user.pk)}
    return client.get(url, query, HTTP_HX_REQUEST="true")


def test_an_unchanged_game_answers_204_with_one_query(client, duel, member, django_assert_max_num_queries):
    client.force_login(member)
    duel.group  # noqa: B018 - load the group outside the count (the URL needs its slug)
    assert poll(client, duel, duel.revision, member).status_code == 200  # presence, every 30 s
    with django_assert_max_num_queries(1):
        response = poll(client, duel, duel.revision, member)
    assert response.status_code == 204
    assert response.content == b""


def test_a_changed_game_answers_with_the_board(client, duel, owner, member):
    state = engine.from_json(duel.state)
    people = {s.number: s.user for s in duel.seats.all()}
    mover = people[state.current]
    watcher = people[1 - state.current]
    discard = next(a for a in engine.legal_actions(state, state.current) if a["type"] == "discard")
    playing.play(game_id=duel.pk, user=mover, version=0, action=discard)
    client.force_login(watcher)
    response = poll(client, duel, duel.revision, watcher)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="game"' in html
    assert "Your turn." in html


def test_a_poll_without_the_pages_token_is_404(client, duel, outsider):
    client.force_login(outsider)
    assert poll(client, duel, duel.revision, outsider, token="forged").status_code == 404


def test_an_outsider_with_a_token_learns_nothing_of_a_changed_game(client, duel, outsider):
    client.force_login(outsider)
    assert poll(client, duel, duel.revision - 1, outsider).status_code == 404
    assert poll(client, duel, duel.revision, outsider).status_code == 404  # nor of an unchanged one


def test_a_removed_member_learns_nothing_even_with_their_old_pages_token(client, duel, admin):
    from handsite.models import Membership

    client.force_login(admin)
    poll(client, duel, duel.revision, admin)  # the first poll writes presence (200: the header count)
    assert poll(client, duel, duel.revision, admin).status_code == 204
    Membership.objects.filter(group=duel.group, user=admin).delete()
    assert poll(client, duel, duel.revision, admin).status_code == 404
    assert poll(client, duel, duel.revision - 1, admin).status_code == 404


def test_a_token_is_bound_to_its_person(client, duel, owner, member):
    client.force_login(member)
    stolen = poll_token(duel.pk, owner.pk)
    assert poll(client, duel, duel.revision, member, token=stolen).status_code == 404
    # A changed game is shown only to the person the token was made for.
    assert poll(client, duel, duel.revision - 1, owner).status_code == 404
    assert poll(client, duel, duel.revision - 1, member).status_code == 200


def test_the_page_polls_with_its_viewers_token(client, duel, member):
    client.force_login(member)
    html = client.get(reverse("games:play", args=[duel.group.slug, duel.pk])).content.decode()
    assert f"u={member.pk}&amp;t={poll_token(duel.pk, member.pk)}" in html


def test_an_unchanged_poll_on_redis_asks_about_presence_once_per_thirty_seconds(
    client, duel, member, settings
):
    """On Redis, the process remembers it asked (handsite.notification_prefs.presence_due): the polls in
    between make no Redis round trip, so an unchanged poll is its one query and nothing else. Shown by
    removing the presence key behind the process's back: the next poll does not ask, so it is a 204."""
    import uuid

    from django.core.cache import cache

    from tests.support import require_service

    url = require_service("redis")
    settings.CACHES = {
        **settings.CACHES,  # with REDIS_URL, the "auth" cache of sessions and users
        "default": {
            "BACKEND": "handsite.cache.FailOpenRedisCache",
            "LOCATION": url,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        },
    }
    client.force_login(member)
    assert poll(client, duel, duel.revision, member).status_code == 200  # presence written
    cache.delete(f"handsite:seen:{member.pk}")
    assert poll(client, duel, duel.revision, member).status_code == 204  # not asked again


def test_an_unchanged_poll_reads_no_session_from_redis_either(client, duel, member, settings, own_redis):  # noqa: F811
    """With Redis the session is read from Redis (handsite/sessions.py), where a query count cannot see
    it: the unchanged poll makes no Redis round trip at all once it has asked about presence."""
    import redis

    from tests.support import caches_on_redis

    caches_on_redis(settings, own_redis.url)
    client.force_login(member)
    duel.group  # noqa: B018 - load the group outside the count (the URL needs its slug)
    assert poll(client, duel, duel.revision, member).status_code == 200  # presence asked once
    server = redis.Redis.from_url(own_redis.url)
    before = server.info("commandstats")
    assert poll(client, duel, duel.revision, member).status_code == 204
    after = server.info("commandstats")
    asked = {name: stats["calls"] - before.get(name, {}).get("calls", 0) for name, stats in after.items()}
    assert {name: calls for name, calls in asked.items() if calls and name != "cmdstat_info"} == {}


def test_the_poll_token_is_the_signers_and_follows_the_secret_key(settings):
    from django.core import signing

    from games.views import POLL_SALT, poll_token

    def signed():
        return signing.Signer(salt=POLL_SALT).sign("12:34").rsplit(":", 1)[1]

    assert poll_token(12, 34) == signed()
    before = poll_token(12, 34)
    settings.SECRET_KEY = "another-secret-" + "y" * 50
    assert poll_token(12, 34) == signed() != before
    assert poll_token(12, 35) != poll_token(12, 34)
