"""How the reports write a file's name. A name that is not valid UTF-8 (Latin-1 ``café.py`` from
an old archive) reaches Python with each bad byte as a lone surrogate (PEP 383); every output
format writes it faithfully in its own way (README.md, "Output formats"): ``\\xNN`` escapes in
text, concise and JSON, percent-encoding in SARIF URIs, git's quoting in a ``--diff`` header, and
no ``file=`` in a GitHub annotation. The cli uses these too (its ``fixed``/``left`` lines, the
diff headers, the baseline keys), so they live with the reporters and read nothing but a name."""

from __future__ import annotations

import os


def shown_path(display: str) -> str:
    r"""``display`` as the reports print it. A file name that is not valid UTF-8 (Latin-1
    ``caf\xe9.py`` from an old archive) reaches Python with each bad byte as a lone surrogate
    (PEP 383), which no UTF-8 output and no JSON consumer accepts; each such byte is written as
    ``\xNN`` instead (``caf\xe9.py``), as Python's ``backslashreplace`` does. Other names are
    unchanged."""
    try:
        display.encode("utf-8")
        return display
    except UnicodeEncodeError:
        return os.fsencode(display).decode("utf-8", errors="backslashreplace")


def is_faithful(display: str) -> bool:
    """True when :func:`shown_path` prints ``display`` unchanged (the name is valid UTF-8)."""
    return shown_path(display) == display


def path_uri(display: str) -> str:
    """A relative URI reference for ``display`` (RFC 3986, as SARIF's ``artifactLocation.uri``
    must be): the file name's own bytes, percent-encoded except unreserved characters and ``/``
    (``caf%E9.py``, ``my%20server.py``)."""
    from urllib.parse import quote

    return quote(os.fsencode(display), safe="/")


def diff_path(display: str) -> str:
    r"""``display`` for a unified diff's ``---``/``+++`` header, quoted as git quotes a name that
    is not valid UTF-8 (``"a/caf\351.py"``, octal escapes; ``git apply`` and GNU ``patch`` read
    it); other names unchanged."""
    if is_faithful(display):
        return display
    out = []
    for byte in os.fsencode(display):
        ch = chr(byte)
        if ch in '"\\':
            out.append("\\" + ch)
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return '"' + "".join(out) + '"'
