"""ELAN: the ``.eaf`` reader and writer (:mod:`.eaf`), the file's checked structure and its XML text."""
