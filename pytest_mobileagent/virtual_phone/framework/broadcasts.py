"""The activity manager's broadcast receivers.
"""

#: action -> fn(invocation, intent): the system's receivers of broadcasts sent with `am broadcast`
#: (modules that model a system service register theirs, e.g. shell/media.py for the media scanner)
BROADCAST_RECEIVERS: dict = {}


