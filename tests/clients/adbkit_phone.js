// @devicefarmer/adbkit (clients/appium's lockfile) against a phone, as its README uses it.
// Run by tests/test_adbkit_client.py:
//   node adbkit_phone.js NODE_MODULES_PARENT ADB_PORT SERIAL APK PACKAGE CHECK...
// Prints one JSON line per check: {"check": NAME, "ok": true, ...facts} or {"check", "ok": false, "error"}.
// Nothing here knows the phone is virtual.
'use strict';

const { createRequire } = require('module');
const path = require('path');
const { PassThrough } = require('stream');

const [clientsDir, adbPort, serial, apk, apkPackage, ...checks] = process.argv.slice(2);
const requireClient = createRequire(path.join(clientsDir, 'package.json'));
const { Adb } = requireClient('@devicefarmer/adbkit');

const client = Adb.createClient({ port: Number(adbPort) });
const device = client.getDevice(serial);
//: bound on each check, so that a check that waits forever fails alone
const CHECK_TIMEOUT_MS = 60000;

function readAll(stream) {
  return Adb.util.readAll(stream);
}

function once(emitter, event, predicate = () => true) {
  return new Promise((resolve, reject) => {
    const listener = (value) => {
      if (predicate(value)) {
        emitter.removeListener(event, listener);
        resolve(value);
      }
    };
    emitter.on(event, listener);
    emitter.once('error', reject);
  });
}

const CHECKS = {
  async list() {
    const devices = await client.listDevices();
    return { devices };
  },

  async shell() {
    const out = await readAll(await device.shell('echo hello; getprop ro.build.type'));
    return { output: out.toString() };
  },

  async pushPull() {
    const payload = Buffer.from(Array.from({ length: 200000 }, (_, i) => (i * 7) % 256));
    const remote = '/sdcard/Download/adbkit.bin';
    const push = await device.push(new PassThrough().end(payload), remote, 0o644);  // a byte stream
    await once(push, 'end');
    const pull = await device.pull(remote);
    const back = await readAll(pull);
    const stat = await device.stat(remote);
    return { same: Buffer.compare(payload, back) === 0, size: stat.size, pushed: payload.length };
  },

  async screencap() {
    const png = await readAll(await device.screencap());
    return {
      signature: png.subarray(0, 8).toString('hex'),
      width: png.readUInt32BE(16),
      height: png.readUInt32BE(20),
    };
  },

  async install() {
    const before = await device.isInstalled(apkPackage);
    const installed = await device.install(apk);
    const after = await device.isInstalled(apkPackage);
    const tmp = (await readAll(await device.shell('ls /data/local/tmp'))).toString();
    return { before, installed, after, leftInTmp: tmp.includes(path.basename(apk)) };
  },

  async properties() {
    const props = await device.getProperties();
    const model = (await readAll(await device.shell('getprop ro.product.model'))).toString().trim();
    return {
      buildType: props['ro.build.type'],
      debuggable: props['ro.debuggable'],
      modelMatches: props['ro.product.model'] === model,
      count: Object.keys(props).length,
    };
  },

  async openLogcat() {
    const logcat = await device.openLogcat();
    try {
      const seen = once(logcat, 'entry', (entry) => entry.tag === 'AdbkitTest');
      await readAll(await device.shell('log -t AdbkitTest -p w hello from adbkit'));
      const entry = await seen;
      return { priority: entry.priority, message: entry.message, pid: entry.pid, hasDate: entry.date > 0 };
    } finally {
      logcat.end();
    }
  },

  async trackDevices() {
    // `adb disconnect` then `adb connect` the phone while tracking: the server reports it gone,
    // then back (first offline, then device). The events for devices already there when the
    // tracker starts may fire before a listener can be attached, so they are not awaited.
    const [host, port] = serial.split(':');
    const tracker = await client.trackDevices();
    const events = [];
    for (const name of ['add', 'remove', 'change']) {
      tracker.on(name, (d) => { if (d.id === serial) events.push([name, d.type]); });
    }
    try {
      const removed = once(tracker, 'remove', (d) => d.id === serial);
      await client.disconnect(host, Number(port));
      await removed;
      const online = new Promise((resolve) => {
        for (const name of ['add', 'change']) {
          tracker.on(name, (d) => { if (d.id === serial && d.type === 'device') resolve(); });
        }
      });
      await client.connect(host, Number(port));
      await online;
      return { events };
    } finally {
      tracker.end();
    }
  },

  async waitBootComplete() {
    return { booted: await device.waitBootComplete() };
  },

  async root() {
    return { rooted: await device.root() };
  },
};

function withTimeout(promise, name) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${name} did not finish in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

(async () => {
  for (const name of checks) {
    try {
      const facts = await withTimeout(CHECKS[name](), name);
      console.log(JSON.stringify({ check: name, ok: true, ...facts }));
    } catch (err) {
      console.log(JSON.stringify({ check: name, ok: false, error: String(err && err.stack || err) }));
    }
  }
  process.exit(0);
})();
