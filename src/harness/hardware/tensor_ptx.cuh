/* The tensor-core, asynchronous-copy and barrier instructions of the hgemm
 * and attention ladders, each wrapped once in a named function with its
 * operands explained, so that kernels read as tiles and pipelines. Shared-memory operands are
 * 32-bit shared-window addresses (smem_address). Each wrapper compiles to
 * nothing on targets without its instruction; the case skips those rungs
 * there, so that code never runs.
 *   sm_80+:  ldmatrix (plain and transposed), mma.sync m16n8k16 BF16, cp.async with zero fill
 *   sm_90:   mbarrier transactions, TMA (cp.async.bulk.tensor, 2D and 3D, multicast to a
 *            cluster), cluster rank, barrier and arrivals on a peer block's mbarrier,
 *            programmatic dependent launch
 *   sm_90a:  wgmma (BF16: A from shared memory or registers, B K- or N-major; TF32: A from
 *            registers, B K-major), setmaxnreg */
#ifndef LADDER_TENSOR_PTX_CUH
#define LADDER_TENSOR_PTX_CUH

#include <stdint.h>

__device__ __forceinline__ uint32_t smem_address(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* ---- sm_80: warp-level MMA ------------------------------------------------ */

/* Four 8x8 matrices of 16-bit elements from shared memory: lane l gives the
 * address of row l % 8 of matrix l / 8 (16 contiguous bytes); register i
 * receives matrix i, each lane holding the 2 elements of row lane / 4,
 * columns 2 (lane % 4) and + 1: exactly the mma.sync fragment layout. */
__device__ __forceinline__ void ldmatrix_x4(uint32_t (&r)[4], uint32_t address)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
#endif
}

/* ldmatrix_x4 with each 8x8 matrix transposed: lane i receives, of matrix
 * i, the elements (row 2 (lane % 4), column lane / 4) and (row + 1, same
 * column). From a row-major k x n tile (rows k, n contiguous: V in P V)
 * that is mma.sync's "col" B fragment, without a transposed copy. */
__device__ __forceinline__ void ldmatrix_x4_trans(uint32_t (&r)[4], uint32_t address)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
#endif
}

/* d (16 x 8, FP32) += a (16 x 16, BF16, row) * b (16 x 8, BF16, col): a's
 * registers are its four 8x8 quarters (rows 0-7 / 8-15 by k 0-7 / 8-15, in
 * the order rows first), b's its two k halves; d[0..1] are row lane / 4,
 * d[2..3] row lane / 4 + 8, columns 2 (lane % 4) and + 1. */
__device__ __forceinline__ void mma_bf16_m16n8k16(float (&d)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

/* 16 bytes global -> shared without passing through registers; only the
 * first src_bytes (0..16) are read, the rest of the 16 written as zeros: the
 * edge of a matrix fills itself. .cg: through L2 only, the tile is not
 * reused from L1. */
__device__ __forceinline__ void cp_async_16(uint32_t dst, const void *src, uint32_t src_bytes)
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_bytes) : "memory");
#endif
}

__device__ __forceinline__ void cp_async_commit()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/* Wait until at most PENDING committed groups of this thread are in flight. */
template <int PENDING>
__device__ __forceinline__ void cp_async_wait()
{
#if __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_group %0;\n" ::"n"(PENDING) : "memory");
#endif
}

/* Named barriers (1-15; 0 is __syncthreads) between THREADS threads, a
 * multiple of 32: sync waits until THREADS have arrived (itself counted),
 * arrive counts this warp and goes on. Two warpgroups take turns with a
 * pair of them. */
__device__ __forceinline__ void named_barrier_sync(int id, int threads)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ void named_barrier_arrive(int id, int threads)
{
    asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

/* ---- sm_90: transaction barriers and the tensor copy engine --------------- */

/* An mbarrier completes a phase when `count` arrivals and every byte it was
 * told to expect have come; waiters name the phase by its parity. */
__device__ __forceinline__ void mbarrier_init(uint64_t *barrier, uint32_t count)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_address(barrier)), "r"(count) : "memory");
#endif
}

/* Make initialized barriers visible to the copy engine (the async proxy)
 * before the first copy names them. */
__device__ __forceinline__ void mbarrier_init_fence()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
#endif
}

/* One arrival that also tells the barrier to wait for `bytes` more bytes of
 * copies in this phase (the producer's arrival before it issues them). */
__device__ __forceinline__ void mbarrier_arrive_expect_bytes(uint64_t *barrier, uint32_t bytes)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(smem_address(barrier)),
                 "r"(bytes)
                 : "memory");
#endif
}

__device__ __forceinline__ void mbarrier_arrive(uint64_t *barrier)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(smem_address(barrier)) : "memory");
#endif
}

/* Spin until the phase of this parity has completed. A fresh barrier is in
 * phase 0, and waiting on parity 1 returns at once (the phase before it
 * counts as complete): a producer's first pass over empty slots. */
__device__ __forceinline__ void mbarrier_wait(uint64_t *barrier, uint32_t parity)
{
#if __CUDA_ARCH__ >= 900
    uint32_t address = smem_address(barrier), done;
    do {
        asm volatile("{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                     " selp.u32 %0, 1, 0, p;\n}\n"
                     : "=r"(done)
                     : "r"(address), "r"(parity)
                     : "memory");
    } while (!done);
#endif
}

/* Fetch a tensor map (a __grid_constant__ parameter) into the copy
 * engine's descriptor cache ahead of its first copy. */
__device__ __forceinline__ void prefetch_tensor_map(const void *tensor_map)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("prefetch.tensormap [%0];\n" ::"l"(tensor_map) : "memory");
#endif
}

/* The tensor copy engine: the box of the 2D tensor map at element
 * coordinates (inner, outer) into shared memory at dst (laid out and
 * swizzled as the map says), its bytes counted on `barrier`. Elements
 * outside the tensor arrive as zeros: partial tiles need no code. The map
 * must live in constant, parameter or global memory (a __grid_constant__
 * kernel parameter). */
__device__ __forceinline__ void tma_load_2d(uint32_t dst, const void *tensor_map, int inner, int outer,
                                            uint64_t *barrier)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], "
                 "[%4];\n" ::"r"(dst),
                 "l"(tensor_map), "r"(inner), "r"(outer), "r"(smem_address(barrier))
                 : "memory");
#endif
}

/* The same box written into every block of the cluster named in cta_mask
 * (bit r: the block of rank r), at the same offset in each, and counted on
 * each one's barrier at the same offset: two blocks that need one tile
 * read it from L2 once. */
__device__ __forceinline__ void tma_load_2d_multicast(uint32_t dst, const void *tensor_map, int inner, int outer,
                                                      uint64_t *barrier, uint16_t cta_mask)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster "
                 "[%0], [%1, {%2, %3}], [%4], %5;\n" ::"r"(dst),
                 "l"(tensor_map), "r"(inner), "r"(outer), "r"(smem_address(barrier)), "h"(cta_mask)
                 : "memory");
#endif
}

/* The box at (inner, outer) of a tensor written from shared memory at src
 * (laid out as tma_load_2d would have written it), in this thread's bulk
 * group; elements outside the tensor are not written. */
__device__ __forceinline__ void tma_store_2d(const void *tensor_map, int inner, int outer, uint32_t src)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [%0, {%1, %2}], [%3];\n" ::"l"(tensor_map),
                 "r"(inner), "r"(outer), "r"(src)
                 : "memory");
#endif
}

/* Close this thread's bulk group of TMA stores issued since the last. */
__device__ __forceinline__ void bulk_commit()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
#endif
}

/* Until at most PENDING of this thread's bulk groups have not yet read
 * their shared memory (READ) or not yet completed their writes. */
template <int PENDING, bool READ>
__device__ __forceinline__ void bulk_wait()
{
#if __CUDA_ARCH__ >= 900
    if constexpr (READ)
        asm volatile("cp.async.bulk.wait_group.read %0;\n" ::"n"(PENDING) : "memory");
    else
        asm volatile("cp.async.bulk.wait_group %0;\n" ::"n"(PENDING) : "memory");
#endif
}

/* Order this thread's writes to shared memory before the copy engine's
 * reads of it (the async proxy), e.g. a TMA store of what was written. */
__device__ __forceinline__ void fence_async_shared()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}

/* Two floats of shared memory (8-byte aligned) at a shared-window address,
 * loaded or stored: a pointer computed from the aligned base would lose its
 * address space and go through the generic path. */
__device__ __forceinline__ float2 load_shared_pair(uint32_t address)
{
    float2 x;
    asm volatile("ld.shared.v2.f32 {%0, %1}, [%2];\n" : "=f"(x.x), "=f"(x.y) : "r"(address));
    return x;
}

__device__ __forceinline__ void store_shared_pair(uint32_t address, float x, float y)
{
    asm volatile("st.shared.v2.f32 [%0], {%1, %2};\n" ::"r"(address), "f"(x), "f"(y) : "memory");
}

__device__ __forceinline__ void store_shared_quad(uint32_t address, float4 x)
{
    asm volatile("st.shared.v4.f32 [%0], {%1, %2, %3, %4};\n" ::"r"(address), "f"(x.x), "f"(x.y), "f"(x.z), "f"(x.w)
                 : "memory");
}

/* The address in the cluster's shared window of what sits at this block's
 * shared-window address `address` in the cluster's block of rank cta (this
 * block's own where cta is its rank). */
__device__ __forceinline__ uint32_t cluster_shared_address(uint32_t address, uint32_t cta)
{
    uint32_t remote = 0;
#if __CUDA_ARCH__ >= 900
    asm volatile("mapa.shared::cluster.u32 %0, %1, %2;\n" : "=r"(remote) : "r"(address), "r"(cta));
#endif
    return remote;
}

/* Four floats (16-byte aligned) at a cluster address
 * (cluster_shared_address: distributed shared memory). */
__device__ __forceinline__ float4 load_cluster_shared_quad(uint32_t cluster_address)
{
    float4 x = {};
#if __CUDA_ARCH__ >= 900
    asm volatile("ld.shared::cluster.v4.f32 {%0, %1, %2, %3}, [%4];\n"
                 : "=f"(x.x), "=f"(x.y), "=f"(x.z), "=f"(x.w)
                 : "r"(cluster_address)
                 : "memory");
#endif
    return x;
}

/* This block's rank in its cluster. */
__device__ __forceinline__ uint32_t cluster_rank()
{
    uint32_t rank = 0;
#if __CUDA_ARCH__ >= 900
    asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
#endif
    return rank;
}

/* True in one lane of the calling warp, all of whose lanes must call it:
 * the compiler then knows that what it guards runs once a warp, and issues
 * a copy from uniform registers without a loop over the active lanes. */
__device__ __forceinline__ bool elect_one_lane()
{
#if __CUDA_ARCH__ >= 900
    uint32_t elected;
    asm volatile("{\n .reg .pred p;\n elect.sync _|p, 0xffffffff;\n selp.u32 %0, 1, 0, p;\n}\n" : "=r"(elected));
    return elected != 0;
#else
    return threadIdx.x % 32 == 0;
#endif
}

/* Every thread of the cluster waits for all the others (so a kernel brings
 * every thread here, idle ones included): before the first copy or arrival
 * that names a peer's barrier (it must be initialized), and before a block
 * exits (a peer may still arrive on its barriers). Not .aligned: a warp may
 * reach it from divergent paths. The arrival and the wait may also come
 * apart, with work of the thread's own between them: cluster_arrive
 * releases the thread's earlier writes to the cluster (and so waits for
 * them, global stores included); cluster_arrive_relaxed orders nothing and
 * does not wait; cluster_wait acquires what the others released. */
__device__ __forceinline__ void cluster_arrive()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void cluster_arrive_relaxed()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.relaxed;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void cluster_wait()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void cluster_sync()
{
    cluster_arrive();
    cluster_wait();
}

/* The address in the cluster's shared window of this block's `barrier`'s
 * counterpart in the block of rank cta: offsets from it reach the
 * counterparts of the barriers after it. */
__device__ __forceinline__ uint32_t cluster_barrier_address(uint64_t *barrier, uint32_t cta)
{
    return cluster_shared_address(smem_address(barrier), cta);
}

/* An arrival on the barrier at a cluster address (cluster_barrier_address). */
__device__ __forceinline__ void mbarrier_arrive_at(uint32_t cluster_address)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("mbarrier.arrive.shared::cluster.b64 _, [%0];\n" ::"r"(cluster_address) : "memory");
#endif
}

/* An arrival on the barrier at this barrier's offset in the cluster's block
 * of rank cta (this block's own, where cta is its rank): a consumer frees a
 * stage that a peer's producer will overwrite by multicast. */
__device__ __forceinline__ void mbarrier_arrive_in_block(uint64_t *barrier, uint32_t cta)
{
    mbarrier_arrive_at(cluster_barrier_address(barrier, cta));
}

/* An arrival on the barrier at this offset in every block of a cluster of
 * CLUSTER (1: this block's own, no cluster): a consumer frees a stage that
 * any of their producers may write into. */
template <int CLUSTER>
__device__ __forceinline__ void mbarrier_arrive_cluster(uint64_t *barrier)
{
    if constexpr (CLUSTER > 1)
        for (uint32_t r = 0; r < CLUSTER; ++r) mbarrier_arrive_in_block(barrier, r);
    else
        mbarrier_arrive(barrier);
}

/* A producer-consumer ring's barriers, set up by thread 0 before any thread
 * of the cluster goes on: full[s] completes on the producer's one arrival
 * and its copies' bytes, empty[s] on an arrival of each of the `readers`
 * consumers (warps, or warpgroups where one warp speaks for its group) of
 * every block of the CLUSTER whose copies write stage s.
 * ring_barriers_arrive sets them up and, in a cluster, arrives on the
 * cluster's barrier; each thread then waits (ring_barriers_wait) before it
 * touches a barrier, and may do work of its own in between. The arrival is
 * relaxed: the init fence already releases the barriers, and a releasing
 * arrival (cluster_sync) cost 470 ns more before a kernel's first copy
 * (hgemm's swap_ab in clusters, H100, 2026-11-28). Without a cluster the
 * block syncs in ring_barriers_arrive. */
template <int CLUSTER>
__device__ __forceinline__ void ring_barriers_arrive(uint64_t *full, uint64_t *empty, int stages, int readers)
{
    if (threadIdx.x == 0) {
        for (int s = 0; s < stages; ++s) {
            mbarrier_init(&full[s], 1);
            mbarrier_init(&empty[s], readers * CLUSTER);
        }
        mbarrier_init_fence();
    }
    if constexpr (CLUSTER > 1)
        cluster_arrive_relaxed();
    else
        __syncthreads();
}

template <int CLUSTER>
__device__ __forceinline__ void ring_barriers_wait()
{
    if constexpr (CLUSTER > 1) cluster_wait();
}

template <int CLUSTER>
__device__ __forceinline__ void ring_barriers_init(uint64_t *full, uint64_t *empty, int stages, int readers)
{
    ring_barriers_arrive<CLUSTER>(full, empty, stages, readers);
    ring_barriers_wait<CLUSTER>();
}

/* Programmatic dependent launch: a kernel launched after this one with
 * cudaLaunchAttributeProgrammaticStreamSerialization may start once every
 * block of this one has said so (or ended), and must grid_dependency_wait
 * before it touches what this one writes: its launch is then ready when
 * this one ends, not begun. */
__device__ __forceinline__ void grid_dependents_launch()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;\n" ::: "memory");
#endif
}

/* Wait until the kernel before this one in the stream has ended and its
 * writes are visible (a no-op where it was not launched as a dependent). */
__device__ __forceinline__ void grid_dependency_wait()
{
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;\n" ::: "memory");
#endif
}

/* The same for a 3D tensor map: the box at element coordinates (inner,
 * middle, outer), e.g. (column, row, head) of a [heads][rows][columns]
 * tensor, so that a box crossing the end of one head's rows reads zeros,
 * not the next head. */
__device__ __forceinline__ void tma_load_3d(uint32_t dst, const void *tensor_map, int inner, int middle, int outer,
                                            uint64_t *barrier)
{
#if __CUDA_ARCH__ >= 900
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, "
                 "%4}], [%5];\n" ::"r"(dst),
                 "l"(tensor_map), "r"(inner), "r"(middle), "r"(outer), "r"(smem_address(barrier))
                 : "memory");
#endif
}

/* ---- sm_90a: warpgroup MMA and register reallocation ---------------------- */

/* The dynamic shared memory base rounded up to 1024 bytes: the 128-byte
 * swizzle repeats every 8 rows of 128 bytes, and TMA and wgmma both assume
 * a tile starts at that period. */
__device__ __forceinline__ uint8_t *aligned_1024(uint8_t *p)
{
    return reinterpret_cast<uint8_t *>((reinterpret_cast<uintptr_t>(p) + 1023) & ~(uintptr_t)1023);
}

/* A wgmma operand in shared memory: a tile of rows of 64 BF16 (128 bytes),
 * K contiguous, as TMA writes it with the 128-byte swizzle (16-byte chunk c
 * of row r stored at chunk c ^ (r % 8); the tile 1024-byte aligned). Bits:
 * start address / 16 (0-13), leading byte offset / 16 (16-29: unused for
 * swizzled K-major, 1 by convention), stride byte offset / 16 (32-45: 1024,
 * from one group of 8 rows to the next), swizzle mode (62-63: 1 = 128 B).
 * A k-step of 16 elements starts 32 bytes further: the swizzle is applied
 * to the address the hardware forms, so the start moves as if unswizzled. */
__device__ __forceinline__ uint64_t wgmma_descriptor_sw128(uint32_t address)
{
    return (uint64_t)((address & 0x3FFFF) >> 4) | (1ull << 16) | ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}

/* A descriptor of wgmma_descriptor_sw128's form for the rows `bytes`
 * further on (a multiple of 16: a k-step's 32 bytes, a ring stage). Shared
 * addresses are below 2^18, so the start field never carries out of its 14
 * bits: one add on the low word, where forming a descriptor from its
 * address takes a mask, a shift and an or, for every operand of every
 * wgmma (hgemm's wgmma_k_tile says what that cost). */
__device__ __forceinline__ uint64_t wgmma_descriptor_advance(uint64_t descriptor, uint32_t bytes)
{
    return (descriptor & ~0xFFFFFFFFull) | (uint32_t)((uint32_t)descriptor + (bytes >> 4));
}

/* A wgmma B operand stored N-major (N contiguous: V in P V, keys along K)
 * as TMA writes it with the 128-byte swizzle: panels of 64 N-elements (128
 * bytes) by the K rows, each row one 128-byte line. Stride byte offset
 * (32-45): 1024, from one group of 8 K rows to the next; leading byte
 * offset (16-29): panel_bytes, from one 64-wide panel of N to the next
 * (used when N > 64). Used with imm-trans-b = 1. A k-step of 16 rows
 * starts 16 x 128 = 2048 bytes further. */
__device__ __forceinline__ uint64_t wgmma_descriptor_sw128_n_major(uint32_t address, uint32_t panel_bytes)
{
    return (uint64_t)((address & 0x3FFFF) >> 4) | ((uint64_t)((panel_bytes >> 4) & 0x3FFF) << 16) |
           ((uint64_t)(1024 >> 4) << 32) | (1ull << 62);
}

/* Order this warpgroup's earlier register writes (the accumulators) before
 * the wgmma instructions that follow read them. */
__device__ __forceinline__ void wgmma_fence()
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}

/* Close the group of wgmma instructions issued since the last commit. */
__device__ __forceinline__ void wgmma_commit()
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}

/* Wait until at most PENDING committed groups are unfinished: their shared
 * memory may then be overwritten, their accumulators read. */
template <int PENDING>
__device__ __forceinline__ void wgmma_wait()
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
#endif
}

/* Registers a thread of this warpgroup may use from here on: the producer
 * gives back what the consumers take. The kernel needs a register cap at
 * entry (__launch_bounds__(threads, 1)) for this to apply. */
template <int REGISTERS>
__device__ __forceinline__ void setmaxnreg_increase()
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(REGISTERS));
#endif
}

template <int REGISTERS>
__device__ __forceinline__ void setmaxnreg_decrease()
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(REGISTERS));
#endif
}

/* The accumulator of a wgmma m64nN: warp w of the warpgroup holds rows
 * 16 w + lane / 4 (registers 4j, 4j + 1) and + 8 (4j + 2, 4j + 3), columns
 * 8j + 2 (lane % 4) and + 1, for j < N / 8: mma.sync's layout repeated
 * along N. Inline asm has no loops, so its operand lists are spelled out
 * once, four registers at a time, and every width takes the first N / 2:
 * WGMMA_REGS_r names registers %2 to %(r + 1) (the two descriptors come
 * first, as %0 and %1), WGMMA_ACC_r binds them to d[0] to d[r - 1]. */
#define WGMMA_REGS_4 "%2, %3, %4, %5"
#define WGMMA_REGS_8 WGMMA_REGS_4 ", " "%6, %7, %8, %9"
#define WGMMA_REGS_12 WGMMA_REGS_8 ", " "%10, %11, %12, %13"
#define WGMMA_REGS_16 WGMMA_REGS_12 ", " "%14, %15, %16, %17"
#define WGMMA_REGS_20 WGMMA_REGS_16 ", " "%18, %19, %20, %21"
#define WGMMA_REGS_24 WGMMA_REGS_20 ", " "%22, %23, %24, %25"
#define WGMMA_REGS_28 WGMMA_REGS_24 ", " "%26, %27, %28, %29"
#define WGMMA_REGS_32 WGMMA_REGS_28 ", " "%30, %31, %32, %33"
#define WGMMA_REGS_36 WGMMA_REGS_32 ", " "%34, %35, %36, %37"
#define WGMMA_REGS_40 WGMMA_REGS_36 ", " "%38, %39, %40, %41"
#define WGMMA_REGS_44 WGMMA_REGS_40 ", " "%42, %43, %44, %45"
#define WGMMA_REGS_48 WGMMA_REGS_44 ", " "%46, %47, %48, %49"
#define WGMMA_REGS_52 WGMMA_REGS_48 ", " "%50, %51, %52, %53"
#define WGMMA_REGS_56 WGMMA_REGS_52 ", " "%54, %55, %56, %57"
#define WGMMA_REGS_60 WGMMA_REGS_56 ", " "%58, %59, %60, %61"
#define WGMMA_REGS_64 WGMMA_REGS_60 ", " "%62, %63, %64, %65"
#define WGMMA_REGS_68 WGMMA_REGS_64 ", " "%66, %67, %68, %69"
#define WGMMA_REGS_72 WGMMA_REGS_68 ", " "%70, %71, %72, %73"
#define WGMMA_REGS_76 WGMMA_REGS_72 ", " "%74, %75, %76, %77"
#define WGMMA_REGS_80 WGMMA_REGS_76 ", " "%78, %79, %80, %81"
#define WGMMA_REGS_84 WGMMA_REGS_80 ", " "%82, %83, %84, %85"
#define WGMMA_REGS_88 WGMMA_REGS_84 ", " "%86, %87, %88, %89"
#define WGMMA_REGS_92 WGMMA_REGS_88 ", " "%90, %91, %92, %93"
#define WGMMA_REGS_96 WGMMA_REGS_92 ", " "%94, %95, %96, %97"
#define WGMMA_REGS_100 WGMMA_REGS_96 ", " "%98, %99, %100, %101"
#define WGMMA_REGS_104 WGMMA_REGS_100 ", " "%102, %103, %104, %105"
#define WGMMA_REGS_108 WGMMA_REGS_104 ", " "%106, %107, %108, %109"
#define WGMMA_REGS_112 WGMMA_REGS_108 ", " "%110, %111, %112, %113"
#define WGMMA_REGS_116 WGMMA_REGS_112 ", " "%114, %115, %116, %117"
#define WGMMA_REGS_120 WGMMA_REGS_116 ", " "%118, %119, %120, %121"
#define WGMMA_REGS_124 WGMMA_REGS_120 ", " "%122, %123, %124, %125"
#define WGMMA_REGS_128 WGMMA_REGS_124 ", " "%126, %127, %128, %129"
#define WGMMA_ACC_4 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
#define WGMMA_ACC_8 WGMMA_ACC_4, "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
#define WGMMA_ACC_12 WGMMA_ACC_8, "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])
#define WGMMA_ACC_16 WGMMA_ACC_12, "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
#define WGMMA_ACC_20 WGMMA_ACC_16, "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19])
#define WGMMA_ACC_24 WGMMA_ACC_20, "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23])
#define WGMMA_ACC_28 WGMMA_ACC_24, "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27])
#define WGMMA_ACC_32 WGMMA_ACC_28, "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
#define WGMMA_ACC_36 WGMMA_ACC_32, "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35])
#define WGMMA_ACC_40 WGMMA_ACC_36, "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
#define WGMMA_ACC_44 WGMMA_ACC_40, "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43])
#define WGMMA_ACC_48 WGMMA_ACC_44, "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
#define WGMMA_ACC_52 WGMMA_ACC_48, "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51])
#define WGMMA_ACC_56 WGMMA_ACC_52, "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
#define WGMMA_ACC_60 WGMMA_ACC_56, "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59])
#define WGMMA_ACC_64 WGMMA_ACC_60, "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
#define WGMMA_ACC_68 WGMMA_ACC_64, "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67])
#define WGMMA_ACC_72 WGMMA_ACC_68, "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71])
#define WGMMA_ACC_76 WGMMA_ACC_72, "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75])
#define WGMMA_ACC_80 WGMMA_ACC_76, "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79])
#define WGMMA_ACC_84 WGMMA_ACC_80, "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83])
#define WGMMA_ACC_88 WGMMA_ACC_84, "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87])
#define WGMMA_ACC_92 WGMMA_ACC_88, "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91])
#define WGMMA_ACC_96 WGMMA_ACC_92, "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95])
#define WGMMA_ACC_100 WGMMA_ACC_96, "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99])
#define WGMMA_ACC_104 WGMMA_ACC_100, "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103])
#define WGMMA_ACC_108 WGMMA_ACC_104, "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107])
#define WGMMA_ACC_112 WGMMA_ACC_108, "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111])
#define WGMMA_ACC_116 WGMMA_ACC_112, "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115])
#define WGMMA_ACC_120 WGMMA_ACC_116, "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119])
#define WGMMA_ACC_124 WGMMA_ACC_120, "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123])
#define WGMMA_ACC_128 WGMMA_ACC_124, "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])

/* D (64 x N, FP32, N / 2 = R registers a thread) += A (64 x 16) * B (N x
 * 16)^T, both operands read from shared memory through their descriptors:
 * wgmma_m64n<N>k16_bf16; with OVERWRITE (scale-d 0), D = A * B^T, D's old
 * values ignored, so that no instruction need zero the accumulators. The
 * descriptors are passed in and out ("+l") only so that they number first;
 * the instruction leaves them as they are. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define WGMMA_SS_BF16_ASM(N, R, SCALE_D)                                                                        \
    asm volatile("wgmma.mma_async.sync.aligned.m64n" #N "k16.f32.bf16.bf16 {" WGMMA_REGS_##R "}, %0, %1, " #SCALE_D \
                 ", 1, 1, 0, 0;\n"                                                                              \
                 : "+l"(a_desc), "+l"(b_desc), WGMMA_ACC_##R)
#else
#define WGMMA_SS_BF16_ASM(N, R, SCALE_D)
#endif
/* wgmma_ss_bf16<N>: the same wrapper for a width given as a template
 * parameter; a width without its WGMMA_SS_BF16 line fails to compile. */
template <int N, bool OVERWRITE = false>
__device__ __forceinline__ void wgmma_ss_bf16(float (&d)[N / 2], uint64_t a_desc, uint64_t b_desc)
{
    static_assert(N < 0, "a wgmma width without its WGMMA_SS_BF16 line below");
}
#define WGMMA_SS_BF16(N, R)                                                                                     \
    __device__ __forceinline__ void wgmma_m64n##N##k16_bf16(float(&d)[R], uint64_t a_desc, uint64_t b_desc)   \
    {                                                                                                           \
        WGMMA_SS_BF16_ASM(N, R, 1);                                                                             \
    }                                                                                                           \
    template <>                                                                                                 \
    __device__ __forceinline__ void wgmma_ss_bf16<N, false>(float(&d)[R], uint64_t a_desc, uint64_t b_desc)   \
    {                                                                                                           \
        wgmma_m64n##N##k16_bf16(d, a_desc, b_desc);                                                             \
    }                                                                                                           \
    template <>                                                                                                 \
    __device__ __forceinline__ void wgmma_ss_bf16<N, true>(float(&d)[R], uint64_t a_desc, uint64_t b_desc)    \
    {                                                                                                           \
        WGMMA_SS_BF16_ASM(N, R, 0);                                                                             \
    }

WGMMA_SS_BF16(64, 32) WGMMA_SS_BF16(72, 36) WGMMA_SS_BF16(80, 40) WGMMA_SS_BF16(88, 44) WGMMA_SS_BF16(96, 48) WGMMA_SS_BF16(104, 52) WGMMA_SS_BF16(112, 56)
WGMMA_SS_BF16(120, 60) WGMMA_SS_BF16(128, 64) WGMMA_SS_BF16(136, 68) WGMMA_SS_BF16(144, 72) WGMMA_SS_BF16(152, 76)
WGMMA_SS_BF16(160, 80) WGMMA_SS_BF16(176, 88) WGMMA_SS_BF16(192, 96)
WGMMA_SS_BF16(208, 104) WGMMA_SS_BF16(224, 112) WGMMA_SS_BF16(240, 120) WGMMA_SS_BF16(256, 128)

/* D (64 x 64, FP32, 32 registers a thread) += A (64 x 16, BF16, from
 * registers: per warp the mma.sync m16n8k16 A fragment of its 16 rows) *
 * B (16 x 64) read N-major from shared memory (wgmma_descriptor_sw128_n_major). */
__device__ __forceinline__ void wgmma_m64n64k16_bf16_rs_n_major(float (&d)[32], const uint32_t (&a)[4], uint64_t b_desc)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31}, "
                 "{%32, %33, %34, %35}, %36, 1, 1, 1, 1;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
#endif
}

/* D (64 x 128, FP32, 64 registers a thread) += A (64 x 16, BF16, from
 * registers: per warp the mma.sync m16n8k16 A fragment of its 16 rows) *
 * B (16 x 128) read N-major from shared memory (wgmma_descriptor_sw128_n_major). */
__device__ __forceinline__ void wgmma_m64n128k16_bf16_rs_n_major(float (&d)[64], const uint32_t (&a)[4], uint64_t b_desc)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "{%64, %65, %66, %67}, %68, 1, 1, 1, 1;\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc));
#endif
}

/* TF32 with A from registers: D (64 x N, FP32) = A (64 x 8) * B (8 x N)
 * + D where `accumulate`, else without D (a fresh sum). A's registers are,
 * per warp w, rows 16 w + lane / 4 (a[0], a[2]) and + 8 (a[1], a[3]), k
 * lane % 4 (a[0], a[1]) and + 4 (a[2], a[3]): mma.sync m16n8k8's TF32 A
 * fragment. B is read from shared memory K-major (wgmma_descriptor_sw128:
 * rows of 32 floats, one 128-byte line); a k-step of 8 starts 32 bytes
 * further. TF32 has no transpose bit: both operands must be K-major, which
 * is why the sgemm rungs put their B (N-contiguous) in A's place through
 * registers. The tensor core reads only the top 19 bits of each 32-bit
 * value (FP32 truncated to TF32). */
__device__ __forceinline__ void wgmma_m64n128k8_tf32_rs(float (&d)[64], const uint32_t (&a)[4], uint64_t b_desc,
                                                          int accumulate)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %69, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, "
                 "{%64, %65, %66, %67}, %68, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc), "r"(accumulate));
#endif
}

__device__ __forceinline__ void wgmma_m64n256k8_tf32_rs(float (&d)[128], const uint32_t (&a)[4], uint64_t b_desc,
                                                          int accumulate)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    asm volatile("{\n .reg .pred p;\n setp.ne.b32 p, %133, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 "
                 "{%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, %112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127}, "
                 "{%128, %129, %130, %131}, %132, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]), "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(b_desc), "r"(accumulate));
#endif
}

#endif
