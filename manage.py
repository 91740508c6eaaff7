#!/usr/bin/env python
"""Django's command-line utility for OrgMemory."""

import os
import signal
import sys
from pathlib import Path


def main() -> None:
    # A shell without job control (a script, nohup) starts background commands with SIGINT ignored, and Python
    # then keeps ignoring it: a backgrounded `make run` could not be stopped with kill -INT.
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orgmemory.settings")
    from orgmemory.env import apply_local_run

    # on a `make run` machine, commands run as pasted (development mode, its data folder); elsewhere the
    # production default still fails closed
    apply_local_run(Path(__file__).resolve().parent)
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
