"""The benchmark ships in the wheel: built from this checkout, installed into a fresh
virtualenv (not editable), it runs all 100 tasks from an empty directory.

    pytest --pyargs pytest_mobileagent.task_tests --agent=replay -n 2

The wheel is built offline (``pip wheel --no-build-isolation``, with the
setuptools and wheel already installed) from a copy of the files the build
reads, so the build leaves nothing in the checkout. The venv sees the
system's site-packages for the dependencies; the wheel itself is installed
into it with ``--no-deps``.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD_INPUTS = ("pyproject.toml", "README.md", "pytest_mobileagent", "task_tests", "fixtures")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    source = tmp_path_factory.mktemp("source")
    for name in BUILD_INPUTS:
        path = ROOT / name
        if path.is_dir():
            shutil.copytree(path, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(path, source / name)
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(out), str(source)],
        capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    (built,) = out.glob("pytest_mobileagent-*.whl")
    return built


@pytest.fixture(scope="module")
def venv_python(wheel, tmp_path_factory) -> Path:
    venv = tmp_path_factory.mktemp("venv")
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    # --system-site-packages gives the base interpreter's packages. When this run's own Python is a
    # virtualenv, the dependencies (pytest-xdist, adbutils, ...) are in its site-packages instead:
    # a .pth line adds those directories after the new venv's own (where the wheel goes), as plain
    # paths, so the editable install's import hook there stays off and the wheel is what runs.
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True, timeout=60).stdout.strip()
    (Path(purelib) / "_test_run_site_packages.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    proc = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
                           "--disable-pip-version-check", str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return python


@pytest.fixture
def empty_dir(tmp_path) -> Path:
    path = tmp_path / "empty"
    path.mkdir()
    return path


def _run(python: Path, cwd: Path, *args: str, adb_port: int | None = None, timeout: float = 600):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTEST_ADDOPTS", "PYTEST_XDIST_WORKER")}
    if adb_port is not None:
        env["ANDROID_ADB_SERVER_PORT"] = str(adb_port)
    return subprocess.run([str(python), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_the_wheel_holds_every_package_the_benchmark_and_its_media():
    """Every source directory with Python in it is a package of the wheel (pyproject.toml lists them:
    a subpackage added to the tree but not to the list fails here), and the mapped ones hold the tasks
    and every media file."""
    from setuptools import find_namespace_packages

    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    in_tree = {name for name in find_namespace_packages(str(ROOT), include=["pytest_mobileagent*"])
               if any((ROOT / name.replace(".", "/")).glob("*.py"))}
    assert in_tree - listed == set(), "packages missing from [tool.setuptools] packages in pyproject.toml"


def test_the_built_wheel_has_the_tasks_media_and_phone(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    tasks = {p.name for p in (ROOT / "task_tests").glob("*.py")}
    assert {f"pytest_mobileagent/task_tests/{name}" for name in tasks} <= names
    media = {p.relative_to(ROOT / "fixtures").as_posix() for p in (ROOT / "fixtures").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts}
    assert {f"pytest_mobileagent/benchmark_media/{name}" for name in media} <= names
    assert "pytest_mobileagent/virtual_phone/adbd/endpoint.py" in names
    assert "pytest_mobileagent/listener/listener.apk" in names
    assert not any("__pycache__" in name for name in names)


def test_selecting_by_module_and_by_name_works_as_in_the_repository(venv_python, empty_dir):
    where = _run(venv_python, empty_dir, "-c", "import pytest_mobileagent.task_tests as t; print(t.__file__)")
    assert Path(where.stdout.strip()).is_relative_to(venv_python.parent.parent), where.stdout + where.stderr
    by_module = _run(venv_python, empty_dir, "-m", "pytest", "--pyargs", "pytest_mobileagent.task_tests.test_notes",
                     "--collect-only", "-q", "-p", "no:cacheprovider")
    notes = [line for line in by_module.stdout.splitlines() if "::test_note" in line]
    assert len(notes) == 10, by_module.stdout[-2000:] + by_module.stderr[-2000:]
    by_name = _run(venv_python, empty_dir, "-m", "pytest", "--pyargs", "pytest_mobileagent.task_tests",
                   "-k", "calculator", "--collect-only", "-q", "-p", "no:cacheprovider")
    collected = [line for line in by_name.stdout.splitlines() if "::" in line]
    assert len(collected) == 10 and all("test_calculator.py::" in line for line in collected), by_name.stdout[-2000:]


def test_all_100_tasks_run_from_an_empty_directory(venv_python, empty_dir, empty_adb_server):
    results = empty_dir.parent / "results.json"
    proc = _run(venv_python, empty_dir, "-m", "pytest", "--pyargs", "pytest_mobileagent.task_tests",
                "--agent=replay", "-n", "2", "-p", "no:cacheprovider", f"--results-json={results}",
                adb_port=empty_adb_server)
    last_line = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    assert "100 passed" in last_line, f"exit {proc.returncode}\n" + proc.stdout[-4000:] + proc.stderr[-2000:]
    tasks = json.loads(results.read_text())["tasks"]
    assert len(tasks) == 100 and all(t["success"] for t in tasks)
    # the media-seeded apps found their files in the wheel
    assert {t["app"] for t in tasks} >= {"gallery", "filemanager", "music", "recorder"}
    # nothing of ours written into the user's directory (other installed plugins may keep dot-directories)
    assert [p.name for p in empty_dir.iterdir() if not p.name.startswith(".")] == []
