// Argument checks: a wrong argument is refused with {code, message, input, row, col}, thrown as a
// Refusal and returned as {ok: false, error} at the API boundary (engine.js, guarded).

export class Refusal {
  constructor(error) {
    this.error = error;
  }
}

export function refuse(code, input, message, row = -1, col = -1) {
  throw new Refusal({ code, message, input, row, col });
}

export function describe(x) {
  if (x === null) return 'null';
  if (Array.isArray(x)) return 'an array';
  if (typeof x === 'string') return 'the text "' + (x.length > 20 ? x.slice(0, 20) + '…' : x) + '"';
  if (typeof x === 'function') return 'a function';
  return typeof x === 'object' ? 'an object' : String(x);
}

export const isCount = (x) => Number.isInteger(x) && x >= 0;

// An object of options, with no key outside `allowed`.
export function options(o, allowed, what) {
  if (o === null || typeof o !== 'object' || Array.isArray(o)) {
    refuse('bad_argument', 'options', what + ' takes an object of options; got ' + describe(o) + '.');
  }
  for (const key of Object.keys(o)) {
    if (!allowed.includes(key)) {
      refuse('bad_argument', key, what + ': unknown option "' + key + '"; the options are ' + allowed.join(', ') + '.');
    }
  }
  return o;
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
