"""The comment of each public C function in include/cunumpy/*.h.

A comment block documents the declarations that follow it directly (a
group of consecutive declarations shares one comment, up to a blank line).
Declarations written through a *_DECL_(name) macro are expanded from the
macro's own text, so the prototype shown is the one the compiler sees.
Used by tools/gen_docstrings.py (Python docstrings of thin wrappers) and
docs/conf.py (the C API pages): the text lives once, in the headers.
"""

import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADER_DIR = os.path.join(ROOT, "include", "cunumpy")

_DECL = re.compile(r"\bCN_API\b[^;]*?\b(cn_\w+)\s*\(")
_MACRO_USE = re.compile(r"^\s*(CN_\w+_DECL_)\((cn_\w+)\)\s*;")
_MACRO_DEF = re.compile(r"#define\s+(CN_\w+_DECL_)\((\w+)\)\s*(.*)", re.S)


def _clean_comment(block):
    text = block.strip()
    text = re.sub(r"^/\*+", "", text)
    text = re.sub(r"\*+/$", "", text)
    lines = [re.sub(r"^\s*\* ?", "", ln) for ln in text.splitlines()]
    return "\n".join(ln.rstrip() for ln in lines).strip()


def _logical_lines(src):
    """(kind, text) items: 'comment', 'blank', 'define', 'code'."""
    i, n, out = 0, len(src), []
    lines = src.splitlines(keepends=True)
    k = 0
    while k < len(lines):
        ln = lines[k]
        s = ln.strip()
        if not s:
            out.append(("blank", ""))
            k += 1
        elif s.startswith("/*"):
            block = ln
            while "*/" not in block[block.index("/*") + 2:]:
                k += 1
                block += lines[k]
            k += 1
            out.append(("comment", block))
        elif s.startswith("#"):
            block = ln
            while block.rstrip().endswith("\\") and k + 1 < len(lines):
                k += 1
                block += lines[k]
            k += 1
            out.append(("define", block))
        else:
            block = ln
            while ";" not in block and "{" not in block and k + 1 < len(lines):
                k += 1
                block += lines[k]
            k += 1
            out.append(("code", block))
    del i, n
    return out


def _prototype(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"\bCN_API\s+", "", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text.rstrip(";").strip() + ";"


def parse_header(path):
    """{name: (prototype, comment)} for the functions one header declares,
    plus the header's own leading comment under the key None."""
    with open(path, encoding="utf-8") as f:
        src = f.read()
    items = _logical_lines(src)
    macros, result, comment = {}, {}, None
    first = next((t for k, t in items if k != "blank"), "")
    result[None] = ("", _clean_comment(first) if first.lstrip().startswith("/*")
                    else "")
    for kind, text in items:
        if kind == "blank":
            comment = None
        elif kind == "comment":
            comment = _clean_comment(text)
        elif kind == "define":
            m = _MACRO_DEF.match(text.strip())
            if m:
                body = m.group(3).replace("\\\n", " ")
                macros[m.group(1)] = (m.group(2), body)
            comment = None
        else:
            m = _MACRO_USE.match(text)
            if m and m.group(1) in macros:
                param, body = macros[m.group(1)]
                proto = re.sub(r"\b%s\b" % param, m.group(2), body)
                result[m.group(2)] = (_prototype(proto), comment or "")
                continue
            for name in _DECL.findall(text):
                result[name] = (_prototype(text), comment or "")
    return result


def all_headers():
    """{header file name: parse_header(...)} for every public header."""
    return {h: parse_header(os.path.join(HEADER_DIR, h))
            for h in sorted(os.listdir(HEADER_DIR)) if h.endswith(".h")}


def functions():
    """{cn_name: (header, prototype, comment)} over all public headers."""
    out = {}
    for h, fns in all_headers().items():
        for name, (proto, comment) in fns.items():
            if name is not None:
                out[name] = (h, proto, comment)
    return out


if __name__ == "__main__":
    fns = functions()
    undoc = sorted(n for n, v in fns.items() if not v[2])
    print(len(fns), "functions,", len(undoc), "without a comment")
    for n in undoc:
        print("  ", n)
