"""The end of the game and every file handed out: sanctions, appeals and the provisional and
final results (`results`), and what is written from the store — the arbitration sheet, CSV and
results page (`exports`, `resultspage`, `sheetdata`, `sheetkit`), the review sheet (`reviewlog`),
the clubs' slip album (`slipbook`) and the slip sets printed pre-filled from the seating
(`prefill`). Nothing here recomputes a score: the judge's stored decisions are what is printed."""
