// The language model module: a GPT-2-family model run in WebAssembly by the same core as the
// engine, every number its own (cpp/core/language_model.hpp, cpp/core/head_patterns.hpp).
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
    /** heads[layer][head]: its best pattern, that score, and every pattern's score (0 to 1). */
    heads: { best: Pattern; score: number; scores: Record<Pattern, number> }[][];
  }

  interface LanguageModel {
    readonly config: ModelConfig;
    /** The id of <|endoftext|>, which every run reads first. */
    readonly bos: number;
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

  interface ModelModule {
    /** A safetensors file with GPT-2's names, its tokenizer in the metadata. */
    open(bytes: Uint8Array | ArrayBuffer): { ok: true; model: LanguageModel } | Failure;
    memoryStats(): { heapBytes: number; allocatedBytes: number; models: number };
    readonly patterns: readonly Pattern[];
  }
}

export = createAttentionModel;
export as namespace createAttentionModel;
