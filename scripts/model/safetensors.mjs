// The safetensors format in JavaScript (cpp/core/lm/safetensors.hpp reads it in the core): a writer of
// float32 tensors, and a GPT-2-shaped checkpoint of random weights from a seed, with the names and
// layout of Hugging Face's files (cpp/core/lm/gpt2.hpp lists them), for tests that need a model
// without downloading one.

// safetensors is little-endian: a Float32Array's own bytes are the file's on such a machine.
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The bytes of a safetensors file: `tensors` is [[name, shape, Float32Array | Int8Array], …] in
 * order; an Int8Array is written as I8, anything else as F32, or as BF16 with `bf16` (each
 * float's upper 16 bits, as checkpoints saved in bfloat16 hold them). The project's one writer of
 * the format: the Python scripts write through it (scripts/model/safetensors_file.py). */
export function writeSafetensors(tensors, metadata = null, { bf16 = false } = {}) {
  const width = (values) => (values instanceof Int8Array ? 1 : bf16 ? 2 : 4);
  const entries = tensors.map(([name, shape, values]) => [name, values instanceof Int8Array ? 'I8' : bf16 ? 'BF16' : 'F32', shape, values.length * width(values)]);
  const { head, size } = headerOf(entries, metadata);
  const out = new Uint8Array(size);
  out.set(head);
  const view = new DataView(out.buffer);
  let at = head.length;
  for (const [, , values] of tensors) {
    if (values instanceof Int8Array) out.set(new Uint8Array(values.buffer, values.byteOffset, values.length), at);
    else if (bf16) for (let i = 0; i < values.length; i++) view.setUint16(at + 2 * i, bf16Bits(values[i]), true);
    else if (LITTLE_ENDIAN && values instanceof Float32Array) out.set(new Uint8Array(values.buffer, values.byteOffset, values.length * 4), at);
    else for (let i = 0; i < values.length; i++) view.setFloat32(at + 4 * i, values[i], true);
    at += values.length * width(values);
  }
  return out;
}

/** A file's first bytes, its 8-byte length and JSON header (padded with spaces to 8 bytes), for
 * `entries` [[name, dtype, shape, bytes], …] in order; `size` is what the whole file will be. */
function headerOf(entries, metadata) {
  const header = {};
  if (metadata) header.__metadata__ = metadata;
  let offset = 0;
  for (const [name, dtype, shape, bytes] of entries) {
    header[name] = { dtype, shape, data_offsets: [offset, offset + bytes] };
    offset += bytes;
  }
  const json = new TextEncoder().encode(JSON.stringify(header));
  const padded = Math.ceil(json.length / 8) * 8; // in bytes: the tensors then start 8-aligned
  const head = new Uint8Array(8 + padded).fill(0x20, 8 + json.length);
  new DataView(head.buffer).setBigUint64(0, BigInt(padded), true);
  head.set(json, 8);
  return { head, size: head.length + offset };
}

const f32 = new Float32Array(1), f32Bits = new Uint32Array(f32.buffer);
/** A float32's upper 16 bits: bfloat16 by truncation, which widens back exactly to `bf16Value`. */
export function bf16Bits(x) {
  f32[0] = x;
  return f32Bits[0] >>> 16;
}
export function bf16Value(x) {
  f32Bits[0] = bf16Bits(x) << 16;
  return f32[0];
}

/** The header of a safetensors file: { tensors: {name: {dtype, shape, data_offsets}}, metadata, dataStart }. */
export function readSafetensorsHeader(bytes) {
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  const metadata = header.__metadata__ ?? {};
  delete header.__metadata__;
  return { tensors: header, metadata, dataStart: 8 + n };
}

/** Every matrix of `tensors` as 8-bit integers with one scale a row (max |row| / 127), the form
 * the page's own model ships in (cpp/core/lm/safetensors.hpp): [name, shape, Int8Array] and
 * [name + '.scale', [rows], Float32Array]. Vectors stay float32. */
export function quantizeRows(tensors) {
  return tensors.flatMap(([name, shape, values]) => {
    if (shape.length !== 2) return [[name, shape, values]];
    const [rows, cols] = shape, q = new Int8Array(values.length), scale = new Float32Array(rows);
    for (let r = 0; r < rows; r++) {
      let max = 0;
      for (let c = 0; c < cols; c++) max = Math.max(max, Math.abs(values[r * cols + c]));
      scale[r] = max / 127;
      for (let c = 0; c < cols; c++) q[r * cols + c] = scale[r] ? Math.round(values[r * cols + c] / scale[r]) : 0;
    }
    return [[name, shape, q], [name + '.scale', [rows], scale]];
  });
}

/** A seeded generator of normal numbers (mulberry32, then Box-Muller). */
export function normals(seed) {
  let s = seed >>> 0;
  const uniform = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  // Box–Muller gives two independent normals from two uniforms: the second is kept for the next call.
  let spare = NaN;
  return () => {
    if (!Number.isNaN(spare)) {
      const x = spare;
      spare = NaN;
      return x;
    }
    const r = Math.sqrt(-2 * Math.log(1 - uniform())), a = 2 * Math.PI * uniform();
    spare = r * Math.sin(a);
    return r * Math.cos(a);
  };
}

/** A GPT-2 checkpoint of random weights: { vocab, context, width, layers, heads, tied, prefix, seed }.
 * Weights are drawn as GPT-2 is initialised (σ = 0.02), LayerNorm gains near 1 and biases near 0,
 * so activations stay in the range a trained model's do. The head count goes in the metadata;
 * `bf16` writes the weights as bfloat16, `bf16Values` the same rounded values as float32;
 * `int8` writes the matrices as the page's own model does (quantizeRows). */
export function randomGpt2({ vocab, context, width, layers, heads, tied = true, prefix = '', seed = 1, metadata = true, int8 = false, bf16 = false, bf16Values = false }) {
  const next = normals(seed);
  const fill = (n, sigma, mean = 0) => {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = mean + sigma * next();
    return out;
  };
  const C = width, tensors = [];
  const add = (name, shape, sigma, mean = 0) => tensors.push([prefix + name, shape, fill(shape.reduce((a, b) => a * b, 1), sigma, mean)]);
  add('wte.weight', [vocab, C], 0.1);
  add('wpe.weight', [context, C], 0.05);
  for (let l = 0; l < layers; l++) {
    const h = `h.${l}.`;
    add(h + 'ln_1.weight', [C], 0.1, 1);
    add(h + 'ln_1.bias', [C], 0.02);
    // Wide enough, σ = 0.2 would make every score tens of units and every weight one-hot, so σ
    // shrinks as 1/√C past a width of 64: the scores keep the spread they have at 64.
    add(h + 'attn.c_attn.weight', [C, 3 * C], 0.2 * Math.min(1, Math.sqrt(64 / C)));
    add(h + 'attn.c_attn.bias', [3 * C], 0.02);
    add(h + 'attn.c_proj.weight', [C, C], 0.02);
    add(h + 'attn.c_proj.bias', [C], 0.02);
    add(h + 'ln_2.weight', [C], 0.1, 1);
    add(h + 'ln_2.bias', [C], 0.02);
    add(h + 'mlp.c_fc.weight', [C, 4 * C], 0.02);
    add(h + 'mlp.c_fc.bias', [4 * C], 0.02);
    add(h + 'mlp.c_proj.weight', [4 * C, C], 0.02);
    add(h + 'mlp.c_proj.bias', [C], 0.02);
  }
  add('ln_f.weight', [C], 0.1, 1);
  add('ln_f.bias', [C], 0.02);
  if (!tied) tensors.push(['lm_head.weight', [vocab, C], fill(vocab * C, 0.1)]);
  // bf16: the weights rounded to bfloat16 and written so; bf16Values: the same values as F32.
  if (bf16 || bf16Values) for (const t of tensors) t[2] = t[2].map(bf16Value);
  return writeSafetensors(int8 ? quantizeRows(tensors) : tensors, metadata ? { n_head: String(heads) } : null, { bf16 });
}

/** The header alone of a float32 GPT-2 checkpoint of this shape, with the size its whole file would
 * have: for tests of what is known before a large file's weights are read (none are written). */
export function gpt2Header({ vocab, context, width: C, layers }) {
  const entries = [];
  const add = (name, shape) => entries.push([name, 'F32', shape, shape.reduce((a, b) => a * b, 1) * 4]);
  add('wte.weight', [vocab, C]);
  add('wpe.weight', [context, C]);
  const block = [['ln_1.weight', [C]], ['ln_1.bias', [C]], ['attn.c_attn.weight', [C, 3 * C]], ['attn.c_attn.bias', [3 * C]],
    ['attn.c_proj.weight', [C, C]], ['attn.c_proj.bias', [C]], ['ln_2.weight', [C]], ['ln_2.bias', [C]],
    ['mlp.c_fc.weight', [C, 4 * C]], ['mlp.c_fc.bias', [4 * C]], ['mlp.c_proj.weight', [4 * C, C]], ['mlp.c_proj.bias', [C]]];
  for (let l = 0; l < layers; l++) for (const [n, shape] of block) add(`h.${l}.${n}`, shape);
  add('ln_f.weight', [C]);
  add('ln_f.bias', [C]);
  const { head, size } = headerOf(entries, null);
  return { bytes: head, size };
}

/**
 * A Llama-family checkpoint of random weights as Hugging Face's LlamaForCausalLM, Qwen2ForCausalLM
 * and Qwen3ForCausalLM save it (cpp/core/lm/llama.hpp lists the names), and the config.json that
 * says what its shapes do not: `heads` query heads sharing `kvHeads` key/value heads of `headDim`
 * numbers (width / heads unless given), Qwen2's q/k/v biases (`qkvBias`), Qwen3's per-head q and k
 * norms (`qkNorm`), RoPE's θ and Llama 3's scaling (`ropeScaling`). Returns { file, config }.
 */
export function randomLlama({ vocab, context, width, layers, heads, kvHeads = heads, headDim = 0, mlp = 2 * width,
  tied = true, prefix = 'model.', seed = 1, qkvBias = false, qkNorm = false, ropeTheta = 10000, ropeScaling = null,
  eps = 1e-6, modelType = 'llama', bf16 = false }) {
  const next = normals(seed);
  const C = width, d = headDim || width / heads, tensors = [];
  const add = (name, shape, sigma, mean = 0, at = prefix) => {
    const n = shape.reduce((a, b) => a * b, 1), values = new Float32Array(n);
    for (let i = 0; i < n; i++) values[i] = mean + sigma * next();
    tensors.push([at + name, shape, values]);
  };
  add('embed_tokens.weight', [vocab, C], 0.5);
  // σ of a projection ~ 1/√(its inputs), so that scores spread over a few units at any width.
  const s = (inputs) => 1 / Math.sqrt(inputs);
  for (let l = 0; l < layers; l++) {
    const p = `layers.${l}.`;
    add(p + 'input_layernorm.weight', [C], 0.1, 1);
    add(p + 'self_attn.q_proj.weight', [heads * d, C], 1.5 * s(C));
    add(p + 'self_attn.k_proj.weight', [kvHeads * d, C], 1.5 * s(C));
    add(p + 'self_attn.v_proj.weight', [kvHeads * d, C], s(C));
    if (qkvBias) {
      add(p + 'self_attn.q_proj.bias', [heads * d], 0.1);
      add(p + 'self_attn.k_proj.bias', [kvHeads * d], 0.1);
      add(p + 'self_attn.v_proj.bias', [kvHeads * d], 0.1);
    }
    if (qkNorm) {
      add(p + 'self_attn.q_norm.weight', [d], 0.1, 1);
      add(p + 'self_attn.k_norm.weight', [d], 0.1, 1);
    }
    add(p + 'self_attn.o_proj.weight', [C, heads * d], s(heads * d));
    add(p + 'post_attention_layernorm.weight', [C], 0.1, 1);
    add(p + 'mlp.gate_proj.weight', [mlp, C], s(C));
    add(p + 'mlp.up_proj.weight', [mlp, C], s(C));
    add(p + 'mlp.down_proj.weight', [C, mlp], s(mlp));
  }
  add('norm.weight', [C], 0.1, 1);
  if (!tied) add('lm_head.weight', [vocab, C], 0.5, 0, '');
  if (bf16) for (const t of tensors) t[2] = t[2].map(bf16Value);
  const config = {
    architectures: [{ llama: 'LlamaForCausalLM', qwen2: 'Qwen2ForCausalLM', qwen3: 'Qwen3ForCausalLM', mistral: 'MistralForCausalLM' }[modelType]],
    model_type: modelType, hidden_act: 'silu', hidden_size: C, intermediate_size: mlp, num_hidden_layers: layers,
    num_attention_heads: heads, num_key_value_heads: kvHeads, max_position_embeddings: context, vocab_size: vocab,
    rms_norm_eps: eps, rope_theta: ropeTheta, rope_scaling: ropeScaling, tie_word_embeddings: tied,
    ...(headDim ? { head_dim: headDim } : {}),
  };
  return { file: writeSafetensors(tensors, null, { bf16 }), config };
}
