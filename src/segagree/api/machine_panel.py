"""``segagree.panel``: is the segmenter as good as a person? (Fournier & Inkpen 2012, section 3.4)."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from segagree.api.common import PathLike, check_seed, writes_outputs
from segagree.errors import UsageError

#: What every number of a panel means (also in the JSON and ``segagree panel --help``).
DEFINITIONS: dict[str, str] = {
    "added": "the coefficient of the humans alone, of the humans with the machine, and the change "
    "(Fournier & Inkpen 2012, section 3.4: a drop means the machine is less reliable than the group)",
    "replaced": "the machine takes each human's place in turn (Medelyan & Witten 2006): the mean coefficient "
    "of those panels, and its change from the humans' own",
    "consistency": "the machine's mean similarity to each human, beside each human's mean similarity to the "
    "other humans; rank 1 = most consistent",
    "human_changes": "the 'added' change each human causes when held out and added back: the human range "
    "the machine's change is read against",
    "chance": "the coefficient on panels of random segmentations keeping each annotator's own number of "
    "boundaries per item (permutation), and the observed value corrected for it",
    "interval": "percentile bootstrap interval over items (texts, or speaker streams of texts), paired: the "
    "same resampled items for both panels of a change",
    "rank": "the machine's rank among the humans, by what the verdict reads: its change among the held-out "
    "humans' changes (three humans or more), else its consistency among theirs (two humans)",
    "verdict": "the machine's value read against the humans' range of it, with its rank, and a word when the "
    "humans themselves agree at or below chance",
}


class PanelResult(dict[str, Any]):
    """A panel's numbers as the ``panel --json`` keys: ``measure``, ``coefficient``, ``humans``,
    ``machines`` (name -> ``added``, ``replaced``, ``consistency``, ``human_changes``, ``chance``,
    ``verdict``), ``per_text``, ``notes`` and ``definitions``."""

    @property
    def machines(self) -> dict[str, dict[str, Any]]:
        """machine -> its results."""
        return dict(self["results"])

    @property
    def verdicts(self) -> dict[str, str]:
        """machine -> its verdict in words."""
        return {m: r["verdict"] for m, r in self["results"].items()}

    def to_frame(self) -> Any:
        """A pandas DataFrame: a row per machine (the humans' coefficient, with the machine, the change
        and its interval, the humans' range, rank, chance, verdict); see :mod:`segagree.api.frames`."""
        from segagree.api.frames import panel_frame

        return panel_frame(self)

    def __repr__(self) -> str:
        from segagree.api.frames import names

        verdicts = {m: str(v).split(":")[0] for m, v in self.verdicts.items()} if self.get("results") else {}
        return (
            f"PanelResult(coefficient={self.get('coefficient')!r}, humans={names(self.get('humans') or [])}, "
            f"verdicts={verdicts!r})"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(repr(self))


@writes_outputs("out")
def panel(
    source: PathLike | Sequence[PathLike] | None,
    machines: str | Sequence[str],
    *,
    humans: Sequence[str] | None = None,
    dataset: PathLike | Mapping[str, Mapping[str, Sequence[int]]] | None = None,
    measure: str = "b",
    coefficient: str = "pi",
    n_boot: int = 1000,
    n_perm: int = 200,
    seed: int = 12345,
    level: float = 0.95,
    layer: str | None = None,
    scheme: Any = None,
    normalise_speakers: bool = True,
    speaker_map: Mapping[str, str] | None = None,
    format: str | None = None,
    read_options: Mapping[str, Any] | None = None,
    time: bool = False,
    params: Mapping[str, Any] | None = None,
    category: str = "label",
    out: PathLike | None = None,
    reference: str | Sequence[str] = (),
    pairer: Any = None,
) -> PanelResult:
    """Judge one or more segmenters against a panel of human annotators (Fournier & Inkpen 2012,
    section 3.4; Medelyan & Witten 2006).

    For each machine: the coefficient of the humans with and without it (``added``), with it in each
    human's place (``replaced``), its consistency rank among the humans, each held-out human's own
    change, the chance level of the coefficient, bootstrap intervals over items, and a verdict.

    Args:
        source: a corpus folder in ``run``'s layout, or the files of one text (None with ``dataset``).
        machines: the annotators judged as segmenters (annotator names, as ``run`` reads them).
        humans: the human annotators (default: every annotator not a machine).
        dataset: a segeval JSON dataset (path or ``{item: {coder: masses}}``) instead of files.
        measure: ``b`` (Boundary Similarity, the default), ``s`` (Segmentation Similarity), or S_f
            and S_f^B (``sf``, ``sf_b``: typed boundaries in the scheme, Lai, Li & Zhang 2023).
        coefficient: ``pi`` (Fleiss' multi-pi, the default) or ``kappa`` (multi-kappa).
        n_boot: bootstrap resamples of the items; n_perm: random panels for the chance level.
        seed: seed of the bootstrap and of the random panels.
        layer, scheme, normalise_speakers, speaker_map: how annotations are read and paired (as ``agree``).
        format, read_options: how files are read (as ``compare``).
        time: annotators who drew their own units in time: the panel's coefficient is gamma
            (``params``: gamma's parameters; ``category``: ``label``, ``endnote`` or ``none``, as
            :func:`agree_time`); ``measure``, ``coefficient`` and ``dataset`` do not apply.
        out: a folder to write ``panel.csv`` (the summary schema), ``panel.json`` and ``panel.html``
            into; their paths are the result's ``outputs``.
        reference: reference machines (such as the pause baseline, :func:`segagree.pause_baseline`),
            judged like the others and added to ``machines`` if missing; every other machine's
            verdict then begins by where its change stands against each reference's ("above the
            pause baseline, ..."), also under ``against_reference``.
        pairer: how two annotations of a text are paired (``(a, b) -> AnnotationPair``) instead of
            ``layer``, ``scheme`` and the speaker options (``run --machine`` pairs them as its tasks).

    Raises:
        UsageError: an unknown machine or human, fewer than two humans, bad options.

    Examples:
        In the sample corpora (``segagree demo DIR`` copies them)::

            >>> result = segagree.panel("panel", "seg", n_boot=200, n_perm=50)
            >>> print(result["results"]["seg"]["verdict"])
            below the human range: rank 4 of 4 by change; change -0.190 [-0.261, -0.141]
            against the humans' -0.028 to +0.030
    """
    names = [machines] if isinstance(machines, str) else list(machines)
    check_seed(seed)
    references = [reference] if isinstance(reference, str) else list(reference)
    names += [r for r in references if r not in names]
    return _against_reference(
        _judged(
            source,
            names,
            humans,
            dataset=dataset,
            measure=measure,
            coefficient=coefficient,
            n_boot=n_boot,
            n_perm=n_perm,
            seed=seed,
            level=level,
            layer=layer,
            scheme=scheme,
            normalise_speakers=normalise_speakers,
            speaker_map=speaker_map,
            format=format,
            read_options=read_options,
            time=time,
            params=params,
            category=category,
            out=None,
            pairer=pairer,
            planned_out=out,
        ),
        references,
        out,
    )


def _against_reference(result: PanelResult, references: Sequence[str], out: PathLike | None) -> PanelResult:
    """Each non-reference machine's change read against each reference machine's (the verdict's start)."""
    machines = result["results"]
    for name, r in machines.items():
        if name in references:
            continue
        mine = r["added"]["change"]
        readings = {}
        for ref in references:
            theirs = machines[ref]["added"]["change"]
            if mine is None or theirs is None:
                continue
            side = "above" if mine > theirs + 1e-12 else "below" if mine < theirs - 1e-12 else "level with"
            readings[ref] = {"change": theirs, "reading": side}
        if readings:
            r["against_reference"] = readings
            said = ", ".join(f"{v['reading']} the {ref} baseline" for ref, v in readings.items())
            r["verdict"] = f"{said}, {r['verdict']}"
    return _written(result, out)


def _judged(
    source: PathLike | Sequence[PathLike] | None,
    names: list[str],
    humans: Sequence[str] | None,
    *,
    dataset: PathLike | Mapping[str, Mapping[str, Sequence[int]]] | None,
    measure: str,
    coefficient: str,
    n_boot: int,
    n_perm: int,
    seed: int,
    level: float,
    layer: str | None,
    scheme: Any,
    normalise_speakers: bool,
    speaker_map: Mapping[str, str] | None,
    format: str | None,
    read_options: Mapping[str, Any] | None,
    time: bool,
    params: Mapping[str, Any] | None,
    category: str,
    out: PathLike | None,
    pairer: Any = None,
    planned_out: PathLike | None = None,
) -> PanelResult:
    """:func:`panel`'s numbers (its arguments, ``names`` the machines; ``planned_out``: the folder
    the result will be written into, checked once the inputs are read)."""
    from segagree.metrics.chance.panel import panel_statistics

    if time:
        from segagree.metrics.unitizing.gamma import GammaMeasure

        gamma = GammaMeasure.card.name
        if dataset is not None or measure not in ("b", gamma) or coefficient not in ("pi", gamma):
            # (b and pi are the defaults: not given)
            raise UsageError(
                "with time=True the panel's coefficient is gamma: measure, coefficient and dataset do not apply"
            )
        if source is None:
            raise UsageError("give a corpus folder or the files of one text")
        return _written(time_panel(
            source, names, humans, n_boot=n_boot, seed=seed, level=level, params=params, category=category,
            layer=layer, scheme=scheme, format=format, read_options=read_options, speaker_map=speaker_map,
        ), out)  # fmt: skip
    if params:
        raise UsageError("params are gamma's parameters: they apply with time=True")
    from segagree.metrics.chance.sf_panel import SF_SIMILARITIES

    if measure not in ("b", "s", *SF_SIMILARITIES):
        raise UsageError(f"unknown measure {measure!r}; expected one of {', '.join(('b', 's', *SF_SIMILARITIES))}")
    if (source is None) == (dataset is None):
        raise UsageError("give either a corpus folder or files, or a segeval dataset (dataset=), not both")
    if dataset is not None and (read_options or format or layer):
        raise UsageError("reading options (format, read_options, layer) do not apply to a segeval dataset")
    panel_input, chosen, names = _token_panel_input(
        source, names, humans, dataset, layer=layer, scheme=scheme, normalise_speakers=normalise_speakers,
        speaker_map=speaker_map, format=format, read_options=read_options, pairer=pairer,
    )  # fmt: skip
    _check_outputs(planned_out or out)  # every input is read: an output over one is refused before the statistics
    boot: dict[str, Any] = {"n_boot": n_boot, "n_perm": n_perm, "seed": seed, "level": level}
    if measure in SF_SIMILARITIES:
        from segagree.metrics.chance.sf_panel import sf_panel_statistics

        if panel_input.scheme is None:
            raise UsageError("S_f and S_f^B need annotation files (typed boundaries), not a segeval dataset")
        numbers = sf_panel_statistics(
            panel_input.codes, names, panel_input.scheme, humans=chosen, similarity=measure, coefficient=coefficient,
            **boot,
        )  # fmt: skip
    else:
        numbers = panel_statistics(
            panel_input.dataset, names, humans=chosen, similarity=measure, coefficient=coefficient, **boot
        ).to_dict()
    return _written(_finish(numbers, panel_input.texts, panel_input.item_text, panel_input.notes), out)


def _token_panel_input(
    source: PathLike | Sequence[PathLike] | None,
    machines: list[str],
    humans: Sequence[str] | None,
    dataset: PathLike | Mapping[str, Mapping[str, Sequence[int]]] | None,
    *,
    layer: str | None,
    scheme: Any,
    normalise_speakers: bool,
    speaker_map: Mapping[str, str] | None,
    format: str | None,
    read_options: Mapping[str, Any] | None,
    pairer: Any = None,
) -> tuple[Any, list[str], list[str]]:
    """The token panel's input (:func:`segagree.corpus.panel.read_panel`), its humans and machines:
    from a segeval dataset (a path or a mapping), or from files read as ``compare`` reads them."""
    from segagree.corpus.panel import read_panel

    if dataset is not None:
        if not isinstance(dataset, Mapping):
            from segagree.scoring.tokens.agreement import load_segeval_json

            dataset = load_segeval_json(Path(dataset))
        return read_panel(dataset, machines, humans)
    paths: Path | list[Path] = (
        Path(source) if isinstance(source, str | os.PathLike) else [Path(p) for p in source]  # type: ignore[union-attr]
    )
    reading = dict(read_options or {})
    if format:
        reading["fmt"] = format
    if scheme is not None:
        reading["scheme"] = scheme
    return read_panel(
        paths,
        machines,
        humans,
        reader_options=reading,
        layer=layer,
        scheme=scheme if not isinstance(scheme, str) else None,
        normalise_speakers=normalise_speakers,
        speaker_map=speaker_map,
        pairer=pairer,
    )


def _check_outputs(out: PathLike | None) -> None:
    if out is not None:
        from segagree.files.atomic import check_output
        from segagree.outputs.panel import panel_paths

        for path in panel_paths(Path(out)).values():
            check_output(path)


def _written(result: PanelResult, out: PathLike | None) -> PanelResult:
    """``result``, with its outputs written into ``out`` (and their paths as ``outputs``) if given."""
    if out is not None:
        from segagree.outputs.panel import write_panel

        result["outputs"] = write_panel(Path(out), result)
    return result


def _finish(out: Mapping[str, Any], texts: list[str], item_text: Mapping[str, str], notes: list[str]) -> PanelResult:
    """The statistics as plain JSON types (tuples to lists, numpy numbers to floats), with the texts,
    the notes and the definitions."""
    result = json.loads(json.dumps(out))
    result.update(texts=texts, item_text=dict(item_text), notes=list(notes), definitions=dict(DEFINITIONS))
    return PanelResult(result)


def time_panel(
    source: PathLike | Sequence[PathLike],
    machines: list[str],
    humans: Sequence[str] | None,
    *,
    n_boot: int,
    seed: int,
    level: float,
    params: Mapping[str, Any] | None,
    category: str,
    layer: str | None,
    scheme: Any,
    format: str | None,
    read_options: Mapping[str, Any] | None,
    speaker_map: Mapping[str, str] | None,
    how: Any = None,
) -> PanelResult:
    """The panel with gamma: each text's files read as ``run --time`` reads them (one file per
    annotator; ``how``, a :class:`~segagree.scoring.time.units.UnitReading`, overrides the reading
    arguments), an item per speaker of each text."""
    from segagree.corpus.panel import files_of_texts
    from segagree.metrics.chance.panel_frame import choose_members
    from segagree.metrics.unitizing.gamma_panel import gamma_panel, unshared_labels
    from segagree.scoring.time.reading import read_annotator_files
    from segagree.scoring.time.units import UnitReading

    paths: Path | list[Path] = Path(source) if isinstance(source, str | os.PathLike) else [Path(p) for p in source]
    texts, notes = files_of_texts(paths)
    found = list(dict.fromkeys(a for files in texts.values() for a in files))
    chosen, machines = choose_members(found, machines, humans)
    order = [*chosen, *machines]
    how = how or UnitReading(
        category=category, fmt=format, scheme=scheme, layer=layer, options=dict(read_options or {}),
        speaker_map=speaker_map,
    )  # fmt: skip
    items = {}
    item_text = {}
    for text, files in texts.items():
        lacking = [a for a in order if a not in files]
        if lacking:
            notes.append(f"{text}: left out (no annotation by {', '.join(lacking)})")
            continue
        timed = read_annotator_files({a: files[a] for a in order}, how)
        notes.extend(f"{text}: {n}" for n in timed.notes)
        for speaker, units in timed.speakers.items():
            item = text if len(timed.speakers) == 1 else f"{text} [{speaker}]"
            items[item], item_text[item] = units, text
    out = gamma_panel(items, machines, humans=chosen, params=params, n_boot=n_boot, seed=seed, level=level)
    notes.extend(unshared_labels(items, machines, chosen))
    return _finish(out, list(dict.fromkeys(item_text.values())), item_text, notes)
