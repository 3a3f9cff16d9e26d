"""From paper to filed slips (`round scan`): the scanner's readings (`readings`), the checks on a
pile (`scanchecks`), the same paper scanned twice (`paper`), filing each slip once (`ingest`),
reading it against the round's board and group (`decoding`) and the command's whole path
(`roundscan`); `learning` hands the arbiters' corrections back to the reader.

Nothing here judges: the slips wait for the review and the correction."""
