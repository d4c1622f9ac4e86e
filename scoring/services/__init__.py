"""The only code that writes score sheets, ratings and statistics, one module per concern:

- :mod:`.deal_facts`: a deal's raw facts read, checked and scored by the engine (no database);
- :mod:`.state`: a sheet as it stands, derived from its deals;
- :mod:`.access`: who may change a sheet;
- :mod:`.sheets` and :mod:`.deals`: the writes of sheets and of their deals (with undo);
- :mod:`.ratings`: rated games and the group's ratings; :mod:`.online`: online games' results;
- :mod:`.standings`: the group's history read back; :mod:`.table`: the picker's count and the opening
  check; :mod:`.cards`: the shareable result card.

The group's ratings are replayed by a Celery task queued by name (scoring/tasks.py calls these
modules; they never import it).
"""
