"""The studio: watch and drive a phone in the browser, record a task as code, watch a run live.

- ``mobileagent-studio`` (:mod:`.cli`): the page for one device (:mod:`.app`):
  its live screen (:mod:`.live`), its view hierarchy with each view's golden
  selector (:mod:`.locate`), recording to a task module (:mod:`.recorder`) and
  replaying it with the plugin (:mod:`.replay`).
- ``pytest --mobileagent-watch`` (:mod:`.watch`): every worker's phone, the
  agent's last action and LLM output, the step count and the milestones.

Both are served by :mod:`.web` on 127.0.0.1 under a secret token.
"""
