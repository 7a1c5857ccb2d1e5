"""S-BLEU, T-BLEU and TBHR: BLEU of subtitle blocks, by position and by time.

* **S-BLEU** (Matusov, Wilken & Georgakopoulou 2019, *Customizing Neural Machine Translation for
  Subtitling*, WMT): sacrebleu corpus BLEU of hypothesis block i against reference block i, the
  line breaks removed; it needs the same number of blocks on both sides (else not applicable, with
  the counts). SubER's ``BLEU`` on subtitle files: blocks are suber's SRT subtitles; on tagged text,
  the words between two ``<eob>``.
* **T-BLEU** (Cherry, Arivazhagan, Padfield & Krikun 2021, *Subtitle Translation as Markup
  Translation*, Interspeech): BLEU after the hypothesis is re-segmented by time, SubER's
  ``t-BLEU``. suber gives each hypothesis word an approximate time, interpolated linearly *by word
  position* between its subtitle's start and end (``numpy.linspace`` over the words, the ends
  pulled in by 1e-8 s; characters play no part); the word then goes to the reference subtitle
  with the latest start strictly before that time, and only if the time is also strictly before
  that subtitle's end. So a word whose time lands exactly on a cue boundary shared by two
  reference subtitles (one ends where the next starts) belongs to neither and is dropped, as are
  words before the first or after the last reference subtitle. Needs times on both sides.
* **TBHR** (T-BLEU headroom, Cherry et al. 2021): AS-BLEU minus T-BLEU, the BLEU that re-timing
  alone (moving block boundaries to their best positions, which AS-BLEU's Levenshtein
  re-segmentation approximates) would recover. AS-BLEU is only an approximate upper bound, so
  TBHR can be negative; such values are flagged (``negative: true``).

The numbers are SubER's own (its functions, rounded to 3 decimals as its command line prints
them); TBHR is the difference of those rounded numbers, rounded to 3 decimals. Over several
texts, the segments are concatenated as suber's multi-file mode does (times shifted).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from segagree.metrics.subtitles.measures import (
    Context,
    SubtitleMeasure,
    measure,
    shifted_segments,
    suber_problem,
    subtitle_card,
)
from segagree.metrics.subtitles.scores import NotApplicable, suber_scores
from segagree.metrics.subtitles.views import PairData

__all__ = ["MEASURES", "S_BLEU", "TBHR", "T_BLEU", "block_segments"]

_M2019 = "Matusov, Wilken & Georgakopoulou (2019), Customizing Neural Machine Translation for Subtitling, WMT (S-BLEU)"
_C2021 = (
    "Cherry, Arivazhagan, Padfield & Krikun (2021), Subtitle Translation as Markup Translation, Interspeech "
    "(T-BLEU, TBHR)"
)
_SUBER = "suber 0.4 (subtitle-edit-rate) command line"
_PARAMETERS = {"tokenize": "13a", "language": "none (zh/ja/ko: SubER's -l)"}

S_BLEU = subtitle_card(
    name="s_bleu",
    title="S-BLEU (BLEU of subtitle blocks)",
    definition="sacrebleu corpus BLEU of hypothesis block i against reference block i, line breaks removed; "
    "not applicable when the block counts differ",
    citation=_M2019,
    parameters=_PARAMETERS,
    library="suber calculate_sacrebleu_metric (sacrebleu BLEU)",
    reference=f"{_SUBER}: BLEU on SRT files",
)
T_BLEU = subtitle_card(
    name="t_bleu",
    title="T-BLEU (time-aligned BLEU)",
    definition="BLEU after each hypothesis word is placed in the reference subtitle whose time span holds its "
    "approximate time (interpolated by word position within its own subtitle); a word landing exactly on a cue "
    "boundary shared by two reference subtitles is dropped",
    citation=_C2021,
    parameters=_PARAMETERS,
    library="suber time_align_hypothesis_to_reference + calculate_sacrebleu_metric",
    reference=f"{_SUBER}: t-BLEU",
    notes="needs subtitle times on both sides (SRT or another timed format)",
)
TBHR = subtitle_card(
    name="tbhr",
    title="TBHR (T-BLEU headroom)",
    definition="AS-BLEU minus T-BLEU: what fixing only the block boundaries would recover; negative values are "
    "flagged, since AS-BLEU is only an approximate upper bound",
    citation=_C2021,
    parameters=_PARAMETERS,
    better="lower",
    library="suber (AS-BLEU, t-BLEU)",
    reference=f"{_SUBER}: AS-BLEU minus t-BLEU",
)


def block_segments(segments: Sequence[Any]) -> list[Any]:
    """The subtitle blocks of suber segments: SRT subtitles as they are; plain segments (tagged-text
    lines) cut after every end-of-block break."""
    from suber.data_types import LineBreak, Segment, Subtitle

    if all(isinstance(s, Subtitle) for s in segments):
        return list(segments)
    out: list[Any] = []
    cur: list[Any] = []
    for seg in segments:
        for w in seg.word_list:
            cur.append(w)
            if w.line_break == LineBreak.END_OF_BLOCK:
                out.append(Segment(word_list=cur))
                cur = []
        if cur:
            out.append(Segment(word_list=cur))
            cur = []
    return out


def _s_bleu_family(data: Sequence[PairData], ctx: Context) -> dict[str, dict[str, Any]]:
    problem = suber_problem(data)
    if problem:
        return {S_BLEU.name: NotApplicable(problem).to_dict()}
    hyp, ref = (block_segments([s for d in data for s in (side(d).segments or [])]) for side in _SIDES)
    if len(hyp) != len(ref):
        reason = (
            f"the hypothesis has {len(hyp)} blocks and the reference {len(ref)}; S-BLEU compares block i with "
            "block i (t_bleu or SubER's AS-BLEU re-segment the hypothesis)"
        )
        return {
            S_BLEU.name: NotApplicable(
                reason, {"n_hypothesis_blocks": len(hyp), "n_reference_blocks": len(ref)}
            ).to_dict()
        }
    values, skipped = suber_scores(hyp, ref, ["BLEU"], language=ctx.opts.language, bleus=ctx.bleus)
    if "BLEU" not in values:
        return {S_BLEU.name: NotApplicable(skipped.get("BLEU", "not computable")).to_dict()}
    return {S_BLEU.name: {"value": values["BLEU"], "n_blocks": len(ref)}}


_SIDES = (lambda d: d.hypothesis, lambda d: d.reference)


def _time_family(data: Sequence[PairData], ctx: Context) -> dict[str, dict[str, Any]]:
    problem = suber_problem(data)
    if problem:
        na = NotApplicable(problem).to_dict()
        return {T_BLEU.name: na, TBHR.name: dict(na)}
    hyp, ref = shifted_segments(data)
    lang = ctx.opts.language
    t_vals, t_skip = suber_scores(hyp, ref, ["t-BLEU"], language=lang, bleus=ctx.bleus)
    if "t-BLEU" not in t_vals:
        na = NotApplicable(t_skip.get("t-BLEU", "not computable")).to_dict()
        return {T_BLEU.name: na, TBHR.name: dict(na)}
    t_bleu = t_vals["t-BLEU"]
    out: dict[str, dict[str, Any]] = {T_BLEU.name: {"value": t_bleu, "n_reference_subtitles": len(ref)}}
    if TBHR.name in ctx.names:
        as_vals, as_skip = suber_scores(hyp, ref, ["AS-BLEU"], language=lang, bleus=ctx.bleus)
        if "AS-BLEU" not in as_vals:
            out[TBHR.name] = NotApplicable(as_skip.get("AS-BLEU", "not computable")).to_dict()
        else:
            head = round(as_vals["AS-BLEU"] - t_bleu, 3)
            out[TBHR.name] = {"value": head, "as_bleu": as_vals["AS-BLEU"], "t_bleu": t_bleu, "negative": head < 0}
            if head < 0:
                out[TBHR.name]["note"] = "negative: AS-BLEU is only an approximate upper bound of T-BLEU"
    return out


MEASURES: tuple[SubtitleMeasure, ...] = (
    measure(S_BLEU, _s_bleu_family),
    measure(T_BLEU, _time_family),
    measure(TBHR, _time_family),
)
