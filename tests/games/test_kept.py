"""games.kept.keep: the bounded stores the play page's answers keep between answers."""

from collections import OrderedDict

from games.kept import keep


def test_a_kept_value_is_returned_and_stored_as_the_newest_entry():
    store = OrderedDict(a=1, b=2)
    assert keep(store, "c", 3, bound=5) == 3
    assert list(store.items()) == [("a", 1), ("b", 2), ("c", 3)]


def test_keeping_a_key_again_makes_it_the_newest_with_its_new_value():
    store = OrderedDict(a=1, b=2, c=3)
    keep(store, "a", 10, bound=5)
    assert list(store.items()) == [("b", 2), ("c", 3), ("a", 10)]


def test_past_the_bound_the_oldest_entries_are_forgotten_first():
    store = OrderedDict()
    for number in range(10):
        keep(store, number, str(number), bound=3)
    assert list(store) == [7, 8, 9]


def test_a_key_kept_again_survives_the_trim_that_forgets_an_older_one():
    store = OrderedDict()
    for key in ("a", "b", "c"):
        keep(store, key, key, bound=3)
    keep(store, "a", "a", bound=3)  # a is now the newest
    keep(store, "d", "d", bound=3)
    assert list(store) == ["c", "a", "d"]
