"""Preloaded by the process pool's fork server (and imported by nothing else).

A worker starts as a fork of the fork server and first reads its start-up data from the
parent. When the parent is killed at that moment (``clfeval`` ends on SIGTERM by killing
the pool's known workers and the fork server, then exits with one line on stderr), the
new worker finds the pipe closed and the fork server would print the traceback of that
read on the stderr it shares with the command, after the command's one-line message.
This hook keeps such a worker quiet: nobody is listening to it any more. Every other
uncaught exception is printed as before.
"""

from __future__ import annotations

import pickle
import sys
from types import TracebackType

_DEFAULT = sys.excepthook

#: what reading the start-up data from a parent that is gone raises
PARENT_GONE = (EOFError, pickle.UnpicklingError, ConnectionError)


def _quiet_when_orphaned(kind: type[BaseException], value: BaseException,
                         tb: TracebackType | None) -> None:
    if issubclass(kind, PARENT_GONE):
        return
    _DEFAULT(kind, value, tb)


sys.excepthook = _quiet_when_orphaned
