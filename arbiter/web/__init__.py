"""`fluturas serve`: the arbiters' web application on the tournament store (issue 14).

Server-rendered pages (Flask + Jinja2) with a little JavaScript for the keys and the hall timer;
every change goes through the same library functions as the CLI (`arbiter.review.resolve`,
`arbiter.review.claims`, `arbiter.results.add_appeal`, `arbiter.round.correction`)."""
