// scenarios.js — the guided tours. Each tour has a starting state (URL keys; the rest go back to
// the defaults), a one-sentence `intro` and a few short steps. A step may change some controls
// (`set`, on top of the previous steps), says what to look at (`look`: marks on the roofline —
// compulsory, tiled, naive, predicted —, the ridge, a row of the worked calculation by its
// data-row id) and explains it. The texts hold no computed number: `{testid}` is replaced by the
// text the page shows for that number, `{testid|unit}` by core's formatting of its value in that
// base unit. The last step asks a question the student can check, about a state the text does
// not give (`question: { text, at: URL keys changed on top of the step, answer: the number's
// testid, key: its evaluate() result key, unit }`), so its answer is never printed above it. A question that is one of core's exercise kinds says so with
// `pose: { kind, model }` (kind: flops, bytes, intensity, ridge, time, regime; model: the traffic
// model asked about): core poses it for the step's state and judges the answer, naming the slip.
// Any other says why not with `reveal`: the answer is read and shown beside the page's value.

export const SCENARIOS = [
  {
    id: 'naive-vs-tiled-16k',
    title: 'Naive vs tiled: the same work, fewer bytes',
    intro: 'What FlashAttention saves: the same FLOPs as plain attention with about half the bytes, and what a longer sequence changes.',
    state: { seq: 16384, heads: 8, 'head-dim': 64, 'block-m': 64, 'block-n': 64, hw: 'a100-sxm4-80gb' },
    steps: [
      {
        title: 'Plain attention writes the scores out',
        look: { marks: ['naive'], row: 'traffic' },
        text: 'Plain (“naive”) attention writes the whole N × N matrix of scores S and of probabilities P to the GPU’s memory and reads both back. For 16384 tokens and 8 heads that is {models-naive-bytes|B} — the diamond ◆ on the roofline.',
      },
      {
        title: 'FlashAttention keeps the tiles on chip',
        look: { marks: ['tiled'], row: 'traffic' },
        text: 'FlashAttention (“tiled”, the triangle ▲) keeps each tile of S and P on chip. It reads Q and writes O once and streams K and V once per block of query rows: {models-tiled-bytes|B} in all.',
      },
      {
        title: 'Same FLOPs, so fewer bytes means more intensity',
        look: { marks: ['naive', 'tiled'], ridge: true, row: 'intensity' },
        text: 'Both do the same {flops|FLOP} of matrix work, so fewer bytes mean a higher intensity: {models-naive-intensity_flop_per_byte} for naive, {models-tiled-intensity_flop_per_byte} for tiled. Both sit left of the ridge ({ridge_flop_per_byte}): they wait on memory, and their time is bytes ÷ bandwidth.',
      },
      {
        title: 'A longer sequence: only the lower bound moves',
        set: { seq: 32768 },
        look: { marks: ['compulsory'] },
        text: 'Double the sequence to 32768 tokens. Tiled and naive hardly move: their bytes grow with N², like the FLOPs. The compulsory mark ● (every tensor moved once) moves right to {models-compulsory-intensity_flop_per_byte}: the longer the sequence, the more reuse could win.',
        question: { text: 'Twice again, N = 65536: how many bytes does the compulsory model move?', at: { seq: 65536 }, answer: 'models-compulsory-bytes', key: 'models.compulsory.bytes', unit: 'B', pose: { kind: 'bytes', model: 'compulsory' } },
      },
    ],
  },
  {
    id: 'kv-reloads',
    title: 'How many times tiled attention reads K and V',
    intro: 'The tiled kernel reads K and V once per block of query rows: bigger blocks mean fewer passes, paid for in on-chip memory.',
    state: { seq: 16384, heads: 8, 'head-dim': 64, 'block-m': 16, 'block-n': 64, hw: 'a100-sxm4-80gb' },
    steps: [
      {
        title: 'One pass over K and V per query block',
        look: { marks: ['tiled'], row: 'traffic' },
        text: 'The tiled kernel cuts the queries into blocks of Br rows, and every block streams all of K and V. With Br = 16 there are {calc-models-tiled-query_blocks} blocks, so K and V are read {models-tiled-kv_reload_factor} times over: {models-tiled-bytes|B}.',
      },
      {
        title: 'Bigger query blocks, fewer passes',
        set: { 'block-m': 64 },
        look: { marks: ['tiled'], row: 'traffic' },
        text: 'Br = 64: a quarter as many blocks, K and V read {models-tiled-kv_reload_factor} times, {models-tiled-bytes|B}. The triangle moves right; the faint one is where it was.',
      },
      {
        title: 'The price: on-chip memory',
        set: { 'block-m': 128 },
        look: { marks: ['tiled'], row: 'sram' },
        text: 'Br = 128: {models-tiled-kv_reload_factor} passes, {models-tiled-bytes|B}. The price is on-chip memory: the Q tile, the O accumulator and the score tile grow with Br, to {sram-total_bytes} per block. This is FlashAttention’s Θ(N²d²/M) traffic: more SRAM M, bigger tiles, fewer passes.',
        question: { text: 'One step further than the tour goes: at Br = 256, how many query blocks are there per (batch, head)? (A count, with or without its noun: “blocks”.)', at: { 'block-m': 256 }, answer: 'calc-models-tiled-query_blocks', key: 'models.tiled.query_blocks', unit: '', reveal: 'a block count' },
      },
    ],
  },
  {
    id: 'tiled-more-than-naive',
    title: 'When tiled moves more bytes than naive',
    intro: 'Tiling does not always save bytes: with small query blocks and a large head dimension it moves more than plain attention.',
    state: { seq: 8192, heads: 16, 'head-dim': 64, 'block-m': 16, 'block-n': 64, hw: 'h100-sxm' },
    steps: [
      {
        title: 'Small query blocks: tiled loses',
        look: { marks: ['tiled', 'naive'], row: 'traffic' },
        text: 'Tiled re-reads K and V once per query block: 2·b·N·L·d/Br bytes. Naive instead writes and reads S and P: 4·b·N·L. So tiled loses when d/Br > 2. With d = 64 and Br = 16, tiled moves {models-tiled-bytes|B} and naive {models-naive-bytes|B}: the triangle sits left of the diamond.',
      },
      {
        title: 'd/Br = 2: break-even',
        set: { 'block-m': 32 },
        look: { marks: ['tiled', 'naive'], row: 'traffic' },
        text: 'Br = 32, so d/Br = 2: tiled {models-tiled-bytes|B}, naive {models-naive-bytes|B}. The two marks lie on top of each other.',
      },
      {
        title: 'Large query blocks: the order flips',
        set: { 'block-m': 128 },
        look: { marks: ['tiled', 'naive'], row: 'intensity' },
        text: 'Br = 128, d/Br = ½: tiled moves {models-tiled-bytes|B}, naive still {models-naive-bytes|B}. The triangle is now right of the diamond, {models-tiled-intensity_flop_per_byte} against {models-naive-intensity_flop_per_byte}. Real kernels pick Br from d and the on-chip memory to stay on this side.',
        question: { text: 'Larger still, Br = 256 (d/Br = ¼): what is the tiled model’s arithmetic intensity?', at: { 'block-m': 256 }, answer: 'models-tiled-intensity_flop_per_byte', key: 'models.tiled.intensity_flop_per_byte', unit: 'FLOP/B', pose: { kind: 'intensity', model: 'tiled' } },
      },
    ],
  },
  {
    id: 'sram-in-bytes',
    title: 'The on-chip memory of a tile, in bytes',
    intro: 'A tile’s on-chip memory counted in bytes, not elements, against what the GPU gives one block.',
    state: { seq: 4096, heads: 8, 'head-dim': 64, 'block-m': 64, 'block-n': 64, hw: 'v100-sxm2' },
    steps: [
      {
        title: 'Count bytes, not elements',
        look: { row: 'sram' },
        text: 'How much on-chip memory does one tile need for Br = Bc = d = 64? Counting 64 × 64 elements per tile is a classic slip: memory holds bytes. Q, K and V take 2 bytes an element, the scores S and the output accumulator O take 4. The worked calculation adds it up: {sram-total_bytes}.',
      },
      {
        title: 'Over the default budget',
        look: { row: 'sram' },
        text: 'A V100 gives a block {preset-smem-default} of shared memory by default and {preset-smem-optin} if the kernel asks for it. {sram-total_bytes} is over the default, so this kernel must opt in.',
      },
      {
        title: 'A smaller tile fits',
        set: { 'block-m': 32, 'block-n': 32 },
        look: { row: 'sram', marks: ['tiled'] },
        text: 'Halve the tile to Br = Bc = 32: {sram-total_bytes}, inside the default. The price shows on the roofline: K and V are read twice as often, {models-tiled-bytes|B} instead of the faint mark’s.',
        question: { text: 'The other way: how many bytes would the score tile S take at Br = Bc = 128?', at: { 'block-m': 128, 'block-n': 128 }, answer: 'calc-sram-s_tile_bytes', key: 'sram.s_tile_bytes', unit: 'B', reveal: 'an on-chip tile size' },
      },
    ],
  },
  {
    id: 'units-gb-gib',
    title: 'GB vs GiB, bits vs bytes',
    intro: 'The same digits in GB/s, GiB/s and Tbit/s are three different bandwidths, and the ridge moves with them.',
    state: { seq: 4096, heads: 32, 'head-dim': 128, hw: 'h100-sxm', bandwidth: '3350 GiB/s' },
    steps: [
      {
        title: 'A GiB is not a GB',
        look: { ridge: true, row: 'ridge' },
        text: 'The bandwidth field says 3350 GiB/s. A GiB is 2³⁰ bytes, not 10⁹, so this is {bandwidth_bytes_per_s} in decimal units, and the ridge sits at {ridge_flop_per_byte}.',
      },
      {
        title: 'The datasheet’s GB/s',
        set: { bandwidth: '3350 GB/s' },
        look: { ridge: true, row: 'ridge' },
        text: 'The H100’s datasheet means 3350 GB/s, that is {bandwidth_bytes_per_s}. Less bandwidth moves the ridge right, to {ridge_flop_per_byte}; the faint line is where the GiB reading put it.',
      },
      {
        title: 'Bits are an eighth of a byte',
        set: { bandwidth: '26.8 Tbit/s' },
        look: { ridge: true, row: 'ridge' },
        text: 'Type 26.8 Tbit/s: a bit is an eighth of a byte, so this is {bandwidth_bytes_per_s}, the datasheet figure again, and the ridge stays at {ridge_flop_per_byte}. A unit of the wrong kind (a FLOP rate as a bandwidth) is refused, and the chart keeps its last good state.',
        question: { text: 'If the field said 24 Tbit/s, where would the ridge point I* = π/β be?', at: { bandwidth: '24 Tbit/s' }, answer: 'ridge_flop_per_byte', key: 'ridge_flop_per_byte', unit: 'FLOP/B', pose: { kind: 'ridge', model: 'compulsory' } },
      },
    ],
  },
  {
    id: 'double-bandwidth',
    title: 'Doubling bandwidth or peak moves the ridge',
    intro: 'The ridge is peak ÷ bandwidth: more bandwidth helps the kernels left of it, more peak those right of it.',
    state: { seq: 8192, heads: 32, 'head-dim': 128, causal: true, hw: 'h100-sxm' },
    steps: [
      {
        title: 'The ridge splits the chart',
        look: { ridge: true, row: 'ridge' },
        text: 'The ridge I* = π/β divides the chart: left of it a kernel waits on memory, right of it on arithmetic. This H100: π = {peak_flops_per_s}, β = {bandwidth_bytes_per_s}, ridge {ridge_flop_per_byte}.',
      },
      {
        title: 'Twice the bandwidth',
        set: { bandwidth: '6.7 TB/s' },
        look: { ridge: true, marks: ['tiled'] },
        text: 'Double the bandwidth to {bandwidth_bytes_per_s}: the ridge halves to {ridge_flop_per_byte}. The tiled mark, left of the ridge, rises to {models-tiled-attainable_flops_per_s}; the roof above the ridge stays where it was.',
      },
      {
        title: 'Twice the peak instead',
        set: { bandwidth: '', peak: '1978 TFLOP/s' },
        look: { ridge: true, marks: ['compulsory'] },
        text: 'Back to {bandwidth_bytes_per_s}, with twice the peak ({peak_flops_per_s}) instead: the ridge doubles to {ridge_flop_per_byte}. Only marks right of the old ridge gain — here the compulsory one, at {models-compulsory-attainable_flops_per_s}. A kernel’s regime belongs to the pair (kernel, machine).',
        question: { text: 'Both doubled — 6.7 TB/s and 1978 TFLOP/s: where is the ridge point?', at: { bandwidth: '6.7 TB/s' }, answer: 'ridge_flop_per_byte', key: 'ridge_flop_per_byte', unit: 'FLOP/B', pose: { kind: 'ridge', model: 'compulsory' } },
      },
    ],
  },
  {
    id: 'decode-gqa',
    title: 'Decode is memory-bound; grouped KV heads move it right',
    intro: 'Generating one token reads the whole KV cache for little arithmetic; sharing KV heads is what moves it right.',
    state: { phase: 'decode', 'kv-len': 4096, heads: 32, 'kv-heads': 8, 'head-dim': 128, hw: 'h100-sxm' },
    steps: [
      {
        title: 'One query row, the whole KV cache',
        look: { marks: ['compulsory'], ridge: true },
        text: 'In decode each sequence adds one query row and reads the whole KV cache: {models-compulsory-bytes|B} moved for {flops|FLOP}. The intensity is about 2·(H/Hkv)/b_kv: {models-compulsory-intensity_flop_per_byte}, far left of the ridge at {ridge_flop_per_byte}.',
      },
      {
        title: 'One KV head per query head',
        set: { 'kv-heads': 32 },
        look: { marks: ['compulsory'], row: 'tensors' },
        text: 'Give every query head its own K and V (32 KV heads, plain multi-head attention): {models-compulsory-bytes|B} for the same FLOPs, and the marks slide left to {models-compulsory-intensity_flop_per_byte}.',
      },
      {
        title: 'One KV head for all',
        set: { 'kv-heads': 1 },
        look: { marks: ['compulsory'], row: 'bound-time' },
        text: 'One KV head shared by all 32 query heads (multi-query attention): {models-compulsory-bytes|B}, {models-compulsory-intensity_flop_per_byte}. Still memory-bound: the time is bytes ÷ bandwidth, {models-compulsory-time_s}. Only fewer bytes or more bandwidth help.',
        question: { text: 'In between, 4 KV heads (8 query heads share each): what is the compulsory model’s bound time?', at: { 'kv-heads': 4 }, answer: 'models-compulsory-time_s', key: 'models.compulsory.time_s', unit: 's', pose: { kind: 'time', model: 'compulsory' } },
      },
    ],
  },
  {
    id: 'decode-fp8-kv',
    title: 'A smaller KV cache in decode: fp8',
    intro: 'Storing the KV cache in 8 bits instead of 16 halves the bytes that each decode step reads, and with them its time; the arithmetic stays the same.',
    state: { phase: 'decode', 'kv-len': 32768, heads: 32, 'kv-heads': 8, 'head-dim': 128, hw: 'h200-sxm' },
    steps: [
      {
        title: 'A 16-bit cache',
        look: { marks: ['compulsory'], row: 'tensors' },
        text: 'Decode on an H200 with 32768 tokens of KV cache in 16 bits: {models-compulsory-bytes|B} per step, {models-compulsory-time_s}, at {models-compulsory-intensity_flop_per_byte}.',
      },
      {
        title: 'An 8-bit cache',
        set: { 'kv-dtype': 'fp8' },
        look: { marks: ['compulsory'], row: 'tensors' },
        text: 'Store K and V in fp8, one byte each: {models-compulsory-bytes|B}. The intensity doubles to {models-compulsory-intensity_flop_per_byte} and the step time halves to {models-compulsory-time_s} — still far left of the ridge ({ridge_flop_per_byte}). Q and O stay 16-bit.',
        question: { text: 'The fp8 cache at twice the context, 65536 tokens: what is the compulsory bound time?', at: { 'kv-len': 65536 }, answer: 'models-compulsory-time_s', key: 'models.compulsory.time_s', unit: 's', pose: { kind: 'time', model: 'compulsory' } },
      },
    ],
  },
  {
    id: 'decode-packed-vs-per-head',
    title: 'Decode: packed GQA vs per-head K/V',
    intro: 'Grouped KV heads only save traffic if the kernel reads each shared K/V row once: packed against per-head reads.',
    state: { phase: 'decode', 'kv-len': 32768, heads: 32, 'kv-heads': 8, 'head-dim': 128, hw: 'h100-sxm', kernel: 'flashinfer', levels: true },
    steps: [
      {
        title: 'Packed: each K/V row crosses L2 once',
        look: { marks: ['predicted'], row: 'memory' },
        text: 'FlashInfer packs the query heads that share a KV head into one tile, so every K/V row crosses L2 once: L2 carries {calc-predicted-levels-l2-bytes|B}, DRAM {calc-predicted-levels-dram-bytes|B}, and the step takes {predicted-time_s} (the star ★).',
      },
      {
        title: 'Per head: one copy per query head',
        set: { 'gqa-pack': 'per-head' },
        look: { marks: ['predicted'], row: 'memory' },
        text: 'Now the same kernel reads K and V per query head (GQA packing: per head): one copy per head of the group, and L2 carries {calc-predicted-levels-l2-bytes|B}. The KV cache is larger than the {preset-l2} L2, yet the query heads of a group are launched side by side and stream the same tiles at nearly the same time (a reuse distance of a few tiles): the repeats hit L2 and DRAM stays at {calc-predicted-levels-dram-bytes|B}. The step takes {predicted-time_s}: per-head reads cost L2 traffic and padded rows, not DRAM.',
      },
      {
        title: 'A cache that fits L2',
        set: { 'kv-len': 8192 },
        look: { marks: ['predicted'], row: 'levels' },
        text: 'At 8192 tokens the working set fits L2: the repeats all hit and DRAM carries {calc-predicted-levels-dram-bytes|B}, about the compulsory {models-compulsory-bytes|B}; only the L2 bytes, {calc-predicted-levels-l2-bytes|B}, still pay for reading per head. Packing turns a smaller cache into less traffic at every level.',
        question: { text: 'Between the last two steps, 16384 tokens: what time does the per-head kernel take?', at: { 'kv-len': 16384 }, answer: 'predicted-time_s', key: 'predicted.time_s', unit: 's', reveal: 'a kernel profile’s prediction' },
      },
    ],
  },
  {
    id: 'fa3-beats-tiled',
    title: 'Why FA3 beats the tiled DRAM bound',
    intro: 'The tiled bound counts every re-read as device memory; a Hopper kernel serves them from L2 and ends up limited by its exponentials.',
    state: { seq: 8192, batch: 4, heads: 16, 'head-dim': 128, hw: 'h100-sxm', kernel: 'fa3' },
    steps: [
      {
        title: 'The tiled bound says memory-bound',
        look: { marks: ['tiled'], ridge: true },
        text: 'The tiled model counts every K/V re-read: {models-tiled-bytes|B} for {flops|FLOP}, an intensity of {models-tiled-intensity_flop_per_byte}, left of the ridge ({ridge_flop_per_byte}). If all of it came from DRAM, the kernel could reach only {models-tiled-attainable_flops_per_s}.',
      },
      {
        title: 'The re-reads come from L2',
        set: { levels: true },
        look: { marks: ['predicted'], row: 'levels' },
        text: 'Yet FA3 is predicted at {predicted-flops_per_s} (the star ★). The CTAs running at once share their K/V, and it fits the {preset-l2} L2: DRAM carries each row once, {calc-models-tiled-levels-dram-bytes|B}, the compulsory bytes (the hollow marks show the bytes per memory level).',
      },
      {
        title: 'The ledger: exponentials',
        set: { roofs: 'l2,exp' },
        look: { marks: ['predicted'], row: 'exp' },
        text: 'So the limit is on the compute side: the star sits just under the dash-dot MMA + exp roof ({calc-roofs-mma_exp_flops_per_s}). The ledger under the chart says why: after the matmuls ({predicted-terms-mma}) the largest term is exp ({predicted-terms-exp}), one exponential per score on units far slower than the tensor cores.',
        question: { text: 'Twice the sequence, N = 16384: what throughput does the FA3 profile predict?', at: { seq: 16384 }, answer: 'predicted-flops_per_s', key: 'predicted.flops_per_s', unit: 'FLOP/s', reveal: 'a kernel profile’s prediction' },
      },
    ],
  },
  {
    id: 'layer-attention-bottleneck',
    title: 'Is attention the bottleneck? The whole layer',
    intro: 'Attention is one operator of a decoder layer: in a decode step the weights usually dominate, and the KV cache takes over only at long contexts. The numbers are in “Whole layer”, under the roofline.',
    state: { model: 'llama-3.1-8b', heads: 32, 'kv-heads': 8, 'head-dim': 128, phase: 'decode', 'kv-len': 4096, batch: 1, dtype: 'bf16', hw: 'h100-sxm' },
    steps: [
      {
        title: 'Short context: the weights',
        look: { marks: ['compulsory'], ridge: true },
        text: 'Generating one token at a 4096-token context, the step reads {layer-weight-bytes} of weights and {layer-kv-bytes} of KV cache: attention is {layer-attention-share} of its {layer-step-time}. Its mark on the roofline (intensity {models-compulsory-intensity_flop_per_byte}) is as memory-bound as the GEMMs around it, which a single sequence runs as matrix-vector products.',
      },
      {
        title: 'Long context: the KV cache',
        set: { 'kv-len': 131072 },
        look: { marks: ['compulsory'] },
        text: 'At 131072 tokens the cache is {layer-kv-bytes}, more than the weights: attention is now {layer-attention-share} of the step. The two cross at L = {layer-crossover-at}.',
      },
      {
        title: 'Batching shares the weights, not the cache',
        set: { batch: 16, 'kv-len': 8192 },
        look: { marks: ['compulsory'] },
        text: 'With 16 sequences at 8192 tokens the weights are read once for all of them, the cache once per sequence: {layer-kv-bytes} of cache against {layer-weight-bytes} of weights, attention {layer-attention-share}. They cross at L = {layer-crossover-at} now.',
      },
      {
        title: 'Without grouped KV heads',
        set: { model: 'llama-2-7b', 'kv-heads': 32, 'kv-len': 4096 },
        look: { marks: ['compulsory'] },
        text: 'A model of the same size with one KV head per query head (no GQA) caches four times the bytes per token: {layer-kv-bytes} at 4096 tokens, attention {layer-attention-share} of the step, and the crossover comes in to L = {layer-crossover-at}.',
      },
      {
        title: 'An fp8 cache moves it back out',
        set: { model: 'llama-3.1-8b', 'kv-heads': 8, 'kv-len': 8192, 'kv-dtype': 'fp8' },
        look: { marks: ['compulsory'] },
        text: 'Grouped KV heads again at 8192 tokens, with K and V stored in 8 bits: the cache is half what it is in bf16, {layer-kv-bytes}, attention falls to {layer-attention-share}, and the crossover moves out to L = {layer-crossover-at}. Multi-head latent attention (DeepSeek) shrinks the cache further with one latent vector per token: the tour “Where MLA decode sits on the roofline” shows where that puts decode.',
        question: { text: 'One layer’s attention at 16384 tokens (16 sequences, the fp8 cache): how many bytes must it move at least (compulsory)?', at: { 'kv-len': 16384 }, answer: 'models-compulsory-bytes', key: 'models.compulsory.bytes', unit: 'B', pose: { kind: 'bytes', model: 'compulsory' } },
      },
    ],
  },
  {
    id: 'mla-decode',
    title: 'Where MLA decode sits on the roofline, and why',
    intro: 'Multi-head latent attention caches one small latent per token and lets every query head read that same latent: decode, memory-bound everywhere else, comes to the ridge, and past it with two query rows.',
    state: { phase: 'decode', 'kv-len': 131072, heads: 128, dtype: 'bf16', hw: 'h200-sxm' },
    steps: [
      {
        title: 'Every head its own K and V: far left',
        look: { marks: ['compulsory'], ridge: true },
        text: 'Decode with 128 query heads, each with its own K and V (plain multi-head attention), at a 131072-token context: every cached byte is used by one head for one multiply-add, so the step moves {models-compulsory-bytes|B} for {flops|FLOP}, an intensity of {models-compulsory-intensity_flop_per_byte}, far left of the ridge ({ridge_flop_per_byte}).',
      },
      {
        title: 'One latent for all 128 heads: at the ridge',
        set: { 'kv-lora-rank': 512, 'rope-dim': 64, kernel: 'flashmla' },
        look: { marks: ['compulsory', 'predicted'], ridge: true, row: 'mla' },
        text: 'Absorbed MLA (DeepSeek’s decode form, in the attention variant group) caches one latent per token, 512 dims plus a 64-dim RoPE part, {calc-kv_token_bytes|B}, and all 128 query heads multiply against that same latent, keys and values alike. The bytes shrink to {models-compulsory-bytes|B} while the FLOPs stay, so the intensity tends to 2·H·N·(d_qk + d_v)/(d_qk·b) = {calc-mla_intensity_limit_flop_per_byte} as L grows; here {models-compulsory-intensity_flop_per_byte}, at the ridge ({ridge_flop_per_byte}). The worked calculation’s MLA row has the numbers; the star ★ is FlashMLA’s predicted step, {predicted-time_s}.',
      },
      {
        title: 'Two query rows (MTP): past the ridge',
        set: { phase: 'prefill', seq: 2 },
        look: { marks: ['compulsory', 'predicted'], ridge: true, row: 'mla' },
        text: 'Multi-token prediction (or speculative decoding) scores 2 new rows against the same cache: twice the FLOPs, {flops|FLOP}, for nearly the same bytes, {models-compulsory-bytes|B}. The page’s decode phase is one row, so this is N = 2 query rows on L = 131072 cached keys (prefill with a cached prefix, L free). The intensity doubles to {models-compulsory-intensity_flop_per_byte}, past the ridge: the step is limited by the tensor cores, and FlashMLA’s star ★ reaches {predicted-flops_per_s}.',
        question: { text: 'Tensor parallelism over 2 GPUs gives each 64 of the query heads (the latent is cached whole on both): at N = 2, what is the compulsory intensity on one GPU?', at: { heads: 64 }, answer: 'models-compulsory-intensity_flop_per_byte', key: 'models.compulsory.intensity_flop_per_byte', unit: 'FLOP/B', pose: { kind: 'intensity', model: 'compulsory' } },
      },
    ],
  },
  {
    id: 'sliding-window',
    title: 'Sliding windows: a 128-key window sets the intensity',
    intro: 'A local layer lets each query see only the last W keys: the FLOPs fall with W, the bytes do not, and a small window moves attention left of the ridge whatever the sequence length.',
    state: { seq: 8192, heads: 64, 'kv-heads': 8, 'head-dim': 64, causal: true, dtype: 'bf16', hw: 'h100-sxm' },
    steps: [
      {
        title: 'Full causal attention: right of the ridge',
        look: { marks: ['compulsory', 'tiled'], ridge: true, row: 'pairs' },
        text: 'A gpt-oss attention shape (64 query heads, 8 KV heads, d = 64), causal, 8192 tokens: every query sees every key before it, {pairs} pairs per head, {flops|FLOP}. The compulsory intensity is {models-compulsory-intensity_flop_per_byte}, far right of the ridge ({ridge_flop_per_byte}).',
      },
      {
        title: 'A 128-key window: the FLOPs fall, the bytes stay',
        set: { window: 128 },
        look: { marks: ['compulsory'], ridge: true, row: 'pairs' },
        text: 'gpt-oss’s local layers let each query see only the last 128 keys (window in the attention variant group; the model selector’s layer kind sets it): {pairs} pairs per head and {flops|FLOP}, yet Q, K, V and O must still each be moved once, {models-compulsory-bytes|B}. The intensity falls to {models-compulsory-intensity_flop_per_byte}, left of the ridge: memory-bound.',
      },
      {
        title: 'Each query block touches a few key tiles',
        look: { marks: ['tiled'], row: 'traffic' },
        text: 'The tiled kernel loads, for each block of query rows, only the key tiles its rows’ windows reach; the edge tiles are loaded whole and partly masked. So K and V are read {models-tiled-kv_reload_factor} times over, {models-tiled-bytes|B}, an intensity of {models-tiled-intensity_flop_per_byte}. With so few tiles per block, what a block costs once (its Q in, its O out, its first tiles in flight before any overlap) is spread over a few tiles instead of the whole cache.',
      },
      {
        title: 'A longer sequence does not move it',
        set: { seq: 65536 },
        look: { marks: ['compulsory', 'tiled'], ridge: true },
        text: 'Eight times the tokens, 65536: the compulsory mark stays at {models-compulsory-intensity_flop_per_byte} and the tiled one at {models-tiled-intensity_flop_per_byte}. With a window, the FLOPs and the bytes both grow with N, so W, not N, sets a local layer’s place on the roofline.',
        question: { text: 'Bigger tiles, Br = Bc = 128: what is the tiled model’s intensity now?', at: { 'block-m': 128, 'block-n': 128 }, answer: 'models-tiled-intensity_flop_per_byte', key: 'models.tiled.intensity_flop_per_byte', unit: 'FLOP/B', pose: { kind: 'intensity', model: 'tiled' } },
      },
    ],
  },
];
