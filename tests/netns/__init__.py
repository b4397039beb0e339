"""A device machine in a network namespace of its own, for tests/test_netns_remote.py."""
