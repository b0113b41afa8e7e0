"""Sphinx directives that write parts of the documentation from the code at build time.

``.. argparse-reference:: mscsp.cli:build_parser``
    Walks the :mod:`argparse` parser that the callable returns and writes, for the
    program and each subcommand, its usage line, description and one ``option``
    entry per argument (with its choices and default), so the command-line
    reference is the parser itself and ``:option:`` roles can point into it.

``.. command-output:: mscsp solve one_two_one.txt``
    Runs a command in this process (``mscsp ...`` is :func:`mscsp.cli.main`,
    ``python experiments/NAME.py ...`` is ``mscsp.experiments.NAME.main``) in a
    scratch folder holding a copy of ``docs/examples/``, and shows the command with
    its standard output and standard error (``cat FILE`` shows a file of that
    folder, such as one an earlier command wrote). Options: ``:returncode: N`` (the exit
    status the command must end with, default 0; any other is a build warning, so
    an example that stops working fails the ``-W`` build), ``:show-status:`` (show
    ``echo $?`` and the status), ``:lines: N`` (show only the first ``N`` lines of
    output), ``:hide:`` (run it, for the files it writes, but show nothing). A final
    ``> FILE`` writes standard output to that file in the scratch folder instead.

``.. module-sections::`` (one module per line of content)
    A section with the ``automodule`` of each module; a package brings all its
    public modules but those listed after it, which keep their place in the list.
    A public module of mscsp that no page lists is a build warning.

Pages that use these directives are re-read on every build, so what they show is
never older than the code.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import pkgutil
import re
import shlex
import shutil
import sys
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

logger = logging.getLogger(__name__)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
#: Width of argparse's help text, whatever the terminal of the build.
COLUMNS = "88"
#: Section underlines for the program (unused: it is the page) and its subcommands.
UNDERLINE = "-"


def _load(target: str):
    module, _, name = target.partition(":")
    obj = importlib.import_module(module)
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _remember(directive: SphinxDirective) -> None:
    env = directive.env
    if not hasattr(env, "mscsp_generated"):
        env.mscsp_generated = set()
    env.mscsp_generated.add(env.docname)


# -- the command-line reference -----------------------------------------------------
def _invocation(action: argparse.Action, formatter: argparse.HelpFormatter) -> str:
    """``--time-limit S`` or ``FILE``: how the argument is written, for ``.. option::``."""
    if not action.option_strings:
        return formatter._metavar_formatter(action, action.dest)(1)[0]
    if action.nargs == 0:
        return ", ".join(action.option_strings)
    metavar = formatter._format_args(action, action.dest.upper())
    if action.choices is not None and action.metavar is None:
        metavar = "{" + ",".join(map(str, action.choices)) + "}"
    return ", ".join(f"{opt} {metavar}" for opt in action.option_strings)


def _facts(action: argparse.Action) -> list[str]:
    facts = []
    if action.choices is not None and action.nargs != 0 and action.metavar is not None:
        facts.append("one of " + ", ".join(f"``{c}``" for c in action.choices))
    if action.required and action.option_strings:
        facts.append("required")
    if not action.option_strings and action.nargs in ("+", "*"):
        facts.append("one or more" if action.nargs == "+" else "any number")
    default = action.default
    if (action.option_strings and action.nargs != 0 and default not in (None, argparse.SUPPRESS)
            and "default" not in (action.help or "")):
        facts.append(f"default ``{default}``")
    return facts


def _escape(text: str) -> str:
    """Plain text as reST: help strings are prose, not markup (a ``*`` stays a ``*``)."""
    return re.sub(r"([\\*`|_\[\]<>])", r"\\\1", text)


def _help(action: argparse.Action, formatter: argparse.HelpFormatter) -> str:
    text = formatter._expand_help(action) if action.help else ""
    text = _escape(text.strip())
    return (text[:1].upper() + text[1:]) if text else ""


def _argument_lines(parser: argparse.ArgumentParser, prog: str) -> list[str]:
    formatter = parser._get_formatter()
    lines = [f".. program:: {prog}", ""]
    for action in parser._actions:
        if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
            continue
        lines.append(f".. option:: {_invocation(action, formatter)}")
        lines.append("")
        sentences = [_help(action, formatter).rstrip("."), "; ".join(_facts(action))]
        body = ". ".join(s[:1].upper() + s[1:] for s in sentences if s)
        lines += ["   " + (body + "." if body else "(no description)"), ""]
    return lines


def _usage(parser: argparse.ArgumentParser) -> list[str]:
    usage = parser.format_usage().strip()
    return [".. code-block:: text", ""] + ["   " + line for line in usage.splitlines()] + [""]


def _subcommands(parser: argparse.ArgumentParser) -> list[tuple[str, str, argparse.ArgumentParser]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            return [(name, helps.get(name, ""), sub) for name, sub in action.choices.items()]
    return []


def parser_reference(parser: argparse.ArgumentParser) -> list[str]:
    """The reST of a parser's reference: the program, then a section per subcommand."""
    lines = _usage(parser)
    if parser.description:
        lines += [_escape(parser.description), ""]
    lines += _argument_lines(parser, parser.prog)
    for name, summary, sub in _subcommands(parser):
        title = f"``{sub.prog}``"
        lines += [f".. _cli-{name}:", "", title, UNDERLINE * len(title), ""]
        if summary:
            lines += [_escape(summary[:1].upper() + summary[1:]) + ".", ""]
        lines += _usage(sub)
        if sub.description and sub.description != summary:
            lines += [_escape(sub.description), ""]
        lines += _argument_lines(sub, sub.prog)
    return lines


class ArgparseReference(SphinxDirective):
    required_arguments = 1

    def run(self):
        _remember(self)
        with _columns():
            parser = _load(self.arguments[0])()
            text = parser_reference(parser)
        node = nodes.container()
        nested_parse_with_titles(self.state, StringList(text, source=f"<{self.arguments[0]}>"), node)
        return node.children


@contextlib.contextmanager
def _columns():
    old = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = COLUMNS
    try:
        yield
    finally:
        if old is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = old


# -- command examples -----------------------------------------------------------------
def _cat(names: list[str]) -> int:
    for name in names:
        sys.stdout.write(Path(name).read_text(encoding="utf-8"))
    return 0


def _entry_point(words: list[str]):
    """The ``main`` function a command line names, and its arguments."""
    if words[:1] == ["cat"]:
        return _cat, words[1:]
    if words[:1] == ["mscsp"]:
        from mscsp.cli import main

        return main, words[1:]
    if len(words) >= 2 and words[0] == "python" and words[1].startswith("experiments/") and words[1].endswith(".py"):
        name = words[1][len("experiments/"):-len(".py")]
        return importlib.import_module(f"mscsp.experiments.{name}").main, words[2:]
    raise ValueError(f"command-output runs 'mscsp ...', 'python experiments/NAME.py ...' or 'cat FILE', "
                     f"not {words[0]!r}")


def _scratch(directive: SphinxDirective) -> Path:
    """The scratch folder of this page in this build, with a fresh copy of docs/examples."""
    app, docname = directive.env.app, directive.env.docname
    made = app.__dict__.setdefault("mscsp_scratch", {})
    if docname not in made:
        folder = Path(app.doctreedir) / "mscsp-scratch" / docname.replace("/", "_")
        shutil.rmtree(folder, ignore_errors=True)
        shutil.copytree(EXAMPLES, folder)
        made[docname] = folder
    return made[docname]


def run_command(command: str, cwd: Path) -> tuple[int, str]:
    """Run ``command`` in this process in ``cwd``; its exit status and what it printed."""
    words = shlex.split(command)
    target = None
    if len(words) >= 2 and words[-2] == ">":
        words, target = words[:-2], words[-1]
    main, argv = _entry_point(words)
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with _columns(), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = main(argv)
            except SystemExit as exc:  # argparse's --help and errors
                status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if target is not None:
            (cwd / target).write_text(out.getvalue(), encoding="utf-8")
            out = io.StringIO()
    finally:
        os.chdir(here)
    return int(status or 0), out.getvalue() + err.getvalue()


class CommandOutput(SphinxDirective):
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {
        "returncode": directives.nonnegative_int,
        "show-status": directives.flag,
        "lines": directives.positive_int,
        "hide": directives.flag,
    }

    def run(self):
        _remember(self)
        command = " ".join(self.arguments[0].split())
        expected = self.options.get("returncode", 0)
        try:
            status, text = run_command(command, _scratch(self))
        except Exception as exc:  # a broken example is a build warning, with the reason
            logger.warning(f"command-output: {command!r} raised {type(exc).__name__}: {exc}",
                           location=self.get_location())
            return []
        if status != expected:
            logger.warning(f"command-output: {command!r} exited with status {status}, not {expected}:\n{text}",
                           location=self.get_location())
        if "hide" in self.options:
            return []
        shown = text.rstrip("\n").splitlines()
        limit = self.options.get("lines")
        if limit is not None and len(shown) > limit:
            shown = shown[:limit] + ["..."]
        lines = [f"$ {command}", *shown]
        if "show-status" in self.options:
            lines += ["$ echo $?", str(status)]
        block = nodes.literal_block("\n".join(lines), "\n".join(lines))
        block["language"] = "console"
        self.set_source_info(block)
        return [block]


# -- the API reference ---------------------------------------------------------------
#: The package whose every public module the API reference must show.
PACKAGE = "mscsp"


def _public(name: str) -> bool:
    return not any(part.startswith("_") for part in name.split("."))


def public_modules(name: str) -> list[str]:
    """``name`` and, for a package, every public module below it, in order."""
    module = importlib.import_module(name)
    found = [name]
    if hasattr(module, "__path__"):
        for info in pkgutil.walk_packages(module.__path__, name + "."):
            if _public(info.name):
                found.append(info.name)
    return found


class ModuleSections(SphinxDirective):
    """A section with the ``automodule`` of each module listed, a package with all its
    public modules; every public module of :data:`PACKAGE` must be listed on some page,
    or the build warns, so a new or moved module cannot be left out."""

    has_content = True

    def run(self):
        _remember(self)
        env = self.env
        if not hasattr(env, "mscsp_api_modules"):
            env.mscsp_api_modules = {}
        lines: list[str] = []
        entries = [line.strip() for line in self.content if line.strip()]
        for i, entry in enumerate(entries):
            try:
                names = public_modules(entry)
            except ImportError as exc:
                logger.warning(f"module-sections: cannot import {entry}: {exc}", location=self.get_location())
                continue
            later = entries[i + 1:]
            for name in names:
                if name != entry and any(name == e or name.startswith(e + ".") for e in later):
                    continue  # shown where the list names it (or the package holding it)
                env.mscsp_api_modules[name] = env.docname
                title = f"``{name}``"
                lines += [title, "-" * len(title), "", f".. automodule:: {name}", ""]
        node = nodes.container()
        nested_parse_with_titles(self.state, StringList(lines, source=f"<module-sections {env.docname}>"), node)
        return node.children


def _check_api(app, env):
    documented = getattr(env, "mscsp_api_modules", {})
    if not documented:
        return
    for name in public_modules(PACKAGE):
        if name not in documented and name != PACKAGE:
            logger.warning(f"the API reference leaves out module {name}: add it to a module-sections list "
                           f"in docs/api/")


# -- always re-read the generated pages -------------------------------------------------
def _outdated(app, env, added, changed, removed):
    return sorted(getattr(env, "mscsp_generated", set()) - set(removed))


def _purge(app, env, docname):
    if hasattr(env, "mscsp_generated"):
        env.mscsp_generated.discard(docname)
    if hasattr(env, "mscsp_api_modules"):
        env.mscsp_api_modules = {m: d for m, d in env.mscsp_api_modules.items() if d != docname}


def _merge(app, env, docnames, other):
    env.mscsp_generated = getattr(env, "mscsp_generated", set()) | getattr(other, "mscsp_generated", set())
    env.mscsp_api_modules = {**getattr(env, "mscsp_api_modules", {}), **getattr(other, "mscsp_api_modules", {})}


def setup(app):
    app.add_directive("argparse-reference", ArgparseReference)
    app.add_directive("command-output", CommandOutput)
    app.add_directive("module-sections", ModuleSections)
    app.connect("env-check-consistency", _check_api)
    app.connect("env-get-outdated", _outdated)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}
