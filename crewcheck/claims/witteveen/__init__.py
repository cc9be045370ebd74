"""Witteveen's thesis (seed ``000``): the 2-player 1-task game of §3 and the agents of §5.

``theorems``           one function per claim (Thm 3.12 to 3.23), what the ledger runs
``burnside``           counting games up to suit permutation (Thm 3.12, Lemma 3.13)
``characterisation``   the losing classes S1-S4 and their counts (Thm 3.15-3.21)
``bijection``          the complement-and-swap map between S2 and S4 (Thm 3.23)
``reference_search``   an independent exact search for the game; ``kernel``: its compiled twin
``jobs``               chunk functions of the characterisation checks (Dask, results store)
``exhaustive``         every game of Cor 3.21 decided by exact search; ``exhaustive_kernel``: its kernel
``project``            the same games handed to the project's back-ends
``agents``             §5: MCTS-UCT in both phases against the printed 90 % (records of its games)
"""
