"""The README's and the documentation's commands work, and the options page lists every option.

The README is the front page; the manual is docs/ (the site). "The README" below means both:
the README followed by every page of docs/, in name order.

Every shell command of the README (its ``bash`` blocks, and the ``pytest``
and ``pip`` commands quoted in its text) must appear in ``COMMANDS`` below,
either run here on virtual phones or with the reason it cannot be run on a
CI machine: a command added to the README without an entry fails
``test_every_readme_command_is_run_or_explained``.

Commands run as a shell would run them from the repository root, on a PATH
without any ``adb`` (a pip user has none: the README says where one comes
from), with one substitution only: the virtual phone's example serial
``127.0.0.1:40123`` is the serial the phone really got; ``adb`` talks to the
tests' private adb server. ``pytest`` is run as the console script runs it
(``python -P``: the current directory is not on ``sys.path``), and
``PYTEST_ADDOPTS`` passes ``--device`` (and ``-k`` where a command would run
the whole benchmark) so that the run uses this session's phones.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mobileagent.metrics import wilson_interval
from pytest_mobileagent.tasks import TaskSpec

ROOT = Path(__file__).resolve().parent.parent
DOC_PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README = "\n".join(page.read_text(encoding="utf-8") for page in DOC_PAGES)

RUN = "run"  # run by a test below
#: command (as the README writes it, comments and continuations removed) -> RUN or why it is not run here
COMMANDS = {
    "droidbot -d emulator-5554 -a notes.apk -o out -policy dfs_greedy -count 50 -interval 1 -grant_perm "
    "-keep_app -is_emulator":
        "DroidBot is not on PyPI in a usable release; tests/test_droidbot_client.py runs it when "
        "MOBILEAGENT_DROIDBOT names an installation",
    "pip install androguard==3.4.0a1":
        "DroidBot's dependency, for a DroidBot installation of the user's own (tests/test_droidbot_client.py)",
    "pip install --no-deps --config-settings editable_mode=compat -e <checkout>":
        "a pattern: <checkout> is the user's checkout of DroidBot's repository",
    "python -m pip install -e . && python -m pytest task_tests --agent=replay -n 2":
        RUN,
    "python -m pip install -e '.[test]' && python -m pytest tests -n 2 -p no:cacheprovider":
        "the test suite itself: .ci/run runs exactly this line",
    "python -m pytest tests -n 2 -p no:cacheprovider -m slow":
        "the test suite's slow group: .ci/run runs exactly this line after the one above",
    "pytest tests/test_golden_paths.py":
        "a module of the test suite: its tests run in CI's slow group",
    "export OPENAI_API_KEY=...":
        "a placeholder for the user's key",
    "pytest task_tests --agent=mobileagent --llm-base-url=http://localhost:8000/v1 --llm-model=my-model -n 4":
        "needs the user's LLM endpoint; tests/test_agent_mobileagent.py runs the agent against tests/llm_server.py",
    "pip install -e '.[llm]'":
        "installs into the environment; the test extra includes openai",
    "pytest task_tests/test_calculator.py -p examples.driver_agent --agent keypad":
        RUN,
    "PYTHONPATH=~/my_agent pytest task_tests -p my_agent_plugin --agent mine":
        "a pattern: the user's own agent module",
    "mobileagent-phone serve --count 2":
        RUN,
    "export PATH=\"$(python -c 'import adbutils, os; print(os.path.dirname(adbutils.adb_path()))'):$PATH\"":
        RUN,
    "adb devices":
        RUN,
    "adb -s 127.0.0.1:40123 shell input tap 540 1200":
        RUN,
    "adb -s 127.0.0.1:40123 exec-out screencap -p > screen.png":
        RUN,
    "adb push fixtures/sunset.jpg /sdcard/Download/sunset.jpg":
        RUN,
    "adb shell \"touch -d '2023-07-01 19:45:00' /sdcard/Download/sunset.jpg\"":
        RUN,
    "adb shell am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE -d file:///sdcard/Download":
        RUN,
    "adb push fixtures/audio/recordings/2024_05_01_09_30_00.m4a /sdcard/Music/Recordings/2024_05_01_09_30_00.m4a":
        RUN,
    "adb shell am broadcast -a android.intent.action.MEDIA_SCANNER_SCAN_FILE "
    "-d file:///sdcard/Music/Recordings/2024_05_01_09_30_00.m4a":
        RUN,
    "pytest task_tests --avd Pixel_7_API_34 -n 4":
        "needs the Android SDK's emulator and an AVD; tests/test_emulators.py runs --avd with a stand-in emulator",
    "adb kill-server && adb -a -P 5037 nodaemon server":
        "restarts the machine's default adb server, which other runs on the machine use",
    "pytest task_tests -n 8 --adb-server 10.0.0.11:5037 --adb-server 10.0.0.12:5037":
        "needs other machines; tests/test_remote_devices.py runs --adb-server against a second local server, "
        "tests/test_netns_remote.py against one in a network namespace with no route back",
    "mobileagent-setup --apks ~/simple-apks":
        "needs the Simple Mobile Tools APKs and a real device or emulator",
    "mobileagent-setup --device emulator-5554 --apks ~/simple-apks":
        "needs the Simple Mobile Tools APKs and a real device or emulator",
    "pytest task_tests --device emulator-5554 --agent NAME":
        "a pattern: NAME is the user's agent on the user's device",
    "pytest task_tests --agent=replay -n 2 --alluredir=allure-results --results-json=results.json":
        RUN,
    "npm install --no-save allure-commandline":
        RUN,
    "ALLURE_NO_ANALYTICS=true npx allure generate --single-file allure-results -o allure-report --clean":
        "tests/test_reporting_html.py generates the report from a run's results and opens it in Chromium",
    "pytest task_tests --agent=myagent -n 4 --results-json=results.json --baseline=previous/results.json "
    "--fail-on-regression --fail-under=80%":
        "a pattern: myagent is the user's agent; tests/test_reporting_gating.py runs the gates",
    "pytest task_tests --agent replay -n 2":
        RUN,
    "python -m pytest task_tests --agent=replay -n 2":
        RUN,
    "pytest --pyargs pytest_mobileagent.task_tests --agent=replay -n 2":
        "tests/test_packaging.py runs it from an empty directory with the wheel installed",
    "mobileagent-studio":
        "a server that runs until stopped and opens a browser; tests/test_studio.py drives the studio",
    "mobileagent-studio --device emulator-5554 --port 8700 --no-browser --tasks-dir task_tests":
        "a server that runs until stopped; tests/test_studio.py starts it on a virtual phone",
    "pytest FILE --agent replay":
        "a pattern: FILE is the task file the studio recorded; tests/test_studio_recorder.py replays one",
    "pytest task_tests --agent NAME -n 2 --mobileagent-watch":
        "a pattern: NAME is the user's agent; tests/test_studio_watch.py runs --mobileagent-watch",
    "npm ci --prefix clients/appium --ignore-scripts":
        "installs Appium from the npm registry: .ci/run does it; tests/test_appium_client.py uses the result",
    "mkdir -p /tmp/android-home/platform-tools":
        "part of starting the real Appium server, which tests/test_appium_client.py does on a virtual phone",
    'ln -s "$(python -c \'from pytest_mobileagent.virtual_phone.server import bundled_adb_path as p; '
    'print(p())\')" /tmp/android-home/platform-tools/adb':
        "part of starting the real Appium server, which tests/test_appium_client.py does on a virtual phone",
    "APPIUM_HOME=clients/appium ANDROID_HOME=/tmp/android-home node clients/appium/node_modules/appium/index.js "
    "server --address 127.0.0.1 --port 4723":
        "a server that runs until stopped; tests/test_appium_client.py starts it against a virtual phone",
    "python -m pip install -e '.[docs]' && mkdocs serve":
        "a server that runs until stopped; tests/test_docs_examples.py builds the site (mkdocs build --strict)",
    "python -m pip wheel --no-deps -w dist .":
        "tests/test_packaging.py builds the wheel (offline: with --no-build-isolation) from a copy of the checkout",
    "python -m pip install dist/pytest_mobileagent-0.1.0-py3-none-any.whl":
        "tests/test_packaging.py installs the wheel it built, into a fresh virtualenv",
    'pytest "test_x.py::test_calculator_sum[5.2-4-9]"':
        "tests/test_task_families.py reruns one family instance by its id (test_an_id_reruns_exactly_its_instance)",
    "pytest --pyargs pytest_mobileagent.task_tests.test_notes":
        "tests/test_packaging.py selects one app's tasks by module from the installed wheel",
}


def readme_commands() -> list[str]:
    """The shell commands of the README: its bash blocks' lines and the commands quoted in its text."""
    commands = []
    for block in re.findall(r"```(?:bash|sh|shell)\n(.*?)```", README, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            line = re.sub(r"\s+#.*$", "", line).strip()
            if line and not line.startswith("#"):
                commands.append(re.sub(r"\s+", " ", line))
    text = re.sub(r"```.*?```", "", README, flags=re.S)
    for quoted in re.findall(r"`([^`\n]+)`", text):
        if re.match(r"(python -m )?(pytest|pip install|pip wheel) |PYTHONPATH=\S+ pytest ", quoted):
            commands.append(quoted)
    return list(dict.fromkeys(commands))


def test_every_readme_command_is_run_or_explained():
    commands = readme_commands()
    assert len(commands) > 20
    unknown = [c for c in commands if c not in COMMANDS]
    assert not unknown, "README commands with no entry in tests/test_readme.py's COMMANDS: " + repr(unknown)


def test_ci_runs_the_readme_s_test_commands_as_written():
    """.ci/run runs each line COMMANDS says it runs exactly (its `pip install` only adds -q)."""
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    said = [c for c, why in COMMANDS.items() if ".ci/run runs exactly this line" in why]
    assert len(said) == 2
    for command in said:
        assert command in readme_commands()
        assert command.replace("pip install -e", "pip install -q -e") in ci, command


def _collected(*args: str) -> set[str]:
    proc = subprocess.run([sys.executable, "-m", "pytest", *args, "--collect-only", "-q", "-p", "no:cacheprovider"],
                          cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return {line for line in proc.stdout.splitlines() if "::" in line}


def test_the_slow_group_is_left_out_unless_its_files_are_named():
    """The README's quick loop leaves the slow group out; naming the files runs all of their tests."""
    folder = ROOT / "tests" / "virtual_phone"
    quick = _collected(str(folder))
    every = _collected(*sorted(str(path) for path in folder.glob("test_*.py")))
    assert quick < every
    # The folder's slow tests: a whole module, and one test of another module.
    assert {nodeid.split("::")[0] for nodeid in every - quick} == {
        "tests/virtual_phone/test_dead_taps.py", "tests/virtual_phone/test_listener_socket.py"}
    assert [n for n in every - quick if "test_listener_socket.py" in n] == [
        "tests/virtual_phone/test_listener_socket.py::test_the_buffer_keeps_4096_lines_dropping_other_packages_oldest_first"]


def test_the_options_table_lists_every_option(pytestconfig):
    section = (ROOT / "docs" / "options.md").read_text(encoding="utf-8")
    documented = set()
    for row in section.splitlines():
        if row.startswith("| `--"):
            documented.update(re.findall(r"(--[a-z][a-z0-9-]*)", row.split(" | ")[0]))
    groups = [g for g in pytestconfig._parser._groups if g.name.startswith("mobileagent")]
    registered = {name for group in groups for option in group.options for name in option.names()
                  if name.startswith("--")}
    assert registered, "the plugin's option groups were not found"
    assert sorted(registered - documented) == [], "options missing from the README's table"
    assert sorted(documented - registered) == [], "the README's table lists options the plugin does not have"


# -- running them --------------------------------------------------------------------


def path_without_adb(bin_dir: Path) -> str:
    """A PATH with everything the current one has but ``adb`` (as .ci/run makes it), ``python``
    first: this interpreter, as in the user's virtualenv."""
    bin_dir.mkdir()
    (bin_dir / "python").write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} \"$@\"\n")
    (bin_dir / "python").chmod(0o755)
    for directory in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for entry in sorted(os.listdir(directory)):
            if entry != "adb" and not (bin_dir / entry).exists():
                (bin_dir / entry).symlink_to(os.path.join(directory, entry))
    assert shutil.which("adb", path=str(bin_dir)) is None
    return str(bin_dir)


@pytest.fixture
def shell_env(adb_server_port, tmp_path):
    """The environment of a machine without any system adb, talking to the tests' adb server."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
    env["PATH"] = path_without_adb(tmp_path / "bin")
    env["ANDROID_ADB_SERVER_PORT"] = str(adb_server_port)
    return env


def _shell(command: str, env: dict, cwd: Path = ROOT, timeout: float = 300) -> subprocess.CompletedProcess:
    """Run a README command with bash; `pytest` as its console script runs it, `python` is this interpreter."""
    script = re.sub(r"(^|&& )pytest ", rf"\1{shlex.quote(sys.executable)} -P -m pytest ", command)
    script = re.sub(r"(^|&& )python ", rf"\1{shlex.quote(sys.executable)} ", script)
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def _benchmark_command(command: str) -> str:
    """The command without its `pip install -e .` (the environment has the plugin already)."""
    return command.split(" && ", 1)[1] if command.startswith("python -m pip install -e . && ") else command


def test_the_driver_agent_example_runs_as_written(shell_env, phone, tmp_path):
    command = "pytest task_tests/test_calculator.py -p examples.driver_agent --agent keypad"
    assert command in readme_commands()
    results = tmp_path / "results.json"
    env = {**shell_env, "PYTEST_ADDOPTS": f"-p no:cacheprovider --device {phone.serial} --results-json {results}"}
    proc = _shell(command, env)
    assert "6 passed" in proc.stdout.splitlines()[-1] and " error" not in proc.stdout.splitlines()[-1], (
        proc.stdout[-3000:] + proc.stderr[-2000:])
    assert "examples" not in proc.stderr
    # The paragraph after the command names the tasks that fail, and says how many pass.
    paragraph = README.split(f"`{command}`.", 1)[1].split("\n\n", 1)[0]
    named = set(re.findall(r"`(test_calculator_\w+)`", paragraph))
    failed = {t["task"] for t in json.loads(results.read_text())["tasks"] if not t["success"]}
    assert failed == named, f"the README names {sorted(named)}; the run failed {sorted(failed)}"
    assert re.search(r"\bsix tasks pass\b", paragraph) and len(failed) == 4


def task_specs() -> list:
    """Every task of task_tests/ (the @task specs the plugin reads)."""
    specs = []
    for path in sorted((ROOT / "task_tests").glob("test_*.py")):
        module = importlib.import_module(f"task_tests.{path.stem}")
        for function in vars(module).values():
            specs += [m.args[0] for m in getattr(function, "pytestmark", [])
                      if m.args and isinstance(m.args[0], TaskSpec)]
    return specs


def test_the_summary_sample_counts_the_tasks_there_are():
    """The Quick start's summary: its groups' task counts and intervals are the benchmark's own."""
    sample = README.split("At the end of a run the terminal shows the benchmark summary:", 1)[1]
    sample = sample.split("```", 2)[1]
    rows = {m.group(1): (int(m.group(2)), m.group(3)) for m in re.finditer(
        r"^(overall|app \w+|difficulty \w+)\s+(\d+)\s+0\s+100\.0%\s+(\S+)", sample, re.M)}
    specs = task_specs()
    expected = {"overall": len(specs)}
    for group in ("app", "difficulty"):
        for value in sorted({getattr(spec, group) for spec in specs}):
            expected[f"{group} {value}"] = sum(getattr(spec, group) == value for spec in specs)
    assert {group: count for group, (count, _) in rows.items()} == expected
    for group, (count, interval) in rows.items():  # replay succeeds at every task
        low, high = wilson_interval(count, count)
        assert interval == f"{low * 100:.1f}-{high * 100:.1f}%", group


@pytest.mark.parametrize("command", [
    "python -m pip install -e . && python -m pytest task_tests --agent=replay -n 2",
    "pytest task_tests --agent=replay -n 2 --alluredir=allure-results --results-json=results.json",
    "pytest task_tests --agent replay -n 2",
])
def test_the_benchmark_commands_run(command, shell_env, phone_factory, tmp_path):
    assert command in readme_commands()
    phones = phone_factory(count=2)
    # One app's tasks on this session's phones; the rest of the line as written, from a copy of the
    # repository's task files so that its outputs land in a temporary directory.
    work = tmp_path / "checkout"
    work.mkdir()
    for name in ("task_tests", "fixtures", "conftest.py"):
        (work / name).symlink_to(ROOT / name)
    devices = " ".join(f"--device {p.serial}" for p in phones)
    env = {**shell_env, "PYTEST_ADDOPTS": f"-p no:cacheprovider {devices} -k calculator"}
    proc = _shell(_benchmark_command(command), env, cwd=work)
    assert "10 passed" in proc.stdout.splitlines()[-1], proc.stdout[-3000:] + proc.stderr[-2000:]
    assert "mobileagent benchmark summary" in proc.stdout
    if "--alluredir" in command:
        assert list((work / "allure-results").glob("*-result.json"))
        assert (work / "results.json").is_file()


def test_the_virtual_phone_and_media_commands_run(shell_env, tmp_path):
    block = [c for c in readme_commands() if c.startswith(("mobileagent-phone", "adb ", "export PATH="))
             and COMMANDS.get(c) == RUN]
    assert block[0] == "mobileagent-phone serve --count 2" and sum(c.startswith("adb ") for c in block) == 8
    serve = subprocess.Popen(
        [sys.executable, "-m", "pytest_mobileagent.virtual_phone.cli", *shlex.split(block[0])[1:]],
        env=shell_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        serials = []
        for line in serve.stdout:  # "SERIAL PORT" per phone, then "ready"
            if line.strip() == "ready":
                break
            serials.append(line.split()[0])
        assert len(serials) == 2, serve.stderr.read() if serve.poll() is not None else serials
        env = {**shell_env, "ANDROID_SERIAL": serials[0]}  # the blocks after it address one phone
        # One terminal, in the README's order (the PATH it exports holds for the commands after it),
        # on a PATH without adb; each command's output and status are marked.
        script = [f"cd {shlex.quote(str(ROOT))}"]
        for index, command in enumerate(block[1:]):
            if "screencap" in command:
                command = f"(cd {shlex.quote(str(tmp_path))} && {command})"
            script += [command.replace("127.0.0.1:40123", serials[0]), f"echo \"::: {index} status $?\""]
        script.append("adb shell ls /sdcard/Download /sdcard/Music/Recordings")
        proc = _shell("\n".join(script), env, timeout=120)
        outputs = re.split(r"^::: \d+ status (\d+)\n", proc.stdout, flags=re.M)
        assert len(outputs) == 2 * len(block[1:]) + 1, proc.stdout + proc.stderr
        for command, output, status in zip(block[1:], outputs[0::2], outputs[1::2]):
            assert status == "0", (command, output, proc.stderr)
            if "MEDIA_SCANNER_SCAN_FILE" in command:
                assert "Broadcast completed: result=0" in output, output
            if command.startswith("adb devices"):
                assert all(f"{serial}\tdevice" in output for serial in serials), output
        assert (tmp_path / "screen.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert "sunset.jpg" in outputs[-1] and "2024_05_01_09_30_00.m4a" in outputs[-1]
    finally:
        serve.terminate()
        serve.wait(timeout=30)


def test_the_allure_install_leaves_the_checkout_clean(tmp_path):
    """The README's `npm install` line, run at the root of a checkout with the repository's
    .gitignore, adds nothing `git status` lists (plain `npm install X` writes a package.json)."""
    command = next(c for c in readme_commands() if c.startswith("npm install"))
    assert COMMANDS[command] == RUN
    if shutil.which("npm") is None:
        if os.environ.get("MOBILEAGENT_REQUIRE_HTML") == "1":
            pytest.fail("npm not found (MOBILEAGENT_REQUIRE_HTML is set)")
        pytest.skip("npm not found (apt-get install -y npm)")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    shutil.copy(ROOT / ".gitignore", checkout / ".gitignore")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@localhost"]
    subprocess.run([*git, "init", "-q"], cwd=checkout, check=True)
    subprocess.run([*git, "add", ".gitignore"], cwd=checkout, check=True)
    subprocess.run([*git, "commit", "-qm", "ignore"], cwd=checkout, check=True)

    proc = subprocess.run(["bash", "-c", command], cwd=checkout, capture_output=True, text=True, timeout=300)
    if proc.returncode != 0 and re.search(r"ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT", proc.stderr) \
            and os.environ.get("MOBILEAGENT_REQUIRE_HTML") != "1":
        pytest.skip(f"the npm registry is not reachable: {proc.stderr.strip()[-300:]}")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert (checkout / "node_modules" / ".bin" / "allure").exists()  # what `npx allure` runs
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=all"], cwd=checkout,
                            capture_output=True, text=True, check=True).stdout
    assert status == "", f"{command!r} left files git lists:\n{status}"
