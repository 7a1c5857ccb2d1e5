"""``segagree check``: style violations of each cue of a subtitle file under a guideline profile."""

from __future__ import annotations

from pathlib import Path

import click

from segagree.cli.common import examples, json_option, print_json
from segagree.cli.tables import ScoreTable


@click.command(
    epilog=examples(
        "segagree check film.ref.srt --profile netflix-en",
        "segagree check film.ref.srt --profile ted --json",
    )
)
@click.argument("file", type=click.Path(path_type=Path))
@click.option(
    "--profile",
    default="netflix-en",
    show_default=True,
    metavar="NAME|FILE.toml",
    help="netflix-en, netflix-en-children, ted, bbc, or a TOML profile file.",
)
@click.option("--fps", type=float, help="Frame rate for the minimum gap in frames (default: the profile's).")
@click.option("--from", "from_", metavar="FORMAT", help="Input format (default: by extension); e.g. tagged.")
@json_option("print the violations as one JSON object")
def check(file: Path, profile: str, fps: float | None, from_: str | None, json_out: bool) -> None:
    """List the style violations of each cue (no reference needed).

    Rules: characters per line (cpl, per line), lines per block, characters per second (cps:
    spaces and punctuation count, tags and the line break do not), minimum and maximum duration,
    minimum gap in frames at a frame rate, line balance. Each profile cites its guideline.
    """
    import segagree.api as api
    from segagree.cli.streams import input_file

    with input_file(file, from_) as local:
        res = api.check_style(local, profile, frame_rate=fps, format=from_)
    if str(file) == "-":
        res["file"] = "-"
    if json_out:
        print_json(res)
        return
    prof = res["profile"]
    title = f"{res['file']}: {res['cues']} cues, profile {prof['name']}"
    table = ScoreTable(["rule", "violations"], title=title, caption=prof["source"])
    for k, v in res["violations"].items():
        table.add_row(k, v)
    table.print()
    for cue in res["per_cue"]:
        text = " / ".join(cue["lines"])
        print(f"  cue {cue['cue']}: {', '.join(cue['rules'])}: {text[:70]}")
