"""Running a duplicate game: the stock and the draw, variants, the tops and the continuation, the announcements (RULES.md §5–6)."""
