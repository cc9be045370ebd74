"""de Jong's thesis (seed ``001``): the winnability curves of Figure 3 (:mod:`.figure3`)."""
