// Types of dist/attention-engine.js (cpp/wasm/api/ is the implementation; the guide is
// README.md, "The engine"). Load it with a classic <script> (it defines the global
// createAttentionEngine) or with require() in node (module.exports is createAttentionEngine).
// The types are in the namespace of the same name: createAttentionEngine.Engine,
// createAttentionEngine.Steps, …
//
// Every function returns a value, never throws: { ok: true, … } or { ok: false, error }.
// Matrices are row-major; every array in a result is JS-owned (a view into one ArrayBuffer per
// call), so nothing needs freeing and nothing changes when the engine runs again, unless that
// result is handed back to attention() as `into`.

declare function createAttentionEngine(): Promise<createAttentionEngine.Engine>;

declare namespace createAttentionEngine {
  /** A row-major matrix: entry (i, j) is data[i * cols + j]. */
  interface Mat {
    rows: number;
    cols: number;
    data: Float64Array;
  }

  /** A boolean matrix, 1 = true. */
  interface BitMat {
    rows: number;
    cols: number;
    data: Uint8Array;
  }

  /** What the engine accepts as a matrix: rows of numbers, or a flat row-major array. */
  type MatrixInput =
    | number[][]
    | { rows: number; cols: number; data: Float64Array | Float32Array | ArrayLike<number> };

  /** A custom mask: true (or 1) = query i may attend to key j. */
  type MaskInput =
    | boolean[][]
    | { rows: number; cols: number; data: Uint8Array | ArrayLike<number | boolean> };

  type ErrorCode =
    | 'empty_input' // a matrix, text or file with nothing in it
    | 'shape_mismatch' // e.g. Q has 3 columns but K has 4; a ragged row
    | 'not_finite' // NaN or ±Inf in an input, or a step that overflows
    | 'bad_dimension' // d_k = 0, heads = 0, a dimension that does not divide, …
    | 'bad_temperature' // temperature ≤ 0 (or not finite)
    | 'zero_vector' // cosine similarity of a row of length zero
    | 'too_large' // above engine.limits
    | 'parse_error' // text that is not a number, a ragged row, bad JSON, …
    | 'bad_argument' // a wrong argument type, a missing or unknown option, an index out of range
    | 'internal_error'; // a bug; or the wasm memory ran out, and the engine re-creates itself (see below)

  interface EngineError {
    code: ErrorCode;
    /** A complete sentence for the reader; rows and columns counted from 1. */
    message: string;
    /** Which input it concerns: "queries", "keys", "values", "mask", "temperature", "text", … */
    input: string;
    /** 0-based row (for text: line) of `input`, or −1. */
    row: number;
    /** 0-based column (for text: in UTF-16 code units, as JS string indices count), or −1. */
    col: number;
  }

  interface Failure {
    ok: false;
    error: EngineError;
  }

  type Similarity = 'dot' | 'cosine';
  type Scale = 'sqrt' | 'none' | 'temperature';
  type Normalization = 'softmax' | 'sum';
  type RowProblem = 'none' | 'fully_masked' | 'zero_sum' | 'negative_weights';

  interface StepOptions {
    /** 'dot' (default): q·k. 'cosine': q·k / (|q|·|k|). */
    similarity?: Similarity;
    /** Divide scores by √d_k ('sqrt', default), by nothing ('none'), or by `temperature`. */
    scale?: Scale;
    /** Required when scale is 'temperature'; must be > 0. */
    temperature?: number;
    /** 'none' (default), 'causal' (query i sees keys j ≤ i), or an n×m matrix. */
    mask?: 'none' | 'causal' | MaskInput;
    /** 'softmax' (default) or 'sum' (divide by the row's sum: the naive idea softmax fixes). */
    normalization?: Normalization;
  }

  interface AttentionOptions extends StepOptions {
    queries: MatrixInput; // (n, d_k)
    keys: MatrixInput; // (m, d_k)
    values: MatrixInput; // (m, d_v)
  }

  interface RowStats {
    /** Largest visible scaled score; −Infinity when the row is fully masked. */
    max: number;
    /** Σ_j exp(masked − max) (softmax); 0 for sum-normalisation. */
    expSum: number;
    /** Σ_j masked over visible keys (the sum-normalisation denominator). */
    scoreSum: number;
    /** Σ_j weights: 1, or 0 for a fully masked or zero-sum row. */
    weightSum: number;
    /** −Σ w ln w in nats; 0 when problem is not 'none'. */
    entropy: number;
    /** How many keys the query may see. */
    visible: number;
    problem: RowProblem;
  }

  /** Every step of softmax(QKᵀ/√d_k)·V. */
  interface Steps {
    ok: true;
    n: number;
    m: number;
    dK: number;
    dV: number;
    queries: Mat; // (n, d_k)
    keys: Mat; // (m, d_k)
    values: Mat; // (m, d_v)
    queryNorms: Float64Array; // (n) |q_i|
    keyNorms: Float64Array; // (m) |k_j|
    /** What the scores were divided by: √d_k, the temperature, or 1. */
    divisor: number;
    scores: Mat; // (n, m) q_i·k_j or cos(q_i, k_j)
    scaled: Mat; // (n, m) scores / divisor
    masked: Mat; // (n, m) scaled, −Infinity where hidden
    exps: Mat; // (n, m) exp(masked − row max); 0 where hidden or for 'sum'
    weights: Mat; // (n, m)
    output: Mat; // (n, d_v) weights · V
    visible: BitMat; // (n, m)
    rowStats: RowStats[]; // (n)
  }

  /** Why score (i, j) is what it is. */
  interface CellExplanation {
    ok: true;
    row: number;
    col: number;
    query: Float64Array; // (d_k) q_i
    key: Float64Array; // (d_k) k_j
    terms: Float64Array; // (d_k) q_i[t]·k_j[t]
    dot: number; // Σ terms
    queryNorm: number;
    keyNorm: number;
    score: number;
    divisor: number;
    scaled: number;
    visible: boolean;
    rowMax: number;
    expValue: number;
    expSum: number;
    scoreSum: number;
    weight: number;
  }

  /** Why output (i, t) is what it is: Σ_j weights[j]·values[j]. */
  interface OutputExplanation {
    ok: true;
    row: number;
    col: number;
    weights: Float64Array; // (m) w_ij
    values: Float64Array; // (m) v_j[t]
    terms: Float64Array; // (m) w_ij·v_j[t]
    output: number;
  }

  /**
   * One query row operation by operation, with every partial result: what an animation of the
   * computation plays. Numbers the steps hold are attention()'s own.
   */
  interface RowTrace {
    ok: true;
    row: number;
    m: number;
    dK: number;
    dV: number;
    query: Float64Array; // (dK) q_i
    terms: Mat; // (m, dK) q_i[t]·k_j[t]
    partial: Mat; // (m, dK) terms[j][0] + … + terms[j][t]: each score as it adds up
    queryNorm: number; // |q_i| (cosine)
    keyNorms: Float64Array; // (m) |k_j| (cosine)
    scores: Float64Array; // (m)
    divisor: number; // √d_k, T or 1
    scaled: Float64Array; // (m)
    visible: Uint8Array; // (m) 1 where the key may be seen
    masked: Float64Array; // (m) −∞ where hidden
    max: number; // the largest visible scaled score, −∞ if none
    shifted: Float64Array; // (m) masked − max (softmax; −∞ where hidden, and for sum)
    exps: Float64Array; // (m) exp(shifted)
    expSum: number;
    scoreSum: number; // the sum-normalisation denominator
    weights: Float64Array; // (m)
    mixed: Mat; // (m, dV) weights[j]·v_j
    filled: Mat; // (m, dV) mixed[0] + … + mixed[j]: the output row as it fills
    output: Float64Array; // (dV) attention()'s output row
    problem: RowProblem;
  }

  interface MultiHeadOptions extends StepOptions {
    x: MatrixInput; // (n, d_model)
    /** Default 1. */
    heads?: number;
    /** Default 0: d_model / heads (d_model if that does not divide). */
    dK?: number;
    /** Default 0: d_k. */
    dV?: number;
    /** Default 'identity'. */
    projection?: 'identity' | 'random' | 'given';
    /** For 'random': a whole number in [0, 2⁵³]. Default 1. Same seed, same numbers everywhere. */
    seed?: number;
    /** For 'given': one matrix per head. */
    wq?: MatrixInput[]; // heads × (d_model, d_k)
    wk?: MatrixInput[]; // heads × (d_model, d_k)
    wv?: MatrixInput[]; // heads × (d_model, d_v)
    wo?: MatrixInput; // (heads·d_v, d_model)
  }

  interface HeadSteps extends Steps {
    wq: Mat; // (d_model, d_k)
    wk: Mat; // (d_model, d_k)
    wv: Mat; // (d_model, d_v)
  }

  interface MultiHead {
    ok: true;
    x: Mat; // (n, d_model)
    heads: HeadSteps[]; // (H); queries/keys/values of a head are X·W_Q, X·W_K, X·W_V
    concat: Mat; // (n, H·d_v)
    wo: Mat; // (H·d_v, d_model)
    output: Mat; // (n, d_model)
    /** (H·d_v) the head (0-based) column c of concat came from. */
    columnHead: Int32Array;
    /** (H·d_v) which column (0-based) of that head's output it is. */
    columnInHead: Int32Array;
  }

  /** Why an entry of a projection is what it is: value = Σ terms = Σ_t left[t]·right[t]. */
  interface ProjectionExplanation {
    ok: true;
    row: number;
    col: number;
    /** q, k, v: row i of X (d_model); final: row i of concat (H·d_v). */
    left: Float64Array;
    /** q, k, v: column j of the head's W_Q, W_K or W_V; final: column j of W_O. */
    right: Float64Array;
    terms: Float64Array; // left[t]·right[t]
    /** heads[head].queries, keys or values (i, j); final: output (i, j). */
    value: number;
  }

  interface EntropyOptions {
    x: MatrixInput; // (n, d_model)
    /** Default 1. */
    heads?: number;
    /** The head whose entropy is reported, 0-based. Default 0. */
    head?: number;
    /** Strictly ascending, each ≥ 1. Default [1, 2, 4, …, 512]. */
    dKs?: number[];
    /** The random projections' seed. Default 1. */
    seed?: number;
    similarity?: Similarity;
    /** Default 'none'. */
    mask?: 'none' | 'causal';
  }

  interface EntropyRow {
    dK: number;
    /** Mean of the head's row entropies (nats) with the scores divided by √d_k. */
    scaled: number;
    /** The same without the division. */
    unscaled: number;
  }

  /** Values and outputs placed in one plane: their first two principal components. */
  interface Plane {
    ok: true;
    mean: Float64Array; // (d)
    axes: Mat; // (2, d)
    variance: Float64Array; // (2)
    totalVariance: number;
    values2d: Mat; // (m, 2)
    outputs2d: Mat; // (n, 2)
    /** (variance[0] + variance[1]) / totalVariance: the share the plane shows; 1 if totalVariance is 0. */
    shown: number;
  }

  interface Token {
    text: string;
    /** In UTF-16 code units, as JS counts: text.slice(offset, offset + length) is the token. */
    offset: number;
    length: number;
  }

  interface Tokens {
    ok: true;
    tokens: Token[];
  }

  interface Embedding {
    ok: true;
    tokens: Token[]; // (n)
    vectors: Mat; // (n, d)
    features: string[]; // (d)
    /** (n) true: not in the lexicon; its vector is a made-up, deterministic one. */
    unknown: boolean[];
  }

  /** A word-vector file loaded into the engine; pass it (or its id) as a lexicon. */
  interface LoadedLexicon {
    ok: true;
    id: number;
    words: string[];
    features: string[];
    size: number;
  }

  /** A packed word-vector file loaded by loadVectors(): a LoadedLexicon, and how many were learned. */
  interface LoadedVectors extends LoadedLexicon {
    /** words[0 … learned) got their vector from text; the rest borrowed it (from their translations). */
    learned: number;
  }

  /** A word near another, and the cosine similarity of the two (−1 … 1). */
  interface Neighbour {
    word: string;
    cosine: number;
  }

  /** 'builtin' (default): 8 named features, English and Chinese. 'fruit': the 3-feature example. */
  type LexiconRef = 'builtin' | 'fruit' | { id: number } | number;

  interface LexiconInfo {
    ok: true;
    features: string[]; // (d)
    words: string[]; // (size)
    vectors: Mat; // (size, d), in the order of words
  }

  /** A float32 row-major matrix. */
  interface FloatMat {
    rows: number;
    cols: number;
    data: Float32Array;
  }

  /**
   * One causal head's weights over n tokens, (n, n) row-major, 0 above the diagonal: the form in
   * which the trainer's heads (a probe) and the language model's (a reading) reach the page's
   * head grid, each named by its layer and head (counted from 0).
   */
  interface HeadWeights {
    layer: number;
    head: number;
    n: number;
    data: Float32Array; // (n, n)
  }

  /**
   * attentionFast(): large inputs (n, m ≤ 4096; d, d_v ≤ 256) in float32, only the output.
   * Streams over 256-key blocks with an online softmax (the n×m matrix never exists) unless
   * `materialize` asks for the weights too. {rows, cols, data: Float32Array} inputs are copied
   * into the engine's heap directly; pass `out` (and `weightsOut`) to reuse your own buffers.
   * Finite inputs whose scores leave float32's range (about 3.4e38) give a 'not_finite' error
   * with input 'scores' (and the query row). An output, a weighted mean of rows of values, stays
   * within it (1000 values of 1e38 give 1e38); 'output' (row and column) is only a guard.
   */
  interface FastOptions {
    queries: MatrixInput; // (n, d)
    keys: MatrixInput; // (m, d)
    values: MatrixInput; // (m, d_v)
    scale?: 'sqrt' | 'none' | 'temperature';
    temperature?: number;
    /** 'none', 'causal', or n×m booleans (boolean[][] or a Uint8Array of 0/1, row-major). */
    mask?: 'none' | 'causal' | boolean[][] | Uint8Array;
    materialize?: boolean;
    out?: Float32Array; // n·d_v entries, filled and returned as output.data
    weightsOut?: Float32Array; // n·m entries, with materialize
  }

  interface FastResult {
    ok: true;
    output: FloatMat; // (n, d_v)
    weights?: FloatMat; // (n, m), with materialize
  }

  interface Limits {
    maxTokens: number;
    maxDim: number;
    maxCells: number;
    maxHeads: number;
    maxTextBytes: number;
    maxEmbeddingBytes: number;
    maxWords: number;
    /** A packed word-vector file (loadVectors), in bytes. */
    maxVectorFileBytes: number;
    /** The most neighbours nearestWords() gives. */
    maxNeighbours: number;
  }

  /**
   * Errors are values: a getter of the caller's that throws is 'bad_argument' naming the field.
   * If the wasm aborts (its 2 GB ran out: loaded files stay until freed), that call and those while
   * a new module is made are 'internal_error' saying so; then calls work, but the files loaded
   * before are gone (their ids give 'bad_argument', and freeLexicon() false).
   */
  interface Engine {
    /**
     * Every step. With `into`, an earlier result of this engine's attention() of the same n, m,
     * d_k and d_v (and not transferred), the new steps are written into its arrays and `into`
     * itself is returned, with no new allocation; otherwise a new result. A failed call leaves
     * `into` as it was. `into` that is not such a result is a 'bad_argument' error.
     */
    attention(options: AttentionOptions & { into?: Steps }): Steps | Failure;
    /** Runs attention on `options` again (a few µs for page-sized inputs) and explains one score. */
    explainCell(options: AttentionOptions, i: number, j: number): CellExplanation | Failure;
    /** Runs attention on `options` again and explains one output entry. */
    explainOutput(options: AttentionOptions, i: number, t: number): OutputExplanation | Failure;
    /** Query row i of attention(options), operation by operation (RowTrace). */
    traceRow(options: AttentionOptions, i: number): RowTrace | Failure;
    /**
     * right − left, entry by entry: what the comparison view shows (B's weights minus A's).
     * 'shape_mismatch' on input 'right' when the shapes differ; 'not_finite' for NaN or ±Inf
     * in either, or a difference that overflows (input 'difference').
     */
    difference(left: MatrixInput, right: MatrixInput): { ok: true; difference: Mat } | Failure;
    multiHead(options: MultiHeadOptions): MultiHead | Failure;
    /**
     * Runs multiHead() on `options` again and explains entry (i, j) of head `options.head`'s
     * (0-based, default 0) queries ('q'), keys ('k') or values ('v'), or of the output
     * ('final', where the head is not used). An index out of range is 'bad_argument'.
     */
    explainProjection(options: MultiHeadOptions & { head?: number }, kind: 'q' | 'k' | 'v' | 'final',
      i: number, j: number): ProjectionExplanation | Failure;
    /**
     * For each d_k of dKs, multiHead() with random projections (seed, d_v = d_k, softmax) run
     * scaled by √d_k and unscaled: the mean row entropy of head `head` in each. Stops before the
     * first d_k with d_k·heads > limits.maxDim; an error of any run is the result.
     */
    entropyByDk(options: EntropyOptions): { ok: true; rows: EntropyRow[] } | Failure;
    project2d(values: MatrixInput, outputs: MatrixInput): Plane | Failure;
    /** Text with no words (empty, only spaces or punctuation) is 'empty_input', as for embed(). */
    tokenize(text: string, lexicon?: LexiconRef): Tokens | Failure;
    embed(text: string, lexicon?: LexiconRef): Embedding | Failure;
    parseMatrix(text: string, inputName?: string): { ok: true; matrix: Mat } | Failure;
    /** Loads a GloVe/word2vec text file into the engine until freeLexicon(). */
    parseEmbeddings(text: string): LoadedLexicon | Failure;
    /**
     * Loads a packed word-vector file ("APV1": a header, the words, one signed byte a value times
     * one scale) into the engine until freeLexicon(). A fault in it is 'parse_error' with input
     * 'vectors', col = the byte it lies at and row = the word (0-based) when it is one word's (a
     * duplicate, an empty word, whitespace in one); above limits.maxVectorFileBytes, 'too_large'.
     * Anything but a Uint8Array or an ArrayBuffer is 'bad_argument'.
     */
    loadVectors(bytes: Uint8Array | ArrayBuffer): LoadedVectors | Failure;
    /**
     * The k (default 10, at most limits.maxNeighbours) words of the lexicon with the largest
     * cosine similarity to `word`, largest first: not the word itself (found as embed() finds it,
     * so 'Apple' finds 'apple'); of equal cosines, the word earlier in the lexicon's words. A word
     * the lexicon does not have is 'bad_argument' (input 'word'); one whose vector is all zeros,
     * 'zero_vector'.
     */
    nearestWords(word: string, lexicon?: LexiconRef, k?: number): { ok: true; neighbours: Neighbour[] } | Failure;
    /** The cosine similarity of two words of the lexicon; errors name 'a' or 'b' as nearestWords() names 'word'. */
    wordSimilarity(a: string, b: string, lexicon?: LexiconRef): { ok: true; cosine: number } | Failure;
    /** True if the lexicon was loaded and is now freed. */
    freeLexicon(lexicon: LexiconRef): boolean | Failure;
    lexiconInfo(lexicon?: LexiconRef): LexiconInfo | Failure;
    /** Sentences that use only built-in words; lang 'en' or 'zh' ([] for others). */
    exampleSentences(lang: string): string[] | Failure;
    /** The wasm heap's size and the bytes malloc has handed out: for leak checks. */
    /**
     * The wasm heap's size, the bytes allocated now, and the most allocated when a call ended
     * (a call that moved more than 4 MiB gives its buffers back after, so `allocatedBytes`
     * drops; `peakAllocatedBytes` keeps what it needed).
     */
    memoryStats(): { heapBytes: number; allocatedBytes: number; peakAllocatedBytes: number } | Failure;
    /** Large inputs in float32: see FastOptions. */
    attentionFast(options: FastOptions): FastResult | Failure;
    readonly limits: Readonly<Limits>;
  }
}

export = createAttentionEngine;
export as namespace createAttentionEngine;
