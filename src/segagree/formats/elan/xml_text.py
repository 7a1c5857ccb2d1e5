"""ELAN's XML text of a pympi ``Eaf`` object, written directly.

Byte for byte what pympi's ``to_adocument(eaf, pretty=True)`` serialised by ElementTree's
``write(path, xml_declaration=True, encoding="UTF-8")`` gives (that path stays the test
reference, ``tests/formats/test_eaf_xml.py``): the same elements and attributes in the same
order, ElementTree's own escapes, pympi's indentation (a tab a level; the last child's tail is
left at its own depth, as pympi's ``indent`` leaves it). It builds no element tree, makes no
namespace pass and knows each element's indentation from its depth: a 250k-token document is
written about ten times faster.

A key of the ``{uri}name`` form (ElementTree invents a namespace prefix for it) is left to
ElementTree: :func:`eaf_bytes` returns None. A value ElementTree cannot serialise raises the
TypeError it raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any
from xml.etree.ElementTree import _escape_attrib, _escape_cdata  # type: ignore[attr-defined]

_TIME_SLOT_NUMBER = re.compile(r"ts(\d+)")


class _Namespaced(Exception):
    """A ``{uri}name`` key: left to ElementTree."""


def _rm_none(x: Mapping[str, Any]) -> dict[str, str]:
    """pympi's ``rm_none``: the attributes that are not None, as text."""
    return {k: v if isinstance(v, str) else str(v) for k, v in x.items() if v is not None}


def _attrs(pairs: Mapping[Any, Any]) -> str:
    out = []
    for k, v in pairs.items():
        if not isinstance(k, str):
            raise TypeError(f"cannot serialize {k!r} (type {type(k).__name__})")
        if k.startswith("{"):
            raise _Namespaced(k)
        out.append(f' {k}="{_escape_attrib(v)}"')
    return "".join(out)


def _tail(depth: int) -> str:
    return "\n" + "\t" * depth


def _leaf(tag: str, attrs: Mapping[Any, Any], text: Any, depth: int) -> str:
    """An element without children: its text, or ``<TAG ... />``, then its tail."""
    if text:
        return f"<{tag}{_attrs(attrs)}>{_escape_cdata(text)}</{tag}>{_tail(depth)}"
    return f"<{tag}{_attrs(attrs)} />{_tail(depth)}"


def _parent(tag: str, attrs: Mapping[Any, Any], children: Iterable[str], depth: int) -> str:
    """An element with its children (already written at ``depth + 1``), or a leaf if none."""
    inner = "".join(children)
    if not inner:
        return _leaf(tag, attrs, None, depth)
    return f"<{tag}{_attrs(attrs)}>{_tail(depth + 1)}{inner}</{tag}>{_tail(depth)}"


def _time_slot_key(item: tuple[str, Any]) -> tuple[int, str]:
    return int(_TIME_SLOT_NUMBER.findall(item[0])[0]), item[0]  # pympi's order (IndexError alike)


def _opt(name: str, value: Any) -> str:
    """One attribute of a fixed name as ``_rm_none`` and :func:`_attrs` write it (none if None)."""
    if value is None:
        return ""
    return f' {name}="{_escape_attrib(value if isinstance(value, str) else str(value))}"'


def _value(value: Any) -> str:
    """An ANNOTATION_VALUE at depth 4 (the hot path: written inline, not through :func:`_leaf`)."""
    if value:
        return f"<ANNOTATION_VALUE>{_escape_cdata(value)}</ANNOTATION_VALUE>\n\t\t\t\t"
    return "<ANNOTATION_VALUE />\n\t\t\t\t"


def _tier(attrs: Mapping[str, Any], aligned: Mapping[str, Any], refs: Mapping[str, Any]) -> str:
    parts = [
        f"<ANNOTATION>\n\t\t\t<ALIGNABLE_ANNOTATION{_opt('ANNOTATION_ID', aid)}{_opt('TIME_SLOT_REF1', ts1)}"
        f"{_opt('TIME_SLOT_REF2', ts2)}{_opt('SVG_REF', svg)}>\n\t\t\t\t{_value(value)}"
        "</ALIGNABLE_ANNOTATION>\n\t\t\t</ANNOTATION>\n\t\t"
        for aid, (ts1, ts2, value, svg) in aligned.items()
    ]
    parts += [
        f"<ANNOTATION>\n\t\t\t<REF_ANNOTATION{_opt('ANNOTATION_ID', aid)}{_opt('ANNOTATION_REF', ref)}"
        f"{_opt('PREVIOUS_ANNOTATION', previous)}{_opt('SVG_REF', svg)}>\n\t\t\t\t{_value(value)}"
        "</REF_ANNOTATION>\n\t\t\t</ANNOTATION>\n\t\t"
        for aid, (ref, value, previous, svg) in refs.items()
    ]
    return _parent("TIER", _rm_none(attrs), parts, 1)


def _vocabulary(cvid: str, descriptions: Any, entries: Mapping[str, Any], ext_ref: Any) -> str:
    parts = [_leaf("DESCRIPTION", {"LANG_REF": lang}, text or None, 2) for lang, text in descriptions]
    for cveid, (values, entry_ref) in entries.items():
        vals = [
            _leaf("CVE_VALUE", _rm_none({"LANG_REF": lang, "DESCRIPTION": description}), value, 3)
            for value, lang, description in values
        ]
        parts.append(_parent("CV_ENTRY_ML", _rm_none({"CVE_ID": cveid, "EXT_REF": entry_ref}), vals, 2))
    return _parent("CONTROLLED_VOCABULARY", _rm_none({"CV_ID": cvid, "EXT_REF": ext_ref}), parts, 1)


def eaf_bytes(eaf: Any) -> bytes | None:
    """The file pympi and ElementTree write for ``eaf`` (see the module docstring), or None for
    a ``{uri}name`` key."""
    try:
        return _document(eaf).encode("utf-8", "xmlcharrefreplace")
    except _Namespaced:
        return None


def _document(eaf: Any) -> str:
    header = [
        *(_leaf("MEDIA_DESCRIPTOR", _rm_none(m), None, 2) for m in eaf.media_descriptors),
        *(_leaf("LINKED_FILE_DESCRIPTOR", _rm_none(m), None, 2) for m in eaf.linked_file_descriptors),
        *(_leaf("PROPERTY", {"NAME": k}, str(v), 2) for k, v in eaf.properties),
    ]
    slots = [
        f"<TIME_SLOT{_opt('TIME_SLOT_ID', ts)}{_opt('TIME_VALUE', value)} />\n\t\t"
        for ts, value in sorted(eaf.timeslots.items(), key=_time_slot_key)
    ]
    body = [
        *(_leaf("LICENSE", {"LICENSE_URL": url}, text, 1) for text, url in eaf.licenses),
        _parent("HEADER", eaf.header, header, 1),
        _parent("TIME_ORDER", {}, slots, 1),
        *(_tier(t[2], t[0], t[1]) for _, t in sorted(eaf.tiers.items(), key=lambda x: x[1][3])),
        *(_leaf("LINGUISTIC_TYPE", _rm_none(lt), None, 1) for lt in eaf.linguistic_types.values()),
        *(
            _leaf("LOCALE", _rm_none({"LANGUAGE_CODE": lc, "COUNTRY_CODE": cc, "VARIANT": vr}), None, 1)
            for lc, (cc, vr) in eaf.locales.items()
        ),
        *(
            _leaf("LANGUAGE", _rm_none({"LANG_ID": lid, "LANG_DEF": ldef, "LANG_LABEL": label}), None, 1)
            for lid, (ldef, label) in eaf.languages.items()
        ),
        *(
            _leaf("CONSTRAINT", _rm_none({"STEREOTYPE": s, "DESCRIPTION": d}), None, 1)
            for s, d in eaf.constraints.items()
        ),
        *(_vocabulary(cvid, *cv) for cvid, cv in eaf.controlled_vocabularies.items()),
        *(_leaf("LEXICON_REF", _rm_none(lr), None, 1) for lr in eaf.lexicon_refs.values()),
        *(
            _leaf("EXTERNAL_REF", _rm_none({"EXT_REF_ID": eid, "TYPE": etype, "VALUE": value}), None, 1)
            for eid, (etype, value) in eaf.external_refs.items()
        ),
    ]
    # (the root's tail, as pympi's indent sets it at depth 0: a newline)
    return "<?xml version='1.0' encoding='UTF-8'?>\n" + _parent("ANNOTATION_DOCUMENT", eaf.adocument, body, 0)
