"""A bounded store kept per process (the oldest entry forgotten first): games.movelog keeps the rows since a
viewer's last move with it. The store's own module says what its key holds and why a kept value stays
right."""

from __future__ import annotations

from collections import OrderedDict


def keep(store: OrderedDict, key, value, bound: int):
    """``value`` under ``key`` in ``store`` as its newest entry; past ``bound`` entries the oldest are
    forgotten. Returns ``value``. Threads may share a store: one that trims it while another does
    only makes it forget one entry more."""
    store[key] = value
    store.move_to_end(key)
    while len(store) > bound:
        try:
            store.popitem(last=False)
        except KeyError:  # another thread emptied it meanwhile
            break
    return value
