"""The review queue: slips read unsure and decisions the judge flagged, cleared by one arbiter
each (`review`, compare-and-set), and the tables an arbiter holds while reading (`claims`)."""
