"""Praat TextGrid (``.TextGrid``): interval tiers of labelled time spans.

What the format holds: a time range (``xmin``/``xmax``) and an ordered list of tiers. An
*interval tier* tiles the range with intervals ``[xmin, xmax]`` each carrying a text label
(an empty label means "nothing here"); a *point tier* (``TextTier``) holds labelled instants.
Labels may contain newlines; ``"`` is written doubled. Files come in a long and a short
("chronological-less") text form, in UTF-8 or UTF-16 with a BOM (older Praat versions).

Parsing uses segagree's own strict reader (:mod:`segagree.formats.praat.text_form`), which
agrees with praatio's ``parseTextgridStr`` on all seven sample files (long, short, UTF-16BE,
multi-line labels, doubled quotes; a test checks it) but, unlike praatio, checks what the file
declares: a file cut short (praatio returned fewer tiers or intervals than declared, so a
truncated TextGrid read as complete), counts that do not match, times that are not finite,
negative or beyond ten days, intervals out of order, overlapping or outside their tier, are
refused with the line, tier and item. The ``textgrid`` package was rejected because it fails
on real short-format files with ``AttributeError`` and on multi-line labels with a
``TypeError`` (``tgt`` fails on multi-line labels as well). We decode the bytes with
:func:`decode_text` (BOM sniffing, UTF-8, fallback) because praatio's ``openTextgrid`` first
tries ``utf-16`` without a BOM, which can turn an even-length UTF-8 file into garbage.

Mapping to the model (reading):

* **Unit tiers.** By default every interval tier is one speaker (speaker = tier name; a
  duplicated name is renamed ``Mary``, ``Mary_2``, ``Mary_3`` like praatio's
  ``duplicateNamesMode="rename"``), except tiers named ``<tier>/words`` of another tier, which
  are word tiers. ``tiers=[...]`` selects the unit tiers (use it for files with tiers that are
  not speakers, e.g. Marion2's ``Commentaires``/``Silence``).
* **Speaker tier.** ``speaker_tier=NAME``: the tier's labels (L1, L2, ...) name the speaker of
  each unit of a single text tier, chosen by the largest time overlap. The text tier is
  ``tiers=[NAME]`` or, if unambiguous, the only interval tier left once the speaker tier and
  ``words``/``*/words`` tiers are removed.
* **Units.** Each interval of a unit tier whose label is not a gap is one unit. Gaps are empty
  labels and the pause labels of ``gap_labels`` (default ``_``, ``sil``, ``<sil>``, ``sp``,
  ``<p:>``, ``#``), compared after stripping whitespace. Units are put in discourse order by
  start time (ties: tier order, then interval order).
* **Tokens.** From the unit's word tier when it has one, else the whitespace split of the label
  (newlines count as whitespace; doubled quotes are already undone by the parser). The word
  tier of unit tier ``T`` is: ``word_tier=NAME`` (a pattern with ``{speaker}`` such as
  ``{speaker} - words`` when there are several unit tiers), else a tier named ``T/words``,
  else — when there is only one unit tier — a tier named ``words``. A word tier must *nest*:
  every non-gap word interval lies inside one unit interval. An explicitly chosen word tier
  that does not nest is an error; an automatically found one is ignored (listed in
  ``meta['ignored_tiers']``). Word intervals give token times; a unit with no word intervals
  falls back to the label split (counted in ``meta['units_without_words']``). A word label
  with inner whitespace gives one token per part, the interval shared evenly between them.
* **Boundaries.** Layer ``iu`` with the given scheme: the endnote is the label's final token
  (separate or glued, via :func:`split_endnote`); no endnote means the scheme's unclassified
  type. A final word-tier token that repeats the endnote is removed from the tokens.
* **Not represented** (each reported in ``doc.losses``): point tiers and unselected tiers
  (names in ``meta['ignored_tiers']``), pause labels (written back as empty intervals), the
  unit interval's own times and text when a word tier gives the tokens, endnote word intervals,
  duplicate tier names (renamed), a speaker tier's layout, gaps between intervals (filled),
  and a file's mix of glued and separate endnotes. Kept in ``meta`` and written back: the
  file's and each read tier's ``xmin``/``xmax`` and the usual endnote spelling.

Writing: one interval tier per speaker whose labels are the unit's tokens joined by spaces
plus the endnote symbol as a separate token (the unclassified symbol only when the label
would otherwise read back differently, as in ``etc. ;``), with empty intervals filling the gaps, in
Praat's long (or short) text form (UTF-8) with times at full float precision. A ``<speaker>/words``
tier per speaker follows when it carries information the labels cannot: word times, or tokens
a whitespace split of the label would not give back (``word_tiers=None``, the default; force
with ``True``/``False``). Always writing word tiers would make a label-only document gain
invented word times on re-reading, so read -> write -> read would not be the identity.
"""

from __future__ import annotations

import bisect
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from segagree.errors import InputError, UsageError
from segagree.files.encoding import decode_text, detect_encoding
from segagree.files.memory import read_bytes
from segagree.formats.base import Adapter, check_options
from segagree.formats.checks import check_times
from segagree.formats.endnotes import endnote_text, split_endnote, unit_layer_to_write
from segagree.formats.kept_meta import note_dropped_columns
from segagree.formats.praat.text_form import Item as PraatItem
from segagree.formats.praat.text_form import TextGridFile, dump_textgrid, parse_textgrid
from segagree.formats.praat.text_form import Tier as PraatTier
from segagree.formats.timing import MAX_SECONDS
from segagree.model import BoundaryScheme, Document, UnitColumns
from segagree.model.losses import LossReport

DEFAULT_GAP_LABELS: tuple[str, ...] = ("_", "sil", "<sil>", "sp", "<p:>", "#")
# The encoding Praat reads a text file in when it has no BOM and is not UTF-8.
PRAAT_LEGACY = "cp1252"
_READ_OPTIONS = {"tiers", "speaker_tier", "word_tier", "gap_labels", "encoding"}
_WRITE_OPTIONS = {"layer", "word_tiers", "format"}
# Praat and praatio refuse intervals with start >= end; zero-length units are widened to this.
_MIN_DURATION = 0.001
# Tolerance when checking that a word interval lies inside its unit interval.
_EPS = 1e-9


@dataclass
class _Tier:
    name: str
    is_interval: bool
    entries: list[tuple[float, float, str]]  # (start, end, label); points have start == end
    xmin: float = 0.0
    xmax: float = 0.0
    gaps: int = 0  # intervals not starting where the previous one ended


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def _parse(path: Path, encoding: str | None = None) -> tuple[list[_Tier], dict[str, Any]]:
    raw = read_bytes(path)
    # Praat reads UTF-16 with a BOM, else UTF-8, else Windows-1252/Latin-1: so does this reader,
    # before any detector's guess (an English Latin-1 file came out as cp932).
    text = decode_text(raw, path, encoding=encoding, fallback=PRAAT_LEGACY)
    head = text[:300]
    if "ooBinaryFile" in head:
        raise InputError(
            "binary TextGrid is not supported; save it as a text file in Praat",
            path=path,
            place="line 1",
        )
    if "ooTextFile" not in head or "TextGrid" not in head:
        raise InputError(
            'not a Praat TextGrid: expected File type = "ooTextFile" and Object class = "TextGrid" in the header',
            path=path,
            place="line 1",
        )
    parsed = parse_textgrid(text, path)
    tiers: list[_Tier] = []
    seen: set[str] = set()
    renamed: list[str] = []
    for tier in parsed.tiers:
        # Praat allows duplicate tier names; rename like praatio's duplicateNamesMode="rename".
        name = tier.name
        new_name, i = name, 2
        while new_name in seen:
            new_name = f"{name}_{i}"
            i += 1
        if new_name != name:
            renamed.append(new_name)
        seen.add(new_name)
        entries = [(it.start, it.end, it.label) for it in tier.items]
        tiers.append(_Tier(new_name, tier.is_interval, entries, tier.xmin, tier.xmax, tier.gaps))
    long_form = re.search(r"^\s*item ?\[", text, re.MULTILINE) is not None
    meta = {
        "format": "long" if long_form else "short",
        "encoding": detect_encoding(raw, encoding, PRAAT_LEGACY),
        "xmin": parsed.xmin,
        "xmax": parsed.xmax,
        "renamed_tiers": renamed,
    }
    return tiers, meta


def _nests(words: _Tier, units: _Tier, gaps: set[str]) -> tuple[bool, int, tuple[float, float]]:
    """Whether every non-gap word interval lies inside a non-gap unit interval.

    Returns (ok, first bad interval number, its times)."""
    spans = [(s, e) for s, e, lab in units.entries if lab.strip() not in gaps]
    starts = [s for s, _ in spans]
    for k, (s, e, lab) in enumerate(words.entries, start=1):
        if lab.strip() in gaps:
            continue
        i = bisect.bisect_right(starts, (s + e) / 2) - 1
        if i < 0 or s < spans[i][0] - _EPS or e > spans[i][1] + _EPS:
            return False, k, (s, e)
    return True, 0, (0.0, 0.0)


def read(path: Path, *, scheme: BoundaryScheme, **options: Any) -> Document:
    """Read a TextGrid into a Document with one ``iu`` layer (see the module docstring).

    Options:
        tiers: names of the unit tiers (default: every interval tier that is not a word tier).
        speaker_tier: a tier whose labels name the speaker of each unit of one text tier.
        word_tier: the word tier's name, or a pattern with ``{speaker}`` (the unit tier's name).
        gap_labels: labels (besides the empty one) that mark gaps, not units.
    """
    check_options(options, _READ_OPTIONS, "TextGrid reader")
    path = Path(path)
    tiers, meta = _parse(path, options.get("encoding"))
    sel = _select_tiers(tiers, path, options)
    stats = _ReadStats()
    units = _read_units(sel, scheme, path, stats)
    used = set(sel.unit_names) | {w.name for w in sel.word_of.values()}
    if sel.speaker_tier:
        used.add(sel.speaker_tier)
    meta.update(
        tiers=sel.unit_names,
        word_tiers={u: w.name for u, w in sel.word_of.items()},
        speaker_tier=sel.speaker_tier,
        ignored_tiers=[t.name for t in tiers if t.name not in used],
        gap_intervals=stats.n_gaps,
        units_without_words=stats.without_words,
    )
    if sel.rejected:
        meta["rejected_word_tiers"] = sel.rejected
    meta["tier_ranges"] = {t.name: [t.xmin, t.xmax] for t in tiers if t.name in used}
    # How labels spell their endnote (glued ``fine.`` or separate ``fine .``), so that the
    # writer spells them the same; a file mixing both is written back in its usual style.
    glued = stats.style[True] > stats.style[False]
    meta["endnote_style"] = "glued" if glued else "separate"
    doc = _build_document(units, path, scheme, sel, meta)
    _note_tier_losses(doc.losses, tiers, used, sel, meta)
    _note_unit_losses(doc.losses, stats, respaced=stats.style[not glued], style=meta["endnote_style"])
    return doc


@dataclass
class _Selection:
    """The tiers a read uses: unit tiers, their word tiers, the speaker tier, the gap labels."""

    by_name: dict[str, _Tier]
    unit_names: list[str]
    unit_tiers: list[_Tier]
    word_of: dict[str, _Tier]
    rejected: list[str]
    speaker_tier: str | None
    gaps: set[str]


@dataclass
class _ReadStats:
    """What the Document will not carry, counted while units are read (reported as losses)."""

    n_gaps: int = 0
    without_words: int = 0
    shared_words: int = 0
    endnote_words: int = 0
    label_differs: int = 0
    span_differs: int = 0
    style: Counter[bool] = field(default_factory=Counter)
    empty_units: list[str] = field(default_factory=list)


def _need_tier(by_name: dict[str, _Tier], name: str, role: str, path: Path) -> _Tier:
    tier = by_name.get(name)
    if tier is None:
        raise InputError(f"no {role} tier {name!r}; tiers: {list(by_name)}", path=path)
    if not tier.is_interval:
        raise InputError(f"{role} tier {name!r} is a point tier; expected an interval tier", path=path)
    return tier


def _select_tiers(tiers: list[_Tier], path: Path, options: dict[str, Any]) -> _Selection:
    """The unit tiers (``tiers``, else every interval tier that is not a word tier), the speaker
    tier and each unit tier's word tier (explicit ones must nest; automatic ones are tried)."""
    by_name = {t.name: t for t in tiers}
    interval_names = [t.name for t in tiers if t.is_interval]
    gaps = {""} | {g.strip() for g in options.get("gap_labels", DEFAULT_GAP_LABELS)}
    speaker_tier: str | None = options.get("speaker_tier")
    wanted: Sequence[str] | None = options.get("tiers")
    word_opt: str | None = options.get("word_tier")
    is_words_tier = {n for n in interval_names if n == "words" or (n.endswith("/words") and n[:-6] in by_name)}
    if speaker_tier is not None:
        _need_tier(by_name, speaker_tier, "speaker", path)
        if wanted is not None:
            unit_names = list(wanted)
        else:
            unit_names = [n for n in interval_names if n != speaker_tier and n not in is_words_tier]
        if len(unit_names) != 1:
            raise InputError(
                f"--speaker-tier {speaker_tier!r} names the speakers of one text tier, but {len(unit_names)} "
                f"text tiers were found {unit_names}; choose it with --tier NAME "
                "(in Python: speaker_tier=..., tiers=[NAME])",
                path=path,
            )
    elif wanted is not None:
        unit_names = list(wanted)
    else:
        unit_names = [n for n in interval_names if not (n.endswith("/words") and n[:-6] in by_name)]
    unit_tiers = [_need_tier(by_name, n, "unit", path) for n in unit_names]
    if word_opt and "{speaker}" not in word_opt and len(unit_tiers) > 1:
        raise UsageError(
            f"word_tier={word_opt!r} names one tier but there are {len(unit_tiers)} unit tiers; "
            "use a pattern with {speaker}"
        )
    word_of: dict[str, _Tier] = {}
    rejected: list[str] = []
    for ut in unit_tiers:
        if word_opt:
            word_of[ut.name] = _nested_word_tier(by_name, word_opt.replace("{speaker}", ut.name), ut, gaps, path)
            continue
        candidates = [f"{ut.name}/words"] + (["words"] if len(unit_tiers) == 1 else [])
        for cand in candidates:
            wt = by_name.get(cand)
            if wt is None or not wt.is_interval or cand in unit_names:
                continue
            if _nests(wt, ut, gaps)[0]:
                word_of[ut.name] = wt
                break
            rejected.append(cand)
    return _Selection(by_name, unit_names, unit_tiers, word_of, rejected, speaker_tier, gaps)


def _nested_word_tier(by_name: dict[str, _Tier], name: str, ut: _Tier, gaps: set[str], path: Path) -> _Tier:
    """The word tier the user named for unit tier ``ut``; refused unless it nests in ``ut``."""
    wt = _need_tier(by_name, name, "word", path)
    ok, k, (s, e) = _nests(wt, ut, gaps)
    if not ok:
        raise InputError(
            f"word interval {k} ({s:g}-{e:g} s) is not inside any interval of unit "
            f"tier {ut.name!r}; a word tier must nest in its unit tier",
            path=path,
            place=f"tier {wt.name!r}",
        )
    return wt


def _speaker_for(spans: list[tuple[float, float, str]], sel: _Selection, path: Path) -> Callable[..., str]:
    """The speaker of interval ``k`` (``s``-``e``) of a tier: the speaker-tier label it overlaps most."""

    def speaker_for(tier: _Tier, k: int, s: float, e: float) -> str:
        best, best_overlap = None, 0.0
        for ss, se, lab in spans:
            overlap = min(e, se) - max(s, ss)
            if overlap > best_overlap or (best is None and overlap >= 0 and s == e):
                best, best_overlap = lab, overlap
        if best is None:
            raise InputError(
                f"interval {k} ({s:g}-{e:g} s) overlaps no labelled interval of speaker tier {sel.speaker_tier!r}",
                path=path,
                place=f"tier {tier.name!r}",
            )
        return best

    return speaker_for


def _read_units(
    sel: _Selection, scheme: BoundaryScheme, path: Path, stats: _ReadStats
) -> list[tuple[tuple[float, int, int], dict[str, Any]]]:
    """One unit per labelled interval of each unit tier, in time order (ties: tier, interval)."""
    gaps = sel.gaps
    spk_spans: list[tuple[float, float, str]] = []
    if sel.speaker_tier is not None:
        spk_spans = [
            (s, e, lab.strip()) for s, e, lab in sel.by_name[sel.speaker_tier].entries if lab.strip() not in gaps
        ]
    speaker_for = _speaker_for(spk_spans, sel, path)
    units: list[tuple[tuple[float, int, int], dict[str, Any]]] = []
    for tier_idx, ut in enumerate(sel.unit_tiers):
        wt = sel.word_of.get(ut.name)
        words = [(s, e, lab) for s, e, lab in (wt.entries if wt else []) if lab.strip() not in gaps]
        word_mids = [(s + e) / 2 for s, e, _ in words]
        for k, (s, e, label) in enumerate(ut.entries, start=1):
            if label.strip() in gaps:
                stats.n_gaps += 1
                continue
            label_tokens, code = split_endnote(label.split(), scheme)
            if code is not None and code != scheme.unclassified_code:
                stats.style[len(label_tokens) == len(label.split())] += 1  # True: glued to the last word
            if code is None:
                code = scheme.unclassified_code
                if code is None:
                    raise InputError(
                        f"label {_one_line(label)!r} has no endnote and scheme {scheme.name!r} "
                        "has no unclassified type",
                        path=path,
                        place=f"tier {ut.name!r}, interval {k}",
                    )
            unit: dict[str, Any] = {"boundary": code, "start": s, "end": e}
            lo = bisect.bisect_left(word_mids, s)
            hi = bisect.bisect_right(word_mids, e)
            if wt is not None and hi > lo:
                unit.update(_unit_words(words[lo:hi], label_tokens, code, s, e, scheme, stats))
            else:
                if wt is not None:
                    stats.without_words += 1
                unit["tokens"] = label_tokens
            unit["speaker"] = speaker_for(ut, k, s, e) if sel.speaker_tier else ut.name
            if not unit["tokens"]:
                stats.empty_units.append(f"{ut.name} {k}")
            units.append(((s, tier_idx, k), unit))
    units.sort(key=lambda u: u[0])
    return units


def _unit_words(
    words: list[tuple[float, float, str]],
    label_tokens: list[str],
    code: int,
    s: float,
    e: float,
    scheme: BoundaryScheme,
    stats: _ReadStats,
) -> dict[str, Any]:
    """A unit's tokens and times from the word intervals inside it (``s``-``e``), counting how
    they differ from the unit's own label and span."""
    toks: list[str] = []
    t_starts: list[float] = []
    t_ends: list[float] = []
    for ws, we, wlab in words:
        parts = wlab.split()
        toks.extend(parts)
        # A word label with inner whitespace (bobby's "RIPPED\nVerb") gives one
        # token per part, sharing the interval evenly, so that it writes back.
        p_starts, p_ends = _spread(ws, we, len(parts))
        t_starts.extend(p_starts)
        t_ends.extend(p_ends)
    stats.shared_words += sum(1 for _, _, wlab in words if len(wlab.split()) > 1)
    stripped, wcode = split_endnote(toks, scheme)
    if wcode is not None and wcode == code and stripped:
        if len(stripped) < len(toks):  # a separate endnote token: drop its times
            t_starts, t_ends = t_starts[: len(stripped)], t_ends[: len(stripped)]
            stats.endnote_words += 1
        toks = stripped
    if toks != label_tokens:
        stats.label_differs += 1
    if toks and (abs(t_starts[0] - s) > _EPS or abs(t_ends[len(toks) - 1] - e) > _EPS):
        stats.span_differs += 1
    return {"tokens": toks, "token_starts": t_starts, "token_ends": t_ends}


def _build_document(
    units: list[tuple[tuple[float, int, int], dict[str, Any]]],
    path: Path,
    scheme: BoundaryScheme,
    sel: _Selection,
    meta: dict[str, Any],
) -> Document:
    """The Document of the units. Filled directly, as from_units would (units without tokens
    skipped): its per-unit mapping lookups were a quarter of a large read."""
    cols = UnitColumns()
    token_times = False
    for _, unit in units:
        toks = unit["tokens"]
        if not toks:
            continue
        cols.add(str(unit["speaker"]), toks, len(toks), int(unit["boundary"]), float(unit["start"]), float(unit["end"]))
        t_starts, t_ends = unit.get("token_starts"), unit.get("token_ends")
        cols.token_starts.append(t_starts or None)
        cols.token_ends.append(t_ends or None)
        token_times = token_times or bool(t_starts) or bool(t_ends)
    if not token_times:
        cols.token_starts, cols.token_ends = [], []
    return cols.build(
        path.stem,
        layer="iu",
        scheme=scheme,
        speakers=None if sel.speaker_tier else sel.unit_names,
        source_path=str(path),
        source_format="textgrid",
        meta=meta,
    )


def _note_tier_losses(
    losses: LossReport, tiers: list[_Tier], used: set[str], sel: _Selection, meta: dict[str, Any]
) -> None:
    """Tiers not read, pause labels read as gaps, tiles repaired, tiers renamed or restructured."""
    for t in tiers:
        if t.name in used:
            continue
        n = sum(1 for _, _, lab in t.entries if lab.strip())
        what = "interval tier not read" if t.is_interval else "point tier: segagree reads interval tiers only"
        losses.add("tier-ignored", what, where=f"tier {t.name!r}", count=n)
    gaps = sel.gaps
    read_tiers = [t for t in tiers if t.name in used and t.name != sel.speaker_tier]
    pauses = Counter(lab.strip() for t in read_tiers for _, _, lab in t.entries if lab.strip() and lab.strip() in gaps)
    if pauses:
        losses.add(
            "labels-dropped",
            f"pause labels {sorted(pauses)} are read as gaps and written back as empty intervals",
            count=sum(pauses.values()),
        )
    n_holes = sum(t.gaps for t in tiers if t.name in used)
    losses.add_count(
        "repaired", "intervals that do not start where the previous one ends (Praat tiles each tier)", n_holes
    )
    if meta["renamed_tiers"]:
        losses.add("tiers-renamed", "duplicate tier names were made unique", where=", ".join(meta["renamed_tiers"]))
    if sel.speaker_tier:
        losses.add(
            "tiers-restructured",
            f"the text tier {sel.unit_names[0]!r} and speaker tier {sel.speaker_tier!r} become one tier per speaker",
        )
    for u, w in sel.word_of.items():
        if w.name != f"{u}/words":
            losses.add("tiers-renamed", f"word tier {w.name!r} of {u!r} is written back as '<speaker>/words'")


def _note_unit_losses(losses: LossReport, stats: _ReadStats, *, respaced: int, style: str) -> None:
    """What the units' labels and word intervals lose in the Document (counted in ``stats``)."""
    if respaced:
        losses.add(
            "labels-respaced",
            f"labels glue their endnote to the last word in some intervals and not in others; "
            f"all are written back {style}",
            count=respaced,
        )
    losses.add_items(
        "units-dropped",
        "intervals holding only an endnote have no tokens",
        stats.empty_units,
    )
    losses.add_count(
        "labels-dropped", "unit labels whose text differs from their word tier's words", stats.label_differs
    )
    if stats.span_differs:
        what = "unit intervals whose times differ from their words' span"
        losses.add("times-dropped", what, count=stats.span_differs)
    if stats.endnote_words:
        losses.add(
            "times-dropped",
            "endnote word intervals are read as boundaries; their times are dropped",
            count=stats.endnote_words,
        )
    if stats.shared_words:
        losses.add(
            "times-invented",
            "word labels holding several tokens; their interval was shared evenly",
            count=stats.shared_words,
        )


# --- writing -----------------------------------------------------------------------------


def _reads_back(label: str, tokens: list[str], code: int, scheme: BoundaryScheme) -> bool:
    """Whether reading ``label`` alone gives back these tokens and this code."""
    back, back_code = split_endnote(label.split(), scheme)
    if back_code is None:
        back_code = scheme.unclassified_code
    expected = code if code != 0 else scheme.unclassified_code
    return back == tokens and back_code == expected


def _label(tokens: list[str], code: int, scheme: BoundaryScheme, glued: bool = False) -> str:
    """Tokens and the endnote symbol (glued to the last token when asked and it reads back so);
    the unclassified symbol only where it is needed (``etc.`` would otherwise read back as
    ``etc`` with a final ``.``)."""
    symbol = endnote_text(code, scheme)
    if glued and symbol and tokens:
        label = " ".join(tokens[:-1] + [tokens[-1] + symbol])
        if _reads_back(label, tokens, code, scheme):
            return label
    label = " ".join(tokens + ([symbol] if symbol else []))
    if scheme.unclassified and not symbol and not _reads_back(label, tokens, code, scheme):
        label = f"{label} {scheme.unclassified.symbol}"
    return label


def _label_round_trips(tokens: list[str], code: int, scheme: BoundaryScheme) -> bool:
    return _reads_back(_label(tokens, code, scheme), tokens, code, scheme)


def _fill_spans(spans: list[tuple[float, float]], sizes: list[int]) -> list[tuple[float, float]]:
    """Fill missing unit times: 1 s per unit when nothing is known, else linear interpolation
    over token positions in discourse order (an SRT cue's interior line ends get times between
    the cue's start and end, in proportion to their tokens)."""
    known = [x for sp in spans for x in sp if not math.isnan(x)]
    if not known:
        return [(float(i), float(i + 1)) for i in range(len(spans))]
    pos = np.concatenate([[0], np.cumsum(sizes)]).astype(float)
    # Doubled positions keep anchors distinct: unit i's end (2p) comes before unit i+1's
    # start (2p + 1) although both sit at token position p.
    xs = np.concatenate([2 * pos[:-1] + 1, 2 * pos[1:]])
    ys = np.asarray([s for s, _ in spans] + [e for _, e in spans], dtype=float)
    ok = ~np.isnan(ys)
    order = np.argsort(xs[ok])  # np.interp needs increasing anchors
    filled = np.where(ok, ys, np.interp(xs, xs[ok][order], ys[ok][order]))
    n = len(spans)
    out = [(float(filled[i]), float(filled[n + i])) for i in range(n)]
    for i in range(1, n):
        # A missing start right after a missing end (an SRT line break): make them meet.
        if not ok[i] and not ok[n + i - 1] and out[i - 1][1] <= out[i][1]:
            out[i] = (out[i - 1][1], out[i][1])
    return out


def _spread(start: float, end: float, n: int) -> tuple[list[float], list[float]]:
    """Evenly spaced token spans covering [start, end]."""
    edges = [float(x) for x in np.linspace(start, end, n + 1)]
    return edges[:-1], edges[1:]


def write(doc: Document, path: Path, *, losses: LossReport, **options: Any) -> None:
    """Write ``doc`` as a long-form TextGrid (see the module docstring).

    Options:
        layer: the unit layer to write (default: ``iu`` or the first layer).
        word_tiers: True/False to force word tiers on/off; None decides (see above).
        format: ``long`` (default) or ``short``.
    """
    check_options(options, _WRITE_OPTIONS, "TextGrid writer")
    check_times(doc, path)
    fmt = options.get("format", "long")
    if fmt not in ("long", "short"):
        raise UsageError(f"TextGrid format must be 'long' or 'short', got {fmt!r}")
    layer = unit_layer_to_write(doc, losses, "TextGrid", options.get("layer"))
    extra = doc.meta_columns()
    note_dropped_columns(doc, extra, "a TextGrid", losses)
    units = doc.units(layer.name) if doc.speakers else []  # (speaker_rows needs a speaker)
    spans, invented = _unit_spans(doc, units, losses)
    _note_reordering(doc, units, spans, losses)
    per_speaker, need_words = _speaker_items(doc, units, spans, invented, layer.scheme, options, losses)
    # The file's range: a TextGrid reader's (kept in meta), widened to hold every unit.
    meta_min, meta_max = _meta_time(doc.meta.get("xmin")), _meta_time(doc.meta.get("xmax"))
    xmin = min([0.0 if meta_min is None else meta_min] + [s for s, _ in spans])
    xmax = max([e for _, e in spans] + [xmin + _MIN_DURATION] + ([] if meta_max is None else [meta_max]))
    tier_entries, xmax = _tier_entries(doc, per_speaker, xmax, losses)
    kept_ranges = doc.meta.get("tier_ranges")
    ranges: dict[str, Any] = kept_ranges if isinstance(kept_ranges, dict) else {}
    out_tiers: list[PraatTier] = []
    for speaker, (unit_entries, word_entries) in tier_entries.items():
        out_tiers.append(_tier(speaker, unit_entries, xmin, xmax, ranges))
        if need_words:
            out_tiers.append(_tier(f"{speaker}/words", word_entries, xmin, xmax, ranges))
    _note_unreadable(per_speaker, need_words, losses)
    text = dump_textgrid(TextGridFile(xmin, xmax, out_tiers), long=fmt == "long")
    path.write_text(text, encoding="utf-8")


_Item = tuple[float, float, str, list[str], list[float], list[float]]  # span, label, tokens, word spans
_Entry = tuple[float, float, str]


def _unit_spans(doc: Document, units: list[Any], losses: LossReport) -> tuple[list[tuple[float, float]], bool]:
    """Each unit's (start, end); missing times interpolated by token count (reported), and
    whether any was."""
    starts = doc.tokens["start"].to_numpy(dtype=float)
    ends = doc.tokens["end"].to_numpy(dtype=float)
    # Python floats: praatio writes repr(), and repr(np.float64) is not a number to Praat.
    spans = [(float(starts[u.rows[0]]), float(ends[u.rows[-1]])) for u in units]
    missing = sum(1 for s, e in spans if math.isnan(s) or math.isnan(e))
    if missing:
        # Said from the times known before filling (after it, every time is known).
        known = any(not math.isnan(x) for sp in spans for x in sp)
        spans = _fill_spans(spans, [len(u.rows) for u in units])
        how = (
            "their times were interpolated by token count between the known times"
            if known
            else "every unit was given 1 s in discourse order (no unit has a time)"
        )
        losses.add("times-invented", f"{missing} of {len(units)} units have no start or end time; {how}")
    return spans, missing > 0


def _note_reordering(doc: Document, units: list[Any], spans: list[tuple[float, float]], losses: LossReport) -> None:
    """The reader puts units in discourse order by start time (ties: tier order, then interval
    order); a document in another order comes back reordered."""
    tier_of = {s: i for i, s in enumerate(doc.speakers)}
    reread = sorted(range(len(units)), key=lambda i: (spans[i][0], tier_of[units[i].speaker], i))
    moved = sum(1 for pos, i in enumerate(reread) if i != pos)
    if moved:
        losses.add(
            "reordered",
            "units not in order of start time are read back in time order (a TextGrid orders intervals by time)",
            count=moved,
        )


def _speaker_items(
    doc: Document,
    units: list[Any],
    spans: list[tuple[float, float]],
    invented: bool,
    scheme: BoundaryScheme,
    options: dict[str, Any],
    losses: LossReport,
) -> tuple[dict[str, list[_Item]], bool]:
    """Per speaker, each unit's span, label, tokens and word spans (spread evenly where not
    known); and whether word tiers are written (forced, or needed to give the tokens back)."""
    tok = doc.tokens
    glued = doc.meta.get("endnote_style") == "glued"
    texts = tok["text"].astype(str).tolist()
    starts = tok["start"].to_numpy(dtype=float)
    ends = tok["end"].to_numpy(dtype=float)
    per_speaker: dict[str, list[_Item]] = {s: [] for s in doc.speakers}
    forced = options.get("word_tiers")
    need_words = bool(forced)
    decide = forced is None
    word_times_invented = inner_times = labels_lossy = 0
    for unit, (us, ue) in zip(units, spans, strict=True):
        toks = [texts[r] for r in unit.rows]
        ws = [float(starts[r]) for r in unit.rows]
        we = [float(ends[r]) for r in unit.rows]
        has_inner = not invented and (any(not math.isnan(x) for x in ws[1:]) or any(not math.isnan(x) for x in we[:-1]))
        label_ok = _label_round_trips(toks, unit.boundary, scheme)
        if decide and (has_inner or not label_ok):
            need_words = True
        inner_times += has_inner
        labels_lossy += not label_ok
        complete = not invented and not any(math.isnan(x) for x in ws + we)
        ordered = all(a < b for a, b in zip(ws, we, strict=True)) and all(
            we[i] <= ws[i + 1] + _EPS for i in range(len(toks) - 1)
        )
        if not (complete and ordered):
            if len(toks) > 1:
                word_times_invented += 1
            ws, we = _spread(us, ue, len(toks))
        label = _label(toks, unit.boundary, scheme, glued)
        per_speaker[unit.speaker].append((us, ue, label, toks, ws, we))
    if not need_words and inner_times:
        losses.add("times-dropped", "word times inside units are not written (word_tiers=False)", count=inner_times)
    if not need_words and labels_lossy:
        losses.add(
            "tokens-changed",
            "units whose tokens a label cannot give back (spaces inside tokens, empty tokens) and no word tier",
            count=labels_lossy,
        )
    if need_words and word_times_invented:
        losses.add(
            "times-invented",
            f"{word_times_invented} units have no word times; their word intervals were spread evenly over the unit",
        )
    return per_speaker, need_words


def _tier_entries(
    doc: Document, per_speaker: dict[str, list[_Item]], xmax: float, losses: LossReport
) -> tuple[dict[str, tuple[list[_Entry], list[_Entry]]], float]:
    """Per speaker, the unit and word intervals of its tiers: overlaps moved and zero durations
    widened (both reported); and the file's end, widened to hold them."""
    n_overlap = n_zero = 0
    tier_entries: dict[str, tuple[list[_Entry], list[_Entry]]] = {}
    for speaker in doc.speakers:
        items = sorted(per_speaker[speaker], key=lambda x: (x[0], x[1]))
        unit_entries: list[_Entry] = []
        word_entries: list[_Entry] = []
        prev_end = -math.inf
        for us, ue, label, toks, ws, we in items:
            if us < prev_end:
                # One speaker's intervals cannot overlap on one tier; even a nanosecond's move
                # (a reader tolerates that much) is a change the report must name.
                n_overlap += 1
                us = prev_end
            if ue - us < _MIN_DURATION / 10:
                n_zero += 1
                ue = us + _MIN_DURATION
                if ue > MAX_SECONDS:  # widen backwards at the ten-day ceiling
                    ue = MAX_SECONDS
                    us = max(prev_end, ue - _MIN_DURATION)
            if (us, ue) != (ws[0], we[-1]):
                ws, we = _fit_words(us, ue, ws, we)
            unit_entries.append((float(us), float(ue), label))
            word_entries.extend((float(a), float(b), t) for a, b, t in zip(ws, we, toks, strict=True))
            prev_end = ue
            xmax = max(xmax, ue)
        tier_entries[speaker] = (unit_entries, word_entries)
    if n_overlap:
        losses.add(
            "overlap",
            f"{n_overlap} units overlap an earlier unit of the same speaker; "
            "their start was moved to the earlier unit's end",
        )
    if n_zero:
        losses.add("times-rounded", f"{n_zero} units had no duration; they were widened to {_MIN_DURATION * 1000:g} ms")
    return tier_entries, xmax


def _fit_words(us: float, ue: float, ws: list[float], we: list[float]) -> tuple[list[float], list[float]]:
    """Word times that still fit inside the (moved) unit ``us``-``ue``, else spread evenly."""
    cs = [min(max(x, us), ue) for x in ws]
    ce = [min(max(x, us), ue) for x in we]
    bad = any(a >= b for a, b in zip(cs, ce, strict=True)) or any(ce[i] > cs[i + 1] for i in range(len(ws) - 1))
    return _spread(us, ue, len(ws)) if bad else (cs, ce)


def _tier(name: str, entries: list[_Entry], xmin: float, xmax: float, ranges: dict[str, Any]) -> PraatTier:
    """An interval tier over the file's range, or over its own kept range when it still fits
    (Praat allows one narrower than the file's)."""
    lo, hi = xmin, xmax
    kept = ranges.get(name)
    if isinstance(kept, list) and len(kept) == 2:
        a, b = _meta_time(kept[0]), _meta_time(kept[1])
        if a is not None and b is not None and xmin <= a <= b <= xmax:
            if all(a - _EPS <= s and e <= b + _EPS for s, e, _ in entries):
                lo, hi = a, b
    items = [PraatItem(max(s, lo), min(e, hi), lab, 0) for s, e, lab in entries]
    return PraatTier(name, True, lo, hi, items, 0)


def _meta_time(value: Any) -> float | None:
    """A time kept in ``meta`` by a reader, if it is one a TextGrid can hold."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
        if 0 <= value <= MAX_SECONDS:
            return float(value)
    return None


def _note_unreadable(per_speaker: dict[str, list[Any]], need_words: bool, losses: LossReport) -> None:
    """Units and tokens the TextGrid reader will not give back: a label that reads as a pause
    (a unit of ``#`` from a .rez), and with word tiers, tokens that are empty, hold whitespace
    or read as pauses."""
    gaps = {""} | set(DEFAULT_GAP_LABELS)
    gap_units: list[str] = []
    bad_tokens = 0
    for speaker, items in per_speaker.items():
        for _us, _ue, label, toks, _ws, _we in items:
            if label.strip() in gaps:
                gap_units.append(f"{speaker}: {label.strip()!r}")
            elif need_words:
                # (a word label is read stripped: a token with spaces around it comes back without them)
                bad_tokens += sum(1 for t in toks if t.strip() in gaps or t.split() != [t])
    losses.add_items(
        "units-dropped",
        "units whose whole text is a pause label read back as gaps",
        gap_units,
    )
    if bad_tokens:
        losses.add(
            "tokens-changed",
            "tokens that are empty, hold whitespace or are pause labels do not read back as one token",
            count=bad_tokens,
        )


ADAPTER = Adapter(
    name="textgrid",
    extensions=(".textgrid",),
    description="Praat TextGrid (long/short, UTF-8/UTF-16): one interval tier per speaker",
    read=read,
    write=write,
)
