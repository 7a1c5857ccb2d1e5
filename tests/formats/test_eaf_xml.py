"""segagree's direct ELAN writer (segagree.formats.elan.xml_text) against its reference: pympi's
``to_adocument(eaf, pretty=True)`` serialised by ElementTree's ``write``, byte for byte, on every
real ELAN file pympi reads, on what segagree's ELAN writer makes of generated documents, and on
Eaf objects holding every kind of element and awkward text."""

from __future__ import annotations

import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pympi.Elan import Eaf, to_adocument
from test_damage_xml_formats import documents

import segagree.formats.elan.eaf as eaf_adapter
from segagree.formats import write_document
from segagree.formats.elan.xml_text import eaf_bytes
from segagree.model import Document

from conftest import SHARED


def reference_bytes(eaf: Any) -> bytes:
    """What the ELAN writer wrote before: pympi's tree, ElementTree's serialisation to a file."""
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "ref.eaf"
        ET.ElementTree(to_adocument(eaf, pretty=True)).write(str(path), xml_declaration=True, encoding="UTF-8")
        return path.read_bytes()


REAL = sorted((SHARED / "corpora" / "eaf").glob("*.eaf")) + sorted((SHARED / "corpora" / "rez").glob("*.eaf"))


def outcome(write: Any, eaf: Any) -> bytes | str:
    """The bytes written, or the exception's type (pympi's order of time slots raises
    IndexError on an id without a number, as ``ts`` ids have)."""
    try:
        return write(eaf)
    except Exception as err:  # noqa: BLE001 - the kind of failure is compared
        return type(err).__name__


@pytest.mark.parametrize("path", REAL, ids=[p.name for p in REAL])
def test_real_files_as_pympi_reads_them(path: Path) -> None:
    eaf = Eaf(str(path))
    assert outcome(eaf_bytes, eaf) == outcome(reference_bytes, eaf)


def test_real_files_are_there() -> None:
    if not (SHARED / "corpora" / "eaf").is_dir():
        pytest.skip("../shared/corpora/eaf is absent: the real files live in ../shared")
    assert len(REAL) >= 5


AWKWARD = st.text(alphabet=st.sampled_from(["a", " ", "&", "<", ">", '"', "'", "\t", "\n", "\r", "é", "\ud800", "x"]))


def every_element(data: st.DataObject) -> Eaf:
    """An Eaf with licences, media, properties, locales, languages, vocabularies, lexicon and
    external references, tiers of both kinds of annotations, and awkward text everywhere."""
    eaf = Eaf(author=data.draw(AWKWARD))
    eaf.add_license(data.draw(AWKWARD), data.draw(AWKWARD))
    eaf.add_linked_file("file:///a.wav", relpath=data.draw(st.none() | AWKWARD), mimetype="audio/x-wav")
    eaf.add_property(data.draw(AWKWARD), data.draw(st.integers() | AWKWARD))
    eaf.add_locale("fr", country_code=data.draw(st.none() | AWKWARD))
    eaf.add_language("fra", lang_def=data.draw(st.none() | AWKWARD), lang_label="French")
    eaf.add_controlled_vocabulary("cv", ext_ref=None)
    eaf.add_cv_description("cv", "fra", description=data.draw(st.none() | AWKWARD))
    eaf.add_cv_entry("cv", "e1", [(data.draw(AWKWARD), "fra", data.draw(st.none() | AWKWARD))])
    eaf.add_lexicon_ref("lr", "name", "type", "url", "lexid", "lexname")
    eaf.add_external_ref("er", "iso12620", data.draw(AWKWARD))
    eaf.add_linguistic_type("words", constraints="Symbolic_Subdivision", timealignable=False)
    eaf.add_tier("empty")
    eaf.add_tier("units")
    eaf.add_tier("words", ling="words", parent="units")
    for k in range(data.draw(st.integers(0, 4))):
        eaf.add_annotation("units", 1000 * k, 1000 * k + 500, value=data.draw(AWKWARD))
        for _ in range(data.draw(st.integers(0, 2))):
            eaf.add_ref_annotation("words", "units", 1000 * k + 1, value=data.draw(AWKWARD))
    return eaf


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_every_kind_of_element_and_awkward_text(data: st.DataObject) -> None:
    eaf = every_element(data)
    assert eaf_bytes(eaf) == reference_bytes(eaf)


def test_what_elementtree_cannot_serialise_raises_alike() -> None:
    eaf = Eaf(author="a")
    eaf.adocument["VERSION"] = 3  # not text: ElementTree's TypeError
    with pytest.raises(TypeError):
        reference_bytes(eaf)
    with pytest.raises(TypeError):
        eaf_bytes(eaf)


def test_a_namespaced_key_is_left_to_elementtree() -> None:
    eaf = Eaf(author="a")
    eaf.adocument["{http://www.w3.org/2001/XMLSchema-instance}noNamespaceSchemaLocation"] = "x.xsd"
    assert eaf_bytes(eaf) is None
    assert b':noNamespaceSchemaLocation="x.xsd"' in reference_bytes(eaf)  # ElementTree's prefix


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents())
def test_segagree_documents_as_the_writer_builds_them(doc: Document) -> None:
    built: list[Any] = []
    real = eaf_adapter.eaf_bytes

    def keep(eaf: Any) -> bytes | None:
        built.append(eaf)
        return real(eaf)

    eaf_adapter.eaf_bytes = keep
    try:
        with tempfile.TemporaryDirectory() as scratch:
            out = Path(scratch) / "out.eaf"
            try:
                write_document(doc, out)
            except Exception:  # noqa: BLE001 - a refused document is no case here
                return
            written = out.read_bytes()
    finally:
        eaf_adapter.eaf_bytes = real
    (eaf,) = built
    assert written == reference_bytes(eaf)
