# CuNumpy's tests: Julia itself is the oracle. Run with
#   CUNUMPY_LIB=/path/to/libcunumpy.so julia --project=bindings/julia/CuNumpy \
#       -e 'using Pkg; Pkg.test()'
using Test
using CuNumpy
using CuNumpy: CN_ERR_SHAPE, CN_ERR_VALUE, CN_FLOAT32, CN_FLOAT64, refcount,
               copy_to_engine, mean

# a Julia function that is not a cunumpy op
gamma_like(x) = x + 1

@testset "CuNumpy" begin
    @testset "library and constants" begin
        @test unsafe_string(CuNumpy.cn_version()) isa String
        @test CuNumpy.cn_abi_version() == CuNumpy.CUNUMPY_ABI_VERSION
        @test unsafe_string(CuNumpy.cn_status_name(CN_ERR_SHAPE)) == "CN_ERR_SHAPE"
        @test CuNumpy.cn_dtype_itemsize(CN_FLOAT64) == 8
        use_backend("numpy")
        @test backend() == "cpu"
    end

    @testset "zero-copy views of Julia arrays" begin
        x = reshape(collect(1.0:12.0), 3, 4)
        a = CnArray(x)
        @test a isa CnArray{Float64,2}
        @test size(a) == (3, 4)
        @test strides(a) == (1, 3)
        @test eltype(a) == Float64
        @test a[2, 3] == x[2, 3]
        @test pointer(x) == Base.unsafe_convert(Ptr{Float64}, a)
        a[1, 1] = -5.0
        @test x[1, 1] == -5.0               # same memory
        @test Array(a) == x
        # the view keeps x alive on its own
        b = CnArray(zeros(Int32, 5))
        GC.gc()
        @test Array(b) == zeros(Int32, 5)
        for T in (Bool, Int8, Int16, Int32, Int64, UInt8, UInt16, UInt32, UInt64,
                  Float16, Float32, Float64, ComplexF32, ComplexF64)
            y = rand(T, 2, 3)
            @test Array(CnArray(y)) == y
        end
        @test_throws ArgumentError CnArray(["a", "b"])
        r = CnArray([1.0, 2.0]; readonly=true)
        @test_throws ArgumentError (r[1] = 3.0)
    end

    @testset "unsafe_wrap onto engine memory" begin
        a = copy_to_engine(reshape(Float32.(1:6), 2, 3))
        GC.@preserve a begin
            v = unsafe_wrap(Array, a)
            @test v == reshape(Float32.(1:6), 2, 3)
            v[2, 2] = 0
            @test a[2, 2] == 0
        end
    end

    @testset "elementwise ops by broadcasting" begin
        x = range(-2, 2; length=7) |> collect
        y = reshape(collect(0.5:0.5:6.0), 3, 4)
        a = CnArray(x)
        b = CnArray(y)
        @test Array(sin.(a)) ≈ sin.(x)
        @test Array(exp.(b) .+ 1) ≈ exp.(y) .+ 1
        @test Array(a .* a .- 2a) ≈ x .* x .- 2x
        @test Array(abs.(a)) == abs.(x)
        @test Array(a .> 0) == (x .> 0)
        @test Array(max.(a, 0.5)) == max.(x, 0.5)
        @test Array(atan.(a, 2.0)) ≈ atan.(x, 2.0)
        # Julia's broadcasting rule: a vector runs along the first dimension
        v = [10.0, 20.0, 30.0]
        @test Array(b .+ CnArray(v)) ≈ y .+ v
        # in place into a Julia array through its view
        z = zeros(3, 4)
        zv = CnArray(z)
        zv .= sqrt.(b)
        @test z ≈ sqrt.(y)
        zv .= 1.5
        @test all(z .== 1.5)
        # float32 stays float32 with a Julia Float64 scalar (weak scalar)
        s = CnArray(Float32[1, 2, 3])
        @test eltype(s .* 2.5) == Float32
        @test_throws ArgumentError Array(gamma_like.(a))
    end

    @testset "dotted expressions as one program" begin
        x = collect(range(-1.5, 2.5; length=11))
        y = reshape(collect(0.25:0.25:3.0), 3, 4)
        a = CnArray(x)
        b = CnArray(y)
        @test Array(sin.(a) .+ 2 .* a) ≈ sin.(x) .+ 2 .* x
        @test Array(a .^ 2 .- 3 .* a .+ 1) ≈ x .^ 2 .- 3 .* x .+ 1
        @test Array(sqrt.((b .- 1) .^ 2 .+ 1)) ≈ sqrt.((y .- 1) .^ 2 .+ 1)
        # a vector along the first dimension, as Julia broadcasts
        v = [1.0, 2.0, 3.0]
        @test Array(b .* CnArray(v) .+ 0.5) ≈ y .* v .+ 0.5
        # into an existing array
        z = zeros(3, 4)
        zv = CnArray(z)
        zv .= exp.(b) .* 2 .- b
        @test z ≈ exp.(y) .* 2 .- y
        # a number without a literal runs op by op, same values
        @test Array(min.(a, Inf) .+ 1) ≈ min.(x, Inf) .+ 1
        s = CnArray(Float32[1, 2, 3])
        @test eltype(sin.(s) .* 2.5 .+ 1) == Float32
    end

    @testset "reductions and products" begin
        y = reshape(collect(1.0:24.0), 4, 3, 2) .* 0.25
        b = CnArray(y)
        @test sum(b) ≈ sum(y)
        @test maximum(b) == maximum(y)
        @test minimum(b) == minimum(y)
        @test prod(CnArray([1.0, 2.0, 3.5])) ≈ 7.0
        @test Array(sum(b; dims=1)) ≈ sum(y; dims=1)
        @test Array(maximum(b; dims=(1, 3))) == maximum(y; dims=(1, 3))
        @test mean(b) ≈ sum(y) / length(y)
        @test sum(CnArray([1, 2, 3])) == 6
        m = rand(5, 3)
        n = rand(3, 4)
        @test Array(CnArray(m) * CnArray(n)) ≈ m * n
        @test Array(CnArray(m) * CnArray(n[:, 1])) ≈ m * n[:, 1]
    end

    @testset "handles" begin
        a = copy_to_engine([1.0, 2.0])
        @test refcount(a) == 1
        b = sin.(a)
        @test refcount(a) == 1
        finalize(b)
        @test_throws ArgumentError CuNumpy.handle(b)
    end

    @testset "errors" begin
        a = CnArray([1.0, 2.0, 3.0])
        b = CnArray([1.0, 2.0])
        err = try
            ufunc("add", a, b)
            nothing
        catch e
            e
        end
        @test err isa CuNumpyError
        @test err.status == CN_ERR_SHAPE
        @test occursin("broadcast", err.msg)
        @test_throws CuNumpyError ufunc("no_such_op", a)
        e2 = try
            use_backend("tpu")
        catch e
            e
        end
        @test e2 isa CuNumpyError && e2.status == CN_ERR_VALUE && occursin("tpu", e2.msg)
        @test_throws CuNumpyError CnArray(zeros(2, 2)) * CnArray(zeros(3, 3))
        @test_throws DimensionMismatch CnArray([1.0, 2]) + CnArray([1.0, 2, 3])
        # a singular matrix is a linear-algebra failure, told apart by type
        s = CnArray([1.0 2.0; 2.0 4.0])
        out = Ref{Ptr{Cvoid}}(C_NULL)
        e3 = try
            CuNumpy.check(CuNumpy.cn_linalg_inv(out, s.handle))
        catch e
            e
        end
        @test e3 isa CuNumpyLinAlgError && e3 isa CuNumpyError
        @test e3.status == CN_ERR_LINALG && occursin("Singular matrix", e3.msg)
        @test out[] == C_NULL
        @test err isa CuNumpyStatusError
    end

    @testset "custom kernels" begin
        x = reshape(collect(0.25:0.25:5.0), 4, 5)
        y = collect(1.5:1.5:7.5)'
        sq = ElementwiseKernel("float64 x, float64 y", "float64 z",
                               "z = (x - y) * (x - y)", "squared_diff")
        z = sq(CnArray(x), CnArray(collect(y)))
        @test Array(z) ≈ (x .- y) .^ 2
        gen = ElementwiseKernel("T x, T y", "T z", "z = x * y", "generic_mul")
        @test Array(gen(CnArray(Float32[1, 2, 3]), CnArray(Float32[4, 5, 6]))) == Float32[4, 10, 18]
        dst = CnArray(zeros(4, 5))
        sq(CnArray(x), CnArray(collect(y)), dst)
        @test Array(dst) ≈ (x .- y) .^ 2
        l2 = ReductionKernel("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm")
        @test l2(CnArray(x)) ≈ sqrt(sum(abs2, x))
        @test Array(l2(CnArray(x); dims=1)) ≈ sqrt.(sum(abs2, x; dims=1))
        err = try
            ElementwiseKernel("float64 x y", "float64 z", "z = x")
            nothing
        catch e
            e
        end
        @test err isa CuNumpyError && err.status == CN_ERR_VALUE
        # NVRTC compiles for an architecture without a GPU
        src = "extern \"C\" __global__ void add1(float* a, int n) " *
              "{ int i = threadIdx.x; if (i < n) a[i] += 1.0f; }"
        m = try
            RawModule(src; arch=80)
        catch e
            e
        end
        @test m isa RawModule || (m isa CuNumpyError && m.status == CuNumpy.CN_ERR_DEVICE)
    end
end
