"""The critical-card planner blog post (seed ``003``): how often each stage succeeds (:mod:`.planner`)."""
