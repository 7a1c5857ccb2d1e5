"""The one registry of measures: name -> the module that defines it.

The table is static so that resolving a name (``compare`` with S_f alone, ``--help``) imports no
measure module; a module is imported on first use and must define, for every name listed here, a
:class:`segagree.metrics.contract.Measure` in its ``MEASURES`` tuple. Plugins add measures through
the entry-point group ``segagree.metrics``: each entry point names an object that is a Measure, a
Measure subclass, or an iterable of Measures.

Adding a measure: write its module (card, statistics, score), add one line here, add its test
(``CONTRIBUTING.md``).
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from collections.abc import Iterable
from typing import Any

from segagree.errors import UsageError
from segagree.metrics.contract import Card, Measure

__all__ = [
    "ENTRY_POINT_GROUP",
    "MEASURES",
    "all_measures",
    "cards",
    "get_measure",
    "group_names",
    "guided",
    "known_names",
]

ENTRY_POINT_GROUP = "segagree.metrics"

# name -> module. Keep each group together; the order is the order of `segagree metrics`.
MEASURES: dict[str, str] = {
    # boundary measures on one shared token stream (group "boundary", `--metric all`)
    "sf": "segagree.metrics.boundary.sf",
    "sf_b": "segagree.metrics.boundary.sf",
    "s": "segagree.metrics.boundary.boundary_edit",
    "b": "segagree.metrics.boundary.boundary_edit",
    "b_scheme": "segagree.metrics.boundary.boundary_edit",
    "bed": "segagree.metrics.boundary.boundary_edit",
    "pk": "segagree.metrics.boundary.windows",
    "windowdiff": "segagree.metrics.boundary.windows",
    "winpr": "segagree.metrics.boundary.windows",
    "a": "segagree.metrics.boundary.a_similarity",
    "ghd": "segagree.metrics.boundary.ghd",
    # the official scorers of neighbouring communities (group "scorers")
    "ud_sentences": "segagree.metrics.boundary.segment_match",
    "disrpt_seg": "segagree.metrics.boundary.segment_match",
    "edus_seg": "segagree.metrics.boundary.rst_edus",
    # agreement coefficients of two or more annotators (group "agreement")
    "kappa_sf": "segagree.metrics.chance.kappa",
    "kappa_sf_b": "segagree.metrics.chance.kappa",
    "fleiss_pi": "segagree.metrics.chance.fleiss",
    "fleiss_kappa": "segagree.metrics.chance.fleiss",
    "bias": "segagree.metrics.chance.fleiss",
    # time-based unitizing agreement of two or more annotators (group "time")
    "gamma": "segagree.metrics.unitizing.gamma",
    "gamma_cat": "segagree.metrics.unitizing.gamma",
    "gamma_k": "segagree.metrics.unitizing.gamma",
    # subtitle measures on the reference's and hypothesis's subtitle views (group "subtitles")
    "suber_metrics": "segagree.metrics.subtitles.measures",
    "sigma": "segagree.metrics.subtitles.measures",
    "bleu_br": "segagree.metrics.subtitles.measures",
    "bleu_nb": "segagree.metrics.subtitles.measures",
    "ter_br": "segagree.metrics.subtitles.measures",
    "cpl_conformity": "segagree.metrics.subtitles.measures",
    "f1_eob": "segagree.metrics.subtitles.measures",
    "pk_eob": "segagree.metrics.subtitles.measures",
    "windowdiff_eob": "segagree.metrics.subtitles.measures",
    "s_eob": "segagree.metrics.subtitles.measures",
    "b_eob": "segagree.metrics.subtitles.measures",
    "f1_eol": "segagree.metrics.subtitles.measures",
    "pk_eol": "segagree.metrics.subtitles.measures",
    "windowdiff_eol": "segagree.metrics.subtitles.measures",
    "s_eol": "segagree.metrics.subtitles.measures",
    "b_eol": "segagree.metrics.subtitles.measures",
    "f1_eox": "segagree.metrics.subtitles.measures",
    "pk_eox": "segagree.metrics.subtitles.measures",
    "windowdiff_eox": "segagree.metrics.subtitles.measures",
    "s_eox": "segagree.metrics.subtitles.measures",
    "b_eox": "segagree.metrics.subtitles.measures",
    "reading_speed": "segagree.metrics.subtitles.measures",
    "lines_per_block": "segagree.metrics.subtitles.measures",
    "s_bleu": "segagree.metrics.subtitles.bleus",
    "t_bleu": "segagree.metrics.subtitles.bleus",
    "tbhr": "segagree.metrics.subtitles.bleus",
    "alpha_u": "segagree.metrics.unitizing.alpha_u",
    "u_alpha": "segagree.metrics.unitizing.u_alpha",
    "bu_alpha": "segagree.metrics.unitizing.u_alpha",
    "cu_alpha": "segagree.metrics.unitizing.u_alpha",
    "ku_alpha": "segagree.metrics.unitizing.u_alpha",
    "elan_kappa": "segagree.metrics.unitizing.elan_kappa",
    "boundary_f1": "segagree.metrics.unitizing.boundaries",
    "purity_coverage": "segagree.metrics.unitizing.boundaries",
    "boundary_displacement": "segagree.metrics.unitizing.boundary_displacement",
    "overlap_extent": "segagree.metrics.unitizing.overlap_extent",
    # diarization error rates of speaker-labelled turns (group "diarization": asked for by name)
    "der": "segagree.metrics.unitizing.der",
    "jer": "segagree.metrics.unitizing.jer",
}

_loaded: dict[str, Measure[Any, Any, Any]] = {}
_plugins: dict[str, Measure[Any, Any, Any]] | None = None


def _as_measures(obj: Any) -> list[Measure[Any, Any, Any]]:
    if isinstance(obj, type) and issubclass(obj, Measure):
        return [obj()]
    if isinstance(obj, Measure):
        return [obj]
    if isinstance(obj, Iterable):
        out: list[Measure[Any, Any, Any]] = []
        for x in obj:
            out.extend(_as_measures(x))
        return out
    raise TypeError(f"not a segagree Measure: {obj!r}")


def _plugin_measures() -> dict[str, Measure[Any, Any, Any]]:
    """Measures from installed plugins (entry-point group ``segagree.metrics``), loaded once."""
    global _plugins
    if _plugins is None:
        from importlib.metadata import entry_points

        found: dict[str, Measure[Any, Any, Any]] = {}
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            try:
                measures = _as_measures(ep.load())
            except Exception as err:  # a broken plugin must not break segagree: name it and go on
                print(f"segagree: warning: plugin measure {ep.name!r} ({ep.value}) not loaded: {err}", file=sys.stderr)
                continue
            for m in measures:
                if m.name in MEASURES or m.name in found:
                    print(
                        f"segagree: warning: plugin measure {m.name!r} ({ep.value}) ignored: the name is taken",
                        file=sys.stderr,
                    )
                    continue
                found[m.name] = m
        _plugins = found
    return _plugins


def get_measure(name: str) -> Measure[Any, Any, Any]:
    """The measure registered under ``name`` (built-in or plugin); UsageError if unknown."""
    key = name.strip().lower()
    if key in _loaded:
        return _loaded[key]
    if key in MEASURES:
        module = importlib.import_module(MEASURES[key])
        for m in _as_measures(module.MEASURES):
            _loaded.setdefault(m.name, m)
        if key not in _loaded:
            raise RuntimeError(f"module {MEASURES[key]} lists no measure named {key!r}")
        return _loaded[key]
    plugins = _plugin_measures()
    if key in plugins:
        return plugins[key]
    raise UsageError(f"unknown metric {name!r}; known: {', '.join(known_names())}")


def known_names() -> list[str]:
    """Every measure name, built-in first, then plugins."""
    return [*MEASURES, *(n for n in _plugin_measures() if n not in MEASURES)]


def all_measures() -> list[Measure[Any, Any, Any]]:
    """Every measure, in registry order (imports every measure module)."""
    return [get_measure(n) for n in known_names()]


def guided(card: Card) -> Card:
    """``card`` with its reading guide (:mod:`segagree.metrics.guides`) in the fields it leaves empty."""
    from segagree.metrics.guides import GUIDE_FIELDS, GUIDES

    guide = GUIDES.get(card.name, {})
    missing: dict[str, Any] = {k: guide[k] for k in GUIDE_FIELDS if k in guide and not getattr(card, k)}
    return dataclasses.replace(card, **missing) if missing else card


def cards() -> dict[str, Card]:
    """name -> card of every measure, with its reading guide."""
    return {m.name: guided(m.card) for m in all_measures()}


def group_names(group: str) -> list[str]:
    """The names of the measures whose card is in ``group``."""
    return [m.name for m in all_measures() if m.card.group == group]
