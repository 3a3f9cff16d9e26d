"""Words and moves: word lists as a word graph, and every legal move for a board and a group."""
