"""Every example of the documentation (README.md and docs/) is tested, and the site builds strictly.

Sybil reads each page's fenced code blocks; what a block is tested by depends on its language
and on an HTML comment just above it (invisible on the site):

- ``python``: executed, in order, in one namespace per page (a later block sees an earlier
  block's names). ``<!-- example: task -->`` marks a whole task module: it is run by pytest
  on a virtual phone, where ``replay`` must pass every task it defines and ``noop`` must fail
  it. ``<!-- example: imports -->`` marks code that needs what CI has not (a phone at a fixed
  serial, an Appium server): it is compiled and its imports are executed.
  ``<!-- example: excerpt PATH -->`` marks an excerpt of a file in the repository: it must
  appear there verbatim (up to its indentation).
- ``bash``: every ``pytest`` or ``mobileagent-*`` command's options must be options the command
  has (pytest's, with the plugins installed; the console scripts' ``--help``). Whether each
  command runs, or why it cannot run in CI, is tests/test_readme.py's business.
- ``toml``: parsed; an agents entry-point table must name the group the plugin loads.

Blocks without a language (terminal output) are shown, not run. A figure quoted in the docs
(a median, or a time in ms or us) names the benchmark script that printed it.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser

from pytest_mobileagent.agents.registry import ENTRY_POINT_GROUP

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(r"<!-- example: (?P<mode>task|imports|excerpt) ?(?P<arg>[^>]*?) ?-->\s*$")
#: the console scripts, as `python -m` modules (their `--help` lists their options)
SCRIPTS = {
    "mobileagent-phone": "pytest_mobileagent.virtual_phone.cli",
    "mobileagent-setup": "pytest_mobileagent.setup.cli",
    "mobileagent-studio": "pytest_mobileagent.studio.cli",
}


def _marker(example: Example) -> tuple[str, str]:
    """The ``<!-- example: MODE ARG -->`` comment on the line above the block, else ("run", "")."""
    before = example.document.text[:example.start].rstrip("\n").rsplit("\n", 1)[-1]
    match = MARKER.search(before)
    return (match["mode"], match["arg"].strip()) if match else ("run", "")


class PageChecks:
    """The evaluators of one page's blocks; task modules are collected and run together at the end."""

    def __init__(self, pytest_options: set[str], script_options):
        self.pytest_options = pytest_options
        self.script_options = script_options
        self.task_modules: list[tuple[int, str]] = []

    def python(self, example: Example) -> None:
        mode, arg = _marker(example)
        source = str(example.parsed)
        where = f"{example.path}:{example.line}"
        if mode == "task":
            self.task_modules.append((example.line, source))
        elif mode == "imports":
            tree = ast.parse(source, where)  # the whole block must be valid Python
            imports = [node for node in tree.body if isinstance(node, ast.Import | ast.ImportFrom)]
            assert imports, f"{where}: an imports-only example without imports"
            exec(compile(ast.Module(imports, []), where, "exec"), {})
        elif mode == "excerpt":
            target = ROOT / arg
            # Its lines, blank ones aside, are a run of the file's lines (the excerpt may skip what
            # comes between two of its definitions, and its first line's indentation).
            wanted = [line.strip() for line in source.splitlines() if line.strip()]
            lines = [line.strip() for line in target.read_text(encoding="utf-8").splitlines() if line.strip()]
            assert any(lines[i:i + len(wanted)] == wanted for i in range(len(lines))), (
                f"{where}: the excerpt is not in {arg} as written")
        else:
            padded = "\n" * (example.line + example.parsed.line_offset) + source
            exec(compile(padded, str(example.path), "exec", dont_inherit=True), example.namespace)

    def bash(self, example: Example) -> None:
        for command in shell_commands(str(example.parsed)):
            self.check_options(command, f"{example.path}:{example.line}")

    def check_options(self, command: str, where: str) -> None:
        """A pytest or console-script command uses only options its program has."""
        words = shlex.split(command)
        while words and re.match(r"[A-Z_]+=", words[0]):  # VAR=value prefixes
            words.pop(0)
        if words[:3] == ["python", "-m", "pytest"]:
            words = ["pytest", *words[3:]]
        if not words or (words[0] != "pytest" and words[0] not in SCRIPTS):
            return
        if "&&" in words:
            words = words[:words.index("&&")]
        options = {w.split("=", 1)[0] for w in words[1:] if w.startswith("--")}
        if words[0] == "pytest":
            known = self.pytest_options
        else:
            subcommand = [w for w in words[1:2] if not w.startswith("-")]
            known = self.script_options(words[0], tuple(subcommand))
        unknown = sorted(options - known)
        assert not unknown, f"{where}: `{command}` uses options {words[0]} does not have: {unknown}"

    def toml(self, example: Example) -> None:
        data = tomllib.loads(str(example.parsed))
        groups = data.get("project", {}).get("entry-points", {})
        for group, entries in groups.items():
            assert group == ENTRY_POINT_GROUP, f"{example.path}:{example.line}: no such entry-point group {group!r}"
            for name, target in entries.items():
                assert re.fullmatch(r"[\w.]+:[\w.]+", target), f"{name} = {target!r} is not module:attribute"


def shell_commands(block: str) -> list[str]:
    """A bash block's command lines: continuations joined, comments dropped."""
    commands = []
    for line in block.replace("\\\n", " ").splitlines():
        line = re.sub(r"\s+#.*$", "", line).strip()
        if line and not line.startswith("#"):
            commands.append(re.sub(r"\s+", " ", line))
    return commands


def inline_commands(text: str) -> list[str]:
    """The pytest and console-script commands quoted in a page's text (outside its code blocks)."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return [q for q in re.findall(r"`([^`\n]+)`", text)
            if re.match(r"(python -m )?pytest |mobileagent-(phone|setup|studio) ", q)]


@pytest.fixture(scope="module")
def pytest_options(pytestconfig) -> set[str]:
    """Every long option pytest has here: its own, xdist's, allure's and the plugin's."""
    parser = pytestconfig._parser
    groups = [*parser._groups, parser._anonymous]
    return {name for group in groups for option in group.options for name in option.names()
            if name.startswith("--")}


@pytest.fixture(scope="module")
def script_options():
    cache: dict[tuple, set[str]] = {}

    def options(script: str, subcommand: tuple) -> set[str]:
        key = (script, subcommand)
        if key not in cache:
            proc = subprocess.run([sys.executable, "-m", SCRIPTS[script], *subcommand, "--help"],
                                  capture_output=True, text=True, timeout=120)
            assert proc.returncode == 0, proc.stderr
            cache[key] = set(re.findall(r"(--[a-z][a-z0-9-]*)", proc.stdout))
        return cache[key]

    return options


def run_task_modules(modules: list[tuple[int, str]], page: Path, serial: str, tmp_path: Path) -> None:
    """The page's task modules on a virtual phone: replay passes every task, noop fails every one."""
    files = []
    for line, source in modules:
        path = tmp_path / f"test_{page.stem.replace('-', '_').lower()}_line{line}.py"
        path.write_text(source, encoding="utf-8")
        files.append(path.name)
    for agent, wanted in (("replay", True), ("noop", False)):
        out = tmp_path / f"{agent}.json"
        proc = subprocess.run(
            # --suite all: a page's task family (suite "extended") runs beside its fixed tasks.
            [sys.executable, "-m", "pytest", *files, "--agent", agent, "--device", serial, "--suite", "all",
             "--results-json", str(out), "-q", "-p", "no:cacheprovider"],
            cwd=tmp_path, capture_output=True, text=True, timeout=600,
            env={k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")})
        assert out.exists(), proc.stdout[-3000:] + proc.stderr[-2000:]
        tasks = json.loads(out.read_text())["tasks"]
        assert tasks, proc.stdout[-3000:]
        verdicts = {t["task"]: (t["success"], t["stop_reason"] == "infra_error") for t in tasks}
        assert all(success is wanted and not error for success, error in verdicts.values()), (
            agent, verdicts, proc.stdout[-3000:])


def evaluate_page(page: Path, checks: PageChecks) -> int:
    """Evaluate every example of a page in order; returns how many there were."""
    sybil = Sybil(parsers=[CodeBlockParser("python", checks.python), CodeBlockParser("bash", checks.bash),
                           CodeBlockParser("toml", checks.toml)])
    document = sybil.parse(page)
    count = 0
    for example in document:
        example.evaluate()
        count += 1
    for command in inline_commands(page.read_text(encoding="utf-8")):
        checks.check_options(command, f"{page.name} (in the text)")
    return count


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_example_of_the_page_works(page, pytest_options, script_options, phone, tmp_path, monkeypatch):
    # Python examples run from the repository root, as a reader of a clone runs them; what they
    # write lands in the temporary directory only through the task runs below.
    monkeypatch.chdir(ROOT)
    checks = PageChecks(pytest_options, script_options)
    evaluate_page(page, checks)
    if checks.task_modules:
        run_task_modules(checks.task_modules, page, phone.serial, tmp_path)


def test_a_broken_example_fails_its_page(tmp_path, pytest_options, script_options):
    """The checks can fail: a scratch page with one broken example of each kind, each failing as it should."""
    broken = {
        "python": ("```python\nfrom pytest_mobileagent import golden as g\ng.tapp(id='btn_3')\n```\n",
                   AttributeError, "tapp"),
        "excerpt": ("<!-- example: excerpt examples/driver_agent.py -->\n```python\n"
                    "    session.before_action()\n    self.tap_key(device, key, twice=True)\n```\n",
                    AssertionError, "not in examples/driver_agent.py"),
        "imports": ("<!-- example: imports -->\n```python\nfrom pytest_mobileagent import Acton\n```\n",
                    ImportError, "Acton"),
        "option": ("```bash\npytest task_tests --agent=replay --max-step-factor 3\n```\n",
                   AssertionError, "--max-step-factor"),
        "script": ("```bash\nmobileagent-setup --apk ~/simple-apks\n```\n", AssertionError, "--apk"),
        "toml": ('```toml\n[project.entry-points."pytest_mobileagent.agent"]\nmine = "my_agent:MyAgent"\n```\n',
                 AssertionError, "no such entry-point group"),
    }
    for kind, (text, error, message) in broken.items():
        page = tmp_path / f"{kind}.md"
        page.write_text(f"# A page\n\n{text}")
        with pytest.raises(error, match=re.escape(message)):
            evaluate_page(page, PageChecks(pytest_options, script_options))
    # The same checks pass the page once it is mended.
    page = tmp_path / "mended.md"
    page.write_text("# A page\n\n```python\nfrom pytest_mobileagent import golden as g\ng.tap(id='btn_3')\n```\n\n"
                    "```bash\npytest task_tests --agent=replay --max-steps-factor 3\n```\n")
    assert evaluate_page(page, PageChecks(pytest_options, script_options)) == 2


def test_every_quoted_figure_names_its_benchmark():
    """A median, or a measured time in ms or us, sits in a paragraph (or table row) naming its script."""
    missing = []
    for page in PAGES:
        text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
        for paragraph in re.split(r"\n\s*\n", text):
            units = paragraph.splitlines() if paragraph.lstrip().startswith("|") else [paragraph]
            for unit in units:
                if re.search(r"\bmedian\b|\d\.\d+ ?(ms|us|µs)\b", unit) and "bench_" not in unit:
                    missing.append(f"{page.name}: {unit.strip()[:160]}")
    assert not missing, "figures without the benchmark that printed them:\n" + "\n".join(missing)


def test_every_benchmark_script_is_in_the_performance_page():
    page = (ROOT / "docs" / "performance.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(bench_\w+\.py)` \|", page, re.M))
    scripts = {p.name for p in (ROOT / "benchmarks").glob("bench_*.py")}
    assert listed == scripts, (sorted(scripts - listed), sorted(listed - scripts))
    for page in PAGES:
        for name in re.findall(r"bench_\w+\.py", page.read_text(encoding="utf-8")):
            assert name in scripts, f"{page.name} names {name}, which benchmarks/ does not have"


def _build(config: Path, site: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config), "-d", str(site)],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def test_the_site_builds_in_strict_mode(tmp_path):
    proc = _build(ROOT / "mkdocs.yml", tmp_path / "site")
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-5000:]
    assert (tmp_path / "site" / "index.html").is_file()
    api = (tmp_path / "site" / "api" / "index.html").read_text(encoding="utf-8")
    assert 'id="pytest_mobileagent.task"' in api and 'id="pytest_mobileagent.Screen"' in api


def test_a_broken_link_fails_the_build(tmp_path):
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path / "mkdocs.yml")
    page = tmp_path / "docs" / "agents.md"
    page.write_text(page.read_text(encoding="utf-8") + "\nSee [the options](options.md#no-such-anchor).\n")
    proc = _build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert proc.returncode != 0 and "no-such-anchor" in proc.stdout + proc.stderr, proc.stdout + proc.stderr


def test_the_wheel_points_at_the_site_and_describes_itself_with_the_readme():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    site_url = re.search(r"^site_url: (\S+)$", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)[1]
    assert project["urls"]["Documentation"] == site_url
    assert project["readme"] == "README.md"
