"""A tiny RFC 4180 tokenizer for the reference, written to be obviously right.

Python's csv module cannot report an unterminated quote or text after a closing
quote, so records are cut by hand, byte by byte (docs/semantics.md "Malformed
records"):
  - a record ends at LF, CRLF or a lone CR outside quotes, or at the end of input;
  - an empty line is skipped and is not a record;
  - a field starting with a quote is quoted; "" inside it is one quote; line ends
    inside it are data;
  - a quote inside an unquoted field is kept literally;
  - a record is malformed when a character other than a delimiter or line end
    follows a closing quote (the rest of that field is then read as unquoted text),
    when a quote is never closed (the record runs to the end of input), when it is
    not valid UTF-8, or (checked by the caller) when its field count differs from
    the header's.
"""


class Record:
    __slots__ = ("fields", "raw", "malformed")

    def __init__(self, fields, raw, malformed):
        self.fields = fields        # list of str (valid UTF-8) or None when undecodable
        self.raw = raw              # bytes of the record without its line end
        self.malformed = malformed  # a tokenizer-level problem (not the field count)


def _line_end_length(data, pos):
    """Length of the line end starting at pos (0 when there is none)."""
    if data[pos:pos + 2] == b"\r\n":
        return 2
    if data[pos:pos + 1] in (b"\n", b"\r"):
        return 1
    return 0


def read_records(data, delimiter=b",", quote=b'"'):
    """Yields every Record of `data` (bytes), the header included, in order."""
    pos, size = 0, len(data)
    delim, quote_byte = delimiter[0], quote[0]
    while pos < size:
        skip = _line_end_length(data, pos)
        if skip:  # empty line
            pos += skip
            continue
        start, fields, malformed = pos, [], False
        while True:  # one field per iteration
            field = bytearray()
            if pos < size and data[pos] == quote_byte:
                pos += 1
                closed = False
                while pos < size:
                    if data[pos] == quote_byte:
                        if pos + 1 < size and data[pos + 1] == quote_byte:
                            field.append(quote_byte)
                            pos += 2
                            continue
                        pos += 1
                        closed = True
                        break
                    field.append(data[pos])
                    pos += 1
                if not closed:
                    malformed = True  # unterminated: the record runs to the end of input
                elif pos < size and data[pos] != delim and not _line_end_length(data, pos):
                    malformed = True  # text after the closing quote
            while pos < size and data[pos] != delim and not _line_end_length(data, pos):
                field.append(data[pos])
                pos += 1
            fields.append(bytes(field))
            if pos < size and data[pos] == delim:
                pos += 1
                continue
            break
        raw = data[start:pos]
        pos += _line_end_length(data, pos) if pos < size else 0
        try:
            raw.decode("utf-8")
            decoded = [f.decode("utf-8") for f in fields]
        except UnicodeDecodeError:
            decoded, malformed = None, True
        yield Record(decoded, raw, malformed)
