"""A round from its group to its announcement: the game master's draw (`draw`), the group
(`rack`), the tops (`tops`), the judge's correction of the slips (`judging`, `correction`), whether
a judgement still matches its slips (`consistency`), the announcement at the close (`announce`)
and where a game stands (`status`)."""
