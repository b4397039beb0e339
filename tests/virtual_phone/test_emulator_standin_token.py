"""The stand-in emulator's console token when several instances start at once."""

from __future__ import annotations

import threading

from pytest_mobileagent.virtual_phone.emulator_standin import _auth_token


def test_instances_starting_together_share_one_whole_token(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    for _ in range(20):
        (tmp_path / ".emulator_console_auth_token").unlink(missing_ok=True)
        tokens, errors = [], []

        def start():
            try:
                tokens.append(_auth_token())
            except Exception as exc:  # noqa: BLE001 -- any failure is the finding
                errors.append(exc)

        threads = [threading.Thread(target=start) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=10)
        assert errors == [] and len(tokens) == 8 and len(set(tokens)) == 1 and tokens[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".emulator_console_auth_token"]
