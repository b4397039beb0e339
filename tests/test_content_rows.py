"""`content_rows`: `content query` output as dicts (task judges read providers with it)."""

from __future__ import annotations

from pytest_mobileagent.device.content import content_rows


def test_rows_with_commas_and_spaces_in_values():
    out = ("Row: 0 _id=1, address=123456789, body=hi, there, you, type=1\n"
           "Row: 1 _id=2, address=555, body=NULL, type=2\n")
    assert content_rows(out) == [
        {"_id": "1", "address": "123456789", "body": "hi, there, you", "type": "1"},
        {"_id": "2", "address": "555", "body": "NULL", "type": "2"},
    ]


def test_no_result_and_errors_are_no_rows():
    assert content_rows("No result found.\n") == []
    assert content_rows("Error while accessing provider:sms\njava.lang.X: y\n") == []
