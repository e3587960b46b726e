import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const DIST = path.resolve(__dirname, '..', '..', 'packages', 'crawler', 'dist');

describe('closing the extraction pool', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'extraction-pool-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // Node 20 aborts the whole process (`v8::Module::IsGraphAsync must be used on an instantiated module`) when a
  // thread is terminated while it loads an ES module through require(), as jsdom's selector engine is: a
  // process that closed its pool at that moment died (seen in CI). Which moment that is cannot be chosen, so
  // the test checks what prevents it: a thread that has started is never stopped before its modules are loaded.
  it('waits for threads that are still loading their modules, however early it is asked', () => {
    const marks = path.join(dir, 'marks.log');
    // Preloaded in every thread of the child: notes when a pool thread starts and when its entry, its modules
    // loaded, says so to the pool (noted before the message leaves: a mark written after the entry's require()
    // returned could be cut off by a close that the message itself let go on).
    const hook = path.join(dir, 'hook.js');
    fs.writeFileSync(
      hook,
      `const fs = require('node:fs');
       const { isMainThread, parentPort, threadId } = require('node:worker_threads');
       if (!isMainThread) {
         fs.appendFileSync(${JSON.stringify(marks)}, 'started ' + threadId + '\\n');
         const post = parentPort.postMessage.bind(parentPort);
         parentPort.postMessage = function (message, ...rest) {
           if (message && message.extractionThreadLoaded !== undefined) fs.appendFileSync(${JSON.stringify(marks)}, 'loaded ' + threadId + '\\n');
           return post(message, ...rest);
         };
       }`,
    );
    const script = `
      const fs = require('node:fs');
      const { createExtractionPool } = require(${JSON.stringify(path.join(DIST, 'extraction-pool.js'))});
      const started = () => (fs.existsSync(${JSON.stringify(marks)}) ? fs.readFileSync(${JSON.stringify(marks)}, 'utf8') : '')
        .split('\\n').filter((line) => line.startsWith('started')).length;
      (async () => {
        const pool = createExtractionPool({ threads: 2 });
        // Close as soon as both threads run, long before they can have loaded jsdom.
        while (started() < 2) await new Promise((resolve) => setTimeout(resolve, 2));
        await pool.close();
        console.log('closed');
      })();
    `;
    const child = spawnSync(process.execPath, ['-r', hook, '-e', script], { encoding: 'utf8', timeout: 50_000 });
    expect(child.stdout.trim()).toBe('closed');
    expect(child.status).toBe(0);
    const lines = fs.readFileSync(marks, 'utf8').trim().split('\n').sort();
    const threads = (word: string) => lines.filter((line) => line.startsWith(word)).map((line) => line.split(' ')[1]);
    expect(threads('started')).toHaveLength(2);
    expect(threads('loaded')).toEqual(threads('started'));
  });
});
