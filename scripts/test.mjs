#!/usr/bin/env node
// Runs every test suite and ends with one line over all of them: "N passed, N failed".
//   native     the Catch2 suite, built natively                (ctest, build/native)
//   sanitize   the same suite under ASan + UBSan                (ctest, build/sanitize)
//   wasm       the same suite compiled to wasm, run by node    (ctest, build/wasm)
//   fuzz       each libFuzzer target on its past crashes, then for FUZZ_SECONDS (default 45)
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
    return { passed: total - failed - attr('skipped') - attr('disabled'), failed: r.status && !failed ? 1 : failed };
  };
}

// node's built-in runner with its TAP summary ("# pass N", "# fail N"). `alone`: the files that
// measure time (tasks, clicks, training speed) or hold the machine for long, run one at a time
// after the others; the rest run `concurrency` files at a time, each with its own server and
// browser, since most of their time is spent waiting on the page.
function nodeSuite(dir, { concurrency = 1, alone = [] } = {}) {
  return () => {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.test\.m?js$/.test(f)).sort() : [];
    if (files.length === 0) return { passed: 0, failed: 0, note: 'no tests yet' };
    const groups = [
      [files.filter((f) => !alone.includes(f)), concurrency],
      [files.filter((f) => alone.includes(f)), 1],
    ].filter(([list]) => list.length);
    let passed = 0, failed = 0;
    for (const [list, n] of groups) {
      const r = run(process.execPath, ['--test', '--test-reporter=tap', `--test-concurrency=${n}`,
        ...list.map((f) => join(dir, f))]);
      const count = (key) => Number((r.stdout.match(new RegExp(`^# ${key} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
      const p = count('pass'), f = count('fail') + count('cancelled');
      passed += p;
      failed += r.status && !f ? 1 : f;
    }
    return { passed, failed };
  };
}

// libFuzzer: every saved crash (tests/fuzz/regressions/<target>/) must now run clean, and a
// bounded run from the committed seed corpus must find nothing new. Two targets run at a time.
function fuzzSuite() {
  const bin = 'build/fuzz/tests/fuzz';
  const targets = ['matrix', 'embeddings', 'tokenizer', 'attention'];
  if (!existsSync(join(bin, 'fuzz_attention'))) return { passed: 0, failed: 1, note: 'build/fuzz is not built' };
  const seconds = Number(process.env.FUZZ_SECONDS ?? 45);
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
    const scratch = join(root, 'build/fuzz/corpus', target);
    rmSync(scratch, { recursive: true, force: true });
    cpSync(join('tests/fuzz/corpus', target), scratch, { recursive: true });
    runs.push({ target, args: [`-max_total_time=${seconds}`, '-max_len=4096', '-timeout=10',
      '-rss_limit_mb=2048', `-artifact_prefix=${join(root, 'build/fuzz')}/crash-${target}-`, scratch] });
  }
  return { runs, passed, failed };
}

async function runFuzz() {
  const { runs, passed: p0, failed: f0, note } = fuzzSuite();
  if (!runs) return { passed: p0, failed: f0, note };
  let passed = p0, failed = f0;
  const { spawn } = await import('node:child_process');
  const one = ({ target, args }) => new Promise((resolve) => {
    const child = spawn(join('build/fuzz/tests/fuzz', `fuzz_${target}`), args, { stdio: ['ignore', 'ignore', 'pipe'] });
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

const suites = {
  format: formatSuite,
  native: ctestSuite('build/native'),
  sanitize: ctestSuite('build/sanitize'),
  wasm: ctestSuite('build/wasm'),
  fuzz: runFuzz,
  js: nodeSuite('tests/js'),
  e2e: nodeSuite('tests/e2e', {
    concurrency: 2,
    alone: ['blog-load.test.mjs', 'learn.test.mjs', 'learn-runs.test.mjs', 'page-cost.test.mjs', 'page-persist.test.mjs', 'soak.test.mjs'],
  }),
};

const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(suites);
let passed = 0, failed = 0;
const lines = [];
for (const name of chosen) {
  if (!suites[name]) { console.error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`); process.exit(2); }
  const started = Date.now();
  const r = await suites[name]();
  passed += r.passed; failed += r.failed;
  lines.push(`${name.padEnd(9)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(3)} failed` +
    `  ${((Date.now() - started) / 1000).toFixed(1)}s${r.note ? '  (' + r.note + ')' : ''}`);
}
console.log('\n' + lines.join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
