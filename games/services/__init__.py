"""The only code that writes games, by concern. Each write locks the game row, checks what the player
acted on, calls the engine, and saves state, move log and version in ONE transaction.

- :mod:`.core`: refusals (``GameError`` and its kinds), reading a game, locking it;
- :mod:`.saving`: the write every change of play ends with (bots, log, state, turn hooks);
- :mod:`.playing`: a player's move (``play``, and ``move`` for the play page's buttons);
- :mod:`.seating`: creating a game, seats, invitations to a seat (``create_game``, ``accept_seat``, ...);
- :mod:`.invitation_links` and :mod:`.invitations`: the e-mail's signed links, and following them;
- :mod:`.leaving`: a seat handed to a bot, a player leaving, a game ended early;
- :mod:`.scans`: the minute's scans (expired invitations, deadlines, reminders) and vacations;
- :mod:`.talk`: table talk.

Scans and notifications import the move's modules, never the reverse; Celery tasks (games.tasks) call
the services, which queue them by name. This package imports none of its modules: import the one you use.
"""
