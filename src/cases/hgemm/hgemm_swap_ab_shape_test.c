/* CPU tests of swap_ab's rules (hgemm_swap_ab_shape.h): its width, tiles
 * and slices, its clusters of four, its 64-row tiles across A's rows, and
 * that every shape the rules give has a kernel. No GPU needed. */
#include <stddef.h>

#include "hgemm.h"
#include "harness/testing/test_util.h"

/* swap_ab's width, the least of 64, 128, 256 that holds M; the rows of A
 * it loads; its tiles (at widths 64 and 128, 64 of B's rows where 128-row
 * tiles would give fewer than half the SMs one) and their slices: 64-row
 * tiles are enough where they keep DRAM's bandwidth times its latency of B
 * in flight, 128-row tiles from half the SMs. */
static void test_swap_ab_splits(void)
{
    /* an H100 SXM's 3352 GB/s: 4.19 MB in flight */
#define SPLITS_H100(m, n, k, sms) hgemm_swap_ab_splits(m, n, k, sms, hgemm_stream_bytes(3352))
    EXPECT(hgemm_swap_ab_width(1) == 64 && hgemm_swap_ab_width(64) == 64);
    EXPECT(hgemm_swap_ab_width(65) == 128 && hgemm_swap_ab_width(128) == 128);
    EXPECT(hgemm_swap_ab_width(129) == 256 && hgemm_swap_ab_width(256) == 256);
    EXPECT(hgemm_swap_ab_width(257) == 0);
    EXPECT(hgemm_swap_ab_tile_cols(1, 64) == 1 && hgemm_swap_ab_tile_cols(17, 64) == 17);
    EXPECT(hgemm_swap_ab_tile_cols(64, 64) == 64 && hgemm_swap_ab_tile_cols(65, 128) == 65);
    EXPECT(hgemm_swap_ab_tile_cols(200, 256) == 200 && hgemm_swap_ab_tile_cols(200, 128) == 100);
    EXPECT(hgemm_swap_ab_tile_cols(129, 128) == 65 && hgemm_swap_ab_tile_cols(256, 128) == 128);
    EXPECT(hgemm_swap_ab_tile_cols(201, 128) == 101); /* the second tile's box: one row past A */
    EXPECT(hgemm_swap_ab_tile_width(200, 4096, 132) == 128);  /* 64-row tiles */
    EXPECT(hgemm_swap_ab_tile_width(192, 6144, 132) == 128);  /* 128-row tiles, 48 x 2 */
    EXPECT(hgemm_swap_ab_tile_width(200, 8448, 132) == 128);  /* 66 x 2 */
    EXPECT(hgemm_swap_ab_tile_width(200, 8576, 132) == 128);  /* 67 x 2: past a wave; 45 x 2 of 192 rows */
    EXPECT(hgemm_swap_ab_tile_width(200, 16384, 132) == 256); /* 86 x 2 of 192 rows: past a wave too */
    EXPECT(hgemm_swap_ab_tile_width(100, 8576, 132) == 128 && hgemm_swap_ab_tile_width(17, 64, 132) == 64);
    EXPECT(hgemm_swap_ab_rows(32, 11008, 132) == 128 && hgemm_swap_ab_rows(32, 8448, 132) == 128); /* 86, 66 */
    EXPECT(hgemm_swap_ab_rows(32, 8320, 132) == 64 && hgemm_swap_ab_rows(128, 4096, 132) == 64);  /* 65, 32 */
    EXPECT(hgemm_swap_ab_rows(129, 4096, 132) == 64);  /* 64 tiles by 2 of 65 of A's rows */
    EXPECT(hgemm_swap_ab_rows(250, 5000, 132) == 128); /* 79 x 2 tiles of 64 rows: more than a wave */
    EXPECT(hgemm_swap_ab_rows(64, 8320, 132) == 64);   /* 130 tiles of 64 rows, A's in one */
    EXPECT(hgemm_swap_ab_rows(200, 11008, 132) == 192 && hgemm_swap_ab_rows(200, 8448, 132) == 128); /* 58, 66 x 2 */
    EXPECT(hgemm_swap_ab_rows(200, 16384, 132) == 128 && hgemm_swap_ab_rows(128, 11008, 132) == 128); /* 86 x 2, 86 */
    EXPECT(SPLITS_H100(32, 11008, 4096, 132) == 1);  /* 86 tiles of 128 rows */
    EXPECT(SPLITS_H100(64, 2368, 4096, 132) == 1);   /* width 64: 37 tiles keep 4 MB of B in flight */
    EXPECT(SPLITS_H100(64, 2304, 4096, 132) == 3);   /* 36 do not: 132 / 36 slices */
    EXPECT(SPLITS_H100(128, 3648, 4096, 132) == 1);  /* width 128: 57 tiles */
    EXPECT(SPLITS_H100(128, 3584, 4096, 132) == 2);  /* 56 */
    EXPECT(SPLITS_H100(200, 4096, 4096, 132) == 1);  /* 64 tiles of 64 rows by 2 of 100 of A's rows */
    EXPECT(SPLITS_H100(200, 2048, 8192, 132) == 1);  /* 32 by 2: 64 tiles of 72 KB in flight */
    EXPECT(SPLITS_H100(200, 1536, 8192, 132) == 2);  /* 24 by 2: 48 */
    EXPECT(SPLITS_H100(200, 11008, 4096, 132) == 1); /* 58 x 2 tiles of 192 rows */
    EXPECT(SPLITS_H100(200, 16384, 4096, 132) == 1); /* 128 tiles of 128 rows at width 256 */
    EXPECT(SPLITS_H100(40, 1000, 700, 132) == 2);    /* the test size: 16 tiles, 11 k-tiles */
    EXPECT(SPLITS_H100(16, 300, 129, 132) == 1);     /* 3 k-tiles: nothing to cut */
    EXPECT(SPLITS_H100(200, 136, 4000, 132) == 15);  /* 3 tiles by 2, 63 k-tiles: 15 slices at most */
    /* an H200's 4915 GB/s: 6.1 MB, enough from 54 tiles at width 64 */
    EXPECT(hgemm_swap_ab_splits(64, 3456, 4096, 132, hgemm_stream_bytes(4915)) == 1); /* 54 tiles */
    EXPECT(hgemm_swap_ab_splits(64, 3392, 8192, 132, hgemm_stream_bytes(4915)) == 2); /* 53 */
    EXPECT(hgemm_swap_ab_splits(128, 4096, 14336, 132, hgemm_stream_bytes(4915)) == 2);
#undef SPLITS_H100
    EXPECT(hgemm_split_k_count(256, 256, 65536, 132) == hgemm_split_count(4, 65536, 132, 66));
}

/* swap_ab's clusters of four: a block's share of A's rows, and where the
 * copies' clocks call for them (an H100's 3352 GB/s over 1.98 GHz, 120
 * blocks in clusters of four). */
static void test_swap_ab_cluster(void)
{
    EXPECT(hgemm_cluster_share(77, 4) == 20);   /* 80 of the 96 rows a stage holds: cuBLAS's 64x80 tile */
    EXPECT(hgemm_cluster_share(97, 4) == 25 && hgemm_cluster_share(193, 4) == 49);
    EXPECT(hgemm_cluster_share(128, 4) == 32 && hgemm_cluster_share(256, 2) == 128 && hgemm_cluster_share(80, 2) == 40);
    for (int cols = 1; cols <= 256; ++cols)
        for (int cluster = 1; cluster <= 4; cluster *= 2) {
            int share = hgemm_cluster_share(cols, cluster), width = cols <= 64 ? 64 : cols <= 128 ? 128 : 256;
            EXPECTF(cluster * share >= cols && cluster * (share - 1) < cols && cluster * share <= width,
                    "%d cols in %d: %d", cols, cluster, share);
        }
#define CLUSTER_H100(m, n, k, slots4) \
    hgemm_swap_ab_cluster(m, n, k, hgemm_ld(k), 132, hgemm_stream_bytes(3352.32), slots4, 3352.32 / 1.98)
    EXPECT(CLUSTER_H100(77, 5000, 3000, 120) == 4); /* copies 721 clocks a block, 450 in fours; DRAM 378 */
    EXPECT(CLUSTER_H100(250, 5000, 3000, 120) == 4);
    EXPECT(CLUSTER_H100(64, 4000, 3000, 120) == 4);
    EXPECT(CLUSTER_H100(32, 11000, 3000, 120) == 1);  /* DRAM's 832 clocks outlast the copies' 818 */
    EXPECT(CLUSTER_H100(200, 11008, 4000, 120) == 1); /* 1.5 requests a row: 996 against 846, DRAM 832 */
    EXPECT(CLUSTER_H100(77, 5000, 3072, 120) == 1);   /* rows on the grid */
    EXPECT(CLUSTER_H100(128, 4096, 14336, 120) == 1);
    EXPECT(CLUSTER_H100(77, 5000, 3000, 0) == 1);     /* no cluster of four fits */
    EXPECT(CLUSTER_H100(250, 5000, 3000, 76) == 1);   /* 80 blocks in fours: more than fit */
    EXPECT(CLUSTER_H100(300, 5000, 3000, 120) == 1);  /* not swap_ab's shape */
    /* the GPU test's sizes, one for each tile of swap_ab */
    EXPECT(CLUSTER_H100(31, 200, 493, 120) == 4 && CLUSTER_H100(66, 200, 493, 120) == 4);
    EXPECT(CLUSTER_H100(52, 8537, 66, 120) == 4 && CLUSTER_H100(157, 8537, 66, 120) == 4);
    EXPECT(CLUSTER_H100(129, 12844, 66, 120) == 4 && CLUSTER_H100(100, 8500, 70, 120) == 4);
#undef CLUSTER_H100
}

/* swap_ab's 64-row tiles across A's rows, in clusters of four or two (H100
 * as above; 132 blocks in twos). */
static void test_swap_ab_across(void)
{
    EXPECT(hgemm_swap_ab_across_cluster(7000, 132, 120) == 4);  /* 110 tiles */
    EXPECT(hgemm_swap_ab_across_cluster(7800, 132, 120) == 2);  /* 122 tiles: 124 blocks in twos */
    EXPECT(hgemm_swap_ab_across_cluster(7680, 132, 120) == 4);  /* 120 tiles: fours, just */
    EXPECT(hgemm_swap_ab_across_cluster(8448, 132, 120) == 2);  /* 132 tiles */
    EXPECT(hgemm_swap_ab_across_cluster(8449, 132, 120) == 0);  /* 133 tiles: 134 blocks */
    EXPECT(hgemm_swap_ab_across_cluster(5000, 0, 0) == 0);      /* no cluster fits */
    EXPECT(hgemm_swap_ab_across_cluster(5000, 132, 0) == 2);
#define ACROSS_H100(m, n, k, slots4) \
    hgemm_swap_ab_across(m, n, k, hgemm_ld(k), 132, hgemm_stream_bytes(3352.32), 132, slots4, 3352.32 / 1.98)
    EXPECT(ACROSS_H100(160, 5000, 3000, 120) == 192); /* 104 box rows a block against 148 */
    EXPECT(ACROSS_H100(192, 5000, 3000, 120) == 192 && ACROSS_H100(193, 5000, 3000, 120) == 224);
    EXPECT(ACROSS_H100(200, 5000, 3000, 120) == 224); /* 114 against 153: 0.75 */
    EXPECT(ACROSS_H100(224, 5000, 3000, 120) == 224 && ACROSS_H100(225, 5000, 3000, 120) == 0);
    EXPECT(ACROSS_H100(250, 5000, 3000, 120) == 0);   /* past 224 rows (127 against 160: 0.79, measured level) */
    EXPECT(ACROSS_H100(129, 4096, 4000, 120) == 0);   /* 1.5 requests a row: blocks alone */
    EXPECT(ACROSS_H100(176, 4096, 4000, 120) == 0 && ACROSS_H100(176, 4096, 3000, 120) == 192); /* 1.5; 2.25 */
    EXPECT(ACROSS_H100(200, 8000, 1500, 120) == 0 && ACROSS_H100(200, 8000, 2000, 120) == 224); /* 1.5; 1.75 */
    EXPECT(ACROSS_H100(129, 2500, 3000, 120) == 0);   /* 64-row tiles two across already: 88 rows against 104 */
    EXPECT(ACROSS_H100(77, 5000, 3000, 120) == 0);    /* one tile across already */
    EXPECT(ACROSS_H100(200, 11008, 4000, 120) == 0);  /* 172 tiles: more than fit at once, in twos too */
    EXPECT(ACROSS_H100(250, 5000, 3072, 120) == 0);   /* rows on the grid */
    EXPECT(ACROSS_H100(200, 5000, 3000, 76) == 224);  /* 79 blocks: more than fit in fours, in twos */
    EXPECT(ACROSS_H100(160, 8000, 3000, 120) == 192); /* 125 tiles in twos: 144 box rows a block against 208 */
    EXPECT(ACROSS_H100(130, 7800, 3000, 120) == 192); /* 122 in twos: 129 rows against 193 */
    EXPECT(ACROSS_H100(300, 5000, 3000, 120) == 0);   /* not swap_ab's shape */
    /* the GPU test's sizes */
    EXPECT(ACROSS_H100(160, 4000, 66, 120) == 192 && ACROSS_H100(177, 4999, 493, 120) == 192);
    EXPECT(ACROSS_H100(209, 7001, 403, 120) == 224);
    EXPECT(ACROSS_H100(157, 8537, 66, 120) == 0 && ACROSS_H100(129, 12844, 66, 120) == 0);
#undef ACROSS_H100
    /* 64-row tiles 128 wide in clusters of four: 96 wide where the shares fill no more */
    EXPECT(hgemm_swap_ab_cluster_width(128, 64, 77, 4) == 96);  /* shares of 20 */
    EXPECT(hgemm_swap_ab_cluster_width(128, 64, 65, 4) == 96 && hgemm_swap_ab_cluster_width(128, 64, 96, 4) == 96);
    EXPECT(hgemm_swap_ab_cluster_width(128, 64, 97, 4) == 128); /* shares of 25: 100 rows */
    EXPECT(hgemm_swap_ab_cluster_width(128, 64, 77, 1) == 128); /* no cluster */
    EXPECT(hgemm_swap_ab_cluster_width(128, 128, 77, 4) == 128 && hgemm_swap_ab_cluster_width(64, 64, 40, 4) == 64);
    EXPECT(hgemm_swap_ab_cluster_width(192, 64, 160, 4) == 192); /* across A's rows */
    /* clusters of eight where A's rows take two tiles (128 blocks of eight resident; DRAM counts in neither) */
#define PAIRS_ON(bytes, m, n, k, rows, width, splits, cluster, slots8) \
    hgemm_swap_ab_pairs(m, n, hgemm_ld(k), 132, rows, width, splits, cluster, slots8, (bytes) / 1.98)
#define PAIRS(m, n, k, rows, width, splits, cluster, slots8) \
    PAIRS_ON(3352.32, m, n, k, rows, width, splits, cluster, slots8)
    EXPECT(PAIRS(150, 3000, 3000, 64, 96, 1, 4, 128));    /* 51 box rows against 83: 0.62 */
    EXPECT(PAIRS(250, 5000, 3000, 128, 128, 1, 4, 128));  /* 96 against 160, the multiply 512 clocks */
    EXPECT(!PAIRS(250, 5000, 2000, 128, 128, 1, 4, 128)); /* 1.75 requests a row: 0.80, measured slower */
    EXPECT(!PAIRS(250, 5000, 3000, 128, 128, 1, 4, 64));  /* 80 blocks: more than fit */
    EXPECT(!PAIRS(250, 5000, 3000, 128, 128, 1, 1, 128)); /* not in fours */
    EXPECT(!PAIRS(77, 5000, 3000, 64, 96, 1, 4, 128));    /* one tile across A's rows */
    EXPECT(!PAIRS(250, 5000, 3072, 128, 128, 1, 4, 128)); /* rows on the grid (fours are not taken there) */
    /* the GPU test's sizes */
    EXPECT(PAIRS(201, 2999, 130, 64, 128, 1, 4, 128) && PAIRS(250, 5001, 130, 128, 128, 1, 4, 128));
    EXPECT(PAIRS(150, 2500, 771, 64, 96, 1, 4, 128));
    EXPECT(PAIRS(157, 8537, 66, 192, 128, 1, 4, 128)); /* 116 box rows against 212, the multiply 96 wide: 0.60 */
    EXPECT(!PAIRS(160, 9216, 4000, 192, 128, 1, 4, 128)); /* copies under the multiply, 96 wide: 0.80 */
    /* DRAM's 832 clocks a k-tile (H100) outlast the eights' copies but are no
     * difference between them and the fours: 588 against 1079 */
    EXPECT(PAIRS(150, 11008, 3000, 192, 128, 1, 4, 128));
    EXPECT(PAIRS(250, 7600, 3000, 128, 128, 1, 4, 128));
    /* 64-row tiles at 1.5 requests a row: alone on fast DRAM (an H200's 18.4 bytes a clock an SM), where
     * the blocks alone leave a fifth of the SMs idle (94 blocks; 100; 108 and 114 do not) */
    EXPECT(PAIRS(130, 3000, 4000, 64, 72, 1, 4, 128) && !PAIRS_ON(4800.0, 130, 3000, 4000, 64, 72, 1, 4, 128));
    EXPECT(!PAIRS_ON(4800.0, 150, 3200, 4000, 64, 80, 1, 4, 128));
    EXPECT(PAIRS_ON(4800.0, 145, 3400, 4000, 64, 80, 1, 4, 128));
    EXPECT(PAIRS_ON(4800.0, 135, 3600, 4000, 64, 72, 1, 4, 128));
    EXPECT(PAIRS_ON(4800.0, 185, 3800, 4000, 64, 96, 1, 4, 128));
    EXPECT(PAIRS_ON(4800.0, 150, 3000, 3000, 64, 96, 1, 4, 128)); /* 2.25 requests a row */
#undef PAIRS
#undef PAIRS_ON
    /* 192-row tiles in clusters of eight where 128-row fours do not fit (H100: 120 in fours, 120 in eights) */
#define TALL_H100(m, n, k, cluster) \
    hgemm_swap_ab_tall_pairs(m, n, hgemm_ld(k), 132, 128, 128, 1, cluster, 120, 120, 3352.32 / 1.98)
    EXPECT(TALL_H100(160, 8000, 3000, 1) && TALL_H100(130, 7800, 3000, 1)); /* 128 blocks in fours; 88 in eights */
    EXPECT(!TALL_H100(160, 5000, 3000, 1));  /* the fours fit (80 blocks) */
    EXPECT(!TALL_H100(160, 8000, 3000, 4));  /* not alone */
    EXPECT(!TALL_H100(160, 8000, 3072, 1));  /* rows on the grid */
    EXPECT(!TALL_H100(100, 8000, 3000, 1));  /* one tile across A's rows */
    EXPECT(!TALL_H100(160, 12000, 3000, 1)); /* 63 x 2 tiles of 192 rows: more than fit */
    EXPECT(TALL_H100(250, 8000, 66, 1));     /* the GPU test's size */
    EXPECT(TALL_H100(250, 8000, 3000, 1));   /* 2.25 requests a row: 0.59 of the 128-row tiles alone */
    EXPECT(!TALL_H100(250, 8000, 4000, 1));  /* 1.5: the 192-row multiply the longer, 0.89 */
#undef TALL_H100
    /* two 64-wide tiles across A's rows in place of slices (H100: 132 blocks in twos, 120 in eights) */
    EXPECT(hgemm_swap_ab_halves(100, 3000, hgemm_ld(3000), 64, 128, 2, 132, 120) == 4); /* 96 blocks in eights */
    EXPECT(hgemm_swap_ab_halves(66, 4000, hgemm_ld(3000), 64, 128, 2, 132, 120) == 1);  /* 128 in eights: a pair alone */
    EXPECT(hgemm_swap_ab_halves(66, 4300, hgemm_ld(3000), 64, 128, 2, 132, 120) == 0);  /* 68 tiles: 136 blocks */
    EXPECT(hgemm_swap_ab_halves(100, 3000, hgemm_ld(3000), 64, 128, 1, 132, 120) == 0); /* not in slices */
    EXPECT(hgemm_swap_ab_halves(100, 3072, hgemm_ld(8192), 64, 128, 2, 132, 120) == 0); /* rows on the grid */
    EXPECT(hgemm_swap_ab_halves(64, 3000, hgemm_ld(3000), 64, 64, 2, 132, 120) == 0);   /* one tile 64 wide */
    EXPECT(hgemm_swap_ab_halves(100, 8000, hgemm_ld(3000), 128, 128, 2, 132, 120) == 0); /* 128-row tiles */
    EXPECT(hgemm_swap_ab_halves(100, 3000, hgemm_ld(515), 64, 128, 2, 132, 120) == 4);  /* the GPU test's sizes */
    EXPECT(hgemm_swap_ab_halves(66, 4000, hgemm_ld(515), 64, 128, 2, 132, 120) == 1);
    /* 128-row tiles two across A's rows as wide as their half of A's rows: alone, a pair, eights or not taken */
#define NARROW(dram_gbps, m, n, k, slots2, slots8) \
    hgemm_swap_ab_narrow_two_across(m, n, k, hgemm_ld(k), 132, slots2, slots8, (dram_gbps) / 1.98)
    enum { ALONE = HGEMM_SWAP_ONES, PAIR = HGEMM_SWAP_PAIR, EIGHTS = HGEMM_SWAP_EIGHTS };
    EXPECT(hgemm_eights_blocks(60) == 120 && hgemm_eights_blocks(61) == 128 && hgemm_eights_blocks(1) == 8);
    EXPECT(NARROW(4800.0, 200, 8400, 2000, 132, 120) == PAIR); /* 132 blocks, 1.75 requests, fast DRAM */
    EXPECT(NARROW(4800.0, 200, 8400, 2000, 130, 120) == 0);    /* pairs that do not fit: the rules' tiles */
    EXPECT(NARROW(3352.32, 200, 8400, 2000, 130, 120) == ALONE); /* alone on the H100's DRAM */
    EXPECT(NARROW(4800.0, 200, 8400, 1500, 132, 120) == PAIR);   /* 1.5 requests */
    /* 2.25 and 2.5 requests: eights where their blocks fit at once (96 at 6000 rows, 128 at 8000) */
    EXPECT(NARROW(4800.0, 200, 6000, 3000, 132, 120) == EIGHTS && NARROW(3352.32, 200, 6000, 3000, 132, 120) == EIGHTS);
    EXPECT(NARROW(4800.0, 200, 7000, 2500, 132, 120) == EIGHTS && NARROW(4800.0, 135, 6000, 3000, 132, 120) == EIGHTS);
    EXPECT(NARROW(4800.0, 200, 8000, 3000, 132, 120) == 0 && NARROW(4800.0, 200, 8000, 3000, 132, 128) == EIGHTS);
    EXPECT(NARROW(4800.0, 200, 7680, 3000, 132, 120) == EIGHTS && NARROW(4800.0, 200, 7681, 3000, 132, 120) == 0);
    /* past 64 k-tiles: eights where rows take more than 1.5 requests, a pair at 1.5 on fast DRAM, alone at 1 */
    EXPECT(NARROW(3352.32, 200, 6000, 6000, 132, 120) == EIGHTS && NARROW(4800.0, 140, 6000, 6000, 132, 120) == EIGHTS);
    EXPECT(NARROW(3352.32, 200, 6000, 5000, 132, 120) == EIGHTS); /* 2.25 requests */
    EXPECT(NARROW(3352.32, 200, 6000, 8192, 132, 120) == ALONE && NARROW(4800.0, 200, 6000, 8192, 132, 120) == ALONE);
    EXPECT(NARROW(4800.0, 200, 6000, 12000, 132, 120) == PAIR && NARROW(3352.32, 200, 6000, 12000, 132, 120) == 0);
    EXPECT(NARROW(4800.0, 200, 8448, 12000, 130, 120) == 0); /* 132 blocks in pairs: more than fit */
    EXPECT(NARROW(3352.32, 200, 6000, 4096, 132, 120) == ALONE && NARROW(3352.32, 200, 6000, 4112, 132, 120) == EIGHTS);
    EXPECT(NARROW(3352.32, 160, 8000, 6000, 132, 120) == 0); /* 128 blocks in eights: more than fit */
    /* 104 blocks, 106 */
    EXPECT(NARROW(4800.0, 200, 6656, 4096, 132, 120) == ALONE && NARROW(4800.0, 200, 6657, 4096, 132, 120) == PAIR);
    /* 64 k-tiles */
    EXPECT(NARROW(4800.0, 200, 8000, 4096, 132, 120) == PAIR && NARROW(4800.0, 200, 8000, 4160, 132, 120) == ALONE);
    /* M from 129 to 240 (120 wide) */
    EXPECT(NARROW(3352.32, 129, 8000, 2000, 132, 120) == ALONE && NARROW(3352.32, 128, 8000, 2000, 132, 120) == 0);
    EXPECT(NARROW(3352.32, 240, 8000, 2000, 132, 120) == ALONE && NARROW(3352.32, 241, 8000, 2000, 132, 120) == 0);
    EXPECT(NARROW(3352.32, 129, 6000, 3000, 132, 120) == EIGHTS && NARROW(3352.32, 241, 6000, 3000, 132, 120) == 0);
    /* from past a wave of 64-row tiles to a wave of 128-row ones */
    EXPECT(NARROW(3352.32, 200, 4224, 2000, 132, 120) == 0 && NARROW(3352.32, 200, 4225, 2000, 132, 120) == ALONE);
    EXPECT(NARROW(3352.32, 200, 8448, 2000, 132, 120) == ALONE && NARROW(3352.32, 200, 8449, 2000, 132, 120) == 0);
    EXPECT(NARROW(3352.32, 200, 4224, 3000, 132, 120) == 0 && NARROW(3352.32, 200, 4225, 3000, 132, 120) == EIGHTS);
    /* in place of the tall slices: up to 64 k-tiles; past them 80 wide or less, up to 128 k-tiles */
    EXPECT(NARROW(4800.0, 130, 4608, 4096, 132, 120) == ALONE && NARROW(3352.32, 130, 4608, 4096, 132, 120) == ALONE);
    EXPECT(NARROW(4800.0, 200, 5000, 4096, 132, 120) == ALONE && NARROW(4800.0, 200, 5000, 8192, 132, 120) == 0);
    EXPECT(NARROW(4800.0, 160, 5120, 8192, 132, 120) == ALONE && NARROW(4800.0, 176, 5120, 8192, 132, 120) == 0);
    EXPECT(NARROW(4800.0, 160, 5120, 8256, 132, 120) == 0 && NARROW(3352.32, 200, 5000, 16384, 132, 120) == ALONE);
    EXPECT(NARROW(4800.0, 200, 5000, 8160, 132, 120) == 0);  /* a pair wider than 80 */
    EXPECT(NARROW(4800.0, 150, 6000, 8160, 132, 120) == PAIR); /* past 5632 rows of B the slices do not cut */
    /* the eights in their place up to 224 rows, where the rules before them give 64-row tiles across A's */
    EXPECT(NARROW(4800.0, 224, 5000, 6000, 132, 120) == EIGHTS && NARROW(4800.0, 225, 5000, 6000, 132, 120) == 0);
    EXPECT(NARROW(4800.0, 200, 5000, 10000, 132, 120) == EIGHTS);
    EXPECT(NARROW(3352.32, 240, 5000, 6000, 132, 120) == EIGHTS); /* the H100's DRAM: no slices */
#undef NARROW
    /* all of swap_ab's rules in their order (H100: 120 blocks in fours and in eights) */
#define SHAPE(dram_gbps, m, n, k, r, w, s, c, p)                                                                   \
    do {                                                                                                           \
        hgemm_swap_ab_shape got = hgemm_swap_ab_shape_for(m, n, k, hgemm_ld(k), 132, hgemm_stream_bytes(dram_gbps), \
                                                          132, 120, 120, (dram_gbps) / 1.98);                     \
        EXPECTF(got.rows == (r) && got.width == (w) && got.splits == (s) && got.cluster == (c) && got.pair == (p), \
                "%dx%dx%d: %d rows, %d wide, %d slices, clusters of %d x %d", m, n, k, got.rows, got.width,        \
                got.splits, got.cluster, got.pair);                                                                \
    } while (0)
#define SHAPE_H100(...) SHAPE(3352.32, __VA_ARGS__)
    SHAPE_H100(150, 3000, 3000, 64, 80, 1, 4, 2);   /* two tiles of 75 across A in eights, 80 wide */
    SHAPE_H100(160, 8000, 3000, 64, 192, 1, 2, 1);  /* fours would not fit: one tile across A, in twos */
    SHAPE_H100(200, 8000, 2000, 128, 104, 1, 1, 1); /* two of 100, 104 wide: alone at 1.75 requests on the H100 */
    SHAPE(4800.0, 200, 8000, 2000, 128, 104, 1, 1, 2); /* a pair on the H200: 126 blocks alone past 105 */
    SHAPE(4800.0, 200, 6000, 2000, 128, 104, 1, 1, 1); /* 94 alone */
    SHAPE(4800.0, 200, 8400, 2000, 128, 104, 1, 1, 2); /* 132 blocks in pairs on 132 slots */
    SHAPE_H100(250, 8000, 3000, 192, 128, 1, 4, 2); /* past 224 rows: 192-row tiles in eights */
    SHAPE_H100(160, 5000, 3000, 128, 80, 1, 4, 2);  /* 2.25 requests: two of 80 across A, in eights */
    SHAPE_H100(160, 4000, 3000, 64, 192, 1, 4, 1);  /* a wave of 64-row tiles: one tile across A's rows */
    SHAPE_H100(77, 5000, 3000, 64, 80, 1, 4, 1);    /* fours' shares of 20: 80 wide */
    SHAPE_H100(100, 3000, 3000, 64, 64, 1, 4, 2);   /* two tiles 64 wide in eights, not two slices */
    SHAPE_H100(250, 5000, 2000, 128, 128, 1, 1, 1); /* eights' estimate 0.80: two across A alone, not fours */
    SHAPE_H100(32, 11008, 4096, 128, 64, 1, 1, 1);  /* rows on the grid: alone */
    SHAPE_H100(200, 11008, 4096, 192, 128, 1, 1, 1); /* two tiles of 100 on the grid: alone, 128 wide */
    SHAPE_H100(66, 4000, 3000, 64, 72, 1, 4, 1);    /* 63 tiles: enough whole on the H100; shares of 17 */
    SHAPE(4800.0, 66, 4000, 3000, 64, 64, 1, 1, 2); /* two slices on an H200: a pair alone in their place */
    SHAPE_H100(160, 9216, 4096, 192, 96, 1, 1, 1);  /* two tiles of 80 rows, on the grid: alone, 96 wide */
    SHAPE_H100(192, 6144, 4096, 128, 96, 1, 1, 1);  /* 128-row tiles, two of 96: alone */
    SHAPE_H100(160, 8192, 8192, 128, 80, 1, 1, 1);  /* 128 blocks past 64 k-tiles at 1 request: alone, 80 wide */
    SHAPE_H100(144, 12288, 4096, 192, 96, 1, 1, 1); /* 192-row tiles: 128 blocks */
    SHAPE_H100(160, 16384, 4096, 128, 160, 1, 1, 1); /* past a wave: all of A in one tile, 160 wide */
    SHAPE_H100(256, 16384, 4096, 128, 256, 1, 1, 1); /* 256 wide */
    SHAPE_H100(129, 20000, 4096, 192, 144, 1, 1, 1); /* 157 tiles of 128 rows: 105 of 192, 144 wide */
    SHAPE_H100(240, 20000, 4096, 128, 240, 5, 1, 1); /* A's rows past 192: 128 rows, the last 25 in 5 slices */
    SHAPE_H100(192, 20000, 4096, 192, 192, 1, 1, 1);
    /* 193 to 208 rows: 192-row tiles 208 wide, their two consumers splitting the columns, where the 128-row
     * tiles' last wave would go in 4 slices or fewer */
    SHAPE_H100(199, 23000, 4096, 192, 208, 1, 1, 1); /* 180 tiles of 128 rows, the last 48 in 2: 120 of 192 */
    SHAPE_H100(208, 21000, 4096, 192, 208, 1, 1, 1); /* the last 33 in 4 */
    SHAPE_H100(193, 20000, 4096, 128, 208, 5, 1, 1); /* the last 25 in 5: the 128-row tiles stay */
    SHAPE_H100(200, 18000, 4096, 128, 208, 14, 1, 1); /* the last 9 in 14 */
    SHAPE_H100(208, 16896, 4096, 128, 208, 1, 1, 1); /* 132 of 128 rows: one wave */
    SHAPE_H100(200, 21000, 520, 192, 208, 1, 1, 1);  /* 9 k-tiles: the last 33 in 2 at most */
    /* past a wave of 128-row tiles, 65 to 128 of A's rows, rows off the grid: 64-row tiles in fours, whole */
    SHAPE_H100(120, 36000, 3000, 64, 128, 1, 4, 1);
    SHAPE_H100(87, 36792, 2040, 64, 96, 1, 4, 1);
    SHAPE_H100(110, 17000, 3000, 64, 128, 1, 4, 1);  /* 133 tiles of 128 rows */
    SHAPE_H100(110, 16896, 3000, 128, 128, 1, 1, 1); /* 132: one wave, the rules before */
    SHAPE_H100(100, 34000, 2048, 128, 128, 8, 1, 1); /* on the grid: the last wave in slices */
    SHAPE_H100(64, 40000, 3000, 128, 64, 2, 1, 1);   /* 64 rows of A: as before */
    SHAPE_H100(130, 36000, 3000, 128, 144, 7, 1, 1); /* 130: as before */
    SHAPE_H100(209, 20000, 4096, 128, 224, 5, 1, 1); /* past 208 rows: 128 rows, the last wave in slices */
    SHAPE_H100(200, 26000, 4096, 128, 208, 1, 1, 1); /* 136 tiles of 192 rows: past a wave too */
    SHAPE_H100(256, 11008, 4096, 192, 128, 1, 1, 1); /* 192-row tiles 128 wide: alone */
    SHAPE_H100(256, 8192, 8192, 128, 128, 1, 1, 1); /* 128-row tiles 128 wide: alone */
    SHAPE_H100(32, 4096, 4096, 64, 64, 1, 1, 1);    /* 32 rows: 64 wide */
    SHAPE_H100(100, 4096, 4096, 64, 104, 1, 1, 1);  /* 64-row tiles alone, 100 rows: 104 wide */
    SHAPE_H100(200, 8192, 8192, 128, 104, 1, 1, 1); /* two tiles of 100: 104 wide */
    SHAPE_H100(220, 11008, 4096, 192, 128, 1, 1, 1); /* 116 blocks, tiles of 110 */
    SHAPE_H100(130, 4608, 4096, 128, 72, 1, 1, 1); /* not one across in slices: the H100's DRAM */
    SHAPE_H100(160, 9216, 4000, 192, 96, 1, 1, 1);  /* off the grid: alone, not in fours */
    SHAPE_H100(178, 8453, 66, 192, 96, 1, 4, 2);    /* 192-row eights, 89 rows a tile */
    SHAPE(4800.0, 150, 11008, 3000, 192, 96, 1, 4, 2); /* 192-row eights, their multiply 96 wide */
    SHAPE_H100(150, 11008, 3000, 192, 96, 1, 4, 2);     /* the same on the H100, whose DRAM is no difference */
    SHAPE_H100(200, 8482, 106, 192, 128, 1, 1, 1);  /* two tiles of 100: 128 wide, alone */
    /* past a wave, tiles alone and one across A's rows cut the last wave's tiles into slices of K */
    EXPECT(hgemm_swap_ab_tail_splits(200, 20480, 4096, 132, 128, 208, 1, 1, 1) == 4); /* 160 tiles: 28 in 4 */
    EXPECT(hgemm_swap_ab_tail_splits(240, 20000, 4096, 132, 128, 240, 1, 1, 1) == 5); /* 157: 25 in 5 */
    EXPECT(hgemm_swap_ab_tail_splits(200, 26000, 4096, 132, 128, 208, 1, 1, 1) == 1); /* 204: 72 too many */
    EXPECT(hgemm_swap_ab_tail_splits(160, 16384, 4096, 132, 128, 160, 1, 1, 1) == 1); /* 128: one wave */
    EXPECT(hgemm_swap_ab_tail_splits(64, 33792, 4096, 132, 128, 64, 1, 1, 1) == 1);   /* 264: two whole waves */
    EXPECT(hgemm_swap_ab_tail_splits(64, 35000, 4096, 132, 128, 64, 1, 1, 1) == 13);  /* 274: 10 in 13 */
    EXPECT(hgemm_swap_ab_tail_splits(64, 35000, 512, 132, 128, 64, 1, 1, 1) == 2);    /* 8 k-tiles: 2 of 4 */
    EXPECT(hgemm_swap_ab_tail_splits(64, 35000, 256, 132, 128, 64, 1, 1, 1) == 1);    /* 4 k-tiles: too short */
    EXPECT(hgemm_swap_ab_tail_splits(200, 20480, 4096, 132, 128, 104, 1, 1, 2) == 1); /* two across A's rows */
    EXPECT(hgemm_swap_ab_tail_splits(200, 20480, 4096, 132, 128, 208, 1, 4, 1) == 1); /* in fours */
    EXPECT(hgemm_swap_ab_tail_splits(200, 20480, 4096, 132, 128, 208, 2, 1, 1) == 1); /* already in slices */
    {
        hgemm_swap_ab_shape tail = hgemm_swap_ab_shape_for(200, 34000, 4096, hgemm_ld(4096), 132,
                                                           hgemm_stream_bytes(4800.0), 132, 120, 120, 4800.0 / 1.98);
        EXPECTF(tail.rows == 128 && tail.width == 208 && tail.splits == 16 && tail.whole == 264,
                "200x34000x4096: %d rows, %d wide, %d slices past %d whole", tail.rows, tail.width, tail.splits,
                tail.whole);
        hgemm_swap_ab_shape plain = hgemm_swap_ab_shape_for(200, 11008, 4096, hgemm_ld(4096), 132,
                                                            hgemm_stream_bytes(4800.0), 132, 120, 120, 4800.0 / 1.98);
        EXPECT(plain.whole == 0);
    }
    /* two 128-row tiles across A's rows leaving a third of the SMs idle: one across, K in slices (132 SMs),
     * where DRAM brings 16 bytes a clock an SM or more (an H200's 18.4, not an H100's 12.8) */
#define H200_BYTES (4800.0 / 1.98)
#define H100_BYTES (3352.32 / 1.98)
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 1, 1, H200_BYTES) == 3); /* 40 tiles, 80 blocks: 120 */
    EXPECT(hgemm_swap_ab_tall_slices(131, 4700, 3136, 132, 128, 96, 1, 1, 1, H200_BYTES) == 3);  /* the GPU test's: 16 a slice */
    EXPECT(hgemm_swap_ab_tall_slices(131, 4700, 3008, 132, 128, 96, 1, 1, 1, H200_BYTES) == 1);  /* 47 k-tiles: 15 a slice */
    EXPECT(hgemm_swap_ab_tall_slices(150, 5000, 1024, 132, 128, 96, 1, 1, 1, H200_BYTES) == 1);  /* 5 a slice */
    EXPECT(hgemm_swap_ab_tall_slices(200, 8192, 4096, 132, 128, 128, 1, 1, 1, H200_BYTES) == 1); /* 128 blocks already */
    EXPECT(hgemm_swap_ab_tall_slices(100, 5120, 4096, 132, 128, 128, 1, 1, 1, H200_BYTES) == 1); /* one tile across */
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 4, 1, H200_BYTES) == 1); /* in fours */
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 1, 1, H100_BYTES) == 1); /* the H100's DRAM */
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 1, 1, 16.0 * 132) == 3);  /* the least it takes */
    EXPECT(hgemm_swap_ab_tall_slices(200, 5120, 4096, 132, 128, 128, 1, 1, 1, 15.9 * 132) == 1);
#undef H200_BYTES
#undef H100_BYTES
    SHAPE(4800.0, 250, 5120, 4096, 128, 256, 3, 1, 1); /* past 240 rows: the narrow tiles 128 wide */
    SHAPE(4800.0, 250, 4700, 3136, 128, 256, 3, 1, 1);
    SHAPE(4800.0, 200, 5120, 4096, 128, 104, 1, 1, 1); /* the narrow tiles alone in their place */
    SHAPE(4800.0, 131, 4700, 3136, 128, 72, 1, 1, 1);
    SHAPE(4800.0, 200, 5000, 8192, 128, 208, 3, 1, 1); /* past 64 k-tiles, 104 wide: the slices keep it */
    SHAPE(4800.0, 240, 5000, 6000, 128, 240, 3, 1, 1); /* the eights past 224 rows: the slices keep it */
    /* a tile's slices summed in their cluster: 2 or 4 slices, tiles alone, all clusters resident at once */
    EXPECT(hgemm_swap_ab_sums_in_cluster(100, 3072, 64, 128, 2, 1, 1, 0, 132, 120) == 1);  /* 96 blocks in twos */
    EXPECT(hgemm_swap_ab_sums_in_cluster(23, 1901, 64, 64, 4, 1, 1, 0, 132, 120) == 1);    /* 120 in fours */
    EXPECT(hgemm_swap_ab_sums_in_cluster(64, 2048, 64, 64, 4, 1, 1, 0, 132, 120) == 0);    /* 128: two rounds */
    EXPECT(hgemm_swap_ab_sums_in_cluster(200, 5120, 128, 208, 3, 1, 1, 0, 132, 120) == 0); /* threes */
    EXPECT(hgemm_swap_ab_sums_in_cluster(64, 20000, 128, 64, 4, 1, 1, 132, 132, 120) == 0); /* a tail */
    EXPECT(hgemm_swap_ab_sums_in_cluster(31, 200, 64, 64, 2, 4, 1, 0, 132, 120) == 0);     /* in fours already */
    {
        hgemm_swap_ab_shape summed = hgemm_swap_ab_shape_for(100, 3072, 8192, hgemm_ld(8192), 132,
                                                             hgemm_stream_bytes(4800.0), 132, 120, 120, 4800.0 / 1.98);
        EXPECT(summed.splits == 2 && summed.sum_in_cluster == 1);
    }
    /* two tiles across A's rows alone, where the fours would take them and the eights do not */
    EXPECT(hgemm_swap_ab_two_across_alone(200, 104, 4, 1) == 1); /* 64-row tiles of 100 rows */
    EXPECT(hgemm_swap_ab_two_across_alone(256, 128, 4, 1) == 1);
    EXPECT(hgemm_swap_ab_two_across_alone(150, 80, 4, 2) == 4);  /* in eights */
    EXPECT(hgemm_swap_ab_two_across_alone(100, 104, 4, 1) == 4); /* one tile holds A's rows */
    EXPECT(hgemm_swap_ab_two_across_alone(128, 128, 4, 1) == 4);
    EXPECT(hgemm_swap_ab_two_across_alone(200, 224, 4, 1) == 4); /* across A's rows in one tile */
    EXPECT(hgemm_swap_ab_two_across_alone(200, 104, 2, 1) == 2 && hgemm_swap_ab_two_across_alone(200, 104, 1, 1) == 1);
    /* 64-row tiles whole in K as wide as the rows of A a stage holds past 64, in steps of 8 */
    EXPECT(hgemm_swap_ab_short_width(96, 64, 77, 1, 4) == 80);  /* fours: shares of 20 */
    EXPECT(hgemm_swap_ab_short_width(128, 64, 100, 1, 1) == 104 && hgemm_swap_ab_short_width(128, 64, 65, 1, 1) == 72);
    EXPECT(hgemm_swap_ab_short_width(128, 64, 125, 1, 4) == 128); /* shares of 32 */
    EXPECT(hgemm_swap_ab_short_width(128, 64, 66, 1, 4) == 72);   /* shares of 17 */
    EXPECT(hgemm_swap_ab_short_width(64, 64, 39, 1, 4) == 64);    /* 64 rows or fewer: as it was */
    EXPECT(hgemm_swap_ab_short_width(128, 64, 64, 1, 1) == 128);
    EXPECT(hgemm_swap_ab_short_width(128, 64, 100, 2, 1) == 128); /* in slices */
    EXPECT(hgemm_swap_ab_short_width(128, 128, 100, 1, 1) == 128 && hgemm_swap_ab_short_width(192, 64, 150, 1, 4) == 192);
    /* 96 wide: 192-row tiles in any cluster, 128-row tiles alone, two tiles of 96 rows at most */
    EXPECT(hgemm_swap_ab_multiply_width(128, 192, 80, 4) == 96 && hgemm_swap_ab_multiply_width(128, 192, 96, 1) == 96);
    EXPECT(hgemm_swap_ab_multiply_width(128, 192, 97, 1) == 128 && hgemm_swap_ab_multiply_width(128, 128, 80, 4) == 128);
    EXPECT(hgemm_swap_ab_multiply_width(128, 128, 80, 1) == 96 && hgemm_swap_ab_multiply_width(128, 64, 80, 1) == 128);
    EXPECT(hgemm_swap_ab_multiply_width(256, 128, 129, 1) == 256 && hgemm_swap_ab_multiply_width(64, 192, 50, 1) == 64);
#undef SHAPE_H100
#undef SHAPE
}

/* Every shape swap_ab's rules give has a kernel: M 1 to 256 against N and
 * K on and off the 128-byte grid, on an H100 and an H200 (132 SMs), a
 * card where no cluster fits, and one of 114 SMs; and the shapes without
 * one are named. */
static void test_swap_ab_launchable(void)
{
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 96, 1, 4, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 96, 1, 1, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 64, 1, 1, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 224, 1, 2, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 256, 2, 4, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 72, 1, 1, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 100, 1, 1, 1}));  /* not a step of 8 */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 56, 1, 1, 1}));   /* under 64 */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 72, 1, 1, 2}));   /* a pair alone of 64-row tiles: 64 wide */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 128, 1, 1, 2})); /* 128-row tiles: no pair alone */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 128, 1, 1, 2})); /* 192-row tiles: no pair alone */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 96, 1, 4, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 96, 1, 1, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 96, 1, 1, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 96, 1, 1, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 128, 1, 4, 2}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 96, 1, 4, 1})); /* 192-row tiles hold A's rows in two: no fours */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 112, 1, 4, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 80, 1, 1, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 120, 1, 1, 2}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 72, 1, 4, 2}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 80, 1, 4, 1})); /* 72 to 120 wide: alone, a pair, eights */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 136, 1, 1, 1})); /* from 144 in steps of 16 */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 80, 1, 1, 2}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 128, 1, 3, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 256, 1, 4, 2}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){64, 192, 1, 1, 1})); /* across A's rows: in clusters */
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 64, 1, 1, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){128, 128, 1, 2, 1}));
    /* 192-row tiles 208 wide, two consumers splitting the columns: alone, never summed in a cluster */
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 208, 1, 1, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 208, 1, 4, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 224, 1, 1, 1}));
    EXPECT(!hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 208, 2, 1, 1, 0, 1}));
    EXPECT(hgemm_swap_ab_launchable((hgemm_swap_ab_shape){192, 192, 2, 1, 1, 0, 1}));
    static const struct {
        int sms, slots2, slots4, slots8;
        double dram_gbps;
    } cards[] = {{132, 132, 120, 120, 3352.32}, {132, 132, 120, 120, 4800.0}, {132, 132, 132, 128, 4800.0},
                 {132, 0, 0, 0, 4800.0}, {114, 114, 112, 112, 2039.0}};
    static const int ks[] = {64, 66, 106, 515, 2000, 3000, 3072, 4096, 8192};
    int failures = 0;
    for (size_t c = 0; c < sizeof cards / sizeof cards[0]; ++c)
        for (int m = 1; m <= HGEMM_SWAP_AB_MAX_M; ++m)
            for (int n = 64; n <= 20000; n += n < 4000 ? 97 : 331)
                for (size_t i = 0; i < sizeof ks / sizeof ks[0]; ++i) {
                    int k = ks[i];
                    hgemm_swap_ab_shape s = hgemm_swap_ab_shape_for(
                        m, n, k, hgemm_ld(k), cards[c].sms, hgemm_stream_bytes(cards[c].dram_gbps), cards[c].slots2,
                        cards[c].slots4, cards[c].slots8, cards[c].dram_gbps / 1.98);
                    if (!hgemm_swap_ab_launchable(s) && failures++ < 5)
                        EXPECTF(0, "%dx%dx%d on %d SMs: %d rows, %d wide, clusters of %d x %d", m, n, k,
                                cards[c].sms, s.rows, s.width, s.cluster, s.pair);
                }
    EXPECTF(failures == 0, "%d shapes without a kernel", failures);
}

int main(void)
{
    test_swap_ab_splits();
    test_swap_ab_cluster();
    test_swap_ab_across();
    test_swap_ab_launchable();
    return test_result("hgemm_swap_ab_shape_test");
}
