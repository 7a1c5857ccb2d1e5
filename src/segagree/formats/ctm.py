"""CTM time-marked words or phones (read and write): see :mod:`segagree.formats.timed_lists`."""

from segagree.formats.timed_lists import CTM_ADAPTER as ADAPTER

__all__ = ["ADAPTER"]
