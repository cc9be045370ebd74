"""Analysis of a position or a played game, on top of :func:`crewcheck.api.decide`:
every legal card's verdict, the losing card of a game, the seats a task can go to."""
