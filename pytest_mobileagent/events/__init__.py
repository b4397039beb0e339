"""App events: the event model, its parsers and the per-worker event server."""

from .model import Event, parse_event_line, parse_mab_post
from .server import EventServer

__all__ = ["Event", "EventServer", "parse_event_line", "parse_mab_post"]
