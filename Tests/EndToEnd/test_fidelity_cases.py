"""The fidelity suite's case format is checked when the cases are collected
(test_rest_fidelity.case_problems, docs/testing.md): a malformed case, a pending one above all,
must not run, for its failure would pass as the expected one (strict xfail) and it would count as
pending for ever while checking nothing."""
import pytest

from test_rest_fidelity import case_problems, load_cases

GOOD = {"name": "a read", "request": {"path": "/items"}, "response": {"status": 200}}


@pytest.mark.parametrize("change, problem", [
    ({"respones": {"status": 200}}, "unknown case keys ['respones']"),
    ({"response": {}}, "no response with a status"),
    ({"response": {"json": []}}, "no response with a status"),
    ({"response": {"status": 200, "jsn": []}}, "unknown response keys ['jsn']"),
    ({"response": {"status": 200, "json": [], "text": ""}},
     "more than one of json, json_contains, text, text_contains"),
    ({"request": {"method": "GET"}}, "no request with a path"),
    ({"request": {"path": "/items", "header": {}}}, "unknown request keys ['header']"),
    ({"sql": {"query": "select 1"}}, "sql is not {query, equals}"),
    ({"as": "admin"}, "unknown `as`: 'admin'"),
    ({"name": ""}, "no name"),
    ({"pending": ""}, "pending without the reason"),
])
def test_a_malformed_case_is_refused_pending_or_not(change, problem):
    for pending in ({}, {"pending": "not built yet"}):
        case = {**GOOD, **pending, **change}
        assert problem in case_problems(case), case


def test_the_cases_on_file_are_well_formed():
    assert case_problems(GOOD) == []
    assert len(load_cases()) >= 592
