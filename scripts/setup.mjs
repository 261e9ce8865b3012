#!/usr/bin/env node
// Installs what the project needs and is missing, so that `npm start`, `npm test` and
// `npm run bench` work on a fresh Debian machine that has only Node.
//
//   node scripts/setup.mjs --for start   npm packages only (the browser brings its own WebGPU)
//   node scripts/setup.mjs --for test    npm packages, a Vulkan driver for Dawn, Debian's chromium and redis-server
//   node scripts/setup.mjs --for bench   npm packages, a Vulkan driver for Dawn and redis-server
//
// Only Node built-ins are used here: this runs before `npm install`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const purpose = process.argv[process.argv.indexOf('--for') + 1] ?? 'test';
const isRoot = process.getuid?.() === 0;

// Runtime libraries of Mesa's lavapipe (mesa-vulkan-drivers 25 from bookworm-backports) and the
// Vulkan loader Dawn opens. All of them are plain bookworm packages.
const VULKAN_PACKAGES = [
  'libvulkan1', 'libllvm15', 'libdrm2', 'libdrm-amdgpu1', 'libelf1', 'libexpat1', 'libwayland-client0',
  'libx11-xcb1', 'libxcb-dri3-0', 'libxcb-present0', 'libxcb-randr0', 'libxcb-shm0', 'libxcb-sync1',
  'libxcb-xfixes0', 'libxcb1', 'libxshmfence1', 'libzstd1', 'zlib1g',
];
const BROWSER_PACKAGES = ['chromium'];
// The render farm's tests and benchmark start their own Redis server (BullMQ's store).
const REDIS_PACKAGES = ['redis-server'];
const LAVAPIPE_DIR = join(root, '.vulkan');
const LAVAPIPE_ICD = join(LAVAPIPE_DIR, 'lvp_icd.json');

function log(message) {
  console.log(`[setup] ${message}`);
}

function fail(message) {
  console.error(`[setup] ${message}`);
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) fail(`\`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal}).`);
}

function npmPackagesMissing() {
  const marker = join(root, 'node_modules', '.package-lock.json');
  if (!existsSync(marker)) return true;
  const lock = join(root, 'package-lock.json');
  return existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs;
}

function installNpmPackages() {
  if (!npmPackagesMissing()) return;
  log('installing npm packages');
  const lock = existsSync(join(root, 'package-lock.json'));
  run('npm', [lock ? 'ci' : 'install', '--no-audit', '--no-fund'], { cwd: root });
}

function debianPackagesMissing(names) {
  const result = spawnSync('dpkg-query', ['-W', '-f=${Package} ${Status}\n', ...names], { encoding: 'utf8' });
  const installed = new Set(
    (result.stdout ?? '').split('\n').filter((line) => line.endsWith(' installed')).map((line) => line.split(/[ :]/)[0]),
  );
  return names.filter((name) => !installed.has(name));
}

let aptUpdated = false;
function installDebianPackages(names, why) {
  const missing = debianPackagesMissing(names);
  if (missing.length === 0) return;
  if (!isRoot) {
    fail(`${why} needs Debian packages that are not installed. Run as root:\n` +
      `  apt-get update && apt-get install -y ${missing.join(' ')}`);
  }
  log(`installing Debian packages for ${why}: ${missing.join(' ')}`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) run('apt-get', ['update', '-q'], { env });
  aptUpdated = true;
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { env });
}

// lavapipe from Mesa 25: the 22.x in plain bookworm lacks features Dawn needs. It is fetched with a
// private apt configuration that names bookworm-backports, so the system's apt sources stay as they are.
function installLavapipe() {
  if (existsSync(LAVAPIPE_ICD)) return;
  if (!existsSync('/usr/bin/apt-get')) fail('lavapipe is fetched with apt-get, which this machine lacks; set VK_ICD_FILENAMES to a Vulkan driver instead.');
  log('fetching Mesa lavapipe (mesa-vulkan-drivers from bookworm-backports) into .vulkan/');
  const apt = join(LAVAPIPE_DIR, 'apt');
  rmSync(LAVAPIPE_DIR, { recursive: true, force: true });
  for (const dir of ['lists/partial', 'cache/archives/partial', 'debs']) mkdirSync(join(apt, dir), { recursive: true });
  writeFileSync(join(apt, 'sources.list'), 'deb http://deb.debian.org/debian bookworm-backports main\n');
  const options = [
    '-o', `Dir::Etc::SourceList=${join(apt, 'sources.list')}`, '-o', 'Dir::Etc::SourceParts=/dev/null',
    '-o', `Dir::State::Lists=${join(apt, 'lists')}`, '-o', `Dir::Cache=${join(apt, 'cache')}`,
    '-o', 'APT::Sandbox::User=root', '-q',
  ];
  run('apt-get', [...options, 'update']);
  run('apt-get', [...options, 'download', 'mesa-vulkan-drivers/bookworm-backports'], { cwd: join(apt, 'debs') });
  const deb = readdirSync(join(apt, 'debs')).find((name) => name.endsWith('.deb'));
  if (!deb) fail('apt-get download gave no mesa-vulkan-drivers package.');
  run('dpkg-deb', ['-x', join(apt, 'debs', deb), join(LAVAPIPE_DIR, 'mesa')]);
  const library = join(LAVAPIPE_DIR, 'mesa', 'usr', 'lib', 'x86_64-linux-gnu', 'libvulkan_lvp.so');
  if (!existsSync(library)) fail(`${deb} holds no libvulkan_lvp.so.`);
  rmSync(apt, { recursive: true, force: true });
  writeFileSync(LAVAPIPE_ICD, JSON.stringify({ file_format_version: '1.0.0', ICD: { api_version: '1.4.305', library_path: library } }, null, 2));
  log(`lavapipe ready: ${LAVAPIPE_ICD}`);
}

function installVulkanDriver() {
  if (process.env.VK_ICD_FILENAMES) return; // the user chose a driver
  if (process.arch !== 'x64' || process.platform !== 'linux') return; // Dawn uses the platform's own API
  installDebianPackages(VULKAN_PACKAGES, 'Dawn on a software Vulkan driver');
  installLavapipe();
}

installNpmPackages();
if (purpose === 'test' || purpose === 'bench') installVulkanDriver();
if (purpose === 'test') installDebianPackages(BROWSER_PACKAGES, 'the browser tests (headless Chromium)');
if (purpose === 'test' && !existsSync('/usr/bin/chromium')) fail('/usr/bin/chromium is missing after install.');
if (purpose === 'test' || purpose === 'bench') installDebianPackages(REDIS_PACKAGES, 'the render farm (a Redis server for BullMQ)');
