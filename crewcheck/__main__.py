"""``python -m crewcheck``: the same as the ``crewcheck`` command."""

from crewcheck.cli import main

raise SystemExit(main())
