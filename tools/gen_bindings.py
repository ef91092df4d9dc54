#!/usr/bin/env python3
"""Generates the raw Fortran and Julia bindings from the public C headers.

    python3 tools/gen_bindings.py                 # rewrite the checked-in files
    python3 tools/gen_bindings.py --outdir DIR    # write them under DIR instead
    python3 tools/gen_bindings.py --check         # exit 1 when they are stale
    python3 tools/gen_bindings.py --check-julia LIB
        # every ccall in bindings/julia/CuNumpy/src/*.jl must name a symbol that
        # LIB exports, with the argument and return types of its C prototype
    python3 tools/gen_bindings.py --self-test
        # the ccall check must catch a set of known mistakes

The headers include/cunumpy/*.h are parsed with libclang (PyPI package
"libclang"), so declarations written through macros (reduce.h's
CN_REDUCE_DECL_) are seen as the compiler sees them. Outputs:

    bindings/fortran/cunumpy_c.f90        module cunumpy_c: bind(c) interfaces
    bindings/fortran/cunumpy_wrappers.inc the module cunumpy's procedures for
        every C function of a known signature shape (FORTRAN_FAMILIES)
    bindings/julia/CuNumpy/src/generated.jl  ccall wrappers and constants

Whatever cannot be mapped (a type with no Fortran/Julia equivalent, a macro
that is not an integer constant) is printed on stderr and listed in a comment
block of each output; nothing is dropped silently.
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile
import textwrap

try:
    import clang.cindex as ci
except ImportError:  # pragma: no cover - environment problem
    sys.exit("gen_bindings.py: needs libclang's Python bindings: "
             "pip install libclang")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = os.path.join(ROOT, "include")
HEADER_DIR = os.path.join(INCLUDE, "cunumpy")
UMBRELLA = "cunumpy.h"
FORTRAN_OUT = os.path.join("bindings", "fortran", "cunumpy_c.f90")
FORTRAN_WRAPPERS_OUT = os.path.join("bindings", "fortran",
                                    "cunumpy_wrappers.inc")
FORTRAN_HAND_WRITTEN = os.path.join(ROOT, "bindings", "fortran", "cunumpy.F90")
JULIA_OUT = os.path.join("bindings", "julia", "CuNumpy", "src", "generated.jl")
JULIA_SRC = os.path.join(ROOT, "bindings", "julia", "CuNumpy", "src")
FIX_IT = "run python3 tools/gen_bindings.py"

# Enum members with this suffix only force the enum to 32 bits.
SENTINEL_SUFFIX = "_FORCE_INT32_"

K = ci.TypeKind

# Scalar C types: (Fortran declaration, Fortran kind name to import, Julia).
# Fortran has no unsigned integers: unsigned types use the signed kind of
# the same width (same bits, same calling convention).
PRIMITIVES = {
    K.BOOL: ("logical(c_bool)", "c_bool", "Bool"),
    K.CHAR_S: ("character(kind=c_char)", "c_char", "UInt8"),
    K.CHAR_U: ("character(kind=c_char)", "c_char", "UInt8"),
    K.SCHAR: ("integer(c_signed_char)", "c_signed_char", "Int8"),
    K.UCHAR: ("integer(c_signed_char)", "c_signed_char", "UInt8"),
    K.SHORT: ("integer(c_short)", "c_short", "Int16"),
    K.USHORT: ("integer(c_short)", "c_short", "UInt16"),
    K.INT: ("integer(c_int)", "c_int", "Int32"),
    K.UINT: ("integer(c_int)", "c_int", "UInt32"),
    K.LONG: ("integer(c_long)", "c_long", "Int64"),
    K.ULONG: ("integer(c_long)", "c_long", "UInt64"),
    K.LONGLONG: ("integer(c_long_long)", "c_long_long", "Int64"),
    K.ULONGLONG: ("integer(c_long_long)", "c_long_long", "UInt64"),
    K.FLOAT: ("real(c_float)", "c_float", "Float32"),
    K.DOUBLE: ("real(c_double)", "c_double", "Float64"),
}
# The fixed-width typedefs keep their names in Fortran (c_int64_t, ...).
FIXED_WIDTH = {
    "int8_t": ("integer(c_int8_t)", "c_int8_t", "Int8"),
    "int16_t": ("integer(c_int16_t)", "c_int16_t", "Int16"),
    "int32_t": ("integer(c_int32_t)", "c_int32_t", "Int32"),
    "int64_t": ("integer(c_int64_t)", "c_int64_t", "Int64"),
    "uint8_t": ("integer(c_int8_t)", "c_int8_t", "UInt8"),
    "uint16_t": ("integer(c_int16_t)", "c_int16_t", "UInt16"),
    "uint32_t": ("integer(c_int32_t)", "c_int32_t", "UInt32"),
    "uint64_t": ("integer(c_int64_t)", "c_int64_t", "UInt64"),
    "size_t": ("integer(c_size_t)", "c_size_t", "Csize_t"),
    "ptrdiff_t": ("integer(c_ptrdiff_t)", "c_ptrdiff_t", "Cptrdiff_t"),
}
JULIA_KEYWORDS = {
    "baremodule", "begin", "break", "catch", "const", "continue", "do",
    "else", "elseif", "end", "export", "false", "finally", "for", "function",
    "global", "if", "import", "let", "local", "macro", "module", "quote",
    "return", "struct", "true", "try", "using", "while", "abstract",
    "mutable", "primitive", "type", "where", "in", "isa", "outer",
}


class Unmappable(Exception):
    pass


# --------------------------------------------------------------------------
# parsing


def system_include_args():
    """The PyPI libclang has no resource headers (stddef.h): borrow the C
    compiler's."""
    args = []
    for cc in (os.environ.get("CC", ""), "cc", "gcc", "clang"):
        if not cc:
            continue
        try:
            path = subprocess.run([cc, "-print-file-name=include"],
                                  capture_output=True, text=True,
                                  check=True).stdout.strip()
        except (OSError, subprocess.CalledProcessError):
            continue
        if os.path.isfile(os.path.join(path, "stddef.h")):
            args += ["-isystem", path]
            break
    return args


def public_headers():
    return sorted(f for f in os.listdir(HEADER_DIR) if f.endswith(".h"))


def parse(source, name="cn_gen_probe.c"):
    index = ci.Index.create()
    args = ["-x", "c", "-std=gnu11", "-I", INCLUDE] + system_include_args()
    opts = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    return index.parse(name, args=args, unsaved_files=[(name, source)],
                       options=opts)


def fatal_diagnostics(tu):
    return [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]


def in_public_header(cursor):
    f = cursor.location.file
    return f is not None and os.path.dirname(
        os.path.abspath(f.name)) == HEADER_DIR


def header_of(cursor):
    return os.path.basename(cursor.location.file.name)


def check_umbrella(notes):
    """Every header must be reachable through cunumpy.h."""
    tu = parse('#include "cunumpy/%s"\n' % UMBRELLA)
    for d in fatal_diagnostics(tu):
        notes.append("%s: %s" % (UMBRELLA, d.spelling))
    included = {os.path.basename(i.include.name) for i in tu.get_includes()
                if os.path.dirname(os.path.abspath(i.include.name))
                == HEADER_DIR}
    for h in public_headers():
        if h != UMBRELLA and h not in included:
            notes.append("%s is not included by cunumpy/%s" % (h, UMBRELLA))


class Model:
    """What the headers declare, in (header, line) order."""

    def __init__(self):
        self.functions = []   # cursors
        self.enums = []       # (header, enum name, [(name, value)])
        self.macros = []      # (header, name, value)
        self.structs = {}     # name -> [(field, type)] for by-value structs
        self.unmapped = []    # lines for the report
        self.opaque = set()   # complete structs passed only as pointers
        self.notes = []       # problems with the headers themselves


def location_key(cursor):
    return (header_of(cursor), cursor.location.line, cursor.location.column)


def build_model():
    model = Model()
    check_umbrella(model.notes)
    headers = [h for h in public_headers() if h != UMBRELLA]
    source = "".join('#include "cunumpy/%s"\n' % h for h in headers)
    tu = parse(source)
    errors = fatal_diagnostics(tu)
    if errors:
        sys.exit("gen_bindings.py: the headers do not parse:\n" +
                 "\n".join(str(d) for d in errors))

    functions, enums, macros = {}, {}, {}
    for c in tu.cursor.get_children():
        if not in_public_header(c):
            continue
        if c.kind == ci.CursorKind.FUNCTION_DECL:
            functions.setdefault(c.spelling, c)
        elif c.kind == ci.CursorKind.ENUM_DECL:
            # anonymous enums: clang's name for them holds a file path
            name = c.spelling if c.spelling and "(" not in c.spelling else \
                "anonymous enum at line %d" % c.location.line
            if name not in enums:
                members = [(m.spelling, m.enum_value) for m in
                           c.get_children()
                           if m.kind == ci.CursorKind.ENUM_CONSTANT_DECL
                           and not m.spelling.endswith(SENTINEL_SUFFIX)]
                enums[name] = (location_key(c), header_of(c), members)
        elif c.kind == ci.CursorKind.MACRO_DEFINITION:
            toks = list(c.get_tokens())
            if not macro_function_like(toks) and c.spelling not in macros:
                tokens = [t.spelling for t in toks[1:]]
                if tokens:  # empty macros are include guards
                    macros[c.spelling] = (location_key(c), tokens)
    model.functions = sorted(functions.values(), key=location_key)
    model.enums = [(hdr, name, members) for name, (key, hdr, members) in
                   sorted(enums.items(), key=lambda kv: kv[1][0])]
    model.macros = evaluate_macros(macros, headers, model)
    return model


def macro_function_like(tokens):
    """A '(' right after the name, with no space, makes a function-like
    macro (the Python bindings lack clang_Cursor_isMacroFunctionLike)."""
    return (len(tokens) > 1 and tokens[1].spelling == "(" and
            tokens[1].extent.start.offset == tokens[0].extent.end.offset)


def evaluate_macros(macros, headers, model):
    """Integer value of each object-like macro, computed by clang itself: each
    macro becomes an enumerator of its own probe enum."""
    names = sorted(macros, key=lambda n: macros[n][0])
    prelude = "".join('#include "cunumpy/%s"\n' % h for h in headers)
    first = prelude.count("\n") + 1
    body = "".join("enum { cn_gen_probe_%d = (%s) };\n" % (i, n)
                   for i, n in enumerate(names))
    tu = parse(prelude + body)
    bad_lines = {d.location.line for d in fatal_diagnostics(tu)
                 if d.location.file is not None
                 and d.location.file.name == "cn_gen_probe.c"}
    values = {}
    for c in tu.cursor.get_children():
        if c.kind == ci.CursorKind.ENUM_DECL and c.location.file and \
                c.location.file.name == "cn_gen_probe.c":
            for m in c.get_children():
                if m.spelling.startswith("cn_gen_probe_"):
                    values[int(m.spelling[len("cn_gen_probe_"):])] = \
                        m.enum_value
    out = []
    for i, n in enumerate(names):
        key, tokens = macros[n]
        if first + i in bad_lines or i not in values:
            model.unmapped.append("macro %s (%s): not an integer constant: %s"
                                  % (n, key[0], " ".join(tokens)))
            continue
        out.append((key[0], n, values[i]))
    return out


# --------------------------------------------------------------------------
# type mapping


class Param:
    """How one C parameter (or result) crosses into Fortran and Julia."""

    def __init__(self, fdecl, fattrs, kinds, jtype, c_spelling):
        self.fdecl = fdecl      # "integer(c_int32_t)"
        self.fattrs = fattrs    # [", value"] or [", intent(in)", "(*)"]...
        self.kinds = kinds      # iso_c_binding names to import
        self.jtype = jtype      # "Ptr{Int64}"
        self.c_spelling = c_spelling


def typedef_name(t):
    """Innermost typedef name of t (e.g. int64_t), or None."""
    while True:
        if t.kind == K.ELABORATED:  # clang >= 16 wraps named types
            t = t.get_named_type()
        elif t.kind == K.TYPEDEF:
            name = t.get_declaration().spelling
            if name in FIXED_WIDTH:
                return name
            t = t.get_declaration().underlying_typedef_type
        else:
            return None


def sugared_pointee(t):
    """Pointee of pointer type t with its typedef names kept (int64_t stays
    int64_t, not long)."""
    while t.kind != K.POINTER:
        if t.kind == K.ELABORATED:
            t = t.get_named_type()
        elif t.kind == K.TYPEDEF:
            t = t.get_declaration().underlying_typedef_type
        else:
            return t.get_canonical().get_pointee()
    return t.get_pointee()


def strip(t):
    """Removes typedef sugar and elaborations but keeps pointers."""
    return t.get_canonical()


def scalar_value(t, model, where):
    """(fdecl, kinds, jtype) for a value of type t (not a pointer)."""
    fixed = typedef_name(t)
    if fixed:
        f, k, j = FIXED_WIDTH[fixed]
        return f, [k], j
    c = strip(t)
    if c.kind in PRIMITIVES:
        f, k, j = PRIMITIVES[c.kind]
        return f, [k], j
    if c.kind == K.ENUM:
        if c.get_size() != 4:
            raise Unmappable("enum %s is not 32 bits" % c.spelling)
        return "integer(c_int32_t)", ["c_int32_t"], "Int32"
    if c.kind == K.RECORD:
        name = struct_by_value(c, model, where)
        return "type(%s)" % name, [name], name
    raise Unmappable("type %s" % t.spelling)


def struct_by_value(c, model, where):
    """Lays out a struct passed by value as a bind(c) derived type / isbits
    struct; every field must be a scalar we can map."""
    decl = c.get_declaration()
    name = decl.spelling or c.spelling.replace("struct ", "")
    if name in model.structs:
        return name
    if decl.kind != ci.CursorKind.STRUCT_DECL:
        raise Unmappable("%s passed by value" % c.spelling)
    fields = []
    for f in decl.get_children():
        if f.kind != ci.CursorKind.FIELD_DECL:
            continue
        if f.is_bitfield():
            raise Unmappable("bit-field %s.%s" % (name, f.spelling))
        fd, kinds, jt = scalar_value(f.type, model, where)
        if fd.startswith("type("):
            raise Unmappable("nested struct field %s.%s" % (name, f.spelling))
        fields.append((f.spelling, fd, kinds[0], jt))
    model.structs[name] = fields
    return name


def map_param(t, model, where):
    """Mapping of a parameter of C type t. Every pointer to data becomes an
    assumed-size array in Fortran (pass a one-element array for a single
    output value) so that scalar outputs and output arrays (shape, strides)
    follow one rule; const pointers are optional (absent = NULL)."""
    c = strip(t)
    if c.kind != K.POINTER:
        fd, kinds, jt = scalar_value(t, model, where)
        return Param(fd, [", value"], kinds, jt, t.spelling)
    pointee = sugared_pointee(t)
    pc = pointee.get_canonical()
    const = pointee.is_const_qualified()
    if pc.kind == K.FUNCTIONPROTO or pc.kind == K.FUNCTIONNOPROTO:
        return Param("type(c_funptr)", [", value"], ["c_funptr"],
                     "Ptr{Cvoid}", t.spelling)
    if pc.kind == K.VOID:
        return Param("type(c_ptr)", [", value"], ["c_ptr"], "Ptr{Cvoid}",
                     t.spelling)
    if pc.kind in (K.CHAR_S, K.CHAR_U):
        if const:
            return Param("character(kind=c_char)", [", intent(in)", "(*)"],
                         ["c_char"], "Cstring", t.spelling)
        return Param("character(kind=c_char)", ["", "(*)"], ["c_char"],
                     "Ptr{UInt8}", t.spelling)
    intent = ", intent(in), optional" if const else ""
    if pc.kind == K.POINTER:
        # A pointer to pointers (handle arrays, arrays of shapes): opaque
        # elements in Fortran, typed in Julia where the element is known.
        inner = pc.get_pointee().get_canonical()
        jinner = "Ptr{Cvoid}"
        if inner.kind not in (K.RECORD, K.VOID, K.POINTER):
            try:
                jinner = "Ptr{%s}" % scalar_value(
                    sugared_pointee(pointee), model, where)[2]
            except Unmappable:
                pass
        return Param("type(c_ptr)", [intent, "(*)"], ["c_ptr"],
                     "Ptr{%s}" % jinner, t.spelling)
    if pc.kind == K.RECORD:
        if struct_layout_known(pc, model):
            name = struct_by_value(pc, model, where)
            return Param("type(%s)" % name, [intent, "(*)"], [name],
                         "Ptr{%s}" % name, t.spelling)
        # Structs the bindings do not lay out (DLPack tensors) cross as
        # opaque pointers; complete ones are listed in the outputs.
        decl = pc.get_declaration()
        if any(f.kind == ci.CursorKind.FIELD_DECL
               for f in decl.get_children()):
            model.opaque.add(decl.spelling or pc.spelling)
        return Param("type(c_ptr)", [", value"], ["c_ptr"], "Ptr{Cvoid}",
                     t.spelling)
    fd, kinds, jt = scalar_value(pointee, model, where)
    return Param(fd, [intent, "(*)"], kinds, "Ptr{%s}" % jt, t.spelling)


def struct_layout_known(pc, model):
    name = pc.get_declaration().spelling
    return name in model.structs


def map_result(t, model, where):
    c = strip(t)
    if c.kind == K.VOID:
        return None
    if c.kind == K.POINTER:
        pc = c.get_pointee().get_canonical()
        jt = "Cstring" if pc.kind in (K.CHAR_S, K.CHAR_U) else "Ptr{Cvoid}"
        return Param("type(c_ptr)", [""], ["c_ptr"], jt, t.spelling)
    fd, kinds, jt = scalar_value(t, model, where)
    return Param(fd, [""], kinds, jt, t.spelling)


class Function:
    def __init__(self, cursor, model):
        self.name = cursor.spelling
        self.header = header_of(cursor)
        where = "%s (%s)" % (self.name, self.header)
        if cursor.type.kind == K.FUNCTIONNOPROTO:
            raise Unmappable("no prototype")
        if cursor.type.is_function_variadic():
            raise Unmappable("variadic")
        self.result = map_result(cursor.result_type, model, where)
        self.params = []
        used = set()
        for i, a in enumerate(cursor.get_arguments()):
            name = a.spelling or "arg%d" % (i + 1)
            while name.lower() in used:
                name += "_"
            used.add(name.lower())
            self.params.append((name, map_param(a.type, model, where)))
        self.c_prototype = "%s %s(%s)" % (
            cursor.result_type.spelling, self.name,
            ", ".join("%s %s" % (a.type.spelling, a.spelling)
                      for a in cursor.get_arguments()))


def map_functions(model):
    out = []
    # Struct layouts first so that pointers to laid-out structs are typed.
    for c in model.functions:
        try:
            for t in [c.result_type] + [a.type for a in c.get_arguments()]:
                if strip(t).kind == K.RECORD:
                    struct_by_value(strip(t), model, c.spelling)
        except Unmappable:
            pass
    for c in model.functions:
        try:
            out.append(Function(c, model))
        except Unmappable as e:
            model.unmapped.append("function %s (%s): %s" %
                                  (c.spelling, header_of(c), e))
    return out


def fortran_names(model, functions):
    """Fortran name of each function: c_<C name>. The prefix keeps the C names
    free for the hand-written module's procedures (gfortran warns when a
    module procedure shares its name with a bind(c) label) and apart from
    the constants (Fortran names are case-insensitive: cn_scalar_int vs
    CN_SCALAR_INT). A name that still collides is reported and skipped.
    Returns {C name: Fortran name}."""
    seen = {}
    for _, n, _ in model.macros:
        seen.setdefault(n.lower(), n)
    for _, _, members in model.enums:
        for n, _ in members:
            seen.setdefault(n.lower(), n)
    for n in model.structs:
        seen.setdefault(n.lower(), n)
    names = {}
    for f in functions:
        fname = "c_" + f.name
        if fname.lower() in seen:
            model.unmapped.append("function %s: Fortran name %s clashes with "
                                  "%s" % (f.name, fname, seen[fname.lower()]))
            continue
        seen[fname.lower()] = fname
        names[f.name] = fname
    return names


# --------------------------------------------------------------------------
# Fortran output

F_MAX = 100  # keep lines well under free form's 132


def f_wrap(line, indent):
    """Splits a long line at ', ' with Fortran continuation marks."""
    if len(line) <= F_MAX:
        return [line]
    out, cur = [], line
    while len(cur) > F_MAX:
        cut = cur.rfind(", ", 0, F_MAX - 2)
        if cut <= len(indent) + 4:
            break
        out.append(cur[:cut + 1] + " &")
        cur = indent + "    " + cur[cut + 2:]
    out.append(cur)
    return out


def f_int_literal(v):
    """Fortran literal for v. The most negative value of a kind has no
    literal (its magnitude overflows), so it is written as -max - 1."""
    if v >= 2**63:  # unsigned 64-bit: same bits, as the kind map says
        v -= 2**64
    if -2**31 <= v < 2**31:
        kind, suffix, lo = "integer(c_int32_t)", "", -2**31
    else:
        kind, suffix, lo = "integer(c_int64_t)", "_c_int64_t", -2**63
    if v == lo:
        return kind, "-%d%s - 1%s" % (-lo - 1, suffix, suffix)
    return kind, "%d%s" % (v, suffix)


def comment_block(prefix, title, lines):
    out = [prefix + " " + title]
    for ln in lines or ["(none)"]:
        out.append(prefix + "   " + ln)
    return out


def fortran(model, functions, fnames):
    L = []
    L += ["! cunumpy_c: the C ABI of cunumpy as bind(c) interfaces; the C function",
          "! cn_x is c_cn_x here, constants and types keep their C names.",
          "! GENERATED by tools/gen_bindings.py from include/cunumpy/*.h:",
          "! do not edit; " + FIX_IT + " after changing a header.",
          "!",
          "! Mapping: cn_status and the other enums are integer(c_int32_t);",
          "! handles (cn_array, ...) and void* are type(c_ptr), value;",
          "! function pointers (cn_release_fn) are type(c_funptr), value;",
          "! unsigned C integers use the signed kind of the same width; every",
          "! pointer to data is an assumed-size array (pass a one-element",
          "! array for a single output value); const pointers are optional",
          "! (absent = NULL); const char* takes a NUL-terminated string",
          "! (trim(s)//c_null_char); returned strings are type(c_ptr).",
          "! Structs that only travel behind pointers (DLPack) are type(c_ptr).",
          "!"]
    L += comment_block("!", "Not mapped:", model.unmapped)
    L += comment_block("!", "Structs passed as type(c_ptr), fields not bound:",
                       [", ".join(sorted(model.opaque))] if model.opaque
                       else [])
    L += ["module cunumpy_c",
          "  use, intrinsic :: iso_c_binding",
          "  implicit none",
          "  public", ""]
    for hdr, name, members in model.enums:
        if not members:
            continue
        L.append("  ! enum %s (%s)" % (name, hdr))
        for n, v in members:
            kind, lit = f_int_literal(v)
            L.append("  %s, parameter :: %s = %s" % (kind, n, lit))
        L.append("")
    L.append("  ! integer macros")
    for hdr, n, v in model.macros:
        kind, lit = f_int_literal(v)
        L.append("  %s, parameter :: %s = %s  ! %s" % (kind, n, lit, hdr))
    L.append("")
    for name, fields in model.structs.items():
        L.append("  ! struct %s, passed by value" % name)
        L.append("  type, bind(c) :: %s" % name)
        for fname, fd, _, _ in fields:
            L.append("    %s :: %s" % (fd, fname))
        L.append("  end type %s" % name)
        L.append("")
    L.append("  interface")
    for f in functions:
        if f.name in fnames:
            L += fortran_interface(f, fnames[f.name])
    L.append("  end interface")
    L.append("end module cunumpy_c")
    return "\n".join(L) + "\n"


def fortran_interface(f, fname):
    names = [p for p, _ in f.params]
    res = "res"
    while res in (n.lower() for n in names):
        res += "_"
    kinds = set()
    for _, p in f.params:
        kinds.update(p.kinds)
    if f.result:
        kinds.update(f.result.kinds)
    ind = "    "
    if f.result:
        head = "%sfunction %s(%s) bind(c, name='%s') result(%s)" % (
            ind, fname, ", ".join(names), f.name, res)
    else:
        head = "%ssubroutine %s(%s) bind(c, name='%s')" % (
            ind, fname, ", ".join(names), f.name)
    out = ["    ! " + ln for ln in textwrap.wrap(f.c_prototype, F_MAX - 6,
                                              subsequent_indent="    ")]
    out += f_wrap(head, ind)
    if kinds:
        out += f_wrap(ind + "  import :: " + ", ".join(sorted(kinds)),
                      ind + "  ")
    for n, p in f.params:
        attrs, dims = p.fattrs[0], p.fattrs[1] if len(p.fattrs) > 1 else ""
        out.append("%s  %s%s :: %s%s" % (ind, p.fdecl, attrs, n, dims))
    if f.result:
        out.append("%s  %s :: %s" % (ind, f.result.fdecl, res))
        out.append("%send function %s" % (ind, fname))
    else:
        out.append("%send subroutine %s" % (ind, fname))
    return out


# --------------------------------------------------------------------------
# Fortran wrappers: the module cunumpy's procedures for C functions of a
# known signature shape (one template per shape, matched on the parameter
# names and C types), so that a new C function of such a shape needs no
# hand-written Fortran. Each wrapper is named as its C function and takes
# cn_array_t handles and the optional stat/errmsg of the module (see the
# top of cunumpy.F90); the private helpers it calls (handle, set_result,
# take_result, reduce_axes, fft_args, creation_args) are hand-written there.
# A name that cunumpy.F90 defines itself is not generated: the hand-written
# procedure is the interface.

F_STAT_DECLS = ["    integer, intent(out), optional :: stat",
                "    character(*), intent(inout), optional :: errmsg"]


def f_ufunc_inputs(f):
    """Input names of an elementwise op (out, x | x1..xk, dst), or None."""
    p = [(n, q.c_spelling) for n, q in f.params]
    if len(p) < 3 or p[0] != ("out", "cn_array *") or \
            p[-1] != ("dst", "cn_array"):
        return None
    ins = [n for n, t in p[1:-1] if t == "cn_array"]
    if len(ins) != len(p) - 2:
        return None
    want = ["x"] if len(ins) == 1 else ["x%d" % (i + 1)
                                        for i in range(len(ins))]
    return ins if ins == want else None


def f_ufunc(f, c):
    ins = f_ufunc_inputs(f)
    args = ", ".join(ins)
    return [
        "  subroutine %s(%s, y, stat, errmsg)" % (f.name, args),
        "    type(cn_array_t), intent(in) :: %s" % args,
        "    type(cn_array_t), intent(inout) :: y",
    ] + F_STAT_DECLS + [
        "    type(c_ptr) :: h(1)",
        "    integer(c_int32_t) :: st",
        "    h = c_null_ptr",
        "    st = %s(h, %s, y%%h)" % (c, ", ".join(n + "%h" for n in ins)),
        "    call take_result(y, st, h(1))",
        "    call handle(st, stat, errmsg)",
        "  end subroutine %s" % f.name]


# Reductions whose result dtype is fixed (bool) take no dtype argument.
F_BOOL_REDUCTIONS = {"cn_any", "cn_all"}


def f_reduction(f, c):
    red = f.name[len("cn_"):]
    dt = f.name not in F_BOOL_REDUCTIONS
    head = "a, r, dim, keepdims, %sout, stat, errmsg" % ("dtype, " if dt
                                                          else "")
    call = ("dtype, out, stat, errmsg" if dt else
            "out=out, stat=stat, errmsg=errmsg")
    return [
        "  subroutine %s(%s)" % (f.name, head),
        "    type(cn_array_t), intent(in) :: a",
        "    type(cn_array_t), intent(inout) :: r",
        "    integer, intent(in), optional :: dim",
        "    logical, intent(in), optional :: keepdims",
    ] + (["    integer(c_int32_t), intent(in), optional :: dtype"] if dt
         else []) + [
        "    type(cn_array_t), intent(in), optional :: out",
    ] + F_STAT_DECLS + [
        '    call cn_reduce("%s", a, r, dim, keepdims, %s)' % (red, call),
        "  end subroutine %s" % f.name]


def f_reduce_by_name(reductions, fnames):
    names = [f.name[len("cn_"):] for f in reductions]
    doc = textwrap.wrap("name: " + ", ".join(names) + ".", 72)
    L = ["  ! r becomes the reduction of a over dimension dim (1-based; all",
         "  ! dimensions when absent): a new array, or a new reference to out",
         "  ! when out is given (NumPy's out=, written in place). keepdims",
         "  ! keeps the reduced dimension with extent 1; dtype selects the",
         "  ! accumulator (default as NumPy)."]
    L += ["  ! " + ln for ln in doc]
    L += [
        "  subroutine cn_reduce(name, a, r, dim, keepdims, dtype, out, stat, "
        "errmsg)",
        "    character(*), intent(in) :: name",
        "    type(cn_array_t), intent(in) :: a",
        "    type(cn_array_t), intent(inout) :: r",
        "    integer, intent(in), optional :: dim",
        "    logical, intent(in), optional :: keepdims",
        "    integer(c_int32_t), intent(in), optional :: dtype",
        "    type(cn_array_t), intent(in), optional :: out",
    ] + F_STAT_DECLS + [
        "    integer(c_int32_t) :: naxes, ax(1), kd, dt, st",
        "    type(c_ptr) :: h(1), dst",
        "    call reduce_axes(dim, keepdims, dtype, naxes, ax, kd, dt)",
        "    h = c_null_ptr",
        "    dst = c_null_ptr",
        "    if (present(out)) dst = out%h",
        "    select case (name)"]
    for f, n in zip(reductions, names):
        L += ['    case ("%s")' % n,
              "      st = %s(h, a%%h, naxes, ax, kd, dt, dst)" % fnames[f.name]]
    L += ["    case default",
          '      call fail(CN_ERR_VALUE, "cn_reduce: argument \'name\' is not '
          'a reduction: \'"// &',
          "                name//\"'\", stat, errmsg)",
          "      return",
          "    end select",
          "    if (st == CN_OK) call set_result(r, h(1))",
          "    call handle(st, stat, errmsg)",
          "  end subroutine cn_reduce"]
    return L


def f_fft_1d(f, c):
    return [
        "  subroutine %s(a, r, dim, n, norm, stat, errmsg)" % f.name,
        "    type(cn_array_t), intent(in) :: a",
        "    type(cn_array_t), intent(inout) :: r",
        "    integer, intent(in), optional :: dim, n",
        "    integer(c_int32_t), intent(in), optional :: norm",
    ] + F_STAT_DECLS + [
        "    integer(c_int64_t) :: nn",
        "    integer(c_int32_t) :: axis, nrm, st",
        "    type(c_ptr) :: h(1)",
        "    call fft_args(dim, n, norm, nn, axis, nrm)",
        "    h = c_null_ptr",
        "    st = %s(h, a%%h, nn, axis, nrm)" % c,
        "    if (st == CN_OK) call set_result(r, h(1))",
        "    call handle(st, stat, errmsg)",
        "  end subroutine %s" % f.name]


def f_creation(f, c):
    return [
        "  subroutine %s(a, shape, dtype, order, stat, errmsg)" % f.name,
        "    type(cn_array_t), intent(inout) :: a",
        "    integer, intent(in) :: shape(:)",
        "    integer(c_int32_t), intent(in), optional :: dtype, order",
    ] + F_STAT_DECLS + [
        "    integer(c_int64_t) :: shp(max(1, size(shape)))",
        "    integer(c_int32_t) :: dt, ord, nd, st",
        "    type(c_ptr) :: h(1)",
        "    call creation_args(shape, dtype, order, shp, nd, dt, ord)",
        "    h = c_null_ptr",
        "    st = %s(h, nd, shp, dt, ord)" % c,
        "    if (st == CN_OK) call set_result(a, h(1))",
        "    call handle(st, stat, errmsg)",
        "  end subroutine %s" % f.name]


def f_of_arrays(f, c):
    ins = [n for n, _ in f.params[1:]]
    args = ", ".join(ins)
    return [
        "  subroutine %s(%s, r, stat, errmsg)" % (f.name, args),
        "    type(cn_array_t), intent(in) :: %s" % args,
        "    type(cn_array_t), intent(inout) :: r",
    ] + F_STAT_DECLS + [
        "    type(c_ptr) :: h(1)",
        "    integer(c_int32_t) :: st",
        "    h = c_null_ptr",
        "    st = %s(h, %s)" % (c, ", ".join(n + "%h" for n in ins)),
        "    if (st == CN_OK) call set_result(r, h(1))",
        "    call handle(st, stat, errmsg)",
        "  end subroutine %s" % f.name]


def f_shape_is(*params):
    want = list(params)
    return lambda f: [(n, q.c_spelling) for n, q in f.params] == want


# (title, matcher, template): the first family that matches a function
# makes its wrapper.
FORTRAN_FAMILIES = [
    ("elementwise ops: y = op(x) or op(x1, x2, ...); y receives the result "
     "as described at the top of cunumpy.F90 (written in place when it holds "
     "an array, else a new array)",
     lambda f: f_ufunc_inputs(f) is not None, f_ufunc),
    ("reductions: see cn_reduce",
     f_shape_is(("out", "cn_array *"), ("a", "cn_array"),
                ("naxes", "int32_t"), ("axes", "const int32_t *"),
                ("keepdims", "int32_t"), ("dtype", "cn_dtype"),
                ("dst", "cn_array")), f_reduction),
    ("1-d discrete Fourier transforms, as numpy.fft: r becomes the "
     "transform of a along dimension dim (default 1); n zero-pads or "
     "truncates the input (default: its extent; for the inverse real "
     "transforms 2*(m-1)); norm is CN_FFT_NORM_BACKWARD (default), _ORTHO "
     "or _FORWARD",
     f_shape_is(("out", "cn_array *"), ("a", "cn_array"), ("n", "int64_t"),
                ("axis", "int32_t"), ("norm", "cn_fft_norm")), f_fft_1d),
    ("new arrays of a shape on the active backend; dtype defaults to "
     "CN_FLOAT64 and order to CN_ORDER_F (column-major, as Fortran)",
     f_shape_is(("out", "cn_array *"), ("ndim", "int32_t"),
                ("shape", "const int64_t *"), ("dtype", "cn_dtype"),
                ("order", "cn_order")), f_creation),
    ("functions of one array: r becomes a new array (the one it held is "
     "released)",
     f_shape_is(("out", "cn_array *"), ("a", "cn_array")), f_of_arrays),
    ("functions of two arrays: r becomes a new array (the one it held is "
     "released)",
     f_shape_is(("out", "cn_array *"), ("a", "cn_array"),
                ("b", "cn_array")), f_of_arrays),
]


def hand_written_fortran_names():
    """Procedure and generic names that cunumpy.F90 defines itself."""
    text = open(FORTRAN_HAND_WRITTEN, encoding="utf-8").read()
    pat = re.compile(r"^\s*(?!end\b)(?:[a-z0-9_() ,=]*\s)?"
                     r"(?:subroutine|function|interface)\s+([a-z_]\w*)",
                     re.I | re.M)
    return {m.group(1).lower() for m in pat.finditer(text)}


def fortran_wrappers(model, functions, fnames):
    hand = hand_written_fortran_names()
    taken = set()
    # constants, types and the bind(c) interfaces share the module's scope
    for _, n, _ in model.macros:
        taken.add(n.lower())
    for _, _, members in model.enums:
        taken.update(n.lower() for n, _ in members)
    taken.update(n.lower() for n in model.structs)
    taken.update(n.lower() for n in fnames.values())
    families = [[] for _ in FORTRAN_FAMILIES]
    reductions, skipped, clashes = [], [], []
    for f in functions:
        if f.name not in fnames:
            continue
        for i, (_, match, _) in enumerate(FORTRAN_FAMILIES):
            if match(f):
                if FORTRAN_FAMILIES[i][2] is f_reduction:
                    reductions.append(f)
                if f.name.lower() in hand:
                    skipped.append(f.name)
                elif f.name.lower() in taken:
                    clashes.append(f.name)
                    print("gen_bindings.py: no Fortran wrapper for %s: "
                          "the name is taken in module cunumpy" % f.name,
                          file=sys.stderr)
                else:
                    families[i].append(f)
                    taken.add(f.name.lower())
                break
    L = ["! The procedures of module cunumpy (bindings/fortran/cunumpy.F90,",
         "! which includes this file after `contains`) for the C functions of",
         "! a known signature shape, one template per shape.",
         "! GENERATED by tools/gen_bindings.py from include/cunumpy/*.h:",
         "! do not edit; " + FIX_IT + " after changing a header.",
         "! Errors: optional stat/errmsg as every procedure of the module."]
    L += comment_block("!", "Defined by hand in cunumpy.F90 instead:",
                       textwrap.wrap(", ".join(skipped), 70))
    L += comment_block("!", "Not generated, the name is taken (a constant, "
                       "type or interface):",
                       textwrap.wrap(", ".join(clashes), 70))
    for (title, _, template), fs in zip(FORTRAN_FAMILIES, families):
        if not fs:
            continue
        L.append("")
        L += ["  ! ---- " + ln if i == 0 else "  ! " + ln for i, ln in
              enumerate(textwrap.wrap(title, 70))]
        for f in fs:
            L.append("")
            L.append("  ! %s (%s)" % (f.name, f.header))
            L += template(f, fnames[f.name])
    if reductions:
        L.append("")
        L += f_reduce_by_name(reductions, fnames)
    out = []
    for ln in L:
        indent = re.match(r"\s*", ln).group(0)
        out += [ln] if ln.lstrip().startswith("!") else f_wrap(ln, indent)
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------
# Julia output


def j_name(n):
    return n + "_" if n in JULIA_KEYWORDS else n


def julia_ccall(f):
    ret = f.result.jtype if f.result else "Cvoid"
    types = ", ".join(p.jtype for _, p in f.params)
    if len(f.params) == 1:
        types += ","
    args = ", ".join(j_name(n) for n, _ in f.params)
    call = "ccall((:%s, libcunumpy), %s, (%s)%s)" % (
        f.name, ret, types, (", " + args) if args else "")
    return call


def julia(model, functions):
    L = ["# CuNumpy raw bindings: one ccall wrapper per C function of the",
         "# public headers, the enum and integer macro constants, and the",
         "# structs passed by value. GENERATED by tools/gen_bindings.py from",
         "# include/cunumpy/*.h: do not edit; " + FIX_IT + ".",
         "#",
         "# Handles (cn_array, ...) are Ptr{Cvoid}; enums are Int32; const",
         "# char* arguments are Cstring; callers pass Ref/Array for pointer",
         "# arguments. `libcunumpy` is defined by CuNumpy.jl before this file.",
         "#"]
    L += comment_block("#", "Not mapped:", model.unmapped)
    L += comment_block("#", "Structs passed as Ptr{Cvoid}, fields not bound:",
                       [", ".join(sorted(model.opaque))] if model.opaque
                       else [])
    L.append("")
    for hdr, name, members in model.enums:
        if not members:
            continue
        L.append("# enum %s (%s)" % (name, hdr))
        for n, v in members:
            L.append("const %s = Int32(%d)" % (n, v) if -2**31 <= v < 2**31
                     else "const %s = Int64(%d)" % (n, v))
        L.append("")
    L.append("# integer macros")
    for hdr, n, v in model.macros:
        if -2**31 <= v < 2**31:
            L.append("const %s = Int32(%d)  # %s" % (n, v, hdr))
        elif v >= 2**63:
            L.append("const %s = UInt64(%d)  # %s" % (n, v, hdr))
        else:
            L.append("const %s = Int64(%d)  # %s" % (n, v, hdr))
    L.append("")
    for name, fields in model.structs.items():
        L.append("# struct %s, passed by value" % name)
        L.append("struct %s" % name)
        for fname, _, _, jt in fields:
            L.append("    %s::%s" % (j_name(fname), jt))
        L.append("end")
        L.append("")
    for f in functions:
        args = ", ".join(j_name(n) for n, _ in f.params)
        L.append("# %s" % f.c_prototype)
        L.append("%s(%s) =" % (f.name, args))
        L.append("    " + julia_ccall(f))
        L.append("")
    return "\n".join(L).rstrip("\n") + "\n"


# --------------------------------------------------------------------------
# Julia consistency check


def julia_calls(text, wanted):
    """Yields (line, name, [top-level arguments]) for each call f(...) in
    Julia source whose name passes wanted(name), skipping comments and
    strings. A definition `f(args) = ...` counts as a call."""
    i, n, line = 0, len(text), 1
    while i < n:
        ch = text[i]
        if ch == "\n":
            line += 1
        if ch == "#":
            if text.startswith("#=", i):
                j = text.find("=#", i)
                j = n if j < 0 else j + 2
            else:
                j = text.find("\n", i)
                j = n if j < 0 else j
            line += text.count("\n", i, j)
            i = j
            continue
        if ch == '"':
            j = skip_string(text, i)
            line += text.count("\n", i, j)
            i = j
            continue
        if (ch.isalpha() or ch == "_") and (i == 0 or not (
                text[i - 1].isalnum() or text[i - 1] in "_!.:@")):
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_!"):
                j += 1
            name = text[i:j]
            if j < n and text[j] == "(" and wanted(name):
                args, _ = split_args(text, j + 1)
                yield line, name, args
                i = j + 1  # go on inside the arguments: calls nest
            else:
                i = j
            continue
        i += 1


def skip_string(text, i):
    quote = '"""' if text.startswith('"""', i) else '"'
    j = i + len(quote)
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text.startswith(quote, j):
            return j + len(quote)
        j += 1
    return j


def split_args(text, i):
    """Top-level comma-separated arguments from i to the matching ')'."""
    depth, start, args = 0, i, []
    while i < len(text):
        ch = text[i]
        if ch == '"':
            i = skip_string(text, i)
            continue
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                args.append(text[start:i].strip())
                return [a for a in args if a], i + 1
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(text[start:i].strip())
            start = i + 1
        i += 1
    raise ValueError("unbalanced ccall")


def norm_type(t):
    return re.sub(r"\s+", "", t)


def tuple_items(t):
    t = t.strip()
    if not (t.startswith("(") and t.endswith(")")):
        return None
    items, _ = split_args(t, 1)
    return [norm_type(x) for x in items]


def exported_symbols(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib],
                         capture_output=True, text=True, check=True).stdout
    return {ln.split()[-1] for ln in out.splitlines()
            if len(ln.split()) >= 3 and ln.split()[1] in "TtWVi"}


def julia_problems(functions, exported, src_dir):
    """(number of ccalls, [problems]) for the .jl files of src_dir."""
    protos = {f.name: f for f in functions}
    problems, count = [], 0
    files = sorted(f for f in os.listdir(src_dir) if f.endswith(".jl"))
    for fn in files:
        path = os.path.join(src_dir, fn)
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
        for line, _, args in julia_calls(text, lambda name: name == "ccall"):
            count += 1
            where = "%s:%d" % (fn, line)
            if len(args) < 3:
                problems.append("%s: ccall with too few arguments" % where)
                continue
            m = re.fullmatch(r"\(\s*:(\w+)\s*,\s*libcunumpy\s*\)", args[0])
            if not m:
                problems.append("%s: ccall target %s is not "
                                "(:cn_symbol, libcunumpy)" % (where, args[0]))
                continue
            sym = m.group(1)
            if sym not in exported:
                problems.append("%s: %s is not exported by the library"
                                % (where, sym))
            f = protos.get(sym)
            if f is None:
                problems.append("%s: %s is not declared in the public "
                                "headers" % (where, sym))
                continue
            want_ret = f.result.jtype if f.result else "Cvoid"
            if norm_type(args[1]) != norm_type(want_ret):
                problems.append("%s: %s returns %s in C (%s), ccall says %s"
                                % (where, sym, want_ret, f.c_prototype,
                                   args[1]))
            got = tuple_items(args[2])
            want = [norm_type(p.jtype) for _, p in f.params]
            if got != want:
                problems.append("%s: %s takes (%s) in C (%s), ccall says %s"
                                % (where, sym, ", ".join(want),
                                   f.c_prototype, args[2]))
            elif len(args) - 3 != len(want):
                problems.append("%s: %s takes %d arguments, ccall passes %d"
                                % (where, sym, len(want), len(args) - 3))
        if fn == os.path.basename(JULIA_OUT):
            continue
        # the hand-written layer calls the generated wrappers: same arity
        for line, name, args in julia_calls(text, lambda n: n in protos):
            want = len(protos[name].params)
            if len(args) != want:
                problems.append("%s:%d: %s takes %d arguments, the call "
                                "passes %d" % (fn, line, name, want,
                                               len(args)))
    return count, problems


def check_julia(functions, lib):
    count, problems = julia_problems(functions, exported_symbols(lib),
                                     JULIA_SRC)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print("julia ccall check: %d problem(s) in %d ccalls of %s" %
              (len(problems), count, os.path.relpath(JULIA_SRC, ROOT)),
              file=sys.stderr)
        return 1
    if count == 0:
        print("julia ccall check: no ccall found", file=sys.stderr)
        return 1
    print("julia ccall check: %d ccalls match %s" % (count, lib))
    return 0


# Each line of this Julia text is wrong in one way the check must catch.
SELF_TEST_JL = '''
# ccall((:commented_out, libcunumpy), Cvoid, ())
s = "ccall((:in_a_string, libcunumpy), Cvoid, ())"
f1(a) = ccall((:cn_array_retain, libcunumpy), Int32, (Ptr{Int64},), a)
f2(a) = ccall((:cn_array_retain, libcunumpy), Int64, (Ptr{Cvoid},), a)
f3() = ccall((:cn_no_such_function, libcunumpy), Int32, ())
f4(a) = ccall((:cn_array_retain, "libother"), Int32, (Ptr{Cvoid},), a)
f5(a, b) = ccall((:cn_array_retain, libcunumpy), Int32, (Ptr{Cvoid},), a, b)
f6(a) = ccall((:cn_array_release, libcunumpy), Cvoid, (Ptr{Cvoid},), a)
'''
# A hand-written file calling the generated wrappers.
SELF_TEST_LAYER_JL = '''
good(h) = check(cn_array_retain(h))
bad(h) = check(cn_array_ndim(h))  # cn_array_ndim(out, a)
nested(h, o) = cn_array_release(first((h, cn_array_size(o))))
'''
SELF_TEST_EXPECT = [
    "layer.jl:3: cn_array_ndim takes 2 arguments, the call passes 1",
    "layer.jl:4: cn_array_size takes 2 arguments, the call passes 1",
    "cn_array_retain takes (Ptr{Cvoid})",
    "cn_array_retain returns Int32",
    "cn_no_such_function is not exported",
    "cn_no_such_function is not declared",
    "is not (:cn_symbol, libcunumpy)",
    "takes 1 arguments, ccall passes 2",
]


def self_test(functions):
    """The ccall check must flag each wrong line of SELF_TEST_JL and nothing
    else (comments and strings are skipped; f6 is right)."""
    exported = {f.name for f in functions}
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "bad.jl"), "w", encoding="utf-8") as fh:
            fh.write(SELF_TEST_JL)
        with open(os.path.join(tmp, "layer.jl"), "w", encoding="utf-8") as fh:
            fh.write(SELF_TEST_LAYER_JL)
        count, problems = julia_problems(functions, exported, tmp)
    text = "\n".join(problems)
    missing = [e for e in SELF_TEST_EXPECT if e not in text]
    ok = count == 6 and len(problems) == 8 and not missing
    print("\n".join(problems))
    print("self-test: %d ccalls, %d problems, %s" %
          (count, len(problems), "ok" if ok else "missing %s" % missing))
    return 0 if ok else 1


# --------------------------------------------------------------------------


def generate():
    model = build_model()
    functions = map_functions(model)
    fnames = fortran_names(model, functions)
    for u in model.unmapped:
        print("gen_bindings.py: not mapped: " + u, file=sys.stderr)
    for n in model.notes:
        print("gen_bindings.py: header problem: " + n, file=sys.stderr)
    outputs = {FORTRAN_OUT: fortran(model, functions, fnames),
               FORTRAN_WRAPPERS_OUT: fortran_wrappers(model, functions,
                                                      fnames),
               JULIA_OUT: julia(model, functions)}
    # clang names unnamed types by their file path: keep the checkout's
    # location out of the outputs so that every clone generates the same text
    return functions, {k: v.replace(INCLUDE + os.sep, "")
                       for k, v in outputs.items()}


def write(outdir, outputs):
    for rel, text in outputs.items():
        path = os.path.join(outdir, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--outdir", default=ROOT)
    ap.add_argument("--check", action="store_true",
                    help="compare with the checked-in files, write nothing")
    ap.add_argument("--check-julia", metavar="LIB",
                    help="check the Julia package's ccalls against LIB")
    ap.add_argument("--self-test", action="store_true",
                    help="check that the ccall check catches known mistakes")
    a = ap.parse_args()
    functions, outputs = generate()
    if a.self_test:
        return self_test(functions)
    if a.check_julia:
        return check_julia(functions, a.check_julia)
    if a.check:
        with tempfile.TemporaryDirectory() as tmp:
            write(tmp, outputs)
            stale = []
            for rel in outputs:
                mine = os.path.join(ROOT, rel)
                new = open(os.path.join(tmp, rel), encoding="utf-8").read()
                old = open(mine, encoding="utf-8").read() \
                    if os.path.exists(mine) else ""
                if old != new:
                    stale.append(rel)
                    diff = list(difflib.unified_diff(
                        old.splitlines(), new.splitlines(), rel + " (checked in)",
                        rel + " (generated)", lineterm="", n=1))
                    print("\n".join(diff[:40]), file=sys.stderr)
        if stale:
            print("generated bindings are stale (%s): %s"
                  % (", ".join(stale), FIX_IT))
            return 1
        print("generated bindings are up to date")
        return 0
    write(a.outdir, outputs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
