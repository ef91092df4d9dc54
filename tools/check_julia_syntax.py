#!/usr/bin/env python3
"""Parses every .jl file of bindings/julia/CuNumpy with tree-sitter's Julia
grammar (pip install tree-sitter tree-sitter-julia) and reports syntax
errors: Julia itself is not installable on our machines. Exit 77 (ctest
SKIP) when the parser is not installed."""
import glob
import os
import sys

try:
    import tree_sitter_julia
    from tree_sitter import Language, Parser
except ImportError:
    print("check_julia_syntax.py: skipped: pip install tree-sitter "
          "tree-sitter-julia")
    sys.exit(77)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def errors(tree, src):
    out, stack = [], [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type == "ERROR" or n.is_missing:
            text = src[n.start_byte:n.end_byte][:60].decode(errors="replace")
            out.append("line %d: %r" % (n.start_point[0] + 1, text))
        stack.extend(n.children)
    return out


def main():
    parser = Parser(Language(tree_sitter_julia.language()))
    files = sorted(glob.glob(os.path.join(ROOT, "bindings", "julia", "**",
                                          "*.jl"), recursive=True))
    bad = 0
    for f in files:
        with open(f, "rb") as fh:
            src = fh.read()
        for e in errors(parser.parse(src), src):
            bad += 1
            print("%s: %s" % (os.path.relpath(f, ROOT), e))
    print("julia syntax: %d files, %d errors" % (len(files), bad))
    return 1 if bad or not files else 0


if __name__ == "__main__":
    sys.exit(main())
