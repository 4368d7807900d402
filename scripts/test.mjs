#!/usr/bin/env node
// Runs every test suite and ends with one line over all of them: "N passed, N failed".
//   native     the Catch2 suite, built natively                (ctest, build/native)
//   sanitize   the same suite under ASan + UBSan                (ctest, build/sanitize)
//   wasm       the same suite compiled to wasm, run by node    (ctest, build/wasm)
//   js         the engine's JS API under node                   (node --test, tests/js)
//   e2e        the built page in real Chromium                  (node --test, tests/e2e)
// Usage: node scripts/test.mjs [suite …]   (default: all). Builds are done by scripts/build.sh.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, mkdirSync } from 'node:fs';
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

// node's built-in runner with its TAP summary ("# pass N", "# fail N").
function nodeSuite(dir) {
  return () => {
    const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.test\.m?js$/.test(f)).sort() : [];
    if (files.length === 0) return { passed: 0, failed: 0, note: 'no tests yet' };
    const r = run(process.execPath, ['--test', '--test-reporter=tap', '--test-concurrency=1',
      ...files.map((f) => join(dir, f))]);
    const count = (key) => Number((r.stdout.match(new RegExp(`^# ${key} (\\d+)$`, 'm')) ?? [])[1] ?? 0);
    const passed = count('pass'), failed = count('fail') + count('cancelled');
    return { passed, failed: r.status && !failed ? 1 : failed };
  };
}

const suites = {
  native: ctestSuite('build/native'),
  sanitize: ctestSuite('build/sanitize'),
  wasm: ctestSuite('build/wasm'),
  js: nodeSuite('tests/js'),
  e2e: nodeSuite('tests/e2e'),
};

const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(suites);
let passed = 0, failed = 0;
const lines = [];
for (const name of chosen) {
  if (!suites[name]) { console.error(`unknown suite ${name}; known: ${Object.keys(suites).join(', ')}`); process.exit(2); }
  const started = Date.now();
  const r = suites[name]();
  passed += r.passed; failed += r.failed;
  lines.push(`${name.padEnd(9)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(3)} failed` +
    `  ${((Date.now() - started) / 1000).toFixed(1)}s${r.note ? '  (' + r.note + ')' : ''}`);
}
console.log('\n' + lines.join('\n'));
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
