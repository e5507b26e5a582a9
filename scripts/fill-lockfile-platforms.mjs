#!/usr/bin/env node
// The registry this project installs from carries only this platform's builds of some native
// packages (biome, rollup). npm then leaves their other-platform optional dependencies out of
// package-lock.json, and `npm ci` refuses the lock ("Missing: ... from lock file"). This adds an
// entry for each such package, with the os/cpu/libc its name states, so `npm ci` validates and
// skips them on this platform without fetching. Run it after `npm install` changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const CPUS = new Set(['arm64', 'x64', 'arm', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x']);
const platformOf = (name) => {
  const [os, cpu, ...abi] = name
    .split('/')
    .at(-1)
    .replace(/^(cli|rollup)-/, '')
    .split('-');
  if (!CPUS.has(cpu)) throw new Error(`cannot tell the platform of ${name}`);
  const libc = abi.join('-').includes('musl') ? 'musl' : os === 'linux' ? 'glibc' : undefined;
  return { os, cpu, libc };
};

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
/**
 * Whether the lock holds `name` where Node would find it from `parent`: in the node_modules of
 * `parent` or of any package enclosing it (a bundled dependency of aws-cdk-lib sits in its own).
 */
const installed = (parent, name) => {
  for (let dir = parent; dir; ) {
    if (lock.packages[`${dir}/node_modules/${name}`]) return true;
    const at = dir.lastIndexOf('/node_modules/');
    dir = at < 0 ? '' : dir.slice(0, at);
  }
  return Boolean(lock.packages[`node_modules/${name}`]);
};
let added = 0;
for (const [parent, meta] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(meta.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (installed(parent, name)) continue;
    const { os, cpu, libc } = platformOf(name);
    lock.packages[key] = {
      version,
      cpu: [cpu],
      ...(meta.dev && { dev: true }),
      ...(libc && { libc: [libc] }),
      optional: true,
      os: [os],
    };
    added += 1;
  }
}
// npm orders entries with localeCompare in 'en'; any other order and `npm install` rewrites the lock.
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} optional platform entr${added === 1 ? 'y' : 'ies'} added`);
