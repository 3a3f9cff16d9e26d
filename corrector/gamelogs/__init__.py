"""Game records: GCG files and FRS game logs, read and replayed against the scorer."""
