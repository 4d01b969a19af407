// scenarios.js — guided one-click states. Each sets a few controls (URL keys; the rest go back
// to the defaults) and explains in two or three sentences what the chart then shows. The texts
// describe the model; the numbers on the page come from the model when the state loads.

export const SCENARIOS = [
  {
    id: 'fa3-beats-tiled',
    title: 'Why FA3 beats the tiled DRAM bound',
    state: { seq: 8192, batch: 4, heads: 16, 'head-dim': 128, hw: 'h100-sxm', kernel: 'fa3', roofs: 'l2,exp', levels: true },
    text: [
      'The tiled model counts every K/V re-read: 34.6 GB for 2.2 TFLOP, ≈ 64 FLOP/byte, left of the H100’s ridge — memory-bound at ≈ 213 TFLOP/s if all of it came from DRAM. Yet FA3 runs this problem at over 600 TFLOP/s. The re-reads come from L2, not DRAM: the K/V that the 132 CTAs in flight share is ≈ 12.6 MB, well inside the 50 MB L2, so DRAM carries each K/V row once and the DRAM bytes equal the compulsory 537 MB (see the hollow tiled mark on top of the compulsory one, and "Bytes per memory level" in the worked calculation).',
      'The L2 mark sits at the same ≈ 64 FLOP/byte but against the 9.7 TB/s L2 roof (dashed purple), which reaches ≈ 616 TFLOP/s there. So the limit is on the compute side: the predicted star lands near 630 TFLOP/s, just under the dash-dot MMA + exp roof. Look at the ledger: after the MMA itself, the biggest term is exp — one exponential per score on units 16× slower than the tensor cores, serialised with the matmuls.',
    ],
  },
  {
    id: 'decode-packed-vs-per-head',
    title: 'Decode: packed GQA vs per-head K/V',
    state: { phase: 'decode', 'kv-len': 32768, heads: 32, 'kv-heads': 8, 'head-dim': 128, hw: 'h100-sxm', kernel: 'flashinfer', levels: true },
    text: [
      'FlashInfer packs the 4 query heads that share a KV head (H/Hkv = 32/8) into one tile, so every K/V row crosses L2 once: L2 and DRAM both carry ≈ 135 MB, and the step is memory-bound at ≈ 65 µs. Now pick the generic profile (K/V per head): each query head streams its own copy, so the L2 bytes grow by the group size, ×4 to ≈ 537 MB.',
      'Whether DRAM grows too depends on L2: the 8 KV heads’ K/V at L = 32768 is 134 MB, more than the 50 MB L2, so only part of the repeats hit and DRAM rises to ≈ 380 MB. Set L to 8192: the working set fits, the repeats all hit, and DRAM is the same for both — only the L2 bytes differ. Packing is what turns GQA’s smaller cache into less traffic at every level.',
    ],
  },
  {
    id: 'decode-gqa',
    title: 'Decode is memory-bound; GQA moves it right',
    state: { phase: 'decode', 'kv-len': 4096, heads: 32, 'kv-heads': 8, 'head-dim': 128, hw: 'h100-sxm' },
    text: [
      'Decode scores one new query row per sequence against the whole KV cache, so almost all traffic is reading K and V (2·b_kv·B·Hkv·L·d bytes) while the work is only 4·B·H·L·d FLOPs: the intensity is about 2·(H/Hkv)/b_kv, here ≈ 4 FLOP/byte, far left of the ridge (≈ 295 on an H100).',
      'Set KV heads to 32 (plain multi-head attention) and the points slide left to ≈ 1 FLOP/byte; 8 KV heads (GQA, 4 query heads per KV head) read 4× fewer K/V bytes for the same FLOPs. Still memory-bound: the time is bytes/β, so only fewer bytes (GQA/MQA, an fp8 KV cache) or more bandwidth help. The tiled point stays at ≈ 1 because that model re-reads K/V for every query head: sharing a KV head across its group is the kernel’s job.',
    ],
  },
  {
    id: 'naive-vs-tiled-16k',
    title: 'Naive vs tiled at N = 16K (the first seed’s example)',
    state: { seq: 16384, heads: 8, 'head-dim': 64, 'block-m': 64, 'block-n': 64, hw: 'a100-sxm4-80gb' },
    text: [
      'Materialised attention writes the 16384 × 16384 score matrix S and the probabilities P to HBM and reads them back: 4.29 GB each per write, ≈ 17.25 GB in all. FlashAttention keeps each S/P tile on chip and moves ≈ 8.62 GB — Q and O once plus K and V re-streamed once per query block.',
      'Both perform the same 549.8 GFLOP, so halving the bytes doubles the intensity; the band between tiled and compulsory is what reusing K/V across query blocks (L2, larger tiles, grouped heads) could still win.',
    ],
  },
  {
    id: 'kv-reloads',
    title: 'How many times tiled attention reads K and V',
    state: { seq: 16384, heads: 8, 'head-dim': 64, 'block-m': 16, 'block-n': 64, hw: 'a100-sxm4-80gb' },
    text: [
      'Each of the ⌈N/Br⌉ query blocks streams all of K and V, so with Br = 16 the tiled model reads K and V 1024 times (see the worked calculation). Doubling Br halves the reloads; a bigger Br needs more SRAM for the Q tile, O accumulator and S tile.',
      'That is FlashAttention’s Θ(N²d²/M) HBM accesses: with M bytes of SRAM the tile holds Br ≈ M/(4d) rows, so reloads shrink as SRAM grows. Try Br = 128 and watch the tiled point move right and the SRAM budget grow; at Br = 16 tiled even moves more bytes than naive (d/Br = 4 > 2, next scenario).',
    ],
  },
  {
    id: 'tiled-more-than-naive',
    title: 'When tiled moves MORE bytes than naive',
    state: { seq: 8192, heads: 16, 'head-dim': 256, 'block-m': 16, 'block-n': 16, hw: 'h100-sxm' },
    text: [
      'Tiled reloads cost 2·b·L·d bytes per query block, i.e. 2·b·N·L·d/Br in all, while naive adds 4·b·N·L for S and P. Tiled is worse when d/Br > 2: here d = 256 and Br = 16, so the tiled point sits LEFT of naive.',
      'Real kernels avoid this corner by choosing Br from d and the SRAM size; raise Br to 128 to see the order flip back.',
    ],
  },
  {
    id: 'double-bandwidth',
    title: 'Doubling bandwidth or peak moves the ridge',
    state: { seq: 8192, heads: 32, 'head-dim': 128, causal: true, hw: 'h100-sxm', bandwidth: '6.7 TB/s' },
    text: [
      'The ridge is I* = π/β. Doubling the H100’s 3.35 TB/s to 6.7 TB/s halves the ridge (≈ 295 → 148 FLOP/byte): memory-bound points get twice as fast, compute-bound ones not at all.',
      'Clear the bandwidth field and type "1978 TFLOP/s" as the peak instead: the ridge doubles, and only points right of the old ridge gain. A kernel’s regime is a property of the pair (kernel, machine).',
    ],
  },
  {
    id: 'units-gb-gib',
    title: 'GB vs GiB, bits vs bytes',
    state: { seq: 4096, heads: 32, 'head-dim': 128, hw: 'h100-sxm', bandwidth: '3350 GiB/s' },
    text: [
      'GB is 10⁹ bytes and GiB 2³⁰ = 1.074 × 10⁹: "3350 GiB/s" is 3.597 TB/s, 7.4 % more than the datasheet’s 3350 GB/s, and the ridge falls by the same factor (295 → 275 FLOP/byte). The worked calculation shows both wherever they differ by more than 2 %.',
      'Bits are an eighth of a byte: type "26.8 Tbit/s" as the bandwidth and it is 3.35 TB/s again. A unit of the wrong kind ("989 TFLOPS" as a bandwidth) is refused with a message and the last good chart stays.',
    ],
  },
  {
    id: 'sram-seed-mistake',
    title: 'The SRAM budget in bytes, not elements',
    state: { seq: 4096, heads: 8, 'head-dim': 64, 'block-m': 64, 'block-n': 64, hw: 'v100-sxm2' },
    text: [
      'The first seed estimated “≈ 20 KB” for Br = Bc = d = 64 by counting elements. In bytes, with fp16 tiles and fp32 scores and accumulator: Q 8 KiB + K, V 16 KiB + S 16 KiB + O 16 KiB + m, l 0.5 KiB = 56.5 KiB — over the 48 KiB every GPU gives a block by default.',
      'The worked calculation lists each term and warns when the tile needs the opt-in limit (96 KB on a V100) or does not fit at all.',
    ],
  },
  {
    id: 'decode-fp8-kv',
    title: 'KV-cache quantisation in decode',
    state: { phase: 'decode', 'kv-len': 32768, heads: 32, 'kv-heads': 8, 'head-dim': 128, 'kv-dtype': 'fp8', hw: 'h200-sxm' },
    text: [
      'An fp8 KV cache halves b_kv, so decode reads half the bytes for the same FLOPs and the intensity doubles to ≈ 8 FLOP/byte. On an H200 at 4.8 TB/s the step time halves — still far below the ridge.',
      'Switch KV dtype back to fp16 to compare; the query and output stay in fp16 either way.',
    ],
  },
];
