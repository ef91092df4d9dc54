"""``.. cunumpy-c-api::`` renders every public header of include/cunumpy:
one section per header with its leading comment, then each function's
prototype and comment, read by tools/header_comments.py."""

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles

import header_comments


def _literal(text):
    return ["::", ""] + ["   " + ln for ln in text.splitlines()] + [""]


class CApiDirective(SphinxDirective):
    has_content = False

    def run(self):
        lines = []
        for header, fns in header_comments.all_headers().items():
            path = "include/cunumpy/" + header
            self.env.note_dependency(
                str(header_comments.os.path.join(header_comments.HEADER_DIR,
                                                 header)))
            lines += [path, "-" * len(path), ""]
            overview = fns.get(None, ("", ""))[1]
            if overview:
                lines += _literal(overview)
            for name in sorted(n for n in fns if n is not None):
                proto, comment = fns[name]
                lines += [f".. rubric:: {name}", "",
                          ".. code-block:: c", "", "   " + proto, ""]
                if comment:
                    lines += _literal(comment)
        node = nodes.section()
        nested_parse_with_titles(self.state, StringList(lines, "c_api"), node)
        return node.children


def setup(app):
    app.add_directive("cunumpy-c-api", CApiDirective)
    return {"parallel_read_safe": True, "version": "1"}
