"""`fluturas demo`: a simulated game played through the arbiter's own workflow — what the players
write (`simulation`), their slips drawn as scanned pages (`slipimages`), how well the scanner read
them (`readcheck`) and the run itself (`demo`). It stands on every other
folder of the workflow, and none of them imports it."""
