"""A small EDN reader and writer for zabkit histories: nil, booleans, integers (N suffix), floats,
strings, characters, keywords, symbols, vectors, lists, maps, sets, comments, #_ discard and tagged
values (a tag such as #jepsen.history.Op{...} reads as its value). Written for this harness so that it
shares nothing with zk-check's own reader."""

import re


class Keyword(str):
    """An EDN keyword; its str value is the name without the colon."""

    def __repr__(self):
        return ":" + self


class Symbol(str):
    pass


def kw(name):
    return Keyword(name)


_WS = " \t\r\n,"
_DELIM = _WS + "()[]{}\";"
_INT = re.compile(r"^[+-]?\d+N?$")
_FLOAT = re.compile(r"^[+-]?\d+(\.\d*)?([eE][+-]?\d+)?M?$")
_CHARS = {"newline": "\n", "space": " ", "tab": "\t", "return": "\r"}


class EdnError(ValueError):
    pass


class _Reader:
    def __init__(self, text):
        self.s = text
        self.i = 0

    def skip(self):
        s, n = self.s, len(self.s)
        while self.i < n:
            c = s[self.i]
            if c in _WS:
                self.i += 1
            elif c == ";":
                while self.i < n and s[self.i] != "\n":
                    self.i += 1
            else:
                break

    def read(self):
        self.skip()
        if self.i >= len(self.s):
            raise EdnError("unexpected end of input")
        c = self.s[self.i]
        if c == "{":
            self.i += 1
            items = self.seq("}")
            if len(items) % 2:
                raise EdnError("map with an odd number of forms at %d" % self.i)
            return {_hashable(items[k]): items[k + 1] for k in range(0, len(items), 2)}
        if c == "[":
            self.i += 1
            return self.seq("]")
        if c == "(":
            self.i += 1
            return self.seq(")")
        if c == '"':
            return self.string()
        if c == "\\":
            return self.char()
        if c == "#":
            return self.dispatch()
        if c in ")]}":
            raise EdnError("unexpected %r at %d" % (c, self.i))
        return self.atom()

    def seq(self, close):
        out = []
        while True:
            self.skip()
            if self.i >= len(self.s):
                raise EdnError("missing %r" % close)
            if self.s[self.i] == close:
                self.i += 1
                return out
            if self.s.startswith("#_", self.i):
                self.i += 2
                self.read()
                continue
            out.append(self.read())

    def string(self):
        self.i += 1
        out = []
        s = self.s
        while True:
            if self.i >= len(s):
                raise EdnError("unterminated string")
            c = s[self.i]
            if c == '"':
                self.i += 1
                return "".join(out)
            if c == "\\":
                e = s[self.i + 1]
                if e == "u":
                    out.append(chr(int(s[self.i + 2:self.i + 6], 16)))
                    self.i += 6
                    continue
                out.append({"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}.get(e, e))
                self.i += 2
            else:
                out.append(c)
                self.i += 1

    def char(self):
        self.i += 1
        start = self.i
        self.i += 1
        while self.i < len(self.s) and self.s[self.i] not in _DELIM:
            self.i += 1
        tok = self.s[start:self.i]
        return _CHARS.get(tok, tok)

    def dispatch(self):
        if self.s.startswith("#{", self.i):
            self.i += 2
            return frozenset(_hashable(x) for x in self.seq("}"))
        if self.s.startswith("#_", self.i):
            self.i += 2
            self.read()
            return self.read()
        self.i += 1
        self.atom()  # the tag: its value is read as it is
        return self.read()

    def atom(self):
        start = self.i
        while self.i < len(self.s) and self.s[self.i] not in _DELIM:
            self.i += 1
        tok = self.s[start:self.i]
        if tok == "nil":
            return None
        if tok == "true":
            return True
        if tok == "false":
            return False
        if tok.startswith(":"):
            return Keyword(tok[1:])
        if _INT.match(tok):
            return int(tok.rstrip("N"))
        if _FLOAT.match(tok):
            return float(tok.rstrip("M"))
        if not tok:
            raise EdnError("empty token at %d" % start)
        return Symbol(tok)


def _hashable(x):
    if isinstance(x, list):
        return tuple(_hashable(e) for e in x)
    if isinstance(x, dict):
        return tuple(sorted((repr(k), _hashable(v)) for k, v in x.items()))
    return x


def loads(text):
    """One EDN value."""
    r = _Reader(text)
    v = r.read()
    r.skip()
    if r.i != len(r.s):
        raise EdnError("trailing input at %d" % r.i)
    return v


def read_history(path):
    """A history file: one map per line, or one vector of maps (Jepsen's history.edn)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    stripped = text.lstrip()
    if stripped.startswith("["):
        ops = loads(text)
    else:
        r = _Reader(text)
        ops = []
        while True:
            r.skip()
            if r.i >= len(r.s):
                break
            ops.append(r.read())
    for n, op in enumerate(ops):
        if not isinstance(op, dict):
            raise EdnError("%s: form %d is not a map" % (path, n))
    return ops


def dumps(x):
    if x is None:
        return "nil"
    if x is True:
        return "true"
    if x is False:
        return "false"
    if isinstance(x, Keyword):
        return ":" + x
    if isinstance(x, Symbol):
        return str(x)
    if isinstance(x, str):
        return '"' + x.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    if isinstance(x, float):
        return repr(x)
    if isinstance(x, dict):
        return "{" + ", ".join(dumps(k) + " " + dumps(v) for k, v in x.items()) + "}"
    if isinstance(x, (list, tuple)):
        return "[" + " ".join(dumps(e) for e in x) + "]"
    if isinstance(x, (set, frozenset)):
        return "#{" + " ".join(dumps(e) for e in sorted(x, key=repr)) + "}"
    raise TypeError("cannot write %r as EDN" % (x,))


def write_history(path, ops):
    with open(path, "w", encoding="utf-8") as f:
        for op in ops:
            f.write(dumps(op))
            f.write("\n")
