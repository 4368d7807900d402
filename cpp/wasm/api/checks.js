// Argument checks: a wrong argument is refused with {code, message, input, row, col}, thrown as a
// Refusal and returned as {ok: false, error} at the API boundary (engine.js, guarded).

export class Refusal {
  constructor(error) {
    this.error = error;
  }
}

// instanceof asks a Proxy's getPrototypeOf trap, which may throw: a thrown Proxy is neither.
function is(x, type) {
  try {
    return x instanceof type;
  } catch {
    return false;
  }
}

export function refuse(code, input, message, row = -1, col = -1) {
  throw new Refusal({ code, message, input, row, col });
}

// An error of the API's own as a value: a failed call that names no row or column.
export const failure = (code, input, message) => ({ ok: false, error: { code, message, input, row: -1, col: -1 } });

// A value of the caller's in a message. Array.isArray throws for a revoked Proxy: describing it
// must not throw in turn.
export function describe(x) {
  if (x === null) return 'null';
  if (typeof x === 'string') return 'the text "' + (x.length > 20 ? x.slice(0, 20) + '…' : x) + '"';
  if (typeof x === 'function') return 'a function';
  if (typeof x !== 'object') return String(x);
  let array;
  try {
    array = Array.isArray(x);
  } catch {}
  return array ? 'an array' : 'an object';
}

export const isCount = (x) => Number.isInteger(x) && x >= 0;

// What a getter or a Proxy of the caller's threw, for a message. Anything can be thrown: a Symbol
// (which String() names but `+` refuses), a Proxy whose every trap throws, an Error whose message
// is a getter; describing it must not throw again.
export function thrown(x) {
  try {
    return String(is(x, Error) ? x.message : x);
  } catch {
    return 'an exception';
  }
}

// A throw while reading the caller's own objects is their argument's fault, not the engine's:
// refused as bad_argument naming the field, instead of "the engine failed".
export function readFailed(x, input) {
  if (is(x, Refusal)) throw x;
  refuse('bad_argument', input, 'reading `' + input + '` threw: ' + thrown(x) + '.');
}

// An object of options, with no key outside `allowed`: returned as a plain copy of the allowed
// keys, read once here (inherited ones too), so no getter of the caller's runs later.
export function options(o, allowed, what) {
  let key = 'options';
  const copy = {};
  try {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) {
      refuse('bad_argument', 'options', what + ' takes an object of options; got ' + describe(o) + '.');
    }
    for (key of Object.keys(o)) {
      if (!allowed.includes(key)) {
        refuse('bad_argument', key, what + ': unknown option "' + key + '"; the options are ' + allowed.join(', ') + '.');
      }
    }
    for (key of allowed) {
      const value = o[key];
      if (value !== undefined) copy[key] = value;
    }
  } catch (x) {
    readFailed(x, key);
  }
  return copy;
}

// The option strings of the core's enums, each at its enumerator's index, from the lines the
// bindings write, "key name name …" (convert_common.cpp, enum_names; trainer_bindings.cpp,
// attn_names): {similarity: ['dot', 'cosine'], …}.
export function parseNames(lines) {
  const names = {};
  for (const line of lines.split('\n')) {
    const [key, ...list] = line.split(' ');
    if (key) names[key] = list;
  }
  return names;
}

// One of an enum's option strings, as its index in `names` (the enum's names in enum order, from
// the core: engine.js). `accepted` are the strings a caller may give, when not all of them.
export function choice(value, names, input, fallback, accepted = names) {
  if (value === undefined) return names.indexOf(fallback);
  if (!accepted.includes(value)) {
    refuse(
      'bad_argument',
      input,
      input + ' must be ' + accepted.map((s) => '"' + s + '"').join(' or ') + '; got ' + describe(value) + '.',
    );
  }
  return names.indexOf(value);
}

export function count(value, input, fallback, max) {
  if (value === undefined) return fallback;
  if (!isCount(value) || value > max) {
    refuse('bad_argument', input, input + ' must be a whole number from 0 to ' + max + '; got ' + describe(value) + '.');
  }
  return value;
}

export function index(value, input) {
  if (!isCount(value) || value > 0xffffffff) {
    refuse('bad_argument', input, input + ' must be a whole number ≥ 0; got ' + describe(value) + '.');
  }
  return value;
}

// The scaling and its temperature, as [scale, temperature]. Only the type is checked here:
// whether the temperature is above 0 and finite is the core's to say (check_temperature).
export function scaling(e, o) {
  const scale = choice(o.scale, e.names.scale, 'scale', 'sqrt');
  let temperature = 1;
  if (e.names.scale[scale] === 'temperature' || o.temperature !== undefined) {
    if (typeof o.temperature !== 'number') {
      refuse('bad_argument', 'temperature', 'temperature must be a number above 0; got ' + describe(o.temperature) + '.');
    }
    temperature = o.temperature;
  }
  return [scale, temperature];
}

// Half of a surrogate pair has no UTF-8 form (Emscripten's encoder would merge it with the next
// character): refused with its line and column in UTF-16 code units, as the core counts.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function text(value, input) {
  if (typeof value !== 'string') {
    refuse('bad_argument', input, input + ' must be a string; got ' + describe(value) + '.');
  }
  if (typeof value.isWellFormed === 'function' ? !value.isWellFormed() : LONE_SURROGATE.test(value)) {
    const at = LONE_SURROGATE.exec(value).index;
    const lineStart = value.lastIndexOf('\n', at - 1) + 1;
    let line = 0;
    for (let k = value.indexOf('\n'); k >= 0 && k < at; k = value.indexOf('\n', k + 1)) line++;
    const col = at - lineStart;
    const code = value.charCodeAt(at).toString(16).toUpperCase();
    refuse(
      'parse_error',
      input,
      input +
        ': line ' +
        (line + 1) +
        ', column ' +
        (col + 1) +
        ' holds half of a character (a lone UTF-16 surrogate, U+' +
        code +
        '); the text was ' +
        'probably cut in the middle of an emoji.',
      line,
      col,
    );
  }
  return value;
}

// A JS string of L code units is L to 3·L bytes of UTF-8 (a surrogate pair is 2 units and 4
// bytes). Text is measured here, before Embind copies it into the heap, so that a text above the
// core's limit never grows the wasm memory, which cannot shrink again.
const encoder = new TextEncoder();
const slice = new Uint8Array(3 << 14);

// The UTF-8 length of well-formed text, encoded a slice at a time into one small buffer:
// about 2.5 ns a character, and nothing of the text's size is allocated.
function utf8Length(s) {
  let bytes = 0;
  for (let i = 0; i < s.length;) {
    let j = Math.min(s.length, i + slice.length / 3);
    const last = s.charCodeAt(j - 1);
    if (j < s.length && last >= 0xd800 && last <= 0xdbff) j--; // keep a pair together
    bytes += encoder.encodeInto(s.substring(i, j), slice).written;
    i = j;
  }
  return bytes;
}

// The text's size in UTF-8 if it is above `limit` bytes, else 0. Up to limit / 3 code units it
// cannot be, so the text the page types is never measured; above that it is measured exactly,
// even when its length alone is above the limit, because the core's message gives the bytes.
export function bytesAbove(s, limit) {
  if (s.length * 3 <= limit) return 0;
  const bytes = utf8Length(s);
  return bytes > limit ? bytes : 0;
}

// Whether the call under way is still reading its arguments: set by guard(), cleared by
// resultsRead() when the first result comes back from the wasm. Only the caller's own objects run
// code of theirs while arguments are read (a getter, a Proxy's trap, a revoked Proxy, a valueOf),
// so what is thrown then is the argument's fault; after it, a throw is the API's own failure.
let reading = false;

export function resultsRead() {
  reading = false;
}

// The one guard of every entry point of the engine (engine.js) and the trainer (trainer-api.js):
// f(a, b, c, d) (no entry point takes more), with anything it throws as {ok: false, error}:
//   a Refusal                        its error (the checks' and the core's words)
//   a trap of the wasm               stopped(x) (an abort, most likely memory exhausted)
//   anything else, reading arguments bad_argument, input "arguments", saying what was thrown
//   anything else, after             failed(x), an internal_error
// after(), when given, runs after every call.
export function guard(f, stopped, failed, after) {
  return function (a, b, c, d) {
    const outer = reading; // a getter of the caller's may call the API again
    reading = true;
    try {
      return f(a, b, c, d);
    } catch (x) {
      if (is(x, WebAssembly.RuntimeError)) return stopped(x);
      if (!reading && !is(x, Refusal)) return failed(x);
      try {
        readFailed(x, 'arguments');
      } catch (refusal) {
        return { ok: false, error: refusal.error };
      }
    } finally {
      reading = outer;
      if (after) after();
    }
  };
}
