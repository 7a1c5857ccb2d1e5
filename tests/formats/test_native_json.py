"""The native JSON writer's fast paths against the item-at-a-time definition, and its text layout."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from test_damage_xml_formats import documents

from segagree.model import Document
from segagree.model.native import _clean, document_to_json, json_text, jsonable

COLUMNS = {
    "ints": st.integers(-(2**40), 2**40),
    "bools": st.booleans(),
    "floats": st.one_of(st.floats(allow_nan=True, allow_infinity=False), st.just(math.nan)),
    "any floats": st.floats(allow_nan=True, allow_infinity=True),
    "mixed": st.one_of(st.none(), st.text(max_size=3), st.integers(-5, 5), st.floats(allow_infinity=True)),
}


def by_item(doc: Document) -> tuple[dict[str, list[object]], list[str]]:
    """The token columns by the definition: ``_clean`` of each time, ``jsonable(_clean(x))`` of
    each metadata value, one item at a time from the DataFrame (what the writer did before)."""
    changed: list[str] = []
    t = doc.tokens
    index = {s: i for i, s in enumerate(doc.speakers)}
    out: dict[str, list[object]] = {"speaker": [index[s] for s in t["speaker"]], "text": t["text"].tolist()}
    if doc.has_times:
        out["start"] = [_clean(x) for x in t["start"].tolist()]
        out["end"] = [_clean(x) for x in t["end"].tolist()]
    for c in doc.meta_columns():
        out[f"extra/{c}"] = [jsonable(_clean(x), changed, f"tokens/extra/{c}") for x in t[c].tolist()]
    return out, changed


@settings(max_examples=150, deadline=None)
@given(documents(), st.data())
def test_columns_equal_the_item_at_a_time_definition(doc: Document, data: st.DataObject) -> None:
    for name in data.draw(st.lists(st.sampled_from(sorted(COLUMNS)), unique=True, max_size=3)):
        values = [data.draw(COLUMNS[name]) for _ in range(doc.n_tokens)]
        dtype = {"ints": np.int64, "bools": bool}.get(name, float if "floats" in name else object)
        doc.set_column(name, pd.Series(values, dtype=dtype).to_numpy())
    expected, expected_changed = by_item(doc)
    changed: list[str] = []
    got = document_to_json(doc, changed)
    tokens = {k: v for k, v in got["tokens"].items() if k != "extra"}
    tokens.update({f"extra/{c}": v for c, v in got["tokens"].get("extra", {}).items()})
    # (NaN != NaN: compare the JSON texts, which hold no NaN)
    assert json.dumps(tokens, allow_nan=False) == json.dumps(expected, allow_nan=False)
    assert changed == expected_changed
    for key, value in tokens.items():
        assert all(type(x) in (int, float, str, bool, type(None)) for x in value), key
    text = json_text(got)
    assert json.loads(text) == json.loads(json.dumps(got, indent=1, ensure_ascii=False))


def test_a_line_for_each_token_column_and_layer() -> None:
    data = {
        "segagree": "document/1",
        "name": "d",
        "meta": {"a": [1, 2]},
        "speakers": ["A"],
        "tokens": {"speaker": [0, 0], "text": ["x", "é"], "extra": {"Turn": [1, 1], "note": ["", None]}},
        "layers": [{"name": "iu", "boundaries": [None, "."]}, {"name": "turn", "boundaries": [None, "|"]}],
    }
    lines = json_text(data).splitlines()
    assert json.loads("\n".join(lines)) == data
    assert '  "text": ["x", "é"],' in lines  # UTF-8 as it is, not \u escapes
    assert '   "Turn": [1, 1],' in lines and '   "note": ["", null]' in lines
    assert '  {"name": "iu", "boundaries": [null, "."]},' in lines
    assert len(lines) == 18
