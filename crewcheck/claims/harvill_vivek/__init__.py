"""Harvill & Vivek, *Designing a Reliable Crew Member* (seed ``004``): Table 1 (:mod:`.table1`)."""
