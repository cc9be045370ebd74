"""Infrastructure every layer may use: compiled kernels (:mod:`.kernels`), the user cache
folder (:mod:`.paths`), child processes that die with crewcheck (:mod:`.processes`) and the
SQLite results store (:mod:`.store`). Nothing here knows the game."""
