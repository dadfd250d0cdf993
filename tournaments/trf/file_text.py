"""A TRF file's bytes as the text the reader takes: its encoding and its line breaks."""

from __future__ import annotations

# Bytes: a TRF line per player and round block; this holds an open of thousands of players.
TRF_UPLOAD_MAX = 2_000_000
# UTF-8 first (with or without its byte-order mark); Swiss-Manager and Vega often write
# Latin-1, which decodes any bytes, so a file is never refused for its encoding.
ENCODINGS = ("utf-8-sig", "latin-1")


def trf_text_decode(data: bytes) -> str:
    """The text of an uploaded file, its line breaks made `\\n` as `kz trf import` reads a
    file (Python's universal newlines): `\\r\\n` and a lone `\\r` alike, so line numbers
    in a refusal are those an editor shows."""
    text = ""
    for encoding in ENCODINGS:
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        break
    return text.replace("\r\n", "\n").replace("\r", "\n")
