"""CLAN CHAT: the ``.cha`` reader and writer (:mod:`.cha`), its line records, marks and terminators."""
