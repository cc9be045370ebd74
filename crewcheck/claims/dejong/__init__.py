"""de Jong's thesis (seed ``001``): the winnability curves of Figure 3 (:mod:`.figure3`), the
determinization claims (:mod:`.determinization`) and the Monte Carlo players of §5.3 (:mod:`.players`)."""
