// The engine's public API (see attention-engine.d.ts, and README.md under "The engine").
//
// Appended to Emscripten's glue with --extern-post-js, after its optimiser ran, so Closure never
// renames anything here. It replaces the factory that Emscripten defined with one that resolves
// to the engine object below instead of the raw module.
//
// Everything here is conversion, none of it math: check the arguments (a wrong one gives
// {ok: false, error}, never an exception), copy matrices into the wasm heap, call a binding
// (bindings.cpp), and copy its result out into JS-owned typed arrays, so nothing needs .delete()
// and nothing goes stale when the wasm memory grows. The order in which results are read here
// is the order bindings.cpp writes them (stream.hpp).
/* global createAttentionEngine: writable, module */
createAttentionEngine = (function (createModule) {
  'use strict';

  // Option strings in the order of the C++ enums (attention.hpp, multihead.hpp).
  const SIMILARITY = ['dot', 'cosine'];
  const SCALE = ['sqrt', 'none', 'temperature'];
  const MASK = ['none', 'causal'];  // a matrix of booleans is MaskKind::custom, 2
  const NORMALIZATION = ['softmax', 'sum'];
  const PROJECTION = ['identity', 'random', 'given'];
  const PROJECTION_KIND = ['q', 'k', 'v', 'final'];  // ProjectionKind
  const PROBLEM = ['none', 'fully_masked', 'zero_sum', 'negative_weights'];
  const LEXICON = { builtin: 0, fruit: -1 };  // the ids bindings.cpp gives the built-in ones

  const STEP_OPTIONS = ['similarity', 'scale', 'temperature', 'mask', 'normalization'];
  const ATTENTION_OPTIONS = ['queries', 'keys', 'values'].concat(STEP_OPTIONS);
  const ATTENTION_CALL_OPTIONS = ATTENTION_OPTIONS.concat(['into']);  // attention() alone
  const MULTI_HEAD_OPTIONS = ['x', 'heads', 'dK', 'dV', 'projection', 'seed',
    'wq', 'wk', 'wv', 'wo'].concat(STEP_OPTIONS);
  const EXPLAIN_PROJECTION_OPTIONS = MULTI_HEAD_OPTIONS.concat(['head']);
  const ENTROPY_OPTIONS = ['x', 'heads', 'head', 'dKs', 'seed', 'similarity', 'mask'];

  // A refused argument: thrown inside, caught at the API boundary and returned as a value.
  class Refusal {
    constructor(error) { this.error = error; }
  }
  function refuse(code, input, message, row = -1, col = -1) {
    throw new Refusal({ code, message, input, row, col });
  }
  function describe(x) {
    if (x === null) return 'null';
    if (Array.isArray(x)) return 'an array';
    if (typeof x === 'string') return 'the text "' + (x.length > 20 ? x.slice(0, 20) + '…' : x) + '"';
    if (typeof x === 'function') return 'a function';
    return typeof x === 'object' ? 'an object' : String(x);
  }
  const isCount = (x) => Number.isInteger(x) && x >= 0;

  function makeEngine(M) {
    let inputAddress = 0, inputCapacity = 0;  // doubles; the buffer only grows (bindings.cpp)
    const limitsAt = new Output(M, M.limits());
    const limits = Object.freeze({
      maxTokens: limitsAt.num(), maxDim: limitsAt.num(), maxCells: limitsAt.num(),
      maxHeads: limitsAt.num(), maxTextBytes: limitsAt.num(), maxEmbeddingBytes: limitsAt.num(),
      maxWords: limitsAt.num(),
    });
    const featureCache = new Map();  // lexicon id → feature names

    function coreError() {
      return { ok: false, error: M.lastError() };
    }

    // --- arguments -----------------------------------------------------------------------------

    function options(o, allowed, what) {
      if (o === null || typeof o !== 'object' || Array.isArray(o)) {
        refuse('bad_argument', 'options', what + ' takes an object of options; got ' + describe(o) + '.');
      }
      for (const key of Object.keys(o)) {
        if (!allowed.includes(key)) {
          refuse('bad_argument', key, what + ': unknown option "' + key + '"; the options are ' +
            allowed.join(', ') + '.');
        }
      }
      return o;
    }

    function choice(value, names, input, fallback) {
      if (value === undefined) return names.indexOf(fallback);
      const k = names.indexOf(value);
      if (k < 0) {
        refuse('bad_argument', input, input + ' must be ' + names.map((s) => '"' + s + '"').join(' or ') +
          '; got ' + describe(value) + '.');
      }
      return k;
    }

    function count(value, input, fallback, max) {
      if (value === undefined) return fallback;
      if (!isCount(value) || value > max) {
        refuse('bad_argument', input, input + ' must be a whole number from 0 to ' + max + '; got ' +
          describe(value) + '.');
      }
      return value;
    }

    // A matrix argument, number[][] or {rows, cols, data}, checked but not yet copied:
    // {rows, cols, value, nested}. `entry` checks one entry (numbers, or booleans for masks).
    function matrix(value, input, entry = number) {
      let rows, cols, nested;
      if (Array.isArray(value)) {
        nested = true;
        rows = value.length;
        cols = rows > 0 && Array.isArray(value[0]) ? value[0].length : 0;
        for (let i = 0; i < rows; i++) {
          const row = value[i];
          if (!Array.isArray(row)) {
            refuse('bad_argument', input, input + ': row ' + (i + 1) + ' is ' + describe(row) +
              ', not an array of ' + entry.what + '.', i);
          }
          if (row.length !== cols) {
            refuse('shape_mismatch', input, input + ': row ' + (i + 1) + ' has ' + row.length +
              ' entries, but row 1 has ' + cols + '; every row needs the same length.', i);
          }
          for (let j = 0; j < cols; j++) {
            if (!entry(row[j])) refuse('bad_argument', input, entryMessage(input, i, j, row[j], entry), i, j);
          }
        }
      } else if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
        nested = false;
        rows = value.rows;
        cols = value.cols;
        const data = value.data;
        if (!isCount(rows) || !isCount(cols)) {
          refuse('bad_argument', input, input + '.rows and ' + input + '.cols must be whole numbers; got ' +
            describe(rows) + ' and ' + describe(cols) + '.');
        }
        const typed = ArrayBuffer.isView(data) && !(data instanceof DataView) &&
          !(data instanceof BigInt64Array) && !(data instanceof BigUint64Array);
        if (!typed && !Array.isArray(data)) {
          refuse('bad_argument', input, input + '.data must be an array or a typed array of ' +
            entry.what + '; got ' + describe(data) + '.');
        }
        if (data.length !== rows * cols) {
          refuse('shape_mismatch', input, input + '.data has ' + data.length + ' entries, but ' +
            input + ' is ' + rows + '×' + cols + ' = ' + rows * cols + '.');
        }
        if (!typed || entry !== number) {
          for (let k = 0; k < data.length; k++) {
            const i = Math.floor(k / cols), j = k % cols;
            if (!entry(data[k])) refuse('bad_argument', input, entryMessage(input, i, j, data[k], entry), i, j);
          }
        }
      } else {
        refuse('bad_argument', input, value === undefined
          ? input + ' is missing: give an array of rows of ' + entry.what + ', or {rows, cols, data}.'
          : input + ' must be an array of rows of ' + entry.what + ', or {rows, cols, data}; got ' +
            describe(value) + '.');
      }
      // Refuse what is too large to be worth copying into the heap, with the core's own words.
      if (rows * cols > limits.maxCells && !M.checkSize(rows, cols, input)) throw new Refusal(M.lastError());
      return { rows, cols, value: nested ? value : value.data, nested };
    }
    function number(x) { return typeof x === 'number'; }
    number.what = 'numbers';
    function boolean(x) { return typeof x === 'boolean' || x === 0 || x === 1; }
    boolean.what = 'booleans';
    function entryMessage(input, i, j, x, entry) {
      return input + ': row ' + (i + 1) + ', column ' + (j + 1) + ' is ' + describe(x) + ', not ' +
        (entry === number ? 'a number' : 'true or false') + '.';
    }

    // The scaling and its temperature, as [scale, temperature]. Only the type is checked here:
    // whether the temperature is above 0 and finite is the core's to say (check_temperature).
    function scaling(o) {
      const scale = choice(o.scale, SCALE, 'scale', 'sqrt');
      let temperature = 1;
      if (scale === 2 || o.temperature !== undefined) {
        if (typeof o.temperature !== 'number') {
          refuse('bad_argument', 'temperature', 'temperature must be a number above 0; got ' +
            describe(o.temperature) + '.');
        }
        temperature = o.temperature;
      }
      return [scale, temperature];
    }

    // The step options shared by attention() and multiHead(); a custom mask joins `inputs`.
    function stepOptions(o, inputs) {
      const similarity = choice(o.similarity, SIMILARITY, 'similarity', 'dot');
      const [scale, temperature] = scaling(o);
      let mask = 0;
      if (typeof o.mask === 'string' || o.mask === undefined) {
        mask = choice(o.mask, MASK, 'mask', 'none');
      } else {
        mask = 2;
        inputs.push(matrix(o.mask, 'mask', boolean));
      }
      const normalization = choice(o.normalization, NORMALIZATION, 'normalization', 'softmax');
      return [similarity, scale, temperature, mask, normalization];
    }

    function lexiconId(lexicon) {
      if (lexicon === undefined) return LEXICON.builtin;
      if (typeof lexicon === 'string' && Object.prototype.hasOwnProperty.call(LEXICON, lexicon)) return LEXICON[lexicon];
      if (lexicon !== null && typeof lexicon === 'object' && Number.isInteger(lexicon.id)) return lexicon.id;
      if (Number.isInteger(lexicon)) return lexicon;
      return refuse('bad_argument', 'lexicon', 'lexicon must be "builtin", "fruit" or what ' +
        'parseEmbeddings() returned; got ' + describe(lexicon) + '.');
    }

    // Half of a surrogate pair has no UTF-8 form (Emscripten's encoder would merge it with the
    // next character): refused with its line and column in characters, as the core counts.
    const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    function text(value, input) {
      if (typeof value !== 'string') {
        refuse('bad_argument', input, input + ' must be a string; got ' + describe(value) + '.');
      }
      if (typeof value.isWellFormed === 'function' ? !value.isWellFormed() : LONE_SURROGATE.test(value)) {
        const at = LONE_SURROGATE.exec(value).index;
        const lineStart = value.lastIndexOf('\n', at - 1) + 1;
        let line = 0;
        for (let k = value.indexOf('\n'); k >= 0 && k < at; k = value.indexOf('\n', k + 1)) line++;
        const col = [...value.slice(lineStart, at)].length;
        const code = value.charCodeAt(at).toString(16).toUpperCase();
        refuse('parse_error', input, input + ': line ' + (line + 1) + ', column ' + (col + 1) +
          ' holds half of a character (a lone UTF-16 surrogate, U+' + code + '); the text was ' +
          'probably cut in the middle of an emoji.', line, col);
      }
      return value;
    }

    // --- crossing the boundary -----------------------------------------------------------------

    // Copies matrices (and plain numbers: counts) into the input buffer, in order.
    function write(inputs) {
      let total = 0;
      for (const x of inputs) total += typeof x === 'number' ? 1 : 2 + x.rows * x.cols;
      if (total > inputCapacity) {
        inputAddress = M.inputBuffer(total);
        inputCapacity = total;
      }
      const heap = M.HEAPF64;  // read after inputBuffer(), which may have grown the memory
      let p = inputAddress >>> 3;
      for (const x of inputs) {
        if (typeof x === 'number') {
          heap[p++] = x;
          continue;
        }
        heap[p] = x.rows;
        heap[p + 1] = x.cols;
        p += 2;
        if (x.nested) {
          // Entry by entry: a small row is copied several times faster than by heap.set(row).
          const rows = x.value, cols = x.cols;
          for (let i = 0; i < rows.length; i++) {
            const row = rows[i];
            for (let j = 0; j < cols; j++) heap[p + j] = row[j];
            p += cols;
          }
        } else {
          heap.set(x.value, p);
          p += x.rows * x.cols;
        }
      }
    }

    function readSteps(o) {
      const queries = o.mat(), keys = o.mat(), values = o.mat();
      const queryNorms = o.vec(), keyNorms = o.vec(), divisor = o.num();
      const scores = o.mat(), scaled = o.mat(), masked = o.mat(), exps = o.mat();
      const weights = o.mat(), output = o.mat(), visible = o.bits();
      const rowStats = new Array(o.num());
      for (let i = 0; i < rowStats.length; i++) {
        rowStats[i] = { max: o.num(), expSum: o.num(), scoreSum: o.num(), weightSum: o.num(),
          entropy: o.num(), visible: o.num(), problem: PROBLEM[o.num()] };
      }
      return { ok: true, n: queries.rows, m: keys.rows, dK: queries.cols, dV: values.cols,
        queries, keys, values, queryNorms, keyNorms, divisor,
        scores, scaled, masked, exps, weights, output, visible, rowStats };
    }

    function readTokens(o, source) {
      const tokens = new Array(o.num());
      for (let k = 0; k < tokens.length; k++) {
        const offset = o.num(), length = o.num();
        tokens[k] = { text: source.slice(offset, offset + length), offset, length };
      }
      return tokens;
    }

    const lines = (s) => (s === '' ? [] : s.split('\n'));

    function features(id) {
      if (!featureCache.has(id)) featureCache.set(id, lines(M.lexiconFeatures(id)));
      return featureCache.get(id).slice();
    }

    // --- the API -------------------------------------------------------------------------------

    // What attention(), explainCell() and explainOutput() share: check the options, copy Q, K, V
    // (and a custom mask) into the heap, and return the step options for the binding.
    function attentionInputs(o, what, allowed = ATTENTION_OPTIONS) {
      options(o, allowed, what);
      const inputs = [matrix(o.queries, 'queries'), matrix(o.keys, 'keys'), matrix(o.values, 'values')];
      const config = stepOptions(o, inputs);
      write(inputs);
      return config;
    }

    function attention(o) {
      const c = attentionInputs(o, 'attention()', ATTENTION_CALL_OPTIONS);
      const into = o.into;
      if (into !== undefined && !ownBuffers.has(into)) {
        refuse('bad_argument', 'into', 'into must be a result of this engine\'s attention(); got ' +
          describe(into) + '.');
      }
      const at = M._attn_attention(c[0], c[1], c[2], c[3], c[4]);
      return at ? readAttention(at, into) : coreError();
    }

    // Each result of attention() and the one ArrayBuffer its arrays view, with the shape that
    // fixes where each array lies in it: what a later call may write into (`into`).
    const ownBuffers = new WeakMap();

    // attention()'s result, laid out for speed (bindings.cpp, attention_steps): [length, n, m,
    // dK, dV, divisor, the row stats (7 a row), then the arrays' data alone]. Only the arrays are
    // copied out of the heap: V8 charges for an ArrayBuffer by its size (600 doubles cost 1.7 µs,
    // 300 cost 1.3 µs), and the rest is read where it lies. The same object as readSteps().
    // With `into`, an earlier result of the same shape whose buffer is still here (not
    // transferred), the arrays are copied into its buffer and `into` itself is returned: at
    // 8 × 4 a new ArrayBuffer is about 2 µs of a 5–7 µs call.
    function readAttention(address, into) {
      const heap = M.HEAPF64;
      let p = address / 8;
      const end = p + 1 + heap[p];
      const n = heap[p + 1], m = heap[p + 2], dK = heap[p + 3], dV = heap[p + 4], divisor = heap[p + 5];
      const rowStats = new Array(n);
      for (let i = 0, s = p + 6; i < n; i++, s += 7) {
        rowStats[i] = { max: heap[s], expSum: heap[s + 1], scoreSum: heap[s + 2], weightSum: heap[s + 3],
          entropy: heap[s + 4], visible: heap[s + 5], problem: PROBLEM[heap[s + 6]] };
      }
      const data = heap.subarray(p + 6 + 7 * n, end);
      const own = into && ownBuffers.get(into);
      if (own && own.buffer.byteLength === data.byteLength && own.n === n && own.m === m &&
          own.dK === dK && own.dV === dV) {
        new Float64Array(own.buffer).set(data);
        into.divisor = divisor;
        into.rowStats = rowStats;
        return into;
      }
      const buffer = data.slice().buffer;
      const nm = n * m, keysAt = n * dK, valuesAt = keysAt + m * dK, normsAt = valuesAt + m * dV;
      const scoresAt = normsAt + n + m, outputAt = scoresAt + 5 * nm;
      const result = { ok: true, n, m, dK, dV,
        queries: view(buffer, 0, n, dK), keys: view(buffer, keysAt, m, dK),
        values: view(buffer, valuesAt, m, dV),
        queryNorms: new Float64Array(buffer, normsAt * 8, n),
        keyNorms: new Float64Array(buffer, (normsAt + n) * 8, m), divisor,
        scores: view(buffer, scoresAt, n, m), scaled: view(buffer, scoresAt + nm, n, m),
        masked: view(buffer, scoresAt + 2 * nm, n, m), exps: view(buffer, scoresAt + 3 * nm, n, m),
        weights: view(buffer, scoresAt + 4 * nm, n, m), output: view(buffer, outputAt, n, dV),
        visible: { rows: n, cols: m, data: new Uint8Array(buffer, (outputAt + n * dV) * 8, nm) },
        rowStats };
      ownBuffers.set(result, { buffer, n, m, dK, dV });
      return result;
    }
    // A rows×cols matrix whose data starts `at` doubles into `buffer`.
    function view(buffer, at, rows, cols) {
      return { rows, cols, data: new Float64Array(buffer, at * 8, rows * cols) };
    }

    function index(value, input) {
      if (!isCount(value) || value > 0xffffffff) {
        refuse('bad_argument', input, input + ' must be a whole number ≥ 0; got ' + describe(value) + '.');
      }
      return value;
    }

    function explainCell(o, i, j) {
      const c = attentionInputs(o, 'explainCell()');
      index(i, 'row');
      index(j, 'col');
      const at = M.explainCell(c[0], c[1], c[2], c[3], c[4], i, j);
      if (!at) return coreError();
      const r = new Output(M, at);
      const e = { ok: true, row: r.num(), col: r.num(), dot: r.num(), queryNorm: r.num(),
        keyNorm: r.num(), score: r.num(), divisor: r.num(), scaled: r.num(), visible: r.num() === 1,
        rowMax: r.num(), expValue: r.num(), expSum: r.num(), scoreSum: r.num(), weight: r.num() };
      const dK = r.num();
      e.query = r.arr(dK);
      e.key = r.arr(dK);
      e.terms = r.arr(dK);
      return e;
    }

    function explainOutput(o, i, t) {
      const c = attentionInputs(o, 'explainOutput()');
      index(i, 'row');
      index(t, 'col');
      const at = M.explainOutput(c[0], c[1], c[2], c[3], c[4], i, t);
      if (!at) return coreError();
      const r = new Output(M, at);
      const e = { ok: true, row: r.num(), col: r.num(), output: r.num() };
      const m = r.num();
      e.weights = r.arr(m);
      e.values = r.arr(m);
      e.terms = r.arr(m);
      return e;
    }

    function difference(left, right) {
      write([matrix(left, 'left'), matrix(right, 'right')]);
      const at = M.difference();
      return at ? { ok: true, difference: new Output(M, at).mat() } : coreError();
    }

    function matrixList(value, input) {
      if (!Array.isArray(value)) {
        refuse('bad_argument', input, input + ' must be an array with one matrix per head; got ' +
          describe(value) + '.');
      }
      return [value.length].concat(value.map((w, h) => matrix(w, input + '[' + h + ']')));
    }

    // What multiHead() and explainProjection() share: check the options, copy X (a custom mask,
    // given projections) into the heap, and return the binding's arguments.
    function multiHeadInputs(o, what, allowed = MULTI_HEAD_OPTIONS) {
      options(o, allowed, what);
      const inputs = [matrix(o.x, 'x')];
      const heads = count(o.heads, 'heads', 1, 0x7fffffff);
      const dK = count(o.dK, 'dK', 0, 0x7fffffff);
      const dV = count(o.dV, 'dV', 0, 0x7fffffff);
      const projection = choice(o.projection, PROJECTION, 'projection', 'identity');
      const seed = count(o.seed, 'seed', 1, Number.MAX_SAFE_INTEGER);
      const c = stepOptions(o, inputs);
      if (projection === 2) {
        inputs.push(...matrixList(o.wq, 'wq'), ...matrixList(o.wk, 'wk'), ...matrixList(o.wv, 'wv'),
          matrix(o.wo, 'wo'));
      }
      write(inputs);
      return [heads, dK, dV, projection, seed].concat(c);
    }

    function multiHead(o) {
      const at = M.multiHead(...multiHeadInputs(o, 'multiHead()'));
      if (!at) return coreError();
      const r = new Output(M, at);
      const x = r.mat();
      const list = new Array(r.num());
      for (let h = 0; h < list.length; h++) {
        const wq = r.mat(), wk = r.mat(), wv = r.mat();
        list[h] = Object.assign({ wq, wk, wv }, readSteps(r));
      }
      const concat = r.mat(), wo = r.mat(), output = r.mat();
      const columnHead = Int32Array.from(r.arr(concat.cols)), columnInHead = Int32Array.from(r.arr(concat.cols));
      return { ok: true, x, heads: list, concat, wo, output, columnHead, columnInHead };
    }

    function explainProjection(o, kind, i, j) {
      const args = multiHeadInputs(o, 'explainProjection()', EXPLAIN_PROJECTION_OPTIONS);
      const k = PROJECTION_KIND.indexOf(kind);
      if (k < 0) refuse('bad_argument', 'kind', 'kind must be "q", "k", "v" or "final"; got ' + describe(kind) + '.');
      const head = count(o.head, 'head', 0, 0x7fffffff);
      const at = M.explainProjection(...args, k, head, index(i, 'row'), index(j, 'col'));
      if (!at) return coreError();
      const r = new Output(M, at);
      const e = { ok: true, row: r.num(), col: r.num(), value: r.num() };
      const length = r.num();
      e.left = r.arr(length);
      e.right = r.arr(length);
      e.terms = r.arr(length);
      return e;
    }

    // The d_k the page's √d_k figure shows by default.
    const ENTROPY_DKS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

    function entropyByDk(o) {
      options(o, ENTROPY_OPTIONS, 'entropyByDk()');
      const inputs = [matrix(o.x, 'x')];
      const heads = count(o.heads, 'heads', 1, 0x7fffffff), head = count(o.head, 'head', 0, 0x7fffffff);
      const seed = count(o.seed, 'seed', 1, Number.MAX_SAFE_INTEGER);
      const similarity = choice(o.similarity, SIMILARITY, 'similarity', 'dot');
      const mask = choice(o.mask, MASK, 'mask', 'none');
      const dKs = o.dKs === undefined ? ENTROPY_DKS : o.dKs;
      if (!Array.isArray(dKs)) refuse('bad_argument', 'dKs', 'dKs must be an array of whole numbers; got ' + describe(dKs) + '.');
      for (const dK of dKs) inputs.push(count(dK, 'dKs', 0, 0x7fffffff));
      inputs.splice(1, 0, dKs.length);
      write(inputs);
      const at = M.entropyByDk(heads, head, seed, similarity, mask);
      if (!at) return coreError();
      const r = new Output(M, at);
      const rows = Array.from({ length: r.num() }, () => ({ dK: r.num(), scaled: r.num(), unscaled: r.num() }));
      return { ok: true, rows };
    }

    function project2d(values, outputs) {
      write([matrix(values, 'values'), matrix(outputs, 'outputs')]);
      const at = M.project2d();
      if (!at) return coreError();
      const r = new Output(M, at);
      return { ok: true, mean: r.vec(), axes: r.mat(), variance: r.vec(), totalVariance: r.num(),
        values2d: r.mat(), outputs2d: r.mat(), shown: r.num() };
    }

    function tokenize(source, lexicon) {
      text(source, 'text');
      const at = M.tokenize(source, lexiconId(lexicon));
      return at ? { ok: true, tokens: readTokens(new Output(M, at), source) } : coreError();
    }

    function embed(source, lexicon) {
      text(source, 'text');
      const id = lexiconId(lexicon);
      const at = M.embed(source, id);
      if (!at) return coreError();
      const r = new Output(M, at);
      const tokens = readTokens(r, source);
      const vectors = r.mat();
      const unknown = Array.from(r.arr(tokens.length), (u) => u === 1);
      return { ok: true, tokens, vectors, features: features(id), unknown };
    }

    function parseMatrix(source, inputName) {
      const name = inputName === undefined ? 'matrix' : text(inputName, 'inputName');
      text(source, name);
      const at = M.parseMatrix(source, name);
      return at ? { ok: true, matrix: new Output(M, at).mat() } : coreError();
    }

    function lexiconInfo(lexicon) {
      const id = lexiconId(lexicon);
      const at = M.lexiconVectors(id);
      if (!at) return coreError();
      return { ok: true, features: features(id), words: lines(M.lexiconWords(id)),
        vectors: new Output(M, at).mat() };
    }

    function parseEmbeddings(source) {
      text(source, 'text');
      const id = M.parseEmbeddings(source);
      if (!id) return coreError();
      const words = lines(M.lexiconWords(id));
      return { ok: true, id, words, features: features(id), size: words.length };
    }

    function freeLexicon(lexicon) {
      const id = lexiconId(lexicon);
      featureCache.delete(id);
      return id > 0 && M.freeLexicon(id);
    }

    function exampleSentences(lang) {
      return typeof lang === 'string' ? lines(M.exampleSentences(lang)) : [];
    }

    // --- the fast float32 path (fast_attention.hpp) --------------------------------------------

    const FAST_OPTIONS = ['queries', 'keys', 'values', 'scale', 'temperature', 'mask', 'materialize',
      'out', 'weightsOut'];
    const FAST_MASK = ['none', 'causal'];  // a Uint8Array or boolean[][] is custom, 2

    // A float matrix: {rows, cols, data: Float32Array} is used as it is (no copy into JS);
    // anything else matrix() accepts is converted.
    function floatMatrix(value, input) {
      if (value && value.data instanceof Float32Array && isCount(value.rows) && isCount(value.cols)) {
        if (value.data.length !== value.rows * value.cols) {
          refuse('shape_mismatch', input, input + '.data has ' + value.data.length + ' entries, but ' +
            input + ' is ' + value.rows + '×' + value.cols + ' = ' + value.rows * value.cols + '.');
        }
        return { rows: value.rows, cols: value.cols, data: value.data };
      }
      const m = matrix(value, input);
      const data = new Float32Array(m.rows * m.cols);
      if (m.nested) m.value.forEach((row, i) => data.set(row, i * m.cols));
      else data.set(m.value);
      return { rows: m.rows, cols: m.cols, data };
    }

    function floatBuffer(value, length, input) {
      if (value === undefined) return new Float32Array(length);
      if (!(value instanceof Float32Array) || value.length !== length) {
        refuse('bad_argument', input, input + ' must be a Float32Array of ' + length + ' entries; got ' +
          describe(value) + '.');
      }
      return value;
    }

    // Large inputs, float32, only the output (and the weights if materialize): see the .d.ts.
    function attentionFast(o) {
      options(o, FAST_OPTIONS, 'attentionFast()');
      const q = floatMatrix(o.queries, 'queries'), k = floatMatrix(o.keys, 'keys');
      const v = floatMatrix(o.values, 'values');
      if (q.cols !== k.cols) {
        refuse('shape_mismatch', 'keys', 'queries are ' + q.rows + '×' + q.cols + ' and keys ' + k.rows +
          '×' + k.cols + ': each query and key needs the same length d_k to take a dot product.');
      }
      if (k.rows !== v.rows) {
        refuse('shape_mismatch', 'values', 'keys are ' + k.rows + '×' + k.cols + ' and values ' + v.rows +
          '×' + v.cols + ': there must be one value row for each key row.');
      }
      const n = q.rows, m = k.rows, d = q.cols, dV = v.cols;
      const [scale, temperature] = scaling(o);
      let mask = 0, maskBytes = null;
      if (o.mask instanceof Uint8Array) {
        mask = 2;
        maskBytes = o.mask;
      } else if (typeof o.mask === 'string' || o.mask === undefined) {
        mask = choice(o.mask, FAST_MASK, 'mask', 'none');
      } else {
        mask = 2;
        const b = matrix(o.mask, 'mask', boolean);
        maskBytes = new Uint8Array(b.rows * b.cols);
        if (b.nested) b.value.forEach((row, i) => row.forEach((x, j) => { maskBytes[i * b.cols + j] = x ? 1 : 0; }));
        else b.value.forEach((x, i) => { maskBytes[i] = x ? 1 : 0; });
      }
      if (maskBytes && maskBytes.length !== n * m) {
        refuse('shape_mismatch', 'mask', 'The mask has ' + maskBytes.length + ' entries but there are ' + n +
          ' queries and ' + m + ' keys; it must be ' + n + '×' + m + '.');
      }
      const materialize = o.materialize === true;
      const out = floatBuffer(o.out, n * dV, 'out');
      const weightsOut = materialize ? floatBuffer(o.weightsOut, n * m, 'weightsOut') : null;

      const floats = q.data.length + k.data.length + v.data.length + (maskBytes ? Math.ceil(maskBytes.length / 4) : 0);
      const at = M.fastInput(floats) / 4;
      const heap = M.HEAPF32;  // read after fastInput(), which may have grown the memory
      heap.set(q.data, at);
      heap.set(k.data, at + q.data.length);
      heap.set(v.data, at + q.data.length + k.data.length);
      if (maskBytes) M.HEAPU8.set(maskBytes, (at + q.data.length + k.data.length + v.data.length) * 4);
      const result = M.fastRun(n, m, d, dV, scale, temperature, mask, materialize) / 4;
      if (!result) return coreError();
      const f32 = M.HEAPF32;
      out.set(f32.subarray(result, result + n * dV));
      const r = { ok: true, output: { rows: n, cols: dV, data: out } };
      if (materialize) {
        weightsOut.set(f32.subarray(result + n * dV, result + n * dV + n * m));
        r.weights = { rows: n, cols: m, data: weightsOut };
      }
      return r;
    }

    function memoryStats() {
      const r = new Output(M, M.memoryStats());
      return { heapBytes: r.num(), allocatedBytes: r.num() };
    }

    // Every argument error comes back as a value. Anything else is a bug or the wasm memory
    // running out: reported as code "internal_error" (after that the engine may be unusable).
    function guarded(f) {
      return function () {
        try {
          return f.apply(null, arguments);
        } catch (e) {
          if (e instanceof Refusal) return { ok: false, error: e.error };
          return { ok: false, error: { code: 'internal_error', message: 'The engine failed: ' + e +
            '. Reload the page to start it again.', input: '', row: -1, col: -1 } };
        }
      };
    }

    return Object.freeze({
      attention: guarded(attention),
      explainCell: guarded(explainCell),
      explainOutput: guarded(explainOutput),
      difference: guarded(difference),
      multiHead: guarded(multiHead),
      explainProjection: guarded(explainProjection),
      entropyByDk: guarded(entropyByDk),
      project2d: guarded(project2d),
      tokenize: guarded(tokenize),
      embed: guarded(embed),
      parseMatrix: guarded(parseMatrix),
      parseEmbeddings: guarded(parseEmbeddings),
      freeLexicon: guarded(freeLexicon),
      lexiconInfo: guarded(lexiconInfo),
      exampleSentences: guarded(exampleSentences),
      memoryStats: guarded(memoryStats),
      attentionFast: guarded(attentionFast),
      limits,
    });
  }

  // Reads a result written by bindings.cpp: [length, fields…]. The whole result is copied out of
  // the heap with one slice, and every array handed out is a view into that JS-owned copy: one
  // allocation per call instead of one per array (each costs about 0.5 µs in V8).
  class Output {
    constructor(M, address) {
      const heap = M.HEAPF64;  // the call that wrote the result may have grown the memory
      const at = address / 8;
      this.all = heap.slice(at + 1, at + 1 + heap[at]);
      this.p = 0;
    }
    num() { return this.all[this.p++]; }
    arr(length) {
      const a = new Float64Array(this.all.buffer, this.p * 8, length);
      this.p += length;
      return a;
    }
    vec() { return this.arr(this.num()); }
    mat() {
      const rows = this.num(), cols = this.num();
      return { rows, cols, data: this.arr(rows * cols) };
    }
    bits() {  // a mask: one byte per entry, eight to a double (stream.hpp)
      const rows = this.num(), cols = this.num();
      const data = new Uint8Array(this.all.buffer, this.p * 8, rows * cols);
      this.p += Math.ceil(rows * cols / 8);
      return { rows, cols, data };
    }
  }

  return function createAttentionEngine() {
    return createModule().then(makeEngine);
  };
})(createAttentionEngine);
if (typeof module === 'object' && module.exports) module.exports = createAttentionEngine;
