"""Reiber's paper (seed ``002``): the polynomial special cases and the Hamiltonian-path
reduction, each checked against the exhaustive oracle (:mod:`.theorems`)."""
