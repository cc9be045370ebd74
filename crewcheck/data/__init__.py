"""Package data: the logbook of The Quest for Planet Nine (copy of models/missions/logbook.json)."""
