"""The source text Trident's frontend reads for a kernel file.

The frontend knows Triton's module names (`triton`, `triton.language`). A script
written for Trident says `import trident` and `import trident.language as tl`, so
every `trident` name token is given to the frontend as `triton`: imports,
decorators (`@trident.jit`, `@trident.autotune`), `trident.cdiv` in heuristics.
Strings and comments are left alone, and no line is added or removed, so line
numbers in diagnostics are the file's own (a column after such a name on the same
line is one less than in the file).
"""

import io
import os
import tokenize

_cache = {}


def _rename(text):
    if "trident" not in text:
        return text
    lines = text.splitlines(keepends=True)
    spots = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.NAME and tok.string == "trident":
                spots.append(tok.start)
    except (tokenize.TokenError, SyntaxError):
        return text  # the frontend reports the file's own syntax error
    for row, col in reversed(spots):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + "triton" + line[col + len("trident"):]
    return "".join(lines)


def read_source(path):
    """The text of `path` as the frontend should read it (cached per modification)."""
    st = os.stat(path)
    key = (path, st.st_mtime_ns, st.st_size)
    text = _cache.get(key)
    if text is None:
        with open(path, encoding="utf-8") as f:
            text = _rename(f.read())
        _cache[key] = text
    return text
