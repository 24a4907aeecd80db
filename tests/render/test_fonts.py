"""The shipped typeface: loading it must not turn an interrupt into an error."""

from __future__ import annotations

import os
import signal

import pytest

from terragen.interrupts import Terminated, install_handlers
from terragen.render import fonts


def test_sigterm_while_the_font_files_load_stops_as_an_interrupt(monkeypatch):
    """reportlab opens a font file inside a bare ``except`` and reports anything raised there as
    "Can't open file"; a SIGTERM that lands then must still end the command as SIGTERM (exit 143),
    not as an internal error."""
    import reportlab.lib.utils as rl_utils

    opened = rl_utils.open_for_read_by_name
    sent = []

    def open_with_a_signal(name, mode="b"):
        if not sent:
            sent.append(name)
            os.kill(os.getpid(), signal.SIGTERM)  # the handler runs at the next bytecode, inside reportlab's try
        return opened(name, mode)

    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    monkeypatch.setattr(rl_utils, "open_for_read_by_name", open_with_a_signal)
    fonts.register.cache_clear()
    install_handlers()
    try:
        with pytest.raises(Terminated):
            fonts.register()
    finally:
        for s, h in old.items():
            signal.signal(s, h)
        fonts.register.cache_clear()
    assert sent, "reportlab no longer opens fonts this way: the test does not reach the case"
    assert fonts.font_name(bold=True) == fonts.BOLD  # and a later call registers them as usual
