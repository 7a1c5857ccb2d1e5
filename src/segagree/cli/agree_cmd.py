"""``segagree agree FILE FILE [FILE...]`` and ``segagree agree --dataset segeval.json``:
chance-corrected agreement (see :mod:`segagree.scoring.tokens.agreement`)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

import segagree.api as api
from segagree.cli.agree_time import given_seed, time_options
from segagree.cli.common import (
    AT_LEAST_ONE,
    Reading,
    SpeakerLabels,
    check_applicable,
    chosen_time_measures,
    count_option,
    description_column,
    examples,
    fmt_score,
    json_option,
    max_mismatch_option,
    mode_option,
    new_progress,
    print_json,
    quiet_option,
    reading_options,
    say_unpaired,
    scheme_option,
    seed_option,
    show,
    speaker_labels_option,
    stdout,
)
from segagree.cli.tables import ScoreTable

CHANCE = tuple(api.CHANCE_MODELS)
EXISTING = click.Path(dir_okay=False, path_type=Path)
_DEFINITIONS = """Definitions: kappa = (S - E[S]) / (1 - E[S]), E[S] the expected similarity of chance
annotations drawn from each annotator's boundary-type distribution (Cohen; Scott pools
the two; Bennett makes the types equiprobable), simulated --sims times per speaker with
--seed (Lai, Li & Zhang 2023, section 5). Multi-pi, multi-kappa and bias for three or
more annotators follow Artstein & Poesio (2008)."""


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[Callable[[int], None] | None]:
    if not enabled or total <= 0:
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TimeRemainingColumn

    with new_progress(description_column(), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn()) as bar:
        task = bar.add_task("simulating chance pairs", total=total)
        yield lambda n: bar.advance(task, n)


@click.command(
    epilog=_DEFINITIONS
    + "\n\n"
    + examples(
        "segagree agree garden.ann1.txt garden.ann2.txt --sims 200 --seed 1",
        "segagree agree garden.ann1.txt garden.ann2.txt tables/garden.ann2.csv",
        "segagree agree garden.ann1.txt garden.ann2.txt --exact --no-transpositions",
        "segagree agree --time time/kim.TextGrid time/lee.TextGrid --tolerance 0.2",
        "segagree agree --time time/gestures.csv --category none --json",
    )
)
@click.argument("files", nargs=-1, type=EXISTING)
@click.option(
    "--dataset",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A segeval JSON dataset (items x coders, masses) instead of files.",
)
@count_option("--sims", "Simulated chance pairs per speaker (K).", default=api.DEFAULT_SIMS, metavar="K")
@seed_option("Seed of the simulations and the bootstrap.")
@click.option(
    "--chance",
    default=api.DEFAULT_CHANCE,
    show_default=True,
    type=click.Choice(CHANCE, case_sensitive=False),
    help="Chance model.",
)
@click.option(
    "--exact",
    is_flag=True,
    help="Exact chance expectation of S_f instead of simulating; with --no-transpositions only.",
)
@click.option(
    "--mc-tolerance",
    type=click.FloatRange(min=0, min_open=True),
    metavar="SE",
    help="Stop before --sims once both pooled kappas' Monte Carlo standard errors are at most SE.",
)
@count_option(
    "--jobs",
    "Worker processes for the simulations; with --time, for the recordings and speakers (gamma's sampled "
    "continua for one). Same numbers for any value. [default: 1; with --time, every CPU this process may use]",
)
@count_option(
    "--threads",
    "Threads scoring the simulations, in this process or in each --jobs worker (same numbers for any "
    "value). [default: every CPU this process may use; 1 per worker with --jobs N]",
)
@scheme_option
@mode_option
@click.option("--transpositions/--no-transpositions", default=True, help="Let S_f move a boundary (default) or not.")
@click.option("--layer", metavar="NAME", help="Layer to compare (default iu).")
@click.option("--align", is_flag=True, help="Align differing transcripts instead of refusing them.")
@max_mismatch_option
@speaker_labels_option
@reading_options
@click.option("--ci-speakers", is_flag=True, help="Bootstrap intervals over the speakers of the text.")
@click.option("--n-boot", default=1000, show_default=True, type=AT_LEAST_ONE, metavar="N", help="Bootstrap resamples.")
@time_options
@json_option()
@quiet_option
def agree(
    files: tuple[Path, ...],
    dataset: Path | None,
    sims: int,
    seed: int,
    chance: str,
    exact: bool,
    mc_tolerance: float | None,
    jobs: int | None,
    threads: int | None,
    scheme: str | None,
    mode: str,
    transpositions: bool,
    layer: str | None,
    align: bool,
    max_mismatch: float,
    speaker_labels: SpeakerLabels,
    reading: Reading,
    ci_speakers: bool,
    n_boot: int,
    json_out: bool,
    quiet: bool,
    **time_opts: Any,
) -> None:
    """Chance-corrected agreement (kappa) of two or more annotations of a text.

    S_f, S_f^B and their kappas per speaker and pooled; multi-pi, multi-kappa and bias
    for three or more annotators; or S/B agreement of a segeval dataset (--dataset); or, with
    --time, unitizing agreement of annotators who drew their own time spans (gamma, alpha-U,
    u-alpha, ELAN's kappa, boundary F1): no shared transcript needed.
    """
    import segagree.api as api
    from segagree.errors import UsageError

    paths = list(files)
    track = "time" if time_opts["time_mode"] else "dataset" if dataset is not None else "token"
    check_applicable("agree", track, chosen_time_measures(time_opts["measures"]) if track == "time" else None)
    if time_opts.pop("time_mode"):
        from segagree.cli.agree_time import run_time
        from segagree.cpus import usable_cpus

        # jobs: the recordings and speakers scored in parallel (gamma's sample workers for one of them);
        # gamma's alignments take seconds each recording, so both cores by default
        opts = {**time_opts, "seed": given_seed(seed), "jobs": None, "speaker_map": speaker_labels.renames}
        run_time(paths, opts, reading, scheme, layer, json_out, jobs=jobs or usable_cpus())
        return
    if dataset is not None:
        if paths:
            raise UsageError("give either annotation files or --dataset, not both")
        result = api.agree_dataset(dataset, n_boot=n_boot, seed=seed)
        if json_out:
            print_json(result)
        else:
            _print_dataset(result)
        return
    if len(paths) < 2:
        raise UsageError(f"agree needs two or more annotation files of the same text (or --dataset), got {len(paths)}")
    opts = reading.options
    sch = api.load_scheme(scheme)
    from segagree.cli.streams import input_files

    with input_files(paths, reading.format) as local:
        docs = [api.read(p, reading.format, scheme=sch, **opts) for p in local]
    n_speakers = len({s for d in docs for s in d.speakers})
    n_pairs = len(docs) * (len(docs) - 1) // 2
    total = 0 if exact else sims * n_speakers * n_pairs
    show = not quiet and sys.stderr.isatty()
    with _progress(total, show) as progress:
        result = api.agree(
            *docs,
            names=[p.name for p in paths],
            scheme=sch,
            layer=layer,
            align=align,
            max_mismatch=max_mismatch,
            **speaker_labels.api_keywords(),
            mode=mode.lower(),
            transpositions=transpositions,
            chance=chance.lower(),
            exact=exact,
            sims=sims,
            seed=seed,
            jobs=jobs or 1,
            threads=threads,
            ci_over="speakers" if ci_speakers else "texts",
            n_boot=n_boot,
            progress=progress,
            mc_tolerance=mc_tolerance,
        )
    for pair in result.get("pairs") or []:
        say_unpaired(pair.get("unpaired_speakers"), f"{pair['a']} vs {pair['b']}: ")
    if json_out:
        print_json(result)
        return
    _print_documents(result)


def _k(est: dict[str, Any] | None) -> str:
    if not est or est.get("kappa") is None:
        return "-"
    return f"{est['kappa']:.4f}"


def _se(est: dict[str, Any] | None) -> str:
    se = est.get("se") if est else None
    return "none (exact)" if se is None else f"±{se:.4f}"


def _names() -> tuple[str, ...]:
    """S_f's, S_f^B's and their kappas' names, and the bias's: the keys of agree's results."""
    import segagree.api as api

    return (*api.SF_NAMES, *api.KAPPA_NAMES, api.MULTI_NAMES[2])


def _print_documents(result: dict[str, Any]) -> None:
    sf, sf_b, kappa_sf, kappa_sf_b, _ = _names()
    many = len(result["annotators"]) > 2
    out = stdout()
    for pair in result["pairs"]:
        table = ScoreTable(
            ["speaker", "tokens", "S_f", "S_f^B", "kappa S_f", "kappa S_f^B", "E[S_f]", "E[S_f^B]"],
            title=f"{pair['a']} vs {pair['b']}",
        )
        rows = [*pair["speakers"].items(), ("ALL", pair["pooled"])]
        for i, (name, st) in enumerate(rows):
            ks, kb = st.get(kappa_sf), st.get(kappa_sf_b)
            table.add_row(
                name,
                st["n_tokens"],
                fmt_score(st[sf]),
                fmt_score(st[sf_b]),
                _k(ks),
                _k(kb),
                fmt_score(ks and ks.get("chance_mean")),
                fmt_score(kb and kb.get("chance_mean")),
                end_section=i == len(rows) - 2,
            )
        table.print()
        pooled = pair["pooled"]
        out.print(
            "kappa = (S - E[S]) / (1 - E[S]), E[S] the chance similarity; Monte Carlo error of the pooled kappa: "
            f"S_f {_se(pooled.get(kappa_sf))}, S_f^B {_se(pooled.get(kappa_sf_b))} (per speaker: --json)"
        )
        if pair.get("stopped_early"):
            out.print(f"Monte Carlo tolerance met after {pair['n_simulations_used']} simulations")
        ci = pair["ci"][kappa_sf]
        if ci["low"] is None:
            out.print(f"no interval: {ci['reason']}")
        else:
            lines = [f"{k} [{fmt_score(v['low'])}, {fmt_score(v['high'])}]" for k, v in pair["ci"].items()]
            out.print(f"{int(ci['level'] * 100)}% bootstrap over {ci['unit']}s: " + "; ".join(lines))
        show(pair["signature"])
        out.print()
    if many:
        _print_pairwise(result)
        if result["multi"]:
            _print_multi(result["multi"], "multi-annotator agreement (S_f, S_f^B)")
        else:
            out.print(result["multi_reason"])


def _print_pairwise(result: dict[str, Any]) -> None:
    sf, sf_b, kappa_sf, kappa_sf_b, _ = _names()
    table = ScoreTable(
        ["A", "B", "S_f", "S_f^B", "kappa S_f", "kappa S_f^B"], title="pairwise (pooled over speakers)", left=2
    )
    for p in result["pairs"]:
        po = p["pooled"]
        table.add_row(p["a"], p["b"], fmt_score(po[sf]), fmt_score(po[sf_b]), _k(po[kappa_sf]), _k(po[kappa_sf_b]))
    table.print()


def _print_multi(multi: dict[str, Any], title: str) -> None:
    bias = _names()[-1]
    table = ScoreTable(["similarity", "A_a", "A_e(pi)", "A_e(kappa)", "multi-pi", "multi-kappa", bias], title=title)
    for sim, r in multi.items():
        table.add_row(
            sim,
            fmt_score(r["actual"]),
            fmt_score(r["expected_pi"]),
            fmt_score(r["expected_kappa"]),
            fmt_score(r["pi"]),
            fmt_score(r["kappa"]),
            fmt_score(r[bias]),
        )
    table.print()


def _print_dataset(result: dict[str, Any]) -> None:
    bias = _names()[-1]
    _print_multi(result["multi"], f"{result['dataset']}: {len(result['items'])} items, {len(result['coders'])} coders")
    for sim, rows in result["pairwise"].items():
        table = ScoreTable(
            ["A", "B", "A_a", "Scott's pi", "Cohen's kappa", bias], title=f"pairwise ({sim.upper()})", left=2
        )
        for r in rows:
            table.add_row(
                r["coder_a"],
                r["coder_b"],
                fmt_score(r["actual"]),
                fmt_score(r["scott_pi"]),
                fmt_score(r["cohen_kappa"]),
                fmt_score(r[bias]),
            )
        table.print()
    for sim, cis in result["ci"].items():
        ci = cis["pi"]
        if ci["low"] is None:
            stdout().print(f"{sim}: no interval: {ci['reason']}")
        else:
            lines = [f"{k} [{fmt_score(v['low'])}, {fmt_score(v['high'])}]" for k, v in cis.items()]
            stdout().print(f"{sim}: {int(ci['level'] * 100)}% bootstrap over items: " + "; ".join(lines))
