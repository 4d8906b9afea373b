"""Shares written in words and as percentages: ``half of``, ``two-thirds``, ``one in five``,
``9 out of 10`` and ``50%``, ``67%``, ``20%``, ``90%`` are the same claims.

Round 1 was written before the code, from the paraphrases a model writes: at 45bc982, 10 of its
12 correct paraphrases were flagged (``half`` was the number 0.5, not 50%; ``9 out of 10`` two
figures; ``two-thirds`` only the exact 66.67%, not ``67%``). Round 2 was written after the code,
held out (16 sentences of surveys, health, policy and finance): at 45bc982, 7 of its 16 correct
paraphrases were flagged; now 1 (``two-thirds`` for 66%, kept below as a finding; the other 15
are in the table). No changed answer of either round passes, before or after.

The rule: a share in words is as precise as a whole percentage, so it grounds a context
percentage within half a point (``a third`` is ``33%`` and ``33.4%``, ``half`` is ``50.4%``,
not ``49%``), or a share the context states as a count out of a whole. A derived figure is
matched at the precision it is written at (a share in words only by an exact derivation: ``a
third`` for 4 of 12 board members), so chance ratios of a table's figures do not explain it.
"""

from __future__ import annotations

import pytest

from hybridjudge.grounding import check_grounding, parse_quantities

CASES: list[tuple[str, str, str, list[str]]] = [
    # (context, correct paraphrase, the paraphrase with its share changed, its findings)
    # round 1: written before the code (at 45bc982 the first and the last passed)
    ("Nine out of 10 patients improved.", "90% of patients improved.", "80% of patients improved.", ["80%"]),
    ("90% of patients improved.", "Nine out of ten patients improved.", "Eight out of ten patients improved.", ["Eight", "ten"]),
    ("90% of patients improved.", "9 out of 10 patients improved.", "8 out of 10 patients improved.", ["8", "10"]),
    ("50% of respondents agreed.", "Half of the respondents agreed.", "A third of the respondents agreed.", ["A third"]),
    ("Half of the respondents agreed.", "50% of respondents agreed.", "40% of respondents agreed.", ["40%"]),
    ("20% of adults are affected.", "One in five adults is affected.", "One in four adults is affected.", ["four"]),
    ("One in five adults is affected.", "20% of adults are affected.", "25% of adults are affected.", ["25%"]),
    ("33% of users churned.", "One in three users churned.", "One in two users churned.", ["two"]),
    ("One in three users churned.", "33% of users churned.", "30% of users churned.", ["30%"]),
    ("67% of staff work remotely.", "Two thirds of staff work remotely.", "Three quarters of the staff work remotely.", ["Three quarters"]),
    ("The rate is 0.1% of births.", "1 in 1,000 births is affected.", "1 in 100 births is affected.", ["1", "100"]),
    ("25% of sales came from Europe.", "A quarter of sales came from Europe.", "A fifth of sales came from Europe.", ["A fifth"]),
    # round 2: written after the code, held out
    ("About 1 in 3 adults has high blood pressure.", "Roughly 33% of adults have high blood pressure.", "Roughly 25% of adults have high blood pressure.", ["25%"]),
    ("In the survey, 75% of employees said they prefer hybrid work.", "Three quarters of the employees prefer hybrid work.", "Two thirds of the employees prefer hybrid work.", ["Two thirds"]),
    ("Nearly 50% of the budget goes to salaries.", "Half of the budget goes to salaries.", "A third of the budget goes to salaries.", ["A third"]),
    ("Two out of five customers renewed their plan.", "40% of customers renewed.", "45% of customers renewed.", ["45%"]),
    ("The vaccine was 95% effective; 19 out of 20 vaccinated people were protected.", "Nineteen in twenty vaccinated people were protected.", "Nine in ten vaccinated people were protected.", ["Nine", "ten"]),
    ("One in eight women will develop breast cancer.", "About 12.5% of women will develop breast cancer.", "About 15% of women will develop breast cancer.", ["15%"]),
    ("Roughly 20% of the land is farmed.", "A fifth of the land is farmed.", "A quarter of the land is farmed.", ["A quarter"]),
    ("Sales in Europe were 33.4% of the total.", "Europe made up a third of the total sales.", "Europe made up half of the total sales.", ["half"]),
    ("Of the 12 board members, 4 are independent.", "A third of the board is independent.", "Half of the board is independent.", ["Half"]),
    ("Only 1 in 10 applicants is accepted.", "Only 10% of applicants get in.", "Only 20% of applicants get in.", ["20%"]),
    ("60% of respondents rated the service as good.", "Three in five respondents rated the service as good.", "Four in five respondents rated the service as good.", ["Four", "five"]),
    ("The company cut its workforce by 50%.", "The company cut half of its workforce.", "The company cut a quarter of its workforce.", ["a quarter"]),
    ("Half of all new cars sold were electric.", "50% of new cars sold were electric.", "40% of new cars sold were electric.", ["40%"]),
    ("Three out of four users open the app daily.", "75% of users open the app every day.", "80% of users open the app every day.", ["80%"]),
    ("The model answered 8 out of 10 questions correctly.", "It got 80% of the questions right.", "It got 90% of the questions right.", ["90%"]),
    # quarters with a space: a share a percentage may state (the scan reads "two quarters of
    # growth" as two periods; the context's share is one more reading, never the answer's)
    ("One quarter of sales came from Europe.", "25% of sales came from Europe.", "20% of sales came from Europe.", ["20%"]),
    ("Three quarters of users agreed.", "75% of users agreed.", "70% of users agreed.", ["70%"]),
    # the lexicons' shares.pairs: a count and its whole in each language's words, both ways
    ("Die Ansprechrate lag bei 90 %.", "9 von 10 Patienten sprachen an.", "8 von 10 Patienten sprachen an.", ["8", "10"]),
    ("9 von 10 Patienten sprachen an.", "Die Ansprechrate lag bei 90 %.", "Die Ansprechrate lag bei 80 %.", ["80 %"]),
    ("Taux de renouvellement : 75 %.", "3 sur 4 clients renouvellent.", "2 sur 4 clients renouvellent.", ["2", "4"]),
    ("El 90 % de los pacientes mejoró.", "9 de cada 10 pacientes mejoraron.", "7 de cada 10 pacientes mejoraron.", ["7", "10"]),
    ("Il 75 % dei clienti rinnova.", "3 su 4 clienti rinnovano.", "2 su 4 clienti rinnovano.", ["2", "4"]),
    ("90% dos pacientes melhoraram.", "9 em cada 10 pacientes melhoraram.", "8 em cada 10 pacientes melhoraram.", ["8", "10"]),
    ("90% van de patiënten herstelde.", "9 op de 10 patiënten herstelden.", "8 op de 10 patiënten herstelden.", ["8", "10"]),
]  # fmt: skip


@pytest.mark.parametrize(("context", "correct", "changed", "findings"), CASES)
def test_a_share_is_the_same_claim_in_words_and_as_a_percentage(
    context: str, correct: str, changed: str, findings: list[str]
) -> None:
    report = check_grounding(correct, context)
    assert report.grounded, report.findings
    assert [f.subject for f in check_grounding(changed, context).findings] == findings


@pytest.mark.parametrize(
    ("context", "answer"),
    [
        # a fraction word is as precise as a whole percentage: 66% is not two-thirds (67%)
        ("The drug reduced symptoms in 66% of patients.", "Symptoms fell in two-thirds of them."),
        ("Half of the respondents agreed.", "49% of respondents agreed."),
        # an approximation word does not widen it ("about half" for 48%)
        ("48% of respondents agreed.", "About half of the respondents agreed."),
        # a rate and a percentage are not converted (0.25 is no 25%)
        ("The rate was 25%.", "The rate was 0.25."),
        # counts out of a whole that are no shares: a year ("2 in 2019" would be 0.1%), a rate
        # per time ("3 in 10 minutes" would be 30%)
        ("Sales rose by 2 in 2019.", "Sales rose by 0.1%."),
        ("It happens 3 in 10 minutes.", "It happens 30% of the time."),
    ],
)
def test_what_is_no_share_of_the_context(context: str, answer: str) -> None:
    assert check_grounding(answer, context).findings


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("half of the votes", [("half", "%", 50)]),
        ("Half the staff", [("Half", "%", 50)]),
        ("one-half of the votes", [("one-half", "%", 50)]),
        ("a half of the votes", [("a half", "%", 50)]),
        # a period or a part, not a share: the number it was (a counting word, see below)
        ("in the first half of 2019", [("half", None, 0.5), ("2019", None, 2019)]),
        ("in the last half of the fiscal year", [("half", None, 0.5)]),
        ("the lower half of the range", [("half", None, 0.5)]),
        ("half an hour", [("half an hour", "h", 0.5)]),
        ("cut in half", [("half", None, 0.5)]),
    ],
)
def test_half_is_a_share_only_of_something(
    text: str, read: list[tuple[str, str | None, float]]
) -> None:
    assert [(q.text, q.unit, float(q.value)) for q in parse_quantities(text)] == read


def test_a_period_named_by_half_is_no_claim() -> None:
    assert check_grounding(
        "In the first half of 2019 revenue grew.", "Revenue grew in 2019."
    ).grounded


def test_the_share_names_where_the_context_states_it() -> None:
    context = ["Background.", "Only 1 in 10 applicants is accepted."]
    report = check_grounding("Only 10% of applicants get in.", context)
    (trace,) = report.quantities
    assert (trace.source, trace.passage, trace.matched_text) == ("context", 1, "1 in 10")
    report = check_grounding("Nine in ten were protected.", ["The vaccine was 90% effective."])
    assert [(t.quantity.text, t.source, t.matched_text) for t in report.quantities] == [
        ("Nine", "context", "90%"),
        ("ten", "context", "90%"),
    ]
