"""A job change is a change (issue 13 item 2; review9 M1, Q1, Q2): who one works for, told as
"works at X", "work for X" or "my employer is X", is a one-value attribute; a change to it is
paired with the memory of the job, not with a nearer one that sets another attribute; and a
move is labelled as the residence it sets, whatever detail of the commute it also tells."""

from __future__ import annotations

import pytest

from localmind.lifecycle import Relation
from localmind.statement import read
from localmind.suspicion import suspect
from tests.unit.test_proposals import lifecycle, neighbour

ZALANDO = "The user works as a data engineer at Zalando"
SIEMENS = (
    "I work at Siemens as a software engineer in the Munich office, on the industrial "
    "automation team"
)
GOOGLE = "I now work at Google Lisbon as a staff engineer on the Cloud team since April"
ALLIANZ = "I work as a backend developer at Allianz in Munich."
OTTO = "I started a new job at Otto in Hamburg as a data engineer."
OTTO_ZH = "我在汉堡换了新工作，在Otto上班"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        (ZALANDO, "The user now works at SAP as a tech lead"),
        (ZALANDO, "My employer is Bosch"),
        ("The user now works at SAP as a tech lead", "My employer is Bosch"),
        ("I work for Deloitte as a consultant.", "These days I work for Accenture."),
        (SIEMENS, GOOGLE),
        (ALLIANZ, OTTO),
        ("我在Allianz上班", OTTO_ZH),
        # a change word before another attribute still changes what the older text names
        ("I drive a 2012 Toyota Corolla.", "Sold the Corolla when I moved; I take the U-Bahn now."),
    ],
    ids=[
        "role-words",
        "my-employer",
        "my-employer-after-sap",
        "work-for",
        "role-and-place",
        "new-job",
        "new-job-zh",
        "car-sold",
    ],
)
def test_a_new_employer_is_a_change(old: str, new: str) -> None:
    suspicion = suspect(old, new)
    assert suspicion.contradicts, suspicion.why


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("I work at SAP.", "My wife works at SAP."),
        ("I work at SAP.", "My wife works at Bosch."),
        ("I work at Zalando as a data engineer.", "My brother works at SAP as a tech lead."),
        ("I work at Siemens in Munich.", "I work from home on Fridays."),
        ("I work at Siemens.", "At Siemens I mentor two apprentices on the automation team."),
        ("I work at Zalando.", "Zalando opened a new office in Lisbon."),
        ("I moved to Lisbon", GOOGLE),
        # "a new job" changes the job, not the residence both place in Hamburg (review10 F12)
        ("We moved to Hamburg; I now live in Eimsbüttel.", OTTO),
        ("我住在汉堡", OTTO_ZH),
    ],
    ids=[
        "wife-same",
        "wife-other",
        "brother",
        "from-home",
        "detail",
        "news",
        "job-after-move",
        "new-job-after-move",
        "new-job-after-move-zh",
    ],
)
def test_what_only_looks_like_a_new_employer_is_no_change(old: str, new: str) -> None:
    suspicion = suspect(old, new)
    assert not suspicion.contradicts, suspicion.why


def test_work_sets_the_employer_only_with_whom_one_works_for() -> None:
    assert "employer" in read("The user now works at SAP as a tech lead").slots
    assert "employer" in read("I work for Bosch").slots
    assert "job" in read("She works as a nurse").slots
    for text in ("I work from home on Fridays", "I work at night", "I work for a living"):
        assert "employer" not in read(text).slots, text


def test_a_move_is_labelled_as_the_residence_it_sets() -> None:
    suspicion = suspect(
        "我住在柏林的一个小公寓里，离公司很近，每天骑自行车上班，大约十五分钟",
        "我搬到了里斯本，现在住在 Alfama 区的一栋老房子里，上班要坐二十分钟的电车",
    )
    assert suspicion.contradicts
    assert "residence" in suspicion.why


def test_a_change_is_paired_with_the_memory_of_the_same_attribute_before_a_nearer_one() -> None:
    # "I am on the Maps team" is nearer and "now" changes it too, but sets no job or employer
    team, siemens = neighbour("I am on the Maps team", 0.7), neighbour(SIEMENS, 0.5)
    assert suspect(team[0].record.content, GOOGLE).contradicts
    proposal = lifecycle(None).propose(GOOGLE, [team, siemens], ask_model=False)
    assert proposal.relation is None  # queued for review
    assert proposal.neighbour is not None
    assert proposal.neighbour.record.content == SIEMENS
    # with no memory of the job among the neighbours, the nearest change still is one
    proposal = lifecycle(None).propose(GOOGLE, [team], ask_model=False)
    assert proposal.neighbour is team[0]
    assert proposal.relation is not Relation.COMPATIBLE
