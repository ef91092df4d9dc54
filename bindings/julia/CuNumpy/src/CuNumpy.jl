# Not precompiled: the library path is read from the environment at load.
__precompile__(false)

"""
    CuNumpy

Julia interface to cunumpy, the NumPy/CuPy-class array engine in C.

`generated.jl` (written by tools/gen_bindings.py from the C headers) holds one
`ccall` wrapper per C function (`cn_add`, `cn_sum`, ...) and the `CN_*`
constants; this file adds the Julia idioms on top:

- `CnArray{T,N}`: a reference-counted cunumpy array, released by a finalizer;
  an `AbstractArray` with the same shape as Julia sees it (column-major
  strides), so `a[i, j]`, `size`, `eltype`, `Array(a)` and printing work.
- zero-copy conversion: `CnArray(x::Array)` borrows `x` (kept alive by the
  view, whatever happens to the Julia variable), `unsafe_wrap(Array, a)` views
  cunumpy memory as a Julia `Array`.
- elementwise ops by broadcasting (`sin.(a)`, `a .+ 2b`, `y .= a .* b`),
  `sum`, `maximum`, `minimum`, `*` (matmul), computed by the engine; a
  dotted expression (`sin.(a) .+ 2 .* a`) is one expression program
  (`cn_evaluate`), evaluated in one fused pass.
- errors: a `CuNumpyError` with the cunumpy status and message
  (`CuNumpyLinAlgError` for linear-algebra failures).

The library is `ENV["CUNUMPY_LIB"]` when set, else `lib/libcunumpy.so` of
the first `build*` folder of the source tree, else `libcunumpy` from the
system search path. It is looked up each time the package is loaded (the
package is not precompiled, so a changed CUNUMPY_LIB takes effect).
"""
module CuNumpy

using Libdl

export CnArray, CuNumpyError, CuNumpyStatusError, CuNumpyLinAlgError,
       use_backend, backend, backend_supports, ufunc,
       ElementwiseKernel, ReductionKernel, RawModule, RawKernel, get_function

function _find_libcunumpy()
    lib = get(ENV, "CUNUMPY_LIB", "")
    isempty(lib) || return lib
    root = normpath(joinpath(@__DIR__, "..", "..", "..", ".."))
    if isdir(root)
        for dir in sort(filter(d -> startswith(d, "build"), readdir(root)))
            cand = joinpath(root, dir, "lib", "libcunumpy." * Libdl.dlext)
            isfile(cand) && return cand
        end
    end
    return "libcunumpy"
end

const libcunumpy = _find_libcunumpy()

include("generated.jl")

# ---- errors ------------------------------------------------------------

"""
    CuNumpyError

A cunumpy call failed. Every such error has the fields `status` (the
`CN_ERR_*` code), `name` (its name) and `msg` (cunumpy's message, which
names the function, argument and value). It is a `CuNumpyLinAlgError` for
`CN_ERR_LINALG` (singular matrix, no convergence, not positive definite:
NumPy's `LinAlgError`), a `CuNumpyStatusError` for every other status.
`CuNumpyError(status, name, msg)` makes the one that fits `status`.
"""
abstract type CuNumpyError <: Exception end

"A cunumpy failure other than a linear-algebra one (see `CuNumpyError`)."
struct CuNumpyStatusError <: CuNumpyError
    status::Int32
    name::String
    msg::String
end

"A linear-algebra failure, status `CN_ERR_LINALG` (see `CuNumpyError`)."
struct CuNumpyLinAlgError <: CuNumpyError
    status::Int32
    name::String
    msg::String
end

CuNumpyError(status::Integer, name::AbstractString, msg::AbstractString) =
    status == CN_ERR_LINALG ? CuNumpyLinAlgError(Int32(status), name, msg) :
    CuNumpyStatusError(Int32(status), name, msg)

Base.showerror(io::IO, e::CuNumpyError) = print(io, e.name, ": ", e.msg)

function check(status::Integer)
    status == CN_OK && return nothing
    throw(CuNumpyError(status, unsafe_string(cn_status_name(status)),
                       unsafe_string(cn_last_error())))
end

# ---- dtypes ------------------------------------------------------------

const _DTYPE = Dict{DataType,Int32}(
    Bool => CN_BOOL, Int8 => CN_INT8, Int16 => CN_INT16, Int32 => CN_INT32,
    Int64 => CN_INT64, UInt8 => CN_UINT8, UInt16 => CN_UINT16,
    UInt32 => CN_UINT32, UInt64 => CN_UINT64, Float16 => CN_FLOAT16,
    Float32 => CN_FLOAT32,
    Float64 => CN_FLOAT64, ComplexF32 => CN_COMPLEX64,
    ComplexF64 => CN_COMPLEX128)
const _ELTYPE = Dict{Int32,DataType}(v => k for (k, v) in _DTYPE)

function dtype_of(::Type{T}) where {T}
    haskey(_DTYPE, T) || throw(ArgumentError("CuNumpy: element type $T has no cunumpy dtype"))
    return _DTYPE[T]
end

# ---- the array handle ---------------------------------------------------

"""
    CnArray{T,N}

A cunumpy array seen from Julia. Owns one reference to the C handle, dropped
by its finalizer (or `finalize(a)`). Indices are Julia's (1-based, first
dimension first); the strides are whatever the cunumpy array has.
"""
mutable struct CnArray{T,N} <: AbstractArray{T,N}
    handle::Ptr{Cvoid}
    dims::NTuple{N,Int}
    strides::NTuple{N,Int}
    # Takes over one reference to handle (released here if this fails).
    function CnArray{T,N}(handle::Ptr{Cvoid}) where {T,N}
        nd = Ref{Int32}(0)
        shape = zeros(Int64, max(N, 1))
        strides = zeros(Int64, max(N, 1))
        try
            check(cn_array_ndim(nd, handle))
            nd[] == N || throw(ArgumentError("CuNumpy: array has $(nd[]) dimensions, not $N"))
            check(cn_array_shape(shape, N, handle))
            check(cn_array_strides(strides, N, handle))
        catch
            cn_array_release(handle)
            rethrow()
        end
        a = new{T,N}(handle, ntuple(i -> Int(shape[i]), N), ntuple(i -> Int(strides[i]), N))
        finalizer(_release, a)
        return a
    end
end

function _release(a::CnArray)
    h = a.handle
    a.handle = C_NULL
    h == C_NULL || cn_array_release(h)
    return nothing
end

# A new reference from C becomes a CnArray of the right element type and rank.
function CnArray(handle::Ptr{Cvoid})
    dt = Ref{Int32}(0)
    nd = Ref{Int32}(0)
    st = cn_array_dtype(dt, handle)
    st == CN_OK && (st = cn_array_ndim(nd, handle))
    if st != CN_OK
        cn_array_release(handle)
        check(st)
    end
    return CnArray{_ELTYPE[dt[]],Int(nd[])}(handle)
end

function _new(f)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(f(out))
    return CnArray(out[])
end

handle(a::CnArray) = a.handle == C_NULL ? throw(ArgumentError("CuNumpy: array was finalized")) : a.handle

Base.size(a::CnArray) = a.dims
Base.strides(a::CnArray) = a.strides
Base.elsize(::Type{<:CnArray{T}}) where {T} = sizeof(T)
Base.IndexStyle(::Type{<:CnArray}) = IndexCartesian()

function refcount(a::CnArray)
    n = Ref{Int64}(0)
    check(cn_array_refcount(n, handle(a)))
    return n[]
end

function _host_pointer(a::CnArray{T}) where {T}
    devtype = Ref{Int32}(0)
    devid = Ref{Int32}(0)
    check(cn_array_device(devtype, devid, handle(a)))
    devtype[] == CN_DEVICE_CPU ||
        throw(ArgumentError("CuNumpy: the array is in device memory; use to_host first"))
    p = Ref{Ptr{Cvoid}}(C_NULL)
    check(cn_array_data(p, handle(a)))
    return Ptr{T}(p[])
end

Base.unsafe_convert(::Type{Ptr{T}}, a::CnArray{T}) where {T} = _host_pointer(a)

@inline function _offset(a::CnArray{T,N}, I::NTuple{N,Int}) where {T,N}
    off = 0
    for d in 1:N
        off += (I[d] - 1) * a.strides[d]
    end
    return off
end

function Base.getindex(a::CnArray{T,N}, I::Vararg{Int,N}) where {T,N}
    @boundscheck checkbounds(a, I...)
    GC.@preserve a unsafe_load(_host_pointer(a), _offset(a, I) + 1)
end

function Base.setindex!(a::CnArray{T,N}, v, I::Vararg{Int,N}) where {T,N}
    @boundscheck checkbounds(a, I...)
    flags = Ref{Int32}(0)
    check(cn_array_flags(flags, handle(a)))
    flags[] & CN_FLAG_WRITEABLE != 0 || throw(ArgumentError("CuNumpy: array is read-only"))
    GC.@preserve a unsafe_store!(_host_pointer(a), convert(T, v), _offset(a, I) + 1)
    return v
end

# ---- Julia arrays in and out ----------------------------------------------

# Julia arrays borrowed by views: the C release callback drops the entry, so
# the array lives as long as any view of it, whatever Julia does meanwhile.
const _borrowed = Dict{UInt,Any}()
const _borrowed_lock = Threads.SpinLock()
const _next_id = Ref{UInt}(0)

# The callback runs inside cn_array_release, often from a finalizer: the
# lock is only taken with finalizers disabled, so a finalizer can never wait
# on a lock its own task holds.
function _with_borrowed(f)
    GC.enable_finalizers(false)
    lock(_borrowed_lock)
    try
        return f()
    finally
        unlock(_borrowed_lock)
        GC.enable_finalizers(true)
    end
end

function _release_borrowed(ctx::Ptr{Cvoid})::Cvoid
    _with_borrowed(() -> delete!(_borrowed, UInt(ctx)))
    return nothing
end

const _release_cb = Ref{Ptr{Cvoid}}(C_NULL)

function __init__()
    _release_cb[] = @cfunction(_release_borrowed, Cvoid, (Ptr{Cvoid},))
end

"""
    CnArray(x::Array{T,N}; readonly=false)

Zero-copy cunumpy view of `x` (column-major strides). `x` stays alive while
any view of it exists.
"""
function CnArray(x::Array{T,N}; readonly::Bool=false) where {T,N}
    dt = dtype_of(T)
    shape = Int64[size(x)...]
    strides = Int64[Base.strides(x)...]
    id = _with_borrowed() do
        k = (_next_id[] += 1)
        _borrowed[k] = x
        k
    end
    out = Ref{Ptr{Cvoid}}(C_NULL)
    st = GC.@preserve x cn_wrap_host(out, pointer(x), 0, sizeof(x), N, shape, strides, dt,
                                     readonly ? 1 : 0, _release_cb[], Ptr{Cvoid}(id))
    if st != CN_OK  # on failure the callback is not called: drop the entry here
        _with_borrowed(() -> delete!(_borrowed, id))
        check(st)
    end
    return CnArray{T,N}(out[])
end

"""
    copy_to_engine(x::AbstractArray)

New column-major cunumpy array on the active backend holding a copy of `x`.
"""
function copy_to_engine(x::AbstractArray{T,N}) where {T,N}
    view = CnArray(x isa Array ? x : Array{T,N}(x); readonly=true)
    host = _new(out -> cn_copy(out, handle(view), CN_ORDER_F))
    finalize(view)
    return _new(out -> cn_to_active(out, handle(host)))
end

"""
    Array(a::CnArray)

Copy of the elements in a Julia `Array` (from any device).
"""
function Base.Array(a::CnArray{T,N}) where {T,N}
    y = Array{T,N}(undef, size(a))
    GC.@preserve y check(cn_copy_to_buffer(pointer(y), sizeof(y), handle(a), CN_ORDER_F))
    return y
end
Base.Array{T,N}(a::CnArray{T,N}) where {T,N} = Array(a)
Base.collect(a::CnArray) = Array(a)

"""
    unsafe_wrap(Array, a::CnArray)

Zero-copy Julia `Array` over a host, column-major contiguous `a`. The caller
keeps `a` alive while the result is used.
"""
function Base.unsafe_wrap(::Type{Array}, a::CnArray{T,N}) where {T,N}
    flags = Ref{Int32}(0)
    check(cn_array_flags(flags, handle(a)))
    flags[] & CN_FLAG_F_CONTIGUOUS != 0 ||
        throw(ArgumentError("CuNumpy: unsafe_wrap needs a column-major contiguous array"))
    return unsafe_wrap(Array, _host_pointer(a), size(a); own=false)
end

# ---- backends ------------------------------------------------------------

"Selects the backend for new arrays: \"cpu\"/\"numpy\" or \"cuda\"/\"cupy\"."
use_backend(name::AbstractString) = check(cn_set_backend(name))
"Name of the active backend."
backend() = unsafe_string(cn_get_backend())

"""
    backend_supports(what, name=backend())

How backend `name` (any name or alias) runs `what` (a kernel such as
"matmul", a domain such as "linalg", an op such as "add" or a reduction such
as "sum"; see cn_backend_supports in cunumpy/backend.h): `:native` on its
device, `:host` through host memory, `:none` when calling it throws.
"""
function backend_supports(what::AbstractString, name::AbstractString=backend())
    out = Ref{Int32}(0)
    check(cn_backend_supports(out, name, what))
    return out[] == CN_SUPPORT_NATIVE ? :native :
           out[] == CN_SUPPORT_HOST ? :host : :none
end

# ---- elementwise ops -------------------------------------------------------

"""
    ufunc(name, inputs...; out=nothing)

Applies the op `name` of cunumpy's op table (`\"add\"`, `\"sin\"`, ...) to
`inputs` (CnArrays, Julia arrays or numbers); `out` is an existing CnArray
to write into.
"""
function ufunc(name::AbstractString, inputs...; out::Union{Nothing,CnArray}=nothing)
    args = _operands(inputs)
    hs = Ptr{Cvoid}[handle(x) for x in args]
    dst = out === nothing ? C_NULL : handle(out)
    GC.@preserve args _new(o -> cn_ufunc(o, name, length(hs), hs, dst))
end

# Julia broadcasting aligns leading dimensions, NumPy trailing ones: pad the
# lower-rank operands with trailing extents of 1 so both agree.
function _operands(inputs)
    args = Any[_as_cn(x) for x in inputs]
    n = maximum(ndims(a) for a in args)
    return [ndims(a) == n ? a : _pad(a, n) for a in args]
end

_as_cn(x::CnArray) = x
_as_cn(x::Array) = CnArray(x)
_as_cn(x::AbstractArray) = copy_to_engine(x)
_as_cn(x::Bool) = _weak(cn_scalar(CN_SCALAR_BOOL, 0, Int64(x), 0.0, 0.0))
_as_cn(x::Integer) = _weak(cn_scalar(CN_SCALAR_INT, 0, Int64(x), 0.0, 0.0))
_as_cn(x::Real) = _weak(cn_scalar(CN_SCALAR_FLOAT, 0, 0, Float64(x), 0.0))
_as_cn(x::Complex) = _weak(cn_scalar(CN_SCALAR_COMPLEX, 0, 0, Float64(real(x)), Float64(imag(x))))
_weak(s::cn_scalar) = _new(o -> cn_scalar_array(o, s))

function _pad(a::CnArray, n::Int)
    shape = Int64[size(a)..., ntuple(_ -> 1, n - ndims(a))...]
    _new(o -> cn_reshape(o, handle(a), n, shape, CN_ORDER_F))
end

# Julia functions that are one op of the table.
const _OPS = IdDict{Any,String}(
    (+) => "add", (-) => "subtract", (*) => "multiply", (/) => "divide",
    (^) => "power", max => "maximum", min => "minimum", abs => "abs",
    sqrt => "sqrt", cbrt => "cbrt", exp => "exp", exp2 => "exp2",
    expm1 => "expm1", log => "log", log1p => "log1p", log2 => "log2",
    log10 => "log10", sin => "sin", cos => "cos", tan => "tan",
    asin => "arcsin", acos => "arccos", atan => "arctan", sinh => "sinh",
    cosh => "cosh", tanh => "tanh", asinh => "arcsinh", acosh => "arccosh",
    atanh => "arctanh", floor => "floor", ceil => "ceil", trunc => "trunc",
    sign => "sign", isnan => "isnan", isinf => "isinf",
    isfinite => "isfinite", signbit => "signbit", hypot => "hypot",
    copysign => "copysign", (==) => "equal", (!=) => "not_equal",
    (<) => "less", (<=) => "less_equal", (>) => "greater",
    (>=) => "greater_equal", (!) => "logical_not", (&) => "bitwise_and",
    (|) => "bitwise_or", xor => "bitwise_xor", (~) => "bitwise_invert",
    real => "real", imag => "imag", conj => "conj", angle => "angle")

function _opname(f, nargs::Int)
    f === (-) && nargs == 1 && return "negative"
    f === (+) && nargs == 1 && return "positive"
    f === atan && nargs == 2 && return "arctan2"
    haskey(_OPS, f) || throw(ArgumentError("CuNumpy: $f is not a cunumpy op; use Array(a) to compute in Julia"))
    return _OPS[f]
end

struct CnStyle <: Broadcast.BroadcastStyle end
Base.BroadcastStyle(::Type{<:CnArray}) = CnStyle()
Base.BroadcastStyle(::CnStyle, ::Broadcast.DefaultArrayStyle) = CnStyle()

_eval(x) = x
_eval(x::Base.RefValue) = x[]
function _eval(bc::Broadcast.Broadcasted)
    args = map(_eval, bc.args)
    bc.f === identity && length(args) == 1 && return args[1]
    return ufunc(_opname(bc.f, length(args)), args...)
end

# A dotted expression (sin.(a) .+ 2 .* a) reaches copy/copyto! as one
# Broadcasted tree: it is written as one expression of cunumpy/expr.h
# (add(sin(x1), multiply(2, x1))) and evaluated in one fused pass by
# cn_evaluate. Arrays become the names x1, x2, ... (each distinct array
# once), numbers weak literals. A tree with a leaf that has no literal (Inf,
# NaN, a non-number) runs op by op through ufunc instead.
struct _NoLiteral <: Exception end

_unref(x) = x
_unref(x::Base.RefValue) = x[]
_literal(x::Bool) = x ? "True" : "False"
_literal(x::Integer) = string(Int64(x))
_literal(x::AbstractFloat) = isfinite(x) ? repr(Float64(x)) : throw(_NoLiteral())
_literal(x::Complex{<:AbstractFloat}) =
    "(" * _literal(real(x)) * " + " * _literal(imag(x)) * "j)"
_literal(x) = throw(_NoLiteral())

function _expr_text(bc::Broadcast.Broadcasted, leaves)
    args = map(_unref, bc.args)
    # x .^ 2 lowers to literal_pow(^, x, Val(2))
    if bc.f === Base.literal_pow && length(args) == 3 && args[3] isa Val
        p = typeof(args[3]).parameters[1]
        return "power(" * _expr_text(args[2], leaves) * ", " * _literal(p) * ")"
    end
    bc.f === identity && length(args) == 1 && return _expr_text(args[1], leaves)
    name = _opname(bc.f, length(args))
    return name * "(" * join([_expr_text(a, leaves) for a in args], ", ") * ")"
end
_expr_text(x::Base.RefValue, leaves) = _expr_text(x[], leaves)
_expr_text(x::Number, leaves) = _literal(x)
function _expr_text(x::AbstractArray, leaves)
    i = findfirst(y -> y === x, leaves)
    if i === nothing
        push!(leaves, x)
        i = length(leaves)
    end
    return "x$i"
end
_expr_text(x, leaves) = throw(_NoLiteral())

# The fused result (into dest when given), or nothing when the tree has no
# expression text (then the caller runs it op by op).
function _fused(bc::Broadcast.Broadcasted, dest)
    leaves = Any[]
    text = try
        _expr_text(bc, leaves)
    catch e
        e isa _NoLiteral || rethrow()
        return nothing
    end
    isempty(leaves) && return nothing
    args = Any[_as_cn(x) for x in leaves]
    n = maximum(ndims(a) for a in args)
    dest === nothing || (n = max(n, ndims(dest)))
    args = [ndims(a) == n ? a : _pad(a, n) for a in args]
    names = ["x$i" for i in eachindex(args)]
    hs = Ptr{Cvoid}[handle(a) for a in args]
    dst = dest === nothing ? C_NULL : handle(dest)
    GC.@preserve args names begin
        ptrs = Ptr{UInt8}[pointer(s) for s in names]
        return _new(o -> cn_evaluate(o, text, length(hs), ptrs, hs, dst))
    end
end

function Base.copy(bc::Broadcast.Broadcasted{CnStyle})
    r = _fused(bc, nothing)
    return r === nothing ? _as_cn(_eval(bc)) : r
end

# y .= f.(...) computes into y (the engine's dst) without a temporary.
function Base.copyto!(dest::CnArray, bc::Broadcast.Broadcasted{CnStyle})
    if bc.f === identity && length(bc.args) == 1  # y .= x
        x = _eval(bc.args[1])
        check(cn_assign(handle(dest), handle(_operands((x, dest))[1])))
    elseif _fused(bc, dest) === nothing
        args = map(_eval, bc.args)
        ufunc(_opname(bc.f, length(args)), args...; out=dest)
    end
    return dest
end
function Base.copyto!(dest::CnArray, src::CnArray)
    check(cn_assign(handle(dest), handle(src)))
    return dest
end

# + and - of arrays do not broadcast in Julia
function Base.:+(a::CnArray, b::CnArray)
    size(a) == size(b) || throw(DimensionMismatch("sizes $(size(a)) and $(size(b))"))
    return ufunc("add", a, b)
end
function Base.:-(a::CnArray, b::CnArray)
    size(a) == size(b) || throw(DimensionMismatch("sizes $(size(a)) and $(size(b))"))
    return ufunc("subtract", a, b)
end
Base.:-(a::CnArray) = ufunc("negative", a)

# ---- reductions and products ------------------------------------------------

# dims (Julia's, 1-based) -> C axes; Julia keeps reduced dimensions.
function _reduce(f, a::CnArray, dims)
    if dims === Colon()
        r = _new(o -> f(o, handle(a), CN_ALL_AXES, C_NULL, 0, CN_DTYPE_DEFAULT, C_NULL))
        return r[]
    end
    axes = Int32[d - 1 for d in (dims isa Integer ? (dims,) : dims)]
    return _new(o -> f(o, handle(a), length(axes), axes, 1, CN_DTYPE_DEFAULT, C_NULL))
end

Base.sum(a::CnArray; dims=:) = _reduce(cn_sum, a, dims)
Base.prod(a::CnArray; dims=:) = _reduce(cn_prod, a, dims)
Base.maximum(a::CnArray; dims=:) = _reduce(cn_max, a, dims)
Base.minimum(a::CnArray; dims=:) = _reduce(cn_min, a, dims)
Base.any(a::CnArray{Bool}; dims=:) = _reduce(cn_any, a, dims)
Base.all(a::CnArray{Bool}; dims=:) = _reduce(cn_all, a, dims)
"Arithmetic mean (float64 for integer arrays), as NumPy's mean."
mean(a::CnArray; dims=:) = _reduce(cn_mean, a, dims)

"Matrix (or matrix-vector) product computed by the engine (BLAS)."
Base.:*(a::CnArray, b::CnArray) = _new(o -> cn_matmul(o, handle(a), handle(b), C_NULL))

# ---- custom kernels (cunumpy/kernel.h) ------------------------------------

"""
    ElementwiseKernel(in_params, out_params, operation, name="kernel";
                      preamble="", loop_prep="", after_loop="", options="")

CuPy's `ElementwiseKernel`, in CuPy's parameter grammar (`"T x, float64 y"`,
`raw`, single-letter type placeholders). `k(args...; size=-1)` runs it where
its arrays live (the CPU backend compiles the C body with the host compiler,
CUDA with NVRTC) and returns the output, or a tuple of outputs; pass the
outputs after the inputs to write into existing CnArrays. Arguments are
broadcast as `ufunc` broadcasts them (Julia's leading-dimension rule).
"""
mutable struct ElementwiseKernel
    handle::Ptr{Cvoid}
    nin::Int
    nout::Int
end

"""
    ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_map_expr,
                    identity, name="reduce_kernel"; reduce_type="", preamble="",
                    options="")

CuPy's `ReductionKernel`: `k(args...; dims=:)` maps, reduces pairwise with
`reduce_expr` (of `a` and `b`) and post-maps; with `dims` the reduced
dimensions are kept with extent 1, as Julia's `sum(a; dims)` does.
"""
mutable struct ReductionKernel
    handle::Ptr{Cvoid}
    nin::Int
    nout::Int
end

const _Kernel = Union{ElementwiseKernel,ReductionKernel}

function _kernel(T, f)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(f(out))
    nin = Ref{Int32}(0)
    nout = Ref{Int32}(0)
    try
        check(cn_kernel_nin(nin, out[]))
        check(cn_kernel_nout(nout, out[]))
    catch
        cn_kernel_release(out[])
        rethrow()
    end
    k = T(out[], Int(nin[]), Int(nout[]))
    finalizer(k) do k
        h = k.handle
        k.handle = C_NULL
        h == C_NULL || cn_kernel_release(h)
    end
    return k
end

ElementwiseKernel(in_params::AbstractString, out_params::AbstractString,
                  operation::AbstractString, name::AbstractString="kernel";
                  preamble::AbstractString="", loop_prep::AbstractString="",
                  after_loop::AbstractString="", options::AbstractString="") =
    _kernel(ElementwiseKernel, o -> cn_elementwise_kernel_create(
        o, in_params, out_params, operation, name, preamble, loop_prep, after_loop, options))

ReductionKernel(in_params::AbstractString, out_params::AbstractString,
                map_expr::AbstractString, reduce_expr::AbstractString,
                post_map_expr::AbstractString, identity::AbstractString,
                name::AbstractString="reduce_kernel"; reduce_type::AbstractString="",
                preamble::AbstractString="", options::AbstractString="") =
    _kernel(ReductionKernel, o -> cn_reduction_kernel_create(
        o, in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name,
        reduce_type, preamble, options))

_khandle(k::_Kernel) = k.handle == C_NULL ? throw(ArgumentError("CuNumpy: kernel was finalized")) : k.handle

function (k::ElementwiseKernel)(args...; size::Integer=-1)
    ops = _operands(args)
    hs = Ptr{Cvoid}[handle(x) for x in ops]
    outs = fill(C_NULL, max(k.nout, 1))
    GC.@preserve ops check(cn_kernel_call(outs, length(outs), _khandle(k), length(hs), hs, Int64(size)))
    res = Tuple(CnArray(outs[i]) for i in 1:k.nout)
    return length(res) == 1 ? res[1] : res
end

function (k::ReductionKernel)(args...; dims=:)
    ops = _operands(args)
    hs = Ptr{Cvoid}[handle(x) for x in ops]
    axes = dims === Colon() ? Int32[] : Int32[d - 1 for d in (dims isa Integer ? (dims,) : dims)]
    naxes = dims === Colon() ? CN_ALL_AXES : Int32(length(axes))
    outs = [C_NULL]
    GC.@preserve ops check(cn_kernel_reduce(outs, 1, _khandle(k), length(hs), hs, naxes,
                                            axes, dims === Colon() ? 0 : 1))
    r = CnArray(outs[1])
    return dims === Colon() ? r[] : r
end

"""
    RawModule(code; options=String[], name_expressions=String[], arch=0)

CuPy's `RawModule`: CUDA C++ source compiled by NVRTC (cached in memory and
on disk). `arch` (major*10+minor) compiles PTX without a GPU;
`get_function(m, name)` needs one.
"""
mutable struct RawModule
    handle::Ptr{Cvoid}
end

"""
    RawKernel

One `__global__` function of a `RawModule` (CuPy's `RawKernel`):
`k(grid, block, args...; shared_mem=0)` launches it on the current stream;
CnArrays are passed as device pointers, numbers as their C types (Int32 ->
int, Int64 -> long long, Float32 -> float, Float64 -> double).
"""
mutable struct RawKernel
    handle::Ptr{Cvoid}
    mod::RawModule
end

function RawModule(code::AbstractString; options=String[], name_expressions=String[],
                   arch::Integer=0)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(cn_cuda_module_from_source(out, code, "kernel.cu", join(options, "\n"),
                                     join(name_expressions, "\n"), Int32(arch)))
    m = RawModule(out[])
    finalizer(m) do m
        h = m.handle
        m.handle = C_NULL
        h == C_NULL || cn_cuda_module_release(h)
    end
    return m
end

"""
    RawKernel(code, name; options=String[])

The kernel `name` of `code` compiled as a `RawModule`.
"""
RawKernel(code::AbstractString, name::AbstractString; options=String[]) =
    get_function(RawModule(code; options=options), name)

function get_function(m::RawModule, name::AbstractString)
    out = Ref{Ptr{Cvoid}}(C_NULL)
    check(cn_cuda_module_get_function(out, m.handle, name))
    k = RawKernel(out[], m)
    finalizer(k) do k
        h = k.handle
        k.handle = C_NULL
        h == C_NULL || cn_cuda_function_release(h)
    end
    return k
end

_extents(x::Integer) = Int64[x, 1, 1]
_extents(x::Tuple) = Int64[x..., ntuple(_ -> 1, 3 - length(x))...]

_scalar_ref(x::Union{Int32,Int64,Float32,Float64,ComplexF32,ComplexF64}) = Ref(x)
_scalar_ref(x) = throw(ArgumentError("CuNumpy: a raw kernel argument of type $(typeof(x)) has no C type"))

function (k::RawKernel)(grid, block, args...; shared_mem::Integer=0)
    refs = Any[a isa CnArray ? a : _scalar_ref(a) for a in args]
    arrays = Ptr{Cvoid}[a isa CnArray ? handle(a) : C_NULL for a in refs]
    GC.@preserve refs begin
        values = Ptr{Cvoid}[a isa CnArray ? C_NULL :
                            Ptr{Cvoid}(Base.unsafe_convert(Ptr{typeof(a[])}, a)) for a in refs]
        sizes = Int64[a isa CnArray ? 0 : sizeof(a[]) for a in refs]
        check(cn_cuda_function_launch(k.handle, _extents(grid), _extents(block), Int64(shared_mem),
                                      C_NULL, 0, length(refs), arrays, values, sizes))
    end
    return nothing
end

end # module
