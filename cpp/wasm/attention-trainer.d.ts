// Types of dist/attention-trainer.js (cpp/wasm/trainer-api.js and api/trainer.js are the
// implementation; the guide is README.md, "The trainer"). A module of its own, loaded only where a
// model is trained: with a classic <script> (it defines the global createAttentionTrainer) or with
// require() in node (module.exports is createAttentionTrainer). The types are in the namespace of
// the same name.
//
// Every function returns a value, never throws: { ok: true, … } or { ok: false, error }, with the
// main engine's error shape. Every array in a result is JS-owned: nothing needs freeing but the
// trainer itself (dispose()), and nothing changes when the trainer runs again.

declare function createAttentionTrainer(): Promise<createAttentionTrainer.TrainerModule>;

declare namespace createAttentionTrainer {
  /** A row-major float32 matrix: entry (i, j) is data[i * cols + j]. */
  interface Mat {
    rows: number;
    cols: number;
    data: Float32Array;
  }

  type ErrorCode =
    | 'empty_input' // probe() of no tokens
    | 'shape_mismatch' // a saved model's weights do not fit its config
    | 'not_finite' // a step whose loss or gradient overflowed (step().diverged), a model whose numbers overflow
    | 'bad_dimension' // heads that do not divide dModel, a vocab or seqLen smaller than the task's
    | 'too_large' // above a limit (64 tokens of vocab, 32 positions, dModel 64, 4 layers, 4 heads, …)
    | 'parse_error' // a saved model that is damaged, truncated or of another version
    | 'bad_argument' // a wrong type, an unknown option, a value out of range, a disposed trainer
    | 'internal_error'; // a bug, or the wasm memory ran out: create a new module

  interface TrainerError {
    code: ErrorCode;
    /** A complete sentence for the reader. */
    message: string;
    /**
     * The field it concerns: a config field ("seqLen", "heldOut", "learningRate", …), "tokens",
     * "layer", "head", "model" (a saved model), "loss", "trainer".
     */
    input: string;
    /** −1 (kept for the engine's shape). */
    row: number;
    /** For "model": the byte offset of the damaged field; for "tokens": the token's index; else −1. */
    col: number;
  }

  interface Failure {
    ok: false;
    error: TrainerError;
  }

  type TaskName = 'find_match' | 'copy' | 'reverse' | 'sort' | 'induction';
  type MlpName = 'none' | 'relu' | 'gelu';

  /**
   * What create() takes; every field is optional (module.defaults has the defaults). Counts of 0
   * for length, symbols, vocab and seqLen mean the task's own.
   */
  interface TrainerConfig {
    task: TaskName;
    /** Elements / digits / symbols per sequence. */
    length: number;
    /** The task's alphabet (copy, reverse: 10 digits; sort: 3; induction: 16 symbols). */
    symbols: number;
    vocab: number;
    seqLen: number;
    /** 1 … 64, a multiple of heads. */
    dModel: number;
    /** 1 … 4; induction needs 2. */
    layers: number;
    /** 1 … 4. */
    heads: number;
    /** "none" (attention only, the default) or an MLP of 4·dModel with ReLU or GELU. */
    mlp: MlpName;
    /** Pre-LayerNorm before attention, the MLP and the unembedding. */
    layerNorm: boolean;
    /** AdamW: learning rate, β₁, β₂, ε, decoupled weight decay, and the largest gradient norm. */
    learningRate: number;
    beta1: number;
    beta2: number;
    epsilon: number;
    weightDecay: number;
    clip: number;
    /** Sequences per step, 1 … 64. */
    batch: number;
    /** Held-out sequences, never trained on, that accuracy is measured on: 1 … 1024. */
    heldOut: number;
    /** A whole number below 2⁵³: the same seed and config give the same run, step for step. */
    seed: number;
  }

  interface Task {
    name: TaskName;
    /** One line for the reader. */
    description: string;
    /** What each token stands for: tokens[t] is token t's word ("bird", "7", "|", "A", …). */
    tokens: readonly string[];
  }

  /**
   * On the held-out sequences, with the current ablation. Every number is finite: a model whose
   * numbers overflow (weights too large) gives a 'not_finite' Failure, as probe() does.
   */
  interface Evaluation {
    ok: true;
    /** Mean cross-entropy per target position, in nats. */
    loss: number;
    /** Fraction of target positions whose most likely token is right. */
    accuracy: number;
    /** Fraction of sequences with every target right. */
    sequenceAccuracy: number;
    /**
     * headScores[layer][head]: the mean weight the task's pattern gets (0 … 1); for induction,
     * layer 0 is scored on the previous-token pattern and later layers on prefix matching.
     */
    headScores: number[][];
    /** The best head's score (induction: the best prefix-matching head of layers ≥ 1). */
    score: number;
    /** Induction: the best previous-token head of layer 0; otherwise 0. */
    previousTokenScore: number;
  }

  interface StepResult {
    ok: true;
    /** The mean of `losses`: the batches' cross-entropy over this call's steps. */
    loss: number;
    /** Each applied step's batch loss, before its update: always finite. */
    losses: Float64Array;
    /** Updates applied since creation (or load). */
    steps: number;
    /** This call's steps over the time they took, evaluation not included. */
    stepsPerSecond: number;
    /** The held-out evaluation after the steps (see Evaluation). */
    accuracy: number;
    sequenceAccuracy: number;
    heldOutLoss: number;
    headScores: number[][];
    score: number;
    previousTokenScore: number;
    /**
     * Set when a step's loss or gradient was not finite: that step left the weights as they were
     * and the call stopped there (its loss is in the message, not in losses). When the call's
     * first step diverged, step() returns this error as a Failure instead.
     */
    diverged: TrainerError | null;
  }

  interface HeadProbe {
    queries: Mat; // (n, dModel / heads)
    keys: Mat; // (n, dModel / heads)
    values: Mat; // (n, dModel / heads)
    /** (n, n) q_i · k_j, unscaled and unmasked: the explainer's first step. */
    scores: Mat;
    /** (n, n) causal softmax of scores / √d_head; 0 above the diagonal. */
    weights: Mat;
    /** (n, dModel / heads) weights · values; 0 if the head is ablated. */
    output: Mat;
  }

  interface LayerProbe {
    input: Mat; // (n, dModel) the residual stream entering the layer
    heads: HeadProbe[];
    output: Mat; // (n, dModel) the stream after the layer
  }

  interface Probe {
    ok: true;
    tokens: number[];
    layers: LayerProbe[];
    /** (n, vocab) next-token probabilities at each position. */
    probs: Mat;
    /** The most likely next token at each position. */
    predicted: number[];
  }

  interface Trainer {
    /** The config in effect: defaults applied, the task's vocab and seqLen filled in. */
    readonly config: Readonly<TrainerConfig>;
    readonly task: Readonly<Task>;
    /** How many weights the model has. */
    readonly parameters: number;
    /** Updates applied so far. */
    readonly steps: number;
    readonly disposed: boolean;
    /** n AdamW steps on fresh batches (default 1, at most 100000), then an evaluation. */
    step(n?: number): StepResult | Failure;
    evaluate(): Evaluation | Failure;
    /** Every layer's and head's steps on 1 … seqLen tokens, each below vocab. */
    probe(tokens: ArrayLike<number>): Probe | Failure;
    /** Zeroes (on = true, the default) or restores one head's output in every later pass. */
    ablate(layer: number, head: number, on?: boolean): { ok: true } | Failure;
    /** The model (config, task and weights) as versioned bytes, for load(). */
    save(): { ok: true; bytes: Uint8Array } | Failure;
    /**
     * Replaces this trainer's model by a saved one (its config and task come from the bytes; the
     * optimizer, batch, held-out count and seed stay). Damaged bytes are refused with code
     * "parse_error", input "model" and col = the byte offset of the field, and the model stays.
     */
    load(bytes: Uint8Array | ArrayBuffer): { ok: true } | Failure;
    /** Frees the trainer's memory; every later call returns an error. */
    dispose(): void;
  }

  interface TrainerModule {
    /** A trainer, or an error naming the config field that is wrong. */
    create(config?: Partial<TrainerConfig>): { ok: true; trainer: Trainer } | Failure;
    /** A trainer from a saved model; `config` gives what the bytes do not (optimizer, batch, …). */
    load(bytes: Uint8Array | ArrayBuffer, config?: Partial<TrainerConfig>): { ok: true; trainer: Trainer } | Failure;
    /** The wasm heap's size, the bytes allocated in it, and the trainers alive. */
    memoryStats(): { heapBytes: number; allocatedBytes: number; trainers: number };
    readonly defaults: Readonly<TrainerConfig>;
    readonly tasks: readonly TaskName[];
    readonly mlps: readonly MlpName[];
  }
}

export = createAttentionTrainer;
export as namespace createAttentionTrainer;
