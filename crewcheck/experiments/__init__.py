"""Experiments on the agents: the bench (:mod:`.bench`), the Deep Sea bench
(:mod:`.deepsea_bench`) and the store their rows go to (:mod:`.results`), behind
``crewcheck bench``. The agents themselves live in :mod:`crewcheck.agents`."""
