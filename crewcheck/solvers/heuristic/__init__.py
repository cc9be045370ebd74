"""Heuristic back-ends: sound when they say "winnable" (the witness is replayed), never
"unwinnable". :mod:`.planner` is the critical-card planner (docs/planner.md)."""
