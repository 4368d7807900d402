// The language model module: a GPT-2-family model run in WebAssembly by the same core as the
// engine, every number its own (cpp/core/lm/language_model.hpp, cpp/core/lm/head_patterns.hpp).
//   const createAttentionModel = require('./attention-model.js');
//   const mod = await createAttentionModel();
//   const { model } = mod.open(bytesOfModelSafetensors);
//   model.run('The cat sat on the mat').predictions[0];   // { id, text, partial, probability }
// Every method returns { ok: true, … } or { ok: false, error }, and never throws. It loads as the
// trainer does: a classic <script> defines the global createAttentionModel, require() in node gives
// it as module.exports; the types are in the namespace of the same name.

declare function createAttentionModel(): Promise<createAttentionModel.ModelModule>;

declare namespace createAttentionModel {
  type Failure = { ok: false; error: { code: string; message: string; input: string; row: number; col: number } };

  interface ModelConfig {
    vocab: number;
    context: number;
    width: number;
    layers: number;
    heads: number;
    /** The unembedding is the token embedding (no lm_head). */
    tied: boolean;
  }

  interface ModelToken {
    id: number;
    /** The token's text; for a piece of a character (the byte fallback), its bytes as ⟨E4⟩⟨B8⟩. */
    text: string;
    /** Part of a character the tokenizer has no token for. */
    partial: boolean;
  }

  interface ReadToken extends ModelToken {
    /** How surprised the model was by it: −log₂ of the probability it gave it (0 for the first). */
    bits: number;
  }

  interface Prediction extends ModelToken {
    probability: number;
  }

  interface ModelRun {
    ok: true;
    /** <|endoftext|> and every token the model has read, including those extend() added. */
    tokens: ReadToken[];
    /** The text's first tokens left out to fit the context. */
    dropped: number;
    /** The likeliest next tokens after the last one, likeliest first. */
    predictions: Prediction[];
  }

  interface HeadSteps {
    ok: true;
    /** One row per token so far: the head's query, key and value (its slice of the layer's). */
    q: number[][];
    k: number[][];
    v: number[][];
    /** Row i: token i's weights over tokens 0 … i (0 after it). */
    weights: number[][];
  }

  type Pattern = 'previous' | 'first' | 'same' | 'induction';

  interface HeadSurvey {
    ok: true;
    /** The probes: <|endoftext|>, `length` random tokens, the same tokens again; `sequences` of them. */
    length: number;
    sequences: number;
    /** Bits per token the model needs for the first copy, and for the second, which it can copy. */
    lossFirst: number;
    lossSecond: number;
    /** What a blind guess costs, log₂ of the vocabulary: the copies' losses are read against it. */
    lossBlind: number;
    /** The least best score that names a head's pattern (0.3): more than any of 480 heads of random
     * weights scored on this probe. Below it a head has no clear pattern. */
    clearScore: number;
    /** heads[layer][head]: its best pattern, that score, whether it reaches clearScore, and every
     * pattern's score (0 to 1). */
    heads: { best: Pattern; score: number; clear: boolean; scores: Record<Pattern, number> }[][];
  }

  interface LanguageModel {
    readonly config: ModelConfig;
    /** The id of <|endoftext|>, which every run reads first. */
    readonly bos: number;
    /** The most tokens a run holds (<|endoftext|> among them): the context, or fewer on a model of
     * many heads, so that every head's weights (layers · heads · window² numbers) stay within 32 Mi.
     * A longer text keeps its last tokens (ModelRun.dropped); extend() stops there. */
    readonly window: number;
    /** Reads <|endoftext|> and `text` from an empty cache. */
    run(text: string, options?: { predictions?: number }): ModelRun | Failure;
    /** Reads one more token against the cache (generation): its K and V join the cache. */
    extend(token: number, options?: { predictions?: number }): ModelRun | Failure;
    /** One head's Q, K, V and weights over every token read so far. */
    head(layer: number, head: number): HeadSteps | Failure;
    /** Every head scored for the patterns on repeated random tokens (defaults 32, 8, seed 1). */
    survey(options?: { length?: number; sequences?: number; seed?: number }): HeadSurvey | Failure;
    dispose(): void;
  }

  /** The files that come with a checkpoint, each its text or bytes. The tokenizer is tokenizer.json,
   * or vocab.json with merges.txt, or else the model file's own metadata; config.json gives the head
   * count and is checked against the tensors. */
  interface ModelFiles {
    tokenizer?: string | Uint8Array | ArrayBuffer;
    vocab?: string | Uint8Array | ArrayBuffer;
    merges?: string | Uint8Array | ArrayBuffer;
    config?: string | Uint8Array | ArrayBuffer;
  }

  interface ModelPlan {
    ok: true;
    config: ModelConfig;
    /** Every tensor as float32, as the opened model keeps them. */
    weightBytes: number;
    /** What opening it takes: the file, its weights and room to run. */
    needBytes: number;
    /** What the module's memory can still give (wasm32: 4 GiB in all). */
    freeBytes: number;
  }

  /** A buffer in the module for a model file, filled piece by piece (a large file need not be whole in memory twice). */
  interface ModelBuffer {
    ok: true;
    /** Copies `chunk` to byte `offset` of the file. */
    write(chunk: Uint8Array, offset: number): { ok: true } | Failure;
    open(files?: ModelFiles): { ok: true; model: LanguageModel } | Failure;
    /** Gives the buffer back unopened (nothing happens once it is opened or taken back). */
    release(): void;
  }

  interface ModelModule {
    /** A safetensors file with GPT-2's names (Hugging Face's, "transformer." prefix or not), and its
     * tokenizer and config as separate files, or in the file's metadata as the page's model has them. */
    open(bytes: Uint8Array | ArrayBuffer, files?: ModelFiles): { ok: true; model: LanguageModel } | Failure;
    /** Every check open() makes but the tensors' values, from the file's first bytes (its 8-byte
     * length and header) and its whole size: a model is refused, or its memory known, before it is read. */
    plan(head: Uint8Array | ArrayBuffer, size: number, files?: ModelFiles): ModelPlan | Failure;
    /** How many of a model file's first bytes plan() needs (its 8-byte length and the header that
     * gives), from the file's first bytes (8 suffice); 8 until 8 are given, and 8 when the length
     * alone is refused (plan() then says why). Nothing but the model module reads the file's layout. */
    headSize(first: Uint8Array | ArrayBuffer): number | Failure;
    /** A buffer for a model file of `size` bytes; any other call that reads bytes in (open, plan, run)
     * takes the buffer back. */
    reserve(size: number): ModelBuffer | Failure;
    memoryStats(): { heapBytes: number; allocatedBytes: number; models: number };
    readonly patterns: readonly Pattern[];
  }
}

export = createAttentionModel;
export as namespace createAttentionModel;
