// scripts/setup.sh is what makes `npm start` and `npm test` work on a fresh Debian 12: every
// Debian package the builds need must be in its list, proved installed by a file that package
// ships, and README must name the same packages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync,
  utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './engine-helpers.mjs';

/** setup.sh's `need` table: package → the glob pattern of a file that proves it installed. */
function needTable() {
  const script = readFileSync(join(root, 'scripts', 'setup.sh'), 'utf8');
  const block = script.match(/declare -A need=\(\n([\s\S]*?)\n\)/);
  assert.ok(block, 'setup.sh declares its need table');
  const need = new Map();
  for (const line of block[1].split('\n')) {
    const entry = line.match(/^\s*\[([^\]]+)\]=('?)([^'\s]+)\2\s*$/);
    if (entry) need.set(entry[1], entry[3]);
  }
  assert.ok(need.size >= 5, `${need.size} packages`);
  return need;
}

/** The Debian package that ships `path`, as dpkg knows it (without the :arch suffix). */
function owner(path) {
  const r = spawnSync('dpkg', ['-S', path], { encoding: 'utf8' });
  assert.equal(r.status, 0, `dpkg -S ${path}: ${r.stderr}`);
  return r.stdout.split(':')[0];
}

/** The files a glob pattern matches, as bash's compgen (setup.sh's own check) finds them. */
function matches(pattern) {
  const r = spawnSync('bash', ['-c', 'compgen -G "$1"', 'bash', pattern], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim().split('\n') : [];
}

test('README names the Debian packages setup.sh installs', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const listed = readme.match(/installs the Debian packages that are missing\s*\(`([^`]+)`\)/);
  assert.ok(listed, 'README lists the packages setup.sh installs');
  assert.deepEqual(listed[1].split(/\s+/).sort(), [...needTable().keys()].sort());
});

test('each file setup.sh checks is shipped by the package it installs', () => {
  for (const [pkg, pattern] of needTable()) {
    const files = matches(pattern);
    assert.ok(files.length > 0, `${pattern} (from ${pkg}) is not on this machine`);
    // xtensor-dev is the name apt knows; its headers come in libxtensor-dev.
    const expected = pkg === 'xtensor-dev' ? /^(lib)?xtensor-dev$/ : new RegExp(`^${pkg.replace(/\+/g, '\\+')}$`);
    assert.match(owner(files[0]), expected, `${files[0]}`);
  }
});

test('the sanitizer and fuzzer runtimes that clang links come from a package setup.sh installs', () => {
  const packages = new Set(needTable().keys());
  for (const runtime of ['libclang_rt.asan-x86_64.a', 'libclang_rt.ubsan_standalone-x86_64.a',
    'libclang_rt.fuzzer-x86_64.a']) {
    const r = spawnSync('clang++', [`-print-file-name=${runtime}`], { encoding: 'utf8' });
    const path = r.stdout.trim();
    assert.ok(path.startsWith('/'), `clang++ does not know where ${runtime} is`);
    const pkg = owner(path);
    assert.ok(packages.has(pkg), `${runtime} comes from ${pkg}, which setup.sh does not install`);
  }
});

test('a node_modules that links to another checkout is left as it is', () => {
  const dir = mkdtempSync(join(tmpdir(), 'setup-'));
  try {
    mkdirSync(join(dir, 'scripts'));
    copyFileSync(join(root, 'scripts', 'setup.sh'), join(dir, 'scripts', 'setup.sh'));
    mkdirSync(join(dir, 'shared'));
    writeFileSync(join(dir, 'shared', 'kept.txt'), 'the other checkout\'s packages');
    symlinkSync(join(dir, 'shared'), join(dir, 'node_modules'));
    // A lock file newer than the packages: what a fresh checkout next to shared packages has.
    writeFileSync(join(dir, 'package-lock.json'), '{}');
    utimesSync(join(dir, 'shared'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    const r = spawnSync('bash', [join(dir, 'scripts', 'setup.sh')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /node_modules links to .*shared; install npm packages there/);
    assert.ok(existsSync(join(dir, 'shared', 'kept.txt')), 'the linked packages are still there');
    assert.ok(lstatSync(join(dir, 'node_modules')).isSymbolicLink());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
