#!/usr/bin/env node
// Runs every test suite, prints a line per suite, and ends with what was tested: the distinct
// behaviours (a Catch2 case run natively, under the sanitizers and as wasm counts once) and, counted
// apart, the checks of the repository's structure, with what was skipped; the last line is
// "tests: N passed, N failed", the form CI tools read.
//   native     the Catch2 suite, built natively                (ctest, build/native)
//   sanitize   the same suite under ASan + UBSan                (ctest, build/sanitize)
//   wasm       the same suite compiled to wasm, run by node    (ctest, build/wasm)
//   fuzz       each libFuzzer target on its past crashes, then for FUZZ_SECONDS (default 20)
//   js         the engine's JS API under node                   (node --test, tests/js)
//   e2e        the built page in real Chromium                  (node --test, tests/e2e)
//   format     every C++, TypeScript and API file as its formatter writes it (scripts/format.sh)
// Usage: node scripts/test.mjs [suite …]   (default: all). Builds are done by scripts/build.sh.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, mkdirSync, cpSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
mkdirSync('build/test-results', { recursive: true });

function run(cmd, args, options = {}) {
  console.log(`\n$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8',
    maxBuffer: 1 << 28, ...options });
  process.stdout.write(r.stdout ?? '');
  return { status: r.status ?? 1, stdout: r.stdout ?? '' };
}

const unescapeXml = (s) => s.replace(/&(lt|gt|quot|apos|amp);/g, (_, e) => ({ lt: '<', gt: '>', quot: '"', apos: "'", amp: '&' })[e]);

// ctest with a JUnit report: counts come from the report, not from scraping the console.
function ctestSuite(buildDir) {
  return () => {
    if (!existsSync(join(buildDir, 'CTestTestfile.cmake'))) {
      return { passed: 0, failed: 1, note: `${buildDir} is not built` };
    }
    const report = join(root, 'build/test-results', `${buildDir.replace(/\W/g, '_')}.xml`);
    const r = run('ctest', ['--test-dir', buildDir, '--output-on-failure', '-j', '2',
      '--timeout', '600', '--output-junit', report]);
    if (!existsSync(report)) return { passed: 0, failed: 1, note: 'no report' };
    const xml = readFileSync(report, 'utf8');
    const attr = (name) => Number((xml.match(new RegExp(`<testsuite[^>]*\\b${name}="(\\d+)"`)) ?? [])[1] ?? 0);
    const total = attr('tests'), failed = attr('failures') + attr('errors');
    if (total === 0) return { passed: 0, failed: 1, note: 'no tests ran' };
    // Each case by name, and whether it passed: a case is one behaviour, however many builds run it.
    const cases = new Map();
    for (const m of xml.matchAll(/<testcase name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g)) {
      cases.set(unescapeXml(m[1]), !/<(failure|error)\b/.test(m[3] ?? ''));
    }
    const skipped = attr('skipped') + attr('disabled');
    return { passed: total - failed - skipped, failed: r.status && !failed ? 1 : failed, skipped, cases };
  };
}

// node's built-in runner with its TAP summary ("# pass N", "# fail N"). `alone`: the files that
// measure time (tasks, clicks, training speed) or hold the machine for long, run one at a time
// after the others; the rest run `concurrency` files at a time, each with its own server and
// browser, since most of their time is spent waiting on the page. `structure`: the files that
// check the repository rather than a behaviour, run as a group of their own to be counted apart.
function nodeSuite(dir, { concurrency = 1, alone = [], structure = [] } = {}) {
  return () => {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.test\.m?js$/.test(f)).sort() : [];
    if (files.length === 0) return { passed: 0, failed: 0, note: 'no tests yet' };
    const groups = [
      [files.filter((f) => !alone.includes(f) && !structure.includes(f)), concurrency, false],
      [files.filter((f) => alone.includes(f)), 1, false],
      [files.filter((f) => structure.includes(f)), concurrency, true],
    ].filter(([list]) => list.length);
    let passed = 0, failed = 0, skipped = 0;
    const checks = { passed: 0, failed: 0 };
    for (const [list, n, isStructure] of groups) {
      const r = run(process.execPath, ['--test', '--test-reporter=tap', `--test-concurrency=${n}`,
        ...list.map((f) => join(dir, f))]);
      const count = (key) => Number((r.stdout.match(new RegExp(`^# ${key} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
      const p = count('pass'), f = count('fail') + count('cancelled');
      skipped += count('skipped') + count('todo');
      passed += p;
      failed += r.status && !f ? 1 : f;
      if (isStructure) {
        checks.passed += p;
        checks.failed += r.status && !f ? 1 : f;
      }
    }
    return { passed, failed, skipped, structure: checks };
  };
}

// libFuzzer: every saved crash (tests/fuzz/regressions/<target>/) must now run clean, and a
// bounded run from the committed seed corpus must find nothing new. Two targets run at a time.
const FUZZ_BUILD = 'build/sanitize'; // the fuzz targets are built beside the sanitized tests
const FUZZ_BIN = join(FUZZ_BUILD, 'tests/fuzz');

function fuzzSuite() {
  const bin = FUZZ_BIN;
  const targets = ['matrix', 'embeddings', 'vectors', 'tokenizer', 'safetensors', 'checkpoint_files', 'language_model',
    'attention'];
  // A whole checkpoint (a model, its config and its tokenizer) does not fit the others' 4 KB.
  const maxLen = { language_model: 16384 };
  if (!existsSync(join(bin, 'fuzz_attention'))) return { passed: 0, failed: 1, note: `${bin} is not built (clang)` };
  const seconds = Number(process.env.FUZZ_SECONDS ?? 20);
  let passed = 0, failed = 0;
  const runs = [];
  for (const target of targets) {
    const regressions = join('tests/fuzz/regressions', target);
    const files = existsSync(regressions) ? readdirSync(regressions).map((f) => join(regressions, f)) : [];
    for (const file of files) {
      const r = spawnSync(join(bin, `fuzz_${target}`), [file], { encoding: 'utf8' });
      console.log(`${r.status === 0 ? 'ok' : 'FAILED'}  fuzz_${target} regression ${file}`);
      if (r.status === 0) passed++; else { failed++; console.log(r.stderr); }
    }
    // A scratch copy of the corpus: what the fuzzer adds must not dirty the repository.
    const scratch = join(root, FUZZ_BUILD, 'fuzz-corpus', target);
    rmSync(scratch, { recursive: true, force: true });
    cpSync(join('tests/fuzz/corpus', target), scratch, { recursive: true });
    runs.push({ target, args: [`-max_total_time=${seconds}`, `-max_len=${maxLen[target] ?? 4096}`, '-timeout=10',
      '-rss_limit_mb=2048', `-artifact_prefix=${join(root, FUZZ_BUILD)}/fuzz-crash-${target}-`, scratch] });
  }
  return { runs, passed, failed };
}

async function runFuzz() {
  const { runs, passed: p0, failed: f0, note } = fuzzSuite();
  if (!runs) return { passed: p0, failed: f0, note };
  let passed = p0, failed = f0;
  const { spawn } = await import('node:child_process');
  const one = ({ target, args }) => new Promise((resolve) => {
    const child = spawn(join(FUZZ_BIN, `fuzz_${target}`), args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => { err += d; if (err.length > 1 << 20) err = err.slice(-(1 << 19)); });
    child.on('close', (code) => {
      const done = (err.match(/Done (\d+) runs in (\d+) second/) ?? []);
      console.log(`${code === 0 ? 'ok' : 'FAILED'}  fuzz_${target}: ${done[1] ?? '?'} runs in ${done[2] ?? '?'} s`);
      if (code === 0) passed++; else { failed++; console.log(err.slice(-4000)); }
      resolve();
    });
  });
  for (let i = 0; i < runs.length; i += 2) await Promise.all(runs.slice(i, i + 2).map(one));
  return { passed, failed };
}

// One check: the formatters would change nothing.
function formatSuite() {
  const r = run('bash', ['scripts/format.sh', '--check']);
  return r.status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1, note: 'run bash scripts/format.sh' };
}

// The node test files that check the repository (its layout, sizes, README, setup) rather than
// what the engine or the page does; with the format check they are counted apart.
const STRUCTURE = ['architecture.test.mjs', 'api-sources.test.mjs', 'size.test.mjs', 'readme.test.mjs', 'setup.test.mjs'];

const suites = {
  format: formatSuite,
  native: ctestSuite('build/native'),
  sanitize: ctestSuite('build/sanitize'),
  wasm: ctestSuite('build/wasm'),
  fuzz: runFuzz,
  js: nodeSuite('tests/js', { concurrency: 2, structure: STRUCTURE }),
  e2e: nodeSuite('tests/e2e', {
    concurrency: 2,
    alone: ['blog-load.test.mjs', 'learn.test.mjs', 'learn-runs.test.mjs', 'page-cost.test.mjs', 'random-edits.test.mjs', 'soak.test.mjs'],
  }),
};

const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(suites);
let passed = 0, failed = 0;
const lines = [];
const results = {};
for (const name of chosen) {
  if (!suites[name]) { console.error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`); process.exit(2); }
  const started = Date.now();
  const r = await suites[name]();
  results[name] = r;
  passed += r.passed; failed += r.failed;
  lines.push(`${name.padEnd(9)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(3)} failed` +
    `  ${((Date.now() - started) / 1000).toFixed(1)}s${r.note ? '  (' + r.note + ')' : ''}`);
}
console.log('\n' + lines.join('\n'));
console.log('\n' + summary(results).join('\n'));
process.exit(failed ? 1 : 0);

/**
 * What the runs tested: each Catch2 case once (failed if it failed in any build), the node and
 * browser tests of behaviour, the fuzz checks, and apart from them the structure checks.
 */
function summary(results) {
  const out = [];
  const builds = [['native', 'natively'], ['sanitize', 'under sanitizers'], ['wasm', 'as wasm']].filter(([n]) => results[n]);
  const cases = new Map();
  let behaviours = { passed: 0, failed: 0 };
  const add = (p, f) => { behaviours = { passed: behaviours.passed + p, failed: behaviours.failed + f }; };
  for (const [n] of builds) {
    const r = results[n];
    let failedCases = 0;
    for (const [name, ok] of r.cases ?? []) {
      cases.set(name, (cases.get(name) ?? true) && ok);
      if (!ok) failedCases++;
    }
    add(0, Math.max(0, r.failed - failedCases)); // a build that did not run, or a crash outside a case
  }
  const good = [...cases.values()].filter(Boolean).length;
  add(good, cases.size - good);
  const parts = [];
  if (builds.length) {
    const ways = builds.map(([, how]) => how);
    const said = ways.length > 1 ? ways.slice(0, -1).join(', ') + ' and ' + ways.at(-1) : ways[0];
    parts.push(`${cases.size} Catch2 cases, each run ${said}`);
  }
  const apart = { passed: 0, failed: 0 };
  for (const [n, what] of [['js', 'node tests of the engine and the page\'s modules'], ['e2e', 'browser tests of the page']]) {
    const r = results[n];
    if (!r) continue;
    const s = r.structure ?? { passed: 0, failed: 0 };
    apart.passed += s.passed; apart.failed += s.failed;
    add(r.passed - s.passed, r.failed - s.failed);
    parts.push(`${r.passed - s.passed + r.failed - s.failed} ${what}`);
  }
  if (results.fuzz) {
    add(results.fuzz.passed, results.fuzz.failed);
    parts.push(`${results.fuzz.passed + results.fuzz.failed} fuzz checks (past crashes and bounded runs)`);
  }
  if (results.format) { apart.passed += results.format.passed; apart.failed += results.format.failed; }
  if (parts.length) out.push(`Behaviours: ${parts.join('; ')}.`);
  const total = apart.passed + apart.failed;
  if (total) out.push(`Counted apart: ${total} structure checks (architecture, API sources, format, size, README, setup).`);
  const skipped = Object.values(results).reduce((n, r) => n + (r.skipped ?? 0), 0);
  out.push(`${behaviours.passed} behaviours and ${apart.passed} structure checks passed, ` +
    `${behaviours.failed + apart.failed} failed, ${skipped} skipped (${passed + failed} runs in all).`);
  // The line CI tools read: the same counts, in the form they parse.
  out.push(`tests: ${behaviours.passed + apart.passed} passed, ${behaviours.failed + apart.failed} failed`);
  return out;
}
