"""The missions of the boxed games: the logbook of The Quest for Planet Nine and its dealing
(:mod:`.logbook`). The data files ship in ``data/`` (the one copy)."""
